"""The Old Prince 1871 — the operating round ("Provozní kolo").

* Floated corporations operate by share price, the PEIR last.
* Dividends: the PEIR pays out, pays half or withholds, each of its shares earning the
  revenue divided by their number, rounded up; half keeps half the revenue rounded up.
  Other corporations pay out or withhold; their shares in the market and their own
  buyable ones pay the corporation; the price moves right only on a full payout, left
  when nothing is paid; at the 400 cell each share earns 40 more.
* The PEIR need not own a train and buys at most one train from the depot a turn.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...actions import new_action
from ...rules import certificates, money, operators, trains
from ...rules.market import Direction
from ...state.model import CorporationState
from ...turns.companies import BuyCompanyStep
from ...turns.operating import DividendStep, RouteStep, TokenStep, TrackStep
from ...turns.round import OperatingRound
from ...turns.step import handles
from ...turns.trains import BankruptcyStep, BuyTrainStep, DiscardStep
from . import data
from .notes import notes

PEIR = data.PEIR.sym


def is_peir(entity) -> bool:
    return isinstance(entity, CorporationState) and entity.sym == PEIR


class PrinceOperatingRound(OperatingRound):
    def choose_entities(self) -> list:
        """By share price, the PEIR last."""
        order = operators.operating_order(self.table)
        return [c for c in order if not is_peir(c)] + [c for c in order if is_peir(c)]

    def reorder_rest(self) -> None:
        rest = self.entities[self.index + 1:]
        del self.entities[self.index + 1:]
        self.entities.extend(e for e in self.choose_entities() if e in rest)


class PrinceDividend(DividendStep):
    """See the module docstring."""

    def kinds_of(self, entity) -> tuple:
        return ("payout", "half", "withhold") if is_peir(entity) else self.KINDS

    def candidates(self, entity, kind, offer) -> list:
        if kind != "dividend":
            return super().candidates(entity, kind, offer)
        return [new_action("dividend", entity, kind=k) for k in self.kinds_of(entity)]

    @handles("dividend")
    def declare(self, action):
        """The PEIR may also pay half."""
        if is_peir(action.entity) and action.dividend == "half":
            return lambda: self.pay(action.entity, "half")
        return super().declare(action)

    def split(self, entity, kind, revenue):
        """Half keeps half the revenue, rounded up."""
        if kind == "half":
            kept = math.ceil(revenue / 2)
            return kept, revenue - kept
        return super().split(entity, kind, revenue)

    def trains_have_run(self, entity) -> None:
        """The trains that ran are remembered (a 4+ that never ran is made obsolete, not
        rusted, by the D)."""
        notes(self.table).ran.update(r.train.id for r in self.round.notes.routes)
        super().trains_have_run(entity)

    def price_moves(self, entity, paid: int):
        """Right only when the whole revenue is paid out; left when nothing is."""
        if paid == 0:
            return [(Direction.LEFT, 1)]
        return [(Direction.RIGHT, 1)] if paid >= self.revenue() else []

    def pay_holders(self, entity, paid: int) -> None:
        """The PEIR pays per share, rounded up; at 400 each share earns 40 more."""
        table = self.table
        if is_peir(entity):
            per_share = math.ceil(paid / len(entity.certificates))
            for holder in list(table.state.players) + [table.state.market]:
                count = len(certificates.held(holder, entity))
                if count:
                    to = entity if holder is table.state.market else holder
                    money.pay(table, table.state.bank, to, per_share * count)
            table.log(f"{entity.name} pays out {table.money(paid)}")
            return
        cell = table.cell(entity.price)
        if cell is not None and cell.price == 400:
            paid += data.BONUS_PER_SHARE * certificates.total_shares(entity)
        super().pay_holders(entity, paid)

    def treasury_share(self, entity, per_share: float) -> int:
        """Its own buyable shares and those in the market pay the corporation."""
        own = sum(c.percent for c in certificates.held(entity, entity) if c.buyable)
        share = certificates.share_percent(entity)
        market = certificates.percent_of(self.table.state.market, entity)
        return math.ceil(own / share * per_share) + math.ceil(market / share * per_share)


class PrinceBuyTrain(BuyTrainStep):
    def must_buy(self, entity) -> bool:
        """The PEIR never has to own a train."""
        return not is_peir(entity) and super().must_buy(entity)

    def prepare(self) -> None:
        super().prepare()
        self.from_depot = False

    def depot_offer(self, entity) -> list:
        """The PEIR buys one train a turn from the depot."""
        if is_peir(entity) and self.from_depot:
            return []
        return super().depot_offer(entity)

    def take_train(self, entity, train, variant, price, exchange) -> None:
        if trains.in_depot(train):
            self.from_depot = True
        spare_unrun_trains(self.table, train)
        super().take_train(entity, train, variant, price, exchange)


def spare_unrun_trains(table, bought) -> None:
    """A 4+ that has never run does not rust on the D: it becomes obsolete (it may run
    once more)."""
    ran = notes(table).ran
    for t in table.state.depot.every:
        if t.rusted or t.id in ran or bought.spec.name not in t.variant.rusts_on or \
                t.spec.name not in data.SPARED_UNRUN:
            continue
        t.variant = replace(t.variant, rusts_on=(),
                            obsolete_on=t.variant.obsolete_on + (bought.spec.name,))


class PrinceBuyCompany(BuyCompanyStep):
    def may_buy(self, entity) -> bool:
        """The PEIR never buys the Hunslet."""
        return not is_peir(entity) and super().may_buy(entity)


def operating_round(table, number: int):
    return PrinceOperatingRound(table, [BankruptcyStep, PrinceBuyCompany, TrackStep, TokenStep,
                                        RouteStep, PrinceDividend, DiscardStep, PrinceBuyTrain,
                                        (PrinceBuyCompany, {"holds": True})], number)
