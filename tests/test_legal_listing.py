"""The listing agrees with what is taken, at positions of the reference's random games
(../shared/random-games, skipped when absent): each sale a step takes is listed, and a
token's slot is immaterial (the token goes where the city's rules put it)."""

from __future__ import annotations

import pytest

from conftest import SHARED
from tracklayer.io.export import load_export, open_game
from tracklayer.play.legality import matches

RANDOM = SHARED / "random-games"


def before_entry(path, index: int):
    if not path.exists():
        pytest.skip(f"{path} is not present (the shared test data)")
    data = load_export(str(path))
    game = open_game(data)
    for h in data["actions"][:index]:
        game.apply(h)
    return game, data["actions"][index]


def test_after_a_conversion_a_shareholders_sale_is_listed():
    """1817NA rand_3p_422, before entry 299 (merger round, after UR took over NYSW):
    Player 2, not UR's president, may sell UR shares; the recorded sale of UR_4 is listed
    (a step offering sales lists every bundle it takes) and accepted."""
    game, recorded = before_entry(RANDOM / "1817NA" / "rand_3p_422.json", 299)
    listed = game.legal_actions()
    assert {"type": "sell_shares", "entity": 2, "entity_type": "player",
            "shares": ["UR_4"], "percent": 10} in listed
    assert all(a["shares"][0].startswith("UR_") for a in listed if a["type"] == "sell_shares")
    game.apply(recorded)


def test_a_token_naming_a_taken_slot_goes_to_the_free_one():
    """1817NA rand_3p_422, before entry 553: in F14 (63-1-0) H's token holds slot 0 (it
    took the first free slot when H took it over) and slot 1 is free, where PW's
    recorded token goes, as on 18xx.games. Named for the taken slot 0 instead, the token
    still goes to the free slot 1: the slot an action names is immaterial. The listing
    names the free slot, and either form counts as listed."""
    game, recorded = before_entry(RANDOM / "1817NA" / "rand_3p_422.json", 553)
    table = game.table
    assert recorded["slot"] == 1

    def f14():
        return [t.owner.sym if t else None for t in table.state.hexes["F14"].cities[0].slots]
    assert f14() == ["H", None]
    listed = game.legal_actions()
    assert matches(game, recorded, listed)
    taken = dict(recorded, slot=0)
    assert matches(game, taken, listed)
    game.apply(taken)
    assert f14() == ["H", "PW"]
