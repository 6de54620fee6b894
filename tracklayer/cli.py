"""The command line: ``tracklayer verify|trace|routes|guide|walkthrough|serve|check-games
...``, and the playing commands (``legal``, ``new``, ``play``, ``selfplay``:
``tracklayer.play.commands``)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import List, Optional

from .errors import GameError
from .finder import find_best_routes
from .io.export import load_export, open_game, positions, recorded_revenue, replay, \
    route_positions
from .play.commands import add_commands
from .state.model import OperatorState
from .trace import dumps, snapshot
from .web.server import serve


def _verify_one(path: str, repeat: int) -> dict:
    try:
        data = load_export(path)
    except (OSError, ValueError) as e:
        return {"title": None, "file": path, "actions": 0, "match": False, "end_reason": None,
                "result": None, "seconds": [] if repeat > 1 else 0.0,
                "error": f"cannot read {path}: {e}"}
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
    out["end_reason"] = game.end_reason
    out["result"] = result
    out["finished"] = game.is_over
    out["money_conserved"] = game.total_money() == game.starting_money
    out["match"] = (game.is_over and result == expected
                    and game.end_reason == data.get("game_end_reason")
                    and out["money_conserved"])
    if not out["match"]:
        problems = []
        if not game.is_over:
            problems.append(f"game not finished (at {game.table.round.NAME} "
                            f"{game.state.turn})")
        if result != expected:
            problems.append(f"result {result} != recorded {expected}")
        if game.end_reason != data.get("game_end_reason"):
            problems.append(f"end reason {game.end_reason} != recorded "
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
    data = load_export(args.file)
    out = open(args.output, "w", encoding="utf-8") if args.output != "-" else sys.stdout
    try:
        for index, h, game in positions(data, trusted=args.trusted):
            out.write(dumps(snapshot(game, index, h)) + "\n")
    except GameError as e:
        print(f"trace stopped: {e}", file=sys.stderr)
        return 1
    finally:
        if out is not sys.stdout:
            out.close()
    return 0


def cmd_routes(args) -> int:
    """Best routes for the company operating before log entry ``--action N`` (or at every
    ``run_routes`` entry with ``--all``): revenue, whether proven optimal, search time."""
    data = load_export(args.file)
    entries = data.get("actions") or []
    if args.all:
        found = route_positions(data)
    else:
        if args.action is None or not 0 <= args.action < len(entries):
            print(f"--action must be a log entry, 0 to {len(entries) - 1}", file=sys.stderr)
            return 2
        game = open_game(data, keep_log=False)
        try:
            for h in entries[:args.action]:
                game.apply(h)
        except GameError as e:
            print(f"cannot replay to entry {args.action}: {e}", file=sys.stderr)
            return 1
        entry = entries[args.action]
        entity = game.table.find(entry.get("entity_type"), entry.get("entity")) \
            if entry.get("type") == "run_routes" else game.acting
        if not isinstance(entity, OperatorState):
            print(f"no company is operating before entry {args.action}", file=sys.stderr)
            return 1
        found = [(args.action, entry, game, entity)]
    worse = 0
    for index, entry, game, entity in found:
        result = find_best_routes(game.table, entity, budget_s=args.budget)
        recorded = recorded_revenue(entry) if entry.get("type") == "run_routes" else None
        if recorded is not None and result.revenue < recorded:
            worse += 1
        if args.json:
            print(json.dumps({"action": index, "id": entry.get("id"), "entity": entity.name,
                              "recorded": recorded, "revenue": result.revenue,
                              "proven": result.proven, "ms": round(result.ms, 3),
                              "routes": result.routes}))
            continue
        status = "optimal (proven)" if result.proven else "best found, not proven optimal"
        if result.stats.get("uncovered"):
            status += f" (title rules the finder is not told about: " \
                      f"{', '.join(result.stats['uncovered'])})"
        was = "" if recorded is None else f" (recorded {recorded})"
        print(f"entry {index}: {entity.name} earns {result.revenue}{was}, {status}, "
              f"{result.ms:.1f} ms")
        for r in result.routes:
            print(f"  {r['train']:>6} {r['revenue']:>5}  {r['revenue_str']}")
    return 1 if worse else 0


def cmd_check_games(args) -> int:
    """Replay the web app's stored games (web.check_games; needs the web extra)."""
    try:
        from .web import check_games
        from .web.server import default_db
    except ImportError as e:
        print(f"tracklayer check-games needs the web extra ({e}): pip install "
              "'tracklayer[web]'", file=sys.stderr)
        return 2
    return check_games.main(args.db or default_db(), args.json, jobs=args.jobs)


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
    p.add_argument("--trusted", action="store_true",
                   help="replay the log as one this engine accepted (what can only refuse "
                        "an entry not asked)")
    p.set_defaults(func=cmd_trace)

    p = sub.add_parser("routes", help="the best routes for an operating company")
    p.add_argument("file")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--action", type=int, help="for the company operating before entry N")
    where.add_argument("--all", action="store_true", help="at every run_routes entry")
    p.add_argument("--json", action="store_true", help="one JSON object per position")
    p.add_argument("--budget", type=float, default=10.0,
                   help="seconds per position before settling for the best found")
    p.set_defaults(func=cmd_routes)
    add_commands(sub)

    p = sub.add_parser("serve", help="the web app: play in the browser (needs the web extra)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", default=None,
                   help="SQLAlchemy database URL (default: sqlite file tracklayer.db here)")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--redis", default=os.environ.get("TRACKLAYER_REDIS"),
                   help="Redis URL for live updates between workers")
    p.add_argument("--games-per-minute", type=float, default=None,
                   help="games one client address may make a minute after its first 30 "
                        "(default 6; 0: no limit)")
    p.set_defaults(func=lambda a: serve(a.host, a.port, a.db, a.workers, a.redis,
                                        a.games_per_minute))

    p = sub.add_parser("check-games", help="replay every game the web app stores under "
                       "these rules and list those that would diverge (changes nothing)")
    p.add_argument("--db", default=None, help="SQLAlchemy database URL (default: the sqlite "
                   "file tracklayer.db here, as tracklayer serve uses)")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="processes replaying games side by side (default: one per CPU)")
    p.set_defaults(func=cmd_check_games)

    # Guides and walkthroughs (issue 12): their commands live in tracklayer/guide.
    from .guide.commands import add_commands as add_guide_commands
    add_guide_commands(sub)

    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except (OSError, ValueError, GameError) as e:  # unreadable file, bad JSON, bad game
        print(f"tracklayer {args.command}: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
