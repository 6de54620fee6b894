"""The game's random numbers (``tracklayer/rng.py``): the linear congruential generator
of 18xx.games, x ← (1103515245·x + 12345) mod 2^31 starting from the seed, and shuffling by
sorting on a fresh random key per element."""

from __future__ import annotations

import pytest

from tracklayer.rng import SeededRandom

A, C, M = 1103515245, 12345, 2 ** 31


def lcg(seed: int, n: int) -> list:
    x, out = seed % M, []
    for _ in range(n):
        x = (A * x + C) % M
        out.append(x)
    return out


@pytest.mark.parametrize("seed", [0, 1, 42, 1194570340, M - 1])
def test_sequence_follows_the_lcg(seed):
    """Each number is (a·previous + c) mod m, starting from the seed."""
    r = SeededRandom(seed)
    assert [r.draw() for _ in range(50)] == lcg(seed, 50)


def test_first_numbers_of_small_seeds():
    """Known first numbers: from 0 the first is c; from 1 it is a + c."""
    assert SeededRandom(0).draw() == 12345
    assert SeededRandom(1).draw() == 1103527590
    r = SeededRandom(1)
    r.draw()
    assert r.draw() == (A * 1103527590 + C) % M


def test_seed_is_taken_modulo_2_31():
    """Seeds that differ by multiples of 2^31 give the same numbers."""
    assert [SeededRandom(M + 5).draw() for _ in range(1)] == [SeededRandom(5).draw()]
    r1, r2 = SeededRandom(3 * M + 17), SeededRandom(17)
    assert [r1.draw() for _ in range(10)] == [r2.draw() for _ in range(10)]


def test_numbers_stay_below_2_31():
    """Every number is in [0, 2^31)."""
    r = SeededRandom(987654321)
    assert all(0 <= r.draw() < M for _ in range(1000))


def test_shuffle_sorts_by_one_fresh_key_per_element():
    """Element i gets the i-th next number as its key; the result is in ascending key order."""
    items = list("abcdefghij")
    keys = lcg(1234, len(items))
    expected = [item for _, item in sorted(zip(keys, items))]
    assert SeededRandom(1234).shuffled(items) == expected


def test_shuffle_uses_exactly_one_number_per_element():
    """Shuffling n elements advances the generator by exactly n numbers."""
    r = SeededRandom(99)
    r.shuffled(list(range(7)))
    assert r.draw() == lcg(99, 8)[-1]


def test_shuffle_returns_a_new_list_and_leaves_its_input_alone():
    """Shuffling gives a new list with the same elements."""
    items = [3, 1, 2]
    out = SeededRandom(5).shuffled(items)
    assert items == [3, 1, 2]
    assert sorted(out) == [1, 2, 3] and out is not items


def test_shuffle_of_nothing():
    """An empty list draws no numbers."""
    r = SeededRandom(5)
    assert r.shuffled([]) == []
    assert r.draw() == lcg(5, 1)[0]


def test_equal_keys_keep_the_original_order():
    """Elements with equal keys stay in their original order (a stable sort)."""
    class Constant(SeededRandom):
        def draw(self) -> int:
            return 7

    assert Constant(1).shuffled(["x", "y", "z"]) == ["x", "y", "z"]


def test_same_seed_same_shuffle_different_seed_different_shuffle():
    """A shuffle is determined by the seed."""
    items = list(range(20))
    assert SeededRandom(8).shuffled(items) == SeededRandom(8).shuffled(items)
    assert SeededRandom(8).shuffled(items) != SeededRandom(9).shuffled(items)
