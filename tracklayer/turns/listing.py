"""Legal moves: the concrete actions (18xx.games format) the entities that may act now can
take. Each step offers candidates of the kinds it takes (:meth:`Step.candidates`); a
candidate is listed only if the same check that refuses an illegal action accepts it, so
the list and the refusals never disagree. A number chosen freely is listed as a range: a
price (bids, trains and companies bought from others) as the action at its least price,
with ``price_range: [least, most]`` when the check accepts both ends, and ``price_step``
where prices go up in steps (1817's bids in $5 or $10); an amount a ``choose`` names (1871's
cash for a branch) likewise with ``choice_range`` (and ``choice_step``). :func:`concrete`
makes the action to apply at a value of one's choosing, :func:`random_value` picks one,
:func:`value_range` reads a listed range whichever field it is on; train runs as the
route planner's best set.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator, List, Optional

from .. import collector
from ..actions import read
from ..errors import GameError
from ..rules import network
from ..rules.table import Table
from ..state.model import CompanyState, CorporationState, OperatorState, PlayerState

SKIPPED = ("message", "end_game")
COMPANY_KINDS = ("buy_shares", "assign", "purchase_train", "lay_tile")


def acting_entities(table: Table) -> list:
    """Who may act now: the round's active entities, the players owning them (who may
    sell shares to help), in a stock round the corporations an acting player presides (who
    may act for them: 1817's loans), and private companies with powers."""
    out = []
    for e in table.round.actors():
        if e is not None and e not in out:
            out.append(e)
            owner = e.owner if isinstance(e, (CompanyState, OperatorState)) else None
            if isinstance(owner, PlayerState) and owner not in out:
                out.append(owner)
    if table.round.is_stock:
        out.extend(c for c in table.state.corporations
                   if c.owner in out and not c.closed and c not in out)
    for c in table.state.companies:
        if not c.closed and isinstance(c.owner, (PlayerState, CorporationState)):
            out.append(c)
    return out


REFUSALS = (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError)
"""What judging a candidate raises when it is not accepted."""


def accepted(table: Table, h: dict, offer: Optional["Offer"] = None) -> bool:
    """Would ``h`` be accepted now (by the check its step applies)? (Read as its step
    made it, if it says so: :meth:`Offer.made`; judged by the step the round has take it,
    :meth:`Offer.taker`.)"""
    try:
        if offer is None:
            table.round.judge(read(table, h))
            return True
        action = offer.read_as(h)
        if action is None:
            action = read(table, h)
        step = offer.taker(table.round, action)
        if step is None:
            return False
        step.judge(action)
    except REFUSALS:
        return False
    return True


def offered(table: Table, offer: "Offer") -> Iterator[dict]:
    """The actions the steps offer now as candidates, before they are judged: for each
    entity that may act, each kind it may take (not ``SKIPPED``, programs, nor a company's
    kinds other than ``COMPANY_KINDS``), from the step that takes it."""
    for entity in acting_entities(table):
        for kind in table.round.kinds_for(entity):
            if kind in SKIPPED or kind.startswith("program_"):
                continue
            if isinstance(entity, CompanyState) and kind not in COMPANY_KINDS:
                continue
            step = table.round.step_for(entity, kind)
            if step is not None:
                yield from step.candidates(entity, kind, offer)


def legal_moves(table: Table, planner: Optional[Callable] = None,
                rng: Optional[random.Random] = None) -> List[dict]:
    """Every legal action found (see the module docstring). The cyclic garbage collector
    waits until the moves are listed (:func:`.collector.paused`): the candidates, the
    actions read of them and what judging them works out are freed as soon as done with
    (:func:`_listed` returns before it resumes, its keys and offer freed: the collector
    then looks only through what is kept)."""
    if table.state.end.finished:
        return []
    rng = rng or random.Random(0)
    listing, table.listing = table.listing, True
    restore = network.checkpoint(table)
    try:
        with collector.paused():
            return _listed(table, Offer(rng, planner))
    finally:
        table.listing = listing
        restore()


def _listed(table: Table, offer: "Offer") -> List[dict]:
    """The candidates offered that are accepted, each once (:func:`_key`), with their
    ranges (:func:`with_ranges`)."""
    out: List[dict] = []
    listed: set = set()
    for h in offered(table, offer):
        key = _key(h)
        if (key in listed if key is not None else h in out) or \
                not accepted(table, h, offer):
            continue
        out.append(h)
        if key is not None:
            listed.add(key)
    return with_ranges(out, offer.ranges)


def _key(h: dict) -> Optional[frozenset]:
    """A candidate as a set key, equal for equal candidates (None if a value cannot be a
    key: such a candidate is looked for among those listed one by one). Candidates are
    listed once each."""
    try:
        return frozenset(h.items())
    except TypeError:
        return None


RANGES = {"price": ("price_range", "price_step"), "choice": ("choice_range", "choice_step")}
"""The fields a listed action may carry a range of values on, with the keys of its range
and of its step."""
RANGE_KEYS = tuple(k for keys in RANGES.values() for k in keys)


def _without(h: dict, field: str) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in h.items() if k != field))


def with_ranges(listed: List[dict], ranges: set) -> List[dict]:
    """The accepted actions, those at both ends of a range offered (``(field, least, most,
    step)``) made one action at the least value with its range (see ``RANGES``)."""
    for field, (range_key, step_key) in RANGES.items():
        offered_here = [r[1:] for r in ranges if r[0] == field]
        if offered_here:
            listed = _ranged(listed, offered_here, field, range_key, step_key)
    return listed


def _ranged(listed: List[dict], ranges: list, field: str, range_key: str,
            step_key: str) -> List[dict]:
    values: dict = {}
    for h in listed:
        if _is_amount(h.get(field)):
            values.setdefault(_without(h, field), set()).add(h[field])
    out: List[dict] = []
    for h in listed:
        value = h.get(field)
        if not _is_amount(value):
            out.append(h)
            continue
        found = values[_without(h, field)]
        low = [r for r in ranges if r[1] in found and r[0] in found and value in r[:2]]
        if not low:
            out.append(h)
        elif value == low[0][0]:
            least, most, step = low[0]
            out.append(dict(h, **{range_key: [least, most]},
                            **({step_key: step} if step > 1 else {})))
    return out


def _is_amount(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def value_range(h: dict) -> Optional[tuple]:
    """A listed action's range as ``(field, least, most, step)``, or None if it has none."""
    for field, (range_key, step_key) in RANGES.items():
        if range_key in h:
            low, high = h[range_key]
            return field, low, high, h.get(step_key, 1)
    return None


def concrete(h: dict, value: Optional[int] = None) -> dict:
    """A listed action made one to apply: at ``value`` (within its range, on its steps; the
    least if not given) on the field its range is on (its price if it has none), without
    the range."""
    out = {k: v for k, v in h.items() if k not in RANGE_KEYS}
    if value is not None:
        field, low, high, step = value_range(h) or ("price", h.get("price"), h.get("price"), 1)
        if low is None or not low <= value <= high or (value - low) % step:
            raise ValueError(f"{field} {value} is not between {low} and {high}"
                             + (f" in steps of {step}" if step > 1 else ""))
        out[field] = value
    return out


def random_value(h: dict, rng: random.Random) -> dict:
    """A listed action made one to apply at a value drawn evenly from its range."""
    found = value_range(h)
    if found is None:
        return concrete(h)
    _field, low, high, step = found
    return concrete(h, low + step * rng.randint(0, (high - low) // step))


def price_at_most(h: dict, price: int) -> int:
    """The dearest value of a listed action's range not above ``price`` (its least if
    ``price`` is below the range; its price if it has no range)."""
    _field, low, high, step = value_range(h) or ("price", h.get("price"), h.get("price"), 1)
    price = max(low, min(price, high))
    return price - (price - low) % step


class Offer:
    """What steps need to make candidates: ranges of prices and amounts, and the route
    planner."""

    def __init__(self, rng: random.Random, planner: Optional[Callable],
                 lay_hexes: Optional[Callable[[object, list], list]] = None) -> None:
        self.rng = rng
        self.planner = planner
        self.ranges: set = set()
        self.lay_hexes = lay_hexes
        self.read: dict = {}
        self.takers: dict = {}

    def made(self, action) -> dict:
        """A candidate a step made already read (``action``, as :func:`read` reads its
        dict, ``action.h``): its dict, judged as that action."""
        h = action.h
        self.read[id(h)] = action       # (which keeps ``h``, and so its id, while kept)
        return h

    def read_as(self, h: dict):
        """The action a step made of the candidate ``h`` (:meth:`made`; None: it is to
        be read)."""
        action = self.read.pop(id(h), None)
        return action if action is not None and action.h is h else None

    def taker(self, round, action):
        """The step ``round`` has take ``action`` (:meth:`Round.step_taking`; None if no
        step may). Which step takes an action depends only on its kind, its entity and the
        position, and judging changes nothing, so while the moves of one position are
        listed this is asked once per kind and entity (``Round.judge`` is that step's
        judging of the action)."""
        key = (action.kind, id(action.entity))
        takers = self.takers
        if key in takers:
            return takers[key]
        try:
            step = round.step_taking(action)
        except REFUSALS:
            step = None
        takers[key] = step
        return step

    def hexes_for_lays(self, entity, hexes: list) -> list:
        """The hexes tile lays are offered on, of those where one may be legal: all of
        them, unless whoever asks (a bot) wants only some (``lay_hexes``: the entity and
        the hexes to the hexes wanted)."""
        return hexes if self.lay_hexes is None else self.lay_hexes(entity, hexes)

    def prices(self, low: int, high: int, step: int = 1, field: str = "price") -> List[int]:
        """The two ends of a range of values of ``field`` (a price, or a ``choose``'s
        amount: ``RANGES``) from ``low`` up in steps of ``step`` to at most ``high`` (none if
        it is empty), to be listed as one action with its range (:func:`with_ranges`)."""
        if low > high:
            return []
        high -= (high - low) % step
        if low < high:
            self.ranges.add((field, low, high, step))
        return [low] if low == high else [low, high]
