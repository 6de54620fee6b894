"""1893: Cologne — the stock round turn (rulebook sections in brackets).

* In the first stock round nobody sells, and a player who passed is out of it (6).
* FdSD may be exchanged for 20% of RAG from the market, in its owner's turn, instead of a
  purchase, or pay for parring RAG (2.1), which in the first stock round it must (declining
  is a pass); FdSD due to close closes after a purchase.
* As on 18xx.games, a player over a limit may also buy from the bank, exchange FdSD, or
  pass where they could sell a bond; a minor's card bought is recorded as
  ``buy_corporation`` too.
"""

from __future__ import annotations

from typing import Iterator

from ...actions import new_action
from ...errors import GameError
from ...rules import certificates, money, operators, powers, trading
from ...state.model import PlayerState
from ...turns import trades
from ...turns.stock import StockTurn, one_of_each_size
from ...turns.step import Kinds, handles
from .notes import notes


class CologneStockTurn(StockTurn):
    """A stock round turn of 1893: the first stock round's restrictions, FdSD, and minors'
    cards bought as ``buy_corporation`` too. As on 18xx.games, a player over a limit may
    also buy from the bank, exchange FdSD, or pass where they could sell a bond."""

    rag_par = None        # the par of RAG by the owner of FdSD, while FdSD may pay for it

    def kinds(self, entity):
        """FdSD's exchange, FdSD paying for RAG's par, and 18xx.games' extras."""
        if not isinstance(entity, PlayerState):
            fdsd = entity is self.table.company("FdSD") and entity.owner is self.actor()
            return ("buy_shares", "pass") if fdsd and self.table.corporation("RAG").started else ()
        if self.out_of_first_round(entity):
            return ()
        if self.fdsd_to_pay(entity):
            return ("assign", "pass") if self.may_decline_fdsd() else ("assign",)
        if entity is not self.actor():
            return ()
        return Kinds(self.kinds_in_turn(entity),   # (some kind: a trade, or FdSD's exchange)
                     some=lambda: self.some_trade(entity) or self.may_exchange(entity),
                     rules={"pass": lambda: self.may_pass(entity),
                            "sell_shares": lambda: self.may_sell_some(entity)})

    def kinds_in_turn(self, entity) -> Iterator[str]:
        """A stock turn's kinds, then: buying a company from the bank even when only
        selling otherwise; FdSD's exchange; a minor's card with any company; passing
        with anything but selling shares (each kind once, in order)."""
        must_sell = self.must_sell(entity)
        seen = []
        for kind in self.turn_kinds(entity, must_sell):   # (never buy_company if must_sell)
            seen.append(kind)
            yield kind
        more = ["buy_company"] if must_sell and trades.companies_from_bank(self, entity) else []
        if "buy_shares" not in seen and self.may_exchange(entity):
            more.append("buy_shares")
        if "buy_company" in seen + more:
            more.append("buy_corporation")
        if "pass" not in seen and any(k != "sell_shares" for k in seen + more):
            more.append("pass")
        yield from more

    def may_pass(self, entity) -> bool:
        """Passing comes with anything but selling shares (:meth:`kinds_in_turn`): for a
        player who must sell, a company to sell, or to buy from the bank, or FdSD's
        exchange; for another, any trade, or FdSD's exchange."""
        if self.must_sell(entity):
            return self.trade_open(entity, trades.may_sell_some_company) or \
                bool(trades.companies_from_bank(self, entity)) or self.may_exchange(entity)
        return self.some_trade(entity) or self.may_exchange(entity)

    def in_first_round(self) -> bool:
        """Is this the first stock round (the stock round of turn 1)?"""
        return self.table.turn == 1

    def out_of_first_round(self, player) -> bool:
        """A player who passed in the first stock round is out of it."""
        return self.in_first_round() and player in notes(self.table).passers

    @handles("pass")
    def decline(self, action):
        """Passing in the first stock round puts the player out of it (6)."""
        commit = super().decline(action)

        def then() -> None:
            if self.in_first_round():
                notes(self.table).passers.append(action.entity)
            commit()
        return then

    @handles("buy_corporation")
    def buy_minor(self, action):
        """18xx.games records buying a minor's card in a stock round so."""
        card = self.table.company(action.get("minor") or "")
        if card is None or card.spec.minor is None:
            raise GameError("buy_corporation needs a minor")
        action.company, action.price = card, action.get("price")
        return self.buy_company(action)

    # -- FdSD (2.1) -------------------------------------------------------------------------

    def fdsd(self, player):
        """FdSD, if ``player`` owns it and it is open."""
        fdsd = self.table.company("FdSD")
        return fdsd if not fdsd.closed and fdsd.owner is player else None

    def rag_by_fdsd(self, player, corporation) -> bool:
        """Is ``corporation`` RAG, which ``player`` may par with FdSD's help (2.1)?"""
        return corporation.sym == "RAG" and self.fdsd(player) is not None

    def may_exchange(self, player) -> bool:
        """FdSD for RAG shares from the market, instead of a purchase: in its owner's own
        stock turn (an exchange is the turn's purchase; 18xx.games: "owning player's SR
        turn")."""
        return player is self.actor() and not self.out_of_first_round(player) and \
            not self.bought() and \
            self.fdsd(player) is not None and \
            operators.shares_in_market(self.table, self.table.corporation("RAG")) > 0

    def fdsd_to_pay(self, player) -> list:
        """FdSD, while its owner is parring RAG and may let it pay."""
        paying = self.rag_par is not None and self.rag_par.entity is player
        return [self.fdsd(player)] if paying and self.fdsd(player) else []

    def may_decline_fdsd(self) -> bool:
        """Declining FdSD's payment for RAG's par is a pass, and a player who passes in
        the first stock round plays no more in it (6), so cannot then take RAG's
        president's certificate: in the first stock round FdSD must pay (18xx.games
        offers the pass there but refuses it; from the second round on, the owner pays)."""
        return not self.in_first_round()

    def may_buy(self, entity, bundle) -> bool:
        """The owner of FdSD may take RAG's president's certificate without cash."""
        if bundle is not None and self.rag_by_fdsd(entity, bundle.corporation) and \
                not self.bought():
            return True
        return super().may_buy(entity, bundle)

    def may_take(self, entity, bundle, exchange=False) -> bool:
        """Only RAG's shares come by an exchange (of FdSD)."""
        if exchange and not self.rag_by_fdsd(entity, bundle.corporation):
            return False
        return super().may_take(entity, bundle, exchange)

    def start_prices(self, entity, corporation) -> list:
        """The owner of FdSD may par RAG at any price (FdSD may pay for it)."""
        if self.rag_by_fdsd(entity, corporation):
            return self.table.variant.start_cells(self.table, corporation, entity)
        return super().start_prices(entity, corporation)

    def mark_done(self) -> None:
        """Ending the turn while FdSD may pay for RAG's par: the owner pays."""
        if self.rag_par is not None:
            self.table.log(f"{self.rag_par.entity.name} declines to exchange FdSD")
            return self.start_rag(self.rag_par)
        super().mark_done()

    @handles("par")
    def start(self, action):
        """Parring RAG with FdSD: if the owner cannot pay, FdSD pays at once;
        else they choose (``assign`` FdSD, or pass where they may decline:
        :meth:`may_decline_fdsd`)."""
        self.check_start(action.entity, action.corporation, action.cell)
        if not self.rag_by_fdsd(action.entity, action.corporation):
            return super().start(action)

        def commit() -> None:
            self.rag_par = action
            if action.entity.cash < action.cell.price * 2:
                return self.pay_with_fdsd()
            self.table.log(f"{action.entity.name} may pay for par by exchanging FdSD")
        return commit

    @handles("assign")
    def assign(self, action):
        """The owner lets FdSD pay for RAG's par."""
        if self.rag_par is None:
            raise GameError("nothing to assign")
        return self.pay_with_fdsd

    def pay_with_fdsd(self) -> None:
        """FdSD closes, and the bank pays its owner the price of the president's
        certificate of RAG."""
        player = self.rag_par.entity
        close_fdsd(self.table)
        money.pay(self.table, self.table.state.bank, player, self.rag_par.cell.price * 2)
        self.start_rag(self.rag_par)

    def start_rag(self, action) -> None:
        """RAG starts at the price chosen."""
        self.check_start(action.entity, action.corporation, action.cell)
        self.begin_corporation(action, action.entity, action.corporation, action.cell)
        self.rag_par = None

    @handles("buy_shares")
    def buy(self, action):
        """FdSD buying is its exchange; FdSD due to close closes after a purchase."""
        entity = action.entity
        if not isinstance(entity, PlayerState):
            return self.exchange_fdsd(action)
        commit = super().buy(action)

        def then() -> None:
            commit()
            if notes(self.table).fdsd_to_close and self.table.company("FdSD").owner is entity:
                close_fdsd(self.table)
        return then

    def exchange_fdsd(self, action):
        """FdSD is exchanged for two 10% RAG shares from the market (or the one left)."""
        table = self.table
        company, bundle, rag = action.entity, action.bundle, table.corporation("RAG")
        if company is not table.company("FdSD") or not self.may_exchange(company.owner):
            raise GameError(f"{company.name} cannot be exchanged now")
        if bundle.corporation is not rag or bundle.owner is not table.state.market:
            raise GameError("FdSD is exchanged for RAG shares from the market")

        def commit() -> None:
            taken = bundle
            if operators.shares_in_market(table, rag) > 1:
                two = next((b for b in trading.growing_bundles(table, table.state.market, rag)
                            if round(b.shares) == 2), None)
                taken = two or bundle
            player = company.owner
            close_fdsd(table)
            trading.buy(table, player, taken, exchange=True)
            self.note(action, rag)
        return commit

    def candidates(self, entity, kind, offer) -> list:
        """FdSD's exchanges (one per share size), FdSD paying for RAG's par."""
        table = self.table
        if kind == "buy_shares" and not isinstance(entity, PlayerState):
            rag = table.corporation("RAG")
            return [new_action("buy_shares", entity, shares=[c.id], percent=c.percent)
                    for c in one_of_each_size(certificates.held(table.state.market, rag))]
        if kind == "assign":
            return [new_action("assign", entity, target=c.sym, target_type="company")
                    for c in self.fdsd_to_pay(entity)]
        return super().candidates(entity, kind, offer)


def close_fdsd(table) -> None:
    powers.close_company(table, table.company("FdSD"))
    table.log("Fond der Stadt Düsseldorf closed")
    notes(table).fdsd_to_close = False
