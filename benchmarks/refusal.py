"""What refusing an illegal action and one undo cost, late in a long game.

    python3 benchmarks/refusal.py [--json] [--at N] [--repeat R] [FILE]

Plays the first N entries (default 900) of the Two Sicilies bank-end game (or FILE) into a
game, then times, as wall time in milliseconds (median of R tries):

* ``refuse_ms``: ``Game.apply`` refusing an illegal action, the worst of several kinds
  (out of turn, a recorded run with its revenue changed, a train for 1, an unknown
  company, a legal tile lay turned the wrong way); after each, the game is checked to be
  exactly as it was;
* ``undo_ms``: ``Game.apply`` of an ``undo`` entry (each followed, untimed, by a ``redo``).

With ``--json`` it prints one JSON object ``{"refuse_ms": …, "undo_ms": …}``.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer import snapshot  # noqa: E402
from tracklayer.errors import GameError  # noqa: E402
from tracklayer.io.export import load_export, open_game  # noqa: E402
from tracklayer.state.model import PlayerState  # noqa: E402

DEFAULT = os.path.join(os.path.dirname(HERE), "..", "shared", "fixtures",
                       "1849KingdomoftheTwoSicilies",
                       "1849KingdomoftheTwoSicilies_game_end_bank.json")


def illegal_actions(game, entries: list, at: int) -> dict:
    """Several illegal actions at this point of the game, by kind."""
    nxt = next(h for h in entries[at:] if h.get("type") not in ("undo", "redo", "message"))
    run = next((h for h in entries[at:] if h.get("type") == "run_routes"), None)
    acting = game.acting
    owner = acting if isinstance(acting, PlayerState) else acting.owner
    other = next(p for p in game.state.players if p is not owner)
    out = {"out of turn": {"type": "pass", "entity": other.id, "entity_type": "player"},
           "unknown company": dict(nxt, entity="NOPE", entity_type="company"),
           "train for 1": {"type": "buy_train", "entity": nxt.get("entity"),
                                     "entity_type": nxt.get("entity_type"),
                                     "train": game.state.depot.every[-1].id, "price": 1}}
    if run is not None:
        changed = copy.deepcopy(run)
        changed["routes"][0]["revenue"] += 10
        out["run with its revenue changed"] = changed
    legal = game.legal_actions()
    lays = [h for h in legal if h.get("type") == "lay_tile"]
    for lay in lays:
        turned = [dict(lay, rotation=r) for r in range(6)]
        wrong = [h for h in turned if h not in legal]
        if wrong:
            out["tile turned the wrong way"] = wrong[0]
            break
    return out


def timed_ms(run) -> float:
    start = time.perf_counter()
    run()
    return (time.perf_counter() - start) * 1000


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file", nargs="?", default=DEFAULT)
    p.add_argument("--at", type=int, default=900)
    p.add_argument("--repeat", type=int, default=25)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if not os.path.exists(args.file):
        print(f"no such game: {args.file} (the shared test data is not present)",
              file=sys.stderr)
        return 2
    data = load_export(args.file)
    entries = data.get("actions") or []
    game = open_game(data, keep_log=False)
    for h in entries[:args.at]:
        game.apply(h)
    before = snapshot.take(game.table)

    def refuse(h) -> None:
        try:
            game.apply(h)
        except GameError:
            return
        raise SystemExit(f"not refused: {h}")

    refusals = {}
    for kind, h in illegal_actions(game, entries, args.at).items():
        refusals[kind] = statistics.median(timed_ms(lambda: refuse(h))
                                           for _ in range(args.repeat))
        if snapshot.take(game.table) != before:
            raise SystemExit(f"refusing '{kind}' changed the game")

    undos = []
    for _ in range(args.repeat):
        undos.append(timed_ms(lambda: game.apply({"type": "undo"})))
        game.apply({"type": "redo"})
    if snapshot.take(game.table) != before:
        raise SystemExit("undo and redo did not bring the game back")

    result = {"refuse_ms": round(max(refusals.values()), 3),
              "undo_ms": round(statistics.median(undos), 3)}
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"{os.path.basename(args.file)}, after {args.at} entries:")
    for kind, ms in refusals.items():
        print(f"  refusing {kind:32} {ms:8.3f} ms")
    print(f"  undo (median)                           {result['undo_ms']:8.3f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
