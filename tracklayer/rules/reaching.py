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
a token city to the goal, it is not reached. On a hex of plain track, the walk before the
lay, read where it steps beside the hex, tells the walk with the new tile as long as the
new rails change nothing it did (:func:`_told_by_arrivals`). Otherwise the walks tell.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Dict, Iterator, List, Optional, Set

from ..board.tiles import Layout, Track, facing, gauges_join
from .board import Node, Rail, TileView, lanes_meet, view
from .cutwalk import Approach, forked_out
from .network import entries_noted, rail_across, token_nodes, walk_unmade
from .walk import first_reached, moves, new_trail, track_end, walk_links
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
    :func:`.track.view_after_lay` shows it before it is laid: nothing here walks). None
    of the proofs tells a hex holding a token city of the operator (whose walk sets out
    on the hex): each is asked only of a hex holding none."""
    if not goal or not starts:
        return False
    if old is not None and approach is not None and \
            old.hex not in _token_hexes(table, operator, starts):
        if approach.entries and _met_on_entry(operator, goal, old, approach.entries, new):
            return True
        if approach.complete:
            told = _told_by_arrivals(starts, goal, old, approach, new)
            if told is not None:
                return told
            if _cut_off(table, operator, starts, goal, approach, new):
                return False
    return None


def goal_rails(new: TileView, tracks: tuple) -> frozenset:
    """The rails of the tile laid (``new``) along ``tracks``, the tracks of its layout
    the track restriction asks for, kept on the view with their tracks for the last
    ``tracks`` asked, by identity: the restriction asks it of the view after a lay (kept
    by hex, tile and rotation, :func:`.track.view_after_lay`) for each such lay judged,
    position after position, with the one tuple its demand gives for the two layouts."""
    kept = new.goal
    if kept is not None and kept[0] is tracks:
        return kept[1]
    rails = frozenset([r for r in new.rails if r.track in tracks])
    new.goal = (tracks, rails, frozenset([r.track for r in rails]))
    return rails


def _token_hexes(table: Table, operator, starts: List[Node]) -> frozenset:
    """The hexes of ``starts``, the operator's token cities (:func:`.network.token_nodes`),
    kept with that list until an action is carried out (each lay judged asks it)."""
    key = ("token hexes", operator)
    kept = table.derived.network.get(key)
    if kept is None or kept[0] is not starts:
        kept = table.derived.network[key] = (starts, frozenset([n.view.hex for n in starts]))
    return kept[1]


def first_entries(table: Table, operator, hex_id: str) -> Optional[Approach]:
    """The :class:`Approach` of the operator's walks on the board as it is to the hex,
    worked out once a position (whatever was kept of its network) when a second lay of
    the operator is judged there, or the first once its whole network was walked at the
    position, as when moves are listed. For the first otherwise (one lay alone, as when
    an action is applied, costs less walked to its goal) only what the rotation check's
    walks to the hex noted (:func:`.network.entries_noted`; None: nothing), which may
    tell the goal met but is not worth working out that it is cut off. (Listing works
    them out ahead: :func:`entries_ahead`.)"""
    key = ("entries", operator)
    found = table.derived.network.get(key)
    if found is None and ("walked", operator) not in table.derived.network:
        table.derived.network[key] = False      # asked once
        noted = entries_noted(table, operator, hex_id)
        return Approach(noted, complete=False) if noted else None
    if found is None or found is False:
        found = table.derived.network[key] = _first_entries(table, operator)
    approach = found.get(hex_id)
    if approach is None:
        approach = found[hex_id] = Approach()
    return approach


def entries_ahead(table: Table, operator) -> None:
    """Work out the approaches of :func:`first_entries` now, before the operator's network
    is walked at the position (as listing lays does, which asks them of nearly every lay):
    its walks are then made once for both."""
    key = ("entries", operator)
    if not table.derived.network.get(key):
        table.derived.network[key] = _first_entries(table, operator)


def _first_entries(table: Table, operator) -> Dict[str, Approach]:
    """Each token city's walk on the board as it is (made here, if not yet made, for the
    network to read again: :func:`.network.walk_unmade`), read for every hex it comes near:
    where it first enters the hex; and on a hex of plain track its first move into it
    (``(rail, side, forked)``), and each rail it steps onto that faces the hex across a
    side, as ``(the token city's number, the hex's side, the rail, the rail's side, the
    hex's track ends the trail had left the hex by, whether it came from the hex, whether
    the trail had forked)`` (what :func:`_told_by_arrivals` reads: each once, for a later
    one alike tells it nothing more, and none a forked trail makes coming from the hex,
    which tell it nothing)."""
    starts = token_nodes(table, operator)
    closed: Dict[Node, bool] = {}
    found: Dict[str, Approach] = {}
    ends_of: Dict[str, Optional[frozenset]] = {}
    beside: Dict[Rail, tuple] = {}
    noted: Set[tuple] = set()
    for number, start in enumerate(starts):
        entered = set()
        walk = walk_unmade(table, operator, start, starts)
        if walk is None:
            trail = new_trail(table, start, starts, operator, closed)
            walk = moves(table, start, starts, operator, closed, trail), trail
        crossed = walk[1].crossed
        for rail, side, _junction, forked in walk[0]:
            if rail.hex not in entered:
                entered.add(rail.hex)
                if side is not None:
                    approach = found.get(rail.hex) or _approach(found, rail.hex, table, operator)
                    approach.entries += (track_end(rail, side),)
                    if ends_of.get(rail.hex):
                        approach.first_moves[number] = (rail, side, forked)
            facing = beside.get(rail)
            if facing is None:
                facing = beside[rail] = tuple(
                    (own, (found.get(other) or _approach(found, other, table, operator)
                           ).arrivals, back, ends)
                    for own, other, back, ends in _plain_beside(table, rail, ends_of))
            for own, arrivals, back, ends in facing:
                if forked and own == side:
                    continue    # out of the hex on a fork: tells nothing (_told_by_arrivals)
                arrival = (number, back, rail, own,
                           _NONE if ends.isdisjoint(crossed) else ends & crossed,
                           own == side, forked)
                if arrival not in noted:    # one alike before tells all it does
                    noted.add(arrival)
                    arrivals.append(arrival)
    return found


def _plain_beside(table: Table, rail: Rail, ends_of: Dict[str, Optional[frozenset]]) -> tuple:
    """The hexes of plain track across ``rail``'s sides: ``(its side, the hex, the hex's
    side, the hex's track ends)`` (``ends_of``: the track ends of each hex of plain track
    looked at, None for others)."""
    found = []
    for own, other, back in rail_across(table, rail):
        if other is None:
            continue
        ends = ends_of.get(other, False)
        if ends is False:
            ends = ends_of[other] = _plain_ends(view(table, other))
        if ends is not None:
            found.append((own, other, back, ends))
    return tuple(found)


def _approach(found: Dict[str, Approach], hex_id: str, table: Table, operator) -> Approach:
    """A new :class:`Approach` to the hex, of the operator's walks on the table."""
    approach = found[hex_id] = Approach()
    approach.walking = (table, operator)
    return approach


def _plain_ends(tile: TileView) -> Optional[frozenset]:
    """The track ends (side keys) of a tile of plain track (None: not plain track)."""
    if not _plain(tile):
        return None
    return frozenset(key for r in tile.rails if not r.blind for key in r.side_keys)


def _met_on_entry(operator, goal: frozenset, old: TileView, entered: tuple,
                  new: TileView) -> bool:
    """Does the walk with the new tile laid reach the goal, a walk on the board before
    entering the old tile first at one of the ends ``entered``? The walk from that token
    city is the same until it first enters the hex (its trail has not touched the hex
    then, so nothing stops it entering any rail there), and that is no later than before:
    every end of the old tile is one of the new tile (no token city of the operator being
    on the hex: :func:`told_without_walks` asks of no other hex). What it then meets is
    told by the tiles' track, the goal's tracks and which stops of the new tile are open
    to the operator (:func:`_entry_meets`)."""
    open_stops = frozenset([i for i, node in new.nodes.items()
                            if not node.closed_to(operator)]) if new.nodes else _NONE
    return _entry_meets(old.layout, new.layout, _goal_tracks(new, goal), open_stops, entered)


def _goal_tracks(new: TileView, goal: frozenset) -> frozenset:
    """The tracks of the rails of ``goal`` on the tile laid (``new``): as
    :func:`goal_rails` kept them with the goal, if it is the one kept."""
    kept = new.goal
    return kept[2] if kept is not None and kept[1] is goal else \
        frozenset([r.track for r in goal])


_NONE: frozenset = frozenset()


@lru_cache(maxsize=None)
def _entry_meets(old: Layout, new: Layout, goal: frozenset, open_stops: frozenset,
                 entered: tuple) -> bool:
    """:func:`_met_on_entry` told by the turned tiles, ``goal`` the new tile's tracks of the
    goal and ``open_stops`` its stops open to the operator: every end of the old tile is
    one of the new tile; the new tile's track at an end no old track had meets the goal
    there (:func:`_meets_at`: such an end may be entered first); and at an end entered
    first before a track of the goal ends alike, or every track there meets the goal.
    (Shapes only: worked out once.)"""
    old_ends = _track_ends(old)
    if not old_ends <= _track_ends(new):
        return False
    if not all(_meets_at(new, t, side, goal, open_stops) for t in new.tracks
               if not _blind(t) for side in t.sides
               if (side, t.lanes.get(side), t.gauge) not in old_ends):
        return False
    return any(_goal_ends_at(new, side, (lane, gauge), goal) or
               all(_meets_at(new, t, side, goal, open_stops) for t in new.tracks
                   if side in t.sides and not _blind(t))
               for side, lane, gauge in entered)


@lru_cache(maxsize=None)
def _track_ends(layout: Layout) -> frozenset:
    """The ends ``(side, lane, gauge)`` of a turned tile's track that walks enter (not
    terminal track behind a junction). (Shapes only: worked out once.)"""
    return frozenset((side, t.lanes.get(side), t.gauge) for t in layout.tracks
                     if not _blind(t) for side in t.sides)


def _blind(track: Track) -> bool:
    """Is the track terminal track behind a junction (a rail no walk enters: ``blind``)?"""
    return bool(track.terminal and track.junction)


def _goal_ends_at(new: Layout, side: int, end: tuple, goal: frozenset) -> bool:
    """Does a track of the goal end at ``side`` as ``end`` (lane, gauge)?"""
    return any(t in goal and side in t.sides and not _blind(t) and
               (t.lanes.get(side), t.gauge) == end for t in new.tracks)


def _meets_at(new: Layout, track: Track, side: int, goal: frozenset,
              open_stops: frozenset) -> bool:
    """Entered first of its tile across ``side``, does ``track`` lead to the goal at once?
    Yes if it is of the goal; if it leads through one of its stops, open to the operator,
    to a track of the goal (the walk enters every track of the stop a walk sets out
    along); or if a track of the goal ends alike at that side (the walk enters it from the
    same track across it)."""
    if track in goal or _goal_ends_at(new, side, (track.lanes.get(side), track.gauge), goal):
        return True
    return not track.terminal and any(
        stop in open_stops and any(t in goal and not t.ignore and not _blind(t)
                                   for t in new.tracks if stop in t.stops)
        for stop in track.stops)


# -- plain track: the walk before the lay read again -----------------------------------------


def _told_by_arrivals(starts: List[Node], goal: frozenset, old: TileView,
                      approach: Approach, new: TileView) -> Optional[bool]:
    """Does the walk with the new tile reach the goal, told from the walk before the lay
    (``approach.arrivals``), on a hex of plain track (no stop, no junction, no token city:
    :func:`told_without_walks` asks of no other) whose new tile keeps the old rails, by
    side in the same order, beside the goal's?

    Such a walk is the walk before the lay, step for step, as long as it differs in
    nothing the new rails change: stepping onto a rail facing the hex, it may go on into
    each rail of the new tile across that side (but the side it came over) that meets it,
    which it enters unless its trail left the hex by one of that rail's track ends; a
    kept rail as the old one was, a rail of the goal ending the walk. Leaving the hex, on
    a trail that has not forked, by a side that the new tile makes shared, its trails
    fork from then on where the old walk's did not (:func:`.cutwalk.forked_out`). So each token
    city's walk reaches the goal at its first arrival that may go on into a rail of the
    goal, and never if none may and it left the hex by no such side. (Each walk is its
    own: the goal is reached if one reaches it.)"""
    if not _plain(old) or not _plain(new) or not _kept_alike(old, new, goal):
        return None
    old_count, new_count = old.layout.side_count, new.layout.side_count
    goal_at: Dict[int, List[Rail]] = {}
    for rail in goal:
        if not rail.blind:
            for side in rail.sides:
                goal_at.setdefault(side, []).append(rail)
    # Each walk's first telling arrival; one that forked out is read (a walk of its own,
    # :func:`.cutwalk.forked_out`) only when no walk is told True at once.
    told: Dict[int, Optional[int]] = {}
    for number, side, rail, own, left, came_out, forked in approach.arrivals:
        if number in told:
            continue
        if came_out:
            if not forked and old_count.get(side, 0) < 2 <= new_count.get(side, 0):
                told[number] = side
            continue
        lane = rail.lanes.get(own)
        for goal_rail in goal_at.get(side, ()):
            if lanes_meet(lane, goal_rail.lanes.get(side)) and \
                    gauges_join(rail.gauge, goal_rail.gauge, True) and \
                    not any(key in left for key in goal_rail.side_keys):
                return True
    unknown = False
    for number, side in told.items():
        out = forked_out(number, side, goal, old, approach, new, goal_at, starts)
        if out:
            return True
        unknown = unknown or out is None
    return None if unknown else False


def _plain(tile: TileView) -> bool:
    """Is the tile plain track: rails through no stop and no junction?"""
    return _plain_layout(tile.layout)


@lru_cache(maxsize=None)
def _plain_layout(layout: Layout) -> bool:
    """:func:`_plain` of a turned tile. (Shapes only: worked out once.)"""
    return bool(layout.tracks) and all(not t.stops and not t.junction and not t.terminal
                                       for t in layout.tracks)


def _kept_alike(old: TileView, new: TileView, goal: frozenset) -> bool:
    """Does the new tile have, at each side, the old tile's rails (but those of the goal)
    in the same order, and no other rail outside the goal? (Plain track only.)"""
    return _kept_in_order(old.layout, new.layout, _goal_tracks(new, goal))


@lru_cache(maxsize=None)
def _kept_in_order(old: Layout, new: Layout, goal: frozenset) -> bool:
    """:func:`_kept_alike` of two turned tiles of plain track, ``goal`` the new tile's
    tracks of the goal. (Shapes only: worked out once.)"""
    goal_shapes = {_shape(t) for t in goal}
    for side in set(old.side_count) | set(new.side_count):
        before = [_shape(t) for t in old.tracks if side in t.sides]
        after = [_shape(t) for t in new.tracks if side in t.sides and t not in goal]
        if [shape for shape in before if shape not in goal_shapes] != after:
            return False
    return True


def _shape(track: Track) -> tuple:
    """A track's sides, lanes and gauge (what walks read of its rail)."""
    return tuple(sorted(track.sides)), tuple(sorted(track.lanes.items())), track.gauge


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
    else stops a trail). Asked only when no token city is on the hex
    (:func:`told_without_walks`)."""
    hex_id = next(iter(goal)).hex
    if approach.outside is None:
        approach.outside = _outside(table, operator, hex_id, starts)
    return not any(_path_to(new, rail, approach.outside) for rail in goal)


def _outside(table: Table, operator, hex_id: str, starts: List[Node]) -> tuple:
    """The track outside the hex that meets it: ``(part, starting, meeting)`` where
    ``part`` numbers the rails of the token cities and those of ``meeting`` (the only
    ones :func:`_path_to` reads: other rails spread through may be numbered too) by the
    part of the track outside the hex they lie in (rails joined across sides, through
    junctions, and through stops a trail of the operator may pass, :func:`_joined`;
    whatever else would stop a trail),
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
    unnumbered = set(firsts)
    passed: Dict[Node, int] = {}
    for number, rail in enumerate(firsts):
        if rail not in part:
            _spread(table, operator, hex_id, rail, number, part, unnumbered, passed)
    starting.update(part[r] for node in starts for r in node.entries)
    return part, starting, meeting


def _spread(table: Table, operator, hex_id: str, first: Rail, number: int,
            part: Dict[Rail, int], unnumbered: Set[Rail], passed: Dict[Node, int]) -> None:
    """Number ``first`` and the rails outside the hex joined to it as one part, as far as
    it matters: only the parts of the rails first numbered (``unnumbered``, those of
    them not numbered yet) are read, so the spread stops once each of them has its
    number (the rest of the part would only be numbered, never read). (``passed``: the
    stops looked through, :func:`_joined`.)"""
    part[first] = number
    unnumbered.discard(first)
    stack = [first]
    while stack and unnumbered:
        for nxt in _joined(table, operator, stack.pop(), passed):
            if nxt.hex != hex_id and nxt not in part:
                part[nxt] = number
                unnumbered.discard(nxt)
                stack.append(nxt)


_OPEN, _SHUT, _FROM_TERMINAL, _THROUGH = 0, 1, 2, 3
"""How far :func:`_joined` looked through a stop: not yet (open to the operator); not at
all (closed to it); from terminal track only (its other track given); from other track
(all its track given)."""


def _joined(table: Table, operator, rail: Rail, passed: Dict[Node, int]) -> List[Rail]:
    """The rails a trail could go on to from ``rail``, or come on from to it: across its
    sides, through its junction, and through a stop of it not closed to the operator
    unless both rails are terminal track (a trail goes through a stop off no terminal
    track). A stop's rails are given once (``passed``: how far each stop was looked
    through, :data:`_OPEN`): the spread numbers every rail given at once, so given again
    they would add nothing (a stop of n rails would be looked through n times). (A list,
    not a generator: the spread asks it of every rail of the track outside the hex, for
    each hex whose lays the restriction asks it of.)"""
    leads = rail.walk if rail.walk is not None else walk_links(table, rail)
    found = [lead[2] for lead in leads]
    terminal = rail.terminal
    for node in rail.nodes:
        done = passed.get(node)
        if done is None:
            done = passed[node] = _SHUT if node.closed_to(operator) else _OPEN
        if done == _SHUT or done == _THROUGH or (terminal and done == _FROM_TERMINAL):
            continue
        passed[node] = _FROM_TERMINAL if terminal else _THROUGH
        for other in node.rails:
            if not other.blind and not (terminal and other.terminal):
                found.append(other)
    found.extend(rail.others)
    return found


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
