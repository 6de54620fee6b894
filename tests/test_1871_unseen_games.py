"""The Old Prince 1871 rules found by replaying new random games in 18xx.games' engine
(games tracklayer's bots played, accepted action by action by the reference with the same
state after every action)."""

from __future__ import annotations

import os

import pytest

from conftest import apply_live, branched, game_after, load_json
from tracklayer.errors import GameError
from tracklayer.io.export import replay
from tracklayer.rules import certificates
from tracklayer.turns.round import StockRound

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



SHORTLINE_AT_THE_4PLUS = os.path.join(
    DATA, "1871_shortline_exchange_at_the_4plus_moves_presidency.json")
FIRST_4PLUS = 424  # S buys the 4+-0 from the depot for $200 (Operating Round 8.2)


def test_the_shortline_exchanges_at_the_4plus_move_its_presidency_to_the_largest_holder():
    """The first 4+ closes the privates; MC, VR and SB, all still player 3's, are first
    exchanged for the Shortline's (A's) three reserved 10% shares, one by one. The
    presidency passes only to a player holding more than the president: after two
    exchanges player 3 ties player 2 (20% each, the president's certificate), who keeps
    it; after the third, player 3 (30%) takes it, giving two 10% shares for the
    president's certificate. So in the next stock round player 2 may not sell A_0 (18xx.games:
    "Cannot sell shares of A")."""
    export = load_json(SHORTLINE_AT_THE_4PLUS)
    actions = export["actions"]
    game = game_after(export, FIRST_4PLUS)
    table = game.table
    a, two, three = table.corporation("A"), table.player(2), table.player(3)
    assert a.owner is two and a.certificates[0].owner is two
    assert [table.company(s).owner for s in ("MC", "VR", "SB")] == [three] * 3
    assert actions[FIRST_4PLUS]["type"] == "buy_train" and actions[FIRST_4PLUS]["train"] == "4+-0"
    game.apply(actions[FIRST_4PLUS])
    assert all(table.company(s).closed for s in ("MC", "VR", "SB"))
    assert a.owner is three and a.certificates[0].owner is three
    assert (a.holders[three], a.holders[two]) == (30, 20)
    for action in actions[FIRST_4PLUS + 1:]:
        game.apply(action)
    assert isinstance(table.round, StockRound) and game.acting is two
    assert not [x for x in game.legal_actions()
                if x["type"] == "sell_shares" and x["entity"] == 2 and "A_0" in x["shares"]]
    with pytest.raises(GameError, match="cannot sell 20% of A"):
        game.apply({"type": "sell_shares", "entity": 2, "entity_type": "player",
                    "shares": ["A_0"], "percent": 20, "id": 448})


FOURPLUS_HELD = os.path.join(DATA, "1871_4plus_held_through_a_revenue_rusts_on_the_d.json")
FIRST_D = 615  # HRB buys the D-0 from the depot for $600 (Operating Round 10.1)


def test_a_4plus_held_through_a_revenue_has_operated_and_rusts_on_the_d():
    """A 4+ that has not yet operated when the first D comes becomes obsolete instead of
    rusting. A train has operated once a corporation holding it came to the revenue of its
    turn, with a route for it or not: MS bought the 4+-0 after its run in Operating Round
    9.1 and had no route for it in 9.2 (no revenue, nothing withheld). The D rusts it all
    the same, with CB's 4+-1 (it ran with HRB): MS has no train left, so at its next turn
    it must buy one before anything else (18xx.games refuses its run_routes: "Blocking step
    Buy Trains cannot process action run_routes")."""
    export = load_json(FOURPLUS_HELD)
    actions = export["actions"]
    assert not [a for a in actions[:FIRST_D] if a["type"] == "run_routes" and
                "4+-0" in [r["train"] for r in a["routes"]]]
    game = game_after(export, FIRST_D)
    table = game.table
    ms, cb = table.corporation("MS"), table.corporation("CB")
    assert [t.id for t in ms.trains] == ["4+-0"] and [t.id for t in cb.trains] == ["4+-1"]
    assert actions[FIRST_D]["type"] == "buy_train" and actions[FIRST_D]["train"] == "D-0"
    for action in actions[FIRST_D:-1]:
        game.apply(action)
    assert table.phase.name == "D" and not ms.trains
    assert [t.id for t in cb.trains] == ["D-0"]
    with pytest.raises(GameError, match="MS cannot run_routes now"):
        game.apply(actions[-1])


MARKET_EXCHANGE = os.path.join(DATA, "1871_market_exchange_puts_branch_shares_last.json")


def test_the_market_takes_its_branch_shares_to_the_back_of_its_pile():
    """In a split the market, as each player, gives one share for every two it holds and
    takes a branch share for them: its own already, so it goes to the back of its pile,
    as any share it receives, and the market gives them in that order. In the real game
    S splits off BB (entries 321-325): of BB's shares in the market, BB_1 and BB_2 are the
    market's exchange, so BB_3 to BB_8 come first. In the bots' game BB then splits off
    SB: the market gives its first two BB shares, BB_7 and BB_8, to BB's treasury (with
    the president's and players' BB_4 and BB_5) and keeps BB_1 and BB_2; so BB_7 is
    bought from BB's treasury, and BB is paid its $65."""
    data = branched(MARKET_EXCHANGE)
    game = game_after(data, -1)
    table = game.table
    bb = table.corporation("BB")
    assert [c.id for c in certificates.held(bb, bb)] == ["BB_4", "BB_5", "BB_7", "BB_8"]
    assert [c.id for c in certificates.held(table.state.market, bb)] == ["BB_1", "BB_2"]
    cash = bb.cash
    bought = data["actions"][-1]
    assert (bought["entity"], bought["shares"]) == (12729, ["BB_7"])
    game.apply(bought)
    assert bb.cash == cash + 65
    assert [c.id for c in certificates.held(table.player(12729), bb)] == ["BB_7"]


PROGRAM_BY_PROGRAM = os.path.join(DATA, "1871_program_set_by_a_program_passes.json")


def test_a_share_pass_set_by_a_buying_program_looks_only_at_what_comes_after_it():
    """A program looks at what other players did after it was set: a share pass that a
    buying program sets when its corporation floats (``auto_pass_after``) is set there and
    then, so the sale earlier in the round does not stop it (18xx.games compares the
    moments: the order actions were carried out in). In a stock round of a game branching
    off the real one, player 19748 buys PEIR until it floats; player 14958 sells So_1,
    then buys S_2, and 19748's program, PEIR having floated, ends, sets a share pass, and
    passes for 19748, as on 18xx.games."""
    data = branched(PROGRAM_BY_PROGRAM)
    game = game_after(data, -1)
    bought = data["actions"][-1]
    assert (bought["entity"], bought["shares"]) == (14958, ["S_2"])
    made = apply_live(game, bought)
    assert [(a["type"], a["entity"], a.get("reason")) for a in made] == [
        ("program_disable", 19748, "PEIR is floated"),
        ("program_share_pass", 19748, None),
        ("pass", 19748, None)]


SPLIT_ENDS_ROUND = os.path.join(DATA, "1871_split_ending_the_stock_round.json")


def test_a_split_that_ends_the_stock_round_has_sold_out_corporations_rise_twice():
    """The published rule moves each sold-out corporation up once at the end of a stock
    round. On 18xx.games the round is finished twice when the action completing a split
    ends it (the split hands the turn on, every player then has nothing to do and passes,
    and the round is finished once there and once more after the action), so the
    sold-out corporations rise twice. A real game that came to this would have ended with
    those prices, so tracklayer does the same. A game branching off the random game
    rand_4p_214: player 1 splits S; the cash taken to Stratford Branch ($142) completes
    it; nobody can trade any more, and C and MS, sold out, go up two rows: 74 to 86 and 58
    to 74 (once: 80 and 65)."""
    data = branched(SPLIT_ENDS_ROUND)
    game = game_after(data, -1)
    table = game.table
    c, ms = table.corporation("C"), table.corporation("MS")
    price = lambda corp: table.spec.cells[corp.price].price     # noqa: E731
    assert isinstance(table.round, StockRound)
    assert (price(c), price(ms)) == (74, 58)
    entry = data["actions"][-1]
    assert (entry["type"], entry["choice"]) == ("choose", 142)
    game.apply(entry)
    assert table.round.is_operating
    assert (price(c), price(ms)) == (86, 74)


BANK_START_ALONE = os.path.join(DATA, "1871_bank_start_alone_holds_no_turn.json")


def test_a_start_only_the_union_bank_could_pay_holds_no_turn():
    """The owner of UB may start a corporation for the Union Bank in their turn. 18xx.games
    offers it beside the owner's own start, whose check counts the owner's cash alone, so a
    start that only the bank's cash (with the owner's) could pay leaves the owner nothing to
    do, and the turn ends by itself. A game branching off the random game rand_4p_212:
    Player 4 owns UB, holds $99 (the Union Bank $103) and sells a share of MR; the turn
    passes to Player 3 at once. (tracklayer kept it open for a pass, listing nothing but
    the pass, which 18xx.games refuses there.)"""
    data = branched(BANK_START_ALONE)
    game = game_after(data, len(data["actions"]))
    table = game.table
    owner = table.player(4)
    assert table.company("UB").owner is owner and owner.cash == 99
    assert data["actions"][-1]["type"] == "sell_shares"
    assert table.round.acting() is table.player(3)
    with pytest.raises(GameError):
        game.apply({"type": "pass", "entity": 4, "entity_type": "player"})
