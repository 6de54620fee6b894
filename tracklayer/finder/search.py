"""The route finder's searches: one train's routes, and the best combination of the
trains' routes (see ``tracklayer.finder`` for the method)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from .model import Leg, Network, TrainModel


class SearchTimeout(Exception):
    """The time budget ran out; ``partial`` is what the interrupted step had found."""

    def __init__(self, partial=None) -> None:
        super().__init__("time budget exhausted")
        self.partial = partial


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
    """Raises SearchTimeout once the deadline has passed (checked every few hundred steps)
    or, with ``max_steps``, once that many steps were taken (a budget that does not depend
    on the machine's speed or load: the same search gives the same answer)."""

    def __init__(self, deadline: float, max_steps: Optional[int] = None) -> None:
        self.deadline = deadline
        self.max_steps = max_steps
        self.ticks = 0

    def tick(self) -> None:
        self.ticks += 1
        if self.ticks & 255 == 1 and (time.perf_counter() > self.deadline or (
                self.max_steps is not None and self.ticks > self.max_steps)):
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
        if model.bonus_parts and rev + model.bonus_at_most(bwd, fwd) <= thr[0]:
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
            b, bit, lmask, cost, _, t_last, terminals, _, _, _, gain = leg
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
            backward(b, visited | bit, mask | lmask, nrem, rev + gain, grp | groups[b],
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
            b, bit, lmask, cost, t_first, t_last, terminals, lnp, _, _, gain = leg
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
            forward(b, visited | bit, mask | lmask, nrem, rev + gain, grp | groups[b],
                    nnp, ntc, anchor)
            fwd.pop()

    banned = 0
    for t in net.tokens:
        rem = model.limit_packed - stop_cost[t]
        if legs_from[t] and rem & guard_all == guard_all:
            forward(t, banned | (1 << t), 0, rem, model.pays[t], groups[t], 0, 0, t)
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
    for items in lists[1:]:         # the first train's list is never looked up by key
        if id(items) not in index:
            index[id(items)] = _users_by_key(items)
    users = [index.get(id(items), {}) for items in lists]
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
            clock.tick()
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


