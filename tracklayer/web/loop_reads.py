"""A game's freshness read on the event loop, for workers that share a PostgreSQL database.

Workers sharing a database must ask it, on every request for a game, what another worker
may have changed: the game's newest entry, its seats (a link issued anew on any worker is
void on every worker at once) and a mark of its proposals (``Store.freshness``). Asked
from a thread, that hand-over to the thread and back cost more than the question itself.
:class:`LoopReader` asks it on the event loop instead, through a few connections of
psycopg's own (in autocommit: one statement, no transaction around it), so that a request
on a game held in memory and found up to date is answered on the loop as a lone worker's
is (``Service.held_now``). SQLite has no such driver here: its workers ask from a thread,
as before (:func:`make_loop_reader` gives None).

Games asked for while every connection is reading wait, and the next read takes them all
in one statement (``FRESHNESS_MANY``): each request's read still begins after the request
came, so it sees whatever was committed before it; played flat out, one statement then
answers several requests, where each cost the worker and the database a statement's
round trip of its own (a tenth of a worker's CPU in the web benchmark).

``FRESHNESS_MANY`` gives, for each game of the array and each of its seats, the game's id
and then the columns of ``db.FRESHNESS_SQL`` (the proposals read in one pass)."""

from __future__ import annotations

import asyncio
import logging
from typing import Dict, List, Optional

from .db import freshness_of

LOG = logging.getLogger(__name__)
CONNECTIONS = 2                     # connections a worker's loop holds at most
# each game's seats and proposals looked up by game (``LATERAL``, ``OFFSET 0``: never a
# scan of the whole table joined by hash, as the planner may choose otherwise)
FRESHNESS_MANY = (
    "SELECT g.id, s.position, s.player_id, s.name, s.bot, s.token, (SELECT max(a.number) "
    "FROM actions a WHERE a.game_id = g.id), p.made, p.waiting, p.void, p.last "
    "FROM unnest(%(g)s::integer[]) AS g(id) CROSS JOIN LATERAL (SELECT count(*) AS made, "
    "count(*) FILTER (WHERE p.status = 'pending') AS waiting, count(*) FILTER (WHERE "
    "p.status = 'void') AS void, coalesce(max(p.at), -1) AS last FROM proposals p WHERE "
    "p.game_id = g.id) AS p CROSS JOIN LATERAL (SELECT s.position, s.player_id, s.name, "
    "s.bot, s.token FROM seats s WHERE s.game_id = g.id OFFSET 0) AS s "
    "ORDER BY g.id, s.position")


class LoopReader:
    """Reads a game's freshness (as ``Store.freshness``) without leaving the event loop."""

    def __init__(self, conninfo: str, size: int = CONNECTIONS) -> None:
        self.conninfo = conninfo
        self.size = size
        self.idle: List = []
        self.made = 0
        self.freed: Optional[asyncio.Condition] = None
        self.asked: Dict[int, List[asyncio.Future]] = {}    # games waiting for a read
        self.reading = 0                # reads under way (one connection each)

    async def freshness(self, game_id: int) -> Optional[tuple]:
        """``(newest entry, seats, proposals' mark)`` of the game, or None if the database
        could not answer here (the request then asks from a thread, as before): read with
        the other games asked for meanwhile (``_read``)."""
        answer = asyncio.get_running_loop().create_future()
        self.asked.setdefault(game_id, []).append(answer)
        if self.reading < self.size:
            self.reading += 1
            asyncio.get_running_loop().create_task(self._read())
        return await answer

    async def _read(self) -> None:
        """Read the games asked for, all at once, until none waits: each read takes those
        that came before it began."""
        try:
            while self.asked:
                asked, self.asked = self.asked, {}
                found = await self._rows(list(asked))
                for game_id, answers in asked.items():
                    value = None if found is None else freshness_of(found.get(game_id, []))
                    for answer in answers:
                        if not answer.done():
                            answer.set_result(value)
        finally:
            self.reading -= 1

    async def _rows(self, game_ids: List[int]) -> Optional[Dict[int, list]]:
        """The rows of ``FRESHNESS_MANY`` by game (without its id), or None if the database
        could not answer here."""
        conn = await self._take()
        if conn is None:
            return None
        try:
            cur = await conn.execute(FRESHNESS_MANY, {"g": game_ids}, prepare=True)
            rows = await cur.fetchall()
        except Exception as e:          # a dropped connection, a restart …: not this one
            LOG.info("a read on the loop failed (%s): asked from a thread", e)
            await self._drop(conn)
            return None
        await self._give_back(conn)
        found: Dict[int, list] = {}
        for row in rows:
            found.setdefault(row[0], []).append(row[1:])
        return found

    async def _take(self):
        import psycopg
        if self.freed is None:
            self.freed = asyncio.Condition()
        async with self.freed:
            while not self.idle and self.made >= self.size:
                await self.freed.wait()
            if self.idle:
                return self.idle.pop()
            self.made += 1
        try:
            return await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        except Exception as e:
            LOG.info("no connection for reads on the loop (%s)", e)
            await self._drop(None)
            return None

    async def _give_back(self, conn) -> None:
        async with self.freed:
            self.idle.append(conn)
            self.freed.notify()

    async def _drop(self, conn) -> None:
        if conn is not None:
            try:
                await conn.close()
            except Exception:
                pass
        async with self.freed:
            self.made -= 1
            self.freed.notify()

    async def close(self) -> None:
        while self.idle:
            await self.idle.pop().close()


def make_loop_reader(url: str) -> Optional[LoopReader]:
    """A reader for a PostgreSQL URL (any SQLAlchemy driver name dropped: psycopg reads
    the plain ``postgresql://`` form); None for SQLite."""
    scheme, sep, rest = url.partition("://")
    if not sep or not scheme.split("+")[0] in ("postgresql", "postgres"):
        return None
    return LoopReader("postgresql://" + rest)
