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
        self._hex_seeds: dict = {}

    # -- cache -----------------------------------------------------------------------------

    def clear(self) -> None:
        """Forget everything except routes already known to allow a train purchase."""
        self._hexes.clear()
        self._hex_seeds.clear()
        self._nodes.clear()
        self._paths.clear()
        self._reachable.clear()
        self._tokens.clear()
        self._routes = {k: v for k, v in self._routes.items() if v.get("route_train_purchase")}

    # -- queries ---------------------------------------------------------------------------

    def route_info(self, entity) -> dict:
        if entity not in self._routes:
            self.compute(entity)
        return self._routes.get(entity)

    def connected_hexes(self, entity) -> dict:
        found = self._hexes.get(entity)
        if found is None:
            if entity not in self._paths:
                self.compute(entity)
            found = self._hexes[entity] = self._hexes_reached(entity)
        return found

    def _hexes_reached(self, entity) -> dict:
        """Hexes of the walk's paths with their sides, and the neighbours' sides facing them,
        after the token hexes (all sides) — in the order the walk reached them."""
        hexes = {h: dict(edges) for h, edges in self._hex_seeds[entity].items()}
        for path in self._paths[entity]:
            h = path.tile.hex
            edges = hexes.setdefault(h, {})
            for e in path.exits:
                edges[e] = True
                hexes.setdefault(h.neighbors.get(e), {})[(e + 3) % 6] = True
        return {h: list(e) for h, e in hexes.items()}

    def connected_nodes(self, entity) -> dict:
        if entity not in self._nodes:
            self.compute(entity)
        return self._nodes[entity]

    def connected_paths(self, entity) -> dict:
        if entity not in self._paths:
            self.compute(entity)
        return self._paths[entity]

    def reachable_hexes(self, entity) -> dict:
        found = self._reachable.get(entity)
        if found is None:
            found = self._reachable[entity] = {p.tile.hex: True
                                               for p in self.connected_paths(entity)}
        return found

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
        """Walk the track from each token city in map order (see the module docstring)."""
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
        blocker = None if self.no_blocking else entity
        skip_track = self.skip_track
        skip_paths = game.graph_skip_paths(entity) or ()

        for start in tokens:
            local_nodes: dict = {}
            for path in walk(start, tokens, blocker, skip_track, skip_paths):
                if path in paths:
                    continue
                paths[path] = True
                for n in path.nodes:
                    nodes[n] = True
                    local_nodes[n] = True
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
        self._hex_seeds[entity] = hexes  # the rest of connected_hexes comes from the paths
        self._hexes.pop(entity, None)
        self._nodes[entity] = nodes
        self._paths[entity] = paths
        self._reachable.pop(entity, None)


def walk(start, tokens, blocker=None, skip_track=None, skip_paths=()) -> list:
    """Every path reachable from node ``start``, in the order first reached.

    The walk follows track depth first, as a train would: across hex sides (lanes and
    gauge must match, and it never turns back over the side it came in by), through towns
    and cities except cities ``blocker`` may not pass (all slots taken by others),
    off-boards, terminal track and the other ``tokens`` (walked on their own). A path is
    not entered again while the walk is still on it; after crossing a hex side shared by
    several paths of a tile, paths are forgotten once walked so they can be reached again
    another way.
    """
    visited_nodes = {t: True for t in tokens if t is not start}
    visited_paths: dict = {}
    counter: dict = {}
    order: list = []

    def node_walk(node, converging_path: bool) -> None:
        if node in visited_nodes:
            return
        visited_nodes[node] = True
        for node_path in node.paths:
            if node_path.track == skip_track or node_path.ignore:
                continue
            path_walk(node_path, None, None, converging_path, node, converging_path)
        if converging_path:
            del visited_nodes[node]

    def path_walk(path, skip, jskip, converging: bool, origin, origin_converging: bool):
        if path in visited_paths or path in skip_paths:
            return
        junction = path.junction
        if junction is not None and counter.get(junction, 0) > 1:
            return
        hex_id = path.tile.hex.id
        if counter:
            for e in path.edges:
                if counter.get((hex_id, e.num, e.lanes[1]), 0) > 0:
                    return
        if path.track == skip_track:
            return
        if junction is not None and path.terminal:
            return
        visited_paths[path] = True
        if junction is not None:
            counter[junction] = counter.get(junction, 0) + 1
        # The path is reached: record it and walk on through its stops.
        order.append(path)
        if not path.terminal:
            for nxt in path.nodes:
                if nxt is origin:
                    continue
                if blocker is not None and nxt.blocks(blocker):
                    continue
                node_walk(nxt, origin_converging or converging)
        if junction is not None and junction is not jskip:
            for jp in junction.paths:
                path_walk(jp, None, junction, converging, origin, origin_converging)
        tile = path.tile
        for num, lane, np, np_edge in tile.hex.links(path):
            if num == skip:
                continue
            key = (hex_id, num, lane)
            counter[key] = counter.get(key, 0) + 1
            path_walk(np, np_edge, None, converging or tile.exit_count(num) > 1, origin,
                      origin_converging)
            counter[key] -= 1
        if converging:
            del visited_paths[path]
        if junction is not None:
            counter[junction] -= 1

    node_walk(start, False)
    return order
