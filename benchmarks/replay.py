"""Replay speed: actions per second for every fixture of the supported titles.

    python3 benchmarks/replay.py [--repeat N] [--reference TIMES.jsonl] [FILES...]

Times only the replay (set-up of the game and all its actions), not interpreter start-up or
imports, as CPU time of this process (less disturbed by other work on the machine than wall
time); reports the best and the median of N runs, and actions per second at the median.
Each game is replayed two ways: *checked*, every entry judged by every rule (as a log
imported from a file is), and *trusted* (``replay(data, trusted=True)``, as a log this
engine accepted is: undo, a stored game reopened), where the checks that can only refuse
are not asked again — the blocker, the tile's rotation, the track restriction, the routes'
legality. The reference engine, loading a game, skips the first three too (18xx.games asks
neither the blocker, the rotation nor the track restriction when ``@game.loading``) but still
checks the routes: between the two columns lies the like-for-like comparison with a
reference timing its loading of a game.

``--reference`` reads the reference engine's times for the same games, measured the same
way on the same machine (one JSON object per line with the game's ``file`` and its
``best_s``; the reference and its timing harness are kept outside this repository), and
adds how many times faster tracklayer is, comparing best with best, checked and trusted.
"""

from __future__ import annotations

import argparse
import gc
import glob
import json
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
    p.add_argument("--reference", help="the reference engine's times (JSON lines)")
    args = p.parse_args()
    reference = read_reference(args.reference) if args.reference else {}
    files = args.files
    if not files:
        for title in supported_titles():
            folder = TITLE_DIRS.get(title, title)
            files += sorted(glob.glob(os.path.join(args.shared, "fixtures", folder, "*.json")))
    if not files:
        print("no fixtures found", file=sys.stderr)
        return 1
    print(f"{'game':52} {'actions':>7} {'checked s':>9} {'median s':>9} {'actions/s':>9}"
          f" {'trusted s':>9} {'median s':>9} {'actions/s':>9}"
          + (f" {'reference s':>11} {'checked':>7} {'trusted':>7}" if reference else ""))
    for path in files:
        data = load_export(path)
        n = len(data["actions"])
        checked = timed(data, args.repeat, trusted=False)
        trusted = timed(data, args.repeat, trusted=True)
        name = os.path.relpath(path, os.path.join(args.shared, "fixtures"))
        line = f"{name:52} {n:7d}"
        for best, median in (checked, trusted):
            line += f" {best:9.4f} {median:9.4f} {n / median:9.0f}"
        theirs = reference.get(os.path.basename(path))
        if theirs is not None:
            line += f" {theirs:11.4f} {theirs / checked[0]:6.1f}x {theirs / trusted[0]:6.1f}x"
        print(line)
    return 0


def timed(data: dict, repeat: int, trusted: bool) -> tuple:
    """(best, median) CPU seconds of ``repeat`` replays of the game (after one to warm up),
    checked or ``trusted``."""
    replay(data, trusted=trusted)  # warm up
    times = []
    for _ in range(repeat):
        gc.collect()    # start each run with no garbage left over (untimed)
        t = time.process_time()
        replay(data, trusted=trusted)
        times.append(time.process_time() - t)
    return min(times), statistics.median(times)


def read_reference(path: str) -> dict:
    """The reference's best time by game file name."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                entry = json.loads(line)
                out[os.path.basename(entry["file"])] = float(entry["best_s"])
    return out


if __name__ == "__main__":
    sys.exit(main())
