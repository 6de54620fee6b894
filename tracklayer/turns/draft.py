"""Selling a starting package of certificates: a draft at face value, and the auction of
what is left at falling prices (1893's starting package).

Both ask the title what is on offer (:meth:`offer`); an item is bought from the bank
(:func:`tracklayer.rules.companies.buy_from_bank`).
"""

from __future__ import annotations

from typing import List

from ..errors import GameError
from ..rules import companies
from ..actions import new_action
from .sequence import rotate_to
from .step import Step, handles


class FaceValueDraft(Step):
    """Players in turn buy an item on offer at its face value, or pass; a player who
    passes is out of the draft. The draft ends when one item is left or all have passed."""

    NAME = "Draft"

    def offer(self) -> list:
        raise NotImplementedError

    def sell_item(self, player, item, price: int, forced: bool = False) -> None:
        companies.buy_from_bank(self.table, player, item, price, forced)

    def passers(self) -> list:
        """The players who have passed (the title keeps them)."""
        raise NotImplementedError

    def over(self) -> bool:
        return len(self.offer()) == 1 or len(self.passers()) == len(self.table.state.players)

    def kinds(self, entity):
        if self.over():
            return ()
        return ("bid", "pass") if entity is self.actor() else ()

    def candidates(self, entity, kind, offer) -> list:
        if kind == "bid":
            return [new_action("bid", entity, company=c.sym, price=c.value)
                    for c in self.offer() if c.value <= entity.cash]
        return super().candidates(entity, kind, offer)

    @handles("bid")
    def buy(self, action):
        item, price = action.target, action.price
        if item not in self.offer():
            raise GameError(f"{item.name if item else '?'} cannot be bought now")
        if price != item.value:
            raise GameError(f"{item.name} costs {self.table.money(item.value)}")

        def commit() -> None:
            self.sell_item(action.entity, item, price)
            self.next_player()
        return commit

    @handles("pass")
    def decline(self, action):
        def commit() -> None:
            self.table.log(f"{action.entity.name} passes")
            self.passers().append(action.entity)
            self.next_player()
        return commit

    def next_player(self) -> None:
        """The next player who has not passed."""
        r = self.round
        while True:
            r.next_index()
            if self.over() or r.entities[r.index] not in self.passers():
                return


class FallingPriceAuction(Step):
    """What is left of a package is auctioned: a player picks an item; in turn each other
    player may buy it at its price or pass (a player who cannot pay passes); when all
    have passed the price falls by 10, and once it is no more than half the value the
    player who picked it must buy it (or, short of cash, the next who can; failing all,
    the picker for all their cash)."""

    NAME = "Auction of the rest of the starting package"
    REDUCTION = 10

    def prepare(self) -> None:
        self.picker = None
        self.item = None
        self.first_afterwards = self.table.state.players[0]

    def offer(self) -> list:
        raise NotImplementedError

    def sell_item(self, player, item, price: int, forced: bool = False) -> None:
        companies.buy_from_bank(self.table, player, item, price, forced)

    def for_sale(self) -> list:
        return [self.item] if self.item is not None else self.offer()

    def price(self, item) -> int:
        return item.value - item.discount

    def kinds(self, entity):
        if not self.for_sale() or entity is not self.actor():
            return ()
        if self.item is None:
            return ("bid",)
        if self.price(self.item) > entity.cash:
            return ()
        return ("bid", "pass")

    def candidates(self, entity, kind, offer) -> list:
        if kind == "bid":
            return [new_action("bid", entity, company=c.sym, price=self.price(c))
                    for c in self.for_sale()
                    if self.item is None or self.price(c) <= entity.cash]
        return super().candidates(entity, kind, offer)

    @handles("bid")
    def bid(self, action):
        item = action.target
        if self.item is not None:
            if item is not self.item or item not in self.offer():
                raise GameError(f"{item.name if item else '?'} is not being auctioned")
            if action.price != self.price(item):
                raise GameError(f"{item.name} costs {self.table.money(self.price(item))} now")
            return lambda: self.sold(action.entity, item, action.price)
        if item not in self.offer():
            raise GameError(f"{item.name if item else '?'} cannot be auctioned")

        def pick() -> None:
            self.picker = action.entity
            self.table.log(f"{action.entity.name} selects {item.name} for auction")
            self.item = item
            self.next_player()
        return pick

    @handles("pass")
    def decline(self, action):
        def commit() -> None:
            if self.item is None:
                return
            action.entity.passed = True
            self.table.log(f"{action.entity.name} passes on {self.item.name}")
            if self.all_passed(self.item):
                return
            self.next_player()
        return commit

    def all_passed(self, item) -> bool:
        """Have all passed on ``item``? Then it is forced on the picker, or cheapened."""
        if item is None:
            return True
        if not all(e.passed for e in self.round.entities):
            return False
        if item.value // 2 >= self.price(item):
            self.force(self.picker, item)
        else:
            item.discount += self.REDUCTION
            self.table.log(f"Price of {item.name} is now lowered to "
                           f"{self.table.money(self.price(item))}")
            for e in self.round.entities:
                e.passed = False
            self.next_player()
        return True

    def next_player(self) -> None:
        r = self.round
        r.next_index()
        entity = r.entities[r.index]
        if entity is None:
            return
        if self.all_passed(self.item) or not (entity.passed or not self.kinds(entity)):
            return
        entity.passed = True
        self.table.log(f"{entity.name} is forced to pass on {self.item.name}: it costs more "
                       f"than their cash")
        self.next_player()

    def sold(self, buyer, item, price: int) -> None:
        self.sell_item(buyer, item, price)
        self.after_sale()

    def force(self, picker, item) -> None:
        buyer, price = self.forced_buyer(item, picker, self.price(item), picker)
        self.sell_item(buyer, item, price, forced=True)
        self.after_sale()

    def forced_buyer(self, item, candidate, price: int, first):
        entities: List = self.round.entities
        while True:
            if price <= candidate.cash:
                return candidate, price
            nxt = entities[(entities.index(candidate) + 1) % len(entities)]
            if nxt is first:
                return first, first.cash
            if price <= nxt.cash:
                return nxt, price
            candidate = nxt

    def after_sale(self) -> None:
        self.item = None
        for e in self.round.entities:
            e.passed = False
        if not self.for_sale():
            rotate_to(self.table, self.first_afterwards)
            self.round.first_index()
        else:
            self.round.goto(self.picker)
            self.picker = None
            self.next_player()
