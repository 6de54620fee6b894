"""Bots: whatever plays a seat by itself, behind one small interface, ``choose(game, seat)``
→ an action in the 18xx.games format (without its ``id``, which the server gives).

``random`` picks among the seat's legal actions the way ``randomplay``'s sensible policy
weighs them. Other bots (issue 10's ``greedy``) plug in by adding to :data:`BOTS`."""

from __future__ import annotations

import random
from typing import Callable, Dict, List, Protocol

from ..errors import GameError
from ..game import Game
from ..randomplay import sensible_weight


class Bot(Protocol):
    def choose(self, game: Game, seat: int) -> dict:
        """The action the bot takes for player ``seat`` (GameError if it has none)."""


def seat_actions(game: Game, seat: int, seat_of: Callable) -> List[dict]:
    return [a for a in game.legal_actions() if seat_of(game, a) == seat]


class RandomBot:
    """Random legal moves, weighed to play a bit like people (``randomplay --sensible``);
    the same game and position always give the same move."""

    def __init__(self, seat_of: Callable) -> None:
        self.seat_of = seat_of

    def choose(self, game: Game, seat: int) -> dict:
        options = seat_actions(game, seat, self.seat_of)
        if not options:
            raise GameError(f"player {seat} has no legal action")
        rng = random.Random(f"{game.seed}:{len(game.history.entries)}:{seat}")
        return rng.choices(options, weights=[sensible_weight(game, o) for o in options])[0]


BOTS: Dict[str, Callable[[Callable], Bot]] = {"random": RandomBot}


def make_bot(kind: str, seat_of: Callable) -> Bot:
    found = BOTS.get(kind)
    if found is None:
        raise GameError(f"unknown bot {kind!r}; available: {', '.join(sorted(BOTS))}")
    return found(seat_of)
