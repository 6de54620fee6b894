"""Real games from 18xx.games replay to their recorded results, matching the reference
engine's state after every action (../shared/fixtures, ../shared/traces)."""

from __future__ import annotations

import pytest

from conftest import TRACES, fixture_files, load_json, load_trace
from tracklayer.io.export import positions, replay
from tracklayer.trace import snapshot

# Folders of ../shared/fixtures for the titles the engine supports.
TITLE_DIRS = ["1893", "1849KingdomoftheTwoSicilies", "1871", "1817NA"]

GAMES = [p for d in TITLE_DIRS for p in fixture_files(d)]


@pytest.mark.parametrize("path", GAMES)
def test_replays_to_recorded_result(path):
    data = load_json(path)
    game = replay(data)
    assert game.is_over
    assert game.end_reason == data["game_end_reason"]
    assert {str(k): v for k, v in game.result().items()} == data["result"]
    assert game.total_money() == game.starting_money


@pytest.mark.parametrize("path", GAMES)
def test_state_after_every_action_matches_reference(path):
    trace_path = TRACES / path.parent.name / (path.stem + ".jsonl.gz")
    if not trace_path.exists():
        pytest.skip(f"no reference trace {trace_path}")
    reference = load_trace(trace_path)
    data = load_json(path)
    ours = [snapshot(game, i, h) for i, h, game in positions(data)]
    assert len(ours) == len(reference)
    for mine, theirs in zip(ours, reference):
        assert mine == theirs, f"first difference at action {theirs['i']} ({theirs['type']})"


def _without_volatile(h: dict) -> dict:
    """An action without what varies between servers: time, id, user, and the wording of
    reasons (which name the players)."""
    return {k: v for k, v in h.items() if k not in ("created_at", "id", "user", "reason")}


@pytest.mark.parametrize("path", GAMES)
def test_programmed_actions_act_as_recorded(path):
    """Working out players' programmed actions (auto-pass, buy until floated) gives the
    auto_actions the server recorded after every action."""
    from tracklayer.io.export import in_force, open_game

    data = load_json(path)
    kept = in_force(data["actions"])
    game = open_game(data, keep_log=False)
    for index, h in enumerate(kept):
        if h is None or h["type"] == "message":
            continue
        game.apply(h, auto=True)
        generated = [_without_volatile(a) for a in game.actions[-1].get("auto_actions") or []]
        recorded = [_without_volatile(a) for a in h.get("auto_actions") or []]
        assert generated == recorded, f"log entry {index} ({h['type']})"
