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
    """1817NA rand_3p_422, before entry 553: PW's token in 63-1-0 names slot 1, where H's
    token is; as on 18xx.games it goes to the free slot 0. The listing names the free
    slot, and the recorded action counts as listed."""
    game, recorded = before_entry(RANDOM / "1817NA" / "rand_3p_422.json", 553)
    table = game.table
    assert recorded["slot"] == 1
    listed = game.legal_actions()
    assert matches(game, recorded, listed)
    pw = table.corporation("PW")
    game.apply(recorded)
    token = next(t for t in pw.tokens if t.where is not None and
                 table.state.hexes[t.where[0]].tile.startswith("63-1"))
    city = table.state.hexes[token.where[0]].cities[token.where[1]]
    assert city.slots[0] is token
