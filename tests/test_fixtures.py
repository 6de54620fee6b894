"""Real games from 18xx.games replay to their recorded results, matching the reference
engine's state after every action (../shared/fixtures, ../shared/traces)."""

from __future__ import annotations

import pytest

from conftest import TRACES, fixture_files, load_json, load_trace
from tracklayer.engine.replay import replay, states
from tracklayer.trace import snapshot

# Folders of ../shared/fixtures for the titles the engine supports.
TITLE_DIRS = ["1893", "1849KingdomoftheTwoSicilies"]

GAMES = [p for d in TITLE_DIRS for p in fixture_files(d)]


@pytest.mark.parametrize("path", GAMES)
def test_replays_to_recorded_result(path):
    data = load_json(path)
    game = replay(data)
    assert game.finished
    assert game.game_end_reason == data["game_end_reason"]
    assert {str(k): v for k, v in game.result().items()} == data["result"]
    assert game.total_money() == game.starting_money


@pytest.mark.parametrize("path", GAMES)
def test_state_after_every_action_matches_reference(path):
    trace_path = TRACES / path.parent.name / (path.stem + ".jsonl.gz")
    if not trace_path.exists():
        pytest.skip(f"no reference trace {trace_path}")
    reference = load_trace(trace_path)
    data = load_json(path)
    ours = [snapshot(game, i, h) for i, h, game in states(data)]
    assert len(ours) == len(reference)
    for mine, theirs in zip(ours, reference):
        assert mine == theirs, f"first difference at action {theirs['i']} ({theirs['type']})"
