"""1893: Cologne rules found by replaying new random games in 18xx.games' engine (games
tracklayer's bots played, accepted action by action by the reference with the same state
after every action)."""

from __future__ import annotations

import os

import pytest

from conftest import load_json
from tracklayer.errors import GameError
from tracklayer.io.export import replay
from tracklayer.trace import snapshot

DATA = os.path.join(os.path.dirname(__file__), "data")
FIRST_ROUND = os.path.join(DATA, "1893_fdsd_must_pay_for_rag_in_the_first_stock_round.json")
LATER_ROUND = os.path.join(DATA, "1893_fdsd_payment_declined_in_a_later_stock_round.json")


def state(game) -> dict:
    return snapshot(game, len(game.actions) - 1, game.actions[-1])


def test_in_the_first_stock_round_fdsd_must_pay_for_parring_rag():
    """FdSD may pay for parring RAG (2.1); declining is a pass, and who passes in the first
    stock round plays no more in it (6), so cannot take RAG's president's certificate.
    2 players: in Stock Round 1 player 2 (470M, owning FdSD) pars RAG at 100M. FdSD paying
    is the only move: the pass is not listed, and refused (18xx.games offers it, then
    refuses it: "Cannot buy a share of RAG"). FdSD pays: it closes, the bank pays 200M
    for the president's certificate, and player 2 keeps 470M."""
    export = load_json(FIRST_ROUND)
    actions = export["actions"]
    decline = actions[-1]
    assert actions[-2]["type"] == "par" and actions[-2]["corporation"] == "RAG"
    assert decline["type"] == "pass" and decline["entity"] == 2
    export["actions"] = actions[:-1]
    game = replay(export)
    table = game.table
    assert table.turn == 1 and table.player(2).cash == 470
    assert table.company("FdSD").owner is table.player(2)
    assert [a["type"] for a in game.legal_actions()] == ["assign"]
    with pytest.raises(GameError, match="random 2 cannot pass now"):
        game.apply(decline)
    game.apply({"type": "assign", "entity": 2, "entity_type": "player", "target": "FdSD",
                "target_type": "company", "id": decline["id"]})
    after = state(game)
    assert after["players"]["2"] == {"cash": 470, "companies": ["EVA", "HdSK"],
                                     "shares": {"RAG": 20}}
    assert table.company("FdSD").closed
    assert after["corporations"]["RAG"]["president"] == "2"
    assert after["corporations"]["RAG"]["price"] == 100 and after["bank_cash"] == 5830


def test_from_the_second_stock_round_the_owner_of_fdsd_may_pay_for_rag_themselves():
    """From the second stock round on, the owner of FdSD parring RAG may decline FdSD's
    payment (pass) and pay themselves. 3 players, Stock Round 2: player 1 (140M, owning FdSD)
    pars RAG at 60M, both moves are listed, and they pass: they pay 120M and keep FdSD
    (18xx.games: player 1 20M, RAG 20% and FdSD; bank 6210M)."""
    export = load_json(LATER_ROUND)
    actions = export["actions"]
    decline = actions[-1]
    export["actions"] = actions[:-1]
    game = replay(export)
    table = game.table
    assert table.turn == 2 and table.player(1).cash == 140
    assert [a["type"] for a in game.legal_actions()] == ["assign", "pass"]
    game.apply(decline)
    after = state(game)
    assert after["players"]["1"] == {"cash": 20, "companies": ["AdSK-1", "BKB", "FdSD"],
                                     "shares": {"RAG": 20}}
    assert after["corporations"]["RAG"]["president"] == "1"
    assert after["corporations"]["RAG"]["price"] == 60 and after["bank_cash"] == 6210
