"""The command line's playing commands: ``legal``, ``new``, ``play`` and ``selfplay``
(registered by ``tracklayer.cli``)."""

from __future__ import annotations

import json
import os
import sys
import time

from ..io.export import load_export, open_game
from ..titles import title_like
from . import legality, selfplay, terminal
from .roster import BOTS


def cmd_legal(args) -> int:
    """``--check``: the listing checked along each game's log (one summary per game);
    otherwise the legal moves at the end of the game (or before entry ``--action N``)."""
    ok = True
    for path in args.files:
        data = load_export(path)
        if args.check:
            out = dict(legality.check(data, sample=args.sample, seed=args.seed), file=path)
            ok = ok and not out["missing"] and not out["listed_refused"] and not out["error"]
            if args.json:
                print(json.dumps(out, sort_keys=True))
            else:
                print(f"{out['title']} {os.path.basename(path)}: {out['positions']} positions, "
                      f"{out['found']} found, {out['missing']} missing; "
                      f"{out['listed_tried']} listed tried, {out['listed_refused']} refused "
                      f"({out['seconds']} s){'; ' + out['error'] if out['error'] else ''}")
                for ex in out["missing_examples"] + out["refused_examples"]:
                    print(f"  {json.dumps(ex)[:300]}")
            continue
        game = open_game(data, keep_log=False)
        for h in (data.get("actions") or [])[:args.action]:
            game.apply(h)
        moves = game.legal_actions()
        if args.json:
            print(json.dumps({"file": path, "actions": len(game.actions), "legal": moves}))
        else:
            for i, h in enumerate(moves, 1):
                print(f"{i:>4}  {json.dumps(h)}")
    return 0 if ok else 1


def _rules(text: str) -> list:
    return [r for r in (text or "").split(",") if r]


def cmd_new(args) -> int:
    data = terminal.new_export(args.title, args.players.split(","), args.seed,
                               _rules(args.rules), args.bot_seed)
    with open(args.output, "w", encoding="utf-8") as f:
        json.dump(data, f)
    print(f"{data['title']}: {', '.join(p['name'] for p in data['players'])} "
          f"(seed {args.seed}) in {args.output}; play it with: tracklayer play {args.output}")
    return 0


def cmd_play(args) -> int:
    """The game at the terminal; Ctrl-C stops it as ``q`` does (every action is saved)."""
    try:
        return terminal.play(args.file, sys.stdin)
    except KeyboardInterrupt:
        print(f"\nstopped; the game is saved in {args.file}")
        return 130


def cmd_selfplay(args) -> int:
    """Whole games of bots; one JSON object per game with ``--json``, else a table."""
    bots = [b for b in args.bots.split(",") if b]
    unknown = sorted(set(bots) - set(BOTS))
    if not bots or unknown:
        raise ValueError(f"--bots needs a bot per seat, each one of {', '.join(sorted(BOTS))}"
                         + (f" (not {', '.join(unknown)})" if unknown else ""))
    found = title_like(args.title)
    low, high = found.player_range
    if not low <= len(bots) <= high:
        raise ValueError(f"{found.name} is for {low}-{high} players, not {len(bots)} bots")
    name = found.name
    if args.save:
        os.makedirs(args.save, exist_ok=True)
    games = selfplay.run(name, bots, args.games, seed=args.seed, jobs=args.jobs,
                         optional_rules=_rules(args.rules), max_actions=args.max_actions,
                         keep=bool(args.save), ray=args.ray)
    ok = True
    rows = []
    start = time.perf_counter()
    for out in games:
        export = out.pop("export", None)
        if export is not None:
            path = os.path.join(args.save, f"selfplay-{out['seed']}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(export, f)
        ok = ok and out["error"] is None
        if args.json:
            print(json.dumps(out), flush=True)
        else:
            rows.append(out)
            print(f"game {len(rows)}/{args.games}: seed {out['seed']}, {out['actions']} "
                  f"actions, {out['end_reason']}, {out['result']}, {out['seconds']} s"
                  f"{', ' + out['error'] if out['error'] else ''}", file=sys.stderr)
    if not args.json:
        _selfplay_table(rows, bots, time.perf_counter() - start)
    return 0 if ok else 1


def _selfplay_table(rows: list, bots: list, seconds: float) -> None:
    from rich.console import Console
    from rich.table import Table

    wins = [0.0] * len(bots)
    for out in rows:
        best = selfplay.winners(out) or []
        for s in best:
            wins[s] += 1 / len(best)
    table = Table("seat", "bot", "wins", "mean score", title=f"{len(rows)} games, "
                  f"{sum(1 for r in rows if r['error'])} errors, {seconds:.1f} s")
    for i, b in enumerate(bots):
        scores = [r["result"][i] for r in rows if r["result"]]
        table.add_row(str(i + 1), b, f"{wins[i]:g}",
                      f"{sum(scores) / len(scores):.0f}" if scores else "-")
    Console().print(table)


def add_commands(sub) -> None:
    """The playing commands' parsers, on the command line's ``sub`` parsers."""
    p = sub.add_parser("legal", help="legal moves of a recorded game, or (--check) the "
                                     "listing checked at every position of its log")
    p.add_argument("files", nargs="+")
    p.add_argument("--check", action="store_true",
                   help="is every action taken listed, and is every listed action sampled "
                        "accepted?")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.add_argument("--action", type=int, default=None,
                   help="the moves before log entry N (default: at the end)")
    p.add_argument("--sample", type=int, default=2,
                   help="listed actions applied to a copy at each position (--check)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sample (--check)")
    p.set_defaults(func=cmd_legal)

    p = sub.add_parser("new", help="a new game file, for people and bots (bot:greedy, "
                                   "bot:random)")
    p.add_argument("title")
    p.add_argument("--players", required=True, help='e.g. "Ann,Bob,bot:greedy"')
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--bot-seed", type=int, default=None, help="the bots' seed (default: "
                                                               "the game's)")
    p.add_argument("--rules", default="", help="optional rules, comma-separated")
    p.add_argument("-o", "--output", default="game.json")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("play", help="play a game file at the terminal (hotseat and bots)")
    p.add_argument("file")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("selfplay", help="whole games of bots, money checked after every "
                                        "action")
    p.add_argument("title")
    p.add_argument("--games", type=int, default=1)
    p.add_argument("--bots", default="random,random,random", help="a bot per seat")
    p.add_argument("--seed", type=int, default=1, help="the first game's seed")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.add_argument("--rules", default="", help="optional rules, comma-separated")
    p.add_argument("--max-actions", type=int, default=selfplay.MAX_ACTIONS)
    p.add_argument("--save", default=None, help="write each game's export in this folder")
    p.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                   help="play the games on Ray: a cluster's address, or none for a local "
                        "instance of --jobs CPUs (pip install -e '.[ray]')")
    p.set_defaults(func=cmd_selfplay)
