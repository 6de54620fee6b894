"""Private companies changing hands with the bank.

* The bank sells the companies it owns at their face value; of identical companies (a
  *stack*, like 1893's bonds) only the first left is on offer.
* A company the bank buys back (``bank_buys``) is sold to it at face value.
* The card of a minor brings the minor: its buyer owns it, and it floats with what the
  card sold for as its treasury (at least the minor's least treasury).
"""

from __future__ import annotations

from typing import List

from ..state.model import CompanyState
from . import money, powers
from .table import Table


def bank_offer(table: Table) -> List[CompanyState]:
    """What the bank sells now (see the module docstring)."""
    bank = table.state.bank
    offer, stacks = [], set()
    for company in table.state.companies:
        if company.owner is bank and not company.closed:
            stack = company.spec.stack
            if stack is None:
                offer.append(company)
            elif stack not in stacks:
                stacks.add(stack)
                offer.append(company)
    return offer


def buy_from_bank(table: Table, player, company: CompanyState, price: int,
                  forced: bool = False) -> None:
    """``player`` buys ``company`` from the bank for ``price`` (``forced``: had to)."""
    money.pay(table, player, table.state.bank, price)
    table.log(f"{player.name} {'is forced to buy' if forced else 'buys'} {company.name} for "
              f"{table.money(price)}")
    powers.give(table, company, player)
    if company.spec.minor is not None:
        minor = table.minor(company.spec.minor)
        minor.owner = player
        minor.floated = True
        money.pay(table, table.state.bank, minor, max(price, minor.spec.least_treasury))


def sell_to_bank(table: Table, player, company: CompanyState) -> None:
    """``player`` sells ``company`` back to the bank at its face value."""
    money.pay(table, table.state.bank, player, company.value)
    powers.give(table, company, table.state.bank)
