"""Self-play speed: complete games per minute per title and bot, and the time to list the
legal moves at a position (median and 99th percentile).

    python3 benchmarks/selfplay.py [--games N] [--players P] [--titles T1,T2] [--bots B1,B2]

For each title (every title the engine supports, unless ``--titles``) and bot kind, plays
``--games`` games with that bot in every seat (seeds 1 … N) to the end, timing the whole
games by wall clock; then, on the positions of the first game, times
``Game.legal_actions()`` (CPU time of this process). Prints one JSON object per title and
bot, and a table. Games a minute are given by wall clock and by this process's CPU time
(one core's worth of work, the fair figure on a machine other work shares).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer.io.export import open_game  # noqa: E402
from tracklayer.play.selfplay import play_game  # noqa: E402
from tracklayer.titles import supported_titles, title_like  # noqa: E402
from bench_stats import percentile  # noqa: E402


def listing_times(export: dict, positions: int) -> list:
    """CPU seconds of ``legal_actions()`` at (up to) ``positions`` positions of a game."""
    game = open_game(export, keep_log=False)
    out = []
    for h in (export.get("actions") or [])[:positions]:
        start = time.process_time()
        game.legal_actions()
        out.append(time.process_time() - start)
        game.apply(h)
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=5)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--titles", default=",".join(supported_titles()))
    p.add_argument("--bots", default="random,greedy")
    p.add_argument("--positions", type=int, default=400, help="positions timed for listing")
    args = p.parse_args(argv)
    rows = []
    for found in [title_like(t) for t in args.titles.split(",") if t]:
        name = found.name
        low, high = found.player_range
        players = min(max(args.players, low), high)
        for kind in [b for b in args.bots.split(",") if b]:
            start, cpu_start = time.perf_counter(), time.process_time()
            games = [play_game(name, [kind] * players, seed, keep=(seed == 1))
                     for seed in range(1, args.games + 1)]
            wall = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
            done = [g for g in games if g["error"] is None]
            times = sorted(listing_times(games[0]["export"], args.positions))
            row = {"title": name, "bot": kind, "players": players, "games": len(games),
                   "errors": len(games) - len(done),
                   "games_per_minute": round(60 * len(done) / wall, 2),
                   "games_per_cpu_minute": round(60 * len(done) / cpu, 2),
                   "mean_actions": round(statistics.mean(g["actions"] for g in games), 1),
                   "listing_ms_median": round(1000 * statistics.median(times), 3),
                   "listing_ms_p99": round(1000 * percentile(times, 99), 3),
                   "positions_timed": len(times)}
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(f"{'title':<36} {'bot':<7} {'games/min':>9} {'/cpu min':>8} {'actions':>8} "
          f"{'list median ms':>14} {'p99 ms':>8}")
    for r in rows:
        print(f"{r['title']:<36} {r['bot']:<7} {r['games_per_minute']:>9} "
              f"{r['games_per_cpu_minute']:>8} "
              f"{r['mean_actions']:>8} {r['listing_ms_median']:>14} {r['listing_ms_p99']:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
