"""Storage: a game is its settings (title, players, seed, optional rules, seats) plus an
append-only log of the entries the engine accepted, one row per entry, unique by (game,
number). The schema is made and kept up to date by the Alembic migrations in
``migrations/``, run when the app starts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

from sqlalchemy import (JSON, Boolean, DateTime, ForeignKey, Integer, String, Text,
                        UniqueConstraint, create_engine, event, false, func, select)
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
    # the creator's secret, kept as seat tokens are: it issues a lost seat link again
    creator_token: Mapped[Optional[str]] = mapped_column(String(64), nullable=True,
                                                         unique=True)


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
               seats: List[Dict], entries: List[dict] = (), description: str = "",
               creator_token: Optional[str] = None) -> int:
        """A new game with its seats (and, for an import, its log), in one transaction."""
        with self.sessions.begin() as s:
            g = GameRow(title=title, seed=seed, optional_rules=list(optional_rules),
                        description=description, creator_token=creator_token)
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

    def webhooks(self, game_id: int) -> List[SeatRow]:
        """The game's seats that set a webhook."""
        with self.sessions() as s:
            return list(s.scalars(select(SeatRow).where(SeatRow.game_id == game_id,
                                                        SeatRow.webhook_url.is_not(None))
                                  .order_by(SeatRow.position)))

    def dispose(self) -> None:
        self.engine.dispose()
