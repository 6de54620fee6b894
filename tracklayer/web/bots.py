"""Bots: whatever plays a seat by itself, ``choose(game, seat)`` → an action in the
18xx.games format (the server gives it its ``id``), where ``seat`` is the player's place
(0-based) in the game's list of players: the bots of :mod:`tracklayer.play` (``random``,
``greedy``), by name."""

from __future__ import annotations

from typing import Optional

from ..errors import GameError
from ..game import Game
from ..play.bots import Bot
from ..play.roster import BOTS
from ..play.seats import deciding_seat


def seat_of(game: Game, action: dict) -> Optional[int]:
    """The id of the player whose seat decides an action (``play.seats.deciding_seat``),
    or None."""
    seat = deciding_seat(game, action)
    return game.player_specs[seat][0] if seat is not None else None


def seat_index(game: Game, player_id: int) -> int:
    return next(i for i, (pid, _name) in enumerate(game.player_specs) if pid == player_id)


def make_bot(kind: str, seed: int = 0) -> Bot:
    found = BOTS.get(kind)
    if found is None:
        raise GameError(f"unknown bot {kind!r}; available: {', '.join(sorted(BOTS))}")
    return found(seed)
