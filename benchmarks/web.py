"""Many games at once, driven over HTTP: how long the server takes to accept an action,
and how long until another seat's event stream delivers it.

    python3 benchmarks/web.py [--games 100] [--actions 20] [--workers 1] [--redis URL]
                              [--db URL] [--json]

Starts ``tracklayer serve`` (SQLite in a temporary folder unless ``--db``), creates
``--games`` two-player games of 1893, opens one Server-Sent Events stream per game (the
other seat watching), and drives every game at once from one asyncio client: each game's
driver asks the seat to act for its legal actions, posts one at random (never
``bankrupt``), and repeats ``--actions`` times. Reports p50/p99 in milliseconds of

* ``accept_ms``: POST of an action until its 201;
* ``deliver_ms``: POST sent until the watching stream has the entry;

and the actions accepted per second over the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time

import httpx

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from tracklayer.web.server import serving_apart  # noqa: E402


def pct(values, q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 1)


async def watch(client, base, gid, arrived, ready) -> None:
    async with client.stream("GET", f"{base}/api/games/{gid}/events") as r:
        ready.set()
        async for line in r.aiter_lines():
            if line.startswith("id:"):
                arrived[int(line[3:].strip())] = time.perf_counter()


async def drive(client, base, gid, seats, n, sent, accepted, rng) -> None:
    heads = [{"Authorization": f"Bearer {s['token']}"} for s in seats]
    for _ in range(n):
        for h in heads:
            legal = (await client.get(f"{base}/api/games/{gid}/legal", headers=h)).json()
            options = [a for a in legal["actions"] if a["type"] != "bankrupt"]
            if options:
                break
        else:
            return
        action = dict(rng.choice(options), id=legal["next_id"])
        start = time.perf_counter()
        sent[action["id"]] = start
        r = await client.post(f"{base}/api/games/{gid}/actions", json=action, headers=h)
        if r.status_code == 201:
            accepted.append(time.perf_counter() - start)
        elif r.status_code == 202:      # a trade with the other seat: it declines
            del sent[action["id"]]
            proposal = r.json()["proposal"]
            other = heads[[s["player_id"] for s in seats].index(proposal["responder"])]
            await client.post(f"{base}/api/games/{gid}/proposals/{proposal['id']}/decline",
                              headers=other)


async def run(base: str, games: int, actions: int) -> dict:
    limits = httpx.Limits(max_connections=games * 3, max_keepalive_connections=games * 3)
    async with httpx.AsyncClient(timeout=httpx.Timeout(120.0), limits=limits) as client:
        made = []
        for i in range(games):
            r = await client.post(f"{base}/api/games", json={
                "title": "1893", "players": [{"name": "A"}, {"name": "B"}], "seed": i + 1})
            made.append(r.json())
        arrived = [dict() for _ in made]
        sent = [dict() for _ in made]
        accepted: list = []
        readies = [asyncio.Event() for _ in made]
        watchers = [asyncio.create_task(watch(client, base, g["id"], arrived[i], readies[i]))
                    for i, g in enumerate(made)]
        await asyncio.gather(*(e.wait() for e in readies))
        start = time.perf_counter()
        await asyncio.gather(*(drive(client, base, g["id"], g["seats"], actions, sent[i],
                                     accepted, random.Random(i)) for i, g in enumerate(made)))
        elapsed = time.perf_counter() - start
        await asyncio.sleep(1.0)
        for w in watchers:
            w.cancel()
        await asyncio.gather(*watchers, return_exceptions=True)
    deliver = [arrived[i][n] - t for i in range(len(made)) for n, t in sent[i].items()
               if n in arrived[i]]
    lost = sum(1 for i in range(len(made)) for n in sent[i] if n not in arrived[i])
    return {"games": games, "actions": len(accepted), "seconds": round(elapsed, 2),
            "actions_per_s": round(len(accepted) / elapsed, 1),
            "accept_ms": {"p50": pct(accepted, 0.5), "p99": pct(accepted, 0.99)},
            "deliver_ms": {"p50": pct(deliver, 0.5), "p99": pct(deliver, 0.99)},
            "undelivered": lost}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--actions", type=int, default=20)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--redis", default=None)
    p.add_argument("--db", default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
        with serving_apart(db, args.workers, args.redis) as base:
            result = asyncio.run(run(base, args.games, args.actions))
    result.update(workers=args.workers, db=args.db or "sqlite (temporary)")
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['games']} games, {result['actions']} actions in {result['seconds']} s "
              f"({result['actions_per_s']}/s), {args.workers} worker(s)")
        print(f"accept  p50 {result['accept_ms']['p50']} ms  p99 {result['accept_ms']['p99']} ms")
        print(f"deliver p50 {result['deliver_ms']['p50']} ms  p99 {result['deliver_ms']['p99']}"
              f" ms  ({result['undelivered']} undelivered)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
