"""Bot strength: one greedy bot against three random bots (the greedy bot's share of
wins), and greedy against greedy (wins seat by seat), in four-player games.

    python3 benchmarks/strength.py [--games N] [--titles T1,T2] [--jobs J] [--pairs N]

Plays ``--games`` games per title of greedy (seat 1) against three random bots, and
``--pairs`` games of four greedy bots, with seeds 1000 … (a tie counts as a share of a
win). Prints one JSON object per title and match-up, with the win rates also over the
games that ended by a rule (``dnf``: the engine's turn cap, reached when a game stalls with
no company left running).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer.play.selfplay import run, winners  # noqa: E402
from tracklayer.titles import supported_titles, title_like  # noqa: E402


def match(name: str, bots: list, games: int, jobs: int) -> dict:
    start = time.perf_counter()
    wins = [0.0] * len(bots)
    finished = [0.0] * len(bots)      # in games that ended by a rule, not the turn cap
    errors, reasons = 0, {}
    for out in run(name, bots, games, seed=1000, jobs=jobs):
        errors += out["error"] is not None
        reasons[out["end_reason"]] = reasons.get(out["end_reason"], 0) + 1
        best = winners(out) or []
        for s in best:
            wins[s] += 1 / len(best)
            if out["end_reason"] != "dnf":
                finished[s] += 1 / len(best)
    ended = max(1, games - reasons.get("dnf", 0))
    return {"title": name, "bots": bots, "games": games, "errors": errors,
            "end_reasons": reasons, "wins_by_seat": [round(w, 2) for w in wins],
            "win_rate_by_seat": [round(w / games, 3) for w in wins],
            "win_rate_by_seat_without_dnf": [round(w / ended, 3) for w in finished],
            "seconds": round(time.perf_counter() - start, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--pairs", type=int, default=20, help="games of greedy against greedy")
    p.add_argument("--titles", default=",".join(supported_titles()))
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args(argv)
    for name in [title_like(t).name for t in args.titles.split(",") if t]:
        low, high = title_like(name).player_range
        if not low <= 4 <= high:
            continue
        if args.games:
            out = match(name, ["greedy", "random", "random", "random"], args.games, args.jobs)
            out["greedy_win_rate"] = out["win_rate_by_seat"][0]
            print(json.dumps(out), flush=True)
        if args.pairs:
            print(json.dumps(match(name, ["greedy"] * 4, args.pairs, args.jobs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
