"""Storage: a game is its settings (title, players, seed, optional rules, seats) plus an
append-only log of the entries the engine accepted, one row per entry, unique by (game,
number). The schema is made and kept up to date by the Alembic migrations in
``migrations/``, run when the app starts."""

from __future__ import annotations

import json
import queue
import secrets
import threading
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from sqlalchemy import (JSON, Boolean, DateTime, ForeignKey, Integer, String, Text,
                        UniqueConstraint, bindparam, create_engine, event, false, func, insert,
                        select, text, update)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MAX_ID = 2 ** 31 - 1            # the largest id an Integer column holds on every database


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A game's settings: what the engine needs to set the table."""
    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(100))
    seed: Mapped[int] = mapped_column(Integer)
    optional_rules: Mapped[List[str]] = mapped_column(JSON, default=list)
    description: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[Any] = mapped_column(DateTime(timezone=True), server_default=func.now())
    # the creator's secret, kept as seat tokens are: it issues a lost seat link again
    creator_token: Mapped[Optional[str]] = mapped_column(String(64), nullable=True,
                                                         unique=True)
    # the rules that accepted the whole log (web.rules_version), and what became of a game
    # they no longer accept (web.archive): the game it continues, from which entry; kept
    rules_version: Mapped[Optional[str]] = mapped_column(String(40), nullable=True)
    rules_fingerprint: Mapped[Optional[str]] = mapped_column(String(64), nullable=True)
    continues_id: Mapped[Optional[int]] = mapped_column(ForeignKey("games.id"), nullable=True,
                                                        unique=True)
    continued_at: Mapped[Optional[int]] = mapped_column(Integer, nullable=True)
    archived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class SeatRow(Base):
    """A player of a game: the engine's player id, a name, a bot or a secret token."""
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "position"),
                      UniqueConstraint("token"))
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    bot: Mapped[Optional[str]] = mapped_column(String(40), nullable=True)
    token: Mapped[Optional[str]] = mapped_column(String(64), nullable=True)
    # where to POST when it becomes this seat's turn (set by the seat itself), the site
    # its links point to, and whether the seat asked for its own secret link in them
    webhook_url: Mapped[Optional[str]] = mapped_column(String(500), nullable=True)
    webhook_site: Mapped[Optional[str]] = mapped_column(String(300), nullable=True)
    webhook_seat_link: Mapped[bool] = mapped_column(Boolean, default=False,
                                                    server_default=false())


class ActionRow(Base):
    """One accepted log entry (action, undo, redo or message), numbered from 1."""
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_action_game_number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    entry: Mapped[str] = mapped_column(Text)           # the entry as JSON, exactly as kept
    created_at: Mapped[Any] = mapped_column(DateTime(timezone=True), server_default=func.now())


class InstallationRow(Base):
    """The installation's name, made once with the database (its live-update channels
    carry it)."""
    __tablename__ = "installation"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)


class ProposalRow(Base):
    """A trade between different owners proposed by one seat to another
    (``tracklayer.play.consent``): the proposer's action, the position it was made in
    (``at``: actions taken by then), the players (ids), its words, the deal it is, and its
    status: pending, accepted, declined, withdrawn or void."""
    __tablename__ = "proposals"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    at: Mapped[int] = mapped_column(Integer)
    proposer: Mapped[int] = mapped_column(Integer)
    responder: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)           # JSON
    text: Mapped[str] = mapped_column(Text)
    deal: Mapped[str] = mapped_column(Text)             # JSON: the deal's key
    status: Mapped[str] = mapped_column(String(20))
    created_at: Mapped[Any] = mapped_column(DateTime(timezone=True), server_default=func.now())
    answered_at: Mapped[Any] = mapped_column(DateTime(timezone=True), nullable=True)


def normal_url(url: str) -> str:
    """``postgresql://`` means the psycopg 3 driver (the one the ``web`` extra installs)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def make_engine(url: str) -> Engine:
    url = normal_url(url)
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(conn, _record) -> None:
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")     # readers never block the writer
            cur.execute("PRAGMA synchronous=FULL")     # an accepted action survives a crash
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
        return engine
    # no ping before each use (a round trip per query): a connection the server dropped is
    # replaced after the one request that met it (answered 503), and none lives an hour
    return create_engine(url, pool_size=10, max_overflow=10, pool_recycle=3600)


def make_reader(url: str, engine: Engine) -> Engine:
    """The engine the requests' reads go through: on PostgreSQL connections in autocommit
    (a read is one statement: no BEGIN before it and no ROLLBACK after, two round trips
    fewer); SQLite's reads begin no transaction anyway, so there it is ``engine``."""
    url = normal_url(url)
    if url.startswith("sqlite"):
        return engine
    return create_engine(url, pool_size=10, max_overflow=10, pool_recycle=3600,
                         isolation_level="AUTOCOMMIT")


# The statements made on every request or stored entry, written out once (building them
# with the expression language on each call cost more than the database's answer).
SEAT_LIST = text("SELECT position, player_id, name, bot, token FROM seats "
                 "WHERE game_id = :g ORDER BY position")
# (written for psycopg's placeholders: ``web.loop_reads`` asks it on the event loop too)
FRESHNESS_SQL = (
    "SELECT s.position, s.player_id, s.name, s.bot, s.token, "
    "(SELECT max(a.number) FROM actions a WHERE a.game_id = %(g)s), "
    "(SELECT count(*) FROM proposals p WHERE p.game_id = %(g)s), "
    "(SELECT count(*) FROM proposals p WHERE p.game_id = %(g)s AND p.status = 'pending'), "
    "(SELECT count(*) FROM proposals p WHERE p.game_id = %(g)s AND p.status = 'void'), "
    "(SELECT coalesce(max(p.at), -1) FROM proposals p WHERE p.game_id = %(g)s) "
    "FROM seats s WHERE s.game_id = %(g)s ORDER BY s.position")
FRESHNESS = text(FRESHNESS_SQL.replace("%(g)s", ":g"))
ENTRIES = text("SELECT number, entry FROM actions WHERE game_id = :g AND number > :after "
               "ORDER BY number")
HOOKED = text("SELECT DISTINCT game_id FROM seats WHERE game_id IN :games "
              "AND webhook_url IS NOT NULL").bindparams(bindparam("games", expanding=True))
APPEND = text("INSERT INTO actions (game_id, number, entry) VALUES (:game_id, :number, :entry)")
# PostgreSQL: a batch of entries as one statement, each guarded one only where its guard
# holds (see Guard), those stored returned (psycopg's placeholders: Writer._write_alone)
APPEND_GUARDED = (
    "INSERT INTO actions (game_id, number, entry) SELECT e.game_id, e.number, e.entry "
    "FROM unnest(%(games)s::integer[], %(numbers)s::integer[], %(entries)s::text[], "
    "%(players)s::integer[], %(tokens)s::text[]) AS e(game_id, number, entry, player_id, token) "
    "WHERE e.token IS NULL OR (EXISTS (SELECT 1 FROM seats s WHERE s.game_id = e.game_id "
    "AND s.player_id = e.player_id AND s.token = e.token) AND NOT EXISTS (SELECT 1 FROM "
    "proposals p WHERE p.game_id = e.game_id AND p.status = 'pending')) "
    "RETURNING game_id, number")
# what a guarded entry is checked against as it is committed (``Writer``), for the games of
# a batch at once: each seat's token, and whether a proposal waits
GUARDS = text("SELECT s.game_id, s.player_id, s.token, (SELECT count(*) FROM proposals p "
              "WHERE p.game_id = s.game_id AND p.status = 'pending') FROM seats s "
              "WHERE s.game_id IN :games").bindparams(bindparam("games", expanding=True))
IN_PLAY = text('SELECT id, at, proposer, responder, action, "text", deal, status '
               "FROM proposals WHERE game_id = :g AND (status = 'pending' OR at = :at) "
               "ORDER BY id")


def freshness_of(rows) -> tuple:
    """The rows of FRESHNESS as ``Store.freshness`` gives them."""
    if not rows:
        return 0, [], (0, 0, 0, -1)
    return rows[0][5] or 0, [tuple(r)[:5] for r in rows], tuple(rows[0][6:])


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


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Writer:
    """Appends log entries in batches: the entries that arrive while one transaction
    commits (an fsync, on SQLite a few milliseconds) go together in the next one, so that
    many games' actions share a commit instead of queueing for one each. ``append``
    returns once its entry is committed (or raises what the database said).

    The other writes made while games are played (proposals made and answered) run here
    too, committed with the entries (``run``): on SQLite one connection then writes, and no
    write waits for another's lock (SQLite's wait for a busy lock sleeps in steps of up to
    100 ms) or for a commit of its own.

    ``alone``: on PostgreSQL, an engine in autocommit, on which a batch of entries alone
    (no jobs) is written as one statement: a round trip or two instead of four (begin,
    guards, insert, commit), a third of the writer's time there."""

    BATCH = 500

    def __init__(self, engine: Engine, alone: Optional[Engine] = None) -> None:
        self.engine = engine
        self.alone = alone
        self.queue: "queue.Queue" = queue.Queue()
        self.thread = threading.Thread(target=self._run, name="log-writer", daemon=True)
        self.thread.start()

    def append(self, game_id: int, number: int, text: str) -> None:
        self._wait({"row": {"game_id": game_id, "number": number, "entry": text},
                    "done": threading.Event(), "error": None})

    def submit(self, game_id: int, number: int, text: str,
               guard: Optional[Guard] = None) -> Future:
        """``append`` without waiting: a future, done once the entry is committed (its
        exception what the database said, or :class:`Unguarded` if ``guard`` no longer
        held)."""
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
            for item in batch:
                done = item["done"]
                if not isinstance(done, Future):
                    done.set()
                elif item["error"] is None:
                    done.set_result(None)
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
                stored = set(map(tuple, conn.connection.driver_connection.execute(
                    APPEND_GUARDED, {
                        "games": [r["game_id"] for r in rows],
                        "numbers": [r["number"] for r in rows],
                        "entries": [r["entry"] for r in rows],
                        "players": [g and g.player_id for g in guards],
                        "tokens": [g and g.token for g in guards]}, prepare=True)))
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
            left = [item for item in batch
                    if (item["row"]["game_id"], item["row"]["number"]) not in stored]
            if left:
                self._check_guards(conn, left)
                for item in left:       # changed again since: told to reload all the same
                    item["error"] = item["error"] or Unguarded("proposal")
        return True

    def _write(self, batch: list) -> None:
        """Commit the batch, entries and jobs, in one transaction; if one of them is
        refused (a number someone else took), commit them one by one so that each hears its
        own answer."""
        if self.alone is not None and all("row" in item for item in batch):
            if not self._write_alone(batch):
                for item in batch:
                    self._write([item])
            return
        try:
            with self.engine.begin() as conn:
                self._check_guards(conn, batch)
                rows = [item["row"] for item in batch if "row" in item and
                        not isinstance(item["error"], Unguarded)]
                if rows:
                    conn.execute(APPEND, rows)
                for item in batch:
                    if "job" in item:
                        item["result"] = item["job"](conn)
        except Exception as e:
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


class Store:
    """The database, as the service uses it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.reader = make_reader(url, self.engine)
        migrate(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._installation: Optional[str] = None
        self.writer = Writer(self.engine,
                             alone=None if self.reader is self.engine else self.reader)

    def installation(self) -> str:
        """The installation's name: every worker on this database reads the same."""
        if self._installation is None:
            with self.sessions() as s:
                self._installation = s.scalars(select(InstallationRow.id)).one()
        return self._installation

    def create(self, title: str, seed: int, optional_rules: List[str],
               seats: List[Dict], entries: List[dict] = (), description: str = "",
               creator_token: Optional[str] = None, **links) -> int:
        """A new game with its seats (and, for an import, its log), in one transaction;
        ``links``: more of its columns (the rules that accepted the log, the game it
        continues)."""
        with self.sessions.begin() as s:
            g = GameRow(title=title, seed=seed, optional_rules=list(optional_rules),
                        description=description, creator_token=creator_token, **links)
            s.add(g)
            s.flush()
            for i, seat in enumerate(seats):
                s.add(SeatRow(game_id=g.id, position=i, player_id=seat["player_id"],
                              name=seat["name"], bot=seat.get("bot"), token=seat.get("token")))
            for n, h in enumerate(entries, start=1):
                s.add(ActionRow(game_id=g.id, number=n, entry=json.dumps(h)))
            return g.id

    def game(self, game_id: int) -> Optional[GameRow]:
        if type(game_id) is not int or not 0 < game_id <= MAX_ID:
            return None                 # no such game: beyond what the column holds
        with self.sessions() as s:
            return s.get(GameRow, game_id)

    def games(self, limit: int = 50) -> List[GameRow]:
        with self.sessions() as s:
            return list(s.scalars(select(GameRow).order_by(GameRow.id.desc()).limit(limit)))

    def seats(self, game_id: int) -> List[SeatRow]:
        with self.sessions() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                  .order_by(SeatRow.position)))

    def seat_list(self, game_id: int) -> List[tuple]:
        """``(position, player_id, name, bot, token)`` of the game's seats, in order."""
        with self.reader.connect() as conn:
            return [tuple(r) for r in conn.execute(SEAT_LIST, {"g": game_id})]

    def freshness(self, game_id: int) -> tuple:
        """What another worker may have changed, in one query: the number of the game's
        newest entry, its seats (as ``seat_list``) and a mark of its proposals, (how many,
        how many pending, how many void, the latest position one was made at; -1: none): a
        proposal made or answered moves it (a proposal's status only moves on: pending,
        answered, perhaps void)."""
        with self.reader.connect() as conn:
            return freshness_of(conn.execute(FRESHNESS, {"g": game_id}).all())

    def entries(self, game_id: int, after: int = 0) -> List[tuple]:
        """``(number, entry)`` of the log after entry ``after``, in order."""
        return [(n, json.loads(e)) for n, e in self.entry_texts(game_id, after)]

    def entry_texts(self, game_id: int, after: int = 0) -> List[tuple]:
        """``(number, entry as JSON, as kept)`` of the log after entry ``after``, in order."""
        with self.reader.connect() as conn:
            return [tuple(r) for r in conn.execute(ENTRIES, {"g": game_id, "after": after})]

    def append(self, game_id: int, number: int, entry: dict) -> None:
        """Store one entry (IntegrityError if that number is taken: someone was first),
        committed with whatever other entries arrive meanwhile (see Writer)."""
        self.writer.append(game_id, number, json.dumps(entry))

    def submit(self, game_id: int, number: int, entry: dict,
               guard: Optional[Guard] = None) -> Future:
        """``append`` without waiting: a future, done once the entry is committed (checked
        against ``guard`` as it is: see :class:`Guard`)."""
        return self.writer.submit(game_id, number, json.dumps(entry), guard)

    def set_seat(self, game_id: int, position: int, name: str, token: str) -> None:
        with self.sessions.begin() as s:
            seat = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                   SeatRow.position == position)).one()
            seat.name, seat.token = name, token

    def reissue(self, game_id: int, position: int, token: str) -> None:
        """A seat's new token; the old one, and the webhook its holder set, are dropped."""
        with self.sessions.begin() as s:
            seat = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                   SeatRow.position == position)).one()
            seat.token = token
            seat.webhook_url = seat.webhook_site = None
            seat.webhook_seat_link = False

    def set_webhook(self, game_id: int, position: int, url: Optional[str],
                    site: Optional[str], seat_link: bool) -> None:
        with self.sessions.begin() as s:
            seat = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                   SeatRow.position == position)).one()
            seat.webhook_url, seat.webhook_site = url, site
            seat.webhook_seat_link = bool(url) and seat_link

    def hooked_games(self, game_ids) -> set:
        """Which of ``game_ids`` have a seat that set a webhook (one query for many)."""
        if not game_ids:
            return set()
        with self.reader.connect() as conn:
            return set(conn.scalars(HOOKED, {"games": sorted(game_ids)}))

    def webhooks(self, game_id: int) -> List[SeatRow]:
        """The game's seats that set a webhook."""
        with self.sessions() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                        SeatRow.webhook_url.is_not(None))
                                  .order_by(SeatRow.position)))


    def add_proposal(self, game_id: int, at: int, proposer: int, responder: int,
                     action: dict, text: str, deal: list) -> Optional[int]:
        """Store a pending proposal; None if the game has one pending already."""
        values = dict(game_id=game_id, at=at, proposer=proposer, responder=responder,
                      action=json.dumps(action), text=text, deal=json.dumps(deal),
                      status="pending")

        def add(conn) -> Optional[int]:
            waiting = conn.execute(select(ProposalRow.id).where(
                ProposalRow.game_id == game_id, ProposalRow.status == "pending")).first()
            if waiting is not None:
                return None
            return conn.execute(insert(ProposalRow).values(**values)).inserted_primary_key[0]
        return self.writer.run(add)

    def proposals(self, game_id: int, limit: int = 50) -> List[ProposalRow]:
        """The game's latest proposals (at most ``limit``), newest first."""
        with self.sessions() as s:
            return list(s.scalars(select(ProposalRow).where(ProposalRow.game_id == game_id)
                                  .order_by(ProposalRow.id.desc()).limit(limit)))

    def proposals_in_play(self, game_id: int, at: int) -> List[tuple]:
        """The proposals pending or made at position ``at``, oldest first, as tuples (id,
        at, proposer, responder, action, text, deal, status): read on every request, so
        plain columns."""
        with self.reader.connect() as conn:
            return [tuple(r) for r in conn.execute(IN_PLAY, {"g": game_id, "at": at})]

    def answer_proposal(self, proposal_id: int, status: str, was: str = "pending") -> bool:
        """Give a proposal its answer (``status``) if its status is still ``was``; False if
        not (someone else answered first)."""
        def answer(conn) -> bool:
            return conn.execute(update(ProposalRow)
                                .where(ProposalRow.id == proposal_id, ProposalRow.status == was)
                                .values(status=status, answered_at=func.now())).rowcount == 1
        return self.writer.run(answer)

    def dispose(self) -> None:
        self.writer.stop()
        self.engine.dispose()
        self.reader.dispose()
