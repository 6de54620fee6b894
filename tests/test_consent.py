"""Trades between different owners need the other side's consent (``play.consent``): a
proposal made, accepted (applied as the proposer's action), declined (nothing changes, the
proposer goes on, a bot does not propose it again there), withdrawn; the bots' judgement
(``play.dealing``); the terminal asking a person."""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console

from conftest import FIXTURES
from tracklayer.errors import GameError
from tracklayer.io.export import load_export, open_game
from tracklayer.play import consent, dealing
from tracklayer.play.bots import RandomBot
from tracklayer.play.consent import Negotiation, deal_of, fair_price
from tracklayer.play.menu import numbered
from tracklayer.play.seats import acting_seats, moves_of

GAME_1893 = FIXTURES / "1893" / "1893_game_end_bank.json"
EVA_AT = 15         # KFBE (Player 1's minor) operates; Player 3 holds EVA


@pytest.fixture
def position():
    if not GAME_1893.exists():
        pytest.skip(f"{GAME_1893} is missing (../shared)")
    data = load_export(str(GAME_1893))
    game = open_game(data)
    for h in data["actions"][:EVA_AT]:
        game.apply(h)
    return data, game


def eva_for(game, price=5):
    return {"type": "buy_company", "entity": "KFBE", "entity_type": "minor",
            "company": "EVA", "price": price}


def test_a_deal_is_a_trade_between_different_seats(position):
    _data, game = position
    deal = deal_of(game, eva_for(game))
    assert deal is not None and (deal.proposer, deal.responder) == (0, 2)
    assert deal.what == "private" and deal.thing.sym == "EVA" and fair_price(deal) == 150
    assert consent.describe(game, deal) == \
        "Player 1 proposes that KFBE buys Player 3's EVA for 5M"
    assert consent.describe(game, deal, to=2) == "Player 1 proposes that KFBE buys your EVA for 5M"
    listed = game.legal_actions()
    deals = [h for h in listed if deal_of(game, h)]
    assert {h["type"] for h in deals} == {"buy_company"}
    assert all(deal_of(game, h) is None for h in listed if h["type"] in ("lay_tile", "pass"))


def test_an_operator_buying_its_presidents_company_asks_nobody(position):
    _data, game = position
    eva = game.table.company("EVA")
    kfbe = game.table.minor("KFBE")
    assert deal_of(game, eva_for(game)) is not None
    eva.owner, owner = kfbe.owner, eva.owner          # Player 1 holds EVA for a moment
    try:
        assert deal_of(game, eva_for(game)) is None
    finally:
        eva.owner = owner


def test_accepted_the_proposal_is_the_proposers_action(position):
    _data, game = position
    talks = Negotiation()
    p = talks.propose(game, 0, eva_for(game, 7))
    assert talks.pending is p and p.status == consent.PENDING
    assert talks.acting_seats() == [2, 0]
    with pytest.raises(GameError, match="waiting"):
        talks.propose(game, 0, eva_for(game, 8))
    with pytest.raises(GameError, match="only the responder"):
        talks.accept(0)
    before = game.table.player(18536).cash
    accepted = talks.accept(2)
    assert accepted.status == consent.ACCEPTED and talks.pending is None
    game.apply(dict(accepted.action, id=len(game.actions) + 1))
    assert game.actions[-1]["entity"] == "KFBE" and game.actions[-1]["type"] == "buy_company"
    assert game.table.company("EVA").owner is game.table.player(45)     # through KFBE
    assert game.table.player(18536).cash == before + 7


def test_declined_nothing_changes_and_a_bot_does_not_propose_it_again(position):
    _data, game = position
    before = json.dumps(game.export(), sort_keys=True)
    talks = Negotiation()
    for h in [h for h in moves_of(game, 0) if deal_of(game, h)]:
        talks.propose(game, 0, h)
        talks.decline(2)
    assert talks.pending is None
    assert json.dumps(game.export(), sort_keys=True) == before
    keys = talks.declined_keys(game, 0)
    assert len(keys) == 2 and talks.declined_keys(game, 2) == []
    for seed in range(40):          # the proposer goes on: never the deals declined here
        h = RandomBot(seed).choose(game, 0, keys)
        assert deal_of(game, h) is None
    proposed = {deal_of(game, RandomBot(seed).choose(game, 0)) is not None
                for seed in range(40)}
    assert proposed == {True, False}     # without the declines it would propose them


def test_withdrawn_by_the_proposer_only(position):
    _data, game = position
    talks = Negotiation()
    talks.propose(game, 0, eva_for(game))
    with pytest.raises(GameError, match="only the proposer"):
        talks.withdraw(2)
    assert talks.withdraw(0).status == consent.WITHDRAWN and talks.pending is None


def test_a_proposal_the_rules_refuse_is_not_made(position):
    _data, game = position
    talks = Negotiation()
    with pytest.raises(GameError):
        talks.propose(game, 0, eva_for(game, 500))           # more than KFBE may pay
    with pytest.raises(GameError, match="does not decide"):
        talks.propose(game, 1, eva_for(game))
    with pytest.raises(GameError, match="nobody's consent"):
        talks.propose(game, 0, {"type": "pass", "entity": "KFBE", "entity_type": "minor"})
    assert talks.pending is None


def test_greedy_deals_at_a_fair_price(position):
    """Greedy accepts at the face value or more, never less; it offers the fair price
    when the rules let it pay that much, and drops the deal when not (KFBE may pay 20)."""
    _data, game = position
    fair, rng = dealing.FAIR, random.Random(0)
    assert fair.answer(game, deal_of(game, eva_for(game, 150)), rng)
    assert not fair.answer(game, deal_of(game, eva_for(game, 149)), rng)
    listed = moves_of(game, 0)
    deal = deal_of(game, eva_for(game, 5))
    assert fair.offer(game, eva_for(game, 5), deal, listed, rng) is None
    wide = [dict(h, price_range=[1, 400]) if h.get("company") == "EVA" else h
            for h in listed]
    assert fair.offer(game, eva_for(game, 5), deal, wide, rng)["price"] == 150
    coin = dealing.Coin()
    answers = {coin.answer(game, deal, random.Random(s)) for s in range(20)}
    assert answers == {True, False}


def test_selfplay_bots_propose_and_answer():
    """A bot's deal goes to the other bot: accepted it is the proposer's move; declined,
    the proposer moves again at that position, never with that deal."""
    from tracklayer.play.roster import bot
    from tracklayer.play.selfplay import bot_move, new_game

    bots = ["random", "greedy", "random", "greedy"]
    game = new_game("1893", [f"{b} {i + 1}" for i, b in enumerate(bots)], 1035)
    players = [bot(b, 1035 * 100 + i) for i, b in enumerate(bots)]
    talks = Negotiation()
    seen = {"accepted": 0, "declined": 0}
    while not game.is_over:
        at = len(game.actions)
        h = bot_move(game, players, talks)
        answered = [p for p in talks.answered if p.at == at]
        if h is None:
            seen["declined"] += 1
            last = answered[-1]
            assert last.status == consent.DECLINED and len(game.actions) == at
            assert last.key in talks.declined_keys(game, last.proposer)
            continue
        if answered and answered[-1].status == consent.ACCEPTED and \
                answered[-1].action == {k: v for k, v in h.items() if k != "id"}:
            seen["accepted"] += 1
        keys = set(talks.declined_keys(game, answered[-1].proposer)) if answered else set()
        deal = deal_of(game, h)
        assert deal is None or deal.key not in keys
        h["id"] = at + 1
        game.apply(h, auto=True)
    assert seen["accepted"] and seen["declined"], seen


def _terminal_game(tmp_path, data, bots):
    data = dict(data, actions=data["actions"][:EVA_AT])
    data["settings"] = dict(data.get("settings") or {}, tracklayer_bots=bots,
                            tracklayer_bot_seed=1)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    return path


def _number_of(game, seat, wanted) -> int:
    """The number the terminal gives the one move ``wanted``."""
    order = numbered(game, moves_of(game, seat))
    return next(i for i, c in enumerate(order, 1) if len(c.moves) == 1 and wanted(c.moves[0]))


def test_the_terminal_asks_a_person_and_a_bot_answers(tmp_path, position):
    """At the terminal: a person's deal with a bot is answered by the bot (greedy declines
    5M for EVA, and the person goes on); with another person, that person is asked
    "accept? [y/n]"."""
    from tracklayer.play.terminal import play
    data, game = position
    n = _number_of(game, 0, lambda h: h.get("company") == "EVA" and h["entity"] == "KFBE")
    path = _terminal_game(tmp_path, data, {"18536": "greedy"})
    out = io.StringIO()
    play(str(path), io.StringIO(f"{n}\n5\nq\n"), Console(file=out, width=200))
    text = out.getvalue()
    assert "Player 3 declines: Player 1 proposes that KFBE buys Player 3's EVA for 5M" in text
    assert text.count("Player 1 to move") == 2
    assert len(load_export(str(path))["actions"]) == EVA_AT

    path = _terminal_game(tmp_path, data, {})
    out = io.StringIO()
    play(str(path), io.StringIO(f"{n}\n5\ny\nq\n"), Console(file=out, width=200))
    text = out.getvalue()
    assert "Player 3: Player 1 proposes that KFBE buys your EVA for 5M — accept? [y/n]" in text
    saved = load_export(str(path))["actions"]
    assert len(saved) == EVA_AT + 1 and saved[-1]["entity"] == "KFBE" and \
        saved[-1]["company"] == "EVA" and saved[-1]["price"] == 5
    assert acting_seats(game) == [0]


def test_trains_alike_from_one_holder_are_one_deal():
    """At entry 33 of the 1893 game EKB may buy either of BKB's two 2-trains: declining
    one declines both (the proposer does not offer the same deal again with the twin
    train, which a page showing trains alike once could not tell apart)."""
    if not GAME_1893.exists():
        pytest.skip(f"{GAME_1893} is missing (../shared)")
    data = load_export(str(GAME_1893))
    game = open_game(data)
    for h in data["actions"][:33]:
        game.apply(h)
    twins = [h for h in game.legal_actions() if h["type"] == "buy_train" and
             h["entity"] == "EKB" and h["train"] in ("2-4", "2-5")]
    assert len(twins) == 2
    first, second = (deal_of(game, h) for h in twins)
    assert first.key == second.key and first.thing is not second.thing
    others = {deal_of(game, h).key for h in game.legal_actions()
              if h["type"] == "buy_train" and h["entity"] == "EKB" and deal_of(game, h)}
    assert len(others) > 1            # other holders' trains stay other deals
