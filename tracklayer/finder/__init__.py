"""The optimal route finder ("auto-router"): the routes that earn an operator the most.

Given a game and an operating company, :func:`find_best_routes` returns one route per train
(or none for a train) such that the total revenue is the largest the rules allow, and says
whether that was *proven* within the time budget.

The rules, as the finder applies them (the title's variant hooks, so titles plug in theirs):

* A route is a sequence of *legs*: track between two stops (cities, towns, off-boards)
  that passes no other stop (``tracklayer.rules.routes.trails``).
* It has at least two stops, visits no stop twice and includes a city with one of the
  company's tokens. It may pass through a stop only if that stop does not block the company
  (off-boards always do; so do cities whose slots are all taken by other companies), and
  only its very first and last piece of track may be terminal.
* Stops of the same group (Aachen N1/P1 in 1893) count once per route.
* Reach: every stop and every leg uses some of the train's named measures
  (``stop_reach_cost`` / ``chain_reach_cost``), which may not exceed ``reach_limits`` —
  stops for an n-train, cities and towns separately for 8+x, hexes in 1849. A train uses
  only track ``train_may_use`` lets it.
* No two pieces of track of the company's routes may be the same piece
  (``tracklayer.rules.routes.track_pieces``).
* Revenue: the sum of ``stop_value`` over the stops. When the title adds to it
  (``route_bonus``), or a train pays fewer stops than it visits, each complete route is
  scored by the engine, with that sum plus ``route_bonus_bound`` as the bound — unless the
  title declares its bonus as what its stops and the hexes it runs through add
  (``route_bonus_parts``): the search then bounds each route by those parts, and counts
  them itself where they are exact (every hex with a part carries one rail and no stop).
  When the title adds route checks of its own (``route_problem``), each candidate is also
  checked by the engine — unless they are rules on the stops the search applies itself
  (``route_stop_rules``: one stop per hex, hexes no route ends at, hexes a route of two
  stops may not stop at); with rules on a set of
  routes (``routes_problem``), each set.
* A title that changes ``check_reach`` without the reach hooks, or ``route_bonus``
  without ``route_bonus_bound``, gets legal routes (the engine checks them) but never
  "proven"; so does a company with local (1-stop) trains, which the finder does not run.

Method (exact, branch and bound):

1. *Network*: from the company's token cities, walk the track once; legs become edges of
   a graph of stops, each with a bit mask of the track keys it holds.
2. *Best route per train* (depth-first search over simple paths anchored at a token city,
   pruned by an admissible bound: revenue so far plus a fractional knapsack of the most
   valuable unvisited stops the remaining reach can still pay for). The walk goes from stop
   to stop, the parallel legs to the next stop taken at their most favourable; legs are
   chosen only where the stops could earn enough. Of equally good routes the first by key
   (anchor, then each leg's place among the legs from its stop) is kept.
3. *Incumbent*: trains in order of their best revenue, each taking its best route on track
   the others left free. The same greedy answer in the other orders of up to three trains,
   and with the first train taking any of its equally best routes, gives a floor: a set
   that good exists.
4. *Candidates*: for each train, every route earning more than the floor (the incumbent,
   or the best greedy set less one) minus the best revenues of the other trains (no
   better set can use a poorer route), by the same pruned search.
5. *Combination*: branch and bound over the trains' candidate lists (sorted by revenue),
   each indexed by track key as bit sets, so a train's best route still free is the lowest
   bit of one set; identical trains take routes in list order. Two different trains are
   combined without listing the first's routes: it walks them as in step 2, bounded by what
   its route can still earn plus the second's best candidate on the track left free, and
   each route it meets is paired with that candidate (the same pair, ties included).

Past the time budget the search stops and returns the best set found, marked not proven.
The answer is always checked by the engine in full; were it refused (a title's hooks
disagreeing with its checks), the search is redone checking every candidate by the engine.
"""

from __future__ import annotations

import time
from itertools import permutations
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from .. import collector
from ..errors import GameError
from ..rules import revenue, routes as route_rules
from ..rules.routes import Chain, Route, chain_name
from ..rules.table import Table
from .graph import Leg, Network, network_of
from .model import TitleRules, TrainModel
from .combination import Partner, best_pair, combine
from .search import (Found, SearchTimeout, _Clock, best_route, best_routes, legs_of,
                     routes_above)

DEFAULT_BUDGET_S = 10.0
ALTERNATIVES = 8    # equally good first routes the greedy answers of step 3 try (the
#                     ones holding the least track, which leave the most to the others)


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


def to_route(table: Table, train, legs: Sequence[Leg], net: Network,
             named: bool = True) -> Route:
    """An engine :class:`Route` for ``train`` along ``legs`` (``named``: with each chain's
    name in the action format, needed only to write the route out)."""
    out = []
    for leg in legs:
        a, b = net.nodes[leg.a], net.nodes[leg.b]
        rails = list(leg.paths)
        out.append(route_rules.Leg(a, b, Chain((a, b), rails,
                                               chain_name(rails) if named else None)))
    return Route(table, train, out)


def _signatures(route: Route) -> list:
    out = []
    for leg in route.legs:
        for n in leg.chain.ends:
            sig = f"{n.hex}-{n.index}"
            if sig not in out:
                out.append(sig)
    return out


def route_dict(route: Route) -> dict:
    """A route in the ``run_routes`` action format."""
    return {
        "train": route.train.id,
        "connections": route.connections(),
        "hexes": route.hexes(),
        "revenue": route.revenue,
        "revenue_str": route.describe(),
        "nodes": _signatures(route),
    }


def check_set(table: Table, entity, found: List[Route]) -> bool:
    """Does the engine accept these routes together?"""
    try:
        route_rules.check_run(table, found)
    except GameError:
        return False
    return True


class _Finder:
    """One search: the network, the trains' models, the phases, the best set so far."""

    def __init__(self, table: Table, entity, deadline: float, strict: bool,
                 max_steps: Optional[int] = None) -> None:
        self.table = table
        self.entity = entity
        self.strict = strict
        self.clock = _Clock(deadline, max_steps)
        runnable = [t for t in entity.trains if not t.operated]
        self.trains = [t for t in runnable if not revenue.runs_locally(t)]
        self.skipped_local = len(runnable) - len(self.trains)
        stop_rules = table.variant.route_stop_rules(table)
        self.net = network_of(table, entity, stop_rules is not None and stop_rules.one_per_hex)
        # The title's route rules are applied by the search when they are rules on stops
        # and no stop the network reaches is one a route may not end at.
        modeled = stop_rules is not None and not any(
            n.hex in stop_rules.not_an_end for n in self.net.nodes) and (
            not stop_rules.not_in_two or all(TrainModel.pays_every_stop(t) for t in self.trains))
        self.net.not_in_two = sum(1 << i for i, n in enumerate(self.net.nodes)
                                  if n.hex in stop_rules.not_in_two) if modeled else 0
        self.models: Dict[tuple, TrainModel] = {}
        self.model_of: list = []
        for t in self.trains:
            m = TrainModel(table, entity, t, self.net, self.models.values())
            key = self._model_key(m)
            self.models.setdefault(key, m)
            self.model_of.append(key)
        self.best_set: List[Optional[Found]] = [None] * len(self.trains)
        self.best_total = 0
        rules = TitleRules.of(table)
        uncovered = rules.uncovered()
        self.stats: dict = {"uncovered": list(uncovered)}
        if self.skipped_local:
            self.stats["uncovered"].append("local trains")
        self.check_routes = rules.route_checks and not modeled
        self.check_reach = "check_reach" in uncovered
        self.set_checks = strict or rules.set_checks

    def _model_key(self, m: TrainModel) -> tuple:
        """The key of the model ``m`` among the finder's: trains whose models are alike
        (name, stop values, reach, the legs they may run and what those use, bonus) share
        one; the legs are compared only between trains alike in the rest."""
        plain = (m.train.name, tuple(m.values), m.limit_packed, tuple(m.stop_cost), m.bonus,
                 m.additive)
        for key, other in self.models.items():
            if key[0] == plain and _legs_key(other) == _legs_key(m):
                return key
        return (plain, len(self.models))

    # -- engine scoring and checks, for titles the plain model does not cover ------------

    def check_candidate(self, route: Route) -> None:
        """Raise unless the engine accepts ``route`` on its own: all of ``Route.check`` when
        strict, else the title's checks the finder does not model."""
        table = self.table
        if self.strict:
            route.check([route])
            return
        if self.check_routes:
            table.variant.route_problem(table, route)
        if self.check_reach:
            table.variant.check_reach(table, route, route.visited())

    def scorer(self, model: TrainModel):
        """None if the model's revenue and checks are the title's; else a function giving a
        candidate's revenue by the engine (None if the engine refuses it)."""
        if model.additive and not (self.check_routes or self.check_reach or self.strict):
            return None
        table, net, train = self.table, self.net, model.train

        def score(bwd: tuple, fwd: tuple) -> Optional[int]:
            route = to_route(table, train, legs_of(bwd, fwd), net, named=False)
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
        ties: Dict[tuple, List[Found]] = {}
        for key, m in self.models.items():
            first = self.model_of.index(key)
            try:
                ties[key] = best_routes(m, self.net, 0, self.clock, self.scorer(m))
            except SearchTimeout as e:
                self.offer({first: e.partial})
                raise
            bests[key] = ties[key][0] if ties[key] else None
            self.offer({first: bests[key]})
        best_of_train = [bests[k].revenue if bests[k] else 0 for k in self.model_of]
        keys = list(self.models)
        order = sorted(range(len(self.trains)),
                       key=lambda i: (-best_of_train[i], keys.index(self.model_of[i])))
        self.greedy(order, bests)
        total_best = sum(best_of_train)
        if len(self.trains) > 1 and total_best > self.best_total:
            floor = max(self.best_total, self.greedy_other_orders(order, ties) - 1)
            self.combine(order, [best_of_train[i] for i in order], total_best, floor)
        return complete

    def greedy_other_orders(self, order: List[int], ties: dict) -> int:
        """The most the greedy answer earns with the trains taken in the other orders, and
        in its own order with the first train taking another of its equally best routes (up
        to ``ALTERNATIVES``, those holding the least track first;
        for up to three trains, whose routes the search scores itself, in sets the engine
        checks only route by route): a set at least this good exists, so the candidates of
        step 4 need only reach it, not beat the incumbent. Only a bound: the answer stays
        the combination's (see :meth:`combine`)."""
        top = self.best_total
        if self.set_checks or len(order) > 3 or \
                any(self.scorer(m) is not None for m in self.models.values()):
            return top
        own = tuple(self.model_of[i] for i in order)
        tried = {own}
        for other in permutations(order):
            keys = tuple(self.model_of[i] for i in other)
            if keys not in tried and ties[keys[0]]:
                tried.add(keys)
                top = max(top, self.greedy_total(keys, ties[keys[0]][0], top, ties))
        firsts = sorted(ties[own[0]][1:], key=lambda f: bin(f.mask).count("1"))
        for first in firsts[:ALTERNATIVES]:
            top = max(top, self.greedy_total(own, first, top, ties))
        return top

    def greedy_total(self, keys: tuple, first: Found, top: int, ties: dict) -> int:
        """What the greedy answer earns with the trains in the order of ``keys``, the first
        taking ``first`` and each other its best route on the track left free; each searched
        only for routes that could still lift the total above ``top`` (else the total so
        far)."""
        used, total = first.mask, first.revenue
        for p in range(1, len(keys)):
            later = sum(ties[k][0].revenue for k in keys[p + 1:] if ties[k])
            m = self.models[keys[p]]
            f = best_route(m, self.net, used, self.clock, None, max(0, top - total - later))
            if f is None:
                return total
            used |= f.mask
            total += f.revenue
        return total

    def allowed(self, chosen: Dict[int, Found]) -> bool:
        """May the trains (by index) run the ``chosen`` routes together? (Track is disjoint
        by construction; the engine checks sets only for titles with set rules.)"""
        if not self.set_checks:
            return True
        found = [to_route(self.table, self.trains[i], f.legs, self.net, named=False)
                 for i, f in sorted(chosen.items())]
        return check_set(self.table, self.entity, found)

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

    def combine(self, order: List[int], best_of: List[int], total_best: int,
                floor: int) -> None:
        """Improve on the incumbent: each train's routes that could be part of a set
        earning more than ``floor`` (at least the incumbent's revenue less one when a set
        that good is known to exist: the routes earning more than ``floor`` less the other
        trains' best), combined. The combination keeps the first best set in its order
        whatever the floor below the best, so a higher floor only makes the lists shorter."""
        if len(order) == 2 and not self.set_checks and \
                self.model_of[order[0]] != self.model_of[order[1]]:
            self.combine_pair(order, best_of, total_best, floor)
            return
        lists: List[List[Found]] = []
        cache: Dict[tuple, Tuple[float, List[Found]]] = {}
        for pos, i in enumerate(order):
            key = self.model_of[i]
            threshold = floor - (total_best - best_of[pos])
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
        self.offer_best(order, lambda: combine(lists, same, floor, self.clock, accept))

    def combine_pair(self, order: List[int], best_of: List[int], total_best: int,
                     floor: int) -> None:
        """:meth:`combine` for two different trains: the second's routes that could be part
        of a better pair are listed, the first walks its routes bounded by them
        (:func:`best_pair`: the same answer, without listing the first's routes)."""
        m0, m1 = (self.models[self.model_of[i]] for i in order)
        threshold = floor - (total_best - best_of[1])
        items = routes_above(m1, self.net, max(threshold, 0), self.clock, self.scorer(m1))
        self.stats["candidates"] = ["walk", len(items)]
        self.offer_best(order, lambda: best_pair(m0, self.net, Partner(items, m0), floor,
                                                 self.clock, self.scorer(m0)))

    def offer_best(self, order: List[int], search: Callable[[], tuple]) -> None:
        """Offer the set of routes a combining ``search`` finds (one route per train in
        ``order``, None where a train runs none); cut short by the clock, the best set it
        had found so far is offered before the timeout goes on up."""
        try:
            _, choice = search()
        except SearchTimeout as e:
            if e.partial[1] is not None:
                self.offer(dict(zip(order, e.partial[1])), checked=True)
            raise
        if choice is not None:
            self.offer(dict(zip(order, choice)), checked=True)

    def routes(self) -> List[Route]:
        """The best set found, as engine routes in the order of the company's trains."""
        return [to_route(self.table, t, f.legs, self.net)
                for t, f in zip(self.trains, self.best_set) if f is not None]


def _legs_key(m: TrainModel) -> tuple:
    """The legs a train's model may run and what each uses, to compare models."""
    return tuple(st[:4] for steps in m.legs_from for st in steps)


def recorded_revenue(entry: dict) -> int:
    """The revenue a ``run_routes`` entry records: the sum over its routes."""
    return sum(int(r.get("revenue") or 0) for r in entry.get("routes") or [])


def find_best_routes(table: Table, entity, budget_s: float = DEFAULT_BUDGET_S,
                     strict: bool = False, max_steps: Optional[int] = None) -> RouteResult:
    """The routes earning ``entity`` the most with its trains that may still run, in the
    ``run_routes`` format. ``proven`` is False if the time budget ran out first (the best
    routes found are returned) or the title changes rules the finder is not told about
    (``stats["uncovered"]``). ``max_steps`` also bounds the search by its steps, the same
    on any machine under any load (bots use it, so that their choices are reproducible).
    The answer is always checked by the engine; should the engine
    refuse it (a title hook disagreeing with its check), the search is redone checking every
    candidate with the engine (as ``strict`` does from the start)."""
    start = time.perf_counter()
    with collector.paused():    # the search makes many small acyclic objects
        result = _search(table, entity, start + budget_s, strict, max_steps)
        if not result[2] and not strict:
            result = _search(table, entity, start + budget_s, True, max_steps)
            result[3]["strict_retry"] = True
    routes, proven, accepted, stats = result
    dicts = [route_dict(r) for r in routes] if accepted else []
    stats["accepted"] = accepted
    return RouteResult(dicts, sum(d["revenue"] for d in dicts), proven and accepted,
                       (time.perf_counter() - start) * 1000.0, stats)


def _search(table: Table, entity, deadline: float, strict: bool,
            max_steps: Optional[int] = None) -> Tuple[list, bool, bool, dict]:
    """One search: (engine routes, proven, accepted by the engine, statistics)."""
    finder = _Finder(table, entity, deadline, strict, max_steps)
    try:
        proven = finder.run()
    except SearchTimeout:
        proven = False
    routes = finder.routes()
    stats = dict(finder.stats, nodes=len(finder.net.nodes), chains=len(finder.net.chains))
    return routes, proven, check_set(table, entity, routes), stats


def plan_routes(table: Table, entity, max_steps: Optional[int] = None) -> List[dict]:
    """The best routes for ``entity`` in the ``run_routes`` format (the planner the game
    lists moves with; ``max_steps`` as for :func:`find_best_routes`)."""
    listing, table.listing = table.listing, True
    try:
        return find_best_routes(table, entity, max_steps=max_steps).routes
    finally:
        table.listing = listing
