"""1849: Kingdom of the Two Sicilies — rules of the 1849 family, on positions built here."""

from __future__ import annotations

import pytest

from tracklayer.engine.errors import GameError, RouteError
from tracklayer.map.tiles import Edge, Path, Town
from tracklayer.routes.route import node_chains
from tracklayer.titles.g1849_k2s.game import G1849K2S

PLAYERS = [(1, "P1"), (2, "P2"), (3, "P3"), (4, "P4")]


def player(i: int, **kw) -> dict:
    return dict(entity=i, entity_type="player", **kw)


def corp(sym: str, **kw) -> dict:
    return dict(entity=sym, entity_type="corporation", **kw)


def new_game(seed: int = 5) -> G1849K2S:
    return G1849K2S(PLAYERS, seed=seed)


def opening(game: G1849K2S) -> None:
    """Each player buys the cheapest private in turn; P1 buys RSA and starts its corporation
    (the first of the founding order, SFCS with seed 5) at 100; in the first stock round P2
    starts the next one (IFP) at 68 and then everyone passes."""
    first, second = game.corporations[0].id, game.corporations[1].id
    for h in (player(1, type="bid", company="SCE", price=20),
              player(2, type="bid", company="SIGI", price=45),
              player(3, type="bid", company="CNM", price=75),
              player(4, type="bid", company="SMS", price=110),
              player(1, type="bid", company="RSA", price=150),
              player(1, type="par", corporation=first, share_price="100,3,5"),
              player(2, type="par", corporation=second, share_price="68,4,2")):
        game.process_action(h)
    for i in (2, 3, 4, 1, 2):
        game.process_action(player(i, type="pass"))


def sfcs_at_buy_train() -> G1849K2S:
    """SFCS (seed 5 puts it first, then IFP) has laid track to Crotone and must now buy a
    train; IFP operates after it."""
    game = new_game()
    opening(game)
    game.process_action(corp("SFCS", type="lay_tile", hex="O9", tile="657-0", rotation=1))
    assert game.round.active_step().type == "buy_train"
    return game


# -- founding order and par prices ---------------------------------------------------------


def test_founding_order_is_drawn_from_the_seed():
    orders = {seed: [c.id for c in new_game(seed).corporations] for seed in (1, 2, 5)}
    assert orders[5] == [c.id for c in new_game(5).corporations]
    assert len({tuple(o) for o in orders.values()}) > 1
    assert sorted(orders[1]) == sorted(["SFR", "SFCS", "AL", "SFM", "IFP", "PL", "FCU", "M&C"])


def test_only_the_next_corporation_in_order_may_start():
    game = new_game()
    opening(game)  # RSA started the first corporation, P2 the second; the third is next
    nxt, later = game.corporations[2], game.corporations[3]
    assert nxt.next_to_par and not later.next_to_par
    assert game.can_par(nxt, game.players[0]) and not game.can_par(later, game.players[0])


def test_rsa_pays_the_corporation_for_its_presidency_and_the_token_fee_is_paid():
    game = new_game()
    opening(game)
    sfcs = game.corporation_by_id("SFCS")
    assert sfcs.presidents_share.owner is game.player_by_id(1)
    assert sfcs.cash == 2 * 100 - sfcs.token_fee


def buy_from_depot(game, corporation, name: str) -> None:
    """Put the next train named ``name`` in ``corporation``'s hands as a purchase would."""
    train = next(t for t in game.depot.upcoming if t.name == name)
    game.bank.spend(train.price, corporation)
    game.buy_train(corporation, train, train.price)
    game.phase.buying_train(corporation, train, game.depot)


def test_par_offers_follow_the_phase():
    game = sfcs_at_buy_train()
    prices = lambda: [p.price for p in game.par_prices()]  # noqa: E731
    assert prices() == [100, 68]
    sfcs = game.corporation_by_id("SFCS")
    for _ in range(4):
        buy_from_depot(game, sfcs, "4H")
    buy_from_depot(game, sfcs, "6H")
    assert game.phase.name == "6H" and prices() == [144, 100, 68]
    for name in ("6H", "6H", "6H", "8H", "8H", "8H", "10H"):
        for c in game.crowded_corps():
            game.depot.reclaim_train(c.trains[0])
        buy_from_depot(game, sfcs, name)
    assert game.phase.name == "10H" and prices() == [216, 144, 100, 68]


# -- hex-counting trains and gauges ------------------------------------------------------------


def chain_between(game, a: str, b: str):
    start = game.hex_by_id(a).tile.nodes[0]
    end = game.hex_by_id(b).tile.nodes[0]
    return node_chains(start, end)[0]


def test_narrow_gauge_counts_double_except_for_the_r6h():
    game = new_game()
    avezzano_rome = chain_between(game, "C7", "C5").paths   # narrow meets dual
    h4 = next(t for t in game.depot.trains if t.name == "4H")
    r6h = next(t for t in game.depot.trains if t.name == "R6H")
    assert game.track_type(avezzano_rome) == "narrow"
    assert game.hex_edge_cost(avezzano_rome, h4) == 2
    assert game.hex_edge_cost(avezzano_rome, r6h) == 1


def test_dual_gauge_counts_one_per_hex_side():
    game = new_game()
    bari_port = chain_between(game, "J18", "J20").paths
    h4 = next(t for t in game.depot.trains if t.name == "4H")
    r6h = next(t for t in game.depot.trains if t.name == "R6H")
    assert game.track_type(bari_port) == "dual"
    assert game.hex_edge_cost(bari_port, h4) == 1 == game.hex_edge_cost(bari_port, r6h)


def test_broad_gauge_counts_double_for_the_r6h():
    game = sfcs_at_buy_train()  # O9's broad track now meets Crotone's dual track
    catanzaro_crotone = chain_between(game, "O9", "O11").paths
    r6h = next(t for t in game.depot.trains if t.name == "R6H")
    h4 = next(t for t in game.depot.trains if t.name == "4H")
    assert game.track_type(catanzaro_crotone) == "broad"
    assert game.hex_edge_cost(catanzaro_crotone, h4) == 1
    assert game.hex_edge_cost(catanzaro_crotone, r6h) == 2


def test_track_cannot_change_gauge_between_stations():
    game = new_game()
    town = Town({"yellow": 10})
    broad = Path(Edge(0), town, track="broad")
    narrow = Path(Edge(3), town, track="narrow")
    dual = Path(Edge(1), Edge(4), track="dual")
    assert game.track_type([broad, dual]) == "broad"
    with pytest.raises(RouteError, match="gauge"):
        game.track_type([broad, dual, narrow])


def test_a_route_too_long_for_the_train_is_refused():
    game = sfcs_at_buy_train()
    game.process_action(corp("SFCS", type="buy_train", train="4H-0", price=100))
    route = {"train": "4H-0", "connections": [["O9", "O11"]]}
    from tracklayer.routes.route import build_routes
    (built,) = build_routes(game, game.corporation_by_id("SFCS"), [route])
    assert game.route_distance(built) == 1
    built.train.distance = 0  # the same route for a train that reaches no hex side
    with pytest.raises(RouteError, match="too far"):
        game.check_distance(built, built.visited_stops())


# -- emergency money raising and bankruptcy ----------------------------------------------------


def test_president_pays_what_the_company_lacks_for_a_required_train():
    game = sfcs_at_buy_train()
    sfcs, p1 = game.corporation_by_id("SFCS"), game.player_by_id(1)
    sfcs.spend(sfcs.cash - 30, game.bank)
    before = p1.cash
    game.process_action(corp("SFCS", type="buy_train", train="4H-0", price=100))
    assert sfcs.cash == 0 and p1.cash == before - 70
    assert [t.id for t in sfcs.trains] == ["4H-0"]


def test_no_shares_of_the_company_are_sold_for_it_in_its_first_operating_round():
    game = sfcs_at_buy_train()
    sfcs, p1 = game.corporation_by_id("SFCS"), game.player_by_id(1)
    sfcs.spend(sfcs.cash, game.bank)
    p1.spend(p1.cash - 10, game.bank)
    step = game.round.active_step()
    assert all(not step.can_sell(p1, b) for b in game.bundles_for_corporation(p1, sfcs))
    with pytest.raises(GameError):
        game.process_action(player(1, type="sell_shares", shares=["SFCS_0"], percent=20))


def test_bankruptcy_is_refused_while_the_president_can_pay():
    game = sfcs_at_buy_train()
    before = game.corporation_by_id("SFCS").cash
    with pytest.raises(GameError, match="cannot go bankrupt"):
        game.process_action(corp("SFCS", type="bankrupt"))
    assert game.corporation_by_id("SFCS").cash == before


def bankrupt_sfcs() -> G1849K2S:
    game = sfcs_at_buy_train()
    sfcs, p1 = game.corporation_by_id("SFCS"), game.player_by_id(1)
    sfcs.spend(sfcs.cash, game.bank)
    p1.spend(p1.cash, game.bank)
    game.process_action(corp("SFCS", type="bankrupt"))
    return game


def test_a_bankrupt_company_closes_and_can_be_started_again_later():
    game = bankrupt_sfcs()
    sfcs = game.corporation_by_id("SFCS")
    assert not sfcs.ipoed and sfcs.share_price is None and sfcs.cash == 0
    assert game.corporations[-1] is sfcs and sfcs.closed_recently
    assert not any(c.tokened_by(sfcs) for c in game.hex_by_id("O9").tile.cities)
    assert game.player_by_id(1).shares == []
    assert game.loan_choice_player is game.player_by_id(1)
    assert game.total_money() == game.starting_money


def test_a_president_left_without_shares_may_take_the_emergency_loan():
    game = bankrupt_sfcs()
    p1 = game.player_by_id(1)
    assert game.round.active_step().type == "loan_choice"   # before IFP operates
    value = game.player_value(p1)
    game.process_action(player(1, type="choose", choice="Take L.500 loan"))
    assert p1.cash == 500 and not p1.bankrupt
    assert game.player_value(p1) == value + 500 - 750
    assert not game.finished


def test_or_leave_the_game():
    game = bankrupt_sfcs()
    game.process_action(player(1, type="choose", choice="Leave game"))
    assert game.player_by_id(1).bankrupt and not game.finished
