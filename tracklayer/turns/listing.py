"""Legal moves: the concrete actions (18xx.games format) the entities that may act now can
take. Each step offers candidates of the kinds it takes (:meth:`Step.candidates`); a
candidate is listed only if the same check that refuses an illegal action accepts it, so
the list and the refusals never disagree. Prices paid freely (bids, trains and companies
bought from others) are offered at their least, their most and a value between; train
runs as the route planner's best set.
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
COMPANY_KINDS = ("buy_shares", "assign", "purchase_train")


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


def offered(table: Table, planner, rng: random.Random) -> Iterator[dict]:
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
                yield from step.candidates(entity, kind, Offer(rng, planner))


def legal_moves(table: Table, planner: Optional[Callable] = None,
                rng: Optional[random.Random] = None) -> List[dict]:
    """Every legal action found (see the module docstring)."""
    if table.state.end.finished:
        return []
    rng = rng or random.Random(0)
    listing, table.listing = table.listing, True
    restore = network.checkpoint(table)
    try:
        out: List[dict] = []
        for h in offered(table, planner, rng):
            if h not in out and accepted(table, h):
                out.append(h)
        return out
    finally:
        table.listing = listing
        restore()


class Offer:
    """What steps need to make candidates: random prices, and the route planner."""

    def __init__(self, rng: random.Random, planner: Optional[Callable]) -> None:
        self.rng = rng
        self.planner = planner

    def prices(self, low: int, high: int) -> List[int]:
        """The least, the most and a price between (none if the range is empty)."""
        if low > high:
            return []
        return sorted({low, high, self.rng.randint(low, high)})
