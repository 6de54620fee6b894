"""The gauges of 1849's track: narrow, broad and dual. A chain of track between two stops
keeps one gauge; trains count hex sides, narrow gauge (broad for the R6H) double; new track
meets the operator's track in a gauge it can join (see ``rules.py``)."""

from __future__ import annotations

import functools
from typing import List, Tuple

from ...board.tiles import gauges_join
from ...errors import RouteError
from ...rules import board, network
from ...rules.revenue import hex_sides


@functools.lru_cache(maxsize=None)
def added_gauge(old, new) -> str:
    """The gauge an upgrade adds: dual if any, else broad if any, else narrow. (Shapes
    only, the same in every game: worked out once.)"""
    added = [t.gauge for t in new.tracks]
    for g in [t.gauge for t in old.tracks]:
        if g in added:
            added.remove(g)
    if "dual" in added:
        return "dual"
    return "broad" if "broad" in added else "narrow"


def chain_gauge(rails) -> str:
    """The gauge of a chain of track between two stops, which keeps one gauge (7.1)."""
    kinds = set()
    for r in rails:
        kinds.add(r.gauge)
    if "broad" in kinds and "narrow" in kinds:
        raise RouteError("a route can change gauge only at a station")
    if "narrow" in kinds:
        return "narrow"
    return "broad" if "broad" in kinds else "dual"


def hex_cost(rails, train) -> int:
    """Hex sides a chain crosses; narrow gauge (broad for the R6H) counts double."""
    gauge = chain_gauge(rails)
    sides = hex_sides(rails)
    if train.name == "R6H":
        return sides * 2 if gauge == "broad" else sides
    return sides * 2 if gauge == "narrow" else sides


def meeting_sides(table, hex_id: str, new) -> Tuple[List[int], List[int]]:
    """The hex's sides where new track (laid as ``new``) meets track across them: those
    where the two gauges join, and the others. Each side's track is that of the first
    track of the tile leading there (:func:`_gauge_by_side`), on either side."""
    return sides_by_gauge(facing_gauges(table, hex_id), new)


def facing_gauges(table, hex_id: str) -> dict:
    """The gauge of the track facing each side of the hex that track may cross, from
    the hex across it (the first track of that tile leading there): ``{side: gauge}``."""
    facing: dict = {}
    across = table.spec.grid.across[hex_id]
    for side in table.state.hexes[hex_id].open_sides:
        other = across.get(side)
        if other is None:
            continue
        gauge = _gauge_by_side(board.view(table, other).layout).get((side + 3) % 6)
        if gauge is not None:
            facing[side] = gauge
    return facing


def sides_by_gauge(facing: dict, new) -> Tuple[List[int], List[int]]:
    """Of the sides where new track (laid as ``new``) meets track facing it (``facing``,
    :func:`facing_gauges`), those where the two gauges join, and the others."""
    joining: List[int] = []
    apart: List[int] = []
    for side, gauge in _gauges_at_sides(new):
        other = facing.get(side)
        if other is not None:
            (joining if gauges_join(gauge, other, True) else apart).append(side)
    return joining, apart


class GaugeMeeting:
    """What the gauge rule asks of a hex for one operator at one position, worked out
    once for every tile asked about there: whether the rule is waived on it (``free``),
    the gauges facing its sides (:func:`facing_gauges`), and whether the operator's
    network arrives at one of a set of sides (:func:`arrives_at_one`), as each is
    asked."""

    __slots__ = ("table", "operator", "hex", "free", "_facing", "_arrives")

    def __init__(self, table, operator, hex_id: str, free: bool) -> None:
        self.table = table
        self.operator = operator
        self.hex = hex_id
        self.free = free
        self._facing = None
        self._arrives: dict = {}

    def sides(self, new) -> Tuple[Tuple[int, ...], Tuple[int, ...]]:
        """:func:`meeting_sides` of the hex for a tile laid as ``new`` (the gauges facing
        the hex taken as one key: :func:`_sides_by_gauge`)."""
        return _sides_by_gauge(self.facing(), new)

    def facing(self) -> frozenset:
        """The gauges facing the hex's sides (:func:`facing_gauges`), as one key: its
        items."""
        facing = self._facing
        if facing is None:
            facing = self._facing = frozenset(facing_gauges(self.table, self.hex).items())
        return facing

    def arrives_at_one(self, sides: Tuple[int, ...]) -> bool:
        """:func:`arrives_at_one` of the operator, the hex and ``sides``."""
        found = self._arrives.get(sides)
        if found is None:
            found = self._arrives[sides] = arrives_at_one(self.table, self.operator, self.hex,
                                                          sides)
        return found


@functools.lru_cache(maxsize=None)
def _sides_by_gauge(facing: frozenset, new) -> Tuple[Tuple[int, ...], Tuple[int, ...]]:
    """:func:`sides_by_gauge` of the gauges facing a hex (``facing``: its items), as
    tuples. (Shapes only, the same in every game: worked out once for each layout and
    the gauges facing it, which change only where track is laid.)"""
    joining, apart = sides_by_gauge(dict(facing), new)
    return tuple(joining), tuple(apart)


@functools.lru_cache(maxsize=None)
def _gauge_by_side(layout) -> dict:
    """The gauge of the track at each side a tile's track leads to as it lies (of the
    first track leading there). (Shapes only, the same in every game: worked out once.)"""
    first: dict = {}
    for track in layout.tracks:
        for side in track.sides:
            first.setdefault(side, track.gauge)
    return first


@functools.lru_cache(maxsize=None)
def _gauges_at_sides(layout) -> Tuple[Tuple[int, str], ...]:
    """:func:`_gauge_by_side`, in the order of the sides."""
    return tuple(sorted(_gauge_by_side(layout).items()))


def arrives_at_one(table, operator, hex_id: str, sides: List[int]) -> bool:
    """Does the operator's network arrive at one of the hex's ``sides``?"""
    found = network.arrives_at(table, operator, hex_id, sides)
    return found is not None and any(s in found for s in sides)
