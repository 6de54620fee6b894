"""What an 1817 acquisition is worth and what it moves (see ``acquisition``).

In a zone the bidding starts at $10; otherwise at the corporation's value, its shares at
the price, to the next $10. A buyer may pay with its cash, the loans it could take (the
acquired corporation's loans repaid and taken again) and what the acquired corporation
brings: its cash, and, when offered for sale, its treasury shares' value from the bank.

The buyer takes the acquired corporation's cash, companies, loans, trains and tokens
(the tokens as ``merging.take_over_tokens`` says), takes the loans it needs and pays the
bid to the bank. The bid then settles the acquired corporation's debts (in liquidation its
president pays what the bid and its cash do not cover) and the rest goes to its
shareholders, by share.
"""

from __future__ import annotations

from ...rules import certificates, finance, market, money
from ...state.model import PlayerState
from . import loans
from .merging import take_assets
from .stock import ZONES

BID_STEP = 10


def starting_bid(table, corporation) -> int:
    """$10 in a zone; else its value: its shares at the price, to the next $10."""
    cell = table.cell(corporation.price)
    if cell is not None and cell.kind in ZONES:
        return BID_STEP
    value = certificates.total_shares(corporation) * market.price(table, corporation)
    return -(-value // BID_STEP) * BID_STEP


def treasury_value(table, corporation) -> int:
    """The shares ``corporation`` holds of itself, at its price."""
    own = certificates.percent_of(corporation, corporation) // \
        certificates.share_percent(corporation)
    return own * market.price(table, corporation)


def most_for(table, buyer, corporation, compensation: int, left: int) -> int:
    """What ``buyer`` could pay for ``corporation``: its cash and loans (the acquired
    corporation's loans repaid and taken again, ``left``: the bank's loans left, as
    ``finance.loans_left`` counts them), plus what the acquired brings (its cash and
    ``compensation``)."""
    value = table.spec.data.loans.value
    can = min(loans.most_loans(buyer) - buyer.loans, left + corporation.loans)
    return buyer.cash + max(0, can) * value + corporation.cash + compensation - \
        corporation.loans * value


def take_over(table, buyer, corporation, price: int, compensation: int):
    """``buyer`` takes ``corporation`` over for ``price`` (``compensation``: what the bank
    pays for its treasury shares, when it was offered for sale); returns the token
    reduction the buyer must make (``merging.take_assets``)."""
    if compensation > 0:
        money.pay(table, table.state.bank, corporation, compensation)
    reducing = take_assets(table, buyer, corporation)
    table.log(f"{buyer.name} acquires {corporation.name}")
    while buyer.cash < price:
        loans.take(table, buyer)
    money.pay(table, buyer, table.state.bank, price)
    return reducing


def pay_debts(table, corporation, cash: int, loans_owed: int) -> int:
    """A liquidated corporation's loans are repaid from ``cash`` (its own and the bid);
    its president pays what that does not cover. Returns what is left for the
    shareholders."""
    owed = loans_owed * table.spec.data.loans.value
    debt = max(0, owed - cash)
    if debt == 0:
        return cash - owed
    president = corporation.owner
    if isinstance(president, PlayerState):
        table.log(f"{president.name} settles {corporation.name} debts for "
                  f"{table.money(debt)}")
        money.pay(table, president, table.state.bank, debt, overdraw=True)
    return 0


def pay_shareholders(table, corporation, cash: int) -> None:
    """The bank pays ``cash`` out to the players by share (rounded down; shorts pay)."""
    if cash <= 0:
        return
    per_share = cash // certificates.total_shares(corporation)
    for player in table.state.players:
        held = certificates.percent_of(player, corporation) // \
            certificates.share_percent(corporation)
        if held:
            money.pay(table, table.state.bank, player, held * per_share, any_amount=True)
