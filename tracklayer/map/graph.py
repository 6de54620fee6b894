"""Track connectivity: what an operator can reach from its station tokens.

For an operator, the graph walks track outward from every city holding one of its tokens.
It cannot pass through a city whose slots are all filled by other companies' tokens, nor
through off-boards or terminal track. From the walk come:

* ``connected_hexes`` — hexes (and which of their sides) where the operator may lay track;
* ``connected_nodes`` — cities, towns and off-boards it reaches (where it may place tokens);
* ``connected_paths`` / ``reachable_hexes`` — track it can run trains on;
* ``route_info`` — whether it has a route for a train at all (two stops on reachable track).

Results are cached per operator and cleared whenever a tile or token is placed. That a
route for a train exists, once found, stays known until the operator's graph is reset.
"""

from __future__ import annotations

from .hexes import invert


class Graph:
    def __init__(self, game, home_as_token: bool = False, no_blocking: bool = False,
                 skip_track=None) -> None:
        self.game = game
        self.home_as_token = home_as_token
        self.no_blocking = no_blocking
        self.skip_track = skip_track
        self._hexes: dict = {}
        self._nodes: dict = {}
        self._paths: dict = {}
        self._reachable: dict = {}
        self._tokens: dict = {}
        self._routes: dict = {}

    # -- cache -----------------------------------------------------------------------------

    def clear(self) -> None:
        """Forget everything except routes already known to allow a train purchase."""
        self._hexes.clear()
        self._nodes.clear()
        self._paths.clear()
        self._reachable.clear()
        self._tokens.clear()
        self._routes = {k: v for k, v in self._routes.items() if v.get("route_train_purchase")}

    def clear_graph_for(self, entity) -> None:
        self.clear()
        self._routes.pop(entity, None)

    def clear_graph_for_all(self) -> None:
        self.clear()
        self._routes.clear()

    # -- queries ---------------------------------------------------------------------------

    def route_info(self, entity) -> dict:
        if entity not in self._routes:
            self.compute(entity)
        return self._routes.get(entity)

    def connected_hexes(self, entity) -> dict:
        if entity not in self._hexes:
            self.compute(entity)
        return self._hexes[entity]

    def connected_nodes(self, entity) -> dict:
        if entity not in self._nodes:
            self.compute(entity)
        return self._nodes[entity]

    def connected_paths(self, entity) -> dict:
        if entity not in self._paths:
            self.compute(entity)
        return self._paths[entity]

    def reachable_hexes(self, entity) -> dict:
        if entity not in self._reachable:
            self.compute(entity)
        return self._reachable[entity]

    def can_token(self, entity) -> bool:
        """Is there a city, reached by track, where ``entity`` could place a token?"""
        if entity not in self._tokens:
            tokens = entity.tokens_by_type()
            found = False
            for node in self.connected_nodes(entity):
                if node.is_city and node.tokenable(entity, tokens, free=True):
                    found = True
                    break
            self._tokens[entity] = found
        return self._tokens[entity]

    def tokenable_cities(self, entity) -> list:
        tokens = entity.tokens_by_type()
        return [n for n in self.connected_nodes(entity)
                if n.is_city and n.tokenable(entity, tokens, free=True)]

    # -- the walk --------------------------------------------------------------------------

    def token_nodes(self, entity) -> dict:
        """Cities holding the entity's tokens, in map order, mapped to their hexes."""
        game = self.game
        out = {}
        for h in game.hexes:
            for city in h.tile.cities:
                if game.city_tokened_by(city, entity):
                    out[city] = h
        return out

    def compute(self, entity) -> None:
        game = self.game
        hexes: dict = {}
        nodes: dict = {}
        paths: dict = {}
        for city, h in self.token_nodes(entity).items():
            edges = hexes.setdefault(h, {})
            for e in h.neighbors:
                edges[e] = True
            nodes[city] = True
        if self.home_as_token and entity.coordinates:
            coords = entity.coordinates if isinstance(entity.coordinates, list) \
                else [entity.coordinates]
            for c in coords:
                h = game.hex_by_id(c)
                edges = hexes.setdefault(h, {})
                for e in h.neighbors:
                    edges[e] = True
                if entity.city is not None:
                    idxs = entity.city if isinstance(entity.city, list) else [entity.city]
                    for i in idxs:
                        if i < len(h.tile.cities):
                            nodes[h.tile.cities[i]] = True
                else:
                    for ct in h.tile.city_towns:
                        nodes[ct] = True
        tokens = list(nodes)
        for extra in game.graph_extra_start_nodes(entity):
            nodes[extra] = True
        routes = self._routes.get(entity) or {}
        walk_corp = None if self.no_blocking else entity
        skip_track = self.skip_track
        skip_paths = game.graph_skip_paths(entity)

        for start in tokens:
            visited_nodes = {t: True for t in tokens if t is not start}
            local_nodes: dict = {}
            visited_paths: dict = {}
            counter: dict = {}

            def on_path(path) -> None:
                if path in paths:
                    return
                paths[path] = True
                for n in path.nodes:
                    nodes[n] = True
                    local_nodes[n] = True
                h = path.tile.hex
                edges = hexes.setdefault(h, {})
                for e in path.exits:
                    edges[e] = True
                    neighbor = h.neighbors.get(e)
                    hexes.setdefault(neighbor, {})[invert(e)] = True

            _walk_node(start, visited_nodes, visited_paths, counter, walk_corp, False,
                       on_path, skip_track, skip_paths)

            if routes.get("route_train_purchase"):
                continue
            mandatory = sum(1 for n in local_nodes if n.route == "mandatory")
            optional = sum(1 for n in local_nodes if n.route == "optional")
            if mandatory > 1:
                routes["route_available"] = True
                routes["route_train_purchase"] = True
            elif mandatory == 1 and optional > 0:
                routes["route_available"] = True

        self._routes[entity] = routes
        self._hexes[entity] = {h: list(e) for h, e in hexes.items()}
        self._nodes[entity] = nodes
        self._paths[entity] = paths
        reachable = {}
        for p in paths:
            reachable[p.tile.hex] = True
        self._reachable[entity] = reachable


def _walk_node(node, visited, visited_paths, counter, corporation, converging_path, on_path,
               skip_track, skip_paths) -> None:
    """Walk from ``node`` along every path leaving it (the reference's node walk)."""
    if node in visited:
        return
    visited[node] = True
    for node_path in node.paths:
        if node_path.track == skip_track or node_path.ignore:
            continue

        def reached(path, vp, ct, converging, _node=node):
            on_path(path)
            if path.terminal:
                return
            for nxt in path.nodes:
                if nxt is _node:
                    continue
                if corporation is not None and nxt.blocks(corporation):
                    continue
                _walk_node(nxt, visited, vp, ct, corporation, converging_path or converging,
                           on_path, skip_track, skip_paths)

        _walk_path(node_path, None, None, visited_paths, counter, converging_path, reached,
                   skip_track, skip_paths)
    if converging_path:
        visited.pop(node, None)


def _edge_key(path, edge):
    return (path.tile.hex.id, edge.num, edge.lanes[1])


def _walk_path(path, skip, jskip, visited, counter, converging, reached, skip_track,
               skip_paths) -> None:
    """Walk track from ``path`` onto neighbouring tiles without reusing a path or a hex side."""
    if path in visited or (skip_paths is not None and path in skip_paths):
        return
    junction = path.junction
    if junction is not None and counter.get(junction, 0) > 1:
        return
    for e in path.edges:
        if counter.get(_edge_key(path, e), 0) > 0:
            return
    if path.track == skip_track:
        return
    if junction is not None and path.terminal:
        return
    visited[path] = True
    if junction is not None:
        counter[junction] = counter.get(junction, 0) + 1
    reached(path, visited, counter, converging)
    if junction is not None and junction is not jskip:
        for jp in junction.paths:
            _walk_path(jp, None, junction, visited, counter, converging, reached, skip_track,
                       skip_paths)
    h = path.tile.hex
    tile = path.tile
    for e in path.edges:
        num = e.num
        if num == skip:
            continue
        neighbor = h.neighbors.get(num)
        if neighbor is None:
            continue
        key = _edge_key(path, e)
        counter[key] = counter.get(key, 0) + 1
        np_edge = (num + 3) % 6
        lanes0 = path.exit_lanes.get(num)
        for np in neighbor.paths_at(np_edge):
            if not lane_match(lanes0, np.exit_lanes.get(np_edge)):
                continue
            if not path.tracks_match(np, dual_ok=True):
                continue
            _walk_path(np, np_edge, None, visited, counter,
                       converging or tile.exit_count(num) > 1, reached, skip_track, skip_paths)
        counter[key] -= 1
    if converging:
        visited.pop(path, None)
    if junction is not None:
        counter[junction] -= 1


def lane_match(lanes0, lanes1) -> bool:
    """Do the lanes of two facing exits line up?"""
    if not lanes0 or not lanes1:
        return False
    if lanes0[0] == lanes1[0]:
        return lanes1[1] == lanes0[0] - lanes0[1] - 1
    a, b = sorted([lanes0, lanes1])
    delta = (b[0] - a[0]) // 2
    return a[1] + delta == b[0] - b[1] - 1
