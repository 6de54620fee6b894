"""A trusted replay: entries this engine accepted, replayed without the checks that can
only refuse (``Table.trusted``: undo and redo, ``replay(data, trusted=True)``, a stored
game reopened under the rules that accepted it). It ends where the checked replay ends, in
every shared game; a log from a file is still checked in full."""

from __future__ import annotations

import pytest

from conftest import SHARED
from tracklayer.errors import GameError
from tracklayer.history import in_force
from tracklayer.io.export import load_export, open_game, replay

SKIPPED = ("table", "derived", "memo")   # the table's caches; a step's, by object id


def shared_games() -> list:
    """Every real and random game of ../shared (one skipped placeholder if absent)."""
    files = sorted(SHARED.glob("fixtures/*/*.json")) + \
        sorted(SHARED.glob("random-games/*/*.json"))
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"no games in {SHARED} (the shared test data is not present)"))]
    return [pytest.param(f, id=f"{f.parent.name}-{f.stem}") for f in files]


def plain(value, seen=None):
    """The game's state as plain data, field by field (an object met again named by the
    order it was first met in), the table's and the steps' caches left out."""
    seen = {} if seen is None else seen
    if isinstance(value, (str, int, float, bool, type(None))):
        return value
    if id(value) in seen:
        return ("seen", seen[id(value)][0])
    # The object is kept with its number: a value made while reading (a bound method) and
    # freed could leave its id to the next one, which would pass for one met already.
    seen[id(value)] = (len(seen), value)
    if isinstance(value, dict):
        return [(plain(k, seen), plain(v, seen)) for k, v in value.items()]
    if isinstance(value, (list, tuple)) or type(value).__name__ in ("array", "Packed"):
        return [plain(v, seen) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(repr(plain(v, seen)) for v in value)
    names = list(getattr(value, "__dict__", {})) + \
        [n for c in type(value).__mro__ for n in getattr(c, "__slots__", ())]
    if not names:
        return repr(value)
    return (type(value).__name__,
            [(n, plain(getattr(value, n, None), seen)) for n in names if n not in SKIPPED])


def position(game) -> tuple:
    return plain(game.table.state), game.export()


@pytest.mark.parametrize("path", shared_games())
def test_the_trusted_replay_ends_where_the_checked_one_does(path):
    data = load_export(str(path))
    checked = replay(data)
    trusted = replay(data, trusted=True)
    assert position(trusted) == position(checked)
    assert not trusted.table.trusted and not checked.table.trusted


def _game_1893():
    path = SHARED / "fixtures" / "1893" / "1893_game_end_bank.json"
    if not path.is_file():
        pytest.skip(f"no {path} (the shared test data is not present)")
    data = load_export(str(path))
    return data, [h for h in in_force(data["actions"])
                  if h is not None and h.get("type") != "message"]


def test_an_illegal_lay_in_an_imported_log_is_refused():
    """A lay turned away from the operator's network (what a trusted replay does not ask)
    is refused in a log from a file, naming the entry and the rule."""
    data, entries = _game_1893()
    for n, h in enumerate(entries):
        if h["type"] != "lay_tile":
            continue
        for rotation in range(6):
            turned = dict(h, rotation=rotation)
            try:
                replay(dict(data, actions=entries[:n] + [turned]))
            except GameError as e:
                if "cannot be laid" in str(e):
                    assert f"log entry {n}" in str(e) and f"rotation {rotation}" in str(e)
                    return
    pytest.fail("no lay of the game may be turned away from the network")


@pytest.mark.parametrize("back", [1, 5, 20])
def test_undo_and_redo_give_the_positions_the_checked_replay_gives(back):
    data, entries = _game_1893()
    entries = entries[:240]
    game = open_game(data)
    for h in entries:
        game.apply(h)
    for _ in range(back):
        game.undo()
    assert not game.table.trusted
    assert position_now(game) == position_now(checked_to(data, entries[:-back]))
    for _ in range(back):
        game.redo()
    assert position_now(game) == position_now(checked_to(data, entries))


def checked_to(data, entries):
    game = open_game(data, snapshot_every=None)
    for h in entries:
        game.apply(h)
    return game


def position_now(game):
    """The state and the actions in force (the log itself differs: undo and redo)."""
    return plain(game.table.state), [dict(h) for h in game.actions]


def test_the_trusted_trace_is_the_checked_trace():
    """``tracklayer trace --trusted``: the same line after every entry of a game with undo
    and redo entries."""
    from tracklayer.io.export import positions
    from tracklayer.trace import dumps, snapshot
    path = SHARED / "fixtures" / "1871" / "1871_game_end_final_phase.json"
    if not path.is_file():
        pytest.skip(f"no {path} (the shared test data is not present)")
    data = load_export(str(path))
    lines = [[dumps(snapshot(game, i, h)) for i, h, game in positions(data, trusted=trusted)]
             for trusted in (False, True)]
    assert lines[0] == lines[1]
