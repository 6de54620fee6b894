"""Whether an operator's network reaches track of a tile being laid (the track
restriction's question, asked of each lay judged or listed), told without a walk when the
walk on the board before the lay shows it.

The walk from a token city (:func:`.network.trails`) on the board with the new tile is
the same as before the lay until it first enters the hex; its trail has touched nothing
of the hex then, so nothing stops it entering any rail there across the side it came by,
nor, through a stop open to the operator, any rail of the stop. When whatever rail it
first enters so leads onto the goal, the goal is reached; otherwise the walks tell.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from .board import Node, Rail, TileView, view
from .network import first_reached, moves, token_nodes, walk_links
from .table import Table


def reaches_any(table: Table, operator, goal: frozenset, old: Optional[TileView] = None,
                entered: tuple = ()) -> bool:
    """Does the operator's network reach one of the rails of ``goal`` (all on the hex of a
    tile just laid over ``old``)? Told without a walk when a walk on the board before the
    lay entered the old tile (at the track ends ``entered``: :func:`first_entries`) and
    so meets the goal at once (:func:`_met_on_entry`). Otherwise each token city's walk,
    its own, so they may be tried in any order: the nearest first, each told at once when
    the goal lies next to it (:func:`_beside`), else walked until it reaches the first
    such rail. Nothing is kept."""
    starts = token_nodes(table, operator)
    if not goal or not starts:
        return False
    hex_id = next(iter(goal)).hex
    if old is not None and entered and _met_on_entry(table, operator, starts, goal, old,
                                                     entered):
        return True
    distance = table.spec.grid.distance
    closed: Dict[Node, bool] = {}
    return any(_beside(table, start, goal) or
               first_reached(table, start, starts, operator, closed, goal) is not None
               for start in sorted(starts, key=lambda node: distance(node.hex, hex_id)))


def first_entries(table: Table, operator, hex_id: str) -> tuple:
    """The track ends ``(side, lane, gauge)`` of the hex at which the walks of the
    operator on the board as it is first enter it, one for each token city whose walk
    enters it across a side. (Worked out once a position, whatever was kept of its
    network.)"""
    key = ("entries", operator)
    found = table.derived.network.get(key)
    if found is None:
        found = table.derived.network[key] = _first_entries(table, operator)
    return found.get(hex_id, ())


def _first_entries(table: Table, operator) -> Dict[str, tuple]:
    starts = token_nodes(table, operator)
    closed: Dict[Node, bool] = {}
    found: Dict[str, tuple] = {}
    for start in starts:
        entered = set()
        for rail, side, _junction, _forked in moves(table, start, starts, operator, closed):
            if rail.hex not in entered:
                entered.add(rail.hex)
                if side is not None:
                    found[rail.hex] = found.get(rail.hex, ()) + ((side, *_end(rail, side)),)
    return found


def _end(rail: Rail, side: int) -> tuple:
    """How ``rail`` ends at ``side``: its lane there and its gauge (what track across the
    side must meet to lead onto it)."""
    return rail.lanes.get(side), rail.gauge


def _met_on_entry(table: Table, operator, starts: List[Node], goal: frozenset,
                  old: TileView, entered: tuple) -> bool:
    """Does the walk with the new tile laid reach the goal, a walk on the board before
    entering the old tile first at one of the ends ``entered``? The walk from that token
    city is the same until it first enters the hex (its trail has not touched the hex
    then, so nothing stops it entering any rail there), and that is no later than before:
    every end of the old tile is one of the new tile (no token city of the operator being
    on the hex). It reaches the goal at once if the new tile's rails at an end no old rail
    had meet the goal there (:func:`_meets_at`: such an end may be entered first), and at
    the end first entered before a rail of the goal ends alike, or every rail there meets
    the goal."""
    hex_id = old.hex
    if any(node.hex == hex_id for node in starts):
        return False
    new = view(table, hex_id)
    old_ends = {(side, *_end(r, side)) for r in old.rails if not r.blind for side in r.sides}
    new_rails = [r for r in new.rails if not r.blind]
    if not old_ends <= {(side, *_end(r, side)) for r in new_rails for side in r.sides}:
        return False
    if not all(_meets_at(new, rail, side, goal, operator) for rail in new_rails
               for side in rail.sides if (side, *_end(rail, side)) not in old_ends):
        return False
    return any(_goal_ends_at(new, side, (lane, gauge), goal) or
               all(_meets_at(new, r, side, goal, operator) for r in new.by_side.get(side, ())
                   if not r.blind)
               for side, lane, gauge in entered)


def _goal_ends_at(new: TileView, side: int, end: tuple, goal: frozenset) -> bool:
    """Does a rail of the goal end at ``side`` as ``end``?"""
    return any(r in goal and not r.blind and _end(r, side) == end
               for r in new.by_side.get(side, ()))


def _meets_at(new: TileView, rail: Rail, side: int, goal: frozenset, operator) -> bool:
    """Entered first of its tile across ``side``, does ``rail`` lead to the goal at once?
    Yes if it is of the goal; if it leads through one of its stops, open to the operator,
    to a rail of the goal (the walk enters every rail of the stop); or if a rail of the
    goal ends alike at that side (the walk enters it from the same track across it)."""
    if rail in goal or _goal_ends_at(new, side, _end(rail, side), goal):
        return True
    return not rail.terminal and any(not node.closed_to(operator) and
                                     not goal.isdisjoint(node.entries) for node in rail.nodes)


def _beside(table: Table, start: Node, goal: frozenset) -> bool:
    """Is a rail of ``goal`` one that the walk from token city ``start`` sets out along,
    or across a hex side from one? The walk enters each of them (nothing on its trail can
    stop it: it crossed no side of the goal's hex and passed none of its junctions)."""
    for rail in start.entries:
        if rail in goal:
            return True
        leads = rail.walk if rail.walk is not None else walk_links(table, rail)
        for lead in leads:
            if lead[2] in goal:
                return True
    return False
