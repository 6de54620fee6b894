"""An action log as 18xx.games keeps it: every entry as received, and which are in force.

An ``undo`` entry takes back the last action in force, or, with ``action_id``, every
action after that one (0: all of them). A ``redo`` restores what the last undo took back,
as long as no new action came in between. Chat messages are never taken back.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from .errors import ActionError


def _counts(h: Optional[dict]) -> bool:
    """Is ``h`` an action in force (not undone, not chat)?"""
    return h is not None and h.get("type") != "message"


class History:
    """The entries received (``entries``) and, for each, the entry if still in force."""

    def __init__(self) -> None:
        self.entries: List[dict] = []
        self.kept: List[Optional[dict]] = []
        self.redo_groups: List[List[Tuple[dict, int]]] = []

    def copy(self) -> "History":
        other = History()
        other.entries, other.kept = list(self.entries), list(self.kept)
        other.redo_groups = [list(g) for g in self.redo_groups]
        return other

    def record(self, h: dict) -> None:
        """An entry that is not undo or redo; a new action ends the chance to redo."""
        if h.get("type") == "undo":
            return self.undo(h)
        if h.get("type") == "redo":
            return self.redo(h)
        self.entries.append(h)
        self.kept.append(h)
        if h.get("type") != "message":
            self.redo_groups.clear()

    def undo_start(self, h: dict) -> int:
        """Where the actions an undo entry takes back begin (ActionError if unknown)."""
        target = h.get("action_id")
        if target is None:
            return next((i for i in range(len(self.kept) - 1, -1, -1)
                         if _counts(self.kept[i])), 0)
        if target == 0:
            return 0
        found = next((i for i, x in enumerate(self.entries) if x.get("id") == target), None)
        if found is None:
            raise ActionError(f"undo to unknown action id {target}")
        return found + 1

    def undo(self, h: dict) -> None:
        start = self.undo_start(h)
        group = [(self.kept[i], i) for i in range(start, len(self.kept)) if _counts(self.kept[i])]
        for _, i in group:
            self.kept[i] = None
        self.entries.append(h)
        self.kept.append(None)
        self.redo_groups.append(group)

    def redo(self, h: dict) -> None:
        if not self.redo_groups:
            raise ActionError("nothing to redo")
        for item, i in self.redo_groups.pop():
            self.kept[i] = item
        self.entries.append(h)
        self.kept.append(None)

    def actions(self) -> List[dict]:
        """The actions in force, in order."""
        return [h for h in self.kept if _counts(h)]


def in_force(entries: list) -> List[Optional[dict]]:
    """The log's entries still in force after its undo and redo entries (None where an
    entry was undone, or is itself an undo or redo)."""
    history = History()
    for h in entries:
        history.record(h)
    return history.kept
