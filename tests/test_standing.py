"""How an auction stands (tracklayer.play.standing), at every auction position of the real
games: each item named, its bids highest first, a leader only where there are bids."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES
from tracklayer.io.export import open_game
from tracklayer.play.standing import auction_standing


def test_every_auction_position_of_the_real_games_stands():
    games = sorted(FIXTURES.glob("*/*.json"))
    if not games:
        pytest.skip(f"no real games under {FIXTURES}")
    seen = set()
    for path in games:
        data = json.loads(path.read_text())
        game = open_game(data | {"actions": []})
        for h in data["actions"]:
            if h["type"] in ("bid", "offer") or (h["type"] == "pass" and
                                                 game.table.round.NAME != "Operating Round"):
                for s in auction_standing(game.table):
                    prices = [p for _, p in s.bids]
                    assert prices == sorted(prices, reverse=True), (path.name, s)
                    assert (s.leader is None) == (not s.bids)
                    assert s.item.sym and s.note is not None
                    seen.add(type(game.table.round.active_step()).__name__)
            game.apply(h)
    assert {"WaterfallAuction", "PrivateAuction", "PileAuction", "Acquire", "StockTurn1817",
            "PackageDraft", "PackageAuction"} <= seen, seen
