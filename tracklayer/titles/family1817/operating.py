"""The 1817 operating round.

At its start the interest rate is fixed from the loans out, and mail contracts pay
corporations that own a train. In its turn a corporation may take loans at any time;
it lays track, places a token, runs, and pays out, pays half or withholds: paying
nothing moves the price left, paying at least the price right, twice the price twice
(a price in the acquisition zone counts as $40). It buys trains (no president's money;
it may take loans for them). Once done with trains it pays its interest (taking loans if
it must; if it cannot, it is liquidated and its president pays), and may then repay
loans, or take more, until it passes. A corporation left with no train is liquidated.
At the end of the round the bank exports the next train (all the 2s the first time).
"""

from __future__ import annotations

from ...actions import new_action
from ...errors import GameError
from ...rules import certificates, finance, money, trains
from ...rules.market import Direction
from ...state.model import CompanyState, CorporationState, PlayerState
from ...turns.operating import DividendStep
from ...turns.round import OperatingRound
from ...turns.step import Step, handles
from ...turns.trains import BuyTrainStep
from . import loans
from .notes import notes

ACQUISITION_PRICE = 40


class LoanStep(Step):
    """Loans in a corporation's turn: taken at any time; after its interest, repaid (not
    after taking one then) or taken, until it passes."""

    NAME = "Take Loans"

    def prepare(self) -> None:
        self.borrowed_after_paying = False

    def describe(self) -> str:
        entity = self.actor()
        return "Payoff Loans" if entity is not None and self.may_repay(entity) else self.NAME

    def paid(self, entity) -> bool:
        return bool(notes(self.table).interest_paid.get(entity.sym))

    def may_repay(self, entity) -> bool:
        return (self.paid(entity) and entity.loans > 0 and not self.borrowed_after_paying
                and entity.cash >= self.table.spec.data.loans.value)

    def holds(self) -> bool:
        """The step holds the turn once the corporation has paid its interest, while it
        may repay a loan or take one: then it may pass (:meth:`kinds`, remembered while
        the position stands)."""
        entity = self.actor()
        if not isinstance(entity, CorporationState) or not self.paid(entity):
            return False
        return "pass" in self.known_kinds(entity)

    def kinds(self, entity):
        if not isinstance(entity, CorporationState) or entity is not self.actor():
            return ()
        repay = self.may_repay(entity)
        borrow = loans.may_borrow(self.table, entity)
        out = (("payoff_loan",) if repay else ()) + (("take_loan",) if borrow else ())
        # Passing where the step holds the turn (:meth:`holds`, from what was just found).
        if repay or (borrow and self.paid(entity)):
            out += ("pass",)
        return out

    def candidates(self, entity, kind, offer) -> list:
        if kind in ("take_loan", "payoff_loan"):
            return [new_action(kind, entity, loan=0)]
        return super().candidates(entity, kind, offer)

    @handles("take_loan")
    def borrow(self, action):
        if not loans.may_borrow(self.table, action.entity):
            raise GameError(f"{action.entity.name} cannot take a loan")

        def commit() -> None:
            if self.paid(action.entity):
                self.borrowed_after_paying = True
            loans.take(self.table, action.entity)
        return commit

    @handles("payoff_loan")
    def repay(self, action):
        if not self.may_repay(action.entity):
            raise GameError(f"{action.entity.name} cannot repay a loan now")
        return lambda: loans.repay(self.table, action.entity)


class TrainsThenInterest(BuyTrainStep):
    """Buying trains, with loans counting towards what the corporation can pay; once done
    the corporation pays its interest."""

    def may_buy_any(self, entity) -> bool:
        """Room for a train, and the money for the cheapest on offer (another
        corporation's sells for as little as $1: the step waits for a pass even when that
        one is in liquidation, as on 18xx.games, though it cannot sell)."""
        table = self.table
        if not trains.has_room(table, entity):
            return False
        power = buying_power(table, entity)
        if any(trains.lowest_price(t) <= power for t in trains.for_sale(table)):
            return True
        return power >= 1 and table.phase.trains_between_companies and bool(
            trains.others_trains(table, entity) or left_behind(table))

    def price_range(self, entity, train) -> tuple:
        """Another corporation's train: from $1 to what the buyer has (no president's
        money in 1817). Once its president has sold shares this turn, a buyer that cannot
        reach the train's price (loans counted) must spend more than all it and its
        president could pay before the last sale, as on 18xx.games: after a sale for $0
        no other corporation's train is within reach."""
        low = 1
        power = buying_power(self.table, entity)
        if self.last_sale_price is not None and power < train.variant.price:
            low = power + money.spendable(entity.owner) - self.last_sale_price + 1
        return low, entity.cash

    def mark_done(self) -> None:
        entity = self.actor()
        super().mark_done()
        if isinstance(entity, CorporationState):
            settle_interest(self.table, entity)


def left_behind(table) -> bool:
    """Trains left with a corporation the bank liquidated: 18xx.games still counts them
    as on offer (for $1) when it asks whether a corporation could buy a train, though
    none can buy them. An obsolete train is never on offer: it cannot be bought."""
    return any(isinstance(t.owner, CorporationState) and t.owner.closed and not t.rusted
               and not t.obsolete for t in table.state.depot.every)


def buying_power(table, corporation) -> int:
    """The corporation's cash and the loans it could still take (the bank's loans left
    counted only when it has room for one)."""
    can = loans.most_loans(corporation) - corporation.loans
    if can > 0:
        can = min(can, finance.loans_left(table))
    return corporation.cash + max(0, can) * table.spec.data.loans.value


def settle_interest(table, corporation) -> None:
    """The corporation pays its interest once this turn; if it cannot, it is liquidated:
    its cash goes to its president, who pays what is owed."""
    kept = notes(table)
    if kept.interest_paid.get(corporation.sym):
        return
    kept.interest_paid[corporation.sym] = True
    owed = loans.pay_interest(table, corporation)
    if not owed:
        return
    owner = corporation.owner
    if not isinstance(owner, PlayerState):
        return                             # nobody answers for it any more
    loans.liquidate(table, corporation)
    if corporation.cash > 0:
        money.pay(table, corporation, owner, corporation.cash)
    table.log(f"{corporation.name} cannot afford {table.money(owed)} interest and goes into "
              f"liquidation")
    money.pay(table, owner, table.state.bank, owed, overdraw=True)


class Dividend1817(DividendStep):
    """Pay out, pay half, or withhold (see the module docstring)."""

    KINDS = ("payout", "half", "withhold")

    def split(self, entity, kind: str, revenue: int):
        if kind != "half":
            return super().split(entity, kind, revenue)
        size = certificates.total_shares(entity)
        kept = revenue // 2 if size == 2 else (revenue // 2 // size) * size
        return kept, revenue - kept

    def price_moves(self, entity, paid: int):
        cell = self.table.cell(entity.price)
        price = ACQUISITION_PRICE if cell.kind == "acquisition" else cell.price
        if paid <= 0:
            return [(Direction.LEFT, 1)]
        if paid >= 2 * price:
            return [(Direction.RIGHT, 2)]
        if paid >= price:
            return [(Direction.RIGHT, 1)]
        return []


class OperatingRound1817(OperatingRound):
    """The family's operating round (see the module docstring)."""

    def choose_entities(self) -> list:
        return [c for c in super().choose_entities() if not loans.in_liquidation(self.table, c)]

    def begin(self) -> None:
        table = self.table
        kept = notes(table)
        kept.interest_rate = None
        kept.interest_rate = finance.interest_rate(table)
        kept.interest_paid = {}
        for company in table.state.companies:
            mail = [p for p in company.powers if p.spec.kind == "mail"]
            if mail and isinstance(company.owner, CorporationState):
                company.revenue = mail[0].spec.discount if company.owner.trains else 0
        super().begin()

    def start_operating(self) -> None:
        """A corporation that went into liquidation (its president's bankruptcy) during
        the round does not operate."""
        entity = self.entities[self.index]
        if isinstance(entity, CorporationState) and loans.in_liquidation(self.table, entity):
            return self.advance()
        super().start_operating()

    def after_action(self, action) -> None:
        entity = self.entities[self.index] if self.index < len(self.entities) else None
        if entity is not None and isinstance(entity.owner, PlayerState):
            notes(self.table).crisis_player = entity.owner
        if isinstance(entity, CorporationState) and self.active_step() is None and \
                entity is self.operator and not entity.trains and \
                not loans.in_liquidation(self.table, entity) and \
                not isinstance(action.entity, CompanyState):
            self.table.log(f"{entity.name} has no trains and liquidates")
            loans.liquidate(self.table, entity)
            self.forget()
        if isinstance(entity, CorporationState) and entity is self.operator and \
                not isinstance(entity.owner, PlayerState) and \
                loans.in_liquidation(self.table, entity):
            for step in self.steps:        # its president went bankrupt: its turn ends
                step.mark_done()
            self.forget()
        super().after_action(action)
