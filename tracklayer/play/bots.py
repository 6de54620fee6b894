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
from typing import Dict, List, Optional

from ..game import Game
from ..state.model import CompanyState, OperatorState, PlayerState
from ..turns.listing import random_value


def controller(entity) -> Optional[PlayerState]:
    """The player who decides for ``entity``: itself, or the player owning it."""
    seen = 0
    while entity is not None and not isinstance(entity, PlayerState) and seen < 4:
        entity = entity.owner if isinstance(entity, (OperatorState, CompanyState)) else None
        seen += 1
    return entity if isinstance(entity, PlayerState) else None


def seat_of(game: Game, player) -> Optional[int]:
    """The seat of ``player``: its place in the game's list of players (the state's list
    is in the order of play, which may change)."""
    if player is None:
        return None
    for i, (pid, _name) in enumerate(game.player_specs):
        if pid == player.id:
            return i
    return None


def player_at(game: Game, seat: int) -> PlayerState:
    return game.table.find("player", game.player_specs[seat][0])


def seat_to_act(game: Game) -> Optional[int]:
    """The seat whose player decides now (for the entity whose turn it is)."""
    acting = game.acting
    return seat_of(game, controller(acting)) if acting is not None else None


def moves_of(game: Game, seat: int, moves: Optional[List[dict]] = None) -> List[dict]:
    """The legal moves of the entities the player in ``seat`` decides for."""
    player = player_at(game, seat)
    moves = game.legal_actions() if moves is None else moves
    out = []
    for h in moves:
        entity = game.table.find(h.get("entity_type"), h.get("entity"))
        if controller(entity) is player:
            out.append(h)
    return out


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
