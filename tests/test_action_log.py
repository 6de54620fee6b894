"""Undo and redo in a recorded action list (``effective_actions``) and in a game being
replayed entry by entry (``ActionLog``)."""

from __future__ import annotations

import pytest

from synthetic_1893 import PLAYERS, SEED, new_game, script, state
from tracklayer.engine.actions import effective_actions
from tracklayer.engine.errors import ActionError, GameError
from tracklayer.engine.replay import ActionLog


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
# effective_actions


def test_without_undo_everything_is_kept():
    """Without undo or redo every entry is in force and nothing can be redone."""
    actions = [act(1), act(2), msg(3), act(4)]
    kept, pending = effective_actions(actions)
    assert ids(kept) == [1, 2, 3, 4]
    assert pending == []


def test_undo_removes_the_last_action_in_force():
    """An undo without action_id takes back the last action in force; it can be redone."""
    kept, pending = effective_actions([act(1), act(2), undo(3)])
    assert ids(kept) == [1, None, None]
    assert [[(a["id"], i) for a, i in group] for group in pending] == [[(2, 1)]]


def test_successive_undos_go_further_back():
    """Each further undo takes back the action before."""
    kept, _ = effective_actions([act(1), act(2), act(3), undo(4), undo(5)])
    assert ids(kept) == [1, None, None, None, None]


def test_messages_are_never_undone():
    """An undo skips chat messages: it removes the last real action before them."""
    kept, _ = effective_actions([act(1), msg(2), undo(3)])
    assert ids(kept) == [None, 2, None]
    kept, _ = effective_actions([act(1), msg(2), act(3), undo(4, action_id=0)])
    assert ids(kept) == [None, 2, None, None]


def test_undo_to_an_action_id_removes_everything_after_it():
    """An undo with action_id takes back every action after that one (messages stay), as one
    group."""
    kept, pending = effective_actions([act(1), act(2), msg(3), act(4), undo(5, action_id=1)])
    assert ids(kept) == [1, None, 3, None, None]
    assert [[a["id"] for a, _ in group] for group in pending] == [[2, 4]]


def test_undo_to_action_id_zero_removes_everything():
    """action_id 0 means the start of the game."""
    kept, _ = effective_actions([act(1), act(2), undo(3, action_id=0)])
    assert ids(kept) == [None, None, None]


def test_undo_to_an_unknown_action_id_is_an_error():
    """Undoing to an id that is not in the log is refused."""
    with pytest.raises(ActionError):
        effective_actions([act(1), undo(2, action_id=99)])


def test_redo_restores_the_last_undone_group():
    """A redo puts back what the last undo took, a whole group at once."""
    kept, pending = effective_actions([act(1), act(2), undo(3), redo(4)])
    assert ids(kept) == [1, 2, None, None]
    assert pending == []
    kept, _ = effective_actions([act(1), act(2), act(3), undo(4, action_id=1), redo(5)])
    assert ids(kept) == [1, 2, 3, None, None]


def test_redo_undoes_the_most_recent_undo_first():
    """Redos restore in reverse order of the undos."""
    kept, pending = effective_actions([act(1), act(2), act(3), undo(4), undo(5), redo(6)])
    assert ids(kept) == [1, 2, None, None, None, None]
    assert [[a["id"] for a, _ in group] for group in pending] == [[3]]


def test_a_new_action_ends_the_chance_to_redo():
    """After a new action, what was undone cannot be redone."""
    with pytest.raises(ActionError, match="redo"):
        effective_actions([act(1), act(2), undo(3), act(4), redo(5)])


def test_a_message_does_not_end_the_chance_to_redo():
    """Chat messages do not count as new actions."""
    kept, _ = effective_actions([act(1), act(2), undo(3), msg(4), redo(5)])
    assert ids(kept) == [1, 2, None, 4, None]


def test_redo_with_nothing_undone_is_an_error():
    """A redo needs an undo to reverse."""
    with pytest.raises(ActionError):
        effective_actions([act(1), redo(2)])


def test_effective_actions_does_not_change_its_input():
    """The recorded log is read, not altered."""
    actions = [act(1), act(2), undo(3)]
    copy = [dict(a) for a in actions]
    effective_actions(actions)
    assert actions == copy


# ---------------------------------------------------------------------------------------------
# ActionLog: a game that follows undo and redo


def export() -> dict:
    return {"title": "1893", "id": 1,
            "players": [{"id": pid, "name": name} for pid, name in PLAYERS],
            "settings": {"seed": SEED, "optional_rules": []}, "actions": []}


def test_action_log_undo_and_redo_restore_the_game():
    """After undo the game is as if the undone action had never been taken; after redo, as if
    it had never been undone."""
    first, second = script()[:2]
    log = ActionLog(export())
    log.process(first)
    after_first = state(log.game)
    log.process(second)
    after_second = state(log.game)
    log.process(undo(100))
    assert state(log.game) == after_first
    log.process(msg(101))
    assert state(log.game) == after_first
    log.process(redo(102))
    assert state(log.game) == after_second
    log.process(undo(103, action_id=0))
    assert state(log.game) == state(new_game())


def test_action_log_agrees_with_effective_actions():
    """Replaying entry by entry (ActionLog) and folding the list first (effective_actions)
    give the same actions in force and the same game."""
    entries = script()[:4] + [undo(100), undo(101), redo(102), msg(103)] + [script()[3]]
    log = ActionLog(export())
    for h in entries:
        log.process(h)
    kept, _ = effective_actions(entries)
    assert ids(log.kept) == ids(kept)
    game = new_game()
    for h in kept:
        if h is not None and h["type"] != "message":
            game.process_action(h)
    assert state(log.game) == state(game)


def test_game_refuses_undo_and_redo_directly():
    """Undo and redo change the action list, which a game does not own: it refuses them
    (the ActionLog handles them) and stays as it was."""
    game = new_game()
    before = state(game)
    for h in (undo(1), redo(2)):
        with pytest.raises(GameError):
            game.process_action(h)
    assert state(game) == before
