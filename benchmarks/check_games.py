"""``tracklayer check-games`` on a database of N stored games (issue 26: 100 games in under
a minute).

    python3 benchmarks/check_games.py [--games 100] [--db sqlite:///PATH] [--keep]

The database (SQLite in a temporary folder, or ``--db``) is filled with the real and random
games of ``../shared`` (finished 18xx.games exports of the four titles, 371 to 1229 entries
each), stored as the web app stores an import, taken in turn until there are N; one of them
has an entry the rules refuse (a tile laid where the log had a pass), so that the check
has something to report. Then ``tracklayer check-games --db URL`` runs in a process of its
own (interpreter start-up, imports and the rules' fingerprints included) and its wall time
and CPU time are reported with its summary line; the run fails if it took a minute or
more, or did not list exactly the altered game.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from tracklayer.io.export import load_export, open_game  # noqa: E402
from tracklayer.snapshot import collector_paused  # noqa: E402
from tracklayer.web.archive import stamp  # noqa: E402
from tracklayer.web.db import Store  # noqa: E402


def exports(shared: str) -> list:
    files = sorted(glob.glob(os.path.join(shared, "fixtures", "*", "*.json")) +
                   glob.glob(os.path.join(shared, "random-games", "*", "*.json")))
    return [load_export(f) for f in files]


def stored_form(data: dict) -> tuple:
    """What the web app stores of an import: the log as the engine kept it, and the
    game's settings."""
    with collector_paused():
        game = open_game(data, keep_log=False)
        for h in data["actions"]:
            game.apply(h)
    seats = [{"player_id": pid, "name": name, "bot": None, "token": None}
             for pid, name in game.player_specs]
    return game, seats, list(game.history.entries)


def fill(url: str, n: int, shared: str) -> int:
    """Store ``n`` games; returns the id of the one altered to diverge."""
    forms = [stored_form(d) for d in exports(shared)]
    store = Store(url)
    altered = None
    try:
        for i in range(n):
            game, seats, entries = forms[i % len(forms)]
            if i == n // 2:
                entries = [dict(h) for h in entries]
                k = next(k for k, h in enumerate(entries) if k > len(entries) // 2 and
                         h.get("type") == "pass")
                entries[k] = {"type": "lay_tile", "entity": entries[k]["entity"],
                              "entity_type": entries[k]["entity_type"], "id": entries[k]["id"],
                              "hex": "A1", "tile": "9-0", "rotation": 0}
            gid = store.create(game.title.name, game.seed, list(game.optional_rules), seats,
                               entries, **stamp(game.title))
            if i == n // 2:
                altered = gid
    finally:
        store.dispose()
    return altered


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--db", default=None)
    p.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    p.add_argument("--keep", action="store_true", help="keep the temporary database")
    args = p.parse_args()
    folder = tempfile.mkdtemp(prefix="check-games-")
    url = args.db or f"sqlite:///{os.path.join(folder, 'games.db')}"
    began = time.perf_counter()
    altered = fill(url, args.games, args.shared)
    print(f"stored {args.games} games in {time.perf_counter() - began:.1f} s ({url})")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "tracklayer", "check-games", "--db", url,
                          "--json"], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = [json.loads(x) for x in run.stdout.splitlines()]
    listed = [x["id"] for x in lines if "id" in x]
    summary = lines[-1]["summary"] if lines and "summary" in lines[-1] else {}
    print(f"check-games: exit {run.returncode}, {wall:.1f} s wall, {cpu:.1f} s CPU; "
          f"{summary.get('games')} games, {summary.get('entries')} entries, "
          f"{summary.get('seconds')} s replaying; listed {listed} (altered: {altered})")
    if run.stderr.strip():
        print(run.stderr.strip(), file=sys.stderr)
    if not args.keep and not args.db:
        for name in os.listdir(folder):
            os.remove(os.path.join(folder, name))
        os.rmdir(folder)
    ok = run.returncode == 1 and listed == [altered] and wall < 60
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
