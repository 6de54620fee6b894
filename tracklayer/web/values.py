"""What the server records of a game as it applies the entries, kept small:

* each player's value (what the title's scoring counts: cash, shares at market, companies)
  at the start of every round of the game as it stands, so that the chart is drawn from
  what the server holds, never from a replay of the whole game. An undo takes back the
  samples of the actions it takes back, and a redo gives them back; should a redo find none
  to give back, the record says it is not whole and the next chart rebuilds it once;
* where each action's lines end in the game's log (:class:`Marks`);
* the entries themselves with their names shared (:func:`compact`)."""

from __future__ import annotations

import sys
from array import array
from typing import Dict, List, Optional, Tuple

from ..game import Game
from ..io.export import open_game
from ..rules import endgame

Where = Tuple[str, int, int]            # (round, turn, round count)


def where(game: Game) -> Where:
    return (game.table.round.NAME, game.state.turn, game.state.round_count)


def label(here: Where) -> str:
    """A round's short name: its initials and turn ("SR3", "OR3")."""
    return f"{''.join(w[0] for w in here[0].split())}{here[1]}"


def scores(game: Game) -> Dict[int, int]:
    return {pid: int(v) for pid, v in endgame.scores_by_player(game.table).items()}


class Values:
    """The samples of one game: ``(actions in force, round, scores by player id)``."""

    def __init__(self) -> None:
        self.samples: List[Tuple[int, Where, Dict[int, int]]] = []
        self.undone: List[list] = []        # the samples each undo took back, for a redo
        self.whole = True

    def after(self, game: Game, entry: dict) -> None:
        """Note the position after an entry was applied."""
        kind = entry.get("type")
        n = len(game.actions)
        taken = []
        while self.samples and self.samples[-1][0] > n:
            taken.append(self.samples.pop())
        if kind == "undo":
            self.undone.append(taken[::-1])
        elif kind == "redo":
            if self.undone:
                self.samples.extend(self.undone.pop())
            else:
                self.whole = False
        elif kind != "message":
            self.undone.clear()             # a new action: nothing left to redo
        here = where(game)
        if entry.get("type") != "message" and (not self.samples or
                                                self.samples[-1][1] != here):
            self.samples.append((n, here, scores(game)))

    def rebuild(self, game: Game) -> None:
        """The samples again, by replaying the actions in force (after a redo)."""
        again = open_game(game.export() | {"actions": []}, snapshot_every=None)
        self.samples = []
        for h in game.actions:
            again.apply(h)
            self.after(again, h)
        self.whole = True

    def series(self, game: Game) -> Tuple[List[str], Dict[int, List[int]]]:
        """Round labels and, per player id, the value at the start of each round and
        now."""
        if not self.whole:
            self.rebuild(game)
        players = [p.id for p in game.state.players]
        labels = [label(here) for _, here, _ in self.samples] + ["now"]
        now = scores(game)
        series = {pid: [s.get(pid, 0) for _, _, s in self.samples] + [now.get(pid, 0)]
                  for pid in players}
        return labels, series


class Marks:
    """Where each action's lines end in the game's log, by the action's index among the
    log's entries (-1: no action there); a flat array instead of a dict of numbers."""

    def __init__(self, found: Optional[Dict[int, int]] = None) -> None:
        self.ends = array("l")
        for index, end in (found or {}).items():
            self[index] = end

    def __setitem__(self, index: int, end: int) -> None:
        if index >= len(self.ends):
            self.ends.extend([-1] * (index + 1 - len(self.ends)))
        self.ends[index] = end

    def __contains__(self, index) -> bool:
        return 0 <= index < len(self.ends) and self.ends[index] >= 0

    def __getitem__(self, index: int) -> int:
        if index not in self:
            raise KeyError(index)
        return self.ends[index]

    def items(self):
        return ((i, end) for i, end in enumerate(self.ends) if end >= 0)

    def before(self, number: int) -> "Marks":
        """The marks of the first ``number`` entries."""
        copy = Marks()
        copy.ends = self.ends[:number]
        return copy


def compact(value):
    """An entry with its names and short texts shared (interned): a game's log holds the
    same few dozen keys and values thousands of times over."""
    if isinstance(value, dict):
        return {sys.intern(k) if isinstance(k, str) else k: compact(v) for k, v in value.items()}
    if isinstance(value, list):
        return [compact(v) for v in value]
    if isinstance(value, str) and len(value) <= 40:
        return sys.intern(value)
    return value
