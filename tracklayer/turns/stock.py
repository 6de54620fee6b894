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
from . import programs
from .step import Kinds, Step, handles, sale_candidates

PURCHASES = ("buy_company", "buy_shares", "par")


class BuyingShares:
    """Buying shares, for every step in which an entity may buy some."""

    def may_take(self, entity, bundle: Bundle, exchange: bool = False) -> bool:
        count = self.remember(("certificates", id(entity)),
                              lambda: trading.certificate_count(self.table, entity))
        return trading.may_take(self.table, entity, bundle, exchange, count)

    def take_shares(self, entity, bundle: Bundle, *, presidency_may_change: bool = True,
                    silent: bool = False) -> None:
        trading.buy(self.table, entity, bundle, presidency_may_change=presidency_may_change,
                    silent=silent)
        trading.place_home_after_buy(self.table, bundle.corporation)


class StockTurn(BuyingShares, Step):
    """See the module docstring."""

    NAME = "Buy or Sell Shares"

    def describe(self) -> str:
        return {TradeOrder.SELL_BUY_OR_BUY_SELL: "Buy or Sell Shares",
                TradeOrder.SELL_THEN_BUY: "Sell then Buy Shares",
                TradeOrder.SELL_BUY_SELL: "Sell/Buy/Sell Shares"}[self.table.settings.trade_order]

    def kinds(self, entity):
        if entity is not self.actor():
            return ()
        return Kinds(self.turn_kinds(entity, self.must_sell(entity)))

    def turn_kinds(self, entity, must_sell: bool) -> Iterator[str]:
        """The kinds of action of the player whose turn it is, in order, each worked out
        when asked for (:class:`Kinds`); ``must_sell``: over a limit and able to sell
        (:meth:`must_sell`), they may only sell. Passing comes with anything else."""
        if must_sell:
            yield "sell_shares"
            if self.companies_to_sell(entity):
                yield "sell_company"
            return
        found = False
        for kind, may in (("buy_shares", self.may_buy_any), ("par", self.may_start_any),
                          ("buy_company", self.may_buy_a_company),
                          ("sell_shares", self.may_sell_any),
                          ("sell_company", self.companies_to_sell)):
            if may(entity):
                found = True
                yield kind
        if found:
            yield "pass"

    def may_buy_a_company(self, entity) -> bool:
        """From another player or from the bank."""
        return bool(self.companies_for_sale(entity) or self.bank_companies_for_sale(entity))

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
        return self.round.notes.sold.setdefault(entity, {})

    def bought(self) -> bool:
        for a in self.round.notes.turn_actions:
            if a.kind in PURCHASES:
                return True
        return False

    def sold(self) -> bool:
        return any(a.kind == "sell_shares" for a in self.round.notes.turn_actions)

    def cash_for(self, entity) -> int:
        return entity.cash

    def note(self, action, corporation, counts: bool = True) -> None:
        n = self.round.notes
        player = action.entity if isinstance(action.entity, PlayerState) else \
            action.entity.owner
        n.last_to_act = player
        if counts:
            n.turn_actions.append(action)
        n.history.setdefault(player, {}).setdefault(corporation, []).append(action)

    # -- buying ------------------------------------------------------------------------------

    def may_buy(self, entity, bundle: Optional[Bundle]) -> bool:
        """May ``entity`` buy ``bundle`` now?"""
        if bundle is None or not all(c.buyable for c in bundle.certificates):
            return False
        if entity is bundle.owner:
            return False
        corporation = bundle.corporation
        if corporation.price is None and bundle.owner is corporation and \
                bundle.president_certificate is None:
            return False
        return (self.may_buy_of(entity, corporation, bundle.owner)
                and self.cash_for(entity) >= bundle_price(self.table, bundle)
                and self.may_take(entity, bundle))

    def may_buy_of(self, entity, corporation, seller) -> bool:
        """May ``entity`` buy shares of ``corporation`` from ``seller`` at this point of
        the turn: not after selling some this round, and after a purchase only another
        that the cell allows (:meth:`may_buy_more`)?"""
        return not self.sold_in_round(entity).get(corporation) and (
            not self.bought() or self.may_buy_more(entity, corporation, seller))

    def may_buy_more(self, entity, corporation, seller) -> bool:
        """May ``entity`` buy another certificate this turn (a multiple-buy cell)?"""
        cell = self.table.cell(corporation.price)
        turn = self.round.notes.turn_actions
        return (cell is not None and cell.multiple_buy
                and not any(a.kind == "par" for a in turn)
                and not any(a.kind == "buy_shares" and a.bundle.corporation is not corporation
                            for a in turn))

    def may_buy_from(self, entity, certs) -> bool:
        """Could ``entity`` buy the smallest buyable certificate of ``certs``?"""
        if not certs:
            return False
        if not self.may_buy_of(entity, certs[0].corporation, certs[0].owner):
            return False
        smallest = None
        for c in certs:
            if c.buyable and (smallest is None or c.percent < smallest.percent):
                smallest = c
        if smallest is None:
            return False
        bundle = Bundle.whole((smallest,))
        return self.cash_for(entity) >= bundle_price(self.table, bundle) and \
            self.may_take(entity, bundle)

    def may_buy_any_from_market(self, entity) -> bool:
        """Could ``entity`` buy a certificate from the market (its piles are by
        corporation)?"""
        for certs in self.table.state.market.shares.values():
            if certs and self.may_buy_from(entity, certs):
                return True
        return False

    def may_buy_any_from_treasury(self, entity) -> bool:
        return any(c.started and self.may_buy_from(entity, certificates.treasury(c))
                   for c in self.table.state.corporations)

    def may_buy_any(self, entity) -> bool:
        return self.may_buy_any_from_market(entity) or self.may_buy_any_from_treasury(entity)

    def may_start_any(self, entity) -> bool:
        if self.bought():
            return False
        for c in self.table.state.corporations:
            if self.may_start(c, entity) and c.certificates and \
                    self.may_buy(entity, Bundle.of([c.certificates[0]])):
                return True
        return False

    def may_start(self, corporation, player) -> bool:
        """May ``player`` start (par) the corporation?"""
        return self.table.variant.may_start(self.table, corporation, player)

    def start_prices(self, entity, corporation) -> list:
        """The cells the corporation may start at: those whose price buys two shares."""
        return [c for c in self.table.variant.start_cells(self.table, corporation, entity)
                if c.price * 2 <= self.cash_for(entity)]

    # -- selling -----------------------------------------------------------------------------

    def must_sell(self, entity) -> bool:
        """Over a limit, and able to sell."""
        table = self.table
        if not trading.over_limits(table, entity) or not self.may_sell_any(entity):
            return False
        if trading.certificate_count(table, entity) > trading.certificate_limit(table, entity):
            return True
        return any(not trading.holding_allowed(table, entity, c)
                   and self.may_sell_some_of(entity, c) for c in table.state.corporations)

    def may_sell(self, entity, bundle: Optional[Bundle]) -> bool:
        """May ``entity`` sell ``bundle`` in this turn?"""
        if bundle is None or entity is not bundle.owner:
            return False
        corporation = bundle.corporation
        if self.table.settings.sell_in_blocks and \
                self.sold_in_round(entity).get(corporation) == "now":
            return False
        return self.order_allows_sale() and \
            trading.sale_problem(self.table, entity, bundle) is None

    def order_allows_sale(self) -> bool:
        order = self.table.settings.trade_order
        if order is TradeOrder.SELL_BUY_OR_BUY_SELL:
            turn = self.round.notes.turn_actions
            kinds = {a.kind for a in turn}
            return not (len(kinds) == 2 and turn[-1].kind in PURCHASES)
        if order is TradeOrder.SELL_THEN_BUY:
            return not self.bought()
        return True

    def may_sell_some_of(self, entity, corporation) -> bool:
        if self.table.settings.sell_in_blocks and \
                self.sold_in_round(entity).get(corporation) == "now":
            return False
        if not trading.sale_timing_allows(self.table, corporation) or \
                not self.order_allows_sale():
            return False
        return any(self.may_sell(entity, b)
                   for b in trading.sale_bundles(self.table, entity, corporation))

    def may_sell_any(self, entity) -> bool:
        """Could ``entity`` sell some shares (the trade order allowing a sale at all)?"""
        if not self.order_allows_sale():
            return False
        return any(self.may_sell_some_of(entity, certs[0].corporation)
                   for certs in list(entity.shares.values())
                   if certs and not certs[0].corporation.closed)

    # -- companies ---------------------------------------------------------------------------

    def companies_for_sale(self, entity) -> list:
        """Companies other players own that may change hands now."""
        if self.bought() or self.cash_for(entity) <= 0 or \
                not self.table.phase_has("can_buy_companies_from_other_players"):
            return []
        return powers.buyable_from_players(self.table, entity)

    def bank_companies_for_sale(self, entity) -> list:
        if not isinstance(entity, PlayerState) or self.bought():
            return []
        offer = self.bank_offer()
        return [c for c in offer if self.may_buy_from_bank(entity, c, offer)]

    def bank_offer(self) -> list:
        """Companies the bank sells (see :mod:`tracklayer.rules.companies`)."""
        return companies.bank_offer(self.table)

    def may_buy_from_bank(self, entity, company, offer: Optional[list] = None) -> bool:
        """A company from the bank, at its face value: not after selling one of its stack
        this round, and, where companies count, with room under the certificate limit
        (``offer``: :meth:`bank_offer`, if known)."""
        table = self.table
        if self.cash_for(entity) < company.value:
            return False
        if company.spec.stack is not None and self.sold_in_round(entity).get(company.spec.stack):
            return False
        if table.settings.privates_count_for_limit and \
                trading.certificate_count(table, entity) >= trading.certificate_limit(table):
            return False
        return company in (offer if offer is not None else self.bank_offer())

    def companies_to_sell(self, entity) -> list:
        """Companies the bank buys back (1893's bonds): from the second stock round on, in
        a turn without a purchase."""
        if not isinstance(entity, PlayerState) or self.table.turn <= 1 or self.bought():
            return []
        return [c for c in entity.companies if c.spec.bank_buys]

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
        if company not in self.companies_for_sale(entity) + self.bank_companies_for_sale(entity):
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
        if company not in self.companies_to_sell(player):
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
                   for c in self.bank_companies_for_sale(entity)]
            for c in self.companies_for_sale(entity):
                for price in offer.prices(c.min_price, min(c.max_price, entity.cash)):
                    out.append(new_action("buy_company", entity, company=c.sym, price=price))
            return out
        if kind == "sell_company":
            return [new_action("sell_company", entity, company=c.sym, price=c.value)
                    for c in self.companies_to_sell(entity)]
        return super().candidates(entity, kind, offer)

    # -- programs ----------------------------------------------------------------------------

    def auto_moves(self, entity):
        return programs.stock_programs(self, entity)

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
