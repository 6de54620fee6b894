"""The greedy bot's corporate finance, for titles whose companies borrow and change size
(1817's family): founding a company by auction, loans, conversions, mergers and shorts.

- **Founding.** A player who presides over no company, or whose companies all run
  trains, opens the auction for a new one at the most it can bid up to ``FOUNDING_BID``
  (the bid is the company's treasury), puts its home where most revenue lies near, and
  puts its private companies in. It does not bid up another player's founding.
- **Loans.** A company borrows when it needs a train its treasury does not reach (one
  that has run, only while the interest stays within half its last revenue: in self-play
  companies borrowed to their limit on $140 runs and were liquidated, three players of
  four bankrupt), and repays a loan when the treasury keeps the price of a train it
  needs after repaying.
- **Conversions.** A company at its loan limit converts to more shares (more shares,
  more loans; its new treasury shares sell for cash) when its treasury pays for the
  stations the new size needs.
- **Mergers.** A president merges a company that has no train into another of theirs
  that has one (the merged company's trains, cash and stations join).
- **Shorts.** A player with cash to spare shorts a rival's company that has no train
  and owes all the loans it may (its price falls as it borrows and is liquidated); it
  buys the share back once it owns one of its own, or when the short no longer pays.
"""

from __future__ import annotations

from typing import List, Optional, Protocol

from ..game import Game
from ..rules import certificates, finance, market, trains
from ..state.model import CorporationState, OperatorState, PlayerState
from ..turns.listing import concrete, price_at_most
from .bots import controller



class Judge(Protocol):
    """What finance asks of the greedy bot: whether a company needs a train, and a
    player's presidencies."""

    def needs_train(self, game: Game, entity) -> bool: ...

    def presidencies(self, game: Game, player) -> List[CorporationState]: ...

FOUNDING_BID = 200      # the most a founder bids for a new company (its treasury)
FOUNDER_KEEPS = 50      # what a founder keeps for interest its company may fail to pay
CONVERSION_CASH = 100   # a company converts only with the price of two stations to hand
SHORT_CASH = 4          # a player shorts only with this many times the share's price


def loan_value(game: Game) -> int:
    loans = game.table.spec.data.loans
    return loans.value if loans is not None else 0


def interest_due(game: Game, entity) -> int:
    """What the company's loans cost this round (nothing without loans)."""
    if not isinstance(entity, OperatorState) or not entity.loans:
        return 0
    table = game.table
    return finance.interest_on(table, entity, finance.interest_rate(table))


def spare_cash(game: Game, entity) -> int:
    """The treasury less the interest it owes: what it may spend on what it need not buy
    (a company that cannot pay its interest is liquidated, its president paying)."""
    return entity.cash - interest_due(game, entity)


def loan_limit(corporation: OperatorState) -> int:
    """As many loans as the company has shares."""
    return certificates.total_shares(corporation) if isinstance(corporation, CorporationState) \
        else 0


def founding_bid(bot: Judge, game: Game, player, h: dict) -> float:
    """A bid for a company to found: opening an auction for one (never a raise of
    another player's founding)."""
    corporation = game.table.find("corporation", h.get("corporation"))
    if corporation is None or not isinstance(player, PlayerState):
        return -1.0
    if corporation.started or corporation.owner is not None or \
            any(t.where is not None for t in corporation.tokens):
        return -1.0     # in another's founding auction (its home placed): not bid up
    low = (h.get("price_range") or (h.get("price"), h.get("price")))[0] or 0
    mine = bot.presidencies(game, player)
    if len(mine) >= 2 or any(not c.trains for c in mine):
        return -1.0
    if player.cash < low + FOUNDER_KEEPS:
        return -1.0
    bid = min(player.cash - FOUNDER_KEEPS, FOUNDING_BID)
    if bid + 2 * loan_value(game) < trains.cheapest_price(game.table) + FOUNDER_KEEPS:
        return -1.0     # its treasury and two loans would not buy a train and its interest
    return 140.0 + min(player.cash, FOUNDING_BID) / 10 - (30.0 if mine else 0.0)


def founding_price(game: Game, player, h: dict) -> dict:
    """The opening bid: the most the founder can pay keeping ``FOUNDER_KEEPS``, up to
    ``FOUNDING_BID``."""
    return concrete(h, price_at_most(h, min(player.cash - FOUNDER_KEEPS, FOUNDING_BID)))


def is_founding(game: Game, h: dict) -> bool:
    return h["type"] == "bid" and h.get("corporation") is not None and \
        h.get("entity_type") == "player"


def assign(bot: Judge, game: Game, player, h: dict) -> float:
    """A private company of the player's put into the company it founds."""
    if h.get("target_type") != "company" or not isinstance(player, PlayerState):
        return -2.0
    company = game.table.find("company", h.get("target"))
    if company is None or company.owner is not player:
        return -2.0
    founded = [c for c in bot.presidencies(game, player) if not c.trains]
    value = company.spec.value or 0
    if any(c.cash - value + (loan_limit(c) - c.loans) * loan_value(game) <
           trains.cheapest_price(game.table) + FOUNDER_KEEPS for c in founded):
        return -2.0     # the company pays its value: not when it needs the money for a train
    return 30.0


def take_loan(bot: Judge, game: Game, entity, h: dict) -> float:
    """A loan when a needed train is out of the treasury's reach (for a company that has
    run, only while its interest stays within half its last revenue: loans that eat the
    revenue end in liquidation), or the treasury cannot pay the interest."""
    if not isinstance(entity, OperatorState) or entity.loans >= loan_limit(entity):
        return -2.0
    price = trains.cheapest_price(game.table)
    if not entity.trains and entity.cash < price:
        return 250.0
    if bot.needs_train(game, entity) and entity.cash < price and affordable_loan(game, entity):
        return 250.0
    if entity.cash < interest_due(game, entity) + loan_value(game) // 10:
        return 240.0
    return -2.0


def affordable_loan(game: Game, entity) -> bool:
    """Would the interest on one more loan stay within half the company's last revenue
    (any loan for one that has not run yet)?"""
    if not entity.history:
        return True
    table = game.table
    terms = table.spec.data.loans
    if terms is None:
        return False
    after = terms.interest(finance.interest_rate(table), entity.loans + 1)
    return 2 * after <= entity.history[-1].revenue


def payoff_loan(bot: Judge, game: Game, entity, h: dict) -> float:
    """A loan repaid when the treasury still buys a train it needs afterwards."""
    if not isinstance(entity, OperatorState) or not entity.loans:
        return -2.0
    wants_train = bot.needs_train(game, entity) or not entity.trains
    keep = trains.cheapest_price(game.table) if wants_train else 0
    keep = max(keep, interest_due(game, entity) + loan_value(game) // 10)
    return 40.0 if entity.cash - loan_value(game) >= keep else -2.0


def overstretched(game: Game, entity, price: int) -> bool:
    """Would paying ``price`` leave a company that may borrow no more unable to pay its
    interest?"""
    return bool(interest_due(game, entity)) and price > spare_cash(game, entity) and \
        entity.loans >= loan_limit(entity)


def convert(bot: Judge, game: Game, entity, h: dict) -> float:
    """A conversion by a company at its loan limit."""
    if not isinstance(entity, CorporationState):
        return -2.0
    at_limit = entity.loans >= loan_limit(entity)
    return 30.0 if at_limit and entity.cash >= CONVERSION_CASH else -2.0


def merge(bot: Judge, game: Game, entity, h: dict) -> float:
    """A merger of a train-less company with another of its president's that runs."""
    other = game.table.find("corporation", h.get("corporation"))
    if not isinstance(entity, CorporationState) or other is None or other is entity:
        return -2.0
    if controller(other) is not controller(entity):
        return -2.0
    return 35.0 if bool(entity.trains) != bool(other.trains) else -2.0


def short(bot: Judge, game: Game, player, h: dict) -> float:
    """A short of a rival's company that has no train and owes all it may."""
    corporation = game.table.find("corporation", h.get("corporation"))
    if corporation is None or not isinstance(player, PlayerState):
        return -2.0
    if controller(corporation) is player or corporation.trains:
        return -2.0
    price = market.price(game.table, corporation) or 0
    if corporation.loans < loan_limit(corporation) or player.cash < SHORT_CASH * price:
        return -2.0
    return 15.0


def holds_short(player, corporation) -> bool:
    return any(c.percent < 0 for c in player.shares.get(corporation.sym, []))


def closes_short(game: Game, player, corporation: Optional[CorporationState]) -> bool:
    """Is buying a share of ``corporation`` closing a short the player should close: the
    company runs trains again?"""
    return corporation is not None and isinstance(player, PlayerState) and \
        holds_short(player, corporation) and bool(corporation.trains)
