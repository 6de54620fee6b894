"""What a live game costs the server: memory held, and the time to draw its value chart and
to show a past position (the history slider), on real games.

    python3 benchmarks/web_live.py [GAME.json ...] [--json]

Each game (default: every fixture of ../shared) is imported into a temporary SQLite
database, then loaded by a fresh service as the server loads a game it does not hold;
reports per game: entries, the memory the live game holds (tracemalloc, after every cache
shared between games was made by loading them all once) as loaded and once it rested as an
idle game does (``Live.rest``), load ms, chart ms (drawn afresh, from the game rested), and
history ms at 7 positions (p50 and max).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from tracklayer.web import chart, view  # noqa: E402
from tracklayer.web.db import Store  # noqa: E402
from tracklayer.web.service import Service  # noqa: E402

SHARED = Path(os.environ.get("TRACKLAYER_SHARED", Path(ROOT).parent / "shared"))


def measure(paths, db: str) -> list:
    store = Store(db)
    ids = {p: Service(store, lambda *a: None, False).import_export(
        json.loads(Path(p).read_text()))["id"] for p in paths}
    warm = Service(store, lambda *a: None, False)
    for gid in ids.values():
        warm.get(gid)
    out = []
    for path, gid in ids.items():
        service = Service(store, lambda *a: None, False)
        gc.collect()
        tracemalloc.start()
        began = time.perf_counter()
        live = service.get(gid)
        load = time.perf_counter() - began
        gc.collect()
        memory = tracemalloc.get_traced_memory()[0]
        with live.lock:
            live.rest()                 # as an idle game does (Service._rest_idle)
        gc.collect()
        resting = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        began = time.perf_counter()
        chart.draw(live)
        drawn = time.perf_counter() - began
        n = live.number
        times = []
        for at in (1, n // 7, n // 3, n // 2, 2 * n // 3, n - 5, n):
            began = time.perf_counter()
            view.at_entry(live, at)
            times.append(time.perf_counter() - began)
        out.append({"game": Path(path).name, "entries": n, "memory_mb": round(memory / 1e6, 2),
                    "resting_mb": round(resting / 1e6, 2),
                    "load_ms": round(load * 1000), "chart_ms": round(drawn * 1000, 1),
                    "history_ms": {"p50": round(statistics.median(times) * 1000, 1),
                                   "max": round(max(times) * 1000, 1)}})
    store.dispose()
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    paths = args.games or sorted(str(f) for f in SHARED.glob("fixtures/*/*.json"))
    if not paths:
        print(f"no games given and none in {SHARED}/fixtures", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        rows = measure(paths, f"sqlite:///{os.path.join(tmp, 'live.db')}")
    if args.json:
        print(json.dumps(rows))
        return 0
    for r in rows:
        print(f"{r['game'][:40]:40s} {r['entries']:5d} entries  {r['memory_mb']:5.2f} MB (resting "
              f"{r['resting_mb']:5.2f} MB)  "
              f"load {r['load_ms']:5d} ms  chart {r['chart_ms']:7.1f} ms  history "
              f"p50 {r['history_ms']['p50']:6.1f} max {r['history_ms']['max']:6.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
