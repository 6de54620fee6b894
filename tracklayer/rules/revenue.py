"""Revenue and reach: what a route earns, and how far a train may run.

A stop earns the revenue of the latest tile colour of the phase that it names, times the
train's multiplier. A train with a number runs to that many stops (each stop counting its
visit cost); a train like 8+x counts stops of each kind against its own allowance, and
pays for its best set of stops. Titles may count reach otherwise (1849: hex sides) and
add bonuses.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Dict, FrozenSet, List, NamedTuple, Tuple

from ..errors import RouteError
from .board import Node
from .table import Table


def runs_locally(train) -> bool:
    spec = train.spec
    if not spec.local_ok:
        return False
    d = train.variant.distance
    if isinstance(d, int):
        return d == 1
    row = next((r for r in d if "city" in r.kinds), None)
    return bool(row) and row.visits == 1


def stop_value(table: Table, node: Node, train) -> int:
    """What ``node`` earns for ``train`` in the current phase (the common rule)."""
    variant = train.variant
    multiplier = variant.multiplier or 1
    if variant.name in ("D", "d"):
        diesel = dict(node.part.revenue).get("diesel")
        if diesel is not None:
            return multiplier * diesel
    return multiplier * node.revenue_in(table.phase.tiles)


def stops_value(table: Table, route, stops: List[Node]) -> int:
    """What ``stops`` earn for the route's train, each by the title's stop value."""
    value, train = table.variant.stop_value, route.train
    total = 0
    for n in stops:
        total += value(table, n, train)
    return total


def route_value(table: Table, route, stops: List[Node]) -> int:
    """The revenue of ``stops`` on ``route`` (with the title's bonuses)."""
    return stops_value(table, route, stops) + table.variant.route_bonus(table, route, stops)


class BonusParts(NamedTuple):
    """A route bonus that is a sum of parts: what each stop it pays for adds
    (``per_stop``), and what each hex it runs through adds, once however often
    (``per_hex``). A title whose bonus reads so declares it, and the route finder bounds a
    route's bonus by the parts of its stops and of its legs' hexes. (A named tuple: a
    title may make one for each route it scores.)"""

    per_stop: Callable[[Node], int]
    per_hex: Dict[str, int]

    def of(self, route, stops: List[Node]) -> int:
        """The bonus of ``route`` paying ``stops``: its stops' parts, and the parts of the
        hexes it runs through (each once)."""
        per_stop = self.per_stop
        total = 0
        for n in stops:
            total += per_stop(n)
        per_hex = self.per_hex
        if per_hex:
            hexes = route.hexes_run()
            for h, part in per_hex.items():
                if h in hexes:
                    total += part
        return total


@dataclass(frozen=True)
class StopRules:
    """Route rules that look only at a route's stops in order: no two stops in one hex
    (``one_per_hex``), hexes a route may not start or end at (``not_an_end``), and hexes a
    route of two stops may not stop at (``not_in_two``: a route there has at least three
    stops). A title whose own route rules are exactly these declares them, and the route
    finder applies them as it searches instead of asking the engine about each route."""

    one_per_hex: bool = False
    not_an_end: FrozenSet[str] = frozenset()
    end_problem: str = "Route cannot start or end there"
    not_in_two: FrozenSet[str] = frozenset()
    two_problem: str = "Route of two stops cannot stop there"

    def problem(self, route) -> str:
        """What is wrong with ``route`` by these rules ("" if nothing)."""
        hexes = route.hexes()
        if self.one_per_hex and len(hexes) != len(set(hexes)):
            return "Route visits same hex twice"
        if hexes and (hexes[0] in self.not_an_end or hexes[-1] in self.not_an_end):
            return self.end_problem
        if self.not_in_two:
            stops = route.stops()
            if len(stops) <= 2 and any(s.hex in self.not_in_two for s in stops):
                return self.two_problem
        return ""


def paying_stops(table: Table, route, visited: List[Node]) -> List[Node]:
    """The stops a train pays for: all it visits, or for trains with allowances per kind
    of stop (8+x) the best set they may count."""
    distance = route.train.variant.distance
    if isinstance(distance, int):
        return visited
    if not visited:
        return []
    rows = sorted(distance, key=lambda r: len(r.kinds))
    most = min(sum(r.pay for r in rows), len(visited))
    operator = route.operator
    needs_token = route.train.spec.requires_token
    for n in range(most, 0, -1):
        best, best_value = None, None
        for stops in combinations(visited, n):
            if needs_token and not any(s.holds(operator) for s in stops):
                continue
            used = [0] * len(rows)
            fits = True
            for stop in stops:
                row = next((i for i, r in enumerate(rows) if stop.kind in r.kinds
                            and used[i] < r.pay), None)
                if row is None:
                    fits = False
                    break
                used[row] += 1
            if not fits:
                continue
            value = route_value(table, route, list(stops))
            if best_value is None or value > best_value:
                best, best_value = list(stops), value
        if best_value:
            return best
    return []


def check_reach(table: Table, route, visited: List[Node]) -> None:
    """Raise unless the train can reach every stop of its route."""
    table.variant.check_reach(table, route, visited)


def check_stop_count(table: Table, route, visited: List[Node]) -> None:
    """The common rule: stops counted by their visit cost, per kind for 8+x trains."""
    distance = route.train.variant.distance
    if isinstance(distance, int):
        used = 0
        for n in visited:
            used += n.part.visit_cost
        if used > distance:
            raise RouteError(f"{used} is too many stops for a {distance} train")
        return
    rows = [{"visit": r.visits} for r in distance]
    by_kind = {}
    for r, row in zip(distance, rows):
        for k in r.kinds:
            by_kind.setdefault(k, []).append(row)
    grouped = {}
    for n in visited:
        grouped.setdefault(n.kind, []).append(n)
    for kind, group in sorted(grouped.items(), key=lambda kv: len(by_kind.get(kv[0], []))):
        left = sum(n.part.visit_cost for n in group)
        for row in by_kind.get(kind, []):
            if row["visit"] <= 0:
                continue
            if left <= row["visit"]:
                row["visit"] -= left
                left = 0
            else:
                left -= row["visit"]
                row["visit"] = 0
            if left <= 0:
                break
        if left > 0:
            raise RouteError("route has too many stops")


# -- reach as measures (what the route finder counts) --------------------------------------


def _rows(train) -> List[Tuple[FrozenSet[str], int]]:
    return [(frozenset(r.kinds), r.visits) for r in train.variant.distance]


def _implied(s: FrozenSet[str], cap: int, kept: Dict[FrozenSet[str], int]) -> bool:
    """Is "stops of kinds ``s`` ≤ ``cap``" implied by the ``kept`` limits (a larger set with
    no larger cap, or two disjoint sets covering ``s`` whose caps add up to no more)?"""
    for t, c in kept.items():
        if t is not s and s < t and c <= cap:
            return True
    items = sorted(s)
    for size in range(1, len(items)):
        for part in combinations(items, size):
            a = frozenset(part)
            b = s - a
            if a in kept and b in kept and kept[a] + kept[b] <= cap:
                return True
    return False


def standard_limits(train) -> Dict[str, int]:
    """The common reach as limits on named measures: an n-train visits stops worth n. A
    train with allowances per kind (8+x) may visit, of each allowance's kinds, its visits;
    by Hall's condition that is possible exactly when, for every set S of kinds, the stops
    of kinds in S number at most the visits of the allowances taking some kind in S. One
    measure per such S (``"city+offboard"`` …), redundant ones dropped, and ``"other"``
    (limit 0) for kinds no allowance takes."""
    distance = train.variant.distance
    if isinstance(distance, int):
        return {"stops": distance}
    rows = _rows(train)
    kinds = sorted(set().union(*(k for k, _ in rows)))
    caps: Dict[FrozenSet[str], int] = {}
    for size in range(1, len(kinds) + 1):
        for subset in combinations(kinds, size):
            s = frozenset(subset)
            caps[s] = sum(v for k, v in rows if k & s)
    kept = dict(caps)
    for s in sorted(caps, key=len):
        if _implied(s, caps[s], kept):
            del kept[s]
    out = {"+".join(sorted(s)): c for s, c in kept.items()}
    out["other"] = 0
    return out


def standard_stop_cost(train, kind: str, visit_cost: int) -> Dict[str, int]:
    """What a stop of ``kind`` uses of the measures of :func:`standard_limits`."""
    if isinstance(train.variant.distance, int):
        return {"stops": visit_cost}
    names = [n for n in standard_limits(train) if n != "other"]
    hit = {n: visit_cost for n in names if kind in n.split("+")}
    return hit or {"other": visit_cost}


def hex_sides(rails) -> int:
    """How many hex sides a chain of rails crosses (a train counting hexes, not stops):
    the rails next to each other on different hexes."""
    count, last = 0, None
    for rail in rails:
        hex_id = rail.hex
        if last is not None and hex_id != last:
            count += 1
        last = hex_id
    return count


def check_hex_distance(route) -> None:
    """A train counting hexes runs at most as many hex sides as its number."""
    distance = sum(hex_sides(list(leg.chain.rails)) for leg in route.legs)
    if distance > route.train.variant.distance:
        raise RouteError(f"{distance} hex sides is too far for a {route.train.name} train")
