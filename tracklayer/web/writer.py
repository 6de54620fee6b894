"""The log's writer: entries appended in batches, one commit for the entries (and the
proposals' writes) that arrive while the last commit was under way; an entry applied
without first reading what other workers changed carries a :class:`Guard`, checked as it
is committed."""

from __future__ import annotations

import queue
import secrets
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError
from sqlalchemy.sql.elements import TextClause

RECYCLE_S = 3600                # the oldest connection kept (as the engine's pool does)
APPEND = text("INSERT INTO actions (game_id, number, entry) VALUES (:game_id, :number, :entry)")
# whether a game has a seat with a webhook (asked of each game of a batch as it is stored)
HOOKED_ONE = text("SELECT 1 FROM seats WHERE game_id = :game_id AND webhook_url IS NOT NULL "
                  "LIMIT 1")
# PostgreSQL: a batch of entries as one statement, each guarded one only where its guard
# holds (see Guard), those stored returned with whether their game has a seat with a
# webhook (psycopg's placeholders: Writer._write_alone); ``OFFSET 0`` keeps the pending
# proposals looked up by game (its index), not hashed from a scan of the whole table (the
# planner's choice otherwise: 2 ms a batch at 17000 proposals, and growing)
APPEND_GUARDED = (
    "INSERT INTO actions (game_id, number, entry) SELECT e.game_id, e.number, e.entry "
    "FROM unnest(%(games)s::integer[], %(numbers)s::integer[], %(entries)s::text[], "
    "%(players)s::integer[], %(tokens)s::text[]) AS e(game_id, number, entry, player_id, token) "
    "WHERE e.token IS NULL OR (EXISTS (SELECT 1 FROM seats s WHERE s.game_id = e.game_id "
    "AND s.player_id = e.player_id AND s.token = e.token) AND NOT EXISTS (SELECT 1 FROM "
    "proposals p WHERE p.game_id = e.game_id AND p.status = 'pending' OFFSET 0)) "
    "RETURNING game_id, number, EXISTS (SELECT 1 FROM seats w WHERE w.game_id = "
    "actions.game_id AND w.webhook_url IS NOT NULL)")
# what a guarded entry is checked against as it is committed (``Writer``), for the games of
# a batch at once: each seat's token, and whether a proposal waits
GUARDS = text("SELECT s.game_id, s.player_id, s.token, (SELECT count(*) FROM proposals p "
              "WHERE p.game_id = s.game_id AND p.status = 'pending') FROM seats s "
              "WHERE s.game_id IN :games").bindparams(bindparam("games", expanding=True))
# which of the games have a seat with a webhook (turn alerts: Store.hooked_games)
HOOKED = text("SELECT DISTINCT game_id FROM seats WHERE game_id IN :games "
              "AND webhook_url IS NOT NULL").bindparams(bindparam("games", expanding=True))


class Statement:
    """A statement as the engine's driver takes it (SQLAlchemy compiles it once, for the
    engine's dialect), run on the driver's own cursor: the writer runs its statements on
    every commit, where SQLAlchemy's execution of a statement (its context, result and
    events) cost more CPU than SQLite's work; a driver's error is raised as SQLAlchemy
    raises it (``IntegrityError`` …)."""

    def __init__(self, clause: TextClause, engine: Engine) -> None:
        compiled = clause.compile(dialect=engine.dialect)
        self.sql = compiled.string
        self.names = compiled.positiontup if compiled.positional else None
        self.error = engine.dialect.loaded_dbapi.Error

    def params(self, values: dict) -> Any:
        return values if self.names is None else tuple(values[k] for k in self.names)

    def run(self, conn: Connection, rows: list) -> list:
        """Execute it once per row (each a dict of its values), in the connection's
        transaction: the rows it returned, of the last."""
        cursor = conn.connection.cursor()
        try:
            if len(rows) == 1:
                cursor.execute(self.sql, self.params(rows[0]))
            else:
                cursor.executemany(self.sql, [self.params(r) for r in rows])
            return cursor.fetchall() if cursor.description else []
        except self.error as e:
            raise DBAPIError.instance(self.sql, None, e, self.error) from e
        finally:
            cursor.close()


@dataclass(frozen=True)
class Guard:
    """What must still hold when an entry is committed, for an entry applied without
    reading first what other workers changed: the seat that posted it still holds
    ``token`` (a link issued anew on another worker voids it), and no proposal waits (the
    game stands still meanwhile). An entry stored elsewhere meanwhile takes the number
    first: the log's unique (game, number) refuses this one."""
    player_id: int
    token: str


class Unguarded(Exception):
    """A guarded entry not committed: what no longer held (``Guard``): ``"token"`` or
    ``"proposal"``."""

    def __init__(self, what: str) -> None:
        super().__init__(f"the {what} changed on another worker")
        self.what = what


def unguarded(guard: Guard, seats: Dict[int, Optional[str]], pending: int) -> Optional[str]:
    """What of ``guard`` no longer holds, given the game's seats' tokens by player and the
    proposals waiting (None: it holds)."""
    token = seats.get(guard.player_id)
    if token is None or not secrets.compare_digest(token.encode(), guard.token.encode()):
        return "token"
    return "proposal" if pending else None


class Writer:
    """Appends log entries in batches: the entries that arrive while one transaction
    commits (an fsync, on SQLite a few milliseconds) go together in the next one, so that
    many games' actions share a commit instead of queueing for one each. ``append``
    returns once its entry is committed (or raises what the database said).

    The other writes made while games are played (proposals made and answered) run here
    too, committed with the entries (``run``): on SQLite one connection then writes, and no
    write waits for another's lock (SQLite's wait for a busy lock sleeps in steps of up to
    100 ms) or for a commit of its own.

    ``alone``: on PostgreSQL, an engine in autocommit, on which a batch's entries are
    written as one statement: a round trip or two instead of four (begin, guards, insert,
    commit), a third of the writer's time there; its jobs then commit in a transaction of
    their own (entries first, as in one transaction: a guard is checked before the jobs
    of its batch), so that a proposal made among the entries no longer sends them all
    the long way (the guards read, the entries inserted one by one, each game asked for
    its webhooks)."""

    BATCH = 500

    def __init__(self, engine: Engine, alone: Optional[Engine] = None) -> None:
        self.engine = engine
        self.alone = alone
        self.append_rows = Statement(APPEND, engine)
        self.hooked_one = Statement(HOOKED_ONE, engine)
        self.conn: Optional[Connection] = None      # the writer's own, kept (_connection)
        self.conn_made = 0.0
        # the C queue: a put costs a tenth of queue.Queue's (its Python lock and condition)
        self.queue: "queue.SimpleQueue" = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="log-writer", daemon=True)
        self.thread.start()

    def append(self, game_id: int, number: int, text: str) -> None:
        self._wait({"row": {"game_id": game_id, "number": number, "entry": text},
                    "done": threading.Event(), "error": None})

    def submit(self, game_id: int, number: int, text: str,
               guard: Optional[Guard] = None) -> Future:
        """``append`` without waiting: a future, done once the entry is committed (its
        exception what the database said, or :class:`Unguarded` if ``guard`` no longer
        held); its result whether the game has a seat with a webhook as the entry was
        stored (None if that was not read)."""
        item = {"row": {"game_id": game_id, "number": number, "entry": text},
                "done": Future(), "error": None, "guard": guard}
        self.queue.put(item)
        return item["done"]

    def run(self, job: Callable[[Any], Any]) -> Any:
        """``job(connection)`` on the writer's thread, in the transaction of the entries
        and jobs queued with it (one commit for them all): its result, or what it raised."""
        item = {"job": job, "done": threading.Event(), "error": None, "result": None}
        self._wait(item)
        return item["result"]

    def _wait(self, item: dict) -> None:
        self.queue.put(item)
        item["done"].wait()
        if item["error"] is not None:
            raise item["error"]

    def stop(self) -> None:
        self.queue.put(None)
        self.thread.join(10)
        self._drop()

    def _connection(self) -> Connection:
        """The writer's connection, kept from one commit to the next (no pool to check it
        out of and back into on each); one that met an error (other than a number taken)
        is let go (``_drop``) and a new one made for the next commit, as is one older than
        the pool lets its own live (``RECYCLE_S``)."""
        if self.conn is not None and time.monotonic() - self.conn_made > RECYCLE_S:
            self._drop()
        if self.conn is None:
            self.conn = self.engine.connect()
            self.conn_made = time.monotonic()
        return self.conn

    def _drop(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None:
            try:
                conn.invalidate()
                conn.close()
            except Exception:           # gone already
                pass

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < self.BATCH:
                try:
                    more = self.queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self.queue.put(None)
                    break
                batch.append(more)
            self._write(batch)
            self._tell(batch)

    @staticmethod
    def _tell(items: list) -> None:
        """Tell each item written its answer (once)."""
        for item in items:
            done = item["done"]
            if item.pop("told", False):
                continue
            if not isinstance(done, Future):
                done.set()
            elif item["error"] is None:
                done.set_result(item.get("result"))
            else:
                done.set_exception(item["error"])

    @staticmethod
    def _check_guards(conn, batch: list) -> None:
        """Each guarded entry of the batch checked against its game as it stands (one query
        for the batch): one whose guard no longer holds is left out, told why."""
        guarded = [item for item in batch if item.get("guard") is not None]
        if not guarded:
            return
        seats: Dict[int, Dict[int, Optional[str]]] = {}
        pending: Dict[int, int] = {}
        games = sorted({item["row"]["game_id"] for item in guarded})
        for game_id, player_id, token, waiting in conn.execute(GUARDS, {"games": games}):
            seats.setdefault(game_id, {})[player_id] = token
            pending[game_id] = waiting
        for item in guarded:
            game_id = item["row"]["game_id"]
            what = unguarded(item["guard"], seats.get(game_id, {}), pending.get(game_id, 0))
            item["error"] = None if what is None else Unguarded(what)

    def _write_alone(self, batch: list) -> bool:
        """Write a batch of entries alone as one statement on psycopg's own connection, in
        autocommit, each guarded entry only where its guard holds (``APPEND_GUARDED``); one
        left out is then told why (``_check_guards``). False if the database refused a
        batch of several (a number someone else took): then ``_write`` writes them one by
        one, so that each hears its own answer."""
        import psycopg
        rows = [item["row"] for item in batch]
        guards = [item.get("guard") for item in batch]
        with self.alone.connect() as conn:
            try:
                stored = {(game_id, number): hooked for game_id, number, hooked in
                          conn.connection.driver_connection.execute(
                    APPEND_GUARDED, {
                        "games": [r["game_id"] for r in rows],
                        "numbers": [r["number"] for r in rows],
                        "entries": [r["entry"] for r in rows],
                        "players": [g and g.player_id for g in guards],
                        "tokens": [g and g.token for g in guards]}, prepare=True)}
            except psycopg.IntegrityError as e:
                if len(batch) > 1:
                    return False
                batch[0]["error"] = IntegrityError(APPEND_GUARDED, None, e)
                return True
            except Exception as e:      # the database away …: each is told
                conn.invalidate()
                for item in batch:
                    item["error"] = SQLAlchemyError(f"{type(e).__name__}: {e}")
                return True
            for item in batch:
                item["result"] = stored.get((item["row"]["game_id"], item["row"]["number"]))
            left = [item for item in batch
                    if (item["row"]["game_id"], item["row"]["number"]) not in stored]
            if left:
                self._check_guards(conn, left)
                for item in left:       # changed again since: told to reload all the same
                    item["error"] = item["error"] or Unguarded("proposal")
        return True

    def _say_hooked(self, conn, stored: list) -> None:
        """Tell each entry stored whether its game has a seat with a webhook (asked of each
        game of the batch, in its transaction): turn alerts need not ask of the others."""
        if any(isinstance(item["done"], Future) for item in stored):
            hooked = {game_id for game_id in {item["row"]["game_id"] for item in stored}
                      if self.hooked_one.run(conn, [{"game_id": game_id}])}
            for item in stored:
                item["result"] = item["row"]["game_id"] in hooked

    def _write(self, batch: list) -> None:
        """Commit the batch, entries and jobs, in one transaction; if one of them is
        refused (a number someone else took), commit them one by one so that each hears its
        own answer. On PostgreSQL (``alone``) the entries go first as one statement
        (``_write_alone``), told at once (``_tell``: not kept waiting for the jobs'
        commit), then the jobs."""
        if self.alone is not None:
            rows = [item for item in batch if "row" in item]
            batch = [item for item in batch if "job" in item]
            if rows and not self._write_alone(rows):
                for item in rows:
                    self._write([item])
            if not batch:
                return
            self._tell(rows)
            for item in rows:
                item["told"] = True
        try:
            conn = self._connection()
            with conn.begin():
                self._check_guards(conn, batch)
                stored = [item for item in batch if "row" in item and
                          not isinstance(item["error"], Unguarded)]
                if stored:
                    self.append_rows.run(conn, [item["row"] for item in stored])
                    self._say_hooked(conn, stored)
                for item in batch:
                    if "job" in item:
                        item["result"] = item["job"](conn)
        except Exception as e:
            if not isinstance(e, IntegrityError):   # the connection itself may be at fault
                self._drop()
            alone = isinstance(e, IntegrityError) or any("job" in item for item in batch)
            if alone and len(batch) > 1:
                for item in batch:
                    self._write([item])
                return
            for item in batch:          # the database away, a disk error …: each is told
                if isinstance(item["error"], Unguarded):
                    continue
                item["error"] = e if isinstance(e, SQLAlchemyError) or "job" in item else \
                    SQLAlchemyError(f"{type(e).__name__}: {e}")
