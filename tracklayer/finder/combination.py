"""The route finder's combination of the trains' routes: one route (or none) per train,
no two sharing track, the most revenue in total (see ``tracklayer.finder`` for the
method)."""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

from .graph import BIT_OF, Network, flags_to_bits
from .model import TrainModel
from .search import Found, SearchTimeout, _Clock, _key, _met, _need, search_routes


# ---------------------------------------------------------------------------------------------
# Combining the trains' routes


# Sets of candidates are integers with one bit per candidate (bit ``position``): the index
# by track key is read column by column from the candidates' masks as bytes, each column
# (one byte per candidate) packed into such a set (``flags_to_bits``).
def _everyone(items: list) -> int:
    """The set of all ``items``."""
    return (1 << len(items)) - 1


def _first(items_set: int) -> int:
    """The position of the first item of a non-empty set."""
    return (items_set & -items_set).bit_length() - 1


def _from(position: int) -> int:
    """The set of the items from ``position`` on."""
    return -1 << position


def _users_by_key(items: List[Found]) -> Dict[int, int]:
    """For each track-key bit, the set of ``items`` that hold it."""
    width = (max((f.mask.bit_length() for f in items), default=0) + 7) >> 3
    rows = b"".join(f.mask.to_bytes(width, "little") for f in items)
    out: Dict[int, int] = {}
    for byte in range(width):
        column = rows[byte::width]
        for bit in range(8):
            holders = flags_to_bits(column.translate(BIT_OF[bit]))
            if holders:
                out[1 << (8 * byte + bit)] = holders
    return out


def _blocked_by(mask: int, users: Dict[int, int]) -> int:
    """The set of items sharing track with ``mask``."""
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

    Each list is indexed by track key, so the routes still free for a train are a set
    (``~blocked``, see :func:`_users_by_key`) and its best free route the first: the bound on the trains still
    to choose is the sum of their best free routes."""
    k = len(lists)
    index: Dict[int, Dict[int, int]] = {}
    for items in lists[1:]:         # the first train's list is never looked up by key
        if id(items) not in index:
            index[id(items)] = _users_by_key(items)
    users = [index.get(id(items), {}) for items in lists]
    full = [_everyone(items) for items in lists]
    best = [incumbent, None]
    choice: list = [None] * k
    picked = [0] * k

    def best_free(j: int, blocked: int) -> int:
        free = full[j] & ~blocked
        if not free:
            return 0
        return lists[j][_first(free)].revenue

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
            free &= _from(picked[i - 1])
        while free:
            clock.tick()
            low = free & -free
            idx = _first(low)
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
# Two trains: one walks, bounded by the other's candidates


class Partner:
    """The other train's candidate routes (best first), indexed by track (see
    :func:`combine`): ``blocks`` gives, for the track of each step the walking train may
    take, the set of candidates that step rules out; ``full`` is the set of all of them
    and ``revenues`` their revenues (the walk reads the best still free from these)."""

    def __init__(self, items: List[Found], model: TrainModel) -> None:
        self.items = items
        self.users = _users_by_key(items)
        self.full = _everyone(items)
        self.blocks = {bd.mask: _blocked_by(bd.mask, self.users)
                       for bundles in model.bundles_from for bd in bundles}
        self.revenues = [f.revenue for f in items]

    def best_free(self, mask: int) -> Optional[Found]:
        """The best candidate sharing no track with ``mask`` (the first of equals)."""
        free = self.full & ~_blocked_by(mask, self.users)
        return self.items[_first(free)] if free else None


def best_pair(model: TrainModel, net: Network, partner: Partner, floor: int, clock: _Clock,
              score=None) -> Tuple[int, Optional[list]]:
    """The best pair earning more than ``floor`` (else None): a route of ``model``'s train
    (or none) and the partner's best candidate on the track it leaves free (or none). The
    same pair :func:`combine` would choose from the walking train's routes above the
    floor less the partner's best: of equally good pairs, the one whose first route comes
    first by revenue, then by key (:func:`search_routes`); running nothing comes last.

    The walk meets only the routes whose pair could earn enough: it is bounded by what
    the route can still earn plus the partner's best candidate on the track left free, so
    the walking train's candidates are never listed."""
    best: list = [floor, None, None]    # total, rank of the first route, the pair
    keyed = model.parallel              # else the walk meets routes in the order of keys
    met = [0]

    def sink(rev: int, mask: int, steps: tuple, nf: int, anchor_no: int) -> int:
        other = partner.best_free(mask)
        total = rev + (other.revenue if other is not None else 0)
        met[0] += 1
        if total >= best[0]:
            rank = (-rev, _key(steps, nf, anchor_no) if keyed else met[0])
            if total > best[0] or (best[2] is not None and rank < best[1]):
                best[:] = [total, rank, [_met(rev, mask, steps, nf), other]]
        return best[0] if best[2] is not None else best[0] + 1

    try:
        search_routes(model, net, _need(floor), 0, sink, clock, score, partner=partner)
    except SearchTimeout as e:
        e.partial = (best[0], best[2])
        raise
    if partner.items and partner.items[0].revenue > best[0]:
        best[0], best[2] = partner.items[0].revenue, [None, partner.items[0]]
    return best[0], best[2]
