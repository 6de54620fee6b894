"""Replay speed: actions per second for every fixture of the supported titles.

    python3 benchmarks/replay.py [--repeat N] [FILES...]

Times only the replay (set-up of the game and all its actions), not interpreter start-up or
imports, as CPU time of this process (less disturbed by other work on the machine than wall
time); reports the best and the median of N runs, and actions per second at the median.
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

from tracklayer.io.export import load_export, replay  # noqa: E402
from tracklayer.titles import supported_titles  # noqa: E402

TITLE_DIRS = {"1893": "1893", "1849: Kingdom of the Two Sicilies": "1849KingdomoftheTwoSicilies",
              "1817NA": "1817NA", "The Old Prince 1871": "1871"}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("files", nargs="*")
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--shared", default=os.path.join(os.path.dirname(HERE), "..", "shared"))
    args = p.parse_args()
    files = args.files
    if not files:
        for title in supported_titles():
            folder = TITLE_DIRS.get(title, title)
            files += sorted(glob.glob(os.path.join(args.shared, "fixtures", folder, "*.json")))
    if not files:
        print("no fixtures found", file=sys.stderr)
        return 1
    print(f"{'game':60} {'actions':>7} {'best s':>8} {'median s':>9} {'actions/s':>10}")
    for path in files:
        data = load_export(path)
        n = len(data["actions"])
        replay(data)  # warm up
        times = []
        for _ in range(args.repeat):
            t = time.process_time()
            replay(data)
            times.append(time.process_time() - t)
        best, median = min(times), statistics.median(times)
        name = os.path.relpath(path, os.path.join(args.shared, "fixtures"))
        print(f"{name:60} {n:7d} {best:8.4f} {median:9.4f} {n / median:10.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
