"""The game's random numbers (``tracklayer/engine/rng.py``): the linear congruential generator
of 18xx.games, x ← (1103515245·x + 12345) mod 2^31 starting from the seed, and shuffling by
sorting on a fresh random key per element."""

from __future__ import annotations

import pytest

from tracklayer.engine.rng import Random

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
    r = Random(seed)
    assert [r.next() for _ in range(50)] == lcg(seed, 50)


def test_first_numbers_of_small_seeds():
    """Known first numbers: from 0 the first is c; from 1 it is a + c."""
    assert Random(0).next() == 12345
    assert Random(1).next() == 1103527590
    r = Random(1)
    r.next()
    assert r.next() == (A * 1103527590 + C) % M


def test_seed_is_taken_modulo_2_31():
    """Seeds that differ by multiples of 2^31 give the same numbers."""
    assert [Random(M + 5).next() for _ in range(1)] == [Random(5).next()]
    r1, r2 = Random(3 * M + 17), Random(17)
    assert [r1.next() for _ in range(10)] == [r2.next() for _ in range(10)]


def test_numbers_stay_below_2_31():
    """Every number is in [0, 2^31)."""
    r = Random(987654321)
    assert all(0 <= r.next() < M for _ in range(1000))


def test_shuffle_sorts_by_one_fresh_key_per_element():
    """Element i gets the i-th next number as its key; the result is in ascending key order."""
    items = list("abcdefghij")
    keys = lcg(1234, len(items))
    expected = [item for _, item in sorted(zip(keys, items))]
    assert Random(1234).shuffle(items) == expected


def test_shuffle_uses_exactly_one_number_per_element():
    """Shuffling n elements advances the generator by exactly n numbers."""
    r = Random(99)
    r.shuffle(list(range(7)))
    assert r.next() == lcg(99, 8)[-1]


def test_shuffle_returns_a_new_list_and_leaves_its_input_alone():
    """Shuffling gives a new list with the same elements."""
    items = [3, 1, 2]
    out = Random(5).shuffle(items)
    assert items == [3, 1, 2]
    assert sorted(out) == [1, 2, 3] and out is not items


def test_shuffle_of_nothing():
    """An empty list draws no numbers."""
    r = Random(5)
    assert r.shuffle([]) == []
    assert r.next() == lcg(5, 1)[0]


def test_equal_keys_keep_the_original_order():
    """Elements with equal keys stay in their original order (a stable sort)."""
    class Constant(Random):
        def next(self) -> int:
            return 7

    assert Constant(1).shuffle(["x", "y", "z"]) == ["x", "y", "z"]


def test_same_seed_same_shuffle_different_seed_different_shuffle():
    """A shuffle is determined by the seed."""
    items = list(range(20))
    assert Random(8).shuffle(items) == Random(8).shuffle(items)
    assert Random(8).shuffle(items) != Random(9).shuffle(items)
