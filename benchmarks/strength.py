"""Bot strength in four-player games, seats rotated: one greedy bot against three random
bots, and one planner bot (0.1 s a move) against three greedy bots.

    python3 benchmarks/strength.py [--games N] [--planner-games N] [--titles T1,T2] [--jobs J]

Plays ``--games`` games per title (default 100) of greedy against three random bots and
``--planner-games`` (default 40) of planner against three greedy bots, with seeds 1000 …;
in game k the bot measured sits in seat k mod 4 (so no seat's advantage counts for it).
A tie for first counts as a share of a win. Prints one JSON object per title and match-up:
the measured bot's win rate, the target (greedy over random 0.9; planner over greedy 0.4:
0.25 is an equal share), the games' end reasons and errors, and the seconds the match
took; then a table.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer.play.selfplay import play_game, winners  # noqa: E402
from tracklayer.titles import supported_titles, title_like  # noqa: E402

PLAYERS = 4
TARGETS = {("greedy", "random"): 0.9, ("planner", "greedy"): 0.4}


def seating(hero: str, others: str, k: int) -> list:
    """The bots of game ``k``: ``hero`` in seat k mod 4, ``others`` elsewhere."""
    bots = [others] * PLAYERS
    bots[k % PLAYERS] = hero
    return bots


def _play(args) -> dict:
    return play_game(*args)


def match(name: str, hero: str, others: str, games: int, jobs: int, seed: int = 1000) -> dict:
    start = time.perf_counter()
    tasks = [(name, seating(hero, others, k), seed + k) for k in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            results = list(pool.map(_play, tasks))
    else:
        results = [_play(t) for t in tasks]
    wins, errors, reasons = 0.0, 0, {}
    for k, out in enumerate(results):
        errors += out["error"] is not None
        reason = out["end_reason"] if out["error"] is None else "error"
        reasons[reason] = reasons.get(reason, 0) + 1
        best = winners(out) or []
        if k % PLAYERS in best:
            wins += 1 / len(best)
    target = TARGETS.get((hero, others))
    rate = round(wins / max(1, games), 3)
    return {"title": name, "bot": hero, "against": f"3 {others}", "games": games,
            "wins": round(wins, 2), "win_rate": rate, "target": target,
            "met": target is not None and rate >= target, "errors": errors,
            "end_reasons": reasons,
            "error_messages": sorted({f"seed {seed + k}: {r['error']}"
                                      for k, r in enumerate(results) if r["error"]})[:3],
            "mean_actions": round(sum(r["actions"] for r in results) / max(1, games), 1),
            "seconds": round(time.perf_counter() - start, 1)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100, help="greedy against random, per title")
    p.add_argument("--planner-games", type=int, default=40,
                   help="planner against greedy, per title")
    p.add_argument("--titles", default=",".join(supported_titles()))
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seed", type=int, default=1000)
    args = p.parse_args(argv)
    rows = []
    for name in [title_like(t).name for t in args.titles.split(",") if t]:
        low, high = title_like(name).player_range
        if not low <= PLAYERS <= high:
            continue
        for hero, others, games in (("greedy", "random", args.games),
                                    ("planner", "greedy", args.planner_games)):
            if games:
                row = match(name, hero, others, games, args.jobs, args.seed)
                rows.append(row)
                print(json.dumps(row), flush=True)
    print(f"{'title':<36} {'bot':<8} {'against':<9} {'games':>5} {'win rate':>8} "
          f"{'target':>6}  end reasons")
    for r in rows:
        print(f"{r['title']:<36} {r['bot']:<8} {r['against']:<9} {r['games']:>5} "
              f"{r['win_rate']:>8} {r['target']:>6}  {r['end_reasons']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
