"""A game's freshness read on the event loop, for workers that share a PostgreSQL database.

Workers sharing a database must ask it, on every request for a game, what another worker
may have changed: the game's newest entry, its seats (a link issued anew on any worker is
void on every worker at once) and a mark of its proposals (``Store.freshness``). Asked
from a thread, that hand-over to the thread and back cost more than the question itself.
:class:`LoopReader` asks it on the event loop instead, through a few connections of
psycopg's own (in autocommit: one statement, no transaction around it), so that a request
on a game held in memory and found up to date is answered on the loop as a lone worker's
is (``Service.held_now``). SQLite has no such driver here: its workers ask from a thread,
as before (:func:`make_loop_reader` gives None)."""

from __future__ import annotations

import asyncio
import logging
from typing import List, Optional

from .db import FRESHNESS_SQL, freshness_of

LOG = logging.getLogger(__name__)
CONNECTIONS = 4                     # connections a worker's loop holds at most


class LoopReader:
    """Reads a game's freshness (as ``Store.freshness``) without leaving the event loop."""

    def __init__(self, conninfo: str, size: int = CONNECTIONS) -> None:
        self.conninfo = conninfo
        self.size = size
        self.idle: List = []
        self.made = 0
        self.freed: Optional[asyncio.Condition] = None

    async def freshness(self, game_id: int) -> Optional[tuple]:
        """``(newest entry, seats, proposals' mark)`` of the game, or None if the database
        could not answer here (the request then asks from a thread, as before)."""
        conn = await self._take()
        if conn is None:
            return None
        try:
            cur = await conn.execute(FRESHNESS_SQL, {"g": game_id}, prepare=True)
            rows = await cur.fetchall()
        except Exception as e:          # a dropped connection, a restart …: not this one
            LOG.info("a read on the loop failed (%s): asked from a thread", e)
            await self._drop(conn)
            return None
        await self._give_back(conn)
        return freshness_of(rows)

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
