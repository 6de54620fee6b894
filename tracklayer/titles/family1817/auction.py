"""Open auctions, 1817 style, and the opening auction of the private companies.

An *open auction*: the player who opens it names the item and a first bid; every player
who can meet the next bid takes part. In turn after the highest bidder, each raises (by
multiples of $5) or drops out; the last one left wins. A player who cannot meet the next
bid is out at once.

The opening auction: in seat order a player opens an auction on any private company or
passes; when all pass in a row, the companies left are removed. A company's first bid
may be as low as its value less the seed money left; the bank pays the difference between
the winning bid and the value, out of the seed money, until it is spent. After each sale,
the player after the one who opened it opens the next.
"""

from __future__ import annotations

from typing import Callable, List, Optional

from ...actions import new_action
from ...errors import GameError
from ...rules import money
from ...turns.step import Step, handles
from .notes import notes


class OpenAuction:
    """One item's open auction: who takes part (in seat order) and their bids."""

    def __init__(self, item, opener, bidders: list, step: int = 5) -> None:
        self.item = item
        self.step = step                      # bids rise by multiples of this
        self.opener = opener
        self.bidders = list(bidders)         # still in, in seat order
        self.bids: dict = {}                  # player → their bid

    @property
    def top(self):
        """(player, price) of the highest bid."""
        player = max(self.bids, key=lambda p: self.bids[p])
        return player, self.bids[player]

    def next_bidder(self):
        """Who bids next: the one after the highest bidder among those still in."""
        leader, _ = self.top
        return self.bidders[(self.bidders.index(leader) + 1) % len(self.bidders)]

    def winner(self):
        """The last bidder left, once only one is."""
        return self.top if len(self.bidders) == 1 and self.bids else None

    def drop(self, player) -> None:
        if player in self.bidders:
            self.bidders.remove(player)
        self.bids.pop(player, None)

    def place(self, player, price: int, can_meet: Callable[[object, int], bool], log) -> None:
        """``player`` bids ``price``; those who cannot meet the next bid drop out."""
        self.bids[player] = price
        least = price + self.step
        for other in list(self.bidders):
            if other is not player and not can_meet(other, least):
                log(f"{other.name} cannot bid {least} and is out of the auction for "
                    f"{self.item.name}")
                self.drop(other)


STEP = 5


def check_raise(table, least: int, price, most: int, name: str) -> None:
    """A bid must be at least ``least``, above it by a multiple of $5, and at most
    ``most``."""
    if not isinstance(price, int) or isinstance(price, bool) or price < least:
        raise GameError(f"the minimum bid for {name} is {table.money(least)}")
    if (price - least) % STEP:
        raise GameError(f"bids rise by multiples of {table.money(STEP)}")
    if price > most:
        raise GameError(f"cannot afford a bid of {table.money(price)}: at most "
                        f"{table.money(most)}")


class PrivateAuction(Step):
    """The opening auction of the private companies (see the module docstring)."""

    NAME = "Bid on Companies"

    def __init__(self, round, **options) -> None:
        super().__init__(round, **options)
        self.auction: Optional[OpenAuction] = None
        self.left = list(self.table.state.companies)

    def actors(self) -> list:
        if self.auction is not None:
            return [self.auction.next_bidder()]
        return super().actors()

    def kinds(self, entity):
        if not self.left or entity is not self.actor():
            return ()
        return ("bid", "pass")

    def first_bid(self, company) -> int:
        return max(0, company.value - notes(self.table).seed_money)

    def least_bid(self, company) -> int:
        if self.auction is None:
            return self.first_bid(company)
        return self.auction.top[1] + STEP

    def candidates(self, entity, kind, offer) -> list:
        if kind != "bid":
            return super().candidates(entity, kind, offer)
        items = [self.auction.item] if self.auction else self.left
        return [new_action("bid", entity, company=c.sym, price=p) for c in items
                for p in offer.prices(self.least_bid(c), entity.cash, STEP)]

    @handles("bid")
    def bid(self, action):
        entity, company, price = action.entity, action.company, action.price
        if company is None or company not in self.left:
            raise GameError(f"{action.target.name} is not for auction")
        if self.auction is not None and company is not self.auction.item:
            raise GameError(f"the auction of {self.auction.item.name} is in progress")
        check_raise(self.table, self.least_bid(company), price, entity.cash, company.name)

        def commit() -> None:
            table = self.table
            entity.passed = False
            seed = max(0, company.value - price)
            table.log(f"{entity.name} bids {table.money(price)} for {company.name}, bank will "
                      f"provide {table.money(seed)}")
            if self.auction is None:
                self.open(entity, company)
            self.auction.place(entity, price, lambda p, least: p.cash >= least, table.log)
            self.settle()
        return commit

    def open(self, opener, company) -> None:
        least = self.first_bid(company)
        bidders = [p for p in self.round.entities if p is opener or p.cash >= least]
        for p in self.round.entities:
            if p not in bidders:
                self.table.log(f"{p.name} cannot bid {self.table.money(least)} and is out "
                               f"of the auction for {company.name}")
        self.auction = OpenAuction(company, opener, bidders)

    @handles("pass")
    def decline(self, action):
        entity = action.entity

        def commit() -> None:
            if self.auction is not None:
                self.table.log(f"{entity.name} passes on {self.auction.item.name}")
                self.auction.drop(entity)
                self.settle()
                return
            self.table.log(f"{entity.name} passes bidding")
            entity.passed = True
            if all(p.passed for p in self.round.entities):
                self.remove_the_rest()
                return
            self.next_to_open()
        return commit

    def next_to_open(self) -> None:
        """The next player in seat order who has not passed opens the next auction."""
        players = self.round.entities
        for _ in players:
            self.round.next_index()
            if not players[self.round.index].passed:
                return

    def settle(self) -> None:
        """When one bidder is left, they buy the company at their bid; the seed money
        pays the rest of its value."""
        won = self.auction.winner() if self.auction else None
        if won is None:
            return
        player, price = won
        table = self.table
        company = self.auction.item
        kept = notes(table)
        seed = max(0, company.value - price)
        kept.seed_money -= seed
        company.owner = player
        player.companies.append(company)
        if price > 0:
            money.pay(table, player, table.state.bank, price)
        table.log(f"{player.name} wins the auction for {company.name} with a bid of "
                  f"{table.money(price)}" + (f" spending {table.money(seed)} seed money, "
                                             f"{table.money(kept.seed_money)} seed money "
                                             f"remains" if seed else ""))
        self.left.remove(company)
        opener = self.auction.opener
        self.auction = None
        for p in self.round.entities:
            p.passed = False
        self.round.goto(opener)
        self.next_to_open()

    def remove_the_rest(self) -> None:
        """Everyone passed: the companies nobody bought leave the game."""
        for company in self.left:
            company.closed = True
            self.table.log(f"{company.name} is removed")
        self.left = []
        self.round.next_index()


__all__: List[str] = ["OpenAuction", "PrivateAuction", "check_raise", "STEP"]
