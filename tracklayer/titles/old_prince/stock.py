"""The Old Prince 1871 — the stock round ("Akciové kolo").

* Corporations open in tranches of 2 (the Mainline and the Shortline), 1, 2 and 3; a
  tranche opens once every corporation of the one before has operated or sold out. A
  corporation is started (or split, ``split``) only while a tranche has room.
* A corporation is started from the market: its president's certificate is bought there
  at a starting price still in the game; branches and the PEIR are never started so.
* Shares are bought from the market (or, after a split, from the corporation); no more
  than 30% of a corporation is sold in a turn, its price dropping a cell per sale.
* The owner of UB may buy once a stock round for the Union Bank, the bank's cash first
  and their own for the rest.
* MC, VR and SB are exchanged for the Shortline's reserved shares, IB for a market share
  of a started corporation other than the Mainline, the Shortline and the PEIR; an
  exchange is not the turn's purchase. An exchange is a power of the private company,
  used in its owner's turn: the Stratford Branch, a corporation that shares the id SB
  with the Shipbuilding company, has no such power.
* A corporation is sold out when players hold it all, its reserved shares counting.
"""

from __future__ import annotations

from typing import Iterator

from ...actions import new_action
from ...errors import GameError
from ...rules import certificates, market, money, operators, powers, trading
from ...rules.certificates import Bundle, bundle_price
from ...state.model import CompanyState, PlayerState
from ...turns.round import StockRound
from ...turns.step import Kinds, handles
from ...turns import trades
from ...turns.stock import StockTurn
from ...turns.trains import DiscardStep
from . import buying, data
from .draws import seats
from .notes import notes
from .split import SplitStep
from .tranches import enter_tranche, is_branch, tranche_open

SHORTLINE_EXCHANGERS = frozenset(data.SHORTLINE_EXCHANGERS)


class Exchanged:
    """The mark an exchange leaves in the turn: an action, but not a purchase."""
    kind = "exchange"


# -- the round --------------------------------------------------------------------------------


class PrinceStockRound(StockRound):
    """A stock round of the players (the Union Bank has no turn)."""

    def choose_entities(self) -> list:
        notes(self.table).bank_bought = False
        return seats(self.table)

    def at_end(self) -> None:
        """Sold-out corporations rise, their reserved shares counting as held. As on
        18xx.games, where the round is finished twice when the action completing a split
        ends it (every player left with nothing to do then), the rise then comes twice."""
        self.sold_out_rise()
        if notes(self.table).split_ended_at == self.table.state.carried_out:
            self.sold_out_rise()

    def sold_out_rise(self) -> None:
        """Each sold-out corporation moves up a row, in price order."""
        table = self.table
        corps = [c for c in table.state.corporations
                 if operators.has_floated(table, c) and c.price is not None]
        for corp in operators.by_price(table, corps):
            old = corp.price
            reserved = sum(c.percent for c in certificates.held(corp, corp) if not c.buyable)
            if sum(certificates.player_holders(corp).values()) + reserved == 100:
                market.move_price(table, corp, market.Direction.UP)
            market.report_move(table, corp, old)


def stock_round(table):
    return PrinceStockRound(table, [DiscardStep, SplitStep, PrinceStockTurn])


class PrinceStockTurn(StockTurn):
    """See the module docstring."""

    def kinds(self, entity):
        """Exchanges by the privates; splitting; the Union Bank's purchase."""
        if isinstance(entity, CompanyState):
            return ("buy_shares",) if self.exchange_offer(entity) else ()
        if not isinstance(entity, PlayerState):
            return ()
        if entity is not self.actor():
            return ()
        return Kinds(self.prince_turn_kinds(entity),
                     some=lambda: self.some_trade(entity) or self.some_more(entity),
                     rules={"pass": lambda: self.may_pass(entity),
                            "sell_shares": lambda: self.may_sell_some(entity)})

    def prince_turn_kinds(self, entity) -> Iterator[str]:
        """The kinds of a player's turn (:meth:`StockTurn.turn_kinds`), then the turn's
        further trades (:meth:`more_trades`), each once and worked out when asked for;
        passing with anything but sales (only sales when the player must sell)."""
        must_sell = self.must_sell(entity)
        found = set()
        for kind in self.turn_kinds(entity, must_sell):
            if kind not in found:
                found.add(kind)
                yield kind
        if must_sell:
            return
        for kind, open_now in self.more_trades(entity):
            if kind not in found and open_now():
                found.add(kind)
                yield kind
        if "pass" not in found and any(k != "sell_shares" for k in found):
            yield "pass"

    def more_trades(self, entity) -> tuple:
        """Besides a stock turn's trades: splitting, and an exchange or the partner's
        purchase (each remembered while the position stands). Starting a corporation for
        the Union Bank comes with the player's own start, as on 18xx.games, whose check
        counts the player's cash alone (:meth:`candidates` offers the bank's start beside
        each of the player's): a start only the bank's cash could pay holds no turn."""
        key = id(entity)
        return (("split", lambda: self.remember(("split", key), self.may_split_any, entity)),
                ("buy_shares", lambda: self.remember(("exchange", key), self.may_exchange,
                                                     entity)))

    def may_exchange(self, entity) -> bool:
        """A company of the player's may be exchanged for a share, or the partner has
        offered a purchase."""
        return any(self.exchange_offer(c) for c in entity.companies) or \
            self.partner_offered_a_purchase(entity)

    def some_more(self, entity) -> bool:
        """Is one of :meth:`more_trades` open?"""
        return any(open_now() for kind, open_now in self.more_trades(entity))

    def may_pass(self, entity) -> bool:
        """Passing comes with any trade (:meth:`prince_turn_kinds`: a stock turn's or a
        further one), but not for a player who must sell."""
        return not self.must_sell(entity) and (self.some_trade(entity) or
                                               self.some_more(entity))

    # -- the Union Bank ---------------------------------------------------------------------

    def bank_seat(self):
        return notes(self.table).union_bank

    def may_buy_for_bank(self, player) -> bool:
        ub = self.table.company("UB")
        return ub is not None and ub.owner is player and not notes(self.table).bank_bought

    def partner_offered_a_purchase(self, player) -> bool:
        """Is the owner of UB offered a purchase (and so no turn of theirs ends by
        itself)? As 18xx.games lists it: when some started corporation they have not
        sold this round has a share they may buy now by the turn's purchases, costing
        no more than their cash and the Union Bank's together, that they or the Union
        Bank may hold, even once the Union Bank has bought this round (though the
        purchase itself must then be paid by whoever makes it)."""
        ub = self.table.company("UB")
        if ub is None or ub.owner is not player:
            return False
        bank = self.bank_seat()
        cash = player.cash + bank.cash
        market = self.table.state.market
        for corporation in trades.open_to_buy(self, player):
            for certs in (certificates.held(market, corporation),
                          certificates.treasury(corporation)):
                buyable = [c for c in certs if c.buyable]
                if not buyable:
                    continue
                bundle = Bundle.whole([min(buyable, key=lambda c: c.percent)])
                if cash >= bundle_price(self.table, bundle) and \
                        (self.may_take(player, bundle) or self.may_take(bank, bundle)):
                    return True
        return False

    def cash_for(self, entity) -> int:
        """The Union Bank's cash and its partner's together."""
        if entity is self.bank_seat():
            ub = self.table.company("UB")
            return entity.cash + (ub.owner.cash if isinstance(ub.owner, PlayerState) else 0)
        return entity.cash

    def buyer_of(self, action):
        buyer = action.purchase_for or action.entity
        if buyer is not action.entity:
            if buyer is not self.bank_seat() or not self.may_buy_for_bank(action.entity):
                raise GameError(f"{action.entity.name} cannot buy for {buyer.name}")
        return buyer

    def fund(self, action, buyer, price: int) -> None:
        """What the Union Bank lacks, its partner pays."""
        if buyer is not action.entity:
            notes(self.table).bank_bought = True
            short = price - buyer.cash
            if short > 0:
                money.pay(self.table, action.entity, buyer, short)

    def take_shares(self, entity, bundle, *, presidency_may_change=True, silent=False,
                    exchange=False) -> None:
        """A numbered corporation floating swaps its PEIR card (``buying.floated``)."""
        corporation = bundle.corporation
        was = corporation.floated or operators.float_condition(self.table, corporation)
        trading.buy(self.table, entity, bundle, presidency_may_change=presidency_may_change,
                    silent=silent, exchange=exchange)
        if not was and operators.has_floated(self.table, corporation):
            buying.floated(self.table, corporation)

    @handles("buy_shares")
    def buy(self, action):
        """A purchase (perhaps for the Union Bank), or a private's exchange."""
        if isinstance(action.entity, CompanyState):
            return self.exchange(action)
        if not isinstance(action.entity, PlayerState):
            raise GameError(f"{action.entity.name} cannot buy shares in a stock round")
        bundle = action.bundle
        self.check_purchase(bundle)
        buyer = self.buyer_of(action)
        if not self.may_buy(buyer, bundle):
            raise GameError(f"{buyer.name} cannot buy a share of {bundle.corporation.name}")
        price = bundle_price(self.table, bundle)

        def commit() -> None:
            self.fund(action, buyer, price)
            self.take_shares(buyer, bundle)
            self.note(action, bundle.corporation)
        return commit

    # -- starting ---------------------------------------------------------------------------

    def may_hold_presidency(self, buyer, corporation) -> bool:
        """Starting a corporation is buying its president's certificate, which must fit
        in the buyer's certificate limit (and holding limit)."""
        return self.may_take(buyer, Bundle.whole([corporation.certificates[0]]))

    def may_start_some(self, entity) -> bool:
        """Starting buys the president's certificate from the market: a start price the
        player can pay, and room for the certificate."""
        if self.bought() or not tranche_open(self.table):
            return False
        return any(self.may_start(c, entity) and self.start_prices(entity, c)
                   and self.may_hold_presidency(entity, c)
                   for c in self.table.state.corporations)

    @handles("par")
    def start(self, action):
        """The president's certificate is bought from the market at a starting price."""
        corporation = action.corporation
        buyer = self.buyer_of(action)
        if self.bought():
            raise GameError("a turn has one purchase")
        self.check_start(buyer, corporation, action.cell)
        first = corporation.certificates[0]
        if first.owner is not self.table.state.market:
            raise GameError(f"{corporation.name}'s president's certificate is not for sale")
        if not self.may_hold_presidency(buyer, corporation):
            raise GameError(f"{buyer.name} may hold no more certificates "
                            f"({trading.certificate_limit(self.table, buyer)})")

        def commit() -> None:
            market.start_at(self.table, corporation, action.cell.at)
            corporation.started = True
            enter_tranche(self.table, corporation)
            self.fund(action, buyer, action.cell.price * 2)
            self.take_shares(buyer, Bundle.whole([first]))
            self.note(action, corporation)
        return commit

    # -- exchanges --------------------------------------------------------------------------

    def exchange_offer(self, company) -> list:
        """The certificates the private ``company`` may be exchanged for now: in its
        owner's turn, the exchange being a power of the private (none for a corporation,
        whatever its id)."""
        table = self.table
        owner = company.owner
        if not isinstance(company, CompanyState) or company.closed or \
                owner is not self.actor() or not isinstance(owner, PlayerState):
            return []
        n = notes(table)
        if company.sym in SHORTLINE_EXCHANGERS:
            reserved = [c for c in certificates.held(n.shortline, n.shortline) if not c.buyable]
            return reserved[:1]
        if company.sym == "IB" and company.powers:
            out = []
            for corp in table.state.corporations:
                if corp.started and corp not in (n.mainline, n.shortline) and \
                        corp.sym != data.PEIR.sym:
                    out.extend(certificates.held(table.state.market, corp)[:1])
            return out
        return []

    def exchange(self, action):
        company, bundle = action.entity, action.bundle
        if not any(c in bundle.certificates for c in self.exchange_offer(company)) or \
                len(bundle.certificates) != 1:
            raise GameError(f"{company.name} cannot be exchanged for {bundle.ids()}")
        player = company.owner
        if not trading.holding_allowed(self.table, player, bundle.corporation, bundle.percent):
            raise GameError(f"{player.name} may not hold more of {bundle.corporation.name}")

        def commit() -> None:
            for c in bundle.certificates:
                c.buyable = True
            self.table.log(f"{player.name} exchanges {company.name}")
            powers.close_company(self.table, company)
            self.take_shares(player, bundle, exchange=True)
            n = self.round.notes
            n.last_to_act = player
            n.turn_actions.append(Exchanged())
        return commit

    # -- splitting --------------------------------------------------------------------------

    def may_split(self, corporation, player) -> bool:
        """A started corporation its president holds 40% of, with two stations on the
        map, while a tranche has room and a branch is left (asked in that order: what
        the corporation says first, as :meth:`may_split_any` asks of each)."""
        return corporation.started and \
            corporation.owner is player and corporation.sym != data.PEIR.sym and \
            certificates.percent_of(player, corporation) >= 40 and \
            sum(1 for t in corporation.tokens if t.where is not None) >= 2 and \
            tranche_open(self.table) and \
            any(is_branch(c) and not c.started for c in self.table.state.corporations)

    def may_split_any(self, player) -> bool:
        return not self.bought() and any(self.may_split(c, player)
                                         for c in self.table.state.corporations)

    @handles("split")
    def split(self, action):
        """The president starts splitting the corporation (``split``)."""
        player = action.entity
        corporation = self.table.corporation(action.get("corporation") or "")
        if corporation is None or self.bought() or not self.may_split(corporation, player):
            raise GameError(f"{player.name} cannot split {action.get('corporation')!r}")

        def commit() -> None:
            n = self.round.notes
            if player in n.pass_order:
                n.pass_order.remove(player)
            player.passed = False
            self.note(action, corporation)
            self.round.steps[[type(s) for s in self.round.steps].index(SplitStep)].begin(
                corporation)
        return commit

    def program_buys_from_market(self, program: dict) -> bool:
        """Programmed purchases buy from the market, where the shares are."""
        return True

    def candidates(self, entity, kind, offer) -> list:
        table = self.table
        if kind == "buy_shares" and isinstance(entity, CompanyState):
            return [new_action("buy_shares", entity, shares=[c.id], percent=c.percent)
                    for c in self.exchange_offer(entity)]
        if kind == "split":
            return [new_action("split", entity, corporation=c.sym)
                    for c in table.state.corporations if self.may_split(c, entity)]
        out = super().candidates(entity, kind, offer)
        if kind in ("buy_shares", "par") and self.may_buy_for_bank(entity):
            seat = self.bank_seat()
            out += [dict(a, purchase_for=seat.id, purchase_for_type="player",
                         borrow_from=entity.id, borrow_from_type="player") for a in list(out)]
        return out
