"""Storage: a game is its settings (title, players, seed, optional rules, seats) plus an
append-only log of the entries the engine accepted, one row per entry, unique by (game,
number). The schema is made and kept up to date by the Alembic migrations in
``migrations/``, run when the app starts."""

from __future__ import annotations

import json
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Dict, List, Optional

from sqlalchemy import (JSON, Boolean, DateTime, ForeignKey, Integer, String, Text,
                        UniqueConstraint, create_engine, event, false, func, select, text)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

from .writer import HOOKED, Guard, Writer

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
IN_PLAY = text('SELECT id, at, proposer, responder, action, "text", deal, status '
               "FROM proposals WHERE game_id = :g AND (status = 'pending' OR at = :at) "
               "ORDER BY id")
PENDING = text("SELECT id FROM proposals WHERE game_id = :g AND status = 'pending' LIMIT 1")
PROPOSE = text('INSERT INTO proposals (game_id, at, proposer, responder, action, "text", deal, '
               "status) VALUES (:game_id, :at, :proposer, :responder, :action, :text, :deal, "
               ":status) RETURNING id")
# (CURRENT_TIMESTAMP: what ``func.now()`` writes on SQLite, ``now()`` on PostgreSQL)
ANSWER = text("UPDATE proposals SET status = :status, answered_at = CURRENT_TIMESTAMP "
              "WHERE id = :id AND status = :was")


def freshness_of(rows) -> tuple:
    """The rows of FRESHNESS as ``Store.freshness`` gives them."""
    if not rows:
        return 0, [], (0, 0, 0, -1)
    return rows[0][5] or 0, [tuple(r)[:5] for r in rows], tuple(rows[0][6:])


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest migration (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


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
        self.writer.append(game_id, number, self.entry_text(entry))

    def submit(self, game_id: int, number: int, text: str,
               guard: Optional[Guard] = None) -> Future:
        """``append`` of the entry as JSON (``entry_text``) without waiting: a future,
        done once the entry is committed (checked against ``guard`` as it is: see
        :class:`Guard`)."""
        return self.writer.submit(game_id, number, text, guard)

    @staticmethod
    def entry_text(entry: dict) -> str:
        """An entry as the log keeps it: JSON (what a live stream sends of it, too)."""
        return json.dumps(entry)

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
            if conn.execute(PENDING, {"g": game_id}).first() is not None:
                return None
            return conn.execute(PROPOSE, values).scalar_one()
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
            return conn.execute(ANSWER, {"id": proposal_id, "was": was,
                                         "status": status}).rowcount == 1
        return self.writer.run(answer)

    def dispose(self) -> None:
        self.writer.stop()
        self.engine.dispose()
        self.reader.dispose()
