"""Every legal action in words (tracklayer.play.describe): along the real games of
../shared/fixtures, each action listed at each position gets a sentence that names who acts
and what it touches by name (companies, corporations, trains, hexes), with its amount, and
no raw certificate, train or city ids and no JSON; the price named is the money the action
moves."""

from __future__ import annotations

import json
import random
import re

import pytest

from conftest import FIXTURES
from tracklayer.actions import read
from tracklayer.io.export import open_game
from tracklayer.play.costs import price_paid
from tracklayer.play.describe import Words
from tracklayer.play.names import name_of
from tracklayer.state.model import CompanyState, OperatorState
from tracklayer.turns.listing import concrete, value_range

GAMES = sorted(FIXTURES.glob("*/*.json"))
RAW = [re.compile(p) for p in (
    r"\b[A-Za-z&]+_\d+\b",          # a certificate id (DE_1)
    r"\b\d+[A-Z+]*-\d+-\d+\b",      # a city id (57-0-0)
    r"[{}\[\]]", r"\bNone\b", r"\bnull\b")]


def _games():
    if not GAMES:
        pytest.skip(f"no real games under {FIXTURES}")
    for path in GAMES:
        yield path, json.loads(path.read_text())


def check_sentence(game, h: dict, text: str) -> None:
    table = game.table
    entity = table.find(h["entity_type"], h["entity"])
    assert text.startswith(name_of(entity)), (h, text)
    for raw in RAW:
        assert not raw.search(text), (h, text, raw.pattern)
    for key, kind in (("company", "company"), ("corporation", "corporation")):
        if h.get(key) is not None:
            assert name_of(table.find(kind, h[key])) in text, (h, text)
    if h.get("shares"):
        cert = table.find("share", h["shares"][0])
        assert name_of(cert.corporation) in text, (h, text)
    if h.get("train"):
        train = table.find("train", h["train"])
        assert train.name in text and h["train"] not in text.replace(f"{train.name}-train", ""), \
            (h, text)
    if h.get("hex"):
        assert h["hex"] in text, (h, text)
    if h["type"] == "lay_tile":
        assert f"#{h['tile'].rsplit('-', 1)[0]}" in text, (h, text)
    found = value_range(h)
    if found is not None:
        field, low, high, _ = found
        shown = table.money if field == "price" else str
        assert shown(low) in text and shown(high) in text, (h, text)
    elif isinstance(h.get("price"), int) and h["type"] != "buy_train":
        assert table.money(h["price"]) in text, (h, text)


def test_every_listed_action_is_a_sentence_with_names():
    seen = set()
    for path, data in _games():
        game = open_game(data | {"actions": []})
        for h in data["actions"]:
            words = Words(game.table)
            for listed in game.legal_actions():
                check_sentence(game, listed, words.sentence(listed))
                seen.add((game.title.name, listed["type"]))
            game.apply(h)
    kinds = {kind for _, kind in seen}
    assert {"bid", "par", "buy_shares", "sell_shares", "lay_tile", "place_token",
            "run_routes", "dividend", "buy_train", "pass", "bankrupt", "special_buy",
            "take_loan", "payoff_loan", "convert", "merge", "short", "choose",
            "assign", "offer", "split"} <= kinds, kinds


def _purse(entity, kind: str) -> int:
    """The cash of an entity, and for a train also of its president (who pays what it
    cannot, in an emergency)."""
    owner = getattr(entity, "owner", None)
    helps = kind == "buy_train" and owner is not None and hasattr(owner, "cash")
    return entity.cash + (owner.cash if helps else 0)


def test_the_price_named_is_the_money_the_action_moves():
    """Made at random positions, the action (its own change, before what follows it in
    the round) takes from the payer exactly the price its words name."""
    rng = random.Random(5)
    checked = {}
    for path, data in _games():
        game = open_game(data | {"actions": []})
        for n, h in enumerate(data["actions"]):
            if n % 9 == 0:
                legal = game.legal_actions()
                for listed in rng.sample(legal, min(5, len(legal))):
                    entity = game.table.find(listed["entity_type"], listed["entity"])
                    price = price_paid(game, listed)
                    if price is None or listed["type"] == "par" or \
                            listed.get("purchase_for") is not None or \
                            isinstance(entity, CompanyState) or \
                            (listed["type"] == "buy_train" and entity.loans):
                        continue    # paid by others too, or followed by interest / a bonus
                    trial = game.clone()
                    payer = trial.table.find(listed["entity_type"], listed["entity"])
                    if listed["type"] == "buy_company":     # what the seller receives
                        payer = trial.table.find("company", listed["company"]).owner
                        price = -price
                    before = _purse(payer, listed["type"])
                    _, commit = trial.table.round.judge(read(trial.table, concrete(listed)))
                    commit()
                    assert before - _purse(payer, listed["type"]) == price, (path.name, n, listed)
                    checked[listed["type"]] = checked.get(listed["type"], 0) + 1
            game.apply(h)
    assert {"lay_tile", "place_token", "buy_shares", "sell_shares", "buy_train", "short"} <= \
        set(checked), checked


def test_words_for_a_vote_and_a_bankruptcy_differ():
    """1893's merger vote: a yes and a no; bankruptcy in words."""
    path = FIXTURES / "1893" / "1893_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    data = json.loads(path.read_text())
    game = open_game(data | {"actions": []})
    votes = None
    for h in data["actions"]:
        listed = game.legal_actions()
        if any(a["type"] == "special_buy" for a in listed):
            votes = [a for a in listed if a["type"] == "special_buy"]
            break
        game.apply(h)
    assert votes is not None
    words = Words(game.table)
    texts = sorted(words.sentence(v) for v in votes)
    assert len(set(texts)) == 2 and "votes no on forming" in texts[0] and \
        "votes yes on forming" in texts[1]
    assert isinstance(game.table.find(votes[0]["entity_type"], votes[0]["entity"]),
                      OperatorState) is False
