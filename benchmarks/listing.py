"""Listing speed: the time to list the legal moves at each position of every fixture.

    python3 benchmarks/listing.py [--positions N] [--repeat R] [--slowest K] [FILES...]

Replays each game and, before each logged action that the listing covers (not undo, redo,
chat nor programs), times ``legal_actions()`` as CPU time of this process (less disturbed
by other work on the machine than wall time). Reports per game the positions timed, the
total, p50, p99 and the worst, and the log entry of the worst. With ``--repeat R`` the game
is replayed R times afresh and each position keeps its fastest time (each is still the
first listing at that position of its replay: a machine's noise, not the cost, is what
the repeats take out). With ``--slowest K`` the K slowest positions of each game follow
its line: the log entry, its time and the kind of action taken there (where to look when
the p99 moves).
"""

from __future__ import annotations

import argparse
import gc
import glob
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer.io.export import load_export, open_game  # noqa: E402
from tracklayer.play.legality import skipped_kind  # noqa: E402
from bench_stats import percentile  # noqa: E402


def time_game(path: str, limit: int = 0) -> tuple:
    """The listing times (seconds) at each position of the game, with their log entries."""
    data = load_export(path)
    game = open_game(data, keep_log=False)
    times, entries = [], []
    for index, h in enumerate(data.get("actions") or []):
        if not skipped_kind(h.get("type") if isinstance(h, dict) else None) \
                and not game.is_over:
            t = time.process_time()
            game.legal_actions()
            times.append(time.process_time() - t)
            entries.append(index)
            if limit and len(times) >= limit:
                break
        game.apply(h)
    return times, entries


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="*")
    p.add_argument("--positions", type=int, default=0, help="at most N positions a game")
    p.add_argument("--repeat", type=int, default=1,
                   help="replay each game R times, keeping each position's fastest time")
    p.add_argument("--slowest", type=int, default=0,
                   help="list each game's K slowest positions after its line")
    p.add_argument("--shared", default=os.path.join(os.path.dirname(HERE), "..", "shared"))
    args = p.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(args.shared, "fixtures", "*", "*.json")))
    print(f"{'game':60} {'positions':>9} {'total s':>8} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'worst ms':>8} {'at':>5}")
    for path in files:
        gc.collect()
        times, entries = time_game(path, args.positions)
        for _ in range(args.repeat - 1):
            gc.collect()
            again, _ = time_game(path, args.positions)
            times = [min(a, b) for a, b in zip(times, again)]
        if not times:
            continue
        worst = max(range(len(times)), key=times.__getitem__)
        name = os.path.relpath(path, os.path.join(args.shared, "fixtures")) \
            if not args.files else os.path.basename(path)
        print(f"{name:60} {len(times):9d} {sum(times):8.2f} "
              f"{1000 * statistics.median(times):7.2f} {1000 * percentile(times, 99):7.2f} "
              f"{1000 * times[worst]:8.2f} {entries[worst]:5d}")
        if args.slowest:
            actions = load_export(path).get("actions") or []
            for at in sorted(range(len(times)), key=times.__getitem__, reverse=True)[
                    :args.slowest]:
                entry = entries[at]
                print(f"    entry {entry:5d} {1000 * times[at]:7.2f} ms  "
                      f"{actions[entry].get('type')} by {actions[entry].get('entity')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
