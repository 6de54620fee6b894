"""Randomness from the game's seed, drawn exactly as 18xx.games draws it, so that one
seed gives the same game in both."""

from __future__ import annotations

from typing import List, Sequence, TypeVar

T = TypeVar("T")

MULTIPLIER = 1_103_515_245
INCREMENT = 12_345
MODULUS = 2 ** 31


class SeededRandom:
    """A linear congruential generator: x ← (a·x + c) mod m, starting from the seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.state = seed % MODULUS

    def draw(self) -> int:
        """The next number in [0, 2^31)."""
        self.state = (MULTIPLIER * self.state + INCREMENT) % MODULUS
        return self.state

    def shuffled(self, items: Sequence[T]) -> List[T]:
        """A shuffled copy: each item gets a fresh number and the items are sorted by it
        (ties keep their order)."""
        keyed = [(self.draw(), i, item) for i, item in enumerate(items)]
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [item for _, _, item in keyed]
