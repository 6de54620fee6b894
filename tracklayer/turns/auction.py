"""Auctions of private companies at the start of a game.

The *waterfall* auction: in turn, players buy the cheapest company at its price or bid on
a dearer one. When the cheapest is bought, the next company with one bid goes to its
bidder, and one with several bids is auctioned among them (the lowest bidder raises or
drops out). If everyone passes, the cheapest company's price drops by 5; at 0 the player
whose turn it is must take it. Bids commit the bidder's cash.
"""

from __future__ import annotations

from typing import List, Optional

from ..errors import GameError
from ..rules import certificates, market, money, powers, trading
from ..rules.certificates import Bundle
from ..actions import new_action
from .step import Step, handles


class Bid:
    __slots__ = ("player", "company", "price")

    def __init__(self, player, company, price: int) -> None:
        self.player = player
        self.company = company
        self.price = price


class WaterfallAuction(Step):
    """See the module docstring."""

    NAME = "Bid on Companies"

    def prepare(self) -> None:
        self.bids: dict = {}
        self.auctioning = None
        self.companies = sorted(self.table.state.companies, key=lambda c: c.value)
        self.cheapest = self.companies[0] if self.companies else None

    def open_auction(self) -> Optional[list]:
        """The bids of the auction in progress, if one is."""
        bids = self.bids.get(self.auctioning) or []
        return bids if len(bids) > 1 else None

    def actors(self) -> list:
        bids = self.open_auction()
        if bids:
            return [min(bids, key=lambda b: b.price).player]
        return super().actors()

    def kinds(self, entity):
        if not self.companies:
            return ()
        return ("bid", "pass") if entity is self.actor() else ()

    def for_sale_now(self, company) -> bool:
        return not self.open_auction() and bool(self.companies) and company is self.companies[0]

    def lowest_bid(self, company) -> int:
        if self.for_sale_now(company):
            return company.value - company.discount
        top = max(self.bids.get(company) or [], key=lambda b: b.price, default=None)
        return (top.price if top else company.value - company.discount) + \
            self.table.settings.min_bid_step

    def committed(self, player) -> int:
        return sum(b.price for bids in self.bids.values() for b in bids if b.player is player)

    def leading_bid(self, company) -> Optional[Bid]:
        return max(self.bids.get(company) or (), key=lambda b: b.price, default=None)

    def leading_bidder(self, company):
        top = self.leading_bid(company)
        return top.player if top is not None else None

    def leading_bids(self, player) -> int:
        return sum(top.price for top in map(self.leading_bid, self.bids)
                   if top is not None and top.player is player)

    def highest_bid(self, player, company) -> int:
        own = next((b.price for b in self.bids.get(company) or () if b.player is player), 0)
        return player.cash - self.committed(player) + own

    def candidates(self, entity, kind, offer) -> list:
        if kind != "bid":
            return super().candidates(entity, kind, offer)
        out = []
        for c in [self.auctioning] if self.open_auction() else list(self.companies):
            if self.for_sale_now(c):
                prices = [c.value - c.discount]
            else:
                prices = offer.prices(self.lowest_bid(c), self.highest_bid(entity, c))
            out.extend(new_action("bid", entity, company=c.sym, price=p) for p in prices)
        return out

    # -- actions ----------------------------------------------------------------------------

    @handles("pass")
    def decline(self, action):
        entity = action.entity
        return lambda: self.drop_out(entity) if self.open_auction() else self.pass_turn(entity)

    def drop_out(self, player) -> None:
        """A bidder passing in an auction withdraws their bid; the auction may then be
        decided."""
        self.table.log(f"{player.name} passes on {self.auctioning.name}")
        bids = self.bids.get(self.auctioning)
        bids[:] = [b for b in bids if b.player is not player]
        self.settle()

    def pass_turn(self, player) -> None:
        """A player passing their turn; when everyone has passed in a row, the cheapest
        company gets cheaper (:meth:`everyone_passed`)."""
        self.table.log(f"{player.name} passes bidding")
        player.passed = True
        if all(e.passed for e in self.round.entities):
            self.everyone_passed()
        self.round.next_index()

    @handles("bid")
    def bid(self, action):
        entity, company, price = action.entity, action.company, action.price
        if company is None or company not in self.companies:
            raise GameError(f"{action.target.name if action.target else '?'} is not for "
                            f"auction")
        if self.open_auction() and company is not self.auctioning:
            raise GameError(f"the auction of {self.auctioning.name} is in progress")
        buying = not self.open_auction() and self.for_sale_now(company)
        if buying:
            if price != company.value - company.discount:
                raise GameError(f"{company.name} costs "
                                f"{self.table.money(company.value - company.discount)}")
            if self.highest_bid(entity, company) < price:
                raise GameError(f"{entity.name} has {self.table.money(entity.cash)} available "
                                f"and cannot spend {self.table.money(price)}")
        else:
            self.check_bid(entity, company, price)

        def commit() -> None:
            entity.passed = False
            if self.open_auction():
                self.place(Bid(entity, company, price))     # a raise: the auction goes on
                return
            if buying:
                self.buy_outright(entity, company, price)
            else:
                self.place(Bid(entity, company, price))
            self.round.next_index()
        return commit

    def buy_outright(self, player, company, price: int) -> None:
        """The cheapest company bought at its price; companies after it may then be
        decided (:meth:`settle`)."""
        self.round.notes.last_to_act = player
        self.bids.pop(company, None)
        self.sell(player, company, price)
        self.settle()

    def check_bid(self, player, company, price) -> None:
        low = self.lowest_bid(company)
        if not isinstance(price, int) or price < low:
            raise GameError(f"the minimum bid for {company.name} is {self.table.money(low)}")
        high = self.highest_bid(player, company)
        if price > high:
            raise GameError(f"{player.name} can bid at most {self.table.money(high)}")

    def place(self, bid: Bid) -> None:
        bids = self.bids.setdefault(bid.company, [])
        bids[:] = [b for b in bids if b.player is not bid.player]
        bids.append(bid)
        self.table.log(f"{bid.player.name} bids {self.table.money(bid.price)} for "
                       f"{bid.company.name}")

    def settle(self) -> None:
        """Companies at the front with a single bid go to their bidder; one with several
        bids goes to auction."""
        while self.companies:
            company = self.companies[0]
            self.auctioning = None
            bids = self.bids.get(company) or []
            if len(bids) == 1:
                self.bids.pop(company, None)
                self.sell(bids[0].player, company, bids[0].price)
                continue
            if len(bids) > 1:
                self.auctioning = company
            break

    def sell(self, player, company, price: int) -> None:
        table = self.table
        if self.highest_bid(player, company) < price:
            raise GameError(f"{player.name} has {table.money(player.cash)} available and "
                            f"cannot spend {table.money(price)}")
        company.owner = player
        player.companies.append(company)
        if price > 0:
            money.pay(table, player, table.state.bank, price)
        self.companies.remove(company)
        table.log(f"{player.name} buys {company.name} for {table.money(price)}")
        trading.company_bought(table, player, company)

    def everyone_passed(self) -> None:
        """The cheapest company gets cheaper; if it has been sold, the companies pay out
        as in an operating round."""
        table = self.table
        if self.cheapest in self.companies:
            self.cheapen(self.cheapest, 5)
        else:
            powers.pay_revenues(table)
        for e in self.round.entities:
            e.passed = False

    def cheapen(self, company, amount: int) -> None:
        company.discount += amount
        if company.value - company.discount > 0:
            return
        self.round.next_index()
        self.sell(self.actor(), company, 0)
        self.settle()


class PendingPar(Step):
    """The buyer of a company that comes with a president's certificate sets its par."""

    NAME = "Choose Corporation Par Value"

    def kinds(self, entity):
        return ("par",) if entity is self.actor() else ()

    def live(self) -> bool:
        return bool(self.round.notes.pending_par)

    def actors(self) -> list:
        pending = self.round.notes.pending_par
        return [pending[0].owner] if pending and pending[0].owner is not None else []

    def start_prices(self, entity, corporation) -> list:
        return self.table.variant.start_cells(self.table, corporation, entity)

    def candidates(self, entity, kind, offer) -> list:
        if kind != "par":
            return super().candidates(entity, kind, offer)
        company = self.round.notes.pending_par[0]
        out = []
        for p in powers.powers(self.table, company, "shares"):
            cert = self.table.find("share", p.certificate)
            if cert is not None and cert.president:
                out.extend(new_action("par", entity, corporation=cert.corporation.sym,
                                      share_price=cell.id)
                           for cell in self.start_prices(entity, cert.corporation))
        return out

    @handles("par")
    def start(self, action):
        table = self.table
        corporation = action.corporation
        company = self.round.notes.pending_par[0]
        expected = None
        for p in powers.powers(table, company, "shares"):
            cert = table.find("share", p.certificate)
            if cert is not None and cert.president:
                expected = cert.corporation
        if corporation is not expected:
            raise GameError(f"{company.name} comes with the presidency of "
                            f"{expected.name if expected else '?'}, not {corporation.name}")
        if action.cell not in self.start_prices(action.entity, corporation):
            raise GameError(f"{corporation.name} cannot be parred at "
                            f"{table.money(action.cell.price)}")

        def commit() -> None:
            market.start_at(table, corporation, action.cell.at)
            trading.buy(table, action.entity, Bundle.of([corporation.certificates[0]]),
                        exchange=True)
            table.variant.corporation_started(table, corporation)
            self.round.notes.pending_par.pop(0)
        return commit


__all__: List[str] = ["WaterfallAuction", "PendingPar", "certificates"]
