"""What the server holds of a live game instead of replaying it: snapshots sparse and
compressed, a past position rebuilt from the nearest one, the players' values recorded by
round as entries are applied (undo and redo included) — each equal to a replay."""

from __future__ import annotations

import json

import pytest

from web_support import FIXTURES, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


def recorded(*parts: str) -> dict:
    path = FIXTURES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return json.loads(path.read_text())


@pytest.fixture
def service(tmp_path):
    from tracklayer.web.db import Store
    from tracklayer.web.service import Service
    store = Store(f"sqlite:///{tmp_path / 'records.db'}")
    yield Service(store, lambda *a: None, False)
    store.dispose()


def replayed(live, number):
    """The Live as it stood after entry ``number``, by replaying the log from the start."""
    from tracklayer.io.export import open_game
    from tracklayer.web.service import Live
    past = Live(live.id, open_game(live.game.export() | {"actions": []}), live.seats)
    for h in live.game.history.entries[:number]:
        past.apply(h)
    return past


def same_position(a, b) -> bool:
    """Two games stand alike: the trace's state, the log, the round and the legal moves."""
    from tracklayer import trace
    return (trace.snapshot(a, 0, {}) == trace.snapshot(b, 0, {}) and
            a.table.messages == b.table.messages and a.is_over == b.is_over and
            (a.is_over or a.table.round.describe() == b.table.round.describe() and
             a.legal_actions() == b.legal_actions()))


def test_snapshots_are_sparse_and_compressed_and_undo_stays_exact():
    from tracklayer import game as game_module, snapshot
    from tracklayer.io.export import open_game
    data = recorded("1849KingdomoftheTwoSicilies",
                    "1849KingdomoftheTwoSicilies_game_end_bank.json")
    game = open_game(data)
    for h in data["actions"]:
        game.apply(h)
    n = len(game.actions)
    kept = sorted(game.snapshots)
    recent = [k for k in kept if k > n - game_module.RECENT]
    assert all(k % game_module.SPARSE == 0 for k in kept if k not in recent)
    assert len(kept) <= n // game_module.SPARSE + game_module.RECENT // 8 + 1
    assert snapshot.take(game.table) != game.snapshots[kept[-1]]     # stored compressed
    assert len(game.snapshots[kept[-1]]) < len(game.stored(kept[-1])) / 4
    # undo back past the recent snapshots: the same state as a replay of the actions kept
    again = open_game(data, snapshot_every=None)
    for h in game.actions[:n - 40]:
        again.apply(h)
    game.undo(game.actions[n - 41]["id"])
    assert same_position(game, again)


@pytest.mark.parametrize("title,name", [
    ("1893", "1893_game_end_bank.json"),
    ("1871", "1871_game_end_final_phase.json"),
    ("1817NA", "25351.json")])
def test_a_past_position_is_the_replayed_one(service, title, name):
    from tracklayer.web import view
    data = recorded(title, name)
    gid = service.import_export(data)["id"]
    live = service.get(gid)
    n = live.number
    undos = [i + 1 for i, h in enumerate(live.game.history.entries)
             if h.get("type") in ("undo", "redo")][:3]
    for at in [0, 1, n // 5, n // 2, n - 9, n] + undos + [u - 1 for u in undos]:
        slow = replayed(live, at)
        fast = live.game.position_after(at)
        assert same_position(fast, slow.game), at
        shown = view.at_entry(live, at)
        assert shown["log"] == view.log(slow), at
        assert shown["map"] == view.svg.draw_map(slow.game, [], view.last_routes(slow.game))
        assert shown["players"] == view.players(slow, [])
    assert same_position(live.game, replayed(live, n).game)


@pytest.mark.parametrize("title,name", [
    ("1849KingdomoftheTwoSicilies", "1849KingdomoftheTwoSicilies_game_end_bank.json"),
    ("1871", "1871_game_end_final_phase.json")])
def test_the_values_recorded_by_round_equal_a_replay_of_the_actions_in_force(service, title,
                                                                             name):
    from tracklayer.web import chart
    from tracklayer.web.values import Values
    data = recorded(title, name)
    assert any(h.get("type") == "redo" for h in data["actions"])      # undo and redo both
    gid = service.import_export(data)["id"]
    live = service.get(gid)
    assert live.values.whole                       # every redo found what its undo took
    rebuilt = Values()
    rebuilt.rebuild(live.game)
    labels, series = chart.values(live)
    assert (labels, series) == rebuilt.series(live.game)
    assert labels[-1] == "now" and len(labels) > 10
    result = live.game.result()
    assert {pid: series[pid][-1] for pid in result} == {k: int(v) for k, v in result.items()}
    # at an undone position the record is what a replay of that position gives
    for at in (len(data["actions"]) // 3, len(data["actions"]) // 2):
        past = replayed(live, at)
        again = Values()
        again.rebuild(past.game)
        assert past.values.series(past.game) == again.series(past.game)
