"""1817's loans: a corporation may owe as many loans as it has shares; each loan taken
moves its price one step left, each repaid one step right. The interest rate is fixed at
the start of each operating round from the loans then out (``rules.finance``); a
corporation pays its interest after buying trains, taking loans for it if it must. One
that cannot is liquidated, its president paying the interest.

Liquidation puts a corporation's price on the liquidation cell (the market's first); the
acquisition round then deals with it.
"""

from __future__ import annotations

from ...rules import certificates, finance, market, money
from ...rules.market import Direction
from .notes import notes


def most_loans(corporation) -> int:
    """As many loans as the corporation has shares (2, 5 or 10)."""
    return certificates.total_shares(corporation)


def may_borrow(table, corporation) -> bool:
    return corporation.price is not None and \
        finance.may_borrow(table, corporation, most_loans(corporation))


def take(table, corporation, in_stock_round: bool = False) -> None:
    """The corporation takes a loan; its price moves left."""
    old = corporation.price
    value = finance.borrow(table, corporation, most_loans(corporation))
    if table.keep_log:
        name = corporation.name
        if in_stock_round and corporation.owner is not None:
            name += f" ({corporation.owner.name})"
        table.log(f"{name} takes a loan and receives {table.money(value)}")
    market.move_price(table, corporation, Direction.LEFT)
    market.report_move(table, corporation, old)


def repay(table, corporation, move: bool = True) -> None:
    """The corporation repays a loan; its price moves right (unless told not to)."""
    value = finance.repay(table, corporation)
    if table.keep_log:
        table.log(f"{corporation.name} pays off a loan for {table.money(value)}")
    if move:
        old = corporation.price
        market.move_price(table, corporation, Direction.RIGHT)
        market.report_move(table, corporation, old)


def rate(table) -> int:
    """The interest rate of the round: fixed while an operating round is played."""
    fixed = notes(table).interest_rate
    return finance.interest_rate(table) if fixed is None else fixed


def interest_owed(table, corporation) -> int:
    return finance.interest_on(table, corporation, rate(table))


def pay_interest(table, corporation) -> int:
    """The corporation pays its interest, taking loans while it must and may; returned:
    what it could not pay (0 if it paid)."""
    owed = interest_owed(table, corporation)
    while owed > corporation.cash and may_borrow(table, corporation):
        take(table, corporation)
        owed = interest_owed(table, corporation)
    if owed > corporation.cash:
        return owed
    if owed > 0:
        if table.keep_log:
            n = corporation.loans
            table.log(f"{corporation.name} pays {table.money(owed)} interest for {n} "
                      f"loan{'s' if n != 1 else ''}")
        money.pay(table, corporation, table.state.bank, owed)
    return 0


def bank_pays(table, who, amount: int) -> None:
    if amount > 0:
        money.pay(table, table.state.bank, who, amount)


def liquidate(table, corporation) -> None:
    """The corporation goes to the liquidation cell, remembering who presided."""
    kept = notes(table)
    kept.liquidated_by[corporation.sym] = corporation.owner
    liquidation = next(c for c in table.spec.cells.values() if c.kind == "liquidation")
    market.place(table, corporation, liquidation.at)


def in_liquidation(table, corporation) -> bool:
    cell = table.cell(corporation.price)
    return cell is not None and cell.kind == "liquidation"
