"""Legal moves: the concrete actions (18xx.games format) the entities that may act now can
take. Each step offers candidates of the kinds it takes (:meth:`Step.candidates`); a
candidate is listed only if the same check that refuses an illegal action accepts it, so
the list and the refusals never disagree. A price paid freely (bids, trains and companies
bought from others) is listed as a range: the action at its least price, with
``price_range: [least, most]`` when the check accepts both ends, and ``price_step`` where
prices go up in steps (1817's bids in $5 or $10; :func:`concrete` makes the action to apply
at a price of one's choosing, :func:`random_price` picks one); train runs as the route
planner's best set.
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
        low = [r for r in ranges if r[1] in found and r[0] in found and price in r[:2]]
        if not low:
            out.append(h)
        elif price == low[0][0]:
            least, most, step = low[0]
            out.append(dict(h, price_range=[least, most], **({"price_step": step}
                                                             if step > 1 else {})))
    return out


def concrete(h: dict, price: Optional[int] = None) -> dict:
    """A listed action made one to apply: at ``price`` (within its range, on its steps;
    the least if not given), without the range."""
    out = {k: v for k, v in h.items() if k not in ("price_range", "price_step")}
    if price is not None:
        low, high = h.get("price_range") or (h.get("price"), h.get("price"))
        step = h.get("price_step", 1)
        if not low <= price <= high or (price - low) % step:
            raise ValueError(f"price {price} is not between {low} and {high}"
                             + (f" in steps of {step}" if step > 1 else ""))
        out["price"] = price
    return out


def random_price(h: dict, rng: random.Random) -> dict:
    """A listed action made one to apply at a price drawn evenly from its range."""
    if "price_range" not in h:
        return concrete(h)
    low, high = h["price_range"]
    step = h.get("price_step", 1)
    return concrete(h, low + step * rng.randint(0, (high - low) // step))


def price_at_most(h: dict, price: int) -> int:
    """The dearest price of a listed action's range not above ``price`` (its least if
    ``price`` is below the range)."""
    low, high = h.get("price_range") or (h.get("price"), h.get("price"))
    step = h.get("price_step", 1)
    price = max(low, min(price, high))
    return price - (price - low) % step


class Offer:
    """What steps need to make candidates: price ranges, and the route planner."""

    def __init__(self, rng: random.Random, planner: Optional[Callable]) -> None:
        self.rng = rng
        self.planner = planner
        self.ranges: set = set()

    def prices(self, low: int, high: int, step: int = 1) -> List[int]:
        """The two ends of a range of prices from ``low`` up in steps of ``step`` to at most
        ``high`` (none if it is empty), to be listed as one action with its range
        (:func:`with_ranges`)."""
        if low > high:
            return []
        high -= (high - low) % step
        if low < high:
            self.ranges.add((low, high, step))
        return [low] if low == high else [low, high]
