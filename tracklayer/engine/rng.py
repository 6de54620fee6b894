"""Deterministic randomness, identical to 18xx.games so that a seed gives the same game."""

from __future__ import annotations

from typing import List, Sequence, TypeVar

T = TypeVar("T")

RAND_A = 1_103_515_245
RAND_C = 12_345
RAND_M = 2 ** 31


class Random:
    """A linear congruential generator: x ← (a·x + c) mod m, started from the game seed."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.state = seed % RAND_M

    def next(self) -> int:
        """The next number in [0, 2^31)."""
        self.state = (RAND_A * self.state + RAND_C) % RAND_M
        return self.state

    def shuffle(self, items: Sequence[T]) -> List[T]:
        """A shuffled copy: each element gets a fresh random key, then the list is sorted by key."""
        keyed = [(self.next(), i, item) for i, item in enumerate(items)]
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [item for _, _, item in keyed]
