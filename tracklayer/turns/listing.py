"""Legal moves: the concrete actions (18xx.games format) the entities that may act now can
take. Each step offers candidates of the kinds it takes (:meth:`Step.candidates`); a
candidate is listed only if the same check that refuses an illegal action accepts it, so
the list and the refusals never disagree. A price paid freely (bids, trains and companies
bought from others) is listed as a range: the action at its least price, with
``price_range: [least, most]`` when the check accepts both ends (:func:`concrete` makes
the action to apply at a price of one's choosing); train runs as the route planner's best
set.
"""

from __future__ import annotations

import random
from typing import Callable, Iterator, List, Optional

from ..actions import read
from ..errors import GameError
from ..rules import network
from ..rules.table import Table
from ..state.model import CompanyState, CorporationState, OperatorState, PlayerState

SKIPPED = ("message", "end_game")
COMPANY_KINDS = ("buy_shares", "assign")


def acting_entities(table: Table) -> list:
    """Who may act now: the round's active entities, the players owning them (who may
    sell shares to help), and private companies with powers."""
    out = []
    for e in table.round.actors():
        if e is not None and e not in out:
            out.append(e)
            owner = e.owner if isinstance(e, (CompanyState, OperatorState)) else None
            if isinstance(owner, PlayerState) and owner not in out:
                out.append(owner)
    for c in table.state.companies:
        if not c.closed and isinstance(c.owner, (PlayerState, CorporationState)):
            out.append(c)
    return out


def accepted(table: Table, h: dict) -> bool:
    """Would ``h`` be accepted now (by the check its step applies)?"""
    try:
        table.round.judge(read(table, h))
    except (GameError, KeyError, TypeError, ValueError, AttributeError, IndexError):
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
    """Every legal action found (see the module docstring)."""
    if table.state.end.finished:
        return []
    rng = rng or random.Random(0)
    listing, table.listing = table.listing, True
    restore = network.checkpoint(table)
    try:
        offer = Offer(rng, planner)
        out: List[dict] = []
        for h in offered(table, offer):
            if h not in out and accepted(table, h):
                out.append(h)
        return with_ranges(out, offer.ranges)
    finally:
        table.listing = listing
        restore()


def _without_price(h: dict) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in h.items() if k != "price"))


def with_ranges(listed: List[dict], ranges: set) -> List[dict]:
    """The accepted actions, those at both ends of a price range offered made one action
    at the least price with its ``price_range``."""
    prices: dict = {}
    for h in listed:
        if isinstance(h.get("price"), int):
            prices.setdefault(_without_price(h), set()).add(h["price"])
    out: List[dict] = []
    for h in listed:
        price = h.get("price")
        if not isinstance(price, int):
            out.append(h)
            continue
        found = prices[_without_price(h)]
        low = [r for r in ranges if r[1] in found and r[0] in found and price in r]
        if not low:
            out.append(h)
        elif price == low[0][0]:
            out.append(dict(h, price_range=list(low[0])))
    return out


def concrete(h: dict, price: Optional[int] = None) -> dict:
    """A listed action made one to apply: at ``price`` (within its range; the least if
    not given), without the range."""
    out = {k: v for k, v in h.items() if k != "price_range"}
    if price is not None:
        low, high = h.get("price_range") or (h.get("price"), h.get("price"))
        if not low <= price <= high:
            raise ValueError(f"price {price} is not between {low} and {high}")
        out["price"] = price
    return out


class Offer:
    """What steps need to make candidates: price ranges, and the route planner."""

    def __init__(self, rng: random.Random, planner: Optional[Callable]) -> None:
        self.rng = rng
        self.planner = planner
        self.ranges: set = set()

    def prices(self, low: int, high: int) -> List[int]:
        """The two ends of a range of prices (none if it is empty), to be listed as one
        action with its range (:func:`with_ranges`)."""
        if low > high:
            return []
        if low < high:
            self.ranges.add((low, high))
        return [low] if low == high else [low, high]
