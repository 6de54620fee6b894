"""Many games at once, driven over HTTP: how long the server takes to accept an action,
and how long until another seat's event stream delivers it.

    python3 benchmarks/web.py [--games 100] [--actions 20] [--workers 1] [--redis URL]
                              [--db URL] [--pace SECONDS] [--json]

Starts ``tracklayer serve`` (SQLite in a temporary folder unless ``--db``), creates
``--games`` two-player games of 1893, opens one Server-Sent Events stream per game (the
other seat watching), and drives every game at once from one asyncio client: each game's
driver asks for the legal actions of the seat to act (one request: its cookie holds both
seats, as a browser's does for a game played at one table), posts one at random (never
``bankrupt``) with that seat's token, and repeats ``--actions`` times: at once (the server saturated, as fast as
it takes them) or, with ``--pace``, after a pause of 0 to twice that many seconds, as
people playing would. Reports p50/p99 in milliseconds of

* ``accept_ms``: POST of an action until its 201;
* ``deliver_ms``: POST sent until the watching stream has the entry;

and ``legal_ms`` (the listing's request), the actions accepted per second over the run, the
entries never delivered, the streams that delivered entries out of order (or twice), and
the CPU seconds the client and the server (all its workers) spent while driving: the
client shares the machine, so it should stay a small part. The server's CPU per accepted
action, and the cores it kept busy, say whether a run was bound by the CPU: flat out (no
``--pace``) every game always has a request waiting, so a request waits behind about one
request of every other game, and its latency is about ``--games`` times the CPU a request
takes, whatever the machine (a p99 of 150 ms for 100 games on one core asks for well under
1.5 ms of CPU per listing and action together); paced, the load is ``--games / --pace``
actions a second times the CPU per action. The server runs with no limit on games made
(``--games-per-minute 0``): the benchmark makes ``--games`` at once from one address.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from tracklayer.web.server import serving_apart  # noqa: E402


def cpu_seconds(pids=None) -> float:
    """CPU time (user + system) of this process (``pids`` None), or of the processes
    ``pids`` and their children (the server and its workers), read from /proc."""
    if pids is None:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime
    tick = os.sysconf("SC_CLK_TCK")
    found, total = set(pids), 0.0
    try:
        names = os.listdir("/proc")
    except OSError:
        return float("nan")
    stats = {}
    for name in names:
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    changed = True
    while changed:
        changed = False
        for pid, (ppid, _ticks) in stats.items():
            if ppid in found and pid not in found:
                found.add(pid)
                changed = True
    for pid in found:
        if pid in stats:
            total += stats[pid][1] / tick
    return total


def pct(values, q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return round(values[min(len(values) - 1, int(q * len(values)))] * 1000, 1)


class Http:
    """A lean HTTP/1.1 client: one keep-alive connection, one request at a time (the
    benchmark's client shares the machine's two cores with the server, so it should cost
    it as little as it can: a general client such as httpx spent more time per action than
    the server did)."""

    def __init__(self, base: str) -> None:
        host, port = base.split("://", 1)[1].split(":")
        self.host, self.port = host, int(port)
        self.reader = self.writer = None

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def send(self, method: str, path: str, body=None, token=None,
                   cookie=None) -> None:
        if self.writer is None:
            await self._open()
        data = b"" if body is None else json.dumps(body).encode()
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                f"Content-Length: {len(data)}", "Content-Type: application/json"]
        if token:
            head.append(f"Authorization: Bearer {token}")
        if cookie:
            head.append(f"Cookie: {cookie}")
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + data)

    async def head(self):
        lines = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            if ":" in line:
                k, _, v = line.partition(":")
                headers[k.strip().lower()] = v.strip()
        return status, headers

    async def chunk(self) -> bytes:
        size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
        data = await self.reader.readexactly(size + 2)
        return data[:-2]

    async def request(self, method: str, path: str, body=None, token=None, cookie=None):
        await self.send(method, path, body, token, cookie)
        status, headers = await self.head()
        if headers.get("transfer-encoding") == "chunked":
            parts = []
            while True:
                part = await self.chunk()
                if not part:
                    break
                parts.append(part)
            data = b"".join(parts)
        else:
            data = await self.reader.readexactly(int(headers.get("content-length", 0)))
        if headers.get("connection") == "close":
            self.writer.close()
            self.writer = None
        return status, json.loads(data) if data else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def watch(base, gid, arrived, ready) -> None:
    http = Http(base)
    try:
        await http.send("GET", f"/api/games/{gid}/events")
        await http.head()
        ready.set()
        pending = b""
        while True:
            pending += await http.chunk()
            *lines, pending = pending.split(b"\n")
            for line in lines:
                if line.startswith(b"id:"):
                    number = int(line[3:].strip())
                    arrived.setdefault("order", []).append(number)
                    arrived[number] = time.perf_counter()
    finally:
        http.close()


async def drive(base, gid, seats, n, sent, accepted, listed, rng, pace=0.0) -> None:
    http = Http(base)
    tokens = [s["token"] for s in seats]
    by_player = {s["player_id"]: s["token"] for s in seats}
    # one request lists the moves of whichever seat has them: the cookie holds both seats
    # (as a browser's does for a game played at one table)
    cookie = f"seats-{gid}={'.'.join(tokens)}"
    try:
        for _ in range(n):
            if pace:
                await asyncio.sleep(rng.uniform(0, 2 * pace))
            start = time.perf_counter()
            _status, legal = await http.request("GET", f"/api/games/{gid}/legal",
                                                cookie=cookie)
            listed.append(time.perf_counter() - start)
            options = [a for a in legal["actions"] if a["type"] != "bankrupt"]
            if not options:
                return
            token = by_player[legal["player_id"]]
            action = dict(rng.choice(options), id=legal["next_id"])
            start = time.perf_counter()
            sent[action["id"]] = start
            status, answer = await http.request("POST", f"/api/games/{gid}/actions", action,
                                                token)
            if status == 201:
                accepted.append(time.perf_counter() - start)
            elif status == 202:         # a trade with another seat: that seat declines it
                del sent[action["id"]]
                proposal = answer["proposal"]
                other = tokens[[s["player_id"] for s in seats].index(proposal["responder"])]
                await http.request("POST", f"/api/games/{gid}/proposals/{proposal['id']}/"
                                   "decline", token=other)
    finally:
        http.close()


async def run(base: str, games: int, actions: int, pace: float = 0.0) -> dict:
    http = Http(base)
    made = []
    for i in range(games):
        status, game = await http.request("POST", "/api/games", {
            "title": "1893", "players": [{"name": "A"}, {"name": "B"}], "seed": i + 1})
        assert status == 201, game
        made.append(game)
    http.close()
    arrived = [dict() for _ in made]
    sent = [dict() for _ in made]
    accepted: list = []
    listed: list = []
    readies = [asyncio.Event() for _ in made]
    watchers = [asyncio.create_task(watch(base, g["id"], arrived[i], readies[i]))
                for i, g in enumerate(made)]
    await asyncio.gather(*(e.wait() for e in readies))
    start = time.perf_counter()
    client_cpu, all_cpu = cpu_seconds(), cpu_seconds([os.getpid()])
    await asyncio.gather(*(drive(base, g["id"], g["seats"], actions, sent[i], accepted,
                                 listed, random.Random(i), pace)
                           for i, g in enumerate(made)))
    elapsed = time.perf_counter() - start
    client_cpu = cpu_seconds() - client_cpu
    server_cpu = cpu_seconds([os.getpid()]) - all_cpu - client_cpu
    await asyncio.sleep(1.0)
    for w in watchers:
        w.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    deliver = [arrived[i][n] - t for i in range(len(made)) for n, t in sent[i].items()
               if n in arrived[i]]
    lost = sum(1 for i in range(len(made)) for n in sent[i] if n not in arrived[i])
    disorder = sum(1 for a in arrived
                   if a.get("order", []) != list(range(1, len(a.get("order", [])) + 1)))
    return {"games": games, "actions": len(accepted), "seconds": round(elapsed, 2),
            "actions_per_s": round(len(accepted) / elapsed, 1),
            "accept_ms": {"p50": pct(accepted, 0.5), "p99": pct(accepted, 0.99)},
            "deliver_ms": {"p50": pct(deliver, 0.5), "p99": pct(deliver, 0.99)},
            "legal_ms": {"p50": pct(listed, 0.5), "p99": pct(listed, 0.99)},
            "cpu_s": {"client": round(client_cpu, 2), "server": round(server_cpu, 2)},
            "server_cpu_ms_per_action": round(server_cpu / max(1, len(accepted)) * 1000, 2),
            "server_cores_busy": round(server_cpu / elapsed, 2),
            "undelivered": lost, "streams_out_of_order": disorder}


def asyncio_run(coroutine):
    """Run on uvloop when it is there (the server's own loop; cheaper for the client too)."""
    try:
        import uvloop
        return uvloop.run(coroutine)
    except ImportError:
        return asyncio.run(coroutine)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--actions", type=int, default=20)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--redis", default=None)
    p.add_argument("--db", default=None)
    p.add_argument("--pace", type=float, default=0.0,
                   help="mean seconds between a game's actions (default 0: at once)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{os.path.join(tmp, 'bench.db')}"
        with serving_apart(db, args.workers, args.redis, wait_s=120,    # a busy machine
                           extra=("--games-per-minute", "0")) as base:
            result = asyncio_run(run(base, args.games, args.actions, args.pace))
    result.update(workers=args.workers, db=args.db or "sqlite (temporary)", pace=args.pace)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['games']} games, {result['actions']} actions in {result['seconds']} s "
              f"({result['actions_per_s']}/s), {args.workers} worker(s)"
              + (f", an action every {args.pace} s a game" if args.pace else ""))
        print(f"accept  p50 {result['accept_ms']['p50']} ms  p99 {result['accept_ms']['p99']} ms")
        print(f"deliver p50 {result['deliver_ms']['p50']} ms  p99 {result['deliver_ms']['p99']}"
              f" ms  ({result['undelivered']} undelivered, "
              f"{result['streams_out_of_order']} streams out of order)")
        print(f"legal   p50 {result['legal_ms']['p50']} ms  p99 {result['legal_ms']['p99']} ms")
        print(f"cpu     client {result['cpu_s']['client']} s  server "
              f"{result['cpu_s']['server']} s (while driving): "
              f"{result['server_cpu_ms_per_action']} ms per action, "
              f"{result['server_cores_busy']} cores busy")
    return 0


if __name__ == "__main__":
    sys.exit(main())
