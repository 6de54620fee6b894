"""The listing agrees with what is taken, at positions of the reference's random games
(../shared/random-games, skipped when absent): each sale a step takes is listed."""

from __future__ import annotations

import pytest

from conftest import SHARED
from tracklayer.io.export import load_export, open_game

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

