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


UB_SELLS_FIRST = os.path.join(DATA, "1871_ub_sells_before_its_owner_pays.json")


def test_the_union_bank_sells_what_it_may_before_the_player_acting_for_it_pays():
    """MS ($37, no train), presided by the Union Bank ($334, holding C, MS, S, SB and So
    shares), must buy a train: the depot's 7 costs $500. The Union Bank cannot pay the
    $463 missing, and it still holds shares it may sell: it sells first; player 2, who
    acts for it, pays nothing yet (18xx.games: "Union Bank has 334 and cannot spend
    463")."""
    game = replay(load_json(UB_SELLS_FIRST))
    table = game.table
    ms, ub = table.corporation("MS"), table.player(-1)
    assert (ms.cash, ub.cash, table.player(2).cash) == (37, 334, 747) and not ms.trains
    listed = game.legal_actions()
    assert not [a for a in listed if a["type"] == "buy_train" and a["train"] == "7-3"]
    assert {a["shares"][0].split("_")[0] for a in listed
            if a["type"] == "sell_shares" and a["entity"] == -1} >= {"C", "So", "SB"}
    with pytest.raises(GameError, match="Union Bank has 334 and cannot spend 463"):
        game.apply({"type": "buy_train", "entity": "MS", "entity_type": "corporation",
                    "train": "7-3", "price": 500, "variant": "7", "id": 472})
