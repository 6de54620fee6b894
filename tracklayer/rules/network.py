"""Connectivity: what an operator reaches from its station tokens.

From each city holding one of its tokens (in map order) the operator's track is followed
as a train would follow it: across hex sides where lanes and gauge meet, never back over
the side it came in by nor twice over a side in one trail, through towns and through
cities that are not closed to it (every slot taken by other companies), never through
off-boards or terminal track. What is reached:

* the hexes where it may lay track (those of its track and their neighbours across it,
  and every side of its token hexes);
* the stops it reaches (where it may place tokens);
* the track it can run trains on;
* whether it has a route: two stops, not both optional, reached from one token.

Once an operator has had a route for a train it is treated as having one (the state
keeps that), as on 18xx.games, even if others' tokens later cut it off.

This module owns the cache of networks; the board forgets it whenever a tile or a token
is placed or removed.
"""

from __future__ import annotations

import sys
from typing import Dict, List, Optional

from .board import Node, Rail, links, view
from .table import Table

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))


class Reach:
    """An operator's network (see the module docstring)."""

    __slots__ = ("seeds", "nodes", "rails", "_hexes", "route", "route_for_train",
                 "_tokenable")

    def __init__(self) -> None:
        self.seeds: Dict[str, Dict[int, bool]] = {}
        self.nodes: Dict[Node, bool] = {}
        self.rails: Dict[Rail, bool] = {}
        self._hexes: Optional[Dict[Optional[str], List[int]]] = None
        self.route = False
        self.route_for_train = False
        self._tokenable: Dict[tuple, bool] = {}


def token_nodes(table: Table, operator) -> List[Node]:
    """The cities holding the operator's tokens, in map order."""
    out = []
    for hex_id, h in table.state.hexes.items():
        if not h.cities:
            continue
        for node in view(table, hex_id).cities:
            if node.holds(operator):
                out.append(node)
    return out


def reach(table: Table, operator) -> Reach:
    """The operator's network. Looking at it while playing records a route found (not
    while moves are only being listed)."""
    found = table.derived.network.get(operator)
    if found is None:
        found = table.derived.network[operator] = _explore(table, operator)
    if found.route_for_train and not operator.route_known and not table.listing:
        operator.route_known = True
    return found


def _explore(table: Table, operator) -> Reach:
    result = Reach()
    starts = token_nodes(table, operator)
    for node in starts:
        h = table.state.hexes[node.hex]
        seed = result.seeds.setdefault(node.hex, {})
        for side in h.open_sides:
            seed[side] = True
        result.nodes[node] = True
    known = operator.route_known
    for start in starts:
        local: Dict[Node, bool] = {}
        for rail in follow(table, start, starts, operator):
            if rail in result.rails:
                continue
            result.rails[rail] = True
            for n in rail.nodes:
                result.nodes[n] = True
                local[n] = True
        if known:
            continue
        mandatory = sum(1 for n in local if not n.optional)
        optional = len(local) - mandatory
        if mandatory > 1:
            result.route = result.route_for_train = True
            known = True
        elif mandatory == 1 and optional > 0:
            result.route = True
    if known:
        result.route = result.route_for_train = True
    return result


def follow(table: Table, start: Node, tokens: List[Node], operator) -> List[Rail]:
    """Every rail reachable from ``start``, in the order first reached (depth first).

    Other token cities are left to their own walks. Where several rails of a tile share a
    hex side, the trail may branch there, so rails walked on such a branch may be walked
    again along another."""
    seen_nodes = {t: True for t in tokens if t is not start}
    on_trail: Dict[Rail, bool] = {}
    crossings: Dict[object, int] = {}
    order: List[Rail] = []
    state_hexes = table.state.hexes

    def enter_node(node: Node, branching: bool) -> None:
        if node in seen_nodes:
            return
        seen_nodes[node] = True
        for rail in node.rails:
            if rail.ignore:
                continue
            along(rail, None, None, branching, node, branching)
        if branching:
            del seen_nodes[node]

    def along(rail: Rail, came_over, via_junction, branching: bool, origin: Node,
              origin_branching: bool) -> None:
        if rail in on_trail:
            return
        junction = rail.junction
        if junction is not None and crossings.get(junction, 0) > 1:
            return
        hex_id = rail.hex
        if crossings:
            for side in rail.sides:
                if crossings.get((hex_id, side, rail.lanes[side][1]), 0) > 0:
                    return
        if junction is not None and rail.terminal:
            return
        on_trail[rail] = True
        if junction is not None:
            crossings[junction] = crossings.get(junction, 0) + 1
        order.append(rail)
        if not rail.terminal:
            for nxt in rail.nodes:
                if nxt is origin or nxt.closed_to(operator):
                    continue
                enter_node(nxt, origin_branching or branching)
        if junction is not None and junction is not via_junction:
            for other in junction.rails:
                along(other, None, junction, branching, origin, origin_branching)
        side_count = rail.view.layout.side_count
        for side, lane, nxt, back in links(table, rail):
            if side == came_over:
                continue
            key = (hex_id, side, lane)
            crossings[key] = crossings.get(key, 0) + 1
            along(nxt, back, None, branching or side_count.get(side, 0) > 1, origin,
                  origin_branching)
            crossings[key] -= 1
        if branching:
            del on_trail[rail]
        if junction is not None:
            crossings[junction] -= 1

    del state_hexes
    enter_node(start, False)
    return order


# -- what the network gives ----------------------------------------------------------------


def hexes_reached(table: Table, operator) -> Dict[Optional[str], List[int]]:
    """Hexes where the operator may lay track, with their sides: every side of its token
    hexes, then, as reached, the sides its track uses and the facing sides of the hexes
    across them."""
    r = reach(table, operator)
    if r._hexes is None:
        hexes: Dict[Optional[str], Dict[int, bool]] = {h: dict(s) for h, s in r.seeds.items()}
        grid = table.spec.grid.across
        state_hexes = table.state.hexes
        for rail in r.rails:
            sides = hexes.setdefault(rail.hex, {})
            for side in rail.sides:
                sides[side] = True
                other = grid[rail.hex].get(side) if side in state_hexes[rail.hex].open_sides \
                    else None
                hexes.setdefault(other, {})[(side + 3) % 6] = True
        r._hexes = {h: list(s) for h, s in hexes.items()}
    return r._hexes


def nodes_reached(table: Table, operator) -> Dict[Node, bool]:
    return reach(table, operator).nodes


def rails_reached(table: Table, operator) -> Dict[Rail, bool]:
    return reach(table, operator).rails


def has_route(table: Table, operator) -> bool:
    """Could the operator run a train (two stops, not both optional, from one token)?"""
    return reach(table, operator).route


def has_route_for_train(table: Table, operator) -> bool:
    """Must it own a train: can it reach two stops that are not optional?"""
    return reach(table, operator).route_for_train


def remember(table: Table, operator, key: tuple, compute) -> bool:
    """A yes/no answer about the operator's network, kept as long as the network is."""
    r = reach(table, operator)
    found = r._tokenable.get(key)
    if found is None:
        found = r._tokenable[key] = bool(compute())
    return found
