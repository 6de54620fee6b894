"""An action log as 18xx.games keeps it: every entry as received, and which are in force.

An ``undo`` entry takes back the last action in force, or, with ``action_id``, every
action after that one (0: all of them). A ``redo`` restores what the last undo took back,
as long as no new action came in between. Chat messages are never taken back.

The entries are kept small (:class:`~tracklayer.packed.Packed`): a long game's log, held
as dicts, weighs as much as everything else a live game holds; packed in blocks it weighs
a thirtieth of that. The actions in force are known by their places in the log.
"""

from __future__ import annotations

from array import array
from typing import List, Optional, Sequence, Tuple, Union

from .errors import ActionError
from .packed import Packed

HELD = 1            # an entry's status: still held (not undone, not an undo or redo itself)
ACTION = 2          # ... and an action (not chat, undo or redo)
IN_FORCE = HELD | ACTION
TAKING_BACK = ("undo", "redo")     # the entries that change which others are held


class History:
    """The entries received (``entries``) and, for each, whether it is still held and an
    action (``status``)."""

    def __init__(self, entries: Optional[Packed] = None) -> None:
        self.entries: Packed = Packed() if entries is None else entries   # or a plain list
        self.status = bytearray()
        self.redo_groups: List[List[Tuple[dict, int]]] = []

    def copy(self) -> "History":
        other = History(self.entries.copy())
        other.status = bytearray(self.status)
        other.redo_groups = [list(g) for g in self.redo_groups]
        return other

    def prefix(self, n: int) -> "History":
        """The history as it stood after its first ``n`` entries."""
        other = History(self.entries.prefix(n))
        for h in other.entries:
            other._note(h)
        return other

    def record(self, h: dict) -> None:
        """An entry (an undo or redo is applied; a new action ends the chance to redo)."""
        self._note(h)
        self.entries.append(h)

    def _note(self, h: dict) -> None:
        """Note the next entry's status (its undo or redo applied)."""
        kind = h.get("type")
        if kind == "undo":
            return self._undo(h)
        if kind == "redo":
            return self._redo()
        if kind == "message":
            self.status.append(HELD)
        else:
            self.status.append(IN_FORCE)
            if self.redo_groups:
                self.redo_groups.clear()

    def holds(self, index: int) -> bool:
        """Is entry ``index`` still held (not undone; not an undo or redo)?"""
        return bool(self.status[index] & HELD)

    @property
    def kept(self) -> List[Optional[dict]]:
        """Each entry if still held, else None."""
        return [h if s & HELD else None for h, s in zip(self.entries, self.status)]

    def undo_start(self, h: dict) -> int:
        """Where the actions an undo entry takes back begin (ActionError if unknown)."""
        target = h.get("action_id")
        if target is None:
            return next((i for i in range(len(self.status) - 1, -1, -1)
                         if self.status[i] == IN_FORCE), 0)
        if target == 0:
            return 0
        found = next((i for i in range(len(self.status))
                      if self.entries[i].get("id") == target), None)
        if found is None:
            raise ActionError(f"undo to unknown action id {target}")
        return found + 1

    def _undo(self, h: dict) -> None:
        start = self.undo_start(h)
        group = [i for i in range(start, len(self.status)) if self.status[i] == IN_FORCE]
        for i in group:
            self.status[i] = ACTION
        self.status.append(0)
        self.redo_groups.append([(self.entries[i], i) for i in group])

    def _redo(self) -> None:
        if not self.redo_groups:
            raise ActionError("nothing to redo")
        for _, i in self.redo_groups.pop():
            self.status[i] = IN_FORCE
        self.status.append(0)

    def action_indices(self) -> array:
        """Where the actions in force are in the log, in order."""
        return array("l", (i for i, s in enumerate(self.status) if s == IN_FORCE))

    def actions(self) -> List[dict]:
        """The actions in force, in order."""
        return [self.entries[i] for i in self.action_indices()]


class Actions(Sequence):
    """The actions in force as a game played them: a view of its log by index."""

    def __init__(self, log: Packed, indices: array) -> None:
        self.log, self.indices = log, indices

    def __len__(self) -> int:
        return len(self.indices)

    def __getitem__(self, k: Union[int, slice]):
        if isinstance(k, slice):
            return [self.log[i] for i in self.indices[k]]
        return self.log[self.indices[k]]

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, Actions)) and list(self) == list(other)


def in_force(entries: list) -> List[Optional[dict]]:
    """The log's entries still in force after its undo and redo entries (None where an
    entry was undone, or is itself an undo or redo). A log without undo or redo entries
    holds every entry (most logs: looked through once before any is recorded)."""
    for h in entries:
        if h.get("type") in TAKING_BACK:
            break
    else:
        return list(entries)
    history = History([])       # a list: read once, not worth packing
    for h in entries:
        history.record(h)
    return history.kept
