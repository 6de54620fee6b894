"""The command line: ``tracklayer verify|trace ...``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import List, Optional


def _verify_one(path: str, repeat: int) -> dict:
    from .engine.errors import GameError
    from .engine.replay import load_export, replay

    data = load_export(path)
    seconds: List[float] = []
    game = None
    error = None
    for _ in range(max(1, repeat)):
        start = time.perf_counter()
        try:
            game = replay(data)
        except (GameError, KeyError) as e:
            error = str(e)
            game = None
        seconds.append(time.perf_counter() - start)
        if error:
            break
    out = {
        "title": data.get("title"),
        "file": path,
        "actions": len(data.get("actions") or []),
        "match": False,
        "end_reason": None,
        "result": None,
        "seconds": seconds if repeat > 1 else seconds[0],
    }
    if error:
        out["error"] = error
        return out
    result = {str(k): v for k, v in game.result().items()}
    expected = {str(k): v for k, v in (data.get("result") or {}).items()}
    out["end_reason"] = game.game_end_reason
    out["result"] = result
    out["finished"] = game.finished
    out["money_conserved"] = game.total_money() == game.starting_money
    out["match"] = (game.finished and result == expected
                    and game.game_end_reason == data.get("game_end_reason")
                    and out["money_conserved"])
    if not out["match"]:
        problems = []
        if not game.finished:
            problems.append(f"game not finished (at {game.round.name} {game.turn})")
        if result != expected:
            problems.append(f"result {result} != recorded {expected}")
        if game.game_end_reason != data.get("game_end_reason"):
            problems.append(f"end reason {game.game_end_reason} != recorded "
                            f"{data.get('game_end_reason')}")
        if not out["money_conserved"]:
            problems.append(f"money not conserved: {game.total_money()} != "
                            f"{game.starting_money}")
        out["error"] = "; ".join(problems)
    return out


def cmd_verify(args) -> int:
    ok = True
    for path in args.files:
        out = _verify_one(path, args.repeat)
        ok = ok and out["match"]
        if args.json:
            print(json.dumps(out, sort_keys=True))
        else:
            status = "result match" if out["match"] else f"FAILED: {out.get('error')}"
            print(f"{out['title']} {os.path.basename(path)}: {out['actions']} actions, {status}, "
                  f"end reason {out['end_reason']}")
    return 0 if ok else 1


def cmd_trace(args) -> int:
    from .engine.errors import GameError
    from .engine.replay import load_export, states
    from .trace import dumps, snapshot

    data = load_export(args.file)
    out = open(args.output, "w", encoding="utf-8") if args.output != "-" else sys.stdout
    try:
        for index, h, game in states(data):
            out.write(dumps(snapshot(game, index, h)) + "\n")
    except GameError as e:
        print(f"trace stopped: {e}", file=sys.stderr)
        return 1
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="tracklayer", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("verify", help="replay 18xx.games exports and compare their results")
    p.add_argument("files", nargs="+")
    p.add_argument("--json", action="store_true", help="one JSON object per file")
    p.add_argument("--repeat", type=int, default=1, help="replay N times (for timing)")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("trace", help="write the state after every action (trace format)")
    p.add_argument("file")
    p.add_argument("-o", "--output", default="-")
    p.set_defaults(func=cmd_trace)

    args = parser.parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
