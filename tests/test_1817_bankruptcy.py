"""1817's personal bankruptcy (titles/family1817/crisis.py, acquisition.py): what a bankrupt
player sells, what becomes of the corporations they presided, that they take no further
part, and that the game ends at once when all but one player are bankrupt.

The checks on tests/data run anywhere (games tracklayer's bots played, each replayed
action by action in 18xx.games' engine with the same result); those on the reference's
random games (../shared/random-games/1817NA) skip when the shared data is absent."""

from __future__ import annotations

import copy

import pytest

from conftest import SHARED, load_json
from tracklayer.io.export import replay

RANDOM = SHARED / "random-games" / "1817NA"


def random_game(name: str) -> dict:
    path = RANDOM / f"{name}.json"
    if not path.exists():
        pytest.skip(f"no random game {path} (the shared test data is not present)")
    return load_json(path)


def random_at(name: str, n: int):
    """The reference's random game ``name`` after its first ``n`` actions, and its log."""
    d = random_game(name)
    cut = copy.deepcopy(d)
    cut["actions"] = cut["actions"][:n]
    return replay(cut, keep_log=True), d["actions"]


def cell_kind(table, corporation):
    return table.cell(corporation.price).kind


# -- a bankrupt player takes no further part ---------------------------------------------------

def test_a_bankrupt_bidder_passes_at_once_and_the_auction_goes_on():
    """rand_6p_512, acquisition round 11.3: J (in liquidation) is up for auction and
    Player 1, its only bidder, goes bankrupt before bidding. They take no further part:
    they pass at once, nobody is left, so the bank liquidates J (its $229 covers its two
    $100 loans); PLE follows (no bidder either), and PSNR, NYSW and WC, which Player 1's
    bankruptcy has just put into liquidation, are skipped. That was the set's last
    acquisition round after the first 8: the game ends."""
    game, log = random_at("rand_6p_512", 1124)
    table = game.table
    step = table.round.steps[-1]
    p1 = table.find("player", 1)
    assert step.auction.item.sym == "J" and step.auction.bidders == [p1]
    assert table.round.acting() is p1                # in a cash crisis first
    assert p1.cash == -570
    game.apply(log[1124])
    assert p1.bankrupt
    for sym in ("J", "PLE"):                  # put back, unstarted
        fresh = table.corporation(sym)
        assert fresh.price is None and not fresh.started and fresh.trains == []
    for sym in ("PSNR", "NYSW", "WC"):
        c = table.corporation(sym)
        assert cell_kind(table, c) == "liquidation" and c.owner is table.state.market
    messages = table.messages
    assert "Player 1 passes on J" in messages and "Bank liquidates J for $0" in messages
    assert "Bank liquidates PLE for $0" in messages
    assert game.is_over and game.end_reason == "final_phase"
    assert {str(k): v for k, v in game.result().items()} == random_game("rand_6p_512")["result"]
