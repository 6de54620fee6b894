"""Reading the routes of a ``run_routes`` action (18xx.games' action format): each route
a list of connections, each connection the hexes a chain of track crosses between two
stops, with the stops it names (``nodes``). A connection is read as the chains of track
(:class:`.routes.Chain`) it can mean, in the order the format resolves them; a route as
the chains, one per connection, that meet end to end clear of track its later routes took
(:func:`read_routes`). Checking a route read is :mod:`.routes`' rule.
"""

from __future__ import annotations

from typing import List, Optional

from ..errors import RouteError
from . import board, revenue
from .board import Node
from .routes import Chain, Leg, Route, chain_name, trails_along
from .table import Table


def _hex_named(table: Table, name: str) -> str:
    hex_id = name if name.isalnum() else name.split()[0]
    if hex_id not in table.state.hexes:
        raise RouteError(f"unknown hex {name!r} in route")
    return hex_id


def matching_chains(table: Table, names: List[str], skip_gauge=None) -> List[Chain]:
    """The chains a connection (a list of hex names) can mean, in the order the action
    format resolves them: by start stop, then end stop, then shortest first.

    They depend only on the tiles as laid on those hexes and on the hex sides open there
    (the trails keep to those hexes): kept as long as the hexes keep the same tiles as laid
    (the same :class:`board.TileView`) and open sides."""
    if not names:
        return []
    key = (tuple(names), skip_gauge)
    known = table.derived.chains.get(key)
    if known is not None and _unchanged(table, known[0]):
        return known[1]
    state_hexes, views = table.state.hexes, table.derived.views
    stamp = []      # (one loop, not two comprehensions: connections are read often)
    for name in names:
        hex_id = _hex_named(table, name)
        stamp.append((hex_id, views.get(hex_id) or board.view(table, hex_id),
                      state_hexes[hex_id].open_sides))
    first, last_hex = stamp[0][1], stamp[-1][1]
    out = []
    for s in first.stops:
        found = trails_along(table, s, names, skip_gauge)
        for e in last_hex.stops:
            trails_to_e = found.get(e)
            if s is e or not trails_to_e:
                continue
            # Those of the name sought, shortest first (a stable sort: as found otherwise).
            chains = [Chain((s, e), rails, name, True) for rails in trails_to_e
                      for name in (chain_name(rails),) if name == names]
            if len(chains) > 1:
                chains.sort(key=lambda chain: len(chain.rails))
            out.extend(chains)
    table.derived.chains[key] = (tuple(stamp), out)
    return out


def _unchanged(table: Table, stamp: tuple) -> bool:
    """Are the hexes of a connection as they were when it was read (the same tiles as
    laid, the same open sides)?"""
    views = table.derived.views
    state_hexes = table.state.hexes
    for hex_id, view, sides in stamp:
        if views.get(hex_id) is not view or state_hexes[hex_id].open_sides != sides:
            return False
    return True


def read_route(table: Table, train, h: dict, taken: set) -> Route:
    """One route of a ``run_routes`` action, avoiding track in ``taken``."""
    connections = h.get("connections") or []
    signatures = h.get("nodes")
    operator = train.owner
    skip = table.variant.gauge_a_train_cannot_use(train)
    legs: List[Leg] = []
    if len(connections) == 1 and "local" in connections[0]:
        if revenue.runs_locally(train):
            hex_id = _hex_named(table, connections[0][1])
            node = next((n for n in board.view(table, hex_id).stops if n.holds(operator)), None)
            if node is not None:
                return Route(table, train, [Leg(node, node, Chain((None, None), [], None))])
        return Route(table, train, [])
    options = [matching_chains(table, names, skip) for names in connections]
    if len(options) == 1:
        for c in options[0]:
            if any(n.holds(operator) for n in c.ends) and taken.isdisjoint(c.rail_set):
                legs.append(Leg(c.ends[0], c.ends[1], c))
                break
        return Route(table, train, legs)
    used = set(taken)
    for index, (pa, pb) in enumerate(zip(options, options[1:])):
        found = _pair(pa, pb, used, signatures)
        if found is None:
            return Route(table, train, [])
        a, b, left, right, middle = found
        if index == 0:
            legs.append(Leg(left, middle, a))
        legs.append(Leg(middle, right, b))
        used.update(a.rail_set)
    return Route(table, train, legs)


def _signature(node: Node) -> str:
    return f"{node.hex}-{node.index}"


def _pair(chains_a, chains_b, taken, signatures):
    """The first pair of chains (one of each list, clear of ``taken`` and of each other)
    meeting at exactly one stop, as ``(a, b, a's other end, b's other end, the stop)``;
    among several, the one whose stops the action's ``signatures`` name most (the first
    of those), None if there is none."""
    candidates = []
    for a in chains_a:
        if taken and not taken.isdisjoint(a.rail_set):
            continue
        first, second = a.ends
        for b in chains_b:
            if taken and not taken.isdisjoint(b.rail_set):   # (no clear copy of chains_b made)
                continue
            ends_b = b.ends
            meets_first = first in ends_b
            if meets_first is (second in ends_b):    # they must share exactly one stop
                continue
            if not a.rail_set.isdisjoint(b.rail_set):
                continue
            m, left = (first, second) if meets_first else (second, first)
            right = ends_b[1] if ends_b[0] is m else ends_b[0]
            if not signatures:
                return a, b, left, right, m
            candidates.append((a, b, left, right, m))
    if not candidates:
        return None
    if len(candidates) == 1:
        return candidates[0]
    return max(candidates, key=lambda c: sum(1 for n in c[2:] if _signature(n) in signatures))


def read_routes(table: Table, route_dicts: list) -> List[Route]:
    """All routes of a ``run_routes`` action (later routes claim track first)."""
    trains = []
    for rd in route_dicts:
        train = table.find("train", rd.get("train")) if isinstance(rd, dict) else None
        if train is None:
            raise RouteError(f"unknown train {rd.get('train') if isinstance(rd, dict) else rd!r}")
        trains.append(train)
    out: List[Optional[Route]] = [None] * len(route_dicts)
    taken: set = set()
    for i in range(len(route_dicts) - 1, -1, -1):
        route = read_route(table, trains[i], route_dicts[i], taken)
        out[i] = route
        for leg in route.legs:
            taken.update(leg.chain.rail_set)
    return out
