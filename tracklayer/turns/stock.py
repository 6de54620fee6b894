"""A player's stock round turn: sell, buy one certificate (several where the market cell
allows), start a corporation, buy a private company, or pass.

* Certificates of a corporation not yet started come only with its start.
* A player may not buy shares of a corporation they sold this round.
* The title's trade order says whether selling may follow buying.
* A player over a limit must sell first.
* Passing without having done anything counts towards the end of the round; a turn
  with actions does not.
"""

from __future__ import annotations

from typing import Iterator, Optional

from ..errors import GameError
from ..rules import certificates, companies, market, money, powers, trading
from ..rules.certificates import Bundle, bundle_price
from ..spec.settings import TradeOrder
from ..state.model import CorporationState, PlayerState
from ..actions import new_action
from . import programs, trades
from .step import Kinds, Step, handles, sale_candidates



class BuyingShares:
    """Buying shares, for every step in which an entity may buy some."""

    def may_take(self, entity, bundle: Bundle, exchange: bool = False) -> bool:
        return trading.may_take(self.table, entity, bundle, exchange,
                                self.certificate_count(entity))

    def certificate_count(self, entity) -> int:
        """``trading.certificate_count``, remembered while the position stands."""
        return self.remember(("certificates", id(entity)), trading.certificate_count,
                             self.table, entity)

    def take_shares(self, entity, bundle: Bundle, *, presidency_may_change: bool = True,
                    silent: bool = False) -> None:
        trading.buy(self.table, entity, bundle, presidency_may_change=presidency_may_change,
                    silent=silent)
        trading.place_home_after_buy(self.table, bundle.corporation)


class StockTurn(BuyingShares, Step):
    """See the module docstring; which trades the player may make is ``turns/trades.py``,
    and the methods here that a title's turn overrides are the hooks where its rules
    truly differ."""

    NAME = "Buy or Sell Shares"

    def describe(self) -> str:
        return {TradeOrder.SELL_BUY_OR_BUY_SELL: "Buy or Sell Shares",
                TradeOrder.SELL_THEN_BUY: "Sell then Buy Shares",
                TradeOrder.SELL_BUY_SELL: "Sell/Buy/Sell Shares"}[self.table.settings.trade_order]

    def kinds(self, entity):
        if entity is not self.actor():
            return ()
        return Kinds(self.own_turn_kinds(entity), some=lambda: self.some_trade(entity),
                     rules={"pass": lambda: self.may_pass(entity),
                            "sell_shares": lambda: self.may_sell_some(entity)})

    def own_turn_kinds(self, entity) -> Iterator[str]:
        """:meth:`turn_kinds`, whether the player must sell worked out when first asked."""
        yield from self.turn_kinds(entity, self.must_sell(entity))

    def turn_kinds(self, entity, must_sell: bool) -> Iterator[str]:
        """The kinds of trade open to the player whose turn it is, in the order of
        ``trades.TRADES``, each worked out when asked for (:class:`Kinds`); ``must_sell``:
        over a limit and able to sell, they may only sell. Passing comes with anything
        else."""
        found = False
        for kind, open_now in trades.FORCED_SALES if must_sell else trades.TRADES:
            if self.trade_open(entity, open_now):
                found = True
                yield kind
        if found and not must_sell:
            yield "pass"

    def trade_open(self, entity, open_now) -> bool:
        """``open_now(self, entity)``, a rule of ``trades.TRADES``, remembered while the
        position stands (the listing and the questions below ask the same rules)."""
        return self.remember((open_now, id(entity)), open_now, self, entity)

    def some_trade(self, entity) -> bool:
        """Is some trade of ``trades.TRADES`` open to the player (asked cheapest first,
        ``trades.TRADES_TO_ASK``)? Then the turn has something: a player who must sell
        may sell, as :func:`trades.must_sell` found."""
        for open_now in trades.TRADES_TO_ASK:
            if self.trade_open(entity, open_now):
                return True
        return False

    def may_sell_some(self, entity) -> bool:
        """Is selling among the turn's kinds? As ``trades.TRADES`` says, whether or not
        the player must sell (who must sell may: :func:`trades.must_sell` found a sale)."""
        return self.trade_open(entity, trades.may_sell_some_share)

    def may_pass(self, entity) -> bool:
        """Passing comes with any trade, but not for a player who must sell
        (:meth:`turn_kinds`)."""
        return not self.must_sell(entity) and self.some_trade(entity)

    def prepare(self) -> None:
        n = self.round.notes
        for corps in n.sold.values():
            for corp in corps:
                corps[corp] = "prev"
        entity = self.actor()
        if entity is not None:
            n.history.setdefault(entity, {}).clear()
        n.turn_actions = []
        n.bought_from_treasury = False

    # -- the turn so far --------------------------------------------------------------------

    def sold_in_round(self, entity) -> dict:
        return trades.sold_this_round(self, entity)

    def bought(self) -> bool:
        return trades.bought(self)

    def sold(self) -> bool:
        return any(a.kind == "sell_shares" for a in self.round.notes.turn_actions)

    def note(self, action, corporation, counts: bool = True) -> None:
        n = self.round.notes
        player = action.entity if isinstance(action.entity, PlayerState) else \
            action.entity.owner
        n.last_to_act = player
        if counts:
            n.turn_actions.append(action)
        n.history.setdefault(player, {}).setdefault(corporation, []).append(action)

    # -- the hooks a title's turn may override ----------------------------------------------

    def cash_for(self, entity) -> int:
        """What ``entity`` may spend (1871: the Union Bank's partner helps)."""
        return entity.cash

    def may_take(self, entity, bundle: Bundle, exchange: bool = False) -> bool:
        """Not shares on a frozen cell; a player short of the corporation may always buy
        its share (:meth:`closes_short`); else within the holding and certificate
        limits."""
        corporation = bundle.corporation
        if trades.frozen(self.table, corporation):
            return False
        if self.closes_short(entity, corporation):
            return True
        return super().may_take(entity, bundle, exchange)

    def closes_short(self, entity, corporation) -> bool:
        """A player short of the corporation (where the title sells short) may always buy
        its share, closing the short, whatever their limits."""
        return self.table.settings.short_selling and \
            any(c.percent < 0 for c in certificates.held(entity, corporation))

    def may_buy(self, entity, bundle: Optional[Bundle]) -> bool:
        """``trades.may_buy_shares``."""
        return trades.may_buy_shares(self, entity, bundle)

    def may_sell(self, entity, bundle: Optional[Bundle]) -> bool:
        """``trades.may_sell_shares``."""
        return trades.may_sell_shares(self, entity, bundle)

    def may_sell_bundle(self, entity, bundle: Bundle) -> bool:
        """``trades.may_sell_bundle``."""
        return trades.may_sell_bundle(self, entity, bundle)

    def may_start(self, corporation, player) -> bool:
        """May ``player`` start the corporation (``Variant.may_start``)?"""
        return self.table.variant.may_start(self.table, corporation, player)

    def may_start_some(self, entity) -> bool:
        """``trades.may_start_some``."""
        return trades.may_start_some(self, entity)

    def start_prices(self, entity, corporation) -> list:
        """``trades.start_prices``."""
        return trades.start_prices(self, entity, corporation)

    def must_sell(self, entity) -> bool:
        """``trades.must_sell``, remembered while the position stands."""
        return self.remember(("must sell", id(entity)), trades.must_sell, self, entity)

    def bank_offer(self) -> list:
        """Companies the bank sells (see :mod:`tracklayer.rules.companies`)."""
        return companies.bank_offer(self.table)

    # -- actions -----------------------------------------------------------------------------

    def check_purchase(self, bundle: Bundle) -> None:
        """A stock round purchase is one certificate, of a company that has been started."""
        corporation = bundle.corporation
        if corporation.price is None and bundle.owner is corporation:
            raise GameError(f"{corporation.name} has not been started: par it first")
        if len(bundle.certificates) > 1:
            raise GameError("a stock round purchase is one certificate")

    @handles("buy_shares")
    def buy(self, action):
        bundle = action.bundle
        self.check_purchase(bundle)
        buyer = action.purchase_for or action.entity
        if not self.may_buy(buyer, bundle):
            raise GameError(f"{buyer.name} cannot buy a share of {bundle.corporation.name}")
        price = bundle_price(self.table, bundle)
        if price > buyer.cash:
            raise GameError(f"{buyer.name} has {buyer.cash} and cannot spend {price}")

        def commit() -> None:
            n = self.round.notes
            bought = n.bought.setdefault(action.entity, {})
            bought[bundle.corporation] = bought.get(bundle.corporation, 0) + bundle.percent
            if isinstance(bundle.owner, CorporationState):
                n.bought_from_treasury = True
            self.take_shares(buyer, bundle)
            self.note(action, bundle.corporation)
        return commit

    @handles("sell_shares")
    def sell(self, action):
        bundle = action.bundle
        if not self.may_sell(action.entity, bundle):
            raise GameError(f"{action.entity.name} cannot sell {bundle.percent}% of "
                            f"{bundle.corporation.name} now")

        def commit() -> None:
            self.sold_in_round(bundle.owner)[bundle.corporation] = "now"
            self.sell_bundle(action)
            self.note(action, bundle.corporation)
        return commit

    def sell_bundle(self, action) -> None:
        trading.sell(self.table, action.bundle)

    def check_start(self, entity, corporation, cell) -> None:
        if not self.may_start(corporation, entity):
            raise GameError(f"{corporation.name} cannot be parred")
        if cell not in self.start_prices(entity, corporation):
            raise GameError(f"{corporation.name} cannot be parred at "
                            f"{self.table.money(cell.price)}")

    @handles("par")
    def start(self, action):
        if action.purchase_for is not None:
            raise GameError("cannot par on behalf of other entities")
        corporation, entity = action.corporation, action.entity
        self.check_start(entity, corporation, action.cell)
        first = Bundle.of([certificates.treasury(corporation)[0]])
        if not self.may_buy(entity, first):
            raise GameError(f"{entity.name} cannot buy a share of {corporation.name}")

        def commit() -> None:
            self.begin_corporation(action, entity, corporation, action.cell)
        return commit

    def begin_corporation(self, action, entity, corporation, cell) -> None:
        """Start the corporation at ``cell``; its starter buys the president's certificate."""
        market.start_at(self.table, corporation, cell.at)
        cert = certificates.treasury(corporation)[0]
        bought = self.round.notes.bought.setdefault(entity, {})
        bought[corporation] = bought.get(corporation, 0) + cert.percent
        self.take_shares(entity, Bundle.of([cert]))
        self.table.variant.corporation_started(self.table, corporation)
        self.note(action, corporation)

    @handles("buy_company")
    def buy_company(self, action):
        entity, company, price = action.entity, action.company, action.price
        owner = company.owner
        if company not in trades.companies_from_players(self, entity) + \
                trades.companies_from_bank(self, entity):
            raise GameError(f"{company.name} is not for sale")
        if owner is self.table.state.bank and price != company.value:
            raise GameError(f"{company.name} costs {self.table.money(company.value)}")
        if not isinstance(price, int) or not 0 < price <= entity.cash:
            raise GameError(f"{entity.name} cannot pay {price!r} for {company.name}")

        def commit() -> None:
            if owner is self.table.state.bank:
                companies.buy_from_bank(self.table, entity, company, price)
            else:
                powers.give(self.table, company, entity)
                money.pay(self.table, entity, owner, price)
                self.table.log(f"{entity.name} buys {company.name} for "
                               f"{self.table.money(price)}")
            self.round.notes.last_to_act = entity
            self.round.notes.turn_actions.append(action)
            trading.company_bought(self.table, entity, company)
        return commit

    @handles("sell_company")
    def sell_company(self, action):
        company, player = action.company, action.entity
        if company not in trades.companies_to_sell(self, player):
            raise GameError(f"{player.name} cannot sell {company.name} now")
        if action.price != company.value:
            raise GameError(f"{company.name} sells for {self.table.money(company.value)}")

        def commit() -> None:
            companies.sell_to_bank(self.table, player, company)
            self.sold_in_round(player)[company.spec.stack or company] = "now"
            self.round.notes.last_to_act = player
            self.round.notes.turn_actions.append(action)
        return commit

    def mark_done(self) -> None:
        super().mark_done()
        entity = self.actor()
        n = self.round.notes
        if n.turn_actions:
            if entity in n.pass_order:
                n.pass_order.remove(entity)
            if entity is not None:
                entity.passed = False
        else:
            if entity not in n.pass_order:
                n.pass_order.append(entity)
            if entity is not None:
                entity.passed = True

    def tell_pass(self, entity) -> None:
        if not self.round.notes.turn_actions:
            self.table.log(f"{entity.name} passes")
        elif not (self.bought() and self.sold()):
            self.table.log(f"{entity.name} declines to "
                           f"{'sell' if self.bought() else 'buy'} shares")

    def tell_skip(self, entity) -> None:
        self.table.log(f"{entity.name} has no valid actions and passes")

    # -- candidates for the list of legal moves -------------------------------------------

    def candidates(self, entity, kind, offer) -> list:
        table = self.table
        if kind == "buy_shares":
            out = []
            for c in table.state.corporations:
                piles = [certificates.treasury(c) if c.price is not None else [],
                         certificates.held(table.state.market, c)]
                for pile in piles:
                    for cert in one_of_each_size(x for x in pile if x.buyable):
                        out.append(new_action("buy_shares", entity, shares=[cert.id],
                                              percent=cert.percent))
            return out
        if kind == "par":
            return [new_action("par", entity, corporation=c.sym, share_price=cell.id)
                    for c in table.state.corporations if self.may_start(c, entity)
                    for cell in self.start_prices(entity, c)]
        if kind == "sell_shares":
            return sale_candidates(table, entity)
        if kind == "buy_company":
            out = [new_action("buy_company", entity, company=c.sym, price=c.value)
                   for c in trades.companies_from_bank(self, entity)]
            for c in trades.companies_from_players(self, entity):
                for price in offer.prices(c.min_price, min(c.max_price, entity.cash)):
                    out.append(new_action("buy_company", entity, company=c.sym, price=price))
            return out
        if kind == "sell_company":
            return [new_action("sell_company", entity, company=c.sym, price=c.value)
                    for c in trades.companies_to_sell(self, entity)]
        return super().candidates(entity, kind, offer)

    # -- programs ----------------------------------------------------------------------------

    def auto_moves(self, entity):
        return programs.stock_programs(self, entity)

    def passes_plainly(self, entity) -> bool:
        """Would a pass now be an ordinary one (not one inside an auction, say)? Only then
        do passing programs pass."""
        return True

    def program_buys_from_market(self, program: dict) -> bool:
        """Where a programmed purchase buys: as the program says, or the market if that is
        where a corporation's shares are once it starts."""
        return bool(program.get("from_market")) or self.table.settings.shares_start_in_market

    def program_stop_reason(self, entity, program, certificate) -> Optional[str]:
        return programs.stop_reason(self, entity, program, certificate)


def one_of_each_size(certs) -> list:
    """One certificate of each size, the first of each."""
    seen, out = set(), []
    for c in certs:
        if c.percent not in seen:
            seen.add(c.percent)
            out.append(c)
    return out
