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


def _without_volatile(h: dict) -> dict:
    """An action without what varies between servers: time, id, user, and the wording of
    reasons (which name the players)."""
    return {k: v for k, v in h.items() if k not in ("created_at", "id", "user", "reason")}


@pytest.mark.parametrize("path", GAMES)
def test_programmed_actions_act_as_recorded(path):
    """Working out players' programmed actions (auto-pass, buy until floated) gives the
    auto_actions the server recorded after every action."""
    from tracklayer.engine.actions import effective_actions
    from tracklayer.engine.replay import new_game

    data = load_json(path)
    kept, _ = effective_actions(data["actions"])
    game = new_game(data, log=False)
    for index, h in enumerate(kept):
        if h is None or h["type"] == "message":
            continue
        game.process_action(h, auto=True)
        generated = [_without_volatile(a) for a in game.actions[-1].get("auto_actions") or []]
        recorded = [_without_volatile(a) for a in h.get("auto_actions") or []]
        assert generated == recorded, f"log entry {index} ({h['type']})"
