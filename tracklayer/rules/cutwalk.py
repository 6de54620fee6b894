"""What the walks on the board before a lay tell of one hex (:class:`Approach`, worked
out by :func:`.reaching.first_entries`), and the walk that may not leave the hex by one
track end, which tells the track restriction on a hex of plain track where the new tile
makes a side shared that a walk left the hex by (:func:`forked_out`). Such a walk is told
without walking when the rails it would have to step onto lie apart from its token city,
the hex left out (:func:`_walled_off`).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Set

from ..board.tiles import facing, gauges_join
from .board import Node, Rail, TileView, lanes_meet, view
from .table import Table
from .walk import moves, new_trail


class Approach:
    """What the board before a lay tells of the operator's walks to one hex: the track
    ends ``(side, lane, gauge)`` at which they first enter it (one for each token city
    whose walk enters it across a side; ``complete``: every such walk, else only some);
    on a hex of plain track, each time a walk stepped onto a rail facing it and each
    walk's first move into it (``arrivals``, ``first_moves``:
    :func:`.reaching._told_by_arrivals`), and the walks that may not leave it (``cut``:
    :func:`_cut_walk_arrives`); and, worked out when first needed, the track outside the
    hex that meets it (``outside``: :func:`.reaching._outside`), the rails beside it that
    face it (``facing``: :func:`_facing`) and the part of the track apart from the hex that
    each lies in, if small (``pockets``: :func:`_pocket`)."""

    __slots__ = ("entries", "complete", "arrivals", "first_moves", "cut", "walking",
                 "outside", "facing", "pockets")

    def __init__(self, entries: tuple = (), complete: bool = True) -> None:
        self.entries = entries
        self.complete = complete
        self.arrivals: List[tuple] = []
        self.first_moves: Dict[int, tuple] = {}
        self.cut: Dict[tuple, list] = {}
        self.walking: Optional[tuple] = None     # (table, operator) of the walks
        self.outside: Optional[tuple] = None
        self.facing: Optional[Dict[Rail, tuple]] = None
        self.pockets: Dict[Rail, Optional[Set[Rail]]] = {}


def forked_out(number: int, side: int, goal: frozenset, old: TileView, approach: Approach,
                new: TileView, goal_at: Dict[int, List[Rail]], starts: List[Node]
                ) -> Optional[bool]:
    """The walk of token city ``number`` with the new tile, which first left the hex by
    ``side``, shared by the new tile and not by the old (None: not told). When the old
    tile is one rail, which the walk first entered on no fork, and every rail of the goal
    leaves the hex by that side as it does, the walk beyond forks and, no trail of it
    able to enter the goal (it left the hex by the goal's own track end), leaves nothing
    behind; the old rail stays on the walk's trail, and the walk goes on as it would were
    the old rail not there to leave the hex by, never again leaving the hex: so it
    reaches the goal if and only if that walk steps onto a rail meeting a rail of the
    goal across its side (:func:`_cut_walk_arrives`)."""
    first = approach.first_moves.get(number)
    rails = [r for r in old.rails if not r.blind]
    if first is None or first[2] or len(rails) != 1:
        return None
    rail = rails[0]
    if first[0].sides != rail.sides or side not in rail.sides or side == first[1]:
        return None
    key = rail.side_keys[rail.sides.index(side)]
    if not all(key in g.side_keys for g in goal if not g.blind):
        return None
    return _cut_walk_arrives(approach, starts, number, old.hex, key, goal_at)


def _cut_walk_arrives(approach: Approach, starts: List[Node], number: int, hex_id: str,
                      key: str, goal_at: Dict[int, List[Rail]]) -> bool:
    """Does the walk of token city ``number`` that may not enter track end ``key`` of hex
    ``hex_id`` (nor so the old rail through it) step onto a rail meeting a rail of the goal
    across its side? The walk, one for each such end and token city, is shared by every
    tile and rotation asked of at the position, and goes only as far as asked: the track
    ends ``(side, lane, gauge)`` it steps onto beside the hex are kept. Told without a
    walk when the rails it would have to step onto lie apart from the token city's
    (:func:`_walled_off`)."""
    table, operator = approach.walking
    cut = approach.cut.get((number, key))
    if (cut is None or cut[0] is not None) and \
            _walled_off(approach, starts, number, hex_id, key, goal_at):
        return False
    if cut is None:
        trail = new_trail(table, starts[number], starts, operator, {})
        trail.crossed.add(key)
        cut = approach.cut[(number, key)] = [
            moves(table, starts[number], starts, operator, None, trail), []]
    if any(_meets_goal(end, goal_at) for end in cut[1]):
        return True
    facing_hex = approach.facing
    if facing_hex is None:
        facing_hex = approach.facing = _facing(table, hex_id)
    while cut[0] is not None:
        move = next(cut[0], None)
        if move is None:
            cut[0] = None
            break
        ends = facing_hex.get(move[0])
        if ends is None:
            continue
        for own, end in ends:
            if own != move[1]:
                cut[1].append(end)
                if _meets_goal(end, goal_at):
                    return True
    return False


_POCKET = 24
"""The most rails :func:`_pocket` looks at before giving up."""


def _walled_off(approach: Approach, starts: List[Node], number: int, hex_id: str, key: str,
                goal_at: Dict[int, List[Rail]]) -> bool:
    """Does the walk of :func:`_cut_walk_arrives` step onto no rail facing the hex with an
    end that meets a rail of the goal? Told when the hex has no rail but those using
    ``key`` (which the walk never enters) and each such rail lies in a small part of the
    track that, the hex left out, holds no rail the token city's walk sets out along
    (:func:`_pocket`): every trail from the token city to it would pass the hex."""
    table, operator = approach.walking
    if not all(key in rail.side_keys for rail in view(table, hex_id).rails):
        return False
    facing_hex = approach.facing
    if facing_hex is None:
        facing_hex = approach.facing = _facing(table, hex_id)
    firsts = starts[number].entries
    pockets = approach.pockets
    for rail, ends in facing_hex.items():
        if not any(_meets_goal(end, goal_at) for _own, end in ends):
            continue
        pocket = pockets.get(rail, False)
        if pocket is False:
            pocket = pockets[rail] = _pocket(table, operator, rail, hex_id, starts)
        if pocket is None or any(first in pocket for first in firsts):
            return False
    return True


def _pocket(table: Table, operator, first: Rail, hex_id: str, starts: List[Node]
            ) -> Optional[Set[Rail]]:
    """The rails outside the hex that ``first`` is joined to, as far as any walk not passing
    the hex could go between them: across hex sides (lanes and gauge aside), through
    junctions, and through stops neither closed to the operator nor its token cities (no
    trail passes those); None if more than :data:`_POCKET`."""
    across = table.spec.grid.across
    found = {first}
    stack = [first]
    closed: Dict[Node, bool] = {}
    while stack:
        rail = stack.pop()
        near: List[Rail] = []
        sides_across = across[rail.hex]
        for side in rail.sides:
            other = sides_across.get(side)
            if other is not None and other != hex_id:
                near.extend(view(table, other).by_side.get(facing(side), ()))
        for node in rail.nodes:
            shut = closed.get(node)
            if shut is None:
                shut = closed[node] = node in starts or node.closed_to(operator)
            if not shut:
                near.extend(node.rails)
        if rail.junction is not None:
            near.extend(rail.junction.rails)
        for nxt in near:
            if nxt not in found and nxt.hex != hex_id:
                if len(found) >= _POCKET:
                    return None
                found.add(nxt)
                stack.append(nxt)
    return found


def _facing(table: Table, hex_id: str) -> Dict[Rail, tuple]:
    """The rails beside the hex that face it across an open side of theirs (as
    :func:`.network.rail_across` tells), each with ``(its side, its track end as the hex
    meets it: (the hex's side, lane, gauge))`` for each such side. (The neighbours'
    rails and open sides stay while the hex's lays are judged: a trial lay changes only
    the hex.)"""
    found: Dict[Rail, tuple] = {}
    across, hexes = table.spec.grid.across, table.state.hexes
    for other in dict.fromkeys(across[hex_id].values()):
        state = hexes.get(other)
        if state is None:
            continue
        for own, there in across[other].items():
            if there != hex_id or own not in state.open_sides:
                continue
            back = facing(own)
            for rail in view(table, other).by_side.get(own, ()):
                ends = found.get(rail, ()) + ((own, (back, rail.lanes.get(own), rail.gauge)),)
                found[rail] = tuple(sorted(ends, key=lambda e: rail.sides.index(e[0])))
    return found


def _meets_goal(end: tuple, goal_at: Dict[int, List[Rail]]) -> bool:
    """Does a rail of the goal meet the track end ``(side, lane, gauge)`` across the
    side (as :func:`.board.links` joins them)?"""
    side, lane, gauge = end
    return any(lanes_meet(lane, g.lanes.get(side)) and gauges_join(gauge, g.gauge, True)
               for g in goal_at.get(side, ()))
