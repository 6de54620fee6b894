"""The Old Prince 1871 rules found by replaying new random games in 18xx.games' engine
(games tracklayer's bots played, accepted action by action by the reference with the same
state after every action)."""

from __future__ import annotations

import os

import pytest

from conftest import load_json
from tracklayer.errors import GameError
from tracklayer.io.export import replay

DATA = os.path.join(os.path.dirname(__file__), "data")
NO_ISSUE = os.path.join(DATA, "1871_no_issue_after_the_president_sold.json")


def test_once_the_president_sold_the_corporation_issues_none_of_its_shares():
    """4 players: S ($170, no train, S_8, S_5 and S_1 in its treasury) must buy a train.
    Its president, player 4, sells a 10% share of S for $55 (S $58 -> $55). Shares of a
    corporation are sold once in an emergency: S may no longer issue its own (18xx.games:
    "Cannot sell shares of S"), and with nothing to issue its president may help it buy."""
    game = replay(load_json(NO_ISSUE))
    table = game.table
    s = table.corporation("S")
    assert s.cash == 170 and not s.trains and table.player(4).cash == 477
    listed = [a for a in game.legal_actions() if a.get("entity") == "S"]
    assert not [a for a in listed if a["type"] == "sell_shares"]
    assert {"type": "buy_train", "train": "D-0", "price": 600} in \
        [{k: a[k] for k in ("type", "train", "price")} for a in listed if a["type"] == "buy_train"]
    with pytest.raises(GameError, match="cannot sell shares of S"):
        game.apply({"type": "sell_shares", "entity": "S", "entity_type": "corporation",
                    "shares": ["S_8", "S_5"], "percent": 20, "id": 525})
