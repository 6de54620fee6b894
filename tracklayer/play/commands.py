"""The command line's playing commands: ``legal``, ``new``, ``play`` and ``selfplay``
(registered by ``tracklayer.cli``)."""

from __future__ import annotations

import json
import os

from ..io.export import load_export, open_game
from . import legality


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
