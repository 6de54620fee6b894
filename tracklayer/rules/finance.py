"""Raising money in an emergency, and bankruptcy.

A president whose company must buy a train it cannot afford adds cash, selling shares
if need be (only as many as needed). One who still cannot raise enough for the cheapest
train goes bankrupt: what may be sold is sold, the rest of their cash goes to the bank,
and they leave the game (or, in 1849, may take a loan instead).

Loans from the bank (a title with ``TitleData.loans``, 1817): a fixed number of loans of
a fixed value; the interest rate follows how many are out (``LoanSpec.rate_for``).
"""

from __future__ import annotations

from typing import Callable

from ..errors import GameError
from ..spec.settings import SaleTiming
from ..state.model import CorporationState
from . import certificates, market, money, operators, trading, trains
from .certificates import bundle_price
from .table import Table

SaleRule = Callable[[object, certificates.Bundle], bool]


def may_sell_this_round(table: Table) -> bool:
    """Whether shares may be sold at all now (not in the first stock round, where the
    title says so)."""
    if table.settings.sale_timing is SaleTiming.AFTER_FIRST_STOCK_ROUND:
        return table.turn > 1 or not table.round.is_stock
    return True


def best_sale(table: Table, player, corporation: CorporationState, may_sell: SaleRule) -> int:
    bundles = [b for b in trading.sale_bundles(table, player, corporation) if may_sell(player, b)]
    return max((bundle_price(table, b) for b in bundles), default=0)


def emergency_cash(table: Table, player, may_sell: SaleRule) -> int:
    """The player's cash plus the most each of their holdings could fetch now, and the
    companies the bank buys back at face value where it buys them now: only in a stock
    round (1893's bonds are bought and sold in stock rounds alone, so a president short of
    a train in an operating round cannot count on them; 18xx.games counts them there)."""
    if not may_sell_this_round(table):
        return player.cash
    value = player.cash
    for sym, certs in list(player.shares.items()):
        if certs:
            value += best_sale(table, player, certs[0].corporation, may_sell)
    if table.round.is_stock:
        value += sum(c.value for c in player.companies if c.spec.bank_buys)
    return value


def may_go_bankrupt(table: Table, player, operator, may_sell: SaleRule) -> bool:
    """Bankruptcy is allowed when the company's cash, the president's cash and all they
    may sell come short of the cheapest train in the depot."""
    power = emergency_cash(table, player, may_sell)
    if operator is not None:
        power += operator.cash
    return power < trains.cheapest_price(table)


def bankruptcy_refusal(table: Table, player, operator, may_sell: SaleRule) -> str:
    power = emergency_cash(table, player, may_sell) + (operator.cash if operator else 0)
    return (f"{player.name} cannot go bankrupt: {operator.name}'s cash plus {player.name}'s "
            f"cash and sellable shares total {table.money(power)}, and the cheapest train "
            f"costs {table.money(trains.cheapest_price(table))}")


def sell_what_may_be_sold(table: Table, player, may_sell: SaleRule,
                          moved: list = None) -> None:
    """A bankrupt player sells, corporation by corporation in operating order, the most
    valuable bundle they may, again and again."""
    table.log(f"-- {player.name} goes bankrupt and sells remaining shares --")
    held = [certs[0].corporation for certs in player.shares.values() if certs]
    for corporation in operators.by_price(table, held):
        if corporation.price is None:
            continue
        while True:
            bundles = [b for b in trading.sale_bundles(table, player, corporation)
                       if may_sell(player, b)]
            if not bundles:
                break
            trading.sell(table, max(bundles, key=lambda b: bundle_price(table, b)))


def declare_bankrupt(table: Table, player) -> None:
    if player.bankrupt:
        raise GameError(f"{player.name} is already bankrupt")
    player.bankrupt = True


def leave_with_nothing(table: Table, player) -> None:
    money.settle(table, player, 0, table.state.bank)


__all__ = ["market"]


# -- loans from the bank ------------------------------------------------------------------------


def loans_out(table: Table) -> int:
    """How many of the bank's loans are owed: by corporations, and put aside while a
    liquidation settles (:func:`put_aside_loans`). Kept until a corporation's loans
    change (:func:`_forget_loans_out`): 1817 asks it for every loan a corporation could
    take, over dozens of corporations."""
    total = table.derived.loans_out
    if total is None:
        total = table.state.bank.loans_aside
        for c in table.state.corporations:   # (a loop: for a few dozen, cheaper than sum(map()))
            total += c.loans
        table.derived.loans_out = total
    return total


def _forget_loans_out(table: Table) -> None:
    """A corporation's loans changed: :func:`loans_out` is counted again. (This module
    is the only writer of a corporation's loans: each change drops the count here.)"""
    table.derived.loans_out = None


def loans_left(table: Table) -> int:
    """How many loans the bank can still lend (0 in a title without loans)."""
    terms = table.spec.data.loans
    return 0 if terms is None else terms.count - loans_out(table)


def interest_rate(table: Table) -> int:
    """The rate the loans now out set (percent; 0 in a title without loans)."""
    terms = table.spec.data.loans
    return 0 if terms is None else terms.rate_for(loans_out(table))


def interest_on(table: Table, operator, rate: int) -> int:
    """What ``operator``'s loans cost at ``rate``."""
    terms = table.spec.data.loans
    return 0 if terms is None else terms.interest(rate, operator.loans)


def may_borrow(table: Table, operator, most: int) -> bool:
    """May ``operator`` take another loan, owing at most ``most``?"""
    return operator.loans < most and loans_left(table) > 0


def borrow(table: Table, operator, most: int) -> int:
    """``operator`` takes a loan (owing at most ``most``): the bank pays it the loan's
    value, returned."""
    if not may_borrow(table, operator, most):
        raise GameError(f"{operator.name} cannot take more than {most} loans"
                        if operator.loans >= most else "the bank has no loans left")
    value = table.spec.data.loans.value
    operator.loans += 1
    _forget_loans_out(table)
    money.pay(table, table.state.bank, operator, value)
    return value


def repay(table: Table, operator) -> int:
    """``operator`` pays a loan back to the bank; returned: what it paid."""
    if operator.loans <= 0:
        raise GameError(f"{operator.name} has no loans")
    value = table.spec.data.loans.value
    if operator.cash < value:
        raise GameError(f"{operator.name} has {table.money(operator.cash)} and cannot repay "
                        f"a loan of {table.money(value)}")
    money.pay(table, operator, table.state.bank, value)
    operator.loans -= 1
    _forget_loans_out(table)
    return value


def take_over_loans(table: Table, buyer, corporation) -> None:
    """``buyer`` takes over what ``corporation`` owes the bank (a merger, an
    acquisition)."""
    buyer.loans += corporation.loans
    corporation.loans = 0
    _forget_loans_out(table)


def put_aside_loans(table: Table, corporation) -> int:
    """``corporation``'s loans are put aside (a liquidation): no longer its own, they are
    still owed, so the bank cannot lend them, until the liquidation settles
    (:func:`settle_aside_loans`). Returned: how many."""
    count = corporation.loans
    table.state.bank.loans_aside += count
    corporation.loans = 0
    _forget_loans_out(table)
    return count


def settle_aside_loans(table: Table) -> int:
    """The liquidation settles: the loans put aside come back to the bank (what the
    liquidated corporation had and the bid pay them, its president the rest). Returned:
    how many."""
    bank = table.state.bank
    count, bank.loans_aside = bank.loans_aside, 0
    _forget_loans_out(table)
    return count
