"""A corporation formed from companies (1893's AGV and HGK, from minors and a private).

Each company's owner receives the certificate reserved for that company, and the company
closes; a minor's cash and trains pass to the new corporation, and its station token is
replaced by one of the corporation's. The bank gives the corporation its starting
treasury. Its president is the holder of most shares, ties going to the owner of the
company that comes first (whose certificate is then swapped for the president's).
"""

from __future__ import annotations

from typing import Sequence, Tuple

from ..state.model import Certificate, CompanyState, CorporationState
from . import board, certificates, money, powers, trains
from .certificates import Bundle
from .table import Table


def form(table: Table, target: CorporationState,
         parts: Sequence[Tuple[CompanyState, Certificate]], treasury: int) -> None:
    """``target`` forms from ``parts``, (company, its reserved certificate) in order, and
    receives ``treasury`` from the bank (see the module docstring)."""
    table.log(f"{target.name} receives {table.money(treasury)} from the bank")
    money.pay(table, table.state.bank, target, treasury)
    target.floatable = True
    order = []
    for company, cert in parts:
        player = company.owner
        cert.buyable = True
        certificates.change_hands(table, Bundle.of([cert]), player, price=0,
                                  presidency_may_change=False)
        order.append(player)
        powers.close_company(table, company)
        if company.spec.minor is not None:
            _merge_minor(table, table.minor(company.spec.minor), target)
    _choose_president(table, target, order)
    target.started = True
    table.log(f"-- {target.name} is founded and floats")


def _merge_minor(table: Table, minor, target: CorporationState) -> None:
    """The minor's cash, trains and station (as one of the target's tokens) pass on."""
    if minor.cash > 0:
        money.pay(table, minor, target, minor.cash)
    if minor.trains:
        trains.move_all(table, minor, target)
    token = minor.tokens[0]
    hex_id, city = token.where
    board.unreserve(table, hex_id, minor)
    board.lift_token(table, token)
    board.put_token(table, hex_id, city, next(t for t in target.tokens if t.where is None))
    minor.closed, minor.floated, minor.owner = True, False, None


def _choose_president(table: Table, target: CorporationState, order: list) -> None:
    president_cert = target.certificates[0]
    holdings = certificates.player_holders(target)
    top = max(holdings.values())
    leaders = [h for h, p in holdings.items() if p == top]
    holder = president_cert.owner
    if holder in leaders:
        target.owner = holder
        return
    leaders.sort(key=lambda p: order.index(p) if p in order else len(order))
    target.owner = leaders[0]
    certificates.hand_over_presidency(table, president_cert, holder, leaders[0], holder)
