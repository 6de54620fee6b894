"""Cash crisis and personal bankruptcy in 1817.

A player left with negative cash (a dividend paid on their shorts, their corporation's
interest, its debts in liquidation) is in a cash crisis: in turn from the player the
crisis began with, such a player sells shares (only as many as needed, none in the
acquisition or liquidation zone, and never so that the presidency changes hands) or goes
bankrupt. Going bankrupt, they first sell, corporation by corporation, the largest lot
the cash crisis still allows (so never one that hands a presidency over); everything
else they hold, presidencies included, goes to the market for nothing; each corporation
they presided, left without a president, is liquidated and left to the market; the bank
forgives what they still owe and takes what they still have.
"""

from __future__ import annotations

from ...errors import GameError
from ...rules import certificates, finance, money, operators, trading
from ...rules.certificates import Bundle, bundle_price
from ...state.model import CorporationState, PlayerState
from ...turns.step import Step, handles
from ...turns.stock import sale_candidates
from . import loans
from .notes import notes
from .stock import close_market_shorts, in_zone


def in_crisis(table):
    """The first player with negative cash, from the one the crisis began with."""
    players = table.state.players
    for p in players:   # mostly no one is in debt: then no crisis, wherever it would begin
        if p.cash < 0 and not p.bankrupt:
            break
    else:
        return None
    start = notes(table).crisis_player
    if start is None:
        return None
    if start not in players:
        return None
    i = players.index(start)
    for p in players[i:] + players[:i]:
        if p.cash < 0 and not p.bankrupt:
            return p
    return None


def positive_bundles(table, player, corporation) -> list:
    certs = [c for c in certificates.held(player, corporation) if c.percent > 0]
    return trading.growing_bundles(table, player, corporation, certs)


def hands_over_presidency(bundle) -> bool:
    """Would the president's sale leave them holding less than another holder (a player,
    or another corporation, as 18xx.games counts)? In a cash crisis the presidency may
    not change hands so."""
    corporation, seller = bundle.corporation, bundle.owner
    if corporation.owner is not seller:
        return False
    held: dict = {}
    for cert in corporation.certificates:
        if isinstance(cert.owner, PlayerState) or (
                isinstance(cert.owner, CorporationState) and cert.owner is not corporation):
            held[cert.owner] = held.get(cert.owner, 0) + cert.percent
    remaining = held.get(seller, 0) - bundle.percent
    return remaining < max((v for k, v in held.items() if k is not seller), default=0)


def may_sell_in_crisis(table, seller, bundle) -> bool:
    """What a player in a cash crisis may sell: shares (no short) they may sell now, of
    a corporation outside the acquisition and liquidation zones, that do not hand its
    presidency over, and no more than needed: without its last certificate the lot
    would not cover the debt."""
    if bundle is None or bundle.owner is not seller or in_zone(table, bundle.corporation):
        return False
    if any(c.percent < 0 for c in bundle.certificates):
        return False
    if trading.sale_problem(table, seller, bundle) is not None:
        return False
    if hands_over_presidency(bundle):
        return False
    needed = -seller.cash
    smaller = bundle_price(table, bundle) - \
        certificates.certificate_price(table, bundle.certificates[0]) \
        if len(bundle.certificates) > 1 else 0
    return smaller < needed


class CashCrisis(Step):
    """A player with negative cash sells shares (see the module docstring)."""

    NAME = "Cash Crisis"
    PASSES = False

    def live(self) -> bool:
        return in_crisis(self.table) is not None

    def actors(self) -> list:
        found = in_crisis(self.table)
        return [found] if found is not None else []

    def kinds(self, entity):
        return ("sell_shares",) if entity is self.actor() else ()

    def may_sell(self, seller, bundle) -> bool:
        return may_sell_in_crisis(self.table, seller, bundle)

    def candidates(self, entity, kind, offer) -> list:
        return [a for a in sale_candidates(self.table, entity)] if kind == "sell_shares" \
            else super().candidates(entity, kind, offer)

    @handles("sell_shares")
    def sell(self, action):
        if not self.may_sell(action.entity, action.bundle):
            raise GameError(f"Cannot sell shares of {action.bundle.corporation.name}")

        def commit() -> None:
            trading.sell(self.table, action.bundle)
            close_market_shorts(self.table, action.bundle.corporation)
        return commit


class Bankrupt(Step):
    """A player in a cash crisis may declare bankruptcy (see the module docstring)."""

    NAME = "Bankrupt"
    PASSES = False
    HOLDS = False
    BARE_KINDS = ("bankrupt",)

    def kinds(self, entity):
        return ("bankrupt",) if isinstance(entity, PlayerState) and \
            entity is in_crisis(self.table) else ()

    @handles("bankrupt")
    def declare(self, action):
        player = action.entity
        if player is not in_crisis(self.table):
            raise GameError(f"{player.name} is not in a cash crisis")

        def commit() -> None:
            go_bankrupt(self.table, player)
            if self.round.is_operating:
                self.round.reorder_rest()     # its companies, now in liquidation, drop out
        return commit


def go_bankrupt(table, player) -> None:
    table.log(f"-- {player.name} goes bankrupt and sells remaining shares --")
    market = table.state.market
    held = operators.by_price(table, [c for c in table.state.corporations
                                      if certificates.held(player, c)])
    for corporation in held:
        if corporation.price is None:
            continue
        options = [b for b in positive_bundles(table, player, corporation)
                   if may_sell_in_crisis(table, player, b)]
        if options:
            trading.sell(table, max(options, key=lambda b: bundle_price(table, b)))
            close_market_shorts(table, corporation)
    for corporation in held:
        certs = [c for c in certificates.held(player, corporation)]
        if not certs:
            continue
        certificates.change_hands(table, Bundle.of(certs), market, price=0,
                                  presidency_may_change=False)
        if corporation.owner is player:
            if not loans.in_liquidation(table, corporation):
                table.log(f"-- {corporation.name} enters liquidation (it has no president) --")
                loans.liquidate(table, corporation)
            corporation.owner = market
    if player.cash < 0:
        money.pay(table, table.state.bank, player, -player.cash)
    elif player.cash > 0:
        money.pay(table, player, table.state.bank, player.cash)
    finance.declare_bankrupt(table, player)
    for corporation in table.state.corporations:
        close_market_shorts(table, corporation)
