"""Playing: the legal-move listing checked along games (every action taken is listed, every
listed action tried is accepted), price ranges, bots, self-play and the terminal game."""

import json
import random

import pytest

from conftest import FIXTURES, play_until
from tracklayer.cli import main
from tracklayer.io.export import load_export
from tracklayer.play.legality import check
from tracklayer.randomplay import play_random, sensible_weight
from tracklayer.turns.listing import concrete


def test_a_random_game_is_listed_exactly(tmp_path, capsys):
    """`tracklayer legal --check --json` along a random game: each move taken is among
    those listed, and the listed moves tried (a price drawn within each range) are
    accepted."""
    data = play_random("1893", 4, 5, max_actions=150, weight=sensible_weight).export()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main(["legal", str(path), "--check", "--json", "--sample", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"positions", "found", "missing", "listed_tried", "listed_refused",
            "seconds"} <= set(out)
    assert out["positions"] >= 140 and out["error"] is None
    assert out["missing"] == 0 and out["found"] == out["positions"]
    assert out["listed_tried"] > 200 and out["listed_refused"] == 0


@pytest.mark.skipif(not (FIXTURES / "1893").is_dir(), reason="no ../shared fixtures")
def test_legal_check_on_a_real_game(capsys):
    """`tracklayer legal --check --json` on the start of a real game: one object, nothing
    missing or refused (the whole games are checked by hand: see the report in README)."""
    path = str(FIXTURES / "1893" / "1893_game_end_bank.json")
    out = check(load_export(path), sample=1, limit=120)
    assert out["positions"] > 100 and out["missing"] == 0 and out["listed_refused"] == 0
    assert main(["legal", path, "--action", "40", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["legal"]
    assert listed and all("type" in h for h in listed)


@pytest.mark.parametrize("title, players, seed", [
    ("1893", 4, 5), ("1849: Kingdom of the Two Sicilies", 4, 3)])
def test_free_prices_are_listed_as_ranges(title, players, seed):
    """A price paid freely (a bid, a train bought from another company) is one listed action
    with its range; both ends and a price between are accepted; no price outside it is
    made."""
    from tracklayer.io.export import open_game

    data = play_random(title, players, seed, max_actions=40, weight=sensible_weight).export()
    game = open_game(data, keep_log=False)
    for h in data["actions"]:
        ranged = [x for x in game.legal_actions() if "price_range" in x]
        if ranged:
            break
        game.apply(h)
    else:
        pytest.fail("no price range listed in the first 40 actions")
    h = ranged[0]
    low, high = h["price_range"]
    assert h["price"] == low < high
    for price in (low, high, random.Random(1).randint(low, high)):
        trial = game.clone()
        trial.apply(dict(concrete(h, price), id=len(game.actions) + 1))
        assert trial.actions[-1]["price"] == price
    with pytest.raises(ValueError):
        concrete(h, high + 1)


SPLIT_GAME = FIXTURES / "1871" / "1871_game_end_final_phase.json"
SPLIT_CASH = 325         # the entry choosing the cash a new Branch takes (180 of 250)


@pytest.mark.skipif(not SPLIT_GAME.exists(), reason="no ../shared fixtures")
def test_an_amount_chosen_freely_is_listed_as_a_range():
    """1871: the cash a corporation splitting gives its Branch is any amount up to all of
    it: one listed ``choose`` with its ``choice_range``; the recorded amount between the
    ends is found by the check; any amount in range is accepted, recorded as an integer or
    as digits; one beyond it, or not an amount, is refused and changes nothing."""
    from tracklayer.errors import GameError
    from tracklayer.io.export import open_game
    from tracklayer.play.legality import matches
    from tracklayer.turns.listing import random_value, value_range

    data = load_export(str(SPLIT_GAME))
    game = open_game(data, keep_log=False)
    for h in data["actions"][:SPLIT_CASH]:
        game.apply(h)
    taken = data["actions"][SPLIT_CASH]
    listed = [h for h in game.legal_actions() if h["type"] == "choose"]
    assert listed == [{"type": "choose", "entity": taken["entity"], "entity_type": "player",
                       "choice": 0, "choice_range": [0, 250]}]
    h = listed[0]
    assert value_range(h) == ("choice", 0, 250, 1)
    assert matches(game, taken, listed) and matches(game, dict(taken, choice="180"), listed)
    assert not matches(game, dict(taken, choice=251), listed)
    for amount in (0, 180, 250):
        trial = game.clone()
        trial.apply(dict(concrete(h, amount), id=len(game.actions) + 1))
        assert trial.actions[-1]["choice"] == amount
    drawn = random_value(h, random.Random(2))
    assert 0 <= drawn["choice"] <= 250 and set(drawn) == {"type", "entity", "entity_type",
                                                           "choice"}
    with pytest.raises(ValueError):
        concrete(h, 251)
    before = game.export()
    for bad in (251, -1, "lots", True):
        with pytest.raises(GameError):
            game.apply(dict(h, choice=bad, id=len(game.actions) + 1))
        assert game.export() == before


def test_the_terminal_asks_for_a_value_in_a_range():
    """At the terminal a ranged move asks for its value (a price, or an amount chosen),
    again while it is out of range, the least on Enter."""
    import io

    from rich.console import Console

    from tracklayer.play.terminal import ask_price

    h = {"type": "choose", "entity": 1, "entity_type": "player", "choice": 0,
         "choice_range": [0, 250]}
    out = io.StringIO()
    lines = iter(["300", "180"])
    assert ask_price(Console(file=out), h, lambda: next(lines)) == dict(
        {k: v for k, v in h.items() if k != "choice_range"}, choice=180)
    assert "choice (0..250" in out.getvalue() and "not between 0 and 250" in out.getvalue()
    assert ask_price(Console(file=io.StringIO()), h, lambda: "")["choice"] == 0


def test_bots_are_reproducible_and_move_for_their_seat():
    """The same seed gives the same game; a bot only moves for entities its player
    decides for; money is conserved after every action (checked by self-play)."""
    from tracklayer.play.selfplay import play_game

    first = play_game("1893", ["greedy", "random", "random"], seed=4, keep=True)
    again = play_game("1893", ["greedy", "random", "random"], seed=4, keep=True)
    assert first["error"] is None and first["end_reason"] is not None
    assert first["export"]["actions"] == again["export"]["actions"]
    assert first["result"] == again["result"] and len(first["result"]) == 3


def test_selfplay_json_and_exports_verify(tmp_path, capsys):
    """`selfplay --json` prints one object per game with the fields promised, and the
    games it saves replay with `verify`."""
    folder = tmp_path / "games"
    assert main(["selfplay", "1893", "--games", "2", "--bots", "random,greedy,random",
                 "--seed", "3", "--json", "--save", str(folder)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 2
    for out in lines:
        assert set(out) == {"title", "seed", "bots", "actions", "end_reason", "result",
                            "seconds", "error", "deals"}
        assert out["error"] is None and out["end_reason"] and len(out["result"]) == 3
        deals = out["deals"]
        assert deals["proposed"] == deals["accepted"] + deals["declined"]
    files = sorted(str(p) for p in folder.glob("*.json"))
    assert len(files) == 2
    assert main(["verify"] + files) == 0


def test_greedy_beats_random():
    """Over a few short games the greedy bot (seat 1) ends ahead of two random bots in
    each (the strength script, benchmarks/strength.py, plays a hundred)."""
    from tracklayer.play.selfplay import play_game, winners

    for seed in (1, 2, 3):
        out = play_game("1893", ["greedy", "random", "random"], seed=seed)
        assert out["error"] is None and out["end_reason"]
        assert winners(out) == [0], out


def test_play_at_the_terminal_from_piped_input(tmp_path, monkeypatch):
    """`tracklayer new` then `tracklayer play` with moves piped in: a person's moves by
    number, an undo (which takes back the bots' moves too), the game saved after each
    action; a game of bots alone is played to its end and verifies."""
    import io

    from tracklayer.play import terminal

    path = str(tmp_path / "game.json")
    assert main(["new", "1893", "--players", "Ann,bot:greedy,bot:random", "--seed", "3",
                 "-o", path]) == 0
    out = io.StringIO()
    from rich.console import Console
    assert terminal.play(path, io.StringIO("1\n1\nu\n1\nx\nq\n"),
                         Console(file=out, width=120)) == 0
    text = out.getvalue()
    assert "Ann to move" in text and "undone" in text and "type a number" in text
    data = json.loads(open(path).read())
    assert data["players"][1]["name"] == "bot:greedy"
    assert data["settings"]["tracklayer_bots"] == {"2": "greedy", "3": "random"}
    taken = [h for h in data["actions"] if h["type"] not in ("undo", "redo")]
    assert taken and any(h["type"] == "undo" for h in data["actions"])

    bots_only = str(tmp_path / "bots.json")
    assert main(["new", "1893", "--players", "bot:greedy,bot:random,bot:random",
                 "--seed", "2", "-o", bots_only]) == 0
    assert terminal.play(bots_only, io.StringIO(""), Console(file=io.StringIO())) == 0
    assert json.loads(open(bots_only).read())["finished"]
    assert main(["verify", bots_only]) == 0


def test_selfplay_on_ray_plays_the_same_games():
    """Games played on a local Ray instance (started by the test, ~20 s) are the games
    played here. Ray comes with the test extra (and the ray extra)."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install -e '.[ray]')")
    from tracklayer.play.selfplay import run

    here = list(run("1893", ["random", "greedy", "random"], 2, seed=1))
    there = list(run("1893", ["random", "greedy", "random"], 2, seed=1, ray="local"))
    strip = [{k: v for k, v in g.items() if k != "seconds"} for g in here]
    assert strip == [{k: v for k, v in g.items() if k != "seconds"} for g in there]


def test_a_player_who_left_is_not_asked_to_leave_again():
    """Two Sicilies: a player who left the game (bankrupt) and whose company then goes
    bankrupt is not offered the loan-or-leave choice again (self-play found this: the
    choice was listed and its commit failed, 'already bankrupt')."""
    from tracklayer.play.selfplay import play_game

    out = play_game("1849: Kingdom of the Two Sicilies", ["greedy", "random", "random",
                                                          "random"], seed=1023)
    assert out["error"] is None and out["end_reason"] is not None


def test_greedy_scores_a_private_companys_lay_by_its_owners_routes():
    """1817NA: a private company owned by a corporation lists its special lay (a mine);
    greedy judges it by the owning corporation's routes (self-play found a lay by a company
    sent to the route finder, which runs operators only)."""
    from tracklayer.play.selfplay import play_game

    out = play_game("1817NA", ["greedy", "random", "random", "random"], seed=1020)
    assert out["error"] is None and out["end_reason"] is not None


def test_greedy_offers_a_fair_price_for_a_rivals_train():
    """Two Sicilies: when its company has no train and may buy a train of another
    player's company that has two, greedy proposes to buy it rather than pay the depot,
    at the depot price of a train of that kind (a fair price, which a greedy seller
    accepts; the rules' least, L.1, took other players' trains without asking). Never a
    rival's last train: greedy companies took each other's for ever and the game
    stalled."""
    from tracklayer.play import consent, dealing
    from tracklayer.play.bots import controller, moves_of, player_at

    def rival_train_listed(game, seat):
        if seat != 0:
            return False
        me = player_at(game, 0)
        for h in moves_of(game, 0):
            t = game.table.find("train", h.get("train")) if h["type"] == "buy_train" else None
            buyer = game.table.find(h.get("entity_type"), h.get("entity"))
            if t is not None and getattr(t.owner, "trains", None) is not None and \
                    controller(t.owner) not in (None, me) and not buyer.trains and \
                    len(t.owner.trains) >= 2 and \
                    h.get("price_range", [0, 0])[1] >= t.variant.price:
                return True
        return False

    game, players = play_until("1849: Kingdom of the Two Sicilies", 1002,
                                ["greedy", "random", "random", "random"], rival_train_listed)
    h = players[0].choose(game, 0)
    train = game.table.find("train", h["train"])
    assert h["type"] == "buy_train" and h["price"] == train.variant.price
    assert controller(train.owner) is not player_at(game, 0)
    assert len(train.owner.trains) >= 2
    deal = consent.deal_of(game, h)
    assert deal is not None and dealing.FAIR.answer(game, deal, players[0].rng)
    cheap = consent.deal_of(game, dict(h, price=h["price"] - 1))
    assert not dealing.FAIR.answer(game, cheap, players[0].rng)
    last = [x for x in moves_of(game, 0) if x["type"] == "buy_train" and
            len(getattr(game.table.find("train", x["train"]).owner, "trains", [])) == 1 and
            controller(game.table.find("train", x["train"]).owner) is not player_at(game, 0)]
    assert all(players[0].score(game, player_at(game, 0), x) < 0 for x in last)


def test_greedy_never_strips_its_own_company_of_its_last_train():
    """1893, two greedy bots: a minor with no train and no money for the depot took its
    president's corporation's only train for 1M, and the corporation, forced to buy a
    train it could not pay for, went bankrupt (seed 8 at action 103, seed 3 at 142). A
    sound player never takes the last train of a company that must own one from a
    company of its own president's: the offer scores below passing, and the games play
    on to the bank's end."""
    from tracklayer.play.bots import controller, moves_of, player_at
    from tracklayer.play.seats import seat_to_act
    from tracklayer.play.selfplay import play_game

    def own_last_train_listed(game, seat):
        for h in moves_of(game, seat):
            train = game.table.find("train", h.get("train")) if h["type"] == "buy_train" \
                else None
            owner = getattr(train, "owner", None)
            buyer = game.table.find(h.get("entity_type"), h.get("entity"))
            if getattr(owner, "trains", None) == [train] and owner is not buyer and \
                    getattr(owner, "certificates", None) and \
                    controller(owner) is controller(buyer):
                return True
        return False

    game, players = play_until("1893", 8, ["greedy", "greedy"], own_last_train_listed)
    seat = seat_to_act(game) or 0
    player = player_at(game, seat)
    for h in moves_of(game, seat):
        train = game.table.find("train", h.get("train")) if h["type"] == "buy_train" else None
        if train is not None and getattr(train.owner, "trains", None) == [train] and \
                getattr(train.owner, "certificates", None):
            assert players[seat].score(game, player, h) < 0
    for seed in (3, 8):
        out = play_game("1893", ["greedy", "greedy"], seed)
        assert out["error"] is None and out["end_reason"] == "bank", out


def test_greedy_leaves_eva_with_its_holder():
    """1893: EVA may be bought from the player holding it by anyone in an operating round
    at a price they choose, so taking it is a deal its holder must accept (``consent``):
    a greedy holder declines less than its face value (bots took EVA from people for 1M
    without asking), and greedy proposes no such deal at all (at its face value, the fair
    price, EVA only changed hands: 307 times in 20 greedy games)."""
    from tracklayer.play import consent, dealing
    from tracklayer.play.consent import Negotiation
    from tracklayer.play.greedy import GreedyBot
    from tracklayer.play.roster import bot
    from tracklayer.play.selfplay import bot_move, new_game

    offers, asked = [], []

    class Watched(GreedyBot):
        def choose(self, game, seat, declined=()):
            h = super().choose(game, seat, declined)
            for x in self.listed:
                if self.is_grab(game, x):
                    face = game.table.find("company", x["company"]).value
                    low, high = x.get("price_range") or (x["price"], x["price"])
                    deal = consent.deal_of(game, concrete(x, max(low, min(high, face - 1))))
                    if deal is not None and deal.price < face:
                        asked.append(deal.price)
                        assert not dealing.FAIR.answer(game, deal, self.rng)
            if self.is_grab(game, h):
                offers.append(h)
            return h

    bots = ["greedy", "random", "random", "random"]
    for seed in (1032, 1035):
        game = new_game("1893", [f"{b} {i + 1}" for i, b in enumerate(bots)], seed)
        players = [Watched(seed * 100)] + [bot(b, seed * 100 + i)
                                           for i, b in enumerate(bots) if i]
        talks = Negotiation()
        while not game.is_over:
            h = bot_move(game, players, talks)
            if h is not None:
                h["id"] = len(game.actions) + 1
                game.apply(h, auto=True)
    assert asked and not offers, (asked, offers)


def test_greedy_lays_track_toward_a_paying_stop():
    """Two Sicilies, a greedy company that has earned nothing yet: of the lays listed,
    greedy takes one whose track points nearest a paying stop, not at empty land
    (self-play: companies laid track round their homes for many rounds, never ran, and
    went bankrupt)."""
    from tracklayer.play.bots import moves_of
    from tracklayer.play.greedy import GreedyBot

    judge = GreedyBot()

    def lays_of(game):
        return [h for h in moves_of(game, 0) if h["type"] == "lay_tile"]

    def idle_company_lays(game, seat):
        lays = lays_of(game) if seat == 0 else []
        if not lays:
            return False
        company = game.table.find(lays[0]["entity_type"], lays[0]["entity"])
        if getattr(company, "history", None) is None or \
                any(x.revenue for x in company.history):
            return False
        return len({judge.toward(game, company, h) for h in lays}) > 1

    game, players = play_until("1849: Kingdom of the Two Sicilies", 1035,
                                ["greedy", "random", "random", "random"], idle_company_lays)
    greedy = players[0]
    lays = lays_of(game)
    company = game.table.find(lays[0]["entity_type"], lays[0]["entity"])
    toward = {(h["hex"], h["tile"], h["rotation"]): greedy.toward(game, company, h)
              for h in lays}
    h = greedy.choose(game, 0)
    assert h["type"] == "lay_tile"
    assert toward[(h["hex"], h["tile"], h["rotation"])] == max(toward.values())


def test_greedy_starts_no_company_that_cannot_buy_a_train():
    """A company its president cannot equip with the cheapest train (what it pays in and
    what it has left) goes bankrupt with its president: greedy does not start one."""
    from tracklayer.play.bots import player_at
    from tracklayer.play.greedy import GreedyBot
    from tracklayer.play.selfplay import new_game
    from tracklayer.rules import trains

    game = new_game("1849: Kingdom of the Two Sicilies", ["a", "b", "c", "d"], 3)
    greedy, player = GreedyBot(1), player_at(game, 0)
    price = trains.cheapest_price(game.table)
    free = next(c for c in game.state.corporations if c.spec.token_fee == 0) \
        if any(c.spec.token_fee == 0 for c in game.state.corporations) else None
    ifp = game.table.find("corporation", "IFP")      # pays L.130 for its tokens
    assert ifp.spec.token_fee == 130
    player.cash = price - 1
    if free is not None:
        assert not greedy.equips(game, player, free, 10 * (price - 1))
    player.cash = price + 130
    assert greedy.equips(game, player, ifp, 10 * (price + 130) // 2)
    player.cash = price + 129
    assert not greedy.equips(game, player, ifp, 10 * (price + 129) // 2)


def test_greedy_never_raises_its_own_leading_bid():
    """Two Sicilies' opening auction: with its bid on a private company leading, greedy
    does not bid on it again (self-play: it raised its own bid on the RSA by L.5 a turn,
    to L.180 where L.155 had stood unchallenged)."""
    from tracklayer.play.bots import player_at

    def leads_a_bid(game, seat):
        step = game.table.round.active_step()
        me = player_at(game, 0)
        return seat == 0 and step is not None and any(
            step.leading_bidder(c) is me for c in game.state.companies)

    game, players = play_until("1849: Kingdom of the Two Sicilies", 1030,
                                ["greedy", "random", "random", "random"], leads_a_bid)
    step, me = game.table.round.active_step(), player_at(game, 0)
    leading = {c.sym for c in game.state.companies if step.leading_bidder(c) is me}
    assert step.leading_bids(me) > 0
    h = players[0].choose(game, 0)
    assert not (h["type"] == "bid" and h["company"] in leading)


def test_greedy_keeps_the_money_to_start_a_company_at_its_best_par():
    """Two Sicilies: greedy without a company bids on a private company only with the
    president's certificate at the best par left over (self-play: the RSA and the CNM
    left it L.140, a company at 68, and a dead position in which it lost)."""
    from tracklayer.play.bots import moves_of, player_at

    game, players = play_until("1849: Kingdom of the Two Sicilies", 1000,
                                ["greedy", "random", "random", "random"],
                                lambda game, seat: seat == 0)
    me, greedy = player_at(game, 0), players[0]
    assert greedy.founding_money(game, me) == 200      # 20% at L.100
    cnm = next(h for h in moves_of(game, 0) if h["type"] == "bid" and h["company"] == "CNM")
    assert cnm["price"] == 80          # worth 75 and four incomes of 15 to greedy
    me.cash = 375
    assert greedy.score(game, me, cnm) > 0
    me.cash = 260                      # L.180 left: short of a start at L.100
    assert greedy.score(game, me, cnm) < 0


def test_greedy_spends_no_train_money_on_track():
    """Two Sicilies: a company that needs a train lays no tile whose terrain would leave
    it (and its president) short of the train's price; the lay costs what the engine
    charges (self-play: a trainless company upgraded on a mountain and placed a token,
    then went bankrupt with its president)."""
    from tracklayer.play.bots import moves_of, player_at
    from tracklayer.rules import board, track, trains

    def costly_lay(game, seat):
        for h in moves_of(game, seat):
            if h["type"] == "lay_tile" and h.get("entity_type") == "corporation":
                c = game.table.find("corporation", h["entity"])
                if c.owner is player_at(game, 0) and not c.trains:
                    tile = board.supply_tile(game.table, h["tile"])
                    if track.lay_cost(game.table, c, h["hex"], tile, h["rotation"]) > 0:
                        return True
        return False

    game, players = play_until("1849: Kingdom of the Two Sicilies", 1063,
                                ["greedy", "random", "random", "random"], costly_lay, tries=8)
    greedy = players[0]
    c = game.table.find("corporation", moves_of(game, 0)[0]["entity"])
    need = trains.cheapest_price(game.table)
    c.cash, c.owner.cash = need, 0
    moves = moves_of(game, 0)
    scored = dict(zip(map(json.dumps, moves), greedy.scores(game, c.owner, moves)))
    for h in moves:
        if h["type"] == "lay_tile":
            tile = board.supply_tile(game.table, h["tile"])
            cost = track.lay_cost(game.table, c, h["hex"], tile, h["rotation"])
            assert greedy.move_cost(game, c, h) == cost
            assert greedy.track_budget(game, c) == 0
            assert (scored[json.dumps(h)] == -10.0) == (cost > 0)
            if cost:
                # what the lay itself charges, as its log line says (the turn may move on
                # after it: a trainless company that cannot run may close)
                trial = game.clone()
                trial.table.keep_log = True
                before = len(trial.table.messages)
                trial.apply(dict(h, id=len(game.actions) + 1))
                said = trial.table.messages[before]
                assert said.startswith(f"{c.sym} spends L.{cost} and lays"), said


def test_greedy_keeps_back_only_what_its_companies_lack_of_a_train():
    """The Old Prince: greedy's company holds more than a train's price (random companies
    paid it for trains), so its president keeps back only what its other company lacks
    of one and buys its company's shares (it kept a whole train's price and passed)."""
    from tracklayer.play.bots import moves_of, player_at
    from tracklayer.rules import market, trains

    def rich_company_shares(game, seat):
        """Its own company's share listed, affordable keeping what its companies lack of
        a train, not keeping a whole train's price."""
        if seat != 0:
            return False
        me = player_at(game, 0)
        mine = [c for c in game.state.corporations if c.owner is me and c.floated]
        price = trains.cheapest_price(game.table)
        lacking = max([0] + [price - c.cash for c in mine])
        for h in moves_of(game, 0):
            cert = game.table.find("share", (h.get("shares") or [""])[0])
            if h["type"] == "buy_shares" and h["entity"] == me.id and cert is not None and \
                    cert.corporation in mine:
                left = me.cash - market.price(game.table, cert.corporation)
                if lacking <= left < price:
                    return True
        return False

    game, players = play_until("The Old Prince 1871", 1023,
                                ["greedy", "random", "random", "random"], rich_company_shares)
    me = player_at(game, 0)
    lacking = [trains.cheapest_price(game.table) - c.cash for c in game.state.corporations
               if c.owner is me and c.floated]
    assert players[0].reserve(game, me) == max([0] + lacking) < \
        trains.cheapest_price(game.table)
    h = players[0].choose(game, 0)
    assert h["type"] == "buy_shares"
    assert game.table.find("share", h["shares"][0]).corporation.owner is me


def test_greedy_puts_no_more_into_a_company_that_ran_for_nothing():
    """Two Sicilies: greedy's company earned nothing in its last run; its president buys
    no more of its shares (self-play: such a company's price fell to the closing cell
    with most of greedy's money in it)."""
    from tracklayer.play.bots import moves_of, player_at

    def idle_company_share(game, seat):
        if seat != 0:
            return False
        me = player_at(game, 0)
        for h in moves_of(game, 0):
            cert = game.table.find("share", (h.get("shares") or [""])[0])
            if h["type"] == "buy_shares" and h["entity"] == me.id and cert is not None:
                c = cert.corporation
                if c.owner is me and c.history and not c.history[-1].revenue:
                    return True
        return False

    found = 0
    for seed in range(1030, 1060):     # the first games reaching such a position
        try:
            game, players = play_until("1849: Kingdom of the Two Sicilies", seed,
                                        ["greedy", "random", "random", "random"],
                                        idle_company_share, limit=400)
        except pytest.fail.Exception:
            continue
        h = players[0].choose(game, 0)
        cert = game.table.find("share", (h.get("shares") or [""])[0])
        assert cert is None or cert.corporation.owner is not player_at(game, 0), seed
        found += 1
        if found == 3:
            break
    assert found == 3


def test_a_two_sicilies_game_that_ends_dnf_is_one_nobody_can_move():
    """Random bots often leave Two Sicilies with every corporation closed and too little
    money to start one: nothing can change any more, and the game ends as on 18xx.games,
    'dnf' at turn 100. Such an end is a dead position: no corporation floated, no share
    held, and no player still in the game able to pay a president's certificate (two
    shares) at the lowest par."""
    from tracklayer.play.selfplay import play_game
    from tracklayer.io.export import replay
    out = play_game("1849: Kingdom of the Two Sicilies", ["random"] * 4, 4, keep=True)
    assert out["error"] is None and out["end_reason"] == "dnf"
    game = replay(out["export"])
    table = game.table
    assert table.state.turn == 100
    assert not any(c.floated for c in table.state.corporations)
    least = min(table.cell(c).price for c in table.state.par_cells)
    for p in table.state.players:
        assert not any(p.shares.values())
        assert p.bankrupt or p.cash < 2 * least


def test_greedy_bots_alone_play_the_old_prince_to_its_end():
    """Four greedy bots reach 1871's end by its rules (the final phase), not the turn cap:
    a rich treasury buys another train, a one-train company withholds for its second,
    and a rich player buys into a company stuck short of floating."""
    from tracklayer.play.selfplay import play_game
    out = play_game("The Old Prince 1871", ["greedy"] * 4, 2)
    assert out["error"] is None and out["end_reason"] == "final_phase"


def test_greedy_holds_two_fifths_of_its_own_company():
    """Greedy buys its own company's shares up to 40% (the president's certificate and
    two shares), not 60%: against random bots in Two Sicilies, whose sales close
    companies, the lower holding won 93% of 100 games where 60% won 86%."""
    from tracklayer.play.bots import moves_of, player_at

    def own_share(game, seat, low, high):
        me = player_at(game, 0)
        for h in moves_of(game, seat) if seat == 0 else ():
            cert = game.table.find("share", (h.get("shares") or [""])[0])
            if h["type"] == "buy_shares" and cert is not None and \
                    cert.corporation.owner is me and cert.corporation.floated:
                held = sum(c.percent for c in me.shares.get(cert.corporation.sym, []))
                if low <= held <= high:
                    return h
        return None

    for low, high, buys in ((20, 30, True), (40, 100, False)):
        game, players = play_until("1849: Kingdom of the Two Sicilies", 1000,
                                    ["greedy", "random", "random", "random"],
                                    lambda g, s: own_share(g, s, low, high) is not None)
        me, h = player_at(game, 0), own_share(game, 0, low, high)
        me.cash = 10_000
        assert (players[0].score(game, me, h) > 0) is buys


def test_a_bot_that_fails_ends_its_game_with_the_error(monkeypatch):
    """A bot raising any exception ends that game with ``error`` set (the run of other
    games goes on): a bot's TypeError once stopped a whole ``selfplay`` run."""
    from tracklayer.play.greedy import GreedyBot
    from tracklayer.play.selfplay import play_game

    def broken(self, game, seat):
        raise TypeError("a bug in a bot")

    monkeypatch.setattr(GreedyBot, "decide", broken)
    out = play_game("1893", ["greedy", "random", "random"], 1)
    assert out["error"] == "TypeError: a bug in a bot" and out["end_reason"] is None
    assert out["actions"] == 0


def test_greedy_buys_when_every_seat_passes_round_and_round():
    """An auction none will bid in goes round for ever (1849, a planner seat holding the
    only money to bid with: 6000 passes): once every seat has passed twice running,
    greedy makes the least bad purchase listed rather than pass again."""
    from types import SimpleNamespace
    from tracklayer.play.greedy import stalled

    seats = [(i, f"p{i}") for i in range(1, 5)]
    passes = [{"type": "pass"}] * 8
    assert stalled(SimpleNamespace(actions=passes, player_specs=seats))
    assert not stalled(SimpleNamespace(actions=passes[:7], player_specs=seats))
    assert not stalled(SimpleNamespace(actions=[{"type": "bid"}] + passes[:7],
                                       player_specs=seats))
