"""Bots: whatever plays a seat by itself, behind one small interface, ``choose(game, seat)``
→ an action in the 18xx.games format (the server gives it its ``id``), where ``seat`` is
the player's place (0-based) in the game's list of players — the interface of issue 10's
bots (``tracklayer.play.bots``), so that its ``greedy`` plugs in by adding to :data:`BOTS`.

``random`` picks among the seat's legal actions the way ``randomplay``'s sensible policy
weighs them; the same game, position and seed always give the same move."""

from __future__ import annotations

import random
from typing import Callable, Dict, Optional, Protocol

from ..errors import GameError
from ..game import Game
from ..randomplay import sensible_weight
from ..state.model import PlayerState


class Bot(Protocol):
    def choose(self, game: Game, seat: int) -> dict:
        """The action the bot takes for the player in ``seat`` (GameError if none)."""


def seat_of(game: Game, action: dict) -> Optional[int]:
    """The id of the player who acts for an action's entity (a company's or
    corporation's owner, and so on up), or None."""
    obj = game.table.find(action.get("entity_type"), action.get("entity"))
    for _ in range(8):
        if obj is None or isinstance(obj, PlayerState):
            break
        obj = obj.owner
    return obj.id if isinstance(obj, PlayerState) else None


def player_id_at(game: Game, seat: int) -> int:
    return game.player_specs[seat][0]


def seat_index(game: Game, player_id: int) -> int:
    return next(i for i, (pid, _name) in enumerate(game.player_specs) if pid == player_id)


class RandomBot:
    """Random legal moves, weighed to play a bit like people (``randomplay --sensible``)."""

    NAME = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, game: Game, seat: int) -> dict:
        pid = player_id_at(game, seat)
        options = [a for a in game.legal_actions() if seat_of(game, a) == pid]
        if not options:
            raise GameError(f"player {pid} has no legal action")
        rng = random.Random(f"{self.seed}:{len(game.history.entries)}:{seat}")
        return rng.choices(options, weights=[sensible_weight(game, o) for o in options])[0]


BOTS: Dict[str, Callable[[int], Bot]] = {"random": RandomBot}


def make_bot(kind: str, seed: int = 0) -> Bot:
    found = BOTS.get(kind)
    if found is None:
        raise GameError(f"unknown bot {kind!r}; available: {', '.join(sorted(BOTS))}")
    return found(seed)
