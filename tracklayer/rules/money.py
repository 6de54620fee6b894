"""Money: the only place cash changes hands, so that none is ever made or lost.

The market and the depot have no purse of their own: what is paid to them goes to the
bank. The bank may run out; it then *breaks*, which can end the game, and pays on with
money it no longer has.
"""

from __future__ import annotations

from ..state.model import BankState, DepotState, MarketState
from .table import Table, refuse


def purse(table: Table, who):
    """Whose cash a payment to ``who`` really goes to."""
    if isinstance(who, (MarketState, DepotState)):
        return table.state.bank
    return who


def spendable(who) -> int:
    """What ``who`` has to spend: its cash; the market and the depot have none of their
    own (a company the market holds, its president gone bankrupt, has no one to pay for
    it)."""
    return 0 if isinstance(who, (MarketState, DepotState)) else who.cash


def pay(table: Table, payer, receiver, amount: int, *, overdraw: bool = False,
        any_amount: bool = False) -> None:
    """``payer`` pays ``amount`` to ``receiver``.

    A payer cannot pay more than it has (unless ``overdraw``: settling a balance) nor
    pay itself; amounts are positive unless ``any_amount``. When the bank pays more than
    it has, it breaks."""
    payer = purse(table, payer)
    receiver = purse(table, receiver)
    if receiver is payer:
        refuse(f"{payer.name} cannot pay itself {amount}")
    if not any_amount and amount <= 0:
        refuse(f"cannot spend {amount}: amounts must be positive")
    if isinstance(payer, BankState):
        if not overdraw and payer.cash - amount < 0 and not payer.broken \
                and table.spec.bank_breaks:
            payer.broken = True
    elif not overdraw and payer.cash - amount < 0:
        refuse(f"{payer.name} has {payer.cash} and cannot spend {amount}")
    payer.cash -= amount
    receiver.cash += amount


def settle(table: Table, who, amount: int, other) -> None:
    """Make ``who``'s cash exactly ``amount``, the difference going to or from ``other``."""
    pay(table, other, who, amount - who.cash, overdraw=True, any_amount=True)


def total_money(table: Table) -> int:
    """All the cash in the game: the bank's, the players' and the companies' (constant)."""
    s = table.state
    total = s.bank.cash + sum(p.cash for p in s.players)
    total += sum(c.cash for c in s.corporations) + sum(m.cash for m in s.minors)
    return total + table.variant.money_elsewhere(table)
