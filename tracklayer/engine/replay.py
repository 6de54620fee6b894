"""Games as recorded by 18xx.games: set one up from an export, replay its action log.

An export holds the title, players, settings (seed, optional rules) and the list of actions
as played, including ``undo``/``redo`` entries and chat messages. :class:`ActionLog` folds
that list one entry at a time into the list of actions still in force, and keeps a game
that reflects exactly those actions.
"""

from __future__ import annotations

import gc
import json
from contextlib import contextmanager
from typing import Iterator, List, Optional, Tuple

from ..titles import title_class
from .actions import effective_actions
from .errors import ActionError, GameError


def load_export(path: str) -> dict:
    """Read an 18xx.games export (raises OSError or ValueError if it cannot)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not an 18xx.games export (a JSON object)")
    return data


def new_game(data: dict, log: bool = True):
    """A fresh game (no actions applied) for an export's title, players and settings."""
    if not isinstance(data, dict):
        raise GameError("an 18xx.games export is a JSON object")
    cls = title_class(data.get("title"))
    settings = data.get("settings") or {}
    try:
        players = [(p["id"], p["name"]) for p in data["players"]]
    except (KeyError, TypeError) as e:
        raise GameError(f"the export's players must each have an id and a name ({e!r})")
    rules = [r for r in settings.get("optional_rules") or [] if r]
    seed = settings.get("seed")
    if seed in (None, ""):
        seed = int("".join(ch for ch in str(data.get("id", 0)) if ch.isdigit()) or 0)
    return cls(players, seed=seed, optional_rules=rules, log=log)


class ActionLog:
    """An action log being replayed: ``kept`` mirrors the entries seen so far, with undone
    ones replaced by None; ``game`` is the state after the actions in force."""

    def __init__(self, data: dict, log: bool = True) -> None:
        self.data = data
        self.log = log
        self.entries: List[dict] = []
        self.kept: List[Optional[dict]] = []
        self.undos: List[list] = []
        self.game = new_game(data, log=log)

    def rebuild(self) -> None:
        """Set up the game again from the entries in force."""
        game = new_game(self.data, log=self.log)
        for h in self.kept:
            if h is not None and h.get("type") != "message":
                game.process_action(h)
        self.game = game

    def process(self, h: dict) -> None:
        """Take one more entry of the log (an action, an undo, a redo or a message)."""
        t = h.get("type")
        index = len(self.entries)
        self.entries.append(h)
        self.kept.append(None)
        if t == "undo":
            target = h.get("action_id")
            if target is not None:
                if target == 0:
                    undo_to = 0
                else:
                    idx = next((i for i, x in enumerate(self.entries) if x.get("id") == target),
                               None)
                    if idx is None:
                        raise ActionError(f"undo to unknown action id {target}")
                    undo_to = idx + 1
            else:
                undo_to = next((i for i in range(index - 1, -1, -1)
                                if self.kept[i] is not None
                                and self.kept[i].get("type") != "message"), 0)
            group = []
            for i in range(undo_to, index):
                if self.kept[i] is not None and self.kept[i].get("type") != "message":
                    group.append((self.kept[i], i))
                    self.kept[i] = None
            self.undos.append(group)
            self.rebuild()
        elif t == "redo":
            if not self.undos:
                raise ActionError("nothing to redo")
            for item, i in self.undos.pop():
                self.kept[i] = item
            self.rebuild()
        elif t == "message":
            self.kept[index] = h
        else:
            self.game.process_action(h)
            self.undos.clear()
            self.kept[index] = h


@contextmanager
def gc_paused():
    """Pause the cyclic garbage collector during a replay: a game's objects live as long as
    the game, and collecting while thousands are created costs a tenth of the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def replay(data: dict, log: bool = False):
    """The game after all actions of an export still in force (undone ones skipped)."""
    kept, _ = effective_actions(data.get("actions") or [])
    with gc_paused():
        game = new_game(data, log=log)
        for index, h in enumerate(kept):
            if h is None or h.get("type") == "message":
                continue
            try:
                game.process_action(h)
            except GameError as e:
                raise type(e)(f"log entry {index}: {e}") from e
    return game


def states(data: dict, log: bool = False) -> Iterator[Tuple[int, dict, object]]:
    """(index, entry, game) after each entry of an export's log, as a player saw it."""
    action_log = ActionLog(data, log=log)
    for index, h in enumerate(data.get("actions") or []):
        try:
            action_log.process(h)
        except GameError as e:
            raise type(e)(f"log entry {index}: {e}") from e
        yield index, h, action_log.game
