"""Playing: the legal-move listing checked along games (every action taken is listed, every
listed action tried is accepted), price ranges, bots, self-play and the terminal game."""

import json
import random

import pytest

from conftest import FIXTURES
from tracklayer.cli import main
from tracklayer.io.export import load_export
from tracklayer.play.legality import check
from tracklayer.randomplay import play_random, sensible_weight
from tracklayer.turns.listing import concrete


def test_a_random_game_is_listed_exactly():
    """Along a random game, each move taken is among those listed, and the listed moves
    tried (a price drawn within each range) are accepted."""
    data = play_random("1893", 4, 5, max_actions=150, weight=sensible_weight).export()
    out = check(data, sample=2)
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
