"""1817's personal bankruptcy (titles/family1817/crisis.py, acquisition.py): what a bankrupt
player sells, what becomes of the corporations they presided, that they take no further
part, and that the game ends at once when all but one player are bankrupt.

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
from tracklayer.rules import certificates, finance
from tracklayer.titles.family1817.notes import notes

DATA = os.path.join(os.path.dirname(__file__), "data")
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


def held(table, corporation) -> dict:
    """Percent of ``corporation`` each player holds (those holding none left out)."""
    return {p.name: v for p, v in certificates.player_holders(corporation).items() if v}


def cell_kind(table, corporation):
    return table.cell(corporation.price).kind


def bankrupt(pid) -> dict:
    return {"type": "bankrupt", "entity": pid, "entity_type": "player"}


# -- what a bankruptcy sells ----------------------------------------------------------------

CRISIS_NO_SWAP = os.path.join(DATA, "1817NA_crisis_no_presidency_swap.json")


def test_a_bankruptcy_in_a_cash_crisis_never_hands_a_presidency_over():
    """Greedy self-play, acquisition round 6.2: greedy 3 owes $41 and holds only NYSW's
    20% president's certificate, greedy 1 and greedy 4 holding 20% each. Selling it
    would hand the presidency over, which the cash crisis forbids, so the bankruptcy
    sells nothing: the certificate goes to the market for nothing, NYSW (left without a
    president) is liquidated, and the bank forgives the $41. (tracklayer once sold the
    certificate as an ordinary sale, making greedy 1 president and NYSW carry on.)"""
    game = replay(load_json(CRISIS_NO_SWAP), keep_log=True)
    table = game.table
    p3, nysw = table.find("player", 3), table.corporation("NYSW")
    assert p3.cash == -41 and nysw.owner is p3
    assert held(table, nysw) == {"greedy 3": 20, "greedy 1": 20, "greedy 4": 20}
    game.apply(bankrupt(3))
    assert p3.bankrupt and p3.cash == 0 and not p3.shares.get("NYSW")
    assert nysw.owner is table.state.market                     # nobody presides
    assert cell_kind(table, nysw) == "liquidation"
    assert notes(table).liquidated_by["NYSW"] is p3
    assert held(table, nysw) == {"greedy 1": 20, "greedy 4": 20}
    # the market holds the president's certificate and the 10% sold before: 30%
    assert certificates.percent_of(table.state.market, nysw) == 30
    assert "-- NYSW enters liquidation (it has no president) --" in table.messages


def test_a_bankruptcy_sells_only_what_the_cash_crisis_allows():
    """rand_5p_534, acquisition round 11.1: Player 3 owes $404. Their 30% of DL&W ($60)
    cannot be sold (a 10% sale would leave them below Player 2's 30%: the presidency
    would change hands), nor their NYOW president's certificate (no one could take the
    presidency), nor H and ME (acquisition zone) or PW (liquidation zone). So nothing is
    sold; every certificate goes to the market, and DL&W and NYOW, left without a
    president, are liquidated; Player 2 keeps 30% of DL&W without presiding it."""
    game, log = random_at("rand_5p_534", 1002)
    table = game.table
    p2, p3 = table.find("player", 2), table.find("player", 3)
    dlw = table.corporation("DL&W")
    assert p3.cash == -404 and dlw.owner is p3
    assert held(table, dlw) == {"Player 3": 30, "Player 2": 30}
    zones = {c: cell_kind(table, table.corporation(c)) for c in ("H", "ME", "PW")}
    assert zones == {"H": "acquisition", "ME": "acquisition", "PW": "liquidation"}
    cash_before = p2.cash
    in_market = certificates.percent_of(table.state.market, dlw)
    game.apply(log[1002])
    for sym in ("DL&W", "NYOW", "H", "ME", "PW"):
        c = table.corporation(sym)
        assert c.owner is table.state.market and cell_kind(table, c) == "liquidation", sym
        assert p3 not in c.holders or not certificates.percent_of(p3, c)
    assert held(table, dlw) == {"Player 2": 30}
    assert certificates.percent_of(table.state.market, dlw) == in_market + 30
    assert p2.cash == cash_before and p3.cash == 0


OR_CRISIS = os.path.join(DATA, "1817NA_cash_crisis_in_an_operating_round.json")


def test_a_president_bankrupt_in_an_operating_round_hands_no_presidency_over():
    """Self-play, operating round 5.x: random 2 owes $205 (shorts of WT paid out). The
    position is built from the game: random 2 is given WC's president's certificate
    (40%, WC at $220), greedy 4 holding the other 40%. An ordinary sale would fetch $440
    and make greedy 4 president, WC carrying on; the cash crisis forbids it, so the
    bankruptcy sells nothing of WC: the certificate goes to the market, WC (no president)
    is liquidated, and greedy 4 keeps 40% without presiding. The bank forgives random 2's
    debt; WT's turn goes on. (18xx.games' engine, given the same position, does the
    same; tracklayer once sold the block and let WC go on under greedy 4.)"""
    from tracklayer.rules.certificates import Bundle
    game = replay(load_json(OR_CRISIS), keep_log=True)
    table = game.table
    p2, p4, wc = table.find("player", 2), table.find("player", 4), table.corporation("WC")
    assert table.round.is_operating and table.round.acting() is p2 and p2.cash == -205
    certificates.change_hands(table, Bundle.of([wc.certificates[0]]), p2, price=0)
    table.round.forget()
    assert wc.owner is p2 and held(table, wc) == {"random 2": 40, "greedy 4": 40}
    assert table.cell(wc.price).price == 220
    game.apply(bankrupt(2))
    assert p2.bankrupt and p2.cash == 0
    assert wc.owner is table.state.market and cell_kind(table, wc) == "liquidation"
    assert held(table, wc) == {"greedy 4": 40}
    assert certificates.percent_of(table.state.market, wc) == 40
    assert notes(table).liquidated_by["WC"] is p2
    assert table.round.is_operating and table.round.acting() is table.corporation("WT")


SELLS_WHAT_IS_ALLOWED = os.path.join(DATA,
                                     "1817NA_bankrupt_president_sells_what_the_crisis_allows.json")


def test_a_president_bankrupt_in_an_operating_round_sells_what_the_crisis_allows():
    """Self-play, operating round 3: random 2 owes $93 and presides SR ($45, 5 shares)
    with 60% (the president's 40% and a 20%), random 6 holding 40%. Going bankrupt they
    sell what the cash crisis allows, here the 20% share for $45 (left with 40%, as much
    as random 6, they would still preside); selling the president's certificate too
    ($135) would make random 6 president, so it goes to the market instead, and SR, left
    without a president, is liquidated. The $48 still owed is forgiven. 18xx.games logs
    the same: "random 2 sells a 20% share of SR and receives $45", then SR enters
    liquidation (so its bankruptcy does sell in an operating round: what the crisis
    allows)."""
    data = load_json(SELLS_WHAT_IS_ALLOWED)
    cut = copy.deepcopy(data)
    cut["actions"] = cut["actions"][:-1]
    game = replay(cut, keep_log=True)
    table = game.table
    p2, sr = table.find("player", 2), table.corporation("SR")
    assert table.round.is_operating and p2.cash == -93
    assert sr.owner is p2 and held(table, sr) == {"random 2": 60, "random 6": 40}
    assert table.cell(sr.price).price == 45
    game.apply(data["actions"][-1])
    assert "random 2 sells 1 share(s) of SR for $45" in table.messages
    assert p2.bankrupt and p2.cash == 0                  # -93 + 45 = -48, forgiven
    assert sr.owner is table.state.market and cell_kind(table, sr) == "liquidation"
    assert held(table, sr) == {"random 6": 40}
    assert certificates.percent_of(table.state.market, sr) == 60


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


TWO_BANKRUPTCIES = os.path.join(DATA, "1817NA_two_bankruptcies_in_an_acquisition_round.json")


def test_the_offers_go_on_only_once_every_cash_crisis_is_over():
    """Self-play, acquisition round 2.1: R is up for acquisition, random 2 (NYOW's
    president) its only bidder, and random 6 and random 2 are both in a cash crisis.
    random 6's bankruptcy puts R into liquidation, but the auction is looked at again
    only once random 2's crisis is over too (as on 18xx.games): random 2 goes bankrupt,
    NYOW falls into liquidation, and only then is R dropped and PLE considered, which
    nobody can now pay $90 for (NYOW could have): it is skipped, and the round ends.
    (tracklayer once offered PLE between the two bankruptcies, and waited for greedy 1
    to offer it.)"""
    data = load_json(TWO_BANKRUPTCIES)
    cut = copy.deepcopy(data)
    cut["actions"] = cut["actions"][:197]
    game = replay(cut, keep_log=True)
    table = game.table
    step = table.round.steps[-1]
    p2, p6 = table.find("player", 2), table.find("player", 6)
    assert step.auction.item.sym == "R" and step.auction.bidders == [p2]
    assert p6.cash < 0 and p2.cash < 0
    game.apply(data["actions"][197])               # random 6 goes bankrupt
    assert step.auction.item.sym == "R"             # not looked at again yet
    assert table.round.acting() is p2
    game.apply(data["actions"][198])               # random 2 goes bankrupt
    messages = table.messages
    at = messages.index("R is no longer eligible to be auctioned")
    assert messages[at + 1:at + 3] == ["PLE cannot be bought at $90, skipping",
                                       "NYOW moved into liquidation during M&A and so is skipped"]
    assert table.round.is_operating and table.round.number == 2


# -- the end --------------------------------------------------------------------------------

def test_all_but_one_bankrupt_ends_the_game_at_once():
    """The rule (seed 002: "a player goes bankrupt: the game ends at once, but only when
    all players but one are bankrupt"): greedy 3's bankruptcy, with greedy 2 and greedy
    4 already out, leaves greedy 1 alone and ends the game in the same action; nothing
    more may be played. (A single bankruptcy does not end it: see the test above, where
    the stock round follows.)

    18xx.games checks the end only once the whole action has been played, so what the
    round does by itself in that action comes first (in rand_5p_534 below, the bankrupt
    player passing on PW's auction). tracklayer does the same: it checks the end when the
    action is done, so both record the same cash. Where the two could part is a round
    that would go on to pay or liquidate after the action; the rule ends the game at once,
    and tracklayer keeps to the rule."""
    game = replay(load_json(CRISIS_NO_SWAP), keep_log=True)
    table = game.table
    for pid in (2, 4):
        finance.declare_bankrupt(table, table.find("player", pid))
    game.apply(bankrupt(3))
    assert game.is_over and game.end_reason == "bankrupt"
    assert game.legal_actions() == []
    with pytest.raises(GameError):
        game.apply({"type": "pass", "entity": 1, "entity_type": "player"})


def test_the_last_bankruptcy_of_a_reference_game_ends_it_with_its_recorded_result():
    """rand_5p_534: Player 3's bankruptcy leaves Player 2 alone: the game ends in that
    action. Player 2's $1144 is their $524 cash and their shares at their prices (DL&W
    now worth nothing in liquidation), as 18xx.games recorded."""
    game, log = random_at("rand_5p_534", 1002)
    table = game.table
    p2 = table.find("player", 2)
    game.apply(log[1002])
    assert game.is_over and game.end_reason == "bankrupt"
    worth = p2.cash + sum(c.value for c in p2.companies) + sum(
        table.cell(cert.corporation.price).price * cert.percent //
        certificates.share_percent(cert.corporation)
        for certs in p2.shares.values() for cert in certs)
    assert game.result()[2] == worth == 1144 and p2.cash == 524
    assert {str(k): v for k, v in game.result().items()} == random_game("rand_5p_534")["result"]

