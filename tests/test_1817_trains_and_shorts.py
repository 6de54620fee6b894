"""1817's obsolete trains (they fill the train limit and cannot be bought) and the market's
shorts (closed before a stock round by buying from the treasury, which is paid).

The checks on tests/data run anywhere (games tracklayer's bots played, each replayed
action by action in 18xx.games' engine with the same result); those on the reference's
random games (../shared/random-games/1817NA) skip when the shared data is absent."""

from __future__ import annotations

import copy
import os

import pytest

from conftest import SHARED, load_json
from tracklayer.errors import GameError
from tracklayer.io.export import replay
from tracklayer.rules import certificates, trains
from tracklayer.titles.family1817 import loans, shares
from tracklayer.titles.family1817.operating import left_behind
from tracklayer.trace import snapshot

DATA = os.path.join(os.path.dirname(__file__), "data")
RANDOM = SHARED / "random-games" / "1817NA"
SALE_FOR_NOTHING = os.path.join(DATA, "1817NA_sale_for_nothing_before_a_train.json")
MARKET_SHORT = os.path.join(DATA, "1817NA_market_short_closed_from_treasury.json")


def random_at(name: str, n: int):
    """The reference's random game ``name`` after its first ``n`` actions, and its log."""
    path = RANDOM / f"{name}.json"
    if not path.exists():
        pytest.skip(f"no random game {path} (the shared test data is not present)")
    d = load_json(path)
    cut = copy.deepcopy(d)
    cut["actions"] = cut["actions"][:n]
    return replay(cut, keep_log=True), d["actions"]


def kinds_of(game, sym) -> set:
    return {a["type"] for a in game.legal_actions() if a.get("entity") == sym}


# -- obsolete trains fill the train limit -------------------------------------------------------

def test_an_obsolete_train_fills_the_train_limit():
    """Phase 3 allows 4 trains. NYOW's 2+, once obsolete, still counts: with three more
    it is at its limit (no room to buy), and a fifth puts it over, so it must discard,
    and may discard the obsolete one."""
    game = replay(load_json(SALE_FOR_NOTHING))
    table = game.table
    nyow = table.corporation("NYOW")
    two_plus = nyow.trains[0]
    assert two_plus.name == "2+" and trains.limit(table, nyow) == 4
    two_plus.obsolete = True
    spare = [t for t in table.state.depot.upcoming if t.name == "3"]
    for t in spare[:3]:
        trains.hand_over(table, t, nyow, None)
    assert trains.counted(table, nyow) == 4 and not trains.has_room(table, nyow)
    assert trains.over_limit(table) == []
    trains.hand_over(table, spare[3], nyow, None)
    assert trains.over_limit(table) == [nyow]
    table.round.forget()
    listed = [a for a in game.legal_actions() if a["type"] == "discard_train"]
    assert {a["entity"] for a in listed} == {"NYOW"}
    assert two_plus.id in {a["train"] for a in listed}


def test_at_its_limit_with_an_obsolete_train_a_corporation_buys_no_more():
    """rand_6p_527_short_squeeze, operating round 5.1: GT ($818, 4 loans) owns a 2, a 2+
    and a 3 and buys the first 4 for $400: the 2s rust, the 2+ is obsolete, and phase 4
    allows 3 trains. The 2+ counts, so GT is at its limit: its buying is over and its
    interest (4 loans at $10) is paid in the same action: $818 - $400 - $40 = $378."""
    game, log = random_at("rand_6p_527_short_squeeze", 503)
    table = game.table
    gt = table.corporation("GT")
    assert gt.cash == 818 and gt.loans == 4
    game.apply(log[503])
    assert sorted((t.name, t.obsolete) for t in gt.trains) == \
        [("2+", True), ("3", False), ("4", False)]
    assert trains.limit(table, gt) == 3 and not trains.has_room(table, gt)
    assert gt.cash == 818 - 400 - 4 * 10 == 378
    assert "buy_train" not in kinds_of(game, "GT")
    assert "GT pays $40 interest for 4 loans" in table.messages
    assert "-- Event: 2+ trains are obsolete --" in table.messages


# -- an obsolete train cannot be bought ----------------------------------------------------------

def test_an_obsolete_train_left_with_a_closed_corporation_is_not_on_offer():
    """18xx.games counts a train left with a corporation the bank liquidated as on offer
    (for $1) when it asks whether a corporation could buy one, unless it is obsolete:
    an obsolete train can never be bought."""
    game = replay(load_json(SALE_FOR_NOTHING))
    table = game.table
    nyow = table.corporation("NYOW")
    nyow.closed = True                         # its 2+ left behind
    assert left_behind(table)
    nyow.trains[0].obsolete = True
    assert not left_behind(table)


def test_when_only_an_obsolete_train_is_left_the_buying_ends_and_interest_is_paid():
    """rand_6p_526_modern_trains, operating round 10.2: DL&W ($209, 5 loans, its most;
    no train) lays its second tile for $20. The depot's cheapest train is a 6 at $750,
    and the only other train is WT's obsolete 2+, left with WT: none can be bought, so
    DL&W's train buying ends in that action and its interest (5 loans at $15) is paid:
    $209 - $20 - $75 = $114. It may then repay a loan."""
    game, log = random_at("rand_6p_526_modern_trains", 530)
    table = game.table
    dlw = table.corporation("DL&W")
    assert (dlw.cash, dlw.loans, loans.most_loans(dlw)) == (209, 5, 5) and not dlw.trains
    assert [(t.name, t.variant.price) for t in trains.for_sale(table)] == [("6", 750)]
    left = [t for t in table.state.depot.every
            if t.owner is not None and getattr(t.owner, "closed", False)]
    assert [(t.name, t.obsolete) for t in left] == [("2+", True)]
    game.apply(log[530])
    assert dlw.cash == 209 - 20 - 5 * 15 == 114
    assert kinds_of(game, "DL&W") == {"payoff_loan", "pass"}
    assert "DL&W pays $75 interest for 5 loans" in table.messages


# -- the market's shorts --------------------------------------------------------------------------

def test_the_market_closes_a_short_by_buying_from_the_treasury_which_is_paid():
    """Greedy self-play with Short Squeeze and Five Shorts: the market holds four 20%
    shorts of ME ($45), and ME one share in its treasury. As stock round 7 begins, the
    market buys that share from the treasury for $45, paid to ME ($137 -> $182), and
    closes one short: three are left, and the treasury is empty."""
    data = load_json(MARKET_SHORT)
    cut = copy.deepcopy(data)
    cut["actions"] = cut["actions"][:-1]
    game = replay(cut, keep_log=True)
    table = game.table
    me, market = table.corporation("ME"), table.state.market
    assert me.cash == 137 and table.cell(me.price).price == 45
    assert len(shares.holder_shorts(market, me)) == 4
    assert [c.percent for c in certificates.treasury(me)] == [20]
    in_market = certificates.percent_of(market, me)
    game.apply(data["actions"][-1])                 # the acquisition round ends
    assert table.round.is_stock
    assert me.cash == 137 + 45 == 182
    assert len(shares.holder_shorts(market, me)) == 3
    assert certificates.treasury(me) == []
    assert certificates.percent_of(market, me) == in_market + 20
    assert "Market buys a 20% share of ME from the Treasury for $45" in table.messages
    assert "Market closes 1 shorts for ME" in table.messages


# -- selling for a train --------------------------------------------------------------------------

NO_SWAP_FOR_A_TRAIN = os.path.join(DATA, "1817NA_no_presidency_changes_hands_for_a_train.json")


def test_a_sale_for_a_train_never_hands_a_presidency_over():
    """Self-play, WT buying trains: its president, random 2 ($17; WT $80), holds 30% of
    PSNR (the president's 20% and a 10%), as does greedy 1. In 1817 no sale while buying
    trains may hand over any corporation's presidency (18xx.games: EBUY_PRES_SWAP off), not
    only the buyer's: selling PSNR's 30%, or 10% of it, is refused and not listed, and the
    game is as it was. (tracklayer once let greedy 1 become PSNR's president so.)"""
    game = replay(load_json(NO_SWAP_FOR_A_TRAIN))
    table = game.table
    p2, psnr = table.find("player", 2), table.corporation("PSNR")
    assert table.round.acting() is table.corporation("WT") and psnr.owner is p2
    held = {p.name: v for p, v in certificates.player_holders(psnr).items() if v}
    assert held == {"random 2": 30, "greedy 1": 30}
    assert [a for a in game.legal_actions() if a["entity"] == 2] == []
    before = snapshot(game, 0, {})
    for ids, percent in ((["PSNR_5", "PSNR_0"], 30), (["PSNR_5"], 10)):
        with pytest.raises(GameError, match="cannot sell shares of PSNR"):
            game.apply({"type": "sell_shares", "entity": 2, "entity_type": "player",
                        "shares": ids, "percent": percent})
    assert snapshot(game, 0, {}) == before
