"""Undo and redo in a recorded action list (``in_force``) and in a game being replayed entry
by entry (``Game.apply``, which takes undo and redo entries as the old ``ActionLog`` did).

``in_force`` returns only the entries in force; what the old ``effective_actions`` also
returned — the undone groups a redo could restore — is checked by what a further redo
entry does: it restores exactly the last of those groups, and is an error when there is
none."""

from __future__ import annotations

import pytest

from synthetic_1893 import PLAYERS, SEED, new_game, script, state
from tracklayer.errors import ActionError, GameError
from tracklayer.history import in_force
from tracklayer.io.export import open_game


def act(i: int) -> dict:
    return {"type": "pass", "entity": 1, "entity_type": "player", "id": i}


def msg(i: int) -> dict:
    return {"type": "message", "entity": 1, "entity_type": "player", "id": i, "message": "hi"}


def undo(i: int, action_id=None) -> dict:
    h = {"type": "undo", "entity": 1, "entity_type": "player", "id": i}
    if action_id is not None:
        h["action_id"] = action_id
    return h


def redo(i: int) -> dict:
    return {"type": "redo", "entity": 1, "entity_type": "player", "id": i}


def ids(kept) -> list:
    return [a["id"] if a is not None else None for a in kept]


# ---------------------------------------------------------------------------------------------
# in_force


def redone(entries: list) -> list:
    """The entries in force once a redo entry is added: what a redo would restore."""
    return ids(in_force(entries + [redo(len(entries) + 100)]))


def test_without_undo_everything_is_kept():
    """Without undo or redo every entry is in force and nothing can be redone."""
    actions = [act(1), act(2), msg(3), act(4)]
    kept = in_force(actions)
    assert ids(kept) == [1, 2, 3, 4]
    with pytest.raises(GameError, match="redo"):      # nothing pending
        in_force(actions + [redo(5)])


def test_undo_removes_the_last_action_in_force():
    """An undo without action_id takes back the last action in force; it can be redone."""
    entries = [act(1), act(2), undo(3)]
    kept = in_force(entries)
    assert ids(kept) == [1, None, None]
    # pending: one group, entry 2 at index 1
    assert redone(entries) == [1, 2, None, None]
    with pytest.raises(GameError, match="redo"):
        in_force(entries + [redo(4), redo(5)])


def test_successive_undos_go_further_back():
    """Each further undo takes back the action before."""
    kept = in_force([act(1), act(2), act(3), undo(4), undo(5)])
    assert ids(kept) == [1, None, None, None, None]


def test_messages_are_never_undone():
    """An undo skips chat messages: it removes the last real action before them."""
    kept = in_force([act(1), msg(2), undo(3)])
    assert ids(kept) == [None, 2, None]
    kept = in_force([act(1), msg(2), act(3), undo(4, action_id=0)])
    assert ids(kept) == [None, 2, None, None]


def test_undo_to_an_action_id_removes_everything_after_it():
    """An undo with action_id takes back every action after that one (messages stay), as one
    group."""
    entries = [act(1), act(2), msg(3), act(4), undo(5, action_id=1)]
    kept = in_force(entries)
    assert ids(kept) == [1, None, 3, None, None]
    # pending: one group, entries 2 and 4
    assert redone(entries) == [1, 2, 3, 4, None, None]
    with pytest.raises(GameError, match="redo"):
        in_force(entries + [redo(6), redo(7)])


def test_undo_to_action_id_zero_removes_everything():
    """action_id 0 means the start of the game."""
    kept = in_force([act(1), act(2), undo(3, action_id=0)])
    assert ids(kept) == [None, None, None]


def test_undo_to_an_unknown_action_id_is_an_error():
    """Undoing to an id that is not in the log is refused."""
    with pytest.raises(ActionError):
        in_force([act(1), undo(2, action_id=99)])


def test_redo_restores_the_last_undone_group():
    """A redo puts back what the last undo took, a whole group at once."""
    entries = [act(1), act(2), undo(3), redo(4)]
    kept = in_force(entries)
    assert ids(kept) == [1, 2, None, None]
    with pytest.raises(GameError, match="redo"):      # nothing pending
        in_force(entries + [redo(5)])
    kept = in_force([act(1), act(2), act(3), undo(4, action_id=1), redo(5)])
    assert ids(kept) == [1, 2, 3, None, None]


def test_redo_undoes_the_most_recent_undo_first():
    """Redos restore in reverse order of the undos."""
    entries = [act(1), act(2), act(3), undo(4), undo(5), redo(6)]
    kept = in_force(entries)
    assert ids(kept) == [1, 2, None, None, None, None]
    # pending: one group, entry 3
    assert redone(entries) == [1, 2, 3, None, None, None, None]
    with pytest.raises(GameError, match="redo"):
        in_force(entries + [redo(7), redo(8)])


def test_a_new_action_ends_the_chance_to_redo():
    """After a new action, what was undone cannot be redone."""
    with pytest.raises(ActionError, match="redo"):
        in_force([act(1), act(2), undo(3), act(4), redo(5)])


def test_a_message_does_not_end_the_chance_to_redo():
    """Chat messages do not count as new actions."""
    kept = in_force([act(1), act(2), undo(3), msg(4), redo(5)])
    assert ids(kept) == [1, 2, None, 4, None]


def test_redo_with_nothing_undone_is_an_error():
    """A redo needs an undo to reverse."""
    with pytest.raises(ActionError):
        in_force([act(1), redo(2)])


def test_in_force_does_not_change_its_input():
    """The recorded log is read, not altered."""
    actions = [act(1), act(2), undo(3)]
    copy = [dict(a) for a in actions]
    in_force(actions)
    assert actions == copy


# ---------------------------------------------------------------------------------------------
# Game.apply: a game that follows undo and redo


def export() -> dict:
    return {"title": "1893", "id": 1,
            "players": [{"id": pid, "name": name} for pid, name in PLAYERS],
            "settings": {"seed": SEED, "optional_rules": []}, "actions": []}


def test_game_undo_and_redo_restore_the_game():
    """After undo the game is as if the undone action had never been taken; after redo, as if
    it had never been undone."""
    first, second = script()[:2]
    game = open_game(export())
    game.apply(first)
    after_first = state(game)
    game.apply(second)
    after_second = state(game)
    game.apply(undo(100))
    assert state(game) == after_first
    game.apply(msg(101))
    assert state(game) == after_first
    game.apply(redo(102))
    assert state(game) == after_second
    game.apply(undo(103, action_id=0))
    assert state(game) == state(new_game())


def test_game_agrees_with_in_force():
    """Replaying entry by entry (Game.apply) and folding the list first (in_force) give the
    same actions in force and the same game."""
    entries = script()[:4] + [undo(100), undo(101), redo(102), msg(103)] + [script()[3]]
    replayed = open_game(export())
    for h in entries:
        replayed.apply(h)
    kept = in_force(entries)
    assert ids(replayed.history.kept) == ids(kept)
    game = new_game()
    for h in kept:
        if h is not None and h["type"] != "message":
            game.apply(h)
    assert state(replayed) == state(game)


def test_undo_and_redo_with_nothing_to_take_back_or_restore():
    """A game takes undo and redo entries itself now (it used to refuse them, leaving them
    to the ActionLog). On a new game a redo has nothing to restore: it is refused
    (ActionError) and the game stays as it was; an undo has nothing to take back, and it and
    the redo of it leave the game as it was."""
    game = new_game()
    before = state(game)
    with pytest.raises(ActionError, match="nothing to redo"):
        game.apply(redo(1))
    assert state(game) == before and game.history.entries == []
    game.apply(undo(2))
    assert state(game) == before
    game.apply(redo(3))
    assert state(game) == before
    assert game.actions == []
