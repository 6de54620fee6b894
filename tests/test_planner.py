"""The planner bot: greedy's judgement with a look ahead on copies of the game, chosen by
name wherever bots are, and the same moves from the same seed."""

from conftest import play_until
from tracklayer.play.consent import Negotiation
from tracklayer.play.planner import PlannerBot
from tracklayer.play.roster import BOTS, bot
from tracklayer.play.selfplay import bot_move, new_game, play_game
from tracklayer.play.seats import moves_of, player_at, seat_to_act


def test_the_planner_is_a_bot_kind():
    assert isinstance(bot("planner", 3), PlannerBot) and "planner" in BOTS


def test_the_planner_plays_the_same_moves_from_the_same_seed():
    """Its budget is counted in actions played on copies, not timed: a loaded machine
    changes nothing."""
    first = play_game("1893", ["planner", "greedy", "greedy"], seed=7, max_actions=120,
                      keep=True)
    again = play_game("1893", ["planner", "greedy", "greedy"], seed=7, max_actions=120,
                      keep=True)
    assert first["export"]["actions"] == again["export"]["actions"]
    assert len(first["export"]["actions"]) >= 120


def test_the_planner_weighs_greedys_best_stock_moves_on_copies():
    """In a stock round, greedy's choice and its next best distinct moves are played out;
    the planner's move is one of them, and each is valued (none refused)."""
    bots = ["greedy", "greedy", "greedy"]
    game = new_game("1893", [f"{b} {i + 1}" for i, b in enumerate(bots)], 7)
    players = [bot(b, 700 + i) for i, b in enumerate(bots)]
    talks = Negotiation()
    planner = PlannerBot(5)
    weighed = 0
    while not game.is_over and len(game.actions) < 200 and weighed < 3:
        seat = seat_to_act(game)
        if game.table.round.is_stock and seat is not None:
            planner.rng.seed(1)
            moves = planner.options(game, seat)
            scored = planner.scores(game, player_at(game, seat), moves)
            choice = planner.pick(game, seat, moves, scored)
            found = planner.candidates(game, choice, moves, scored)
            if len(found) >= 2:
                weighed += 1
                assert all(planner.outcome(game, seat, h, 10) is not None for h in found)
                planner.rng.seed(1)
                assert planner.decide(game, seat) in found
        h = bot_move(game, players, talks)
        if h is not None:
            h["id"] = len(game.actions) + 1
            game.apply(h, auto=True)
    assert weighed == 3


def test_the_planner_counts_half_of_a_company_not_floated_as_at_risk():
    """1893: a president's certificate of a company started but not floated earns
    nothing and cannot be sold; the planner's outcome counts half its worth as lost
    (greedy bots started DE at 100 with 250M and it stood unfloated for 100-300 actions)."""
    from tracklayer.play.planner import STUCK, at_risk
    from tracklayer.rules.certificates import certificate_price

    def stuck_unfloated(game, _seat) -> bool:
        for seat in range(4):
            player = player_at(game, seat)
            stuck = [c for certs in player.shares.values() for c in certs
                     if c.corporation.started and not c.corporation.floated]
            floated = all(c.corporation.floated for certs in player.shares.values()
                          for c in certs)
            if stuck and not any(c.corporation.floated for certs in player.shares.values()
                                 for c in certs):
                worth = sum(certificate_price(game.table, c) for c in stuck)
                assert at_risk(game, player) == STUCK * worth
                return True
            assert not floated or at_risk(game, player) == 0
        return False

    play_until("1893", 1000, ["greedy"] * 4, stuck_unfloated, limit=400)


def test_a_game_whose_trains_stand_still_moves_on_to_its_end():
    # 1871, planner in seat 3 against greedy (strength.py game 18): every company kept a
    # train the next did not rust and paid its money out, so the D that ends the game
    # was never bought (6000 actions and more); once no train has been bought for a long
    # while, companies with room withhold for the next train
    out = play_game("The Old Prince 1871", ["greedy", "greedy", "planner", "greedy"], 1018,
                    max_actions=3000)
    assert out["error"] is None and out["end_reason"] is not None


def test_a_train_going_round_between_one_presidents_companies_stops():
    # 1871, planner in seat 1 against greedy (strength.py game 16): So and HRB, both
    # greedy 3's, bought one 4+ from each other for $1 every operating round, so a train
    # was always being bought yet the depot never moved (6000 actions); trains going
    # round count as trains standing still, and the game ends
    out = play_game("The Old Prince 1871", ["planner", "greedy", "greedy", "greedy"], 1016,
                    max_actions=3000)
    assert out["error"] is None and out["end_reason"] is not None


def test_the_planner_exchanges_a_private_for_shares():
    """1893: FdSD may be exchanged for 20% of RAG in a stock round; greedy never does
    (it closes, unused, in phase 5: 180M paid for a few incomes). Played by the planner
    from the first position where the exchange is listed, FdSD's holder exchanges it
    (once it has bought a share of its own beside its president's certificate) and
    holds the 20% after."""
    from tracklayer.play.planner import is_exchange

    bots = ["greedy"] * 4
    game = new_game("1893", [f"{b} {i + 1}" for i, b in enumerate(bots)], 1001)
    players = [bot(b, 100100 + i) for i, b in enumerate(bots)]
    talks = Negotiation()
    holder = None
    while not game.is_over and len(game.actions) < 400:
        seat = seat_to_act(game)
        if holder is None and seat is not None and \
                any(is_exchange(h) for h in moves_of(game, seat, game.legal_actions())):
            holder, players[seat] = seat, PlannerBot(3)
        h = bot_move(game, players, talks)
        if h is not None:
            h["id"] = len(game.actions) + 1
            game.apply(h, auto=True)
            if is_exchange(h):
                assert seat == holder and h["entity"] == "FdSD"
                assert sum(c.percent for c in player_at(game, seat).shares["RAG"]) >= 20
                return
    raise AssertionError("FdSD was never exchanged")


def test_the_planner_counts_a_presidents_loans_against_it():
    """1817: a company that cannot pay its interest is liquidated and its president
    settles the loans its treasury does not cover; the planner counts them (all of them
    for a company whose interest eats half its revenue, half otherwise)."""
    from tracklayer.play import greedy_finance as finance
    from tracklayer.play.planner import LIABLE, liability

    def borrowed(game, _seat) -> bool:
        for c in game.state.corporations:
            debt = max(0, c.loans * finance.loan_value(game) - c.cash)
            owed = liability(game, c)
            assert owed in (debt, LIABLE * debt)
            if debt and owed:
                return True
        return False

    play_until("1817NA", 1002, ["greedy"] * 4, borrowed, limit=1500)


def test_the_planner_takes_no_loan_that_only_deepens_a_debt():
    """1817: greedy borrows for the interest, or for a train its loans cannot reach,
    until the company owes all it may and is liquidated, its president settling $100 a
    loan (mostly a bankruptcy). The planner takes no such loan; greedy does."""
    game = new_game("1817NA", ["a", "b", "c", "d"], 1003)
    players = [bot("greedy", 100300 + i) for i in range(4)]
    talks = Negotiation()
    judge = PlannerBot(1)
    while not game.is_over and len(game.actions) < 1500:
        seat = seat_to_act(game)
        loans = [h for h in game.legal_actions() if h["type"] == "take_loan"]
        for h in loans:
            entity = game.table.find(h["entity_type"], h["entity"])
            player = player_at(game, seat)
            greedy = players[0].score(game, player, h)
            if greedy > 0 and not judge.sound_loan(game, entity):
                assert judge.score(game, player, h) < 0
                return
        h = bot_move(game, players, talks)
        if h is not None:
            h["id"] = len(game.actions) + 1
            game.apply(h, auto=True)
    raise AssertionError("greedy took no loan the planner would refuse")
