"""Routes built by a person, stop by stop: a train's route is the stops picked in order
(cities, towns, off-boards, as ``"HEX-part"``), each joined to the next by the shortest
track not used yet by the train's earlier legs or the other trains' routes. The routes
are then read and checked by the engine, as it checks a ``run_routes`` action: the
revenue of each route, or the rule a route breaks, in words.

The shortest track between two stops follows the track as a train may (``rules.routes``:
across hex sides, through a junction's other rails, never through a stop), breadth
first."""

from __future__ import annotations

from collections import deque
from typing import Dict, List, Optional, Tuple

from ..actions import new_action, read
from ..errors import GameError
from ..rules import board, network, route_reading, routes
from ..rules.board import Node, Rail
from ..rules.table import Table
from .names import hex_name


def node_named(table: Table, name: str) -> Optional[Node]:
    """The stop called ``"HEX-part"`` on the map as it stands (None if there is none)."""
    hex_id, _, part = str(name).rpartition("-")
    if hex_id not in table.state.hexes or not part.isdigit():
        return None
    return board.view(table, hex_id).nodes.get(int(part))


def node_name(node: Node) -> str:
    return f"{node.hex}-{node.index}"


def track_between(table: Table, a: Node, b: Node, used: set) -> Optional[List[Rail]]:
    """The shortest run of track from stop ``a`` to stop ``b`` using no rail of ``used``,
    as the rails in order (None if there is none)."""
    first = [r for r in a.rails if not r.blind and r not in used]
    for rail in first:
        if b in rail.nodes:
            return [rail]
    came: Dict[tuple, Optional[tuple]] = {(r, None): None for r in first}
    queue = deque((r, None) for r in first)
    while queue:
        key = queue.popleft()
        rail, entered = key
        if came[key] is not None:
            if b in rail.nodes:
                path = []
                while key is not None:
                    path.append(key[0])
                    key = came[key]
                return list(reversed(path))
            if rail.nodes:
                continue        # another stop: a route's leg ends at the first it meets
        for step in _onwards(table, rail, entered):
            if step[0] not in used and step not in came:
                came[step] = key
                queue.append(step)
    return None


def _onwards(table: Table, rail: Rail, entered) -> list:
    """Where track goes on from ``rail`` entered by side ``entered`` (``JUNCTION``: through
    its junction): the other rails of its junction, and across its other sides."""
    out = []
    if rail.junction is not None and entered != JUNCTION:
        out.extend((other, JUNCTION) for other in rail.others)
    for side, _key, nxt, back, _shared in network.walk_links(table, rail):
        if side != entered:
            out.append((nxt, back))
    return out


JUNCTION = "junction"


def known_legs(route: dict) -> Dict[tuple, list]:
    """The legs of a route as run (its ``nodes`` and ``connections``): the track between
    each two stops, by the stops' names, both ways."""
    nodes, connections = route.get("nodes") or [], route.get("connections") or []
    out: Dict[tuple, list] = {}
    if len(nodes) == len(connections) + 1:
        for a, b, names in zip(nodes, nodes[1:], connections):
            out[(a, b)] = out[(b, a)] = names
    return out


def _known_track(table: Table, a: Node, b: Node, names: list, used: set):
    """The track a known leg between ``a`` and ``b`` names, if it is still free."""
    try:
        chains = route_reading.matching_chains(table, names) + \
            route_reading.matching_chains(table, list(reversed(names)))
    except GameError:
        return None
    for chain in chains:
        if set(chain.ends) == {a, b} and used.isdisjoint(chain.rails):
            return chain.rails
    return None


def build_route(table: Table, train_id: str, names: List[str], used: set,
                known: Optional[Dict[tuple, list]] = None) -> Tuple[dict, str]:
    """The route through the stops ``names`` in order for ``train_id`` (18xx.games' route
    format), and what is wrong with it ("" if nothing is known to be); the rails it takes
    are added to ``used``. A leg in ``known`` (:func:`known_legs`) keeps its track while
    that track is free; others take the shortest free track."""
    out = {"train": train_id, "connections": [], "hexes": [], "nodes": list(names)}
    stops = [node_named(table, n) for n in names]
    if any(s is None for s in stops):
        return out, "a stop picked is no longer on the map"
    if len(stops) < 2:
        return out, "pick at least two stops" if stops else ""
    hexes: List[str] = []
    for (a, b), pair in zip(zip(stops, stops[1:]), zip(names, names[1:])):
        rails = None
        if known and pair in known:
            rails = _known_track(table, a, b, known[pair], used)
        rails = rails or track_between(table, a, b, used)
        if rails is None:
            return out, f"no free track from {hex_name(table, a.hex)} ({a.hex}) to " \
                        f"{hex_name(table, b.hex)} ({b.hex})"
        used.update(rails)
        out["connections"].append(routes.chain_name(rails))
        if not hexes:
            hexes.append(a.hex)
        hexes.append(b.hex)
    out["hexes"] = hexes
    return out, ""


def checked_run(table: Table, entity, route_plans: List[dict]) -> dict:
    """The routes of ``entity`` built from ``route_plans`` (``{"train", "nodes"}`` each,
    with the ``connections`` of the route it was, whose legs it keeps where it can): each
    route with its revenue and its problem, the action to run them, and the rule the whole
    run breaks ("" if the engine accepts it). Nothing in the game changes."""
    used: set = set()
    built, problems = [], []
    for plan in route_plans:
        route, problem = build_route(table, str(plan.get("train")),
                                     [str(n) for n in plan.get("nodes") or []], used,
                                     known_legs(plan))
        built.append(route)
        problems.append(problem)
    runnable = [r for r, p in zip(built, problems) if r["connections"] and not p]
    action = new_action("run_routes", entity, routes=runnable, extra_revenue=0, subsidy=0)
    restore = network.checkpoint(table)
    listing, table.listing = table.listing, True
    error = ""
    try:
        try:
            found = route_reading.read_routes(table, runnable)
            for route, r in zip(found, runnable):
                r["revenue"] = route.revenue if route.legs else 0
                r["revenue_str"] = route.describe()
        except GameError as e:
            error = str(e)
        if not error:
            try:
                table.round.judge(read(table, action))
            except GameError as e:
                error = str(e)
    finally:
        table.listing = listing
        restore()
    out = []
    for route, problem in zip(built, problems):
        out.append(dict(route, problem=problem, revenue=route.get("revenue", 0)))
    return {"routes": out, "action": action, "error": error,
            "total": sum(r.get("revenue", 0) for r in runnable)}
