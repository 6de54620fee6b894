"""Bots: players the engine moves. Every bot has one interface, ``choose(game, seat)``: the
action (an 18xx.games action dict, ready for ``Game.apply``) that the player in ``seat``
(0-based, in the game's player order) takes now, for that player or for a company it
controls. Bots are seeded: the same seed and the same position give the same choice.

- ``random``: uniform over the kinds of action it may take, then over the actions of that
  kind (a price drawn within a listed range), so games move on.
- ``greedy``: a heuristic player (``tracklayer.play.greedy``).
- ``planner``: greedy with a look ahead on copies of the game at the decisions that
  shape a fortune (``tracklayer.play.planner``).

``tracklayer.play.roster`` makes them by name.
"""

from __future__ import annotations

import random
from typing import Dict, Iterable, List, Set

from ..errors import GameError
from ..game import Game
from ..turns.listing import random_value
from . import consent, dealing
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
    MAX_OFFERS = 8          # deals dropped in one decision before it gives up dealing

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.barred: Set[tuple] = set()
        self.listed: List[dict] = []

    def choose(self, game: Game, seat: int, declined: Iterable[tuple] = ()) -> dict:
        """The move of the player in ``seat`` now. The bot's randomness is drawn afresh
        from its seed and the number of actions taken, so a game saved and opened again
        goes on as it would have. A move taking what another seat holds is a deal
        (``consent``): offered at the price the bot's way of dealing sets (``dealing``),
        and never one in ``declined`` (the keys of deals declined at this position)."""
        self.rng.seed(self.seed * 1_000_003 + len(game.actions))
        self.barred = set(declined)
        way = dealing.policy(self.NAME)
        for _ in range(self.MAX_OFFERS):
            h = self.decide(game, seat)
            deal = consent.deal_of(game, h)
            if deal is None:
                return h
            offered = way.offer(game, h, deal, self.listed, self.rng)
            if offered is not None:
                return offered
            self.barred.add(deal.key)
        return h

    def answer(self, game: Game, seat: int, proposal: consent.Proposal) -> bool:
        """Does the player in ``seat`` accept ``proposal``? (``dealing``)"""
        self.rng.seed(self.seed * 1_000_003 + len(game.actions) + 500_009)
        return dealing.answer(self.NAME, game, proposal, self.rng)

    def decide(self, game: Game, seat: int) -> dict:
        raise NotImplementedError

    def options(self, game: Game, seat: int) -> List[dict]:
        """The seat's moves (all the listed moves if none is the seat's: someone must
        move), without the deals barred in this decision; GameError if only those are
        left (proposing a declined deal again would go round in circles)."""
        listed = self.listing(game)
        mine = moves_of(game, seat, listed) or listed
        self.listed = mine
        kept = [h for h in mine if not self._barred(game, h)] if self.barred else mine
        if not kept and mine:
            raise GameError(f"seat {seat + 1} has no move left but deals declined here")
        return kept

    def listing(self, game: Game) -> List[dict]:
        """The moves the bot weighs (all the legal moves, unless it asks for fewer)."""
        return game.legal_actions()

    def _barred(self, game: Game, h: dict) -> bool:
        deal = consent.deal_of(game, h)
        return deal is not None and deal.key in self.barred


class RandomBot(Bot):
    """Uniform over the kinds of action, then over the actions of the kind chosen."""

    NAME = "random"

    def decide(self, game: Game, seat: int) -> dict:
        kinds = by_kind(self.options(game, seat))
        if not kinds:
            raise ValueError("no legal move")
        kind = self.rng.choice(sorted(kinds))
        return at_random_value(self.rng.choice(kinds[kind]), self.rng)
