"""Routes: a train's run, rebuilt from the ``run_routes`` action format and checked.

A route is a sequence of *chains*; a chain is track between two stops (cities, towns,
off-boards) written as the list of hexes it crosses. A ``run_routes`` action records each
route's chains as ``connections``. Rebuilding a route finds, for each chain, the track it
means; checking it applies the rules (enough stops, a token of the company, no stop
visited twice, no track shared between the company's trains, not through a terminal, the
train's reach); its revenue is then computed by the engine, not read from the action.
"""

from __future__ import annotations

from itertools import combinations
from typing import List, Optional

from ..engine.errors import RouteError


class Chain:
    """Track between two nodes: ``paths`` in order, from ``nodes[0]``'s side."""

    __slots__ = ("nodes", "paths", "id")

    def __init__(self, nodes: tuple, paths: list, id: list) -> None:
        self.nodes = nodes
        self.paths = paths
        self.id = id

    def __repr__(self) -> str:
        return f"<Chain {self.id}>"


class Segment:
    """A chain used by a route, from ``left`` to ``right``."""

    __slots__ = ("left", "right", "chain")

    def __init__(self, left, right, chain: Chain) -> None:
        self.left = left
        self.right = right
        self.chain = chain


def chain_id(paths: list) -> list:
    """How the action format names a chain: its hexes (or ``"HEX a.b"`` inside one tile
    where that would be ambiguous)."""
    if len(paths) == 1 and paths[0].tile.ambiguous_connection():
        a, b = sorted(n.index for n in paths[0].nodes)
        return [f"{paths[0].tile.hex.id} {a}.{b}"]
    seen_junction = set()
    out = []
    for p in paths:
        if p.a not in seen_junction and p.b not in seen_junction:
            out.append(p.tile.hex.id)
        if p.a.is_junction:
            seen_junction.add(p.a)
        if p.b.is_junction:
            seen_junction.add(p.b)
    return out


def node_chains(start, end, skip_track=None) -> List[Chain]:
    """Every track connection from node ``start`` to node ``end`` that passes no other stop,
    shortest first."""
    found: List[Chain] = []

    def visit(path, trail, k):
        if end in path.nodes:
            paths = list(trail)
            found.append(Chain((start, end), paths, chain_id(paths)))

    walk_trails(start, visit, skip_track)
    found.sort(key=lambda c: len(c.paths))
    return found


def walk_trails(start, visit, skip_track=None, hex_ids=None) -> None:
    """Walk every trail of track leaving node ``start``, depth first: a piece of track at
    most once, a junction at most twice, a hex side once each way, never past terminal track
    behind a junction, nor on track of gauge ``skip_track``. ``visit(path, trail, k)`` is
    called each time the trail reaches a piece of track. With ``hex_ids`` the trail keeps to
    those hexes in order (``k``: the index of the hex reached)."""
    for path in start.paths:
        _walk(path, None, None, [], {}, visit, skip_track, hex_ids, 0)


def _walk(path, skip, jskip, trail, counter, visit, skip_track, hex_ids, k) -> None:
    if path in trail:
        return
    junction = path.junction
    if junction is not None and counter.get(junction, 0) > 1:
        return
    hex_id = path.tile.hex.id
    if hex_ids is not None and hex_ids[k].split()[0] != hex_id:
        return
    for e in path.edges:
        if counter.get((hex_id, e.num, e.lanes[1]), 0) > 0:
            return
    if skip_track is not None and path.track == skip_track:
        return
    if junction is not None and path.terminal:
        return
    trail.append(path)
    if junction is not None:
        counter[junction] = counter.get(junction, 0) + 1
    visit(path, trail, k)
    if junction is not None and junction is not jskip:
        for jp in junction.paths:
            _walk(jp, None, junction, trail, counter, visit, skip_track, hex_ids, k)
    next_hex = None
    if hex_ids is not None:
        next_hex = hex_ids[k + 1] if k + 1 < len(hex_ids) else False
    if next_hex is not False:
        for num, lane, np, np_edge in path.tile.hex.links(path):
            if num == skip or (next_hex is not None and np.tile.hex.id != next_hex):
                continue
            key = (hex_id, num, lane)
            counter[key] = counter.get(key, 0) + 1
            _walk(np, np_edge, None, trail, counter, visit, skip_track, hex_ids,
                  k + 1 if hex_ids is not None else 0)
            counter[key] -= 1
    trail.pop()
    if junction is not None:
        counter[junction] -= 1


class Route:
    """One train's run."""

    def __init__(self, game, train, segments: List[Segment]) -> None:
        self.game = game
        self.train = train
        self.segments = segments
        self.phase = game.phase
        self._stops = None
        self._revenue = None

    @property
    def corporation(self):
        return self.game.train_owner(self.train)

    @property
    def paths(self) -> list:
        return [p for s in self.segments for p in s.chain.paths]

    def ordered_paths(self) -> list:
        out = []
        for s in self.segments:
            cp = s.chain.paths
            if not cp:
                continue
            out.extend(cp if s.left in cp[0].nodes else list(reversed(cp)))
        return out

    def visited_stops(self) -> list:
        """Nodes the route touches, in order, each once."""
        out = []
        for s in self.segments:
            for n in (s.left, s.right):
                if n is not None and n not in out:
                    out.append(n)
        return out

    def hexes(self) -> list:
        out = []
        last = object()
        for s in self.segments:
            for n in (s.left, s.right):
                if n is not last:
                    out.append(n.hex)
                last = n
        return out

    def connection_hexes(self) -> list:
        return [s.chain.id for s in self.segments]

    def node_signatures(self) -> list:
        out = []
        for s in self.segments:
            for n in s.chain.nodes:
                sig = n.signature
                if sig not in out:
                    out.append(sig)
        return out

    def stops(self) -> list:
        if self._stops is None:
            self._stops = self.game.compute_stops(self)
        return self._stops

    def revenue_str(self) -> str:
        return self.game.revenue_str(self)

    @property
    def revenue(self) -> int:
        if self._revenue is None:
            self._revenue = self.game.revenue_for(self, self.stops())
        return self._revenue

    # -- checks ----------------------------------------------------------------------------

    def check(self, routes: list) -> None:
        """Raise RouteError unless this route is legal (with the company's other ``routes``)."""
        game = self.game
        visited = self.visited_stops()
        if self.segments and len(visited) < 2 and not self.train.local():
            raise RouteError("route must have at least 2 stops")
        corporation = self.corporation
        token = next((s for s in visited if game.city_tokened_by(s, corporation)), None)
        game.check_route_token(self, token)
        groups: dict = {}
        for stop in visited:
            for g in stop.groups:
                if g in groups:
                    raise RouteError(f"cannot use group {g} more than once")
                groups[g] = True
        self.check_terminals()
        game.check_other(self)
        game.check_route_combination(routes)
        self.check_cycles()
        game.check_distance(self, visited)
        game.check_overlap(routes)
        self.check_connected(corporation)

    def check_terminals(self) -> None:
        ordered = self.ordered_paths()
        if len(self.paths) >= 3 and any(p.terminal for p in ordered[1:-1]):
            raise RouteError("route cannot pass through a terminal")

    def check_cycles(self) -> None:
        if self.train.local() and len(self.segments) == 1 and \
                self.segments[0].left is self.segments[0].right:
            return
        seen = set()
        for s in self.segments:
            seen.add(id(s.left))
            if id(s.right) in seen:
                raise RouteError(f"cannot use {s.right.hex.id} twice")
            seen.add(id(s.right))

    def check_connected(self, corporation) -> None:
        ordered = self.ordered_paths()
        for a, b in zip(ordered, ordered[1:]):
            if not connects_to(a, b, corporation):
                raise RouteError("route is not connected")


def connects_to(a, b, corporation) -> bool:
    """Does track ``a`` continue into track ``b`` (across a hex side or through a node that
    does not block ``corporation``)?"""
    h = a.tile.hex
    for part in (a.a, a.b):
        if part.is_edge:
            neighbor = h.neighbors.get(part.num)
            if neighbor is not None and neighbor is b.tile.hex and \
                    any(e.num == (part.num + 3) % 6 for e in b.edges):
                return True
        elif part.is_junction:
            if b.junction is part:
                return True
        elif part in b.nodes and not part.blocks(corporation):
            return True
    return False


# ---------------------------------------------------------------------------------------------
# Rebuilding routes from the action format


def _hex_of(game, name: str):
    h = game.hex_by_id(name.split()[0])
    if h is None:
        raise RouteError(f"unknown hex {name!r} in route")
    return h


def matching_chains(game, hex_ids: list, skip_track=None) -> List[Chain]:
    """The chains a connection (list of hex names) can mean, in the order the action format
    resolves them: by start node, then end node, then shortest first.

    They depend only on the tiles of those hexes, so they are kept on the game until one
    of these tiles is replaced."""
    if not hex_ids:
        return []
    key = (tuple(hex_ids), skip_track)
    tiles = tuple(_hex_of(game, h).tile for h in hex_ids)
    known = game.chain_cache.get(key)
    if known is not None and all(a is b for a, b in zip(known[0], tiles)):
        return known[1]
    start_hex = tiles[0].hex
    end_hex = tiles[-1].hex
    last = len(hex_ids) - 1
    out = []
    for s in start_hex.tile.nodes:
        found: dict = {}

        def visit(path, trail, k, found=found):
            if k == last:
                for e in path.nodes:
                    found.setdefault(e, []).append(list(trail))

        walk_trails(s, visit, skip_track, hex_ids)
        for e in end_hex.tile.nodes:
            if s is e:
                continue
            chains = [Chain((s, e), paths, chain_id(paths)) for paths in found.get(e, ())]
            chains.sort(key=lambda c: len(c.paths))
            out.extend(c for c in chains if c.id == hex_ids)
    game.chain_cache[key] = (tiles, out)
    return out


def _disjoint(chain: Chain, other_paths: set) -> bool:
    return not any(p in other_paths for p in chain.paths)


def build_route(game, train, h: dict, other_paths: set) -> Route:
    """Rebuild one route of a ``run_routes`` action, avoiding track in ``other_paths``."""
    connections = h.get("connections") or []
    signatures = h.get("nodes")
    corporation = game.train_owner(train)
    skip_track = game.skip_route_track_type(train)
    segments: List[Segment] = []
    if len(connections) == 1 and "local" in connections[0]:
        if train.local():
            hex_ = _hex_of(game, connections[0][1])
            node = next((n for n in hex_.tile.nodes if game.city_tokened_by(n, corporation)),
                        None)
            if node is not None:
                return Route(game, train, [Segment(node, node, Chain((None, None), [], None))])
        return Route(game, train, [])
    possibilities = [matching_chains(game, ids, skip_track) for ids in connections]
    if len(possibilities) == 1:
        for c in possibilities[0]:
            if any(game.city_tokened_by(n, corporation) for n in c.nodes) and \
                    _disjoint(c, other_paths):
                segments.append(Segment(c.nodes[0], c.nodes[1], c))
                break
        return Route(game, train, segments)
    used = set(other_paths)
    for index, (pa, pb) in enumerate(zip(possibilities, possibilities[1:])):
        found = _pairwise(pa, pb, used, signatures)
        if found is None:
            return Route(game, train, [])
        a, b, left, right, middle = found
        if index == 0:
            segments.append(Segment(left, middle, a))
        segments.append(Segment(middle, right, b))
        used.update(a.paths)
    return Route(game, train, segments)


def _pairwise(chains_a, chains_b, other_paths: set, signatures: Optional[list]):
    chains_a = [a for a in chains_a if _disjoint(a, other_paths)]
    chains_b = [b for b in chains_b if _disjoint(b, other_paths)]
    candidates = []
    for a in chains_a:
        for b in chains_b:
            middle = [n for n in a.nodes if n in b.nodes]
            if len(middle) != 1:
                continue
            if not _disjoint(b, set(a.paths)):
                continue
            m = middle[0]
            left = next(n for n in a.nodes if n is not m)
            right = next(n for n in b.nodes if n is not m)
            candidates.append((a, b, left, right, m))
    if not candidates:
        return None
    if len(candidates) == 1 or not signatures:
        return candidates[0]
    return max(candidates, key=lambda c: sum(1 for n in c[2:] if n.signature in signatures))


def build_routes(game, entity, route_dicts: list) -> List[Route]:
    """Rebuild all routes of a ``run_routes`` action (later routes claim track first)."""
    resolved: List[Optional[Route]] = [None] * len(route_dicts)
    taken: set = set()
    trains = []
    for rd in route_dicts:
        train = game.lookup("train", rd.get("train"))
        if train is None:
            raise RouteError(f"unknown train {rd.get('train')!r}")
        trains.append(train)
    for i in range(len(route_dicts) - 1, -1, -1):
        route = build_route(game, trains[i], route_dicts[i], taken)
        resolved[i] = route
        taken.update(route.paths)
    return resolved


# ---------------------------------------------------------------------------------------------
# Stops and distance (title-agnostic rules; titles override through the game)


def best_stops(route: Route, visits: list) -> list:
    """For trains with a limited number of stops of some kinds (``8+x``, ``2+2``…): the set
    of visited stops that pays most."""
    game = route.game
    train = route.train
    distance = train.distance
    if isinstance(distance, int):
        return visits
    if not visits:
        return []
    rows = sorted(distance, key=lambda h: len(h["nodes"]))
    max_stops = min(sum(int(h["pay"]) for h in rows), len(visits))
    corporation = route.corporation
    for n in range(max_stops, 0, -1):
        best, best_rev = None, None
        for stops in combinations(visits, n):
            if train.requires_token and not any(game.city_tokened_by(s, corporation)
                                                for s in stops):
                continue
            used = [0] * len(rows)
            ok = True
            for stop in stops:
                t = game.stop_type(stop, train)
                row = next((i for i, h in enumerate(rows)
                            if t in h["nodes"] and used[i] < h["pay"]), None)
                if row is None:
                    ok = False
                    break
                used[row] += 1
            if not ok:
                continue
            revenue = game.revenue_for(route, list(stops))
            if best_rev is None or revenue > best_rev:
                best, best_rev = list(stops), revenue
        if best_rev:
            return best
    return []
