"""Route finder speed: time to find the best routes at every ``run_routes`` entry of the
fixtures of the supported titles.

    python3 benchmarks/routes.py [--repeat N] [--budget S] [--slowest N] [FILES...]

Times :func:`tracklayer.finder.find_best_routes` alone (network, search and the
routes in action format) as CPU time of this process (less disturbed by other work on the
machine than wall time; ``--wall`` for wall time), the median of N runs per position,
each building the operator's graph afresh as the first search after a lay or token does
(the graph kept until the board changes is dropped before each run);
reports per title and overall the median, 99th percentile (nearest rank) and maximum over
positions, how many answers are proven optimal, and how many earn more than the players
did (and, which should never happen, less). ``--slowest N`` then lists the N slowest
positions (file, index among its run_routes entries, operator, trains, candidates).
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer.finder import find_best_routes  # noqa: E402
from tracklayer.finder.graph import forget_network_of  # noqa: E402
from tracklayer.io.export import load_export, recorded_revenue, route_positions  # noqa: E402
from tracklayer.titles import supported_titles  # noqa: E402
from bench_stats import percentile  # noqa: E402

TITLE_DIRS = {"1893": "1893", "1849: Kingdom of the Two Sicilies": "1849KingdomoftheTwoSicilies",
              "1817NA": "1817NA", "The Old Prince 1871": "1871"}


def measure(path: str, repeat: int, budget: float, clock=time.process_time) -> list:
    """(ms, proven, ours, recorded, where) for every run_routes entry of the game at
    ``path``; ``where`` names the position for ``--slowest``."""
    out = []
    for k, (_, entry, game, entity) in enumerate(route_positions(load_export(path))):
        times = []
        for _ in range(repeat):
            forget_network_of(game.table, entity)
            t = clock()
            result = find_best_routes(game.table, entity, budget_s=budget)
            times.append((clock() - t) * 1000.0)
        trains = ",".join(t.name for t in entity.trains if not t.operated)
        where = (f"{os.path.basename(path)} #{k} {entity.id} [{trains}] "
                 f"candidates {result.stats.get('candidates', '-')}")
        out.append((statistics.median(times), result.proven, result.revenue,
                    recorded_revenue(entry), where))
    return out


def summary(rows: list) -> str:
    ms = sorted(r[0] for r in rows)
    proven = sum(1 for r in rows if r[1])
    better = sum(1 for r in rows if r[2] > r[3])
    worse = sum(1 for r in rows if r[2] < r[3])
    return (f"{len(rows):9d} {statistics.median(ms):9.2f} {percentile(ms, 99):9.2f} "
            f"{ms[-1]:9.2f} {proven:>4d}/{len(rows):<4d} {better:6d} {worse:6d}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="*")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--budget", type=float, default=10.0, help="seconds per position")
    p.add_argument("--wall", action="store_true", help="wall time instead of CPU time")
    p.add_argument("--slowest", type=int, default=0, help="list the N slowest positions")
    p.add_argument("--shared", default=os.path.join(os.path.dirname(HERE), "..", "shared"))
    args = p.parse_args()
    groups = {}
    if args.files:
        groups["(files)"] = args.files
    else:
        for title in supported_titles():
            folder = TITLE_DIRS.get(title, title)
            found = sorted(glob.glob(os.path.join(args.shared, "fixtures", folder, "*.json")))
            if found:
                groups[title] = found
    if not groups:
        print("no fixtures found", file=sys.stderr)
        return 1
    print(f"{'title':36} {'positions':>9} {'median ms':>9} {'p99 ms':>9} {'max ms':>9} "
          f"{'proven':>9} {'better':>6} {'worse':>6}")
    everything = []
    for title, files in groups.items():
        clock = time.perf_counter if args.wall else time.process_time
        rows = [r for path in files for r in measure(path, args.repeat, args.budget, clock)]
        everything += rows
        if rows:
            print(f"{title[:36]:36} {summary(rows)}")
    if len(groups) > 1 and everything:
        print(f"{'all':36} {summary(everything)}")
    for row in sorted(everything, key=lambda r: -r[0])[:args.slowest]:
        print(f"{row[0]:9.2f} ms  {row[4]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
