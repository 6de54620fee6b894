"""The route finder's model of each train on an operator's network (the network itself:
``tracklayer.finder.graph``; see ``tracklayer.finder`` for the method)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, NamedTuple, Optional

from ..errors import GameError
from ..rules import board, revenue
from ..rules.table import Table
from ..rules.variant import Variant
from .graph import Leg, Network

# Measures of a train's reach are packed into one integer, FIELD bits each, every field
# holding GUARD + what is left: a field that goes below GUARD has been overspent.
FIELD = 24
GUARD = 1 << (FIELD - 1)
FIELD_MASK = (1 << FIELD) - 1

@dataclass(frozen=True)
class TitleRules:
    """Which of the common route rules the title changes, as far as the finder cares.

    When a title changes a scoring rule, each candidate route is scored by the engine;
    when it adds route checks, each candidate is checked by the engine; with rules on
    sets of routes, each set. A title that changes how far a train reaches without the
    hooks that tell the finder how (``reach_limits``, ``stop_reach_cost``,
    ``chain_reach_cost``) leaves the finder's model possibly stricter than the rule: its
    answer is then not proven optimal."""

    scoring: bool          # route_bonus
    bonus_bound: bool      # route_bonus_bound
    route_checks: bool     # route_problem
    set_checks: bool       # routes_problem
    reach: bool            # check_reach
    reach_model: bool      # reach_limits, stop_reach_cost or chain_reach_cost

    @classmethod
    def of(cls, table: Table) -> "TitleRules":
        kind = type(table.variant)
        return cls(
            scoring=kind.route_bonus is not Variant.route_bonus,
            bonus_bound=kind.route_bonus_bound is not Variant.route_bonus_bound,
            route_checks=kind.route_problem is not Variant.route_problem,
            set_checks=kind.routes_problem is not Variant.routes_problem,
            reach=kind.check_reach is not Variant.check_reach,
            reach_model=(kind.reach_limits is not Variant.reach_limits
                         or kind.stop_reach_cost is not Variant.stop_reach_cost
                         or kind.chain_reach_cost is not Variant.chain_reach_cost))

    def uncovered(self) -> List[str]:
        """Rules changed without the hooks that would tell the finder how: with any, the
        finder's answer is legal but not proven best."""
        out = []
        if self.reach and not self.reach_model:
            out.append("check_reach")
        if self.scoring and not self.bonus_bound:
            out.append("route_bonus")
        return out


# ---------------------------------------------------------------------------------------------
# One train's rules, compiled for the search


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
    bonus: int          # at most what the leg adds to the route's bonus (its hexes, stop b)
    gain: int           # what the leg adds to the route's revenue as the search counts it
    pos: int = 0        # its place among the legs from its stop (routes are ordered by it)


class Bundle(NamedTuple):
    """The legs a train may run from one stop to the same next stop ``b``, taken as one
    step of a stop sequence at its most favourable: the track all of them hold, the least
    reach any uses, the most revenue any adds, the fewest terminal pieces. A sequence of
    bundles that cannot earn enough rules out every route along those stops; one that can
    is realised leg by leg (``members``, in their order)."""

    b: int
    bit: int
    mask: int
    cost: int
    t_first: bool
    t_last: bool
    terminals: int
    npaths: int
    gain: int
    members: tuple
    several: int        # 1 if more than one leg leads there, else 0


class TrainModel:
    """A train's view of the network: what each stop pays and uses of its reach, which legs
    it may run and what they use, and the bound on what an unfinished route can still add.

    Reach is packed into one integer (see ``FIELD``): ``limit_packed`` holds GUARD + limit
    per measure, costs are subtracted, and a route is within reach while every guard bit
    (``guard_all``) is still set."""

    def __init__(self, table: Table, entity, train, net: Network,
                 others: Iterable["TrainModel"] = ()) -> None:
        self.train = train
        v = table.variant
        self.values = [v.stop_value(table, n, train) for n in net.nodes]
        limits = v.reach_limits(table, train)
        self.measures = sorted(limits)
        self.limits = [int(limits[m]) for m in self.measures]
        self.limit_packed = sum((GUARD + v) << (FIELD * i) for i, v in enumerate(self.limits))
        self.guard_all = sum(GUARD << (FIELD * i) for i in range(len(self.measures)))
        stop_costs = [v.stop_reach_cost(table, train, n) for n in net.nodes]
        self.stop_cost = [self._pack(c) for c in stop_costs]
        self.bonus = v.route_bonus_bound(table, entity, train)
        self._may_use: Dict[int, bool] = {}     # by rail, see _chain_cost
        # the common rule (a train may use any rail but of a gauge it cannot use), with no
        # such gauge: every rail, none to ask about
        self._every_rail = type(v).train_may_use is Variant.train_may_use and \
            v.gauge_a_train_cannot_use(train) is None
        chain_costs = [self._chain_cost(table, paths) for _, _, paths in net.chains]
        packed = [None if c is None else self._pack(c) for c in chain_costs]
        self._prepare_bonus_parts(table, net)
        self.additive = self.pays_every_stop(train) and (
            self.exact_bonus or (not TitleRules.of(table).scoring and self.bonus == 0))
        # what its legs, its walk's moves and its bound are made of (all but the limits)
        self.basis = (self.measures, self.pays, self.stop_bonus, self.chain_bonus,
                      self.exact_bonus, self.bonus, self.stop_cost, packed, stop_costs,
                      chain_costs)
        like = next((m for m in others if m.basis == self.basis), None)
        if like is not None:
            self._share(like)
            return
        self.legs_from = [self._steps(legs, packed) for legs in net.legs_from]
        self.bundles_from = [self._bundles(steps) for steps in self.legs_from]
        n = len(net.nodes)
        # the walk's view of the bundles: where each leads, what it rules out of the stops
        # (the stop's bit, and above the n stops' bits its groups), its track, reach,
        # terminal track, paths and revenue, then the bundle
        self.moves_from = [[(bd.b, bd.bit | (net.groups[bd.b] << n), bd.mask, bd.cost,
                             bd.t_first, bd.t_last, bd.terminals, bd.npaths, bd.gain, bd)
                            for bd in bundles] for bundles in self.bundles_from]
        self.later: Dict[tuple, list] = {}      # see moves_later
        # the least any move uses of each measure (packed): a walk with less left of one
        # can take no further move
        self.least_move = self._least_cost([st for steps in self.legs_from for st in steps]) \
            if any(self.legs_from) else 0
        # with one leg to each next stop, the walk meets routes in the order of their keys
        self.parallel = any(bd.several for bundles in self.bundles_from for bd in bundles)
        self._prepare_bound(net, stop_costs, chain_costs)
        # extra_bound by (stops visited, reach left): the walks meet the same ones often
        self.bounds: Dict[tuple, float] = {}

    def _share(self, like: "TrainModel") -> None:
        """Take the legs, the walk's moves and the bound (with their memos) of ``like``, a
        train that sees the network as this one does: the same stop values, reach costs
        and bonus parts, only other limits. None of them reads the limits (the reach left
        is what a walk carries), so they are the same, worked out once."""
        self.legs_from, self.bundles_from = like.legs_from, like.bundles_from
        self.moves_from, self.later, self.parallel = like.moves_from, like.later, like.parallel
        self.least_move = like.least_move
        self.measure_bounds, self.all_values = like.measure_bounds, like.all_values
        self.bounds = like.bounds

    def moves_later(self, stop: int, after: int) -> list:
        """The walk's moves from ``stop`` (see ``moves_from``) to stops later in the network
        than ``after``, in their order (kept in ``later`` once asked for)."""
        got = self.later.get((stop, after))
        if got is None:
            got = self.later[stop, after] = [m for m in self.moves_from[stop] if m[0] > after]
        return got

    # -- reach -----------------------------------------------------------------------------

    def _pack(self, costs: dict) -> int:
        """Pack a measure → amount dict; amounts are capped at GUARD, more than any limit
        (a field holds GUARD plus its limit): still refused, and never taking from the next
        field. The same for every train, so trains that differ only in their limits pack
        the same costs (see :meth:`_share`). A measure the train has no limit for may not
        be used at all."""
        out = 0
        for m, amount in costs.items():
            if m not in self.measures:
                if amount:
                    raise GameError(f"unknown distance measure {m!r} for train "
                                    f"{self.train.name}")
                continue
            i = self.measures.index(m)
            out |= min(int(amount), GUARD) << (FIELD * i)
        return out

    def _chain_cost(self, table: Table, paths: tuple) -> Optional[dict]:
        """What running along a chain uses of the reach, None if the train may not."""
        v = table.variant
        may_use = self._may_use
        for p in () if self._every_rail else paths:
            ok = may_use.get(id(p))
            if ok is None:
                ok = may_use[id(p)] = v.train_may_use(table, self.train, p)
            if not ok:
                return None
        return v.chain_reach_cost(table, self.train, list(paths))

    def _steps(self, legs: List[Leg], chain_costs: list) -> List[Step]:
        """The legs from one stop this train may run (``chain_costs``: each chain's, packed;
        None where the train may not run), most valuable next stop first."""
        runnable = [leg for leg in legs if chain_costs[leg.chain] is not None]
        values, stop_cost, pays = self.values, self.stop_cost, self.pays
        chain_bonus, stop_bonus = self.chain_bonus, self.stop_bonus
        runnable.sort(key=lambda leg: -values[leg.b])
        exact = self.exact_bonus
        out = []
        for pos, leg in enumerate(runnable):
            b, ci = leg.b, leg.chain
            share = chain_bonus[ci]
            out.append(Step(b, 1 << b, leg.mask, chain_costs[ci] + stop_cost[b], leg.t_first,
                            leg.t_last, leg.terminals, len(leg.paths), leg,
                            share + stop_bonus[b], pays[b] + share if exact else pays[b], pos))
        return out

    def _bundles(self, steps: List[Step]) -> List[Bundle]:
        """The legs from one stop grouped by the stop they lead to (see :class:`Bundle`),
        in the order of their first leg."""
        by_stop: Dict[int, List[Step]] = {}
        for st in steps:
            by_stop.setdefault(st.b, []).append(st)
        out = []
        for b, members in by_stop.items():
            st = members[0]
            if len(members) == 1:
                out.append(Bundle(b, st.bit, st.mask, st.cost, st.t_first, st.t_last,
                                  st.terminals, st.npaths, st.gain, (st,), 0))
                continue
            mask, t_first, t_last = st.mask, st.t_first, st.t_last
            terminals, npaths, gain = st.terminals, st.npaths, st.gain
            for st in members[1:]:
                mask &= st.mask
                t_first = t_first or st.t_first
                t_last = t_last or st.t_last
                terminals = min(terminals, st.terminals)
                npaths = min(npaths, st.npaths)
                gain = max(gain, st.gain)
            out.append(Bundle(b, members[0].bit, mask, self._least_cost(members), t_first,
                              t_last, terminals, npaths, gain, tuple(members), 1))
        return out

    def _least_cost(self, steps: List[Step]) -> int:
        """The least each measure's field holds among the steps' packed costs."""
        if len(self.measures) == 1:
            return min(st.cost for st in steps)
        out = 0
        for i in range(len(self.measures)):
            field = FIELD * i
            out |= min((st.cost >> field) & FIELD_MASK for st in steps) << field
        return out

    def _prepare_bonus_parts(self, table: Table, net: Network) -> None:
        """With a bonus made of parts (``Variant.route_bonus_parts``): each stop's part
        (``stop_bonus``) and each chain's, the parts of the hexes its track runs through
        (``chain_bonus``). A route's bonus is at most its stops' parts and its legs' (a hex
        several legs run through counted for each), a far closer bound than
        ``route_bonus_bound``: only routes whose plain revenue with that bound beats the
        best so far are scored by the engine (``bonus_parts``).

        When every hex with a part carries one rail and no stop, no two legs of a route
        run through it (they never share track), so the parts add up to the bonus exactly
        (``exact_bonus``): the search then counts them itself, each stop paying its value
        and part (``pays``), each leg its hexes' parts, and bounds what is still to come
        by the parts of all those hexes (``bonus``)."""
        parts = table.variant.route_bonus_parts(table, self.train)
        n = len(net.nodes)
        self.bonus_parts = parts is not None
        self.exact_bonus = False
        self.pays = list(self.values)
        if parts is None:
            self.stop_bonus = [0] * n
            self.chain_bonus = [0] * len(net.chains)
            return
        self.stop_bonus = [parts.per_stop(node) for node in net.nodes]
        self.chain_bonus, marked = _bonus_shares(net, parts.per_hex)
        once = net.passed_once
        for h in marked - once.keys():
            once[h] = _passed_once(table, h)
        if all(once[h] for h in marked):
            self.exact_bonus = True
            self.pays = [value + extra for value, extra in zip(self.values, self.stop_bonus)]
            self.bonus = sum(parts.per_hex[h] for h in marked)

    def bonus_at_most(self, bwd: tuple, fwd: tuple) -> int:
        """At most the bonus of the route the search holds (see
        :meth:`_prepare_bonus_parts`): its anchor's part and its legs'."""
        return self.stop_bonus[fwd[0].leg.a] + sum(st.bonus for st in fwd) + \
            sum(st.bonus for st in bwd)

    @staticmethod
    def pays_every_stop(train) -> bool:
        """Does the train pay for every stop it may visit (so revenue is a plain sum)?"""
        distance = train.variant.distance
        if isinstance(distance, int):
            return True
        return all(r.pay >= r.visits for r in distance)

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
                if not reach[v] or self.pays[v] <= 0:
                    continue
                cost = int(stop_costs[v].get(m, 0)) + least[v].get(m, 0)
                if cost <= 0:
                    free.append((1 << v, self.pays[v]))
                else:
                    costly.append((1 << v, self.pays[v], cost))
                    total_cost += cost
            costly.sort(key=lambda t: -t[1] / t[2])
            # each stop using one unit: the knapsack takes the best stops, whole
            unit = [(bit, value) for bit, value, _ in costly] \
                if all(cost == 1 for _, _, cost in costly) else None
            self.measure_bounds.append((i, free, costly, total_cost, unit))
        self.all_values = [(1 << v, self.pays[v]) for v in range(n)
                           if reach[v] and self.pays[v] > 0]

    def extra_bound(self, visited: int, rem: int) -> float:
        """At most what stops not yet ``visited`` can add with reach ``rem`` left: for each
        measure a fractional knapsack (value per unit of the measure), the least of them."""
        best = None
        for i, free, costly, total_cost, unit in self.measure_bounds:
            left = ((rem >> (FIELD * i)) & FIELD_MASK) - GUARD
            if left >= total_cost:
                continue
            s = 0.0
            for bit, value in free:
                if not visited & bit:
                    s += value
            if unit is not None:
                for bit, value in unit if left > 0 else ():
                    if not visited & bit:
                        s += value
                        left -= 1
                        if not left:
                            break
                if best is None or s < best:
                    best = s
                continue
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


def _bonus_shares(net: Network, per_hex: dict) -> tuple:
    """Each chain's share of a bonus with ``per_hex`` for the hexes it runs through, and
    the hexes of the network's chains with a part (kept in ``net.bonus_shares``)."""
    key = tuple(per_hex.items())
    got = net.bonus_shares.get(key)
    if got is None:
        with_part = {h for h, part in per_hex.items() if part}
        on_chains = [{r.hex for r in paths if r.hex in with_part} for _, _, paths in net.chains]
        got = net.bonus_shares[key] = (
            [sum(per_hex[h] for h in hexes) if hexes else 0 for hexes in on_chains],
            set().union(*on_chains))
    return got


def _passed_once(table: Table, hex_id: str) -> bool:
    """Does the tile on the hex carry one rail and no stop (so that no two legs of a
    route run through it)?"""
    view = board.view(table, hex_id)
    return len(view.rails) <= 1 and not view.nodes


__all__ = ["revenue"]
