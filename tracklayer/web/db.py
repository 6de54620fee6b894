"""Storage: a game is its settings (title, players, seed, optional rules, seats) plus an
append-only log of the entries the engine accepted, one row per entry, unique by (game,
number). The schema is made and kept up to date by the Alembic migrations in
``migrations/``, run when the app starts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

from sqlalchemy import (JSON, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint,
                        create_engine, event, func, select, update)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, sessionmaker

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


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


class ActionRow(Base):
    """One accepted log entry (action, undo, redo or message), numbered from 1."""
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_action_game_number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    entry: Mapped[str] = mapped_column(Text)           # the entry as JSON, exactly as kept
    created_at: Mapped[Any] = mapped_column(DateTime(timezone=True), server_default=func.now())


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
    return create_engine(url, pool_pre_ping=True)


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
        migrate(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    def create(self, title: str, seed: int, optional_rules: List[str],
               seats: List[Dict], entries: List[dict] = (), description: str = "") -> int:
        """A new game with its seats (and, for an import, its log), in one transaction."""
        with self.sessions.begin() as s:
            g = GameRow(title=title, seed=seed, optional_rules=list(optional_rules),
                        description=description)
            s.add(g)
            s.flush()
            for i, seat in enumerate(seats):
                s.add(SeatRow(game_id=g.id, position=i, player_id=seat["player_id"],
                              name=seat["name"], bot=seat.get("bot"), token=seat.get("token")))
            for n, h in enumerate(entries, start=1):
                s.add(ActionRow(game_id=g.id, number=n, entry=json.dumps(h)))
            return g.id

    def game(self, game_id: int) -> Optional[GameRow]:
        with self.sessions() as s:
            return s.get(GameRow, game_id)

    def games(self, limit: int = 50) -> List[GameRow]:
        with self.sessions() as s:
            return list(s.scalars(select(GameRow).order_by(GameRow.id.desc()).limit(limit)))

    def seats(self, game_id: int) -> List[SeatRow]:
        with self.sessions() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id)
                                  .order_by(SeatRow.position)))

    def entries(self, game_id: int, after: int = 0) -> List[tuple]:
        """``(number, entry)`` of the log after entry ``after``, in order."""
        with self.sessions() as s:
            rows = s.execute(select(ActionRow.number, ActionRow.entry)
                             .where(ActionRow.game_id == game_id, ActionRow.number > after)
                             .order_by(ActionRow.number)).all()
        return [(n, json.loads(e)) for n, e in rows]

    def append(self, game_id: int, number: int, entry: dict) -> None:
        """Store one entry (IntegrityError if that number is taken: someone was first)."""
        with self.sessions.begin() as s:
            s.add(ActionRow(game_id=game_id, number=number, entry=json.dumps(entry)))

    def set_seat(self, game_id: int, position: int, name: str, token: str) -> None:
        with self.sessions.begin() as s:
            seat = s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                   SeatRow.position == position)).one()
            seat.name, seat.token = name, token

    def add_proposal(self, game_id: int, at: int, proposer: int, responder: int,
                     action: dict, text: str, deal: list) -> Optional[int]:
        """Store a pending proposal; None if the game has one pending already."""
        with self.sessions.begin() as s:
            waiting = s.scalars(select(ProposalRow.id).where(
                ProposalRow.game_id == game_id, ProposalRow.status == "pending")).first()
            if waiting is not None:
                return None
            row = ProposalRow(game_id=game_id, at=at, proposer=proposer, responder=responder,
                              action=json.dumps(action), text=text, deal=json.dumps(deal),
                              status="pending")
            s.add(row)
            s.flush()
            return row.id

    def proposals(self, game_id: int, limit: int = 50) -> List[ProposalRow]:
        """The game's latest proposals (at most ``limit``), newest first."""
        with self.sessions() as s:
            return list(s.scalars(select(ProposalRow).where(ProposalRow.game_id == game_id)
                                  .order_by(ProposalRow.id.desc()).limit(limit)))

    def proposals_in_play(self, game_id: int, at: int) -> List[tuple]:
        """The proposals pending or made at position ``at``, oldest first, as tuples (id,
        at, proposer, responder, action, text, deal, status): read on every request, so
        plain columns."""
        with self.sessions() as s:
            return list(s.execute(
                select(ProposalRow.id, ProposalRow.at, ProposalRow.proposer,
                       ProposalRow.responder, ProposalRow.action, ProposalRow.text,
                       ProposalRow.deal, ProposalRow.status)
                .where(ProposalRow.game_id == game_id,
                       (ProposalRow.status == "pending") | (ProposalRow.at == at))
                .order_by(ProposalRow.id)).all())

    def answer_proposal(self, proposal_id: int, status: str, was: str = "pending") -> bool:
        """Give a proposal its answer (``status``) if its status is still ``was``; False if
        not (someone else answered first)."""
        with self.sessions.begin() as s:
            done = s.execute(update(ProposalRow)
                             .where(ProposalRow.id == proposal_id, ProposalRow.status == was)
                             .values(status=status, answered_at=func.now()))
            return done.rowcount == 1

    def dispose(self) -> None:
        self.engine.dispose()
