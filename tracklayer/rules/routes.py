"""Routes: a train's run, as read from the ``run_routes`` action format
(:mod:`.route_reading`), and checked.

A route is a sequence of *chains*: track between two stops (cities, towns, off-boards),
written as the list of hexes it crosses (``connections``). Reading a route finds, for
each chain, the track it means; checking it applies the rules: at least two stops, one of
them a station of the company, a stop (or a group of off-boards) once only, never
through terminal track, within the train's reach, no piece of track shared with the
company's other trains, and connected end to end. Revenue comes from :mod:`.revenue`;
the engine works it out, it is never read from the action.
"""

from __future__ import annotations

from operator import attrgetter
from typing import List, Optional, Set

from ..errors import RouteError
from . import network, revenue
from .board import Node, Rail
from .table import Table

_TERMINAL, _LEG_TERMINAL = attrgetter("terminal"), attrgetter("chain.terminal")


class Chain:
    """Track between two stops: ``rails`` in order, from ``ends[0]``'s side. ``walked``:
    the rails were found by following the track from ``ends[0]`` (each leads on into the
    next, as :func:`continues` asks, while the tiles and open sides of its hexes stay).
    ``back``: whether, read from ``ends[1]``'s side, each rail leads on into the next by
    track alone (:func:`_joined_back`; None until asked). ``pieces``: the pieces of track
    of its rails (:func:`_chain_pieces`; None until asked). ``rail_set``: its rails as a
    set; ``terminal``: whether any of its rails is terminal track."""

    __slots__ = ("ends", "rails", "name", "walked", "back", "pieces", "rail_set", "terminal")

    def __init__(self, ends: tuple, rails: List[Rail], name: Optional[List[str]],
                 walked: bool = False) -> None:
        self.ends = ends
        self.rails = rails
        self.name = name
        self.walked = walked
        self.back: Optional[bool] = None
        self.pieces: Optional[tuple] = None
        self.rail_set = frozenset(rails)
        self.terminal = any(map(_TERMINAL, rails))

    def __repr__(self) -> str:
        return f"<Chain {self.name}>"


class Leg:
    """A chain as a route runs it, from ``start`` to ``end``."""

    __slots__ = ("start", "end", "chain")

    def __init__(self, start: Node, end: Node, chain: Chain) -> None:
        self.start = start
        self.end = end
        self.chain = chain


def chain_name(rails: List[Rail]) -> List[str]:
    """How the action format names a chain: its hexes, or ``"HEX a.b"`` for track inside
    one tile that joins two stops in more than one way."""
    if len(rails) == 1 and rails[0].view.joins_stops_twice:
        a, b = sorted(n.index for n in rails[0].nodes)
        return [f"{rails[0].hex} {a}.{b}"]
    out, junctions = [], set()
    for r in rails:
        junction = r.junction
        if junction is None:
            out.append(r.hex)
        elif junction not in junctions:
            out.append(r.hex)
            junctions.add(junction)
    return out


def trails(table: Table, start: Node, visit, skip_gauge: Optional[str] = None) -> None:
    """Follow every trail of track leaving ``start``, depth first: a rail once, a
    junction at most twice, a hex side once each way, never terminal track behind a
    junction nor track of gauge ``skip_gauge``. ``visit(rail, trail, 0)`` is called at
    each rail reached that holds a stop (where a trail may end).

    A rail is entered unless it is on the trail, its junction was passed twice, the trail
    left its hex by one of its sides (in its lane), or its gauge is skipped; from it the
    trail goes along the other rails through its junction (unless it came through it),
    then across each of its hex sides but the one it came by."""
    trail: List[Rail] = []
    on_trail: Set[Rail] = set()
    crossed: Set[str] = set()            # hex sides (by lane) the trail left by
    junctions: dict = {}                 # times through each junction on the trail
    walk_links = network.walk_links

    def step(rail: Rail, came_over, via_junction) -> None:
        junction = rail.junction
        if junction is not None and junctions.get(junction, 0) > 1:
            return
        if not crossed.isdisjoint(rail.side_keys):
            return
        if skip_gauge is not None and rail.gauge == skip_gauge:
            return
        trail.append(rail)
        on_trail.add(rail)
        if junction is not None:
            junctions[junction] = junctions.get(junction, 0) + 1
        if rail.nodes:
            visit(rail, trail, 0)
        if junction is not None and junction is not via_junction:
            for other in rail.others:
                if other not in on_trail:
                    step(other, None, junction)
        for side, key, nxt, back, _ in walk_links(table, rail):
            if side == came_over or nxt in on_trail:
                continue
            crossed.add(key)
            step(nxt, back, None)
            crossed.discard(key)
        trail.pop()
        on_trail.discard(rail)
        if junction is not None:
            junctions[junction] -= 1

    for rail in start.rails:
        if not rail.blind:
            step(rail, None, None)
    del step   # the walk refers to itself: dropped here, it is freed at once, not collected


def trails_along(table: Table, start: Node, names: List[str],
                 skip_gauge: Optional[str] = None) -> dict:
    """The trails of track (lists of rails) from ``start`` that keep to the hexes a
    connection names, in order, by the stop of the last hex each reaches, in the order
    found. They are :func:`trails`' trails (the same rules, depth first) with one more:
    a trail crosses a hex side only into the next hex named, and no further than the
    last."""
    found: dict = {}
    trail: List[Rail] = []               # (short: looked through rather than kept as a set)
    crossed: Set[str] = set()            # hex sides (by lane) the trail left by
    junctions: dict = {}                 # times through each junction on the trail
    last = len(names) - 1
    walk_links = network.walk_links

    def step(rail: Rail, came_over, via_junction, k: int) -> None:
        # (rail is on the k-th hex named: the start's, a junction's or one crossed into)
        junction = rail.junction
        if junction is not None and junctions.get(junction, 0) > 1:
            return
        if crossed and not crossed.isdisjoint(rail.side_keys):
            return
        if skip_gauge is not None and rail.gauge == skip_gauge:
            return
        trail.append(rail)
        if k == last:
            for e in rail.nodes:
                found.setdefault(e, []).append(list(trail))
        if junction is not None:
            junctions[junction] = junctions.get(junction, 0) + 1
            if junction is not via_junction:
                for other in rail.others:
                    if other not in trail:
                        step(other, None, junction, k)
        if k < last:
            next_hex = names[k + 1]
            for side, key, nxt, back, _ in rail.walk or walk_links(table, rail):
                if side == came_over or nxt.hex != next_hex or nxt in trail:
                    continue
                crossed.add(key)
                step(nxt, back, None, k + 1)
                crossed.discard(key)
        trail.pop()
        if junction is not None:
            junctions[junction] -= 1

    second = names[1] if last > 0 else None
    for rail in start.rails:
        if rail.blind:
            continue
        if second is not None and rail.junction is None:   # (else a dead end: not entered)
            for link in rail.walk or walk_links(table, rail):
                if link[2].hex == second:
                    break
            else:
                continue
        step(rail, None, None, 0)
    del step   # the walk refers to itself: dropped here, it is freed at once, not collected
    return found


class Route:
    """One train's run: its legs in order. Its legs do not change once made: what is read
    from them (its rails, its stops) is worked out once."""

    __slots__ = ("table", "train", "legs", "_visited", "_hexes", "_hexes_run", "_rails",
                 "_ordered", "_stops", "_revenue")

    def __init__(self, table: Table, train, legs: List[Leg]) -> None:
        self.table = table
        self.train = train
        self.legs = legs
        self._visited: Optional[List[Node]] = None
        self._hexes: Optional[List[str]] = None
        self._hexes_run: Optional[frozenset] = None
        self._rails: Optional[List[Rail]] = None
        self._ordered: Optional[List[Rail]] = None
        self._stops = None
        self._revenue = None

    @property
    def operator(self):
        return self.train.owner

    @property
    def rails(self) -> List[Rail]:
        rails = self._rails
        if rails is None:
            rails = self._rails = [r for leg in self.legs for r in leg.chain.rails]
        return rails

    def rails_in_order(self) -> List[Rail]:
        """Its rails in the order the train runs them (each leg's chain read from the
        leg's start)."""
        out = self._ordered
        if out is None:
            out = self._ordered = []
            for leg in self.legs:
                rails = leg.chain.rails
                if rails:
                    out.extend(rails if leg.start in rails[0].nodes else reversed(rails))
        return out

    def visited(self) -> List[Node]:
        """The stops the route touches, in order, each once."""
        out = self._visited
        if out is None:
            out = self._visited = []
            for leg in self.legs:
                for n in (leg.start, leg.end):
                    if n is not None and n not in out:
                        out.append(n)
        return out

    def hexes(self) -> List[str]:
        """The hexes of its stops in the order it runs (a stop where two legs meet once)."""
        out = self._hexes
        if out is None:
            out, last = [], object()
            for leg in self.legs:
                for n in (leg.start, leg.end):
                    if n is not last:
                        out.append(n.hex)
                    last = n
            self._hexes = out
        return list(out)

    def hexes_run(self) -> frozenset:
        """The hexes its track runs through."""
        out = self._hexes_run
        if out is None:
            out = self._hexes_run = frozenset([rail.hex for rail in self.rails])
        return out

    def connections(self) -> List[List[str]]:
        return [leg.chain.name for leg in self.legs]

    def stops(self) -> List[Node]:
        """The stops that count for revenue."""
        if self._stops is None:
            self._stops = revenue.paying_stops(self.table, self, self.visited())
        return self._stops

    @property
    def revenue(self) -> int:
        if self._revenue is None:
            self._revenue = revenue.route_value(self.table, self, self.stops())
        return self._revenue

    def describe(self) -> str:
        return "-".join(self.hexes())

    # -- checks ----------------------------------------------------------------------------

    def check(self, routes: List["Route"], apart: bool = False) -> None:
        """Raise RouteError unless this route is legal (with the company's ``routes``;
        ``apart``: they are known to share no track)."""
        table = self.table
        visited = self.visited()
        local = revenue.runs_locally(self.train)
        if self.legs and len(visited) < 2 and not local:
            raise RouteError("route must have at least 2 stops")
        operator = self.operator
        for n in visited:
            if n.holds(operator):
                break
        else:
            raise RouteError("route must contain a token of the company")
        groups: Set[str] = set()
        for stop in visited:
            for g in stop.groups:
                if g in groups:
                    raise RouteError(f"cannot use group {g} more than once")
                groups.add(g)
        if any(map(_LEG_TERMINAL, self.legs)) and \
                any(map(_TERMINAL, self.rails_in_order()[1:-1])):   # (none but at an end)
            raise RouteError("route cannot pass through a terminal")
        table.variant.route_problem(table, self)
        self._check_stops_once(local)
        revenue.check_reach(table, self, visited)
        if not apart:
            check_no_shared_track(table, routes)
        if not self._connected(operator):
            raise RouteError("route is not connected")

    def _connected(self, operator) -> bool:
        """Does each rail, in the order the train runs them, lead on into the next
        (:func:`continues`)? Along a chain run the way it was walked it does by
        construction (:attr:`Chain.walked`), and along a walked chain run back when its
        track joins that way (:func:`_joined_back`): asked where legs meet, and along
        other chains."""
        table = self.table
        last = None
        for leg in self.legs:
            chain = leg.chain
            rails = chain.rails
            if not rails:
                continue
            walked = chain.walked
            if leg.start not in rails[0].nodes:
                rails = rails[::-1]
                walked = walked and _joined_back(table, chain)
            if last is not None and not continues(table, last, rails[0], operator):
                return False
            if not walked and not connected(table, rails, operator):
                return False
            last = rails[-1]
        return True

    def _check_stops_once(self, local: bool) -> None:
        if local and len(self.legs) == 1 and self.legs[0].start is self.legs[0].end:
            return
        seen = set()
        for leg in self.legs:
            seen.add(leg.start)
            if leg.end in seen:
                raise RouteError(f"cannot use {leg.end.hex} twice")
            seen.add(leg.end)


def check_run(table: Table, routes: List[Route]) -> None:
    """Raise RouteError unless an operator may run ``routes`` together: each is legal, no
    two share track, and the title's rules on a set of routes hold. (Whether they share
    track is asked once, in the first route's check.)"""
    for i, route in enumerate(routes):
        route.check(routes, apart=i > 0)
    table.variant.routes_problem(table, routes)


def check_no_shared_track(table: Table, routes: List[Route]) -> None:
    """No two routes of a company use the same piece of track (see
    :func:`track_pieces`)."""
    pieces, count = set(), 0
    for route in routes:
        for leg in route.legs:
            keys = leg.chain.pieces
            if keys is None:
                keys = _chain_pieces(leg.chain)
            pieces.update(keys)
            count += len(keys)
    if len(pieces) == count:
        return
    used = set()
    for route in routes:        # the first piece used again
        for rail in route.rails:
            for key in rail.pieces:
                if key in used:
                    raise RouteError(f"route cannot reuse track on {key[0]}")
                used.add(key)


def _chain_pieces(chain: Chain) -> tuple:
    """The pieces of track of a chain's rails in order (:func:`track_pieces`), kept on the
    chain (its rails keep theirs)."""
    chain.pieces = pieces = tuple([key for rail in chain.rails
                                   for key in (rail.pieces or _pieces(rail))])
    return pieces


def track_pieces(table: Table, rail: Rail) -> list:
    """The pieces of track a rail occupies: its hex sides (by lane), a town it leaves by
    another side than the one it is drawn at, and the rail itself when it joins two
    stops."""
    return list(rail.pieces or _pieces(rail))


def _pieces(rail: Rail) -> tuple:
    """:func:`track_pieces`, kept on the rail (they do not change while its tile lies)."""
    hex_id = rail.hex
    keys = list(rail.side_keys)
    lanes = rail.lanes
    drawn = rail.view.layout.drawn_sides
    for node in rail.nodes:
        if node.kind != "town":
            continue
        for side in rail.sides:
            at = drawn.get(node.index)
            if at is not None and at != side:
                keys.append((hex_id, id(node), lanes[side][1]))
    if len(rail.nodes) > 1:
        keys.append((hex_id, id(rail)))
    rail.pieces = pieces = tuple(keys)
    return pieces


def connected(table: Table, rails: List[Rail], operator) -> bool:
    """Does each rail of ``rails`` lead on into the next (:func:`continues`)?"""
    for i in range(1, len(rails)):
        if not continues(table, rails[i - 1], rails[i], operator):
            return False
    return True


def continues(table: Table, a: Rail, b: Rail, operator) -> bool:
    """Does track ``a`` lead on into track ``b`` (across a hex side, through a junction, or
    through a stop open to ``operator``)?"""
    if _track_joins(table, a, b):
        return True
    for n in a.nodes:
        if n in b.nodes and not n.closed_to(operator):
            return True
    return False


def _track_joins(table: Table, a: Rail, b: Rail) -> bool:
    """Does track ``a`` lead on into track ``b`` by track alone: across one of a's open
    hex sides into b's facing side, or through a junction?"""
    if a.hex != b.hex:
        hex_id, b_hex, b_sides = a.hex, b.hex, b.sides
        open_sides = table.state.hexes[hex_id].open_sides
        across = table.spec.grid.across[hex_id]
        for side in a.sides:
            if side in open_sides and across.get(side) == b_hex and (side + 3) % 6 in b_sides:
                return True
    return a.junction is not None and b.junction is a.junction


def _joined_back(table: Table, chain: Chain) -> bool:
    """Read from ``ends[1]``'s side, does each rail of a walked chain lead on into the next
    by track alone (:func:`_track_joins`, so whatever the operator)? Asked once: it holds
    as long as the chain does (the tiles and open sides of its hexes)."""
    back = chain.back
    if back is None:
        rails = chain.rails[::-1]
        back = chain.back = all(_track_joins(table, rails[i - 1], rails[i])
                                for i in range(1, len(rails)))
    return back
