"""Random games replay to the same exports as before the engine's redesign.

``tests/data/random_games`` holds games that tracklayer's random player played on the
engine of commit ce51dcc, before the redesign: 1893 and Two Sicilies, two to six players,
optional rules, standing programs (``program_*`` with their recorded ``auto_actions``),
ends by bank, bankruptcy, and games cut short. Replayed now, each gives back exactly its
export: the same actions, result, end reason and finish.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tracklayer.io.export import load_export, replay

GAMES = sorted((Path(__file__).parent / "data" / "random_games").glob("*.json"))


def test_there_are_games_of_both_titles():
    titles = {load_export(str(p))["title"] for p in GAMES}
    assert titles == {"1893", "1849: Kingdom of the Two Sicilies"}


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_random_game_replays_to_its_export(path):
    data = load_export(str(path))
    game = replay(data)
    assert game.export() == data
    assert game.total_money() == game.starting_money
