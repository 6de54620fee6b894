"""Founding an 1817 corporation in a stock round.

A player in turn, who has not bought this turn, opens an auction of a corporation's
president's certificate with a bid of $100 to $400 (at most their cash plus the value of
their private companies; none once at the certificate limit). The corporation chooses its
home city at once. The auction is an open one (``auction.OpenAuction``); the winner pays
the bid to the corporation, whose share price is the dearest cell at most half the bid.
Where the phase allows several sizes the winner chooses the number of shares. They may
pay part of the bid with private companies, at face value, as long as cash and companies
together pay exactly the bid: each company assigned goes to the corporation, which pays
its value back to the player. Then the corporation buys the station tokens its size gives
it ($50 each: 1, 2 or 4, one more with the Train Station) if it can, and the opener's turn
ends.
"""

from __future__ import annotations

from itertools import combinations
from typing import List, Optional

from ...actions import Action, new_action
from ...errors import GameError
from ...rules import certificates, market, money, operators, trading
from ...rules.certificates import Bundle
from ...state.model import TokenState
from .auction import STEP, OpenAuction, check_raise
from . import shares

LEAST_BID = 100
MOST_BID = 400
TOKEN_PRICE = 50
TOKENS_BY_SIZE = {2: 1, 5: 2, 10: 4}
TRAIN_STATION = "TS"


class Founding:
    """A stock turn's founding of a corporation: the auction, then the winner's choices."""

    def __init__(self) -> None:
        self.auction: Optional[OpenAuction] = None
        self.winner = None           # the player who won, still to choose or assign
        self.size: Optional[int] = None

    @property
    def corporation(self):
        return self.auction.item if self.auction else None


def bidding_power(player) -> int:
    return player.cash + sum(c.value for c in player.companies)


def most_bid(table, player) -> int:
    if trading.certificate_count(table, player) >= trading.certificate_limit(table, player):
        return 0
    return min(MOST_BID, bidding_power(player))


def paid_with(player, price: int) -> bool:
    """Can ``player`` pay ``price`` exactly with some of their companies and cash?"""
    values = [c.value for c in player.companies]
    return any(total <= price <= total + player.cash for total in subset_totals(values))


def payable_runs(player, least: int, most: int) -> list:
    """The bids from ``least`` to ``most`` in steps of $5 that ``player`` can pay exactly
    (:func:`paid_with`), as runs ``(first, last)`` of consecutive bids: with companies to
    pay with, the payable bids need not be one run."""
    runs: list = []
    for p in range(least, most + 1, STEP):
        if not paid_with(player, p):
            continue
        if runs and runs[-1][1] == p - STEP:
            runs[-1] = (runs[-1][0], p)
        else:
            runs.append((p, p))
    return runs


def subset_totals(values: list) -> set:
    return {sum(combo) for n in range(len(values) + 1) for combo in combinations(values, n)}


def may_assign(player, corporation) -> list:
    """The companies the winner may still put in: those in some set whose value makes up
    what their cash does not cover, and that the corporation can pay back."""
    most = corporation.cash
    least = -player.cash if player.cash < 0 else 0
    fitting = set()
    values = [c.value for c in player.companies]
    for n in range(len(values) + 1):
        for combo in combinations(values, n):
            if least <= sum(combo) <= most:
                fitting.update(combo)
    return [c for c in player.companies if c.value in fitting]


def tokens_needed(corporation) -> int:
    need = TOKENS_BY_SIZE[certificates.total_shares(corporation)] - len(corporation.tokens)
    if any(c.sym == TRAIN_STATION for c in corporation.companies):
        need += 1
    return need


def buy_tokens(table, corporation) -> None:
    """A corporation that has not operated buys the tokens its size gives it, if it can."""
    if corporation.operated:
        return
    need = tokens_needed(corporation)
    if need <= 0:
        return
    cost = need * TOKEN_PRICE
    plural = "s" if need > 1 else ""
    if cost > corporation.cash:
        table.log(f"{corporation.name} cannot afford {need} token{plural} for "
                  f"{table.money(cost)}, must take loans before end of stock round")
        return
    money.pay(table, corporation, table.state.bank, cost)
    table.log(f"{corporation.name} buys {need} token{plural} for {table.money(cost)}")
    corporation.tokens.extend(TokenState(corporation) for _ in range(need))


def price_for_bid(table, bid: int):
    """The dearest market cell at most half the bid."""
    half = bid // 2
    return max((c for c in table.spec.cells.values() if c.price <= half),
               key=lambda c: (c.price, c.column))


class FoundingTurn:
    """What a stock turn step does to found corporations (mixed into the family's stock
    turn; ``self.founding`` is the founding under way)."""

    def founding_actor(self):
        f = self.founding
        if f.winner is not None:
            return f.winner
        if f.auction is not None:
            return f.auction.next_bidder()
        return None

    def founding_kinds(self, entity) -> tuple:
        f = self.founding
        if f.winner is not None:
            if entity is not f.winner:
                return ()
            if f.size is None:
                return ("choose",)
            kinds = ("assign",)
            return kinds + ("pass",) if entity.cash >= 0 else kinds
        return ("bid", "pass") if entity is f.auction.next_bidder() else ()

    def may_open(self, entity) -> bool:
        """Before a purchase, may the player open a founding auction: can they bid the
        least bid? As on 18xx.games, this holds the turn even when every corporation is
        started and there is nothing to found (the turn then ends only with a pass, which
        the logs of such turns record): which corporations may be founded is the bid's own
        question (:meth:`founding_candidates`, the bid's judge)."""
        return not self.bought() and most_bid(self.table, entity) >= LEAST_BID

    def may_found(self, corporation) -> bool:
        return not corporation.started and not corporation.closed and corporation.price is None

    def founding_candidates(self, entity, kind, offer) -> list:
        f = self.founding
        if kind == "bid":
            if f.auction is not None:
                least = f.auction.top[1] + STEP
                corps = [f.corporation]
            else:
                least = LEAST_BID
                corps = [c for c in self.table.state.corporations if self.may_found(c)]
            prices = [p for low, high in payable_runs(entity, least, most_bid(self.table, entity))
                      for p in offer.prices(low, high, STEP)]
            return [new_action("bid", entity, corporation=c.sym, price=p) for c in corps
                    for p in prices]
        if kind == "assign":
            return [new_action("assign", entity, target=c.sym, target_type="company")
                    for c in may_assign(entity, f.corporation)]
        if kind == "choose":
            return [new_action("choose", entity, choice=n)
                    for n in self.table.phase.corporation_sizes]
        return []

    # -- bids ----------------------------------------------------------------------------

    def check_founding_bid(self, action) -> None:
        table, f = self.table, self.founding
        entity, corporation, price = action.entity, action.corporation, action.price
        if corporation is None:
            raise GameError("a founding bid names a corporation")
        if f.auction is not None:
            if corporation is not f.corporation:
                raise GameError(f"the auction of {f.corporation.name} is in progress")
            least = f.auction.top[1] + STEP
        else:
            if not self.may_found(corporation):
                raise GameError(f"{corporation.name} cannot be founded")
            if self.bought():
                raise GameError(f"{entity.name} has bought this turn and cannot found")
            least = LEAST_BID
        check_raise(table, least, price, most_bid(table, entity), corporation.name)
        if not paid_with(entity, price):
            raise GameError(f"{entity.name} cannot pay {table.money(price)} exactly with "
                            f"cash and private companies")

    def commit_founding_bid(self, action) -> None:
        table, f = self.table, self.founding
        entity, corporation, price = action.entity, action.corporation, action.price
        if f.auction is None:
            table.log(f"{entity.name} auctions {corporation.name} for {table.money(price)}")
            self.round.notes.last_to_act = entity
            self.round.notes.turn_actions = []
            operators.place_home_token(table, corporation)
            f.auction = OpenAuction(corporation, entity, [])
            f.auction.bids[entity] = price
            least = price + STEP
            for p in self.round.entities:
                if p is entity or most_bid(table, p) >= least:
                    f.auction.bidders.append(p)
                else:
                    table.log(f"{p.name} cannot bid {table.money(least)} and is out of the "
                              f"auction for {corporation.name}")
        else:
            table.log(f"{entity.name} bids {table.money(price)} for {corporation.name}")
            f.auction.place(entity, price, lambda p, least: most_bid(table, p) >= least,
                            table.log)
        self.settle_founding(action)

    def drop_from_founding(self, action) -> None:
        f = self.founding
        self.table.log(f"{action.entity.name} passes on {f.corporation.name}")
        f.auction.drop(action.entity)
        self.settle_founding(action)

    def settle_founding(self, action) -> None:
        """One bidder left: they win; the corporation starts at half the bid."""
        f = self.founding
        won = f.auction.winner()
        if won is None:
            return
        table = self.table
        player, price = won
        corporation = f.corporation
        table.log(f"{player.name} wins bid on {corporation.name} for {table.money(price)}")
        cell = price_for_bid(table, price)
        market.start_at(table, corporation, cell.at)
        corporation.par = cell.at
        certificates.change_hands(table, Bundle.of([corporation.certificates[0]]), player,
                                  price=0)
        corporation.started = True
        table.log(f"{player.name} pars {corporation.name} at {table.money(cell.price)}")
        money.pay(table, player, corporation, price, overdraw=True)
        operators.has_floated(table, corporation)
        # the founding is a par, as programs see it ("Corporation X parred"), when the
        # action founding it was carried out
        founded = Action("par", player, {"id": action.id, "created_at": action.get("created_at")})
        founded.order = action.order
        self.note(founded, corporation)
        f.winner = player
        sizes = table.phase.corporation_sizes
        if len(sizes) == 1:
            self.size_chosen(sizes[0])
        self.finish_founding_if_done()

    def size_chosen(self, size: int) -> None:
        self.founding.size = size
        if size != 2:
            shares.resize(self.table, self.founding.corporation, size)

    def finish_founding_if_done(self) -> None:
        f = self.founding
        if f.size is None or may_assign(f.winner, f.corporation):
            return
        self.finish_founding()

    def finish_founding(self) -> None:
        table, f = self.table, self.founding
        corporation = f.corporation
        table.log(f"{corporation.name} starts with {table.money(corporation.cash)} and "
                  f"{f.size} shares")
        buy_tokens(table, corporation)
        self.founding = Founding()
        self.mark_done()

    def check_choice_of_size(self, action) -> int:
        """The size chosen: a number of shares the phase allows, written as a number (as
        18xx.games has it: "2" is refused there)."""
        sizes = self.table.phase.corporation_sizes
        size = action.choice
        if isinstance(size, bool) or not isinstance(size, int) or size not in sizes:
            raise GameError(f"choose a size among {', '.join(map(str, sizes))}")
        return size

    def check_assign(self, action) -> None:
        f = self.founding
        company = action.target
        if company not in may_assign(action.entity, f.corporation):
            raise GameError(f"{company.name if company else '?'} cannot be used in forming "
                            f"{f.corporation.name}")

    def commit_assign(self, action) -> None:
        table, f = self.table, self.founding
        company, corporation, player = action.target, f.corporation, action.entity
        player.companies.remove(company)
        company.owner = corporation
        corporation.companies.append(company)
        money.pay(table, corporation, player, company.value)
        table.log(f"{company.name} used for forming {corporation.name} contributing "
                  f"{table.money(company.value)} value")
        if company.sym == TRAIN_STATION:
            corporation.tokens.append(TokenState(corporation))
            table.log(f"{corporation.name} acquires an additional token from {company.name}")
        self.finish_founding_if_done()


__all__: List[str] = ["Founding", "FoundingTurn", "buy_tokens", "tokens_needed",
                      "most_bid", "LEAST_BID", "MOST_BID"]
