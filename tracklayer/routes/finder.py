"""The optimal route finder ("auto-router"): the routes that earn an operator the most.

Given a game and an operating company, :func:`find_best_routes` returns one route per train
(or none for a train) such that the total revenue is the largest the rules allow, and says
whether that was *proven* within the time budget.

The rules, as the finder applies them (all read from the game, so titles plug in theirs):

* A route is a sequence of *legs*: track between two stops (cities, towns, off-boards)
  that passes no other stop, as :func:`tracklayer.routes.route.node_chains` finds it.
* It has at least two stops, visits no stop twice and includes a city with one of the
  company's tokens. It may pass through a stop only if that stop does not block the company
  (off-boards always do; so do cities whose slots are all taken by other companies), and
  only its very first and last piece of track may be terminal.
* Stops of the same group (Aachen N1/P1 in 1893) count once per route.
* Reach: every stop and every leg uses some of the train's named measures
  (``Game.route_stop_distance`` / ``route_chain_distance``), which may not exceed
  ``Game.route_distance_limits`` — stops for an n-train, cities and towns separately for
  8+x, hexes in 1849. A train uses only track ``Game.route_path_allowed`` lets it.
* No two pieces of track of the company's routes may hold the same key
  (``Game.route_track_keys``, mirroring ``check_overlap``).
* Revenue: the sum of ``Game.stop_revenue`` over the stops. When the title computes
  revenue otherwise (its own ``revenue_for``/``compute_stops``, or trains that pay fewer
  stops than they visit), each complete route is scored by the engine, with that sum plus
  ``Game.route_revenue_bonus_bound`` as the bound. When the title adds checks of its own
  (``check_other``, ``check_route_token``), each candidate is also checked by the engine;
  with rules on sets of routes (``check_route_combination``, ``check_routes``), each set.
* A title that changes ``check_distance``/``check_overlap``/``revenue_for`` without the
  matching hook gets legal routes (the engine checks them) but never "proven"; so does a
  company with local (1-stop) trains, which the finder does not run.

Method (exact, branch and bound):

1. *Network*: from the company's token cities, walk the track once; legs become edges of
   a graph of stops, each with a bit mask of the track keys it holds.
2. *Best route per train* (depth-first search over simple paths anchored at a token city,
   pruned by an admissible bound: revenue so far plus a fractional knapsack of the most
   valuable unvisited stops the remaining reach can still pay for).
3. *Incumbent*: trains in order of their best revenue, each taking its best route on track
   the others left free.
4. *Candidates*: for each train, every route earning more than the incumbent minus the
   best revenues of the other trains (no better set can use a poorer route), by the same
   pruned search.
5. *Combination*: branch and bound over the trains' candidate lists (sorted by revenue),
   each indexed by track key as bit sets, so a train's best route still free is the lowest
   bit of one set; identical trains take routes in list order.

Past the time budget the search stops and returns the best set found, marked not proven.
The answer is always checked by the engine in full; were it refused (a title's hooks
disagreeing with its checks), the search is redone checking every candidate by the engine.
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from itertools import combinations
from typing import (Callable, Dict, FrozenSet, Iterator, List, NamedTuple, Optional, Sequence,
                    Tuple)

from ..engine.errors import GameError
from .route import Chain, Route, Segment, chain_id, walk_trails

DEFAULT_BUDGET_S = 10.0

# Measures of a train's reach are packed into one integer, FIELD bits each, every field
# holding GUARD + what is left: a field that goes below GUARD has been overspent.
FIELD = 24
GUARD = 1 << (FIELD - 1)
FIELD_MASK = (1 << FIELD) - 1

# Title rules the finder cannot model: when a title overrides a scoring method, each
# candidate route is scored by the engine; when it overrides a check of single routes, each
# candidate is checked by the engine; when it overrides a check of sets of routes, each
# complete set is checked by the engine.
_SCORING_HOOKS = ("revenue_for", "compute_stops", "revenue_stops")
_ROUTE_CHECKS = ("check_other", "check_route_token")
_SET_CHECKS = ("check_route_combination", "check_routes")
# A title that changes a rule on the left without telling the finder through one of the
# hooks on the right leaves the finder's model possibly stricter than the rule: its answer
# is then not proven optimal (and the rule is checked by the engine on every candidate).
_COVERED_BY = {
    "check_distance": ("route_distance_limits", "route_stop_distance", "route_chain_distance"),
    "route_distance": ("route_distance_limits", "route_stop_distance", "route_chain_distance"),
    "check_overlap": ("route_track_keys",),
    "revenue_for": ("route_revenue_bonus_bound",),
    "compute_stops": ("route_revenue_bonus_bound",),
    "revenue_stops": ("route_revenue_bonus_bound",),
}


class SearchTimeout(Exception):
    """The time budget ran out; ``partial`` is what the interrupted step had found."""

    def __init__(self, partial=None) -> None:
        super().__init__("time budget exhausted")
        self.partial = partial


# ---------------------------------------------------------------------------------------------
# The standard reach of a train (used by Game.route_distance_limits / route_stop_distance)


def _row_kinds(train) -> List[Tuple[FrozenSet[str], int]]:
    return [(frozenset(r["nodes"]), int(r.get("visit", r["pay"]))) for r in train.distance]


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


def standard_distance_limits(train) -> Dict[str, int]:
    """The standard reach: an n-train visits stops worth n (``visit_cost`` each). A train
    with rows (8+x, 2+2 …) may visit, of each row's kinds of stop, the row's ``visit``; by
    Hall's condition that is possible exactly when, for every set S of kinds, the stops of
    kinds in S number at most the visits of the rows that accept some kind in S. One measure
    per such S (``"city+offboard"``…), redundant ones dropped, and ``"other"`` (limit 0) for
    kinds no row accepts."""
    if isinstance(train.distance, int):
        return {"stops": train.distance}
    rows = _row_kinds(train)
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


def standard_stop_distance(train, kind: str, visit_cost: int) -> Dict[str, int]:
    """What a stop of ``kind`` uses of the measures of :func:`standard_distance_limits`."""
    if isinstance(train.distance, int):
        return {"stops": visit_cost}
    names = [n for n in standard_distance_limits(train) if n != "other"]
    hit = {n: visit_cost for n in names if kind in n.split("+")}
    return hit or {"other": visit_cost}


# ---------------------------------------------------------------------------------------------
# The network: stops and the legs of track between them


@dataclass(eq=False)
class Leg:
    """Track from stop ``a`` to stop ``b`` (network indexes), ``paths`` in that order."""

    a: int
    b: int
    paths: tuple
    chain: int          # index of the undirected chain (both orientations share it)
    mask: int           # bits of the track keys it holds
    t_first: bool       # its first / last piece of track is terminal
    t_last: bool
    terminals: int      # how many of its pieces of track are terminal

    @property
    def npaths(self) -> int:
        return len(self.paths)


@dataclass
class Network:
    """The stops an operator's trains can reach and the legs between them."""

    nodes: list
    tokens: List[int]            # token cities of the operator, in map order
    passable: List[bool]         # a route may pass through the stop
    groups: List[int]            # bit mask of the stop's groups
    legs_from: List[List[Leg]]
    chains: List[tuple]          # undirected chains: (a, b, paths)


def _trails_from(start) -> List[tuple]:
    """Every chain of track from node ``start`` to another node, passing no other node, as
    ``(end node, paths)`` — the same chains :func:`tracklayer.routes.route.node_chains`
    finds."""
    found: List[tuple] = []

    def visit(path, trail, k):
        for n in path.nodes:
            if n is not start:
                found.append((n, tuple(trail)))

    walk_trails(start, visit)
    return found


def token_cities(game, entity) -> list:
    """The cities holding ``entity``'s tokens, in map order."""
    return [c for h in game.hexes for c in h.tile.cities if game.city_tokened_by(c, entity)]


def build_network(game, entity) -> Network:
    """Walk the track from ``entity``'s token cities, through every stop it may pass, and
    collect the stops reached and the legs between them (legs whose track would claim a key
    twice are left out: ``check_overlap`` refuses them)."""
    tokens = token_cities(game, entity)
    nodes: list = []
    index: Dict[int, int] = {}

    def add(node) -> int:
        i = index.get(id(node))
        if i is None:
            i = index[id(node)] = len(nodes)
            nodes.append(node)
        return i

    for t in tokens:
        add(t)
    key_bits: Dict[object, int] = {}
    chains: List[tuple] = []
    seen_chains: set = set()
    queue = list(range(len(nodes)))
    expanded: set = set()
    while queue:
        u = queue.pop(0)
        if u in expanded:
            continue
        expanded.add(u)
        for end, paths in _trails_from(nodes[u]):
            v = add(end)
            ident = (min(u, v), max(u, v), frozenset(id(p) for p in paths))
            if ident not in seen_chains:
                seen_chains.add(ident)
                mask = _track_mask(game, paths, key_bits)
                if mask is not None:
                    chains.append((u, v, paths, mask))
            if v not in expanded and not end.blocks(entity):
                queue.append(v)
    n = len(nodes)
    legs_from: List[List[Leg]] = [[] for _ in range(n)]
    group_bits: Dict[str, int] = {}
    groups = []
    for node in nodes:
        bits = 0
        for g in node.groups:
            bits |= group_bits.setdefault(g, 1 << len(group_bits))
        groups.append(bits)
    chains = _compress_masks(chains)
    out_chains = []
    for ci, (u, v, paths, mask) in enumerate(chains):
        out_chains.append((u, v, paths))
        for a, b, ps in ((u, v, paths), (v, u, tuple(reversed(paths)))):
            legs_from[a].append(Leg(a, b, ps, ci, mask, bool(ps[0].terminal),
                                    bool(ps[-1].terminal),
                                    sum(1 for p in ps if p.terminal)))
    token_idx = list(range(len(tokens)))
    passable = [not node.blocks(entity) for node in nodes]
    return Network(nodes, token_idx, passable, groups, legs_from, out_chains)


def _compress_masks(chains: List[tuple]) -> List[tuple]:
    """The same chains with track keys that belong to the same chains merged into one bit:
    two chains still share a bit exactly when they share a key, with fewer bits to test."""
    holders: Dict[int, int] = {}
    for ci, chain in enumerate(chains):
        m = chain[3]
        while m:
            low = m & -m
            holders[low] = holders.get(low, 0) | (1 << ci)
            m ^= low
    class_bit: Dict[int, int] = {}
    new_masks = [0] * len(chains)
    for key, held_by in holders.items():
        bit = class_bit.setdefault(held_by, 1 << len(class_bit))
        m = held_by
        while m:
            low = m & -m
            new_masks[low.bit_length() - 1] |= bit
            m ^= low
    return [(u, v, paths, new_masks[ci]) for ci, (u, v, paths, _) in enumerate(chains)]


def _track_mask(game, paths, key_bits: dict) -> Optional[int]:
    """Bit mask of the track keys of ``paths``, or None if the chain claims a key twice."""
    mask = 0
    for p in paths:
        for k in game.route_track_keys(p):
            bit = key_bits.get(k)
            if bit is None:
                bit = key_bits[k] = 1 << len(key_bits)
            if mask & bit:
                return None
            mask |= bit
    return mask


# ---------------------------------------------------------------------------------------------
# One train's rules, compiled for the search


def _overridden(game, name: str) -> bool:
    from ..engine.game import Game
    return getattr(type(game), name) is not getattr(Game, name)


def uncovered_rules(game) -> List[str]:
    """Rules the title changes without the finder hooks that would tell the finder how
    (see ``_COVERED_BY``): with any, the finder's answer is legal but not proven best."""
    return [rule for rule, hooks in _COVERED_BY.items()
            if _overridden(game, rule) and not any(_overridden(game, h) for h in hooks)]


class Step(NamedTuple):
    """A leg as one train sees it: where it leads (``b``, and its bit), the track it holds,
    what it uses of the reach including the stop at ``b``, and its terminal track."""

    b: int
    bit: int
    mask: int
    cost: int
    t_first: bool
    t_last: bool
    terminals: int
    npaths: int
    leg: Leg


class TrainModel:
    """A train's view of the network: what each stop pays and uses of its reach, which legs
    it may run and what they use, and the bound on what an unfinished route can still add.

    Reach is packed into one integer (see ``FIELD``): ``limit_packed`` holds GUARD + limit
    per measure, costs are subtracted, and a route is within reach while every guard bit
    (``guard_all``) is still set."""

    def __init__(self, game, entity, train, net: Network) -> None:
        self.train = train
        self.values = [game.stop_revenue(n, game.phase.tiles, train) for n in net.nodes]
        limits = game.route_distance_limits(train)
        self.measures = sorted(limits)
        self.limits = [int(limits[m]) for m in self.measures]
        self.limit_packed = sum((GUARD + v) << (FIELD * i) for i, v in enumerate(self.limits))
        self.guard_all = sum(GUARD << (FIELD * i) for i in range(len(self.measures)))
        stop_costs = [game.route_stop_distance(train, n) for n in net.nodes]
        self.stop_cost = [self._pack(c) for c in stop_costs]
        self.bonus = game.route_revenue_bonus_bound(entity, train)
        self.additive = not any(_overridden(game, h) for h in _SCORING_HOOKS) and \
            self.bonus == 0 and self._pays_every_stop(train)
        chain_costs = [self._chain_cost(game, paths) for _, _, paths in net.chains]
        self.legs_from = [self._steps(legs, chain_costs) for legs in net.legs_from]
        self._prepare_bound(net, stop_costs, chain_costs)

    # -- reach -----------------------------------------------------------------------------

    def _pack(self, costs: dict) -> int:
        """Pack a measure → amount dict; amounts are capped just past the limit (more is no
        more possible); a measure the train has no limit for may not be used at all."""
        out = 0
        for m, amount in costs.items():
            if m not in self.measures:
                if amount:
                    raise GameError(f"unknown distance measure {m!r} for train "
                                    f"{self.train.name}")
                continue
            i = self.measures.index(m)
            out |= min(int(amount), self.limits[i] + 1) << (FIELD * i)
        return out

    def _chain_cost(self, game, paths: tuple) -> Optional[dict]:
        """What running along a chain uses of the reach, None if the train may not."""
        if not all(game.route_path_allowed(self.train, p) for p in paths):
            return None
        return game.route_chain_distance(self.train, list(paths))

    def _steps(self, legs: List[Leg], chain_costs: list) -> List[Step]:
        """The legs from one stop this train may run, most valuable next stop first."""
        steps = [Step(leg.b, 1 << leg.b, leg.mask,
                      self._pack(chain_costs[leg.chain]) + self.stop_cost[leg.b],
                      leg.t_first, leg.t_last, leg.terminals, leg.npaths, leg)
                 for leg in legs if chain_costs[leg.chain] is not None]
        steps.sort(key=lambda st: -self.values[st.b])
        return steps

    @staticmethod
    def _pays_every_stop(train) -> bool:
        """Does the train pay for every stop it may visit (so revenue is a plain sum)?"""
        if isinstance(train.distance, int):
            return True
        return all(int(r["pay"]) >= int(r.get("visit", r["pay"])) for r in train.distance)

    # -- the bound -------------------------------------------------------------------------

    def _prepare_bound(self, net: Network, stop_costs: list, chain_costs: list) -> None:
        """For each measure: the least each stop can use of it to be added to a route (its
        own cost plus the cheapest leg into it), stops that use none of it, and the others in
        order of value per unit. Stops no leg of this train reaches are left out."""
        n = len(net.nodes)
        reach = [False] * n
        least: List[Dict[str, int]] = [dict() for _ in range(n)]
        for steps in self.legs_from:
            for st in steps:
                reach[st.b] = True
                raw = chain_costs[st.leg.chain]
                for m in self.measures:
                    amount = int(raw.get(m, 0))
                    if m not in least[st.b] or amount < least[st.b][m]:
                        least[st.b][m] = amount
        self.measure_bounds = []
        for i, m in enumerate(self.measures):
            free, costly = [], []
            total_cost = 0
            for v in range(n):
                if not reach[v] or self.values[v] <= 0:
                    continue
                cost = int(stop_costs[v].get(m, 0)) + least[v].get(m, 0)
                if cost <= 0:
                    free.append((1 << v, self.values[v]))
                else:
                    costly.append((1 << v, self.values[v], cost))
                    total_cost += cost
            costly.sort(key=lambda t: -t[1] / t[2])
            self.measure_bounds.append((i, free, costly, total_cost))
        self.all_values = [(1 << v, self.values[v]) for v in range(n)
                           if reach[v] and self.values[v] > 0]

    def extra_bound(self, visited: int, rem: int) -> float:
        """At most what stops not yet ``visited`` can add with reach ``rem`` left: for each
        measure a fractional knapsack (value per unit of the measure), the least of them."""
        best = None
        for i, free, costly, total_cost in self.measure_bounds:
            left = ((rem >> (FIELD * i)) & FIELD_MASK) - GUARD
            if left >= total_cost:
                continue
            s = 0.0
            for bit, value in free:
                if not visited & bit:
                    s += value
            for bit, value, cost in costly:
                if left <= 0:
                    break
                if visited & bit:
                    continue
                if cost <= left:
                    s += value
                    left -= cost
                else:
                    s += value * left / cost
                    break
            if best is None or s < best:
                best = s
        if best is None:
            best = sum(value for bit, value in self.all_values if not visited & bit)
        return best + self.bonus


# ---------------------------------------------------------------------------------------------
# Searching one train's routes


@dataclass(eq=False)
class Found:
    """A route found for a train: revenue, track, and its parts as the search met them
    (``bwd``, ``fwd``: see :func:`search_routes`)."""

    revenue: int
    mask: int
    bwd: tuple = ()
    fwd: tuple = ()

    @property
    def legs(self) -> tuple:
        """Its :class:`Leg` objects in route order."""
        return legs_of(self.bwd, self.fwd)


class _Clock:
    """Raises SearchTimeout once the deadline has passed (checked every few hundred steps)."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.ticks = 0

    def tick(self) -> None:
        self.ticks += 1
        if self.ticks & 255 == 1 and time.perf_counter() > self.deadline:
            raise SearchTimeout()


def _oriented(bwd: tuple, fwd: tuple) -> tuple:
    """The legs of a route anchored at a token city: the backward part reversed, then the
    forward part."""
    if not bwd:
        return fwd
    back = tuple(_reverse_leg(leg) for leg in reversed(bwd))
    return back + fwd


def _reverse_leg(leg: Leg) -> Leg:
    return Leg(leg.b, leg.a, tuple(reversed(leg.paths)), leg.chain, leg.mask, leg.t_last,
               leg.t_first, leg.terminals)


def search_routes(model: TrainModel, net: Network, threshold: float, forbidden: int,
                  sink: Callable[[int, int, tuple, tuple], float], clock: _Clock,
                  score: Optional[Callable[[tuple, tuple], Optional[int]]] = None) -> None:
    """Depth-first search of the train's routes that avoid track ``forbidden`` and could
    earn more than ``threshold``; each is passed to ``sink(revenue, mask, bwd, fwd)``, which
    returns the new threshold. A route is anchored at its first token city (in map order):
    from there a forward part, then a backward part whose first stop comes later in the
    network than the forward part's (so each route is met once). ``score``, if given,
    returns the route's real revenue (None if illegal); the search then bounds with the
    plain sum of stop values."""
    values = model.values
    stop_cost = model.stop_cost
    legs_from = model.legs_from
    guard_all = model.guard_all
    passable = net.passable
    groups = net.groups
    extra_bound = model.extra_bound
    tick = clock.tick
    thr = [threshold]
    fwd: list = []
    bwd: list = []

    def emit(rev: int, mask: int) -> None:
        if score is None:
            if rev > thr[0]:
                thr[0] = sink(rev, mask, tuple(bwd), tuple(fwd))
            return
        if rev + model.bonus <= thr[0]:
            return
        real = score(tuple(bwd), tuple(fwd))
        if real is not None and real > thr[0]:
            thr[0] = sink(real, mask, tuple(bwd), tuple(fwd))

    def backward(end: int, visited: int, mask: int, rem: int, rev: int, grp: int, tc: int,
                 first_b: int, last_term: bool) -> None:
        tick()
        if bwd:
            emit(rev, mask)
        if not passable[end]:
            return
        if rev + extra_bound(visited, rem) <= thr[0]:
            return
        used = mask | forbidden
        for leg in legs_from[end]:
            b, bit, lmask, cost, _, t_last, terminals, _, _ = leg
            if visited & bit or lmask & used or grp & groups[b]:
                continue
            if not bwd and b <= first_b:
                continue
            nrem = rem - cost
            if nrem & guard_all != guard_all:
                continue
            ntc = tc + terminals
            if ntc and ntc - t_last - last_term > 0:
                continue
            bwd.append(leg)
            backward(b, visited | bit, mask | lmask, nrem, rev + values[b], grp | groups[b],
                     ntc, first_b, last_term)
            bwd.pop()

    def forward(end: int, visited: int, mask: int, rem: int, rev: int, grp: int, np: int,
                tc: int, anchor: int) -> None:
        tick()
        if fwd:
            emit(rev, mask)
        if rev + extra_bound(visited, rem) <= thr[0]:
            return
        if fwd:
            backward(anchor, visited, mask, rem, rev, grp, tc, fwd[0].b, fwd[-1].t_last)
            if not passable[end]:
                return
        used = mask | forbidden
        for leg in legs_from[end]:
            b, bit, lmask, cost, t_first, t_last, terminals, lnp, _ = leg
            if visited & bit or lmask & used or grp & groups[b]:
                continue
            nrem = rem - cost
            if nrem & guard_all != guard_all:
                continue
            ntc = tc + terminals
            nnp = np + lnp
            if ntc and nnp > 1 and ntc - (fwd[0].t_first if fwd else t_first) - t_last > 0:
                continue
            fwd.append(leg)
            forward(b, visited | bit, mask | lmask, nrem, rev + values[b], grp | groups[b],
                    nnp, ntc, anchor)
            fwd.pop()

    banned = 0
    for t in net.tokens:
        rem = model.limit_packed - stop_cost[t]
        if legs_from[t] and rem & guard_all == guard_all:
            forward(t, banned | (1 << t), 0, rem, values[t], groups[t], 0, 0, t)
        banned |= 1 << t


def legs_of(found_bwd: tuple, found_fwd: tuple) -> tuple:
    """The :class:`Leg` objects of a route from the search's steps, in route order."""
    return _oriented(tuple(st.leg for st in found_bwd), tuple(st.leg for st in found_fwd))


def best_route(model: TrainModel, net: Network, forbidden: int, clock: _Clock,
               score=None, floor: float = 0) -> Optional[Found]:
    """The train's best route avoiding track ``forbidden`` (None if none earns more than
    ``floor``)."""
    best: List[Optional[Found]] = [None]

    def sink(rev, mask, bwd, fwd) -> float:
        best[0] = Found(rev, mask, bwd, fwd)
        return rev

    try:
        search_routes(model, net, floor, forbidden, sink, clock, score)
    except SearchTimeout as e:
        e.partial = best[0]
        raise
    return best[0]


def routes_above(model: TrainModel, net: Network, threshold: float, clock: _Clock,
                 score=None) -> List[Found]:
    """Every route of the train earning more than ``threshold``, best first."""
    out: List[Found] = []

    def sink(rev, mask, bwd, fwd) -> float:
        out.append(Found(rev, mask, bwd, fwd))
        return threshold

    search_routes(model, net, threshold, 0, sink, clock, score)
    out.sort(key=lambda f: -f.revenue)
    return out


# ---------------------------------------------------------------------------------------------
# Combining the trains' routes


def _users_by_key(items: List[Found]) -> Dict[int, int]:
    """For each track-key bit, the set of ``items`` (bits by position) that hold it."""
    size = (len(items) + 8) // 8
    maps: Dict[int, bytearray] = {}
    for idx, f in enumerate(items):
        m = f.mask
        while m:
            low = m & -m
            bitmap = maps.get(low)
            if bitmap is None:
                bitmap = maps[low] = bytearray(size)
            bitmap[idx >> 3] |= 1 << (idx & 7)
            m ^= low
    return {key: int.from_bytes(bitmap, "little") for key, bitmap in maps.items()}


def _blocked_by(mask: int, users: Dict[int, int]) -> int:
    """The items (bits by position) sharing track with ``mask``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= users.get(low, 0)
        mask ^= low
    return out


def combine(lists: List[List[Found]], same_as_previous: List[bool], incumbent: int,
            clock: _Clock, accept: Optional[Callable[[list], bool]] = None
            ) -> Tuple[int, Optional[list]]:
    """Branch and bound: one route (or none) from each list (sorted best first), no two
    sharing track, most revenue in total; only sets earning more than ``incumbent`` are
    returned (else None). A train identical to the previous one takes a route later in
    the shared list (or none if the previous took none). ``accept`` may veto a set.

    Each list is indexed by track key, so the routes still free for a train are a bit set
    (``~blocked``) and its best free route the lowest bit: the bound on the trains still
    to choose is the sum of their best free routes."""
    k = len(lists)
    index: Dict[int, Dict[int, int]] = {}
    for items in lists:
        if id(items) not in index:
            index[id(items)] = _users_by_key(items)
    users = [index[id(items)] for items in lists]
    full = [(1 << len(items)) - 1 for items in lists]
    best = [incumbent, None]
    choice: list = [None] * k
    picked = [0] * k

    def best_free(j: int, blocked: int) -> int:
        free = full[j] & ~blocked
        if not free:
            return 0
        return lists[j][(free & -free).bit_length() - 1].revenue

    def rec(i: int, blocked: list, total: int) -> None:
        clock.tick()
        if i == k:
            if total > best[0] and (accept is None or accept(list(choice))):
                best[0] = total
                best[1] = list(choice)
            return
        items = lists[i]
        free = full[i] & ~blocked[i]
        if same_as_previous[i]:
            free &= ~((1 << picked[i - 1]) - 1)
        while free:
            low = free & -free
            idx = low.bit_length() - 1
            f = items[idx]
            if total + f.revenue + sum(best_free(j, blocked[j]) for j in range(i + 1, k)) \
                    <= best[0]:
                break
            nb = blocked[:i + 1] + [blocked[j] | _blocked_by(f.mask, users[j])
                                    for j in range(i + 1, k)]
            bound = total + f.revenue + sum(best_free(j, nb[j]) for j in range(i + 1, k))
            if bound > best[0]:
                choice[i] = f
                picked[i] = idx + 1
                rec(i + 1, nb, total + f.revenue)
            free ^= low
        if total + sum(best_free(j, blocked[j]) for j in range(i + 1, k)) > best[0]:
            choice[i] = None
            picked[i] = len(items)
            rec(i + 1, blocked, total)
        choice[i] = None

    try:
        rec(0, [0] * k, 0)
    except SearchTimeout as e:
        e.partial = (best[0], best[1])
        raise
    return best[0], best[1]


# ---------------------------------------------------------------------------------------------
# The finder


@dataclass
class RouteResult:
    """The finder's answer: ``routes`` in the ``run_routes`` format, their total
    ``revenue``, whether it is ``proven`` optimal, and the search time in ``ms``."""

    routes: List[dict]
    revenue: int
    proven: bool
    ms: float
    stats: dict = field(default_factory=dict)


def to_route(game, train, legs: Sequence[Leg], net: Network, named: bool = True) -> Route:
    """An engine :class:`Route` for ``train`` along ``legs`` (``named``: with each chain's
    name in the action format, needed only to write the route out)."""
    segments = []
    for leg in legs:
        a, b = net.nodes[leg.a], net.nodes[leg.b]
        paths = list(leg.paths)
        segments.append(Segment(a, b, Chain((a, b), paths, chain_id(paths) if named else None)))
    return Route(game, train, segments)


def route_dict(route: Route) -> dict:
    """A route in the ``run_routes`` action format."""
    return {
        "train": route.train.id,
        "connections": route.connection_hexes(),
        "hexes": [h.id for h in route.hexes()],
        "revenue": route.revenue,
        "revenue_str": route.revenue_str(),
        "nodes": route.node_signatures(),
    }


def check_set(game, entity, routes: List[Route]) -> bool:
    """Does the engine accept these routes together (every check of ``Route.check`` and
    the title's ``check_routes``)?"""
    try:
        for r in routes:
            r.check(routes)
        game.check_routes(entity, routes)
    except GameError:
        return False
    return True


class _Finder:
    """One search: the network, the trains' models, the phases, the best set so far."""

    def __init__(self, game, entity, deadline: float, strict: bool) -> None:
        self.game = game
        self.entity = entity
        self.strict = strict
        self.clock = _Clock(deadline)
        self.trains = [t for t in game.route_trains(entity) if not t.local()]
        self.skipped_local = len(game.route_trains(entity)) - len(self.trains)
        self.net = build_network(game, entity)
        self.models: Dict[tuple, TrainModel] = {}
        self.model_of: list = []
        for t in self.trains:
            m = TrainModel(game, entity, t, self.net)
            key = self._model_key(m)
            self.models.setdefault(key, m)
            self.model_of.append(key)
        self.best_set: List[Optional[Found]] = [None] * len(self.trains)
        self.best_total = 0
        uncovered = uncovered_rules(game)
        self.stats: dict = {"uncovered": list(uncovered)}
        if self.skipped_local:
            self.stats["uncovered"].append("local trains")
        self.route_checks = [h for h in _ROUTE_CHECKS if _overridden(game, h)] + \
            [h for h in ("check_distance", "check_overlap") if h in uncovered]
        self.set_checks = strict or "check_overlap" in uncovered or \
            any(_overridden(game, h) for h in _SET_CHECKS)

    @staticmethod
    def _model_key(m: TrainModel) -> tuple:
        return (m.train.name, tuple(m.values), m.limit_packed, tuple(m.stop_cost),
                tuple(st[:4] for steps in m.legs_from for st in steps), m.bonus,
                m.additive)

    # -- engine scoring and checks, for titles the plain model does not cover ------------

    def check_candidate(self, route: Route) -> None:
        """Raise unless the engine accepts ``route`` on its own: all of ``Route.check`` when
        strict, else the title's checks the finder does not model."""
        game = self.game
        if self.strict:
            route.check([route])
            return
        for name in self.route_checks:
            if name == "check_other":
                game.check_other(route)
            elif name == "check_route_token":
                corporation = route.corporation
                token = next((s for s in route.visited_stops()
                              if game.city_tokened_by(s, corporation)), None)
                game.check_route_token(route, token)
            elif name == "check_distance":
                game.check_distance(route, route.visited_stops())
            elif name == "check_overlap":
                game.check_overlap([route])

    def scorer(self, model: TrainModel):
        """None if the model's revenue and checks are the title's; else a function giving a
        candidate's revenue by the engine (None if the engine refuses it)."""
        if model.additive and not self.route_checks and not self.strict:
            return None
        game, net, train = self.game, self.net, model.train

        def score(bwd: tuple, fwd: tuple) -> Optional[int]:
            route = to_route(game, train, legs_of(bwd, fwd), net, named=False)
            try:
                self.check_candidate(route)
                return route.revenue
            except GameError:
                self.stats["engine_refused"] = self.stats.get("engine_refused", 0) + 1
                return None
        return score

    # -- the phases ------------------------------------------------------------------------

    def run(self) -> bool:
        """Search (see the module docstring); True if the answer is proven optimal. Each
        step offers what it finds as the best set so far, also when time runs out."""
        complete = not self.stats["uncovered"]
        if not self.trains or not self.net.tokens:
            return complete
        bests: Dict[tuple, Optional[Found]] = {}
        for key, m in self.models.items():
            first = self.model_of.index(key)
            try:
                bests[key] = best_route(m, self.net, 0, self.clock, self.scorer(m))
            except SearchTimeout as e:
                self.offer({first: e.partial})
                raise
            self.offer({first: bests[key]})
        best_of_train = [bests[k].revenue if bests[k] else 0 for k in self.model_of]
        keys = list(self.models)
        order = sorted(range(len(self.trains)),
                       key=lambda i: (-best_of_train[i], keys.index(self.model_of[i])))
        self.greedy(order, bests)
        total_best = sum(best_of_train)
        if len(self.trains) > 1 and total_best > self.best_total:
            self.combine(order, [best_of_train[i] for i in order], total_best)
        return complete

    def allowed(self, chosen: Dict[int, Found]) -> bool:
        """May the trains (by index) run the ``chosen`` routes together? (Track is disjoint
        by construction; the engine checks sets only for titles with set rules.)"""
        if not self.set_checks:
            return True
        routes = [to_route(self.game, self.trains[i], f.legs, self.net, named=False)
                  for i, f in sorted(chosen.items())]
        return check_set(self.game, self.entity, routes)

    def offer(self, chosen: Dict[int, Optional[Found]], checked: bool = False) -> None:
        """Keep ``chosen`` (train index → route or None) as the best set if it earns more
        than the best so far and is allowed (``checked``: already known to be)."""
        chosen = {i: f for i, f in chosen.items() if f is not None}
        total = sum(f.revenue for f in chosen.values())
        if total <= self.best_total or not (checked or self.allowed(chosen)):
            return
        self.best_set = [chosen.get(i) for i in range(len(self.trains))]
        self.best_total = total

    def greedy(self, order: List[int], bests: dict) -> None:
        """A first answer: each train in turn takes its best route on the track left free."""
        used = 0
        chosen: Dict[int, Found] = {}
        for i in order:
            m = self.models[self.model_of[i]]
            try:
                f = bests[self.model_of[i]] if used == 0 else \
                    best_route(m, self.net, used, self.clock, self.scorer(m))
            except SearchTimeout as e:
                self.offer({**chosen, i: e.partial})
                raise
            if f is None or not self.allowed({**chosen, i: f}):
                continue
            chosen[i] = f
            used |= f.mask
            self.offer(chosen, checked=True)

    def combine(self, order: List[int], best_of: List[int], total_best: int) -> None:
        """Improve on the incumbent: each train's routes that could be part of a better
        set (earning more than the incumbent less the other trains' best), combined."""
        lists: List[List[Found]] = []
        cache: Dict[tuple, Tuple[float, List[Found]]] = {}
        for pos, i in enumerate(order):
            key = self.model_of[i]
            threshold = self.best_total - (total_best - best_of[pos])
            have = cache.get(key)
            if have is None or have[0] != threshold:
                m = self.models[key]
                have = (threshold, routes_above(m, self.net, max(threshold, 0), self.clock,
                                                self.scorer(m)))
                cache[key] = have
            lists.append(have[1])  # one list object for identical trains
        same = [pos > 0 and self.model_of[i] == self.model_of[order[pos - 1]]
                for pos, i in enumerate(order)]
        self.stats["candidates"] = [len(x) for x in lists]
        accept = None
        if self.set_checks:
            def accept_set(choice: list) -> bool:
                return self.allowed({i: f for i, f in zip(order, choice) if f is not None})
            accept = accept_set
        try:
            _, choice = combine(lists, same, self.best_total, self.clock, accept)
        except SearchTimeout as e:
            if e.partial[1] is not None:
                self.offer(dict(zip(order, e.partial[1])), checked=True)
            raise
        if choice is not None:
            self.offer(dict(zip(order, choice)), checked=True)

    def routes(self) -> List[Route]:
        """The best set found, as engine routes in the order of the company's trains."""
        return [to_route(self.game, t, f.legs, self.net)
                for t, f in zip(self.trains, self.best_set) if f is not None]


def run_routes_positions(data: dict) -> Iterator[Tuple[int, dict, object, object]]:
    """``(index, entry, game, entity)`` for every ``run_routes`` entry of an export's log,
    with the game as it stood just before that entry (undone entries included, as the
    player saw them). The game object is advanced between yields: use it before the next."""
    from ..engine.replay import ActionLog

    log = ActionLog(data, log=False)
    for index, h in enumerate(data.get("actions") or []):
        if h.get("type") == "run_routes":
            game = log.game
            yield index, h, game, game.lookup(h.get("entity_type"), h.get("entity"))
        log.process(h)


def recorded_revenue(entry: dict) -> int:
    """The revenue a ``run_routes`` entry records: the sum over its routes."""
    return sum(int(r.get("revenue") or 0) for r in entry.get("routes") or [])


def find_best_routes(game, entity, budget_s: float = DEFAULT_BUDGET_S,
                     strict: bool = False) -> RouteResult:
    """The routes earning ``entity`` the most with its trains that may still run, in the
    ``run_routes`` format. ``proven`` is False if the time budget ran out first (the best
    routes found are returned) or the title changes rules the finder is not told about
    (``stats["uncovered"]``). The answer is always checked by the engine; should the engine
    refuse it (a title hook disagreeing with its check), the search is redone checking every
    candidate with the engine (as ``strict`` does from the start)."""
    start = time.perf_counter()
    gc_was_enabled = gc.isenabled()
    gc.disable()  # the search makes many small acyclic objects: no cycles to collect
    try:
        result = _search(game, entity, start + budget_s, strict)
        if not result[2] and not strict:
            result = _search(game, entity, start + budget_s, True)
            result[3]["strict_retry"] = True
    finally:
        if gc_was_enabled:
            gc.enable()
    routes, proven, accepted, stats = result
    dicts = [route_dict(r) for r in routes] if accepted else []
    stats["accepted"] = accepted
    return RouteResult(dicts, sum(d["revenue"] for d in dicts), proven and accepted,
                       (time.perf_counter() - start) * 1000.0, stats)


def _search(game, entity, deadline: float, strict: bool) -> Tuple[list, bool, bool, dict]:
    """One search: (engine routes, proven, accepted by the engine, statistics)."""
    finder = _Finder(game, entity, deadline, strict)
    try:
        proven = finder.run()
    except SearchTimeout:
        proven = False
    routes = finder.routes()
    stats = dict(finder.stats, nodes=len(finder.net.nodes), chains=len(finder.net.chains))
    return routes, proven, check_set(game, entity, routes), stats
