"""The Old Prince 1871 — the opening auction of piles (rules "Dražba").

The privates and the PEIR cards (all but the King's Mail) are shuffled with the seed and
dealt into one pile per player (5 each with three players, 4 with four). In turn a player
offers a lot of their pile; only the two players to their left may bid, starting at its
value + 5, in turn, each bid 5 more; a pass once someone has bid ends the auction for the
highest bid. If both pass without a bid, the player three seats on (with three players,
the one who offered) must buy it at its value, or, if they cannot pay, the richest
player; if nobody can, the privates pay out until someone can (should the players' privates
earn nothing, as the reference would then loop for ever, the richest pays all they have). The moves the rules make
themselves are not in the log: a bidder who cannot pay the least bid passes, and a player
left with one lot offers it.
"""

from __future__ import annotations

from ...errors import GameError
from ...actions import new_action
from ...rules import money, powers
from ...turns.round import SeatRound
from ...turns.step import Step, handles
from .buying import company_bought
from .draws import seats
from .notes import notes


class PileRound(SeatRound):
    """The auction, played by the players but not by the Union Bank."""

    def choose_entities(self) -> list:
        return seats(self.table)


class Lot:
    """The auction of one lot: who offered it, the two who may bid, who must take it."""

    def __init__(self, company, offerer, first, second, taker) -> None:
        self.company = company
        self.offerer = offerer
        self.bidders = (first, second)
        self.taker = taker
        self.bids: list = []          # (player, price), in order
        self.passed: set = set()


class PileAuction(Step):
    """See the module docstring."""

    NAME = "Auction off Companies"

    def __init__(self, round, **options) -> None:
        super().__init__(round, **options)
        self.lot = None
        table = self.table
        lots = table.state.rng.shuffled([c for c in table.state.companies if c.sym != "KM"])
        players = self.round.entities
        size = len(lots) // len(players)
        piles = notes(table).piles
        for i, player in enumerate(players):
            piles[player] = lots[i * size:(i + 1) * size]
            table.log(f"Offer pile for {player.name}: "
                      f"{', '.join(c.name for c in piles[player])}")

    def piles(self) -> dict:
        return notes(self.table).piles

    def live(self) -> bool:
        return any(self.piles().values())

    def kinds(self, entity):
        if not self.live() or entity is not self.actor():
            return ()
        return ("bid", "pass") if self.lot is not None else ("offer",)

    def least_bid(self) -> int:
        lot = self.lot
        step = self.table.settings.min_bid_step
        return (lot.bids[-1][1] if lot.bids else lot.company.value) + step

    def candidates(self, entity, kind, offer) -> list:
        if kind == "offer":
            return [new_action("offer", entity, company=c.sym) for c in self.piles()[entity]]
        if kind == "bid":
            return [new_action("bid", entity, company=self.lot.company.sym, price=p)
                    for p in offer.prices(self.least_bid(), entity.cash)]
        return super().candidates(entity, kind, offer)

    # -- offering ---------------------------------------------------------------------------

    @handles("offer")
    def offer(self, action):
        """A player offers a lot of their own pile."""
        player = action.entity
        company = self.table.company(action.get("company") or "")
        if company is None or company not in self.piles().get(player, ()):
            raise GameError(f"{player.name} may offer only a lot of their own pile")
        return lambda: self.open_lot(player, company)

    def open_lot(self, player, company) -> None:
        players = self.round.entities
        i = players.index(player)
        n = len(players)
        self.lot = Lot(company, player, players[(i + 1) % n], players[(i + 2) % n],
                       players[(i + 3) % n])
        self.table.log(f"{player.name} offers {company.name}")
        self.turn_to(self.lot.bidders[0])

    # -- bidding ----------------------------------------------------------------------------

    @handles("bid")
    def bid(self, action):
        """A bid of at least the least bid, within the bidder's cash."""
        player, price = action.entity, action.price
        if action.company is not self.lot.company:
            raise GameError(f"{self.lot.company.name} is being auctioned")
        if not isinstance(price, int) or price < self.least_bid():
            raise GameError(f"the least bid for {self.lot.company.name} is "
                            f"{self.table.money(self.least_bid())}")
        if price > player.cash:
            raise GameError(f"{player.name} has only {self.table.money(player.cash)}")

        def commit() -> None:
            self.lot.bids.append((player, price))
            self.table.log(f"{player.name} bids {self.table.money(price)} for "
                           f"{self.lot.company.name}")
            self.other_bidder(player)
        return commit

    @handles("pass")
    def decline(self, action):
        """Passing: after a bid the highest bidder wins; after two passes without a bid
        the lot is forced on a buyer."""
        return lambda: self.pass_on_lot(action.entity)

    def pass_on_lot(self, player) -> None:
        lot = self.lot
        self.table.log(f"{player.name} passes on {lot.company.name}")
        lot.passed.add(player)
        if lot.bids:
            winner, price = lot.bids[-1]
            self.sell(winner, lot.company, price)
            self.table.log(f"{winner.name} wins {lot.company.name} for {self.table.money(price)}")
            return self.close_lot()
        if all(b in lot.passed for b in lot.bidders):
            self.force(lot.company)
            return self.close_lot()
        self.other_bidder(player)

    def other_bidder(self, player) -> None:
        first, second = self.lot.bidders
        self.turn_to(second if player is first else first)

    def turn_to(self, player) -> None:
        """The bidder's turn; one who cannot pay the least bid passes at once."""
        self.round.goto(player)
        if player.cash < self.least_bid():
            self.table.log(f"{player.name} does not have {self.table.money(self.least_bid())} "
                           f"({self.table.money(player.cash)})")
            self.pass_on_lot(player)

    def force(self, company) -> None:
        """Nobody bid: the player three seats on takes it at its value, else the richest
        (the privates paying out until someone can)."""
        table, value = self.table, company.value
        if self.lot.taker.cash >= value:
            self.sell(self.lot.taker, company, value)
            table.log(f"{self.lot.taker.name} is forced to buy {company.name} for "
                      f"{table.money(value)}")
            return
        richest = max(self.round.entities, key=lambda p: p.cash)
        while richest.cash < value and self.pay_out_companies():
            table.log(f"No player can afford {company.name} ({table.money(value)}), paying "
                      f"out companies")
            richest = max(self.round.entities, key=lambda p: p.cash)
        price = min(value, richest.cash)
        table.log(f"{richest.name} is forced to buy {company.name} for {table.money(price)} "
                  f"- highest cash")
        self.sell(richest, company, price)

    def pay_out_companies(self) -> int:
        """The players' privates pay their revenue (the King's Mail does not); what they
        paid in all."""
        table, paid = self.table, 0
        for company in table.state.companies:
            owner = company.owner
            if company.sym != "KM" and owner in self.round.entities and company.revenue:
                money.pay(table, table.state.bank, owner, company.revenue)
                paid += company.revenue
        return paid

    def sell(self, player, company, price: int) -> None:
        table = self.table
        self.piles()[self.lot.offerer].remove(company)
        powers.give(table, company, player)
        if price > 0:
            money.pay(table, player, table.state.bank, price)
        company_bought(table, player, company)

    def close_lot(self) -> None:
        """The next to offer is the first player to the left of the one who offered; with
        one lot left, they offer it at once."""
        nxt = self.lot.bidders[0]
        self.lot = None
        self.round.goto(nxt)
        pile = self.piles()[nxt]
        if len(pile) == 1:
            self.open_lot(nxt, pile[0])
