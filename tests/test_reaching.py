"""The track restriction told without walks (``rules/reaching.py``) answers as the walks
on the board with the tile laid in trial do: listing the moves with the shortcut and with
every answer left to the walks gives the same lays, at real positions of games whose
upgrades ask for new track (1893, 1849: semi-restrictive; off-boards and cities full of
others' tokens cut trails off)."""

from __future__ import annotations

import glob
import os

import pytest

from tracklayer.io.export import load_export, open_game
from tracklayer.rules import reaching

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "fixtures")
GAMES = [("1893/1893_game_end_bank.json", range(300, 380)),
         ("1849KingdomoftheTwoSicilies/*_bank.json", range(740, 830)),
         ("1871/1871_game_end_final_phase.json", range(400, 440))]


def _lays(game) -> list:
    return [a for a in game.legal_actions() if isinstance(a, dict) and a.get("type") == "lay_tile"]


@pytest.mark.parametrize("pattern,positions", GAMES)
def test_told_without_walks_agrees_with_the_walks(pattern, positions, monkeypatch):
    paths = glob.glob(os.path.join(FIXTURES, pattern))
    if not paths:
        pytest.skip("fixture not present")
    data = load_export(paths[0])
    game = open_game(data, keep_log=False)
    told = reaching.told_without_walks
    compared = 0
    for index, entry in enumerate(data["actions"][:positions.stop]):
        if index in positions and not game.is_over:
            shortcut = _lays(game)
            with monkeypatch.context() as m:
                m.setattr(reaching, "told_without_walks", lambda *a: None)
                walked = _lays(game.copies(lasting=False)())
            assert shortcut == walked, index
            compared += len(shortcut)
        game.apply(entry)
    assert compared > 0
    assert reaching.told_without_walks is told


def test_plain_track_upgrades_told_from_the_walk_before_the_lay(monkeypatch):
    """At 1893's entry 368 every plain-track upgrade's restriction, forked trails and all,
    is told from the walk before the lay (read once the network was walked, as listing
    does first): no lay walks to its goal."""
    paths = glob.glob(os.path.join(FIXTURES, "1893/1893_game_end_bank.json"))
    if not paths:
        pytest.skip("fixture not present")
    data = load_export(paths[0])
    game = open_game(data, keep_log=False)
    for entry in data["actions"][:368]:
        game.apply(entry)
    walked = []
    reaches_any = reaching.reaches_any
    monkeypatch.setattr(reaching, "reaches_any", lambda *a: walked.append(a) or reaches_any(*a))
    assert _lays(game)
    assert not walked
