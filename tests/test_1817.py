"""The 1817 rules (titles/family1817) as 1817NA plays them: loans and interest, shorts and
the short squeeze, conversions, mergers, acquisitions and liquidation, the opening
auction and founding. Most checks replay a real game of ../shared/fixtures/1817NA to the
moment a rule acts and look at what it did (the reference traces confirm every action in
tests/test_fixtures.py); the checks that need no game run without ../shared."""

from __future__ import annotations

import copy
import os

import pytest

from conftest import FIXTURES, SHARED, load_json
from tracklayer.errors import GameError
from tracklayer.game import Game
from tracklayer.io.export import replay
from tracklayer.rules import certificates, finance, market
from tracklayer.titles import title
from tracklayer.titles.family1817 import shares
from tracklayer.titles.family1817.notes import notes
from tracklayer.titles.north_america import data
from tracklayer.trace import snapshot

NA = FIXTURES / "1817NA"


def fixture(name: str) -> dict:
    path = NA / f"{name}.json"
    if not path.exists():
        pytest.skip(f"no fixture {path} (the shared test data is not present)")
    return load_json(path)


def game_at(name: str, n: int, options=None) -> Game:
    """The real game ``name`` after its first ``n`` log entries."""
    d = copy.deepcopy(fixture(name))
    d["actions"] = d["actions"][:n]
    if options is not None:
        d["settings"]["optional_rules"] = options
    return replay(d, keep_log=True)


def corp(game, sym):
    return game.table.find("corporation", sym)


def player(game, pid):
    return game.table.find("player", pid)


def price(game, sym) -> int:
    return market.price(game.table, corp(game, sym))


def refused_without_change(game, action: dict) -> str:
    """``action`` is refused and the game is as it was."""
    before = snapshot(game, 0, {})
    with pytest.raises(GameError) as e:
        game.apply(action)
    assert snapshot(game, 0, {}) == before
    return str(e.value)


def new_game(players: int = 4) -> Game:
    return Game(title("1817NA"), [(i, f"P{i}") for i in range(1, players + 1)], seed=1)


# -- the opening auction and founding -----------------------------------------------------

def test_opening_auction_uses_the_seed_money():
    game = new_game()
    table = game.table
    assert notes(table).seed_money == 150
    # MINM is worth 60: the first bid may be 0 (the seed money covers the value) …
    game.apply({"type": "bid", "entity": 1, "entity_type": "player", "company": "MINM",
                "price": 0})
    for p in (2, 3, 4):
        game.apply({"type": "pass", "entity": p, "entity_type": "player"})
    # … and the bank paid the 60 out of the seed money
    assert [c.sym for c in player(game, 1).companies] == ["MINM"]
    assert player(game, 1).cash == 252 and notes(table).seed_money == 90
    # bids rise by multiples of $5 and cost no more than the bidder has
    assert "multiples" in refused_without_change(
        game, {"type": "bid", "entity": 2, "entity_type": "player", "company": "TS",
               "price": 3})
    assert "afford" in refused_without_change(
        game, {"type": "bid", "entity": 2, "entity_type": "player", "company": "TS",
               "price": 260})


def test_founding_by_auction_and_paying_with_a_private():
    """20584: Player 1 opens SR at $140 and wins; the price is half the bid ($70); they put
    in the Minor Mail Contract ($60), the corporation paying its value back."""
    game = game_at("20584", 92)
    sr = corp(game, "SR")
    assert price(game, "SR") == 70 and sr.cash == 140 and player(game, 2516).cash == 7
    assert certificates.percent_of(player(game, 2516), sr) == 100 and shares.size_of(sr) == 2
    game.apply(fixture("20584")["actions"][92])          # assign MINM
    assert sr.cash == 80 and player(game, 2516).cash == 67
    assert [c.sym for c in sr.companies] == ["MINM"]


def test_a_corporations_size_is_chosen_as_a_number():
    """20584's entry 384 chooses a size of 2 as the number 2; the listing offers the sizes
    the same way, and the text "2" is refused (18xx.games: 'Corporation size is
    invalid')."""
    game = game_at("20584", 384)
    h = fixture("20584")["actions"][384]
    assert h["type"] == "choose" and h["choice"] == 2
    listed = [m["choice"] for m in game.legal_actions() if m["type"] == "choose"]
    assert listed and all(isinstance(c, int) for c in listed) and 2 in listed
    assert "size" in refused_without_change(game, dict(h, choice="2"))
    game.apply(h)


def test_a_bid_must_be_paid_exactly_with_cash_and_privates():
    game = game_at("20584", 87)
    # Player 1 has $147 and TS (80) and MINM (60): $400 is out of reach, $150-$227 fine
    msg = refused_without_change(game, {"type": "bid", "entity": 2516, "entity_type": "player",
                                        "corporation": "PW", "price": 400})
    assert "afford" in msg
    assert "minimum" in refused_without_change(
        game, {"type": "bid", "entity": 2516, "entity_type": "player", "corporation": "PW",
               "price": 95})


# -- loans and interest -------------------------------------------------------------------

def test_the_interest_rate_is_fixed_at_the_start_of_each_operating_round():
    game = game_at("20584", 135)                    # operating round 1.1 begins: no loans
    assert finance.loans_out(game.table) == 0 and notes(game.table).interest_rate == 5
    game = game_at("20584", 198)                    # 1.2: eleven loans out
    table = game.table
    assert finance.loans_out(table) == 11
    assert notes(table).interest_rate == data.LOANS.rate_for(11) == 15
    assert finance.loans_left(table) == 56 - 11


def test_loans_move_the_price_and_interest_is_paid_after_trains():
    """20584, operating round 1.1: H takes two loans ($90 → $70 → $65), buys two 2s and
    pays 2 × $100 × 5% = $10 interest."""
    game = game_at("20584", 137)
    h = corp(game, "H")
    assert (h.cash, h.loans, price(game, "H")) == (20, 0, 80)
    for i in (137, 138):
        game.apply(fixture("20584")["actions"][i])
    assert (h.cash, h.loans, price(game, "H")) == (220, 2, 65)
    for i in (139, 140):
        game.apply(fixture("20584")["actions"][i])
    assert h.cash == 220 - 200 - 10
    assert "H pays $10 interest for 2 loans" in game.table.messages


def test_no_more_loans_than_shares():
    game = game_at("20584", 139)                    # H (2 shares) owes two loans
    assert corp(game, "H").loans == 2
    refused_without_change(game, {"type": "take_loan", "entity": "H",
                                  "entity_type": "corporation", "loan": 0})


def test_repaying_a_loan_moves_the_price_right():
    d = fixture("25363")
    i = next(i for i, a in enumerate(d["actions"]) if a["type"] == "payoff_loan")
    game = game_at("25363", i)
    sym = d["actions"][i]["entity"]
    before = (corp(game, sym).loans, corp(game, sym).cash, corp(game, sym).price)
    game.apply(d["actions"][i])
    c = corp(game, sym)
    assert (c.loans, c.cash) == (before[0] - 1, before[1] - 100)
    assert c.price == market.next_cell(game.table, before[2], market.Direction.RIGHT)


# -- shorts -------------------------------------------------------------------------------

def test_a_short_is_a_negative_holding_and_one_per_turn():
    """25363: Player 2496 shorts NYSW (5 shares, operated): they hold -20%, the market a 20%
    share, and they are paid the price; a second short in the turn is refused."""
    d = fixture("25363")
    game = game_at("25363", 205)
    shorter, nysw = player(game, 2496), corp(game, "NYSW")
    cash, at = shorter.cash, market.price(game.table, nysw)
    game.apply(d["actions"][205])
    assert certificates.percent_of(shorter, nysw) == -20
    assert certificates.percent_of(game.table.state.market, nysw) == 20
    assert shorter.cash == cash + at
    assert "cannot short" in refused_without_change(
        game, {"type": "short", "entity": 2496, "entity_type": "player",
               "corporation": "J"})


def test_two_share_corporations_cannot_be_shorted():
    game = game_at("20584", 262)                    # stock round 2: every corporation 2-share
    two = [c for c in game.table.state.corporations if c.started and shares.size_of(c) == 2]
    assert two
    refused_without_change(game, {"type": "short", "entity": game.table.round.acting().id,
                                  "entity_type": "player", "corporation": two[0].sym})


def test_shorts_do_not_count_against_the_certificate_limit():
    game = game_at("25351", 881)
    p = player(game, 5472)
    assert len([c for cs in p.shares.values() for c in cs if c.percent < 0]) == 15
    from tracklayer.rules import trading
    assert trading.certificate_count(game.table, p) == 13


def test_short_squeeze_moves_a_corporation_held_over_100_percent_twice():
    """With the Short Squeeze option, a 5- or 10-share corporation whose players hold more
    than 100% (a shorted share bought by another player) moves up twice at the end of the
    stock round; without it once. No real game has such a corporation at a round's end, so
    one is made: in 25363's second stock round H is sold out; Player 671 shorts it and
    Player 3955 takes the market's share, so players hold 120%."""
    moves = {}
    for options in ([], ["short_squeeze"]):
        game = game_at("25363", 209, options=options)
        table = game.table
        h = corp(game, "H")
        assert table.round.is_stock and certificates.percent_of(h, h) == 0
        shares.open_short(table, player(game, 671), h)
        share = certificates.held(table.state.market, h)[0]
        certificates.change_hands(table, certificates.Bundle.of([share]), player(game, 3955),
                                  price=0)
        held = sum(v for v in certificates.player_holders(h).values() if v > 0)
        assert held == 120
        start = h.price
        table.round.at_end()
        moves[tuple(options)] = h.price[1] - start[1]
    assert moves == {(): 1, ("short_squeeze",): 2}


# -- conversion, merger, acquisition, liquidation -----------------------------------------

def test_conversion_to_five_shares():
    """25363: J converts: the president's certificate becomes 40%, three 20% shares join the
    treasury, 60% is now the holding limit; the president buys one and J its token."""
    d = fixture("25363")
    game = game_at("25363", 127)
    j = corp(game, "J")
    game.apply(d["actions"][127])
    assert shares.size_of(j) == 5 and certificates.percent_of(j, j) == 60
    assert certificates.president_percent(j) == 40 and j.spec.max_ownership == 60
    game.apply(d["actions"][128])                    # the president buys J_1 at the price
    tokens, cash = len(j.tokens), j.cash
    game.apply(d["actions"][129])                    # J passes on loans: buys its token
    assert len(j.tokens) == tokens + 1 and j.cash == cash - 50


def test_merger_of_two_share_corporations():
    """25363: UR merges with R (both 2496's): price $50 + $55 → $100 (the dearest cell at
    most that), UR has 5 shares and R's cash, loans, trains and token; R is unstarted."""
    d = fixture("25363")
    game = game_at("25363", 197)
    game.apply(d["actions"][197])
    ur, r = corp(game, "UR"), corp(game, "R")
    assert price(game, "UR") == 100 and shares.size_of(ur) == 5
    assert (ur.cash, ur.loans, len(ur.trains)) == (110, 4, 4)
    assert sorted(t.where[0] for t in ur.tokens if t.where) == ["I13", "I15"]
    assert r.price is None and not r.started and certificates.percent_of(r, r) == 100


def test_merger_of_five_share_corporations_migrates_shares_and_shorts():
    """25363: H merges with NYSW (both 5 shares): every 20% of either is 10% of H, now 10
    shares. Player 2359 held 60% of each (now 60%); 2496 held 20% of H and was short 20% of
    NYSW: the short, now -10%, cancels against their 10% (nothing left); NYSW's 40% treasury
    is 20% of H's."""
    d = fixture("25363")
    game = game_at("25363", 265)
    game.apply(d["actions"][265])
    h = corp(game, "H")
    assert shares.size_of(h) == 10
    held = {pid: certificates.percent_of(player(game, pid), h) for pid in (2359, 2496, 3955)}
    assert held == {2359: 60, 2496: 0, 3955: 10}
    assert shares.holder_shorts(player(game, 2496), h) == []
    assert certificates.percent_of(h, h) == 20 and h.owner is player(game, 2359)


def test_acquisition_in_the_acquisition_zone():
    """20584, acquisition round 1.2: UR ($0, 2 loans) is won for $40 by Player 4 for R: R
    takes its loans, trains and tokens, pays $40, UR's shareholders get $40 and UR is put
    back unstarted."""
    d = fixture("20584")
    game = game_at("20584", 255)
    game.apply(d["actions"][255])
    r = corp(game, "R")
    assert r.loans == 3 and sorted(t.where[0] for t in r.tokens if t.where) == ["D16", "F20"]
    game.apply(d["actions"][256])                    # R passes on more loans
    assert corp(game, "UR").price is None and player(game, 1996).cash == 72


def test_liquidation_after_interest_cannot_be_paid():
    """25351: DL&W cannot pay its interest, goes to the liquidation cell; in the acquisition
    round its loans are settled (R acquires it) and it is put back unstarted."""
    d = fixture("25351")
    g = replay(d, keep_log=True)
    log = g.table.messages
    at = log.index("DL&W cannot afford $125 interest and goes into liquidation")
    assert log.index("DL&W is being liquidated, bank offers $0, corporation had $0 and 5 "
                     "loans") > at
    assert "R acquires DL&W" in log


def test_holding_limit_privates_and_shorts_follow_the_reference():
    """Where the seed and the reference differ the real games decide: 5- and 10-share
    corporations are held up to 60% (the seed's "6 of 10, 3 of 5"), 2-share ones 100%;
    Train Station, Denver Telecommunications and the coal mines close once used (the seed
    says privates never close; the reference closes them and the games follow); shorts
    stop in phase 8 (status no_new_shorts) and number at most the shares."""
    g = replay(fixture("20584"), keep_log=True)
    log = g.table.messages
    for closing in ("Train Station closes", "Denver Telecommunications closes",
                    "Minor Coal Mine closes"):
        assert closing in log
    assert [p.name for p in data.PHASES if "no_new_shorts" in p.status] == ["8"]
    sizes = {shares.size_of(c): c.spec.max_ownership for c in g.table.state.corporations
             if c.started}
    assert all(limit == (100 if size == 2 else 60) for size, limit in sizes.items())


# -- the reference's random games (../shared/random-games/1817NA) -------------------------

RANDOM = SHARED / "random-games" / "1817NA"


def random_game(name: str) -> dict:
    path = RANDOM / f"{name}.json"
    if not path.exists():
        pytest.skip(f"no random game {path} (the shared test data is not present)")
    return load_json(path)


def random_at(name: str, n: int) -> Game:
    d = copy.deepcopy(random_game(name))
    d["actions"] = d["actions"][:n]
    return replay(d, keep_log=True)


def test_the_bank_liquidates_a_corporation_nobody_bids_for():
    """rand_4p_421, acquisition round 3.2: DL&W, in liquidation with $91 and a loan, its
    president bankrupt, is offered; its cash goes to the bank and its loan is put aside;
    Player 2 passes, the bank liquidates it: its token leaves C9 and it is unstarted."""
    d = random_game("rand_4p_421")
    game = random_at("rand_4p_421", 379)
    dlw = corp(game, "DL&W")
    assert (dlw.cash, dlw.loans) == (0, 0) and dlw.owner is game.table.state.market
    assert "DL&W is being liquidated, bank offers $0, corporation had $91 and 1 loans" in \
        game.table.messages
    game.apply(d["actions"][379])
    fresh = corp(game, "DL&W")
    assert fresh.price is None and not fresh.started and not fresh.tokens[0].where
    assert all(t.owner is None or t.owner.sym != "DL&W"
               for c in game.table.state.hexes["C9"].cities for t in c.slots if t)
    assert "Bank liquidates DL&W for $0" in game.table.messages


def test_a_survivor_above_the_token_limit_removes_tokens():
    """rand_3p_422: H acquires PW and would hold more than 8 tokens (or two in a hex): it
    must take one off the map first, then takes PW's."""
    d = random_game("rand_3p_422")
    game = random_at("rand_3p_422", 674)
    assert "H will be above token limit and must decide which tokens to remove" in \
        game.table.messages
    h = corp(game, "H")
    assert game.table.round.acting() is h
    refused_without_change(game, {"type": "pass", "entity": "H", "entity_type": "corporation"})
    game.apply(d["actions"][674])                   # remove_token in New York (54-0-0)
    placed = sorted(t.where[0] for t in h.tokens if t.where)
    assert placed == ["D16", "D22", "E9", "F14", "F20", "H18", "I15", "J18"]


def test_a_station_taken_over_takes_the_first_free_slot_of_its_city():
    """rand_6p_527_short_squeeze: in F20 (one city, two slots) GT holds slot 0, its own
    token lifted when it took SR over and SR's token, in slot 1, exchanged for one of
    GT's: that one takes the first free slot, 0, as on 18xx.games. WT then places its
    station in slot 1 (the action names it), and when R later takes WT over, R's own
    F20 token is lifted and WT's, in slot 1, is the one R may remove."""
    from tracklayer.rules import board
    game = random_at("rand_6p_527_short_squeeze", 651)

    def f20():
        return [t.owner.sym if t else None
                for t in board.view(game.table, "F20").cities[0].city.slots]
    assert f20() == ["GT", "WT"]
    d = random_game("rand_6p_527_short_squeeze")
    for h in d["actions"][651:780]:
        game.apply(h)
    assert f20() == [None, "R"]                     # WT's token, held for R
    assert d["actions"][780]["city"] == "15-0-0" and d["actions"][780]["slot"] == 1
    game.apply(d["actions"][780])
    assert f20() == [None, None]


@pytest.mark.parametrize("name", ["rand_2p_424", "rand_3p_422", "rand_4p_421", "rand_5p_534",
                                  "rand_6p_425", "rand_6p_512", "rand_6p_526_modern_trains",
                                  "rand_6p_527_short_squeeze"])
def test_reference_random_games_replay_exactly(name):
    """Every line of the reference's trace, and the recorded result (all eight of
    ../shared/random-games/1817NA)."""
    from conftest import load_trace
    d = random_game(name)
    trace = load_trace(RANDOM / f"{name}.jsonl.gz")
    from tracklayer.io.export import positions
    for (index, entry, game), theirs in zip(positions(d), trace):
        ours = snapshot(game, index, entry)
        assert ours == theirs, f"{name}: line {index} ({entry.get('type')})"
    game = replay(d)
    assert game.is_over and game.end_reason == d["game_end_reason"]
    assert {str(k): v for k, v in game.result().items()} == d["result"]
    assert game.total_money() == game.starting_money


def test_modern_trains_pay_for_the_owners_stations():
    """With Modern Trains, a 7 earns $10 and an 8 $20 more per station of its owner it
    stops at; other trains nothing more; without the option nothing."""
    from tracklayer.titles.family1817.rules import modern_bonus
    game = game_at("25363", 10, options=["modern_trains"])
    eight = next(t for t in game.table.state.depot.every if t.name == "8")
    two = next(t for t in game.table.state.depot.every if t.name == "2")
    assert (modern_bonus(game.table, eight), modern_bonus(game.table, two)) == (20, 0)
    plain = game_at("25363", 10)
    assert modern_bonus(plain.table, eight) == 0
    # the real game (played without it) records a 7's run at 420; with it the same run
    # earns $60 more (three stations)
    with pytest.raises(GameError, match="earns 480, not 420"):
        game_at("25363", 837, options=["modern_trains"])


def test_net_worth_subtracts_shorts_at_the_price():
    """A player's worth is cash, shares at the price less short positions at the price,
    and private companies still held at face value."""
    game = game_at("25351", 881)
    table = game.table
    p = player(game, 5472)
    expected = p.cash + sum(c.value for c in p.companies)
    shorts = 0
    for certs in p.shares.values():
        for cert in certs:
            price = market.price(table, cert.corporation)
            value = price * cert.percent // certificates.share_percent(cert.corporation)
            expected += value
            shorts += value if cert.percent < 0 else 0
    assert shorts < 0
    assert table.variant.score(table, p) == expected


BANKRUPT_MID_ROUND = os.path.join(os.path.dirname(__file__), "data",
                                  "1817NA_president_bankrupt_mid_round.json")


def test_a_bankrupt_presidents_company_due_next_does_not_operate():
    """PSNR cannot pay its interest; its president, who also presides over J (the last
    company due to operate), goes bankrupt. J enters liquidation and, as on 18xx.games,
    leaves the round's order at once: the operating round ends and J never operates
    (the merger round follows; a greedy game of tracklayer's once let J lay a tile)."""
    data = load_json(BANKRUPT_MID_ROUND)
    game = replay(data)
    table = game.table
    j = table.corporation("J")
    assert table.cell(j.price).kind == "liquidation"
    assert j.owner is table.state.market
    assert table.round.is_merger
    assert all(h.get("entity") != "J" for h in game.legal_actions())
    with pytest.raises(GameError):
        game.apply({"type": "lay_tile", "entity": "J", "entity_type": "corporation",
                    "hex": "J18", "tile": "15-0", "rotation": 4, "id": len(game.actions) + 1})


def test_a_market_held_company_has_no_cash_to_merge_with():
    """A company the market holds (its president bankrupt) has nobody to pay for an extra
    share in a merger: its owner counts as having no cash (18xx.games' share pool has
    none). Put at a normal price, J may not take over SR (whose president would need the
    price of an extra share), and asking does not fail."""
    from tracklayer.rules import money
    from tracklayer.titles.family1817 import merging
    game = replay(load_json(BANKRUPT_MID_ROUND))
    table = game.table
    j, sr = table.corporation("J"), table.corporation("SR")
    assert money.spendable(table.state.market) == 0
    j.price = sr.price
    assert sr not in merging.partners(table, j, [])


NOBODY_FOUNDS = os.path.join(os.path.dirname(__file__), "data", "1817NA_nobody_founds.json")


def test_the_game_ends_after_the_set_following_the_first_8_train_even_with_nobody_acting():
    """A random game where, after the opening auction, nobody ever founds a company: the
    rounds run on by themselves, a train is exported after every operating round, and
    the first 8 train leaves in operating round 14.2, so the game ends after 15.3 (the
    rule: one more full set of operating rounds). 18xx.games logs the same "ending the
    game at the end of 15.3" but checks the end only after a player's action, so with
    nobody acting it runs on to turn 100 and calls the game 'dnf'; tracklayer keeps to
    the rule (the scores are the same either way)."""
    game = replay(load_json(NOBODY_FOUNDS), keep_log=True)
    assert game.is_over and game.end_reason == "final_phase"
    assert game.table.state.turn == 15
    assert "First 8 train bought/exported, ending game at the end of 15.3" in \
        game.table.messages


SALE_FOR_NOTHING = os.path.join(os.path.dirname(__file__), "data",
                                "1817NA_sale_for_nothing_before_a_train.json")


def test_after_a_sale_for_nothing_no_other_corporations_train_is_within_reach():
    """PLE ($39, no loans left) has bought two trains; its president ($1) sells a NYOW
    share for $0 during its train buying. A train of another corporation must then cost
    more than all PLE and its president could pay before that sale ($41 here, above
    PLE's $39), so none is listed and NYOW's 2+ for $33 is refused (18xx.games: "may only
    spend between $41 and $40")."""
    game = replay(load_json(SALE_FOR_NOTHING))
    assert game.table.corporation("PLE").cash == 39
    assert not [h for h in game.legal_actions() if h["type"] == "buy_train"]
    with pytest.raises(GameError, match="between"):
        game.apply({"type": "buy_train", "entity": "PLE", "entity_type": "corporation",
                    "train": "2+-0", "price": 33, "variant": "2+", "id": len(game.actions) + 1})


CRISIS_NO_SWAP = os.path.join(os.path.dirname(__file__), "data",
                              "1817NA_crisis_no_presidency_swap.json")


def test_in_a_cash_crisis_a_president_may_not_sell_the_presidency_away():
    """Greedy self-play, acquisition round 6.2: greedy 3 owes $41 after settling PSNR's
    debts and has sold what they may; left with NYSW's 20% president's certificate while
    greedy 1 and greedy 4 hold 20% each, any sale of it would hand NYSW's presidency over,
    which 18xx.games refuses in an emergency ('Cannot sell shares of NYSW'): bankruptcy is
    the one move. (Their earlier 10% sale, leaving them 20%, was allowed.)"""
    game = replay(load_json(CRISIS_NO_SWAP))
    assert game.table.find("player", 3).cash < 0
    assert [h["type"] for h in game.legal_actions()] == ["bankrupt"]
    with pytest.raises(GameError, match="Cannot sell"):
        game.apply({"type": "sell_shares", "entity": 3, "entity_type": "player",
                    "shares": ["NYSW_0"], "percent": 20, "id": len(game.actions) + 1})
