"""Whether an operator's network reaches track of a tile being laid (the track
restriction's question, asked of each lay judged or listed), told without a walk when the
walk on the board before the lay shows it.

The walk from a token city (:func:`.walk.trails`) on the board with the new tile is
the same as before the lay until it first enters the hex; its trail has touched nothing
of the hex then, so nothing stops it entering any rail there across the side it came by,
nor, through a stop open to the operator, any rail of the stop. When whatever rail it
first enters so leads onto the goal, the goal is reached. And a trail that left the hex
across a side the goal's track uses can never enter it: when no path through the track
outside the hex (:class:`Approach`) and the new tile, never leaving the hex so, leads from
a token city to the goal, it is not reached. Otherwise the walks tell.
"""

from __future__ import annotations

from typing import Dict, Iterator, List, Optional, Set

from ..board.tiles import facing, gauges_join
from .board import Node, Rail, TileView, lanes_meet, view
from .network import entries_noted, token_nodes
from .walk import first_reached, moves, walk_links
from .table import Table


def reaches_any(table: Table, operator, goal: frozenset, old: Optional[TileView] = None,
                approach: Optional["Approach"] = None) -> bool:
    """Does the operator's network reach one of the rails of ``goal`` (all on the hex of a
    tile just laid over ``old``)? Told without a walk when a walk on the board before the
    lay entered the old tile (``approach``: :func:`first_entries`) and so meets the goal
    at once (:func:`_met_on_entry`), or when no trail can reach it (:func:`_cut_off`).
    Otherwise each token city's walk, its own, so they may be tried in any order: the
    nearest first, each told at once when the goal lies next to it (:func:`_beside`),
    else walked until it reaches the first such rail. Nothing is kept."""
    starts = token_nodes(table, operator)
    hex_id = next(iter(goal)).hex if goal else None
    told = told_without_walks(table, operator, starts, goal, old, approach,
                              view(table, hex_id) if goal else None)
    if told is not None:
        return told
    distance = table.spec.grid.distance
    closed: Dict[Node, bool] = {}
    return any(_beside(table, start, goal) or
               first_reached(table, start, starts, operator, closed, goal) is not None
               for start in sorted(starts, key=lambda node: distance(node.hex, hex_id)))


def told_without_walks(table: Table, operator, starts: List[Node], goal: frozenset,
                       old: Optional[TileView], approach: Optional["Approach"],
                       new: Optional[TileView]) -> Optional[bool]:
    """:func:`reaches_any` as far as it is told without a walk (None: the walks tell),
    ``starts`` the operator's token cities and ``new`` the view of the tile laid (as
    :func:`.track.view_after_lay` shows it before it is laid: nothing here walks)."""
    if not goal or not starts:
        return False
    if old is not None and approach is not None:
        if approach.entries and _met_on_entry(operator, starts, goal, old, approach.entries,
                                              new):
            return True
        if approach.complete and _cut_off(table, operator, starts, goal, approach, new):
            return False
    return None


class Approach:
    """What the board before a lay tells of the operator's walks to one hex: the track
    ends ``(side, lane, gauge)`` at which they first enter it (one for each token city
    whose walk enters it across a side; ``complete``: every such walk, else only some),
    and, worked out when first needed, the track outside the hex that meets it
    (``outside``: :func:`_outside`)."""

    __slots__ = ("entries", "complete", "outside")

    def __init__(self, entries: tuple = (), complete: bool = True) -> None:
        self.entries = entries
        self.complete = complete
        self.outside: Optional[tuple] = None


def first_entries(table: Table, operator, hex_id: str) -> Optional[Approach]:
    """The :class:`Approach` of the operator's walks on the board as it is to the hex,
    worked out once a position (whatever was kept of its network) when a second lay of
    the operator is judged there, as when moves are listed. For the first (one lay alone,
    as when an action is applied, costs less walked to its goal) only what the rotation
    check's walks to the hex noted (:func:`.network.entries_noted`; None: nothing), which
    may tell the goal met but is not worth working out that it is cut off."""
    key = ("entries", operator)
    found = table.derived.network.get(key)
    if found is None:
        table.derived.network[key] = False      # asked once
        noted = entries_noted(table, operator, hex_id)
        return Approach(noted, complete=False) if noted else None
    if found is False:
        found = table.derived.network[key] = _first_entries(table, operator)
    approach = found.get(hex_id)
    if approach is None:
        approach = found[hex_id] = Approach()
    return approach


def _first_entries(table: Table, operator) -> Dict[str, Approach]:
    starts = token_nodes(table, operator)
    closed: Dict[Node, bool] = {}
    found: Dict[str, Approach] = {}
    for start in starts:
        entered = set()
        for rail, side, _junction, _forked in moves(table, start, starts, operator, closed):
            if rail.hex not in entered:
                entered.add(rail.hex)
                if side is not None:
                    approach = found.setdefault(rail.hex, Approach())
                    approach.entries += ((side, *_end(rail, side)),)
    return found


def _end(rail: Rail, side: int) -> tuple:
    """How ``rail`` ends at ``side``: its lane there and its gauge (what track across the
    side must meet to lead onto it)."""
    return rail.lanes.get(side), rail.gauge


def _met_on_entry(operator, starts: List[Node], goal: frozenset, old: TileView,
                  entered: tuple, new: TileView) -> bool:
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


# -- the goal cut off -------------------------------------------------------------------------


def _cut_off(table: Table, operator, starts: List[Node], goal: frozenset,
             approach: Approach, new: TileView) -> bool:
    """Can no trail reach the goal? A trail reaches a rail of the goal by entering it
    across one of its sides from track outside the hex, or through a stop or junction of
    the hex from another rail it entered; never after leaving the hex across a side the
    rail uses (the trail may not enter track using a side it left by); and outside the hex
    it goes through no stop closed to the operator (an off-board, a city full of others'
    tokens) and off no terminal track through a stop. So if no path from a token city
    through the track outside the hex and the rails of the new tile, leaving the hex only
    across other sides, leads to a rail of the goal, no walk reaches it (paths ignore what
    else stops a trail). Not told when a token city is on the hex."""
    hex_id = next(iter(goal)).hex
    if any(node.hex == hex_id for node in starts):
        return False
    if approach.outside is None:
        approach.outside = _outside(table, operator, hex_id, starts)
    return not any(_path_to(new, rail, approach.outside) for rail in goal)


def _outside(table: Table, operator, hex_id: str, starts: List[Node]) -> tuple:
    """The track outside the hex that meets it: ``(part, starting, meeting)`` where
    ``part`` numbers each rail by the part of the track outside the hex it lies in (rails
    joined across sides, through junctions, and through stops a trail of the operator
    may pass, :func:`_joined`; whatever else would stop a trail),
    ``starting`` is the parts holding track of the token cities, and ``meeting`` the
    rails across each side of the hex that end facing it."""
    meeting: Dict[int, List[Rail]] = {}
    for side, other in table.spec.grid.across[hex_id].items():
        back = facing(side)
        meeting[side] = [r for r in view(table, other).by_side.get(back, ()) if not r.blind]
    part: Dict[Rail, int] = {}
    starting: Set[int] = set()
    firsts = [r for node in starts for r in node.entries] + \
        [r for rails in meeting.values() for r in rails]
    for number, rail in enumerate(firsts):
        if rail not in part:
            _spread(table, operator, hex_id, rail, number, part)
    starting.update(part[r] for node in starts for r in node.entries)
    return part, starting, meeting


def _spread(table: Table, operator, hex_id: str, first: Rail, number: int,
            part: Dict[Rail, int]) -> None:
    """Number ``first`` and the rails outside the hex joined to it as one part."""
    part[first] = number
    stack = [first]
    closed: Dict[Node, bool] = {}
    while stack:
        for nxt in _joined(table, operator, stack.pop(), closed):
            if nxt.hex != hex_id and nxt not in part:
                part[nxt] = number
                stack.append(nxt)


def _joined(table: Table, operator, rail: Rail, closed: Dict[Node, bool]) -> Iterator[Rail]:
    """The rails a trail could go on to from ``rail``, or come on from to it: across its
    sides, through its junction, and through a stop of it not closed to the operator
    unless both rails are terminal track (a trail goes through a stop off no terminal
    track)."""
    for lead in rail.walk if rail.walk is not None else walk_links(table, rail):
        yield lead[2]
    for node in rail.nodes:
        shut = closed.get(node)
        if shut is None:
            shut = closed[node] = node.closed_to(operator)
        if shut:
            continue
        for other in node.rails:
            if not other.blind and not (rail.terminal and other.terminal):
                yield other
    yield from rail.others


def _path_to(new: TileView, goal_rail: Rail, outside: tuple) -> bool:
    """Is there a path from a token city to ``goal_rail`` (see :func:`_cut_off`)?"""
    part, starting, meeting = outside
    barred = set(goal_rail.side_keys)
    rails = [r for r in new.rails if not r.blind]
    parts: Set[int] = set(starting)
    reached: Set[Rail] = set()
    grown = True
    while grown:
        grown = False
        for rail in rails:
            if rail not in reached and _entered(rail, parts, part, meeting):
                reached.add(rail)
                grown = True
        for rail in list(reached):
            for other in _within(rail):
                if other not in reached and not other.blind:
                    reached.add(other)
                    grown = True
            for side, key in zip(rail.sides, rail.side_keys):
                if key in barred:
                    continue
                for across in meeting.get(side, ()):
                    if part[across] not in parts and _meet(rail, side, across):
                        parts.add(part[across])
                        grown = True
    return goal_rail in reached


def _within(rail: Rail) -> Iterator[Rail]:
    """The rails of its tile a trail could go on to from ``rail``: through its stops and
    junction."""
    for node in rail.nodes:
        yield from node.rails
    yield from rail.others


def _entered(rail: Rail, parts: Set[int], part: Dict[Rail, int],
             meeting: Dict[int, List[Rail]]) -> bool:
    """Could a trail on one of ``parts`` enter ``rail`` across one of its sides?"""
    return any(part[across] in parts and _meet(rail, side, across)
               for side in rail.sides for across in meeting.get(side, ()))


def _meet(rail: Rail, side: int, across: Rail) -> bool:
    """Do ``rail``'s end at ``side`` and the rail across it meet (lane and gauge, either
    way round)?"""
    back = facing(side)
    mine, theirs = rail.lanes.get(side), across.lanes.get(back)
    return (lanes_meet(mine, theirs) or lanes_meet(theirs, mine)) and \
        (gauges_join(rail.gauge, across.gauge, True) or gauges_join(across.gauge, rail.gauge, True))
