"""1849: Kingdom of the Two Sicilies — rules of the 1849 family, on positions built here."""

from __future__ import annotations

import dataclasses
import os

import pytest

from conftest import branched, game_after, load_json
from tracklayer.board.tiles import TileDef
from tracklayer.errors import GameError, RouteError
from tracklayer.game import Game
from tracklayer.io.export import replay
from tracklayer.rules import board, endgame, money, phases, powers, route_reading, routes, \
    trains
from tracklayer.rules.board import TileView
from tracklayer.state.model import HexState
from tracklayer.titles import title
from tracklayer.titles.family1849.gauges import chain_gauge, hex_cost
from tracklayer.titles.family1849.steps import LoanChoice, notes
from tracklayer.turns.trains import BuyTrainStep

TITLE = "1849: Kingdom of the Two Sicilies"
PLAYERS = [(1, "P1"), (2, "P2"), (3, "P3"), (4, "P4")]


def player(i: int, **kw) -> dict:
    return dict(entity=i, entity_type="player", **kw)


def corp(sym: str, **kw) -> dict:
    return dict(entity=sym, entity_type="corporation", **kw)


def new_game(seed: int = 5) -> Game:
    return Game(title(TITLE), PLAYERS, seed=seed)


def opening(game: Game) -> None:
    """Each player buys the cheapest private in turn; P1 buys RSA and starts its corporation
    (the first of the founding order, SFCS with seed 5) at 100; in the first stock round P2
    starts the next one (IFP) at 68 and then everyone passes."""
    order = game.table.state.corporations
    first, second = order[0].sym, order[1].sym
    for h in (player(1, type="bid", company="SCE", price=20),
              player(2, type="bid", company="SIGI", price=45),
              player(3, type="bid", company="CNM", price=75),
              player(4, type="bid", company="SMS", price=110),
              player(1, type="bid", company="RSA", price=150),
              player(1, type="par", corporation=first, share_price="100,3,5"),
              player(2, type="par", corporation=second, share_price="68,4,2")):
        game.apply(h)
    for i in (2, 3, 4, 1, 2):
        game.apply(player(i, type="pass"))


def sfcs_at_buy_train() -> Game:
    """SFCS (seed 5 puts it first, then IFP) has laid track to Crotone and must now buy a
    train; IFP operates after it."""
    game = new_game()
    opening(game)
    game.apply(corp("SFCS", type="lay_tile", hex="O9", tile="657-0", rotation=1))
    step = game.table.round.active_step()
    assert isinstance(step, BuyTrainStep) and "buy_train" in step.current_kinds()
    return game


# -- founding order and par prices ---------------------------------------------------------


def test_founding_order_is_drawn_from_the_seed():
    def order(seed):
        return [c.sym for c in new_game(seed).table.state.corporations]

    orders = {seed: order(seed) for seed in (1, 2, 5)}
    assert orders[5] == order(5)
    assert len({tuple(o) for o in orders.values()}) > 1
    assert sorted(orders[1]) == sorted(["SFR", "SFCS", "AL", "SFM", "IFP", "PL", "FCU", "M&C"])


def test_only_the_next_corporation_in_order_may_start():
    game = new_game()
    opening(game)  # RSA started the first corporation, P2 the second; the third is next
    table = game.table
    nxt, later = table.state.corporations[2], table.state.corporations[3]
    n = notes(table)
    assert n.next_to_start.get(nxt.sym, False) and not n.next_to_start.get(later.sym, False)
    p1 = table.state.players[0]
    assert table.variant.may_start(table, nxt, p1) and \
        not table.variant.may_start(table, later, p1)


def test_rsa_pays_the_corporation_for_its_presidency_and_the_token_fee_is_paid():
    game = new_game()
    opening(game)
    table = game.table
    sfcs = table.corporation("SFCS")
    assert sfcs.certificates[0].president
    assert sfcs.certificates[0].owner is table.player(1)
    assert sfcs.cash == 2 * 100 - sfcs.spec.token_fee


def buy_from_depot(game, corporation, name: str) -> None:
    """Put the next train named ``name`` in ``corporation``'s hands as a purchase would."""
    table = game.table
    train = next(t for t in table.state.depot.upcoming if t.name == name)
    price = train.variant.price
    money.pay(table, table.state.bank, corporation, price)
    trains.hand_over(table, train, corporation, price)
    phases.train_bought(table, train)


def test_par_offers_follow_the_phase():
    game = sfcs_at_buy_train()
    table = game.table

    def prices():
        nxt = next(c for c in table.state.corporations
                   if notes(table).next_to_start.get(c.sym))
        return [c.price for c in table.variant.start_cells(table, nxt, table.player(1))]

    assert prices() == [100, 68]
    sfcs = table.corporation("SFCS")
    for _ in range(4):
        buy_from_depot(game, sfcs, "4H")
    buy_from_depot(game, sfcs, "6H")
    assert table.phase.name == "6H" and prices() == [144, 100, 68]
    for name in ("6H", "6H", "6H", "8H", "8H", "8H", "10H"):
        for c in trains.over_limit(table):
            trains.give_back(table, c.trains[0])
        buy_from_depot(game, sfcs, name)
    assert table.phase.name == "10H" and prices() == [216, 144, 100, 68]


# -- hex-counting trains and gauges ------------------------------------------------------------


def node_chains(table, start, end, skip_gauge=None) -> list:
    """Every chain of track from stop ``start`` to stop ``end`` that passes no other stop,
    shortest first (the old engine's ``node_chains``, on ``routes.trails``)."""
    found = []

    def visit(rail, trail, k):
        if end in rail.nodes:
            found.append(list(trail))

    routes.trails(table, start, visit, skip_gauge)
    found.sort(key=len)
    return found


def first_stop(table, hex_id: str):
    view = board.view(table, hex_id)
    return view.nodes[min(view.nodes)]


def chain_between(game, a: str, b: str) -> list:
    """The rails of the shortest chain of track between the first stops of hexes a and b."""
    table = game.table
    return node_chains(table, first_stop(table, a), first_stop(table, b))[0]


def a_train(game, name: str):
    return next(t for t in game.table.state.depot.every if t.name == name)


def test_narrow_gauge_counts_double_except_for_the_r6h():
    game = new_game()
    avezzano_rome = chain_between(game, "C7", "C5")   # narrow meets dual
    h4, r6h = a_train(game, "4H"), a_train(game, "R6H")
    assert chain_gauge(avezzano_rome) == "narrow"
    assert hex_cost(avezzano_rome, h4) == 2
    assert hex_cost(avezzano_rome, r6h) == 1


def test_dual_gauge_counts_one_per_hex_side():
    game = new_game()
    bari_port = chain_between(game, "J18", "J20")
    h4, r6h = a_train(game, "4H"), a_train(game, "R6H")
    assert chain_gauge(bari_port) == "dual"
    assert hex_cost(bari_port, h4) == 1 == hex_cost(bari_port, r6h)


def test_broad_gauge_counts_double_for_the_r6h():
    game = sfcs_at_buy_train()  # O9's broad track now meets Crotone's dual track
    catanzaro_crotone = chain_between(game, "O9", "O11")
    r6h, h4 = a_train(game, "R6H"), a_train(game, "4H")
    assert chain_gauge(catanzaro_crotone) == "broad"
    assert hex_cost(catanzaro_crotone, h4) == 1
    assert hex_cost(catanzaro_crotone, r6h) == 2


def test_track_cannot_change_gauge_between_stations():
    tile = TileDef("X", "yellow", "town 10 ; path 0 N0 track=broad ; path 3 N0 track=narrow ; "
                                  "path 1 4 track=dual")
    view = TileView(HexState("X", "X-0"), tile)
    broad, narrow, dual = view.rails
    assert (broad.gauge, narrow.gauge, dual.gauge) == ("broad", "narrow", "dual")
    assert chain_gauge([broad, dual]) == "broad"
    with pytest.raises(RouteError, match="gauge"):
        chain_gauge([broad, dual, narrow])


def test_a_route_too_long_for_the_train_is_refused():
    game = sfcs_at_buy_train()
    game.apply(corp("SFCS", type="buy_train", train="4H-0", price=100))
    table = game.table
    route = {"train": "4H-0", "connections": [["O9", "O11"]]}
    (built,) = route_reading.read_routes(table, [route])
    assert sum(hex_cost(leg.chain.rails, built.train) for leg in built.legs) == 1
    # the same route for a train that reaches no hex side
    built.train.variant = dataclasses.replace(built.train.variant, distance=0)
    with pytest.raises(RouteError, match="too far"):
        table.variant.check_reach(table, built, built.visited())


# -- emergency money raising and bankruptcy ----------------------------------------------------


def test_president_pays_what_the_company_lacks_for_a_required_train():
    game = sfcs_at_buy_train()
    table = game.table
    sfcs, p1 = table.corporation("SFCS"), table.player(1)
    money.pay(table, sfcs, table.state.bank, sfcs.cash - 30)
    before = p1.cash
    game.apply(corp("SFCS", type="buy_train", train="4H-0", price=100))
    assert sfcs.cash == 0 and p1.cash == before - 70
    assert [t.id for t in sfcs.trains] == ["4H-0"]


def test_no_shares_of_the_company_are_sold_for_it_in_its_first_operating_round():
    game = sfcs_at_buy_train()
    table = game.table
    sfcs, p1 = table.corporation("SFCS"), table.player(1)
    money.pay(table, sfcs, table.state.bank, sfcs.cash)
    money.pay(table, p1, table.state.bank, p1.cash - 10)
    step = table.round.active_step()
    assert all(not step.may_sell(p1, b) for b in table.variant.sale_bundles(table, p1, sfcs))
    with pytest.raises(GameError):
        game.apply(player(1, type="sell_shares", shares=["SFCS_0"], percent=20))


def test_bankruptcy_is_refused_while_the_president_can_pay():
    game = sfcs_at_buy_train()
    before = game.table.corporation("SFCS").cash
    with pytest.raises(GameError, match="cannot go bankrupt"):
        game.apply(corp("SFCS", type="bankrupt"))
    assert game.table.corporation("SFCS").cash == before


def bankrupt_sfcs() -> Game:
    game = sfcs_at_buy_train()
    table = game.table
    sfcs, p1 = table.corporation("SFCS"), table.player(1)
    money.pay(table, sfcs, table.state.bank, sfcs.cash)
    money.pay(table, p1, table.state.bank, p1.cash)
    game.apply(corp("SFCS", type="bankrupt"))
    return game


def test_a_bankrupt_company_closes_and_can_be_started_again_later():
    game = bankrupt_sfcs()
    table = game.table
    sfcs = table.corporation("SFCS")
    assert not sfcs.started and sfcs.price is None and sfcs.cash == 0
    assert table.state.corporations[-1] is sfcs and notes(table).closed_recently["SFCS"]
    o9 = board.view(table, "O9").cities
    assert not any(c.holds(sfcs) for c in o9)
    assert not any(t is not None and t.owner.sym == "SFCS" for c in o9 for t in c.city.slots)
    assert not any(table.player(1).shares.values())
    assert notes(table).loan_player is table.player(1)
    assert game.total_money() == game.starting_money


def test_a_president_left_without_shares_may_take_the_emergency_loan():
    game = bankrupt_sfcs()
    table = game.table
    p1 = table.player(1)
    assert isinstance(table.round.active_step(), LoanChoice)   # before IFP operates
    value = endgame.worth(table, p1)
    game.apply(player(1, type="choose", choice="Take L.500 loan"))
    assert p1.cash == 500 and not p1.bankrupt
    assert endgame.worth(table, p1) == value + 500 - 750
    assert not game.is_over


def last_corporation_bankrupt(others_cash: bool) -> Game:
    """SFCS goes bankrupt as the last corporation of its operating round (IFP, next in
    it, has closed), its president P1 left without shares; the other players keep their
    cash and private companies, or have nothing."""
    game = sfcs_at_buy_train()
    table = game.table
    table.variant.close_corporation(table, table.corporation("IFP"))
    sfcs = table.corporation("SFCS")
    money.pay(table, sfcs, table.state.bank, sfcs.cash)
    for p in table.state.players:
        if p.id == 1 or not others_cash:
            money.pay(table, p, table.state.bank, p.cash)
            for c in list(p.companies):
                powers.close_company(table, c)
    game.apply(corp("SFCS", type="bankrupt"))
    assert notes(table).loan_player is table.player(1)
    return game


def test_the_loan_choice_waits_for_a_round_with_a_corporation_as_on_18xx_games():
    """The last corporation of the round gone, the round ends; the stock round goes on
    (P1, with nothing, cannot act) and the choice comes when the next operating round
    starts with the corporation started meanwhile."""
    game = last_corporation_bankrupt(others_cash=True)
    table = game.table
    assert table.round.is_stock and game.acting is not table.player(1)
    game.apply(next(h for h in game.legal_actions() if h["type"] == "par"))
    while table.round.is_stock:
        game.apply(dict(entity=game.acting.id, entity_type="player", type="pass"))
    assert isinstance(table.round.active_step(), LoanChoice)
    assert [h["choice"] for h in game.legal_actions()] == ["Take L.500 loan", "Leave game"]


def test_with_nobody_able_to_act_the_loan_choice_never_comes_as_on_18xx_games():
    """With nobody able to act in the stock rounds and no corporation to run, the pending
    choice never comes: 18xx.games ends every operating round without a corporation at
    once and the game runs to its turn limit (dnf); the choice is then refused (its
    selfplay-100 export: 'Cannot process action choose')."""
    game = last_corporation_bankrupt(others_cash=False)
    table = game.table
    assert game.is_over and table.state.end.reason == "dnf"
    assert notes(table).loan_player is table.player(1) and game.legal_actions() == []
    with pytest.raises(GameError):
        game.apply(player(1, type="choose", choice="Take L.500 loan"))
    assert game.total_money() == game.starting_money


LEFT_THEN_BANKRUPT = os.path.join(os.path.dirname(__file__), "data",
                                  "k2s_random_4p_232_left_then_bankrupt.json")


def test_a_player_who_left_and_is_bankrupted_again_may_only_take_the_loan():
    """Random self-play (seed 232): random 2, bankrupted with SFR, chose to leave the game,
    but stayed president of M&C, started before; M&C, which had to buy a train and could
    not, went bankrupt as the last of its round, leaving them no shares. As on 18xx.games
    the loan-or-leave choice comes again, first thing in the next operating round (its
    first corporation may not pass before it); leaving again is refused ('already
    bankrupt'), the loan is taken: L.500, and L.750 off the score."""
    game = replay(load_json(LEFT_THEN_BANKRUPT))
    table = game.table
    p2 = table.player(2)
    assert p2.bankrupt and table.round.is_operating
    assert isinstance(table.round.active_step(), LoanChoice)
    assert game.legal_actions() == [player(2, type="choose", choice="Take L.500 loan")]
    first = table.round.entities[0]
    for refused in (corp(first.sym, type="pass"), player(2, type="choose", choice="Leave game")):
        with pytest.raises(GameError):
            game.apply(refused)
    cash, penalty = p2.cash, p2.penalty
    game.apply(player(2, type="choose", choice="Take L.500 loan"))
    assert (p2.cash, p2.penalty) == (cash + 500, penalty + 750)
    assert notes(table).loan_player is None
    assert game.acting is first
    assert game.total_money() == game.starting_money


def test_or_leave_the_game():
    game = bankrupt_sfcs()
    game.apply(player(1, type="choose", choice="Leave game"))
    assert game.table.player(1).bankrupt and not game.is_over


BANKRUPTCY_SALE_CLOSES = os.path.join(os.path.dirname(__file__), "data",
                                      "k2s_bankruptcy_sale_closes_a_corporation_first.json")


def test_a_corporation_the_bankrupt_president_sold_to_closing_goes_back_in_line_first():
    """A closed corporation goes to the end of the founding order as it closes, and a
    corporation whose price the bankrupt president's sales drive into the closing cell
    closes before the bankrupt corporation (``Bankruptcy1849``).

    Harness game 5p seed 58 (trimmed export, actions 1-621): in operating round 8.1 IFP
    goes bankrupt; random 5 sells 3 shares of SFR, which falls to L.0. The reference's
    order afterwards ends SFR, IFP; after PL and FCU have closed too it is AL M&C SFM SFR
    IFP SFCS PL FCU in stock round 14, so SFR is next to start and random 2 (L.195) may
    par SFR only: the reference refuses 'par IFP' ('IFP cannot be parred')."""
    data = load_json(BANKRUPTCY_SALE_CLOSES)
    game = replay(data, keep_log=True)
    table = game.table
    closed = [m for m in table.messages if m in ("SFR closes", "IFP closes")]
    assert closed[:2] == ["SFR closes", "IFP closes"]
    assert [c.sym for c in table.state.corporations] == \
        ["AL", "M&C", "SFM", "SFR", "IFP", "SFCS", "PL", "FCU"]
    n = notes(table)
    assert n.next_to_start.get("SFR") and not n.next_to_start.get("IFP")
    two = table.find("player", 2)
    assert table.round.is_stock and game.acting is two and two.cash == 195
    assert {a["corporation"] for a in game.legal_actions() if a["type"] == "par"} == {"SFR"}
    with pytest.raises(GameError):
        game.apply(player(2, type="par", corporation="IFP", share_price="68,4,2",
                          id=len(data["actions"]) + 1))


SALE_CLOSES = os.path.join(os.path.dirname(__file__), "data", "k2s_sale_closes_a_corporation.json")


def test_a_stock_round_sale_that_closes_a_corporation_lets_the_round_go_on():
    """Random self-play (seed 388), stock round 3: random 3's sale drops SFM to L.0 and it
    closes; random 1, left with nothing to do, passes by itself and random 2 is to act.
    The rules go on as ever: random 2 may pass (or act), then the operating round begins.
    18xx.games moves to the next player before the closing and keeps that step cached,
    so there its round is stuck with nothing anyone may do ('No step found for action
    pass'): a bug in its shared round code, not followed here."""
    game = replay(load_json(SALE_CLOSES), keep_log=True)
    table = game.table
    assert table.messages.count("SFM closes") == 1 and table.corporation("SFM").price is None
    assert table.messages[-1] == "random 1 has no valid actions and passes"
    assert game.acting is table.find("player", 2)
    moves = game.legal_actions()
    assert {"type": "pass", "entity": 2, "entity_type": "player"} in moves
    game.apply({"type": "pass", "entity": 2, "entity_type": "player",
                "id": len(game.actions) + 1})
    assert table.round.is_operating


SWAP_CLOSES = os.path.join(os.path.dirname(__file__), "data",
                           "k2s_sale_closes_with_presidency_swap_pending.json")


def test_a_presidency_swap_stays_to_be_chosen_when_the_sale_closes_the_corporation():
    """Presidency swap for the last certificate (18xx.games: 'swapped for last cert by
    default ... may choose to swap for two 10% shares instead'). Random self-play (seed 49,
    5 players), stock round 3, action 81: random 1 sells SFCS_1 and SFCS_0 (30%); random 5,
    holding the 20% last certificate, becomes president, then SFCS drops to 0 and closes.
    As on 18xx.games, whose page asks for the choice there (so real games hold a
    ``choose`` at that point), the choice stays to be made and blocks the turn (its next
    action, buying SFR_2, is refused); only 'One 20% cert', which changes nothing, is
    offered, since the closed corporation's certificates are gone ('Two 10% certs' is
    refused; 18xx.games fails on it)."""
    export = load_json(SWAP_CLOSES)
    buy = export["actions"].pop()
    assert buy["type"] == "buy_shares" and buy["shares"] == ["SFR_2"]
    game = replay(export, keep_log=True)
    table = game.table
    assert "random 5 becomes the president of SFCS" in table.messages
    assert table.messages.count("SFCS closes") == 1
    random1 = table.find("player", 1)
    assert game.acting is random1
    assert game.legal_actions() == [{"type": "choose", "entity": 1, "entity_type": "player",
                                     "choice": "One 20% cert"}]
    money, n = game.total_money(), len(game.actions)
    with pytest.raises(GameError):
        game.apply(dict(buy, id=n + 1))
    with pytest.raises(GameError, match="SFCS has closed"):
        game.apply({"type": "choose", "entity": 1, "entity_type": "player",
                    "choice": "Two 10% certs", "id": n + 1})
    assert game.total_money() == money and len(game.actions) == n
    def holdings():
        return {p.id: {k: [c.id for c in v] for k, v in p.shares.items()}
                for p in table.state.players}

    before = holdings()
    game.apply({"type": "choose", "entity": 1, "entity_type": "player",
                "choice": "One 20% cert", "id": n + 1})
    assert holdings() == before and game.total_money() == money
    assert game.acting is random1
    game.apply(dict(buy, id=n + 2))
    assert len(game.actions) == n + 2


def test_no_partial_sale_of_the_presidency_to_an_heir_holding_only_the_last_certificate():
    """The heir whose only certificate is the 20% last one gives it whole for the
    president's certificate, so a president holding a bare 20% who sells half of it takes
    the 10% they keep from the market: with no 10% share there (self-play seed 1057,
    action 93: random 1 holds SFR's president's certificate, random 4 the last
    certificate, the market nothing) the half sale is neither listed nor taken; selling it
    whole stays open. The reference lists that half sale and fails on it (NoMethodError
    on the missing share), so no real game holds it."""
    from tracklayer.play.selfplay import play_game
    from tracklayer.rules import certificates

    bots = ["random", "greedy", "random", "random"]
    out = play_game("1849: Kingdom of the Two Sicilies", bots, 1057, keep=True)
    assert out["error"] is None and out["end_reason"] == "bank"
    # the position itself: the president's whole certificate may go, not half of it
    from tracklayer.play.selfplay import new_game
    game = new_game("1849: Kingdom of the Two Sicilies", [f"{b} {i + 1}" for i, b in
                                                         enumerate(bots)], 1057)
    for action in out["export"]["actions"][:92]:
        game.apply(action)
    sfr = game.table.find("corporation", "SFR")
    seller = sfr.owner
    heir_certs = [certificates.held(p, sfr) for p in game.table.state.players
                  if p is not seller and certificates.percent_of(p, sfr) == 20]
    assert heir_certs and [c.last for c in heir_certs[0]] == [True]
    sales = [a for a in game.legal_actions() if a["type"] == "sell_shares"
             and a["entity"] == seller.id and a["shares"] == ["SFR_0"]]
    assert [a["percent"] for a in sales] == [20]
    half = dict(sales[0], percent=10, id=len(game.actions) + 1)
    with pytest.raises(GameError):
        game.apply(half)


HALF_PRESIDENCY = os.path.join(os.path.dirname(__file__), "data",
                               "k2s_half_presidency_for_the_last_certificate.json")


def test_half_a_bare_presidency_goes_to_the_holder_of_the_last_certificate():
    """The presidency passes on a sale (``Family1849.presidency_may_pass``) to the heir
    holding more than the seller keeps, the seller keeping under 20%; an heir holding the
    20% last certificate gives it for the president's, and a seller of half the
    president's certificate takes the 10% kept from the market's 10% shares.

    This follows 18xx.games against rule 9.5 (which lets an heir holding only the last
    certificate take over only from a seller selling out or keeping 10% of more than 20%):
    its page offers the half sale (g_1849 ``dumpable_on`` falls through to the common
    test) and carries it out, so real games contain it, and with it the seller's own
    pass where tracklayer used to pass him by himself.

    Harness game 6p seed 2, stock round 7 (trimmed export, actions 1-160): random 1 holds
    AL's president's certificate AL_0 alone, random 2 only the last certificate AL_7,
    the market AL_4, AL_2, AL_6, AL_3. The reference's values after the sale: random 2
    presides with AL_0, random 1 holds AL_4 (the market's first 10% share) and L.54,
    the market AL_2, AL_6, AL_3, AL_7 (50%), the bank L.7 396; random 2, greedy 3 and
    random 4 have nothing to do, random 5 acts."""
    from tracklayer.rules import certificates

    data = load_json(HALF_PRESIDENCY)
    game = replay(data, keep_log=True)
    table = game.table
    al = table.corporation("AL")
    one, two = table.find("player", 1), table.find("player", 2)
    market = table.state.market

    def ids(holder) -> list:
        return [c.id for c in certificates.held(holder, al)]

    assert (ids(one), ids(two), ids(market)) == (["AL_0"], ["AL_7"],
                                                 ["AL_4", "AL_2", "AL_6", "AL_3"])
    assert table.round.is_stock and game.acting is one and table.state.bank.cash == 7427
    sale = player(1, type="sell_shares", shares=["AL_0"], percent=10)
    assert game.legal_actions() == [sale, player(1, type="pass")]

    game.apply(dict(sale, id=161))
    assert al.owner is two
    assert (ids(one), ids(two), ids(market)) == (["AL_4"], ["AL_0"],
                                                 ["AL_2", "AL_6", "AL_3", "AL_7"])
    assert certificates.market_percent(table, al) == 50
    assert (one.cash, two.cash, table.state.bank.cash) == (54, 29, 7396)
    assert table.messages[-4:] == [
        "random 2 becomes the president of AL", "random 2 has no valid actions and passes",
        "greedy 3 has no valid actions and passes", "random 4 has no valid actions and passes"]
    assert table.round.is_stock and game.acting is table.find("player", 5)


def test_a_bankruptcy_whose_sales_move_two_prices_keeps_the_order_before_them():
    """A president going bankrupt for a train sells what they may: here SFCS and M&C, each
    falling a row. Corporations a sale pushes onto the same price keep the operating order
    they had before the sales. Closing the bankrupt corporation ends its turn, which starts
    a fresh order for later sales: the order from before the sales is the one kept
    (tracklayer lost it there and failed with an internal error whenever the sales moved
    two prices; 18xx.games takes the bankruptcy, with the same state after it). A game
    branching off the real bank game: AL's president, Player 2, holds 20% of AL, 10% of
    SFCS and 10% of M&C."""
    path = os.path.join(os.path.dirname(__file__), "data",
                        "1849_bankruptcy_sales_move_two_prices.json")
    data = branched(path)
    game = game_after(data, -1)
    table = game.table
    sfcs, mc = table.corporation("SFCS"), table.corporation("M&C")
    prices = (sfcs.price, mc.price)
    before = {at: list(corps) for at, corps in table.state.cells.items() if corps}
    entry = data["actions"][-1]
    assert (entry["type"], entry["entity"]) == ("bankrupt", "AL")
    game.apply(entry)
    assert table.corporation("AL").price is None          # closed, to be started again
    assert (sfcs.price, mc.price) == ((prices[0][0] + 1, prices[0][1]),
                                      (prices[1][0] + 1, prices[1][1]))
    for corp in (sfcs, mc):
        others = [c for c in table.state.cells[corp.price] if c is not corp]
        assert others == [c for c in before.get(corp.price, []) if c in others]
