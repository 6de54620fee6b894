"""How bots deal with other seats (see :mod:`tracklayer.play.consent`): the price they
offer for what another seat holds, and their answer to a proposal.

- **Fair** (the greedy bot, and any bot not named below): it offers at least the fair
  price — a private company's face value, the depot price of a train of that kind — and
  drops the deal if the rules do not let it pay that much. It accepts a sale only at a
  fair price or more, and never of a company's last train (a company left without a train
  must buy one). It accepts a merger of its corporation when that one has no train and
  the other has (its trains, cash and stations join the running one), as it merges its own.
- **Coin** (the random bot): it offers whatever it chose, and accepts or declines at
  random.
"""

from __future__ import annotations

import random
from typing import List, Optional

from ..game import Game
from ..turns.listing import concrete, value_range
from .consent import Deal, Proposal, deal_of, fair_price


class Fair:
    """See the module docstring."""

    def offer(self, game: Game, chosen: dict, deal: Deal, listed: List[dict],
              rng: random.Random) -> Optional[dict]:
        fair = fair_price(deal)
        price = chosen.get("price")
        if fair is None or price is None or price >= fair:
            return chosen
        for h in listed:
            found = value_range(h)
            other = deal_of(game, h)
            if found is None or other is None or other.key != deal.key or found[0] != "price":
                continue
            _field, low, high, step = found
            at_least = max(low, fair)
            at_least += (-(at_least - low)) % step
            if at_least <= high:
                return concrete(h, at_least)
        return None

    def answer(self, game: Game, deal: Deal, rng: random.Random) -> bool:
        if deal.what == "corporation":
            return not deal.thing.trains and bool(deal.buyer.trains)
        fair = fair_price(deal)
        if fair is None or deal.price is None or deal.price < fair:
            return False
        if deal.what == "train" and len(deal.holder.trains) < 2:
            return False
        return True


class Coin:
    """See the module docstring."""

    def offer(self, game: Game, chosen: dict, deal: Deal, listed: List[dict],
              rng: random.Random) -> Optional[dict]:
        return chosen

    def answer(self, game: Game, deal: Deal, rng: random.Random) -> bool:
        return rng.random() < 0.5


POLICIES = {"random": Coin()}
FAIR = Fair()


def policy(bot_name: str):
    return POLICIES.get(bot_name, FAIR)


def answer(bot_name: str, game: Game, proposal: Proposal, rng: random.Random) -> bool:
    """The bot's answer to ``proposal`` (False if it is no longer a deal)."""
    deal = deal_of(game, proposal.action)
    return deal is not None and policy(bot_name).answer(game, deal, rng)
