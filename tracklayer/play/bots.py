"""Bots: players the engine moves. Every bot has one interface, ``choose(game, seat)``: the
action (an 18xx.games action dict, ready for ``Game.apply``) that the player in ``seat``
(0-based, in the game's player order) takes now, for that player or for a company it
controls. Bots are seeded: the same seed and the same position give the same choice.

- ``random``: uniform over the kinds of action it may take, then over the actions of that
  kind (a price drawn within a listed range), so games move on.
- ``greedy``: a heuristic player (``tracklayer.play.greedy``).

``tracklayer.play.roster`` makes them by name.
"""

from __future__ import annotations

import random
from typing import Dict, List

from ..game import Game
from ..turns.listing import random_value
from .seats import moves_of, owning_player, player_at, seat_of, seat_to_act

__all__ = ["Bot", "RandomBot", "by_kind", "controller", "moves_of", "player_at", "seat_of",
           "seat_to_act"]

# The player owning an entity, up its chain of owners (whose it is; who decides for it is
# ``seats.decider``).
controller = owning_player


def by_kind(moves: List[dict]) -> Dict[str, List[dict]]:
    out: Dict[str, List[dict]] = {}
    for h in moves:
        out.setdefault(h["type"], []).append(h)
    return out


def at_random_value(h: dict, rng: random.Random) -> dict:
    return random_value(h, rng)


class Bot:
    """A seeded player (see the module docstring)."""

    NAME = "bot"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int) -> dict:
        """The move of the player in ``seat`` now. The bot's randomness is drawn afresh
        from its seed and the number of actions taken, so a game saved and opened again
        goes on as it would have."""
        self.rng.seed(self.seed * 1_000_003 + len(game.actions))
        return self.decide(game, seat)

    def decide(self, game: Game, seat: int) -> dict:
        raise NotImplementedError

    def options(self, game: Game, seat: int) -> List[dict]:
        """The seat's moves (all the listed moves if none is the seat's: someone must
        move)."""
        listed = game.legal_actions()
        return moves_of(game, seat, listed) or listed


class RandomBot(Bot):
    """Uniform over the kinds of action, then over the actions of the kind chosen."""

    NAME = "random"

    def decide(self, game: Game, seat: int) -> dict:
        kinds = by_kind(self.options(game, seat))
        if not kinds:
            raise ValueError("no legal move")
        kind = self.rng.choice(sorted(kinds))
        return at_random_value(self.rng.choice(kinds[kind]), self.rng)
