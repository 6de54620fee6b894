"""The route finder's searches of one train's routes: the best, and every one above a
threshold (see ``tracklayer.finder`` for the method)."""

from __future__ import annotations

import math
import time
from operator import attrgetter
from dataclasses import dataclass
from typing import Callable, List, Optional

from .graph import Leg, Network
from .model import TrainModel


_POS = attrgetter("pos")
_SEVERAL = attrgetter("several")


class SearchTimeout(Exception):
    """The time budget ran out; ``partial`` is what the interrupted step had found."""

    def __init__(self, partial=None) -> None:
        super().__init__("time budget exhausted")
        self.partial = partial


# ---------------------------------------------------------------------------------------------
# Searching one train's routes


@dataclass(eq=False, slots=True)
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
    """Raises SearchTimeout once the deadline has passed (checked every few hundred steps)
    or, with ``max_steps``, once that many steps were taken (a budget that does not depend
    on the machine's speed or load: the same search gives the same answer). A budget under
    the checks' spacing is checked at every step past it. The walks count their steps
    themselves (``ticks``) and call :meth:`check` when ``ticks`` reaches ``next_check``."""

    def __init__(self, deadline: float, max_steps: Optional[int] = None) -> None:
        self.deadline = deadline
        self.max_steps = max_steps
        self.ticks = 0
        self.next_check = 1
        self.every = 256 if max_steps is None else max(1, min(256, max_steps))

    def tick(self) -> None:
        """One step."""
        self.ticks += 1
        if self.ticks >= self.next_check:
            self.check()

    def check(self) -> None:
        """Raise SearchTimeout if the deadline has passed or the steps are spent; the next
        check ``every`` steps on."""
        self.next_check = self.ticks + self.every
        if time.perf_counter() > self.deadline or (
                self.max_steps is not None and self.ticks > self.max_steps):
            raise SearchTimeout()

    def count(self, steps: int) -> None:
        """Steps taken in bulk (the legs chosen for a sequence of stops): counted now,
        looked at by the next :meth:`tick`."""
        self.ticks += steps


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


def search_routes(model: TrainModel, net: Network, need: int, forbidden: int,
                  sink: Callable[[int, int, tuple, int, int], int], clock: _Clock,
                  score: Optional[Callable[[tuple, tuple], Optional[int]]] = None,
                  ties_at_anchor: bool = False, partner=None) -> None:
    """Depth-first search of the train's routes that avoid track ``forbidden`` and earn at
    least ``need``; each is passed to ``sink(revenue, mask, steps, nf, anchor_no)`` (the
    first ``nf`` steps are the forward part; see :func:`_met`), which returns the new
    ``need``. A route is anchored at its first token city (in map order): from there
    a forward part, then a backward part whose first stop comes later in the network than
    the forward part's (so each route is met once). Its ``key`` (the anchor's place, then
    the places of the forward and of the backward legs among the legs from their stops)
    orders routes as a walk of the legs in their order would meet them: ties go to the
    first. With ``ties_at_anchor`` (``sink`` returning the best revenue so far), the
    ``need`` rises by one at the next anchor once a route is passed on: equally good routes
    matter only from the same anchor. ``score``, if given, returns the route's real revenue
    (None if illegal); the search then bounds with the plain sum of stop values.

    The walk goes from stop to stop (:class:`Bundle`: the legs to one next stop at their
    most favourable), pruned by what the stops could still earn at best. Only where the
    stops so far could earn enough are legs chosen for them, every way the rules allow,
    worked out once along the walk and shared by what follows (:class:`_Realised`); stops
    no choice of legs realises end the walk there.

    With a ``partner`` (another train's candidates, a
    :class:`~tracklayer.finder.combination.Partner`), ``need`` is
    what the two trains must earn together: the walk is bounded by what this train's
    route can still earn plus the partner's best candidate on the track left free, and
    a route is passed on when the pair could earn ``need``.

    The walk keeps the stops visited as bits and, above the network's stops' bits, their
    groups: a next stop is ruled out by one test (``TrainModel.moves_from``)."""
    bundles_from = model.bundles_from
    moves_from = model.moves_from
    moves_later, later = model.moves_later, model.later
    blocks = partner.blocks if partner is not None else None
    # the partner's best candidate still free, read here rather than asked of the partner:
    # the first of its candidates not blocked (sets with one bit per candidate, see
    # combination._first); none when there is no partner
    cap_all = partner.full if partner is not None else 0
    cap_of = partner.revenues if partner is not None else ()
    guard_all = model.guard_all
    least = model.least_move    # no leg can be run once some measure has less left
    passable = net.passable
    groups = net.groups
    extra_bound = model.extra_bound
    bounds = model.bounds
    check = clock.check
    not_in_two = net.not_in_two
    real = _Realised(forbidden, guard_all, clock)
    out = [need]
    found = [False]

    def emit(rev: int, mask: int, nf: int, anchor_no: int, anchor: int, more: int) -> bool:
        """Pass on the real routes along the stops so far earning enough (with ``more``,
        at most what the partner adds); False if no choice of legs realises these stops."""
        if len(path) == 1 and ((1 << anchor) | path[0].bit) & not_in_two:
            return True     # two stops, one where a route of two may not stop
        if any(map(_SEVERAL, path)):
            routes = real.along(nf)
        else:               # one leg to each stop: the walk is the route
            routes = [(mask, 0, rev, 0, 0, False, False, tuple(bd.members[0] for bd in path))]
        for mask, _, got, _, _, _, _, steps in routes:
            if score is not None:
                fwd, bwd = steps[:nf], steps[nf:]
                if got + model.bonus + more < out[0] or (model.bonus_parts and got +
                                                          model.bonus_at_most(bwd, fwd) + more < out[0]):
                    continue
                got = score(bwd, fwd)
                if got is None:
                    continue
            if got + more >= out[0]:
                out[0] = sink(got, mask, steps, nf, anchor_no)
                found[0] = True
        return bool(routes)

    path, known = real.path, real.known
    bonus = 0 if score is None else model.bonus

    def backward(visited: int, mask: int, rem: int, rev: int, tc: int, nf: int,
                 anchor_no: int, anchor: int, last_term: bool, blk: int, moves) -> None:
        """The backward part on from the stop the walk has reached, by ``moves``: each
        stop reached is a step (see ``_Clock``), where the route so far is passed on if it
        could earn enough, and whence the walk goes on while the bound allows (worked out
        here, before going on, rather than on arrival: most stops end the walk)."""
        used = mask | forbidden
        nblk = more = 0             # without a partner
        for b, rules_out, lmask, cost, _, t_last, terminals, _, gain, bundle in moves:
            if visited & rules_out or lmask & used:
                continue
            nrem = rem - cost
            if nrem & guard_all != guard_all:
                continue
            ntc = tc + terminals
            if ntc and ntc - t_last - last_term > 0:
                continue
            clock.ticks += 1
            if clock.ticks >= clock.next_check:
                check()
            nrev = rev + gain
            if blocks:
                nblk = blk | blocks[lmask]
                free = cap_all & ~nblk
                more = cap_of[(free & -free).bit_length() - 1] if free else 0
            top = -1                # at most what routes on from ``b`` earn: nothing
            #                         where no leg can follow (too little reach left)
            if passable[b] and (nrem - least) & guard_all == guard_all:
                nvisited = visited | rules_out
                bound = bounds.get((nvisited, nrem))
                if bound is None:
                    bound = bounds[nvisited, nrem] = extra_bound(nvisited, nrem)
                top = nrev + bound + more
            passing = nrev + bonus + more >= out[0]
            if not passing and top < out[0]:
                continue            # nothing to pass on here, nor further on
            path.append(bundle)
            known.append(None)
            if (not passing or emit(nrev, mask | lmask, nf, anchor_no, anchor, more)) \
                    and top >= out[0]:
                backward(nvisited, mask | lmask, nrem, nrev, ntc, nf, anchor_no, anchor,
                         last_term, nblk, moves_from[b])
            path.pop()
            known.pop()

    def forward(end: int, visited: int, mask: int, rem: int, rev: int, np: int,
                tc: int, anchor: int, anchor_no: int, blk: int) -> None:
        """The walk on from stop ``end`` the forward part has reached (a step already
        counted, the route so far passed on, the bound passed): first the backward parts
        from the anchor, then each next stop of the forward part, as :func:`backward`
        does."""
        nf = len(path)
        if nf:
            # the backward part, its first stop later in the network than the forward
            # part's first: a step (see _Clock), where the forward part's walk has just
            # passed the same bound
            clock.ticks += 1
            if clock.ticks >= clock.next_check:
                check()
            if passable[anchor]:
                moves = later.get((anchor, path[0].b))
                if moves is None:
                    moves = moves_later(anchor, path[0].b)
                if moves:
                    backward(visited, mask, rem, rev, tc, nf, anchor_no, anchor,
                             path[-1].t_last, blk, moves)
            if not passable[end]:
                return
        used = mask | forbidden
        nblk = more = 0             # without a partner
        for b, rules_out, lmask, cost, t_first, t_last, terminals, lnp, gain, bundle in \
                moves_from[end]:
            if visited & rules_out or lmask & used:
                continue
            nrem = rem - cost
            if nrem & guard_all != guard_all:
                continue
            ntc = tc + terminals
            nnp = np + lnp
            if ntc and nnp > 1 and ntc - (path[0].t_first if nf else t_first) - t_last > 0:
                continue
            clock.ticks += 1
            if clock.ticks >= clock.next_check:
                check()
            nrev = rev + gain
            if blocks:
                nblk = blk | blocks[lmask]
                free = cap_all & ~nblk
                more = cap_of[(free & -free).bit_length() - 1] if free else 0
            nvisited = visited | rules_out
            bound = bounds.get((nvisited, nrem))
            if bound is None:
                bound = bounds[nvisited, nrem] = extra_bound(nvisited, nrem)
            top = nrev + bound + more   # at most what routes on from ``b`` earn
            passing = nrev + bonus + more >= out[0]
            if not passing and top < out[0]:
                continue            # nothing to pass on here, nor further on
            path.append(bundle)
            known.append(None)
            if (not passing or emit(nrev, mask | lmask, nf + 1, anchor_no, anchor, more)) \
                    and top >= out[0]:
                if (nrem - least) & guard_all == guard_all:
                    forward(b, nvisited, mask | lmask, nrem, nrev, nnp, ntc, anchor, anchor_no,
                            nblk)
                else:       # no reach left for any leg: only the backward part's step
                    clock.ticks += 1
                    if clock.ticks >= clock.next_check:
                        check()
            path.pop()
            known.pop()

    def from_anchor(t: int, visited: int, rem: int, anchor_no: int) -> None:
        """The walk from the anchor ``t``: a step (see _Clock), on if the bound allows."""
        clock.ticks += 1
        if clock.ticks >= clock.next_check:
            check()
        more = cap_of[(cap_all & -cap_all).bit_length() - 1] if cap_all else 0
        bound = bounds.get((visited, rem))
        if bound is None:
            bound = bounds[visited, rem] = extra_bound(visited, rem)
        if model.pays[t] + bound + more >= out[0]:
            forward(t, visited, 0, rem, model.pays[t], 0, 0, t, anchor_no, 0)

    banned = 0
    try:
        for anchor_no, t in enumerate(net.tokens):
            if ties_at_anchor and found[0]:
                out[0] += 1     # a route from a later anchor comes later: no better
                found[0] = False
            rem = model.limit_packed - model.stop_cost[t]
            if bundles_from[t] and rem & guard_all == guard_all:
                real.start(rem, model.pays[t])
                from_anchor(t, banned | (1 << t) | (groups[t] << len(groups)), rem, anchor_no)
            banned |= 1 << t
    finally:
        # the walks call themselves: unbound, they and all they hold are freed at once,
        # not left to the garbage collector
        del forward, backward, emit, from_anchor


class _Realised:
    """The real partial routes along the stops the walk holds (``path``, bundles: the
    forward part's, then the backward part's), each a tuple (track mask, reach left,
    revenue, terminal pieces, paths, first piece terminal, forward part's last piece
    terminal, steps): worked out for a prefix only when first asked for, then kept while
    the walk is below it. Each leg added is checked as the rules say: no track twice,
    within reach, terminal track only at the route's two ends."""

    def __init__(self, forbidden: int, guard_all: int, clock: _Clock) -> None:
        self.clock = clock
        self.forbidden = forbidden
        self.guard_all = guard_all
        self.path: list = []
        self.known: list = []
        self.root: list = []

    def start(self, rem: int, rev: int) -> None:
        """A walk from an anchor, with reach ``rem`` left and revenue ``rev`` there."""
        self.root = [(0, rem, rev, 0, 0, False, False, ())]

    def along(self, nf: int, j: int = -1) -> list:
        """The real partial routes along ``path[:j + 1]`` (all of it by default), the first
        ``nf`` bundles being the forward part."""
        if j < 0:
            j += len(self.path)
            if j < 0:
                return self.root
        got = self.known[j]
        if got is None:
            before = self.along(nf, j - 1) if j else self.root
            extend = self._forward if j < nf else self._backward
            got = self.known[j] = extend(before, self.path[j])
            self.clock.count(len(got))
        return got

    def _forward(self, states: list, bundle) -> list:
        """Each way to add a leg of ``bundle`` to the forward part."""
        out = []
        guard_all, forbidden = self.guard_all, self.forbidden
        for mask, rem, rev, tc, np, first_t, _, steps in states:
            used = mask | forbidden
            for st in bundle.members:
                if st.mask & used:
                    continue
                nrem = rem - st.cost
                if nrem & guard_all != guard_all:
                    continue
                ntc = tc + st.terminals
                nnp = np + st.npaths
                first = first_t if steps else st.t_first
                if ntc and nnp > 1 and ntc - first - st.t_last > 0:
                    continue
                out.append((mask | st.mask, nrem, rev + st.gain, ntc, nnp, first, st.t_last,
                            steps + (st,)))
        return out

    def _backward(self, states: list, bundle) -> list:
        """Each way to add a leg of ``bundle`` to the backward part."""
        out = []
        guard_all, forbidden = self.guard_all, self.forbidden
        for mask, rem, rev, tc, np, first_t, last_t, steps in states:
            used = mask | forbidden
            for st in bundle.members:
                if st.mask & used:
                    continue
                nrem = rem - st.cost
                if nrem & guard_all != guard_all:
                    continue
                ntc = tc + st.terminals
                if ntc and ntc - st.t_last - last_t > 0:
                    continue
                out.append((mask | st.mask, nrem, rev + st.gain, ntc, np, first_t, last_t,
                            steps + (st,)))
        return out


def legs_of(found_bwd: tuple, found_fwd: tuple) -> tuple:
    """The :class:`Leg` objects of a route from the search's steps, in route order."""
    return _oriented(tuple(st.leg for st in found_bwd), tuple(st.leg for st in found_fwd))


def _need(floor: float) -> int:
    """The least whole revenue earning more than ``floor``."""
    return math.floor(floor) + 1


def _met(rev: int, mask: int, steps: tuple, nf: int) -> Found:
    """A route as :func:`search_routes` passes it on, as a :class:`Found`."""
    return Found(rev, mask, steps[nf:], steps[:nf])


def _key(steps: tuple, nf: int, anchor_no: int) -> tuple:
    """The key ordering routes (see :func:`search_routes`), flat: the anchor's place, the
    forward legs' places, -1, the backward legs' places (a forward part that another
    continues comes first, as a shorter one would)."""
    return (anchor_no, *map(_POS, steps[:nf]), -1, *map(_POS, steps[nf:]))


def best_routes(model: TrainModel, net: Network, forbidden: int, clock: _Clock,
                score=None, floor: float = 0, others: int = 32) -> List[Found]:
    """The train's best routes avoiding track ``forbidden``: the first by key (see
    :func:`search_routes`), then up to ``others`` more earning as much from the same anchor;
    none if none earns more than ``floor``."""
    first: list = [None, None]      # its key, the route
    more: List[Found] = []

    keyed = model.parallel      # else the first met is the first by key

    def sink(rev, mask, steps, nf, anchor_no) -> int:
        if first[1] is None or rev > first[1].revenue:
            first[:] = [keyed and _key(steps, nf, anchor_no), _met(rev, mask, steps, nf)]
            more.clear()
            return rev
        key = keyed and _key(steps, nf, anchor_no)
        if keyed and key < first[0]:
            if len(more) < others:
                more.append(first[1])
            first[:] = [key, _met(rev, mask, steps, nf)]
        elif len(more) < others:
            more.append(_met(rev, mask, steps, nf))
        return rev

    try:
        search_routes(model, net, _need(floor), forbidden, sink, clock, score, True)
    except SearchTimeout as e:
        e.partial = first[1]
        raise
    return [first[1]] + more if first[1] is not None else []


def best_route(model: TrainModel, net: Network, forbidden: int, clock: _Clock,
               score=None, floor: float = 0) -> Optional[Found]:
    """The train's best route avoiding track ``forbidden`` (None if none earns more than
    ``floor``); of equally good routes, the first by key (see :func:`search_routes`)."""
    found = best_routes(model, net, forbidden, clock, score, floor)
    return found[0] if found else None


def routes_above(model: TrainModel, net: Network, threshold: float, clock: _Clock,
                 score=None) -> List[Found]:
    """Every route of the train earning more than ``threshold``, best first (then by key)."""
    met: List[tuple] = []
    need = _need(threshold)

    def sink(*route) -> int:
        met.append(route)       # (revenue, mask, steps, nf, anchor_no)
        return need

    search_routes(model, net, need, 0, sink, clock, score)
    # with one leg to each next stop, routes are met in the order of their keys
    met.sort(key=_rank if model.parallel else _less_revenue)
    return [Found(rev, mask, steps[nf:], steps[:nf]) for rev, mask, steps, nf, _ in met]


def _rank(route: tuple) -> list:
    """Best first, then by key (see :func:`_key`), a route as :func:`routes_above` keeps it
    (a list, compared as the tuple would be: built without slicing the route's steps)."""
    rank = [-route[0], route[4], *map(_POS, route[2])]
    rank.insert(route[3] + 2, -1)
    return rank


def _less_revenue(route: tuple) -> int:
    return -route[0]
