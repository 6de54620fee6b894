"""A game: a title, its players, a seed, optional rules, and the actions taken.

:class:`Game` is the coordinator: it sets the table, applies actions (in the 18xx.games
format, undo and redo included), lists legal actions, and restores earlier positions from
snapshots taken along the way. The rules themselves are in ``tracklayer.rules`` and
``tracklayer.turns``.
"""

from __future__ import annotations

from array import array
from typing import Callable, Dict, Optional, Sequence

from . import snapshot
from .actions import read
from .errors import ActionError, GameError
from .history import Actions, History
from .rules import endgame, money, network, setup
from .rules.table import Table
from .title import Title
from .turns import flow, listing

MAX_AUTO_ACTIONS = 1000
# Snapshots: one every ``snapshot_every`` actions, stored compressed; of those further back
# than RECENT actions only every SPARSE-th action's is kept (an undo goes back a few
# actions; a look at an older position replays at most SPARSE - 1 actions).
RECENT = 32
SPARSE = 32


def _action_named(n: int, h, kind) -> str:
    """How an error names the action: its place in the list, its id and type."""
    return f"action {n} (id {h.get('id') if isinstance(h, dict) else None}, {kind})"


class Game:
    """One game of ``title`` (see the module docstring)."""

    def __init__(self, title: Title, players: Sequence, seed: int = 0,
                 optional_rules: Sequence = (), *, keep_log: bool = True,
                 route_planner: Optional[Callable] = None, snapshot_every: Optional[int] = 8):
        players = [(pid, name) for pid, name in players]
        low, high = title.player_range
        if not low <= len(players) <= high:
            raise GameError(f"{title.name} is for {low}-{high} players, not {len(players)}")
        self.title = title
        self.player_specs = players
        self.seed = seed
        self.optional_rules = title.options_for(optional_rules, len(players))
        self.route_planner = route_planner
        self.snapshot_every = snapshot_every
        self.keep_log = keep_log
        self.table: Table = self._set_table()
        self.starting_money = money.total_money(self.table)
        self.history = History()                 # every entry received, and which hold
        self.played = array("l")                 # where the actions on the table are in the log
        self.snapshots: Dict[int, bytes] = {}    # by the number of actions taken
        self.snapshot_base: Optional[bytes] = None   # of the first one: see stored

    def _set_table(self) -> Table:
        """The table as the game begins: set up, its first round begun."""
        variant = self.title.rules()
        spec = self.title.game_spec(len(self.player_specs), self.optional_rules)
        table = setup.new_table(spec, self.player_specs, self.seed, variant, self.keep_log)
        variant.set_up(table)
        table.state.round = variant.first_round(table)
        table.state.round.begin()
        return table

    # -- the position -------------------------------------------------------------------

    @property
    def actions(self) -> Actions:
        """The actions in force, in order (as the table has them)."""
        return Actions(self.history.entries, self.played)

    @property
    def state(self):
        return self.table.state

    @property
    def is_over(self) -> bool:
        return self.table.state.end.finished

    @property
    def end_reason(self) -> Optional[str]:
        return self.table.state.end.reason

    @property
    def acting(self):
        """The entity whose turn it is (None when the game is over)."""
        return None if self.is_over else self.table.round.acting()

    def result(self) -> Dict:
        """Score per player id, best first."""
        return endgame.scores_by_player(self.table)

    def total_money(self) -> int:
        return money.total_money(self.table)

    def legal_actions(self) -> List[dict]:
        """The legal actions of the entities that may act now (18xx.games format)."""
        return listing.legal_moves(self.table, self.route_planner)

    # -- applying actions ---------------------------------------------------------------

    def apply(self, h: dict, auto: bool = False) -> None:
        """Apply one entry of an action log: an action, ``undo``, ``redo`` or a chat
        message. An illegal action raises GameError naming it and the rule, and leaves the
        game as it was. With ``auto``, the players' programmed actions then run and are
        recorded in the action's ``auto_actions``."""
        kind = h.get("type") if isinstance(h, dict) else None
        if kind == "undo":
            return self._undo_entry(h)
        if kind == "redo":
            return self._redo_entry(h)
        n, entry = len(self.played), h
        table = self.table
        action, step, commit, _ = self._judged(h, kind)
        try:
            table.state.round.carry_out(action, step, commit)
            flow.settle(table)
            if auto:
                generated = self._run_programs()
                h = {k: v for k, v in h.items() if k != "auto_actions"}
                if generated:
                    h["auto_actions"] = generated
            else:
                for recorded in h.get("auto_actions") or ():
                    flow.play(table, read(table, recorded))
        except GameError as e:
            self._rebuild(self.played, dirty=True)
            raise type(e)(f"{_action_named(n, entry, kind)}: {e}") from e
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            self._rebuild(self.played, dirty=True)
            raise ActionError(f"{_action_named(n, entry, kind)}: malformed action: {e!r}") from e
        self.history.record(h)
        if kind != "message":
            self.played.append(len(self.history.status) - 1)
            self._maybe_snapshot()

    def check(self, h: dict) -> None:
        """Refuse the action ``h`` as :meth:`apply` would refuse it now (GameError naming
        it and the rule), without taking it: the rules' check alone, nothing changed. The
        action alone is judged: programmed actions recorded after it (``auto_actions``)
        are judged only as they are applied."""
        kind = h.get("type") if isinstance(h, dict) else None
        *_, restore = self._judged(h, kind)
        restore()

    def _judged(self, h: dict, kind) -> tuple:
        """``h`` read and judged by the step taking it: (action, step, its change, what
        puts back the network's answers as they were). Refused, nothing has changed."""
        n, table = len(self.played), self.table
        restore = network.checkpoint(table)
        try:
            action = read(table, h)
            step, commit = table.state.round.judge(action)
        except GameError as e:
            restore()
            raise type(e)(f"{_action_named(n, h, kind)}: {e}") from e
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            restore()
            raise ActionError(f"{_action_named(n, h, kind)}: malformed action: {e!r}") from e
        return action, step, commit, restore

    def _run_programs(self) -> list:
        generated: list = []
        table = self.table
        while not table.state.end.finished:
            batch = table.round.auto_moves() or []
            if not batch:
                break
            for h in batch:
                flow.play(table, read(table, h))
                generated.append(h)
            if len(generated) > MAX_AUTO_ACTIONS:
                raise GameError("programmed actions do not come to an end")
        return generated

    # -- undo and redo ------------------------------------------------------------------

    def undo(self, to_action_id: Optional[int] = None) -> None:
        """Take back the last action in force (or every action after the one with id
        ``to_action_id``; 0 takes back all)."""
        h = {"type": "undo"} if to_action_id is None else \
            {"type": "undo", "action_id": to_action_id}
        self._undo_entry(h)

    def redo(self) -> None:
        self._redo_entry({"type": "redo"})

    def _undo_entry(self, h: dict) -> None:
        self.history.record(h)
        self._rebuild(self.history.action_indices())

    def _redo_entry(self, h: dict) -> None:
        self.history.record(h)
        self._rebuild(self.history.action_indices())

    def _rebuild(self, target: array, dirty: bool = False) -> None:
        """Bring the position to that after the actions at ``target`` in the log: from where
        it stands if that is a beginning of them, else from the nearest snapshot (``dirty``: the
        position is not to be trusted, restore in any case). The actions are replayed
        trusted (:attr:`Table.trusted`): this game accepted each of them."""
        trusted = self.table.trusted
        try:
            self._replay_to(target, dirty)
        finally:
            self.table.trusted = trusted

    def _replay_to(self, target: array, dirty: bool) -> None:
        """:meth:`_rebuild`'s work."""
        common = 0
        played = self.played
        while common < min(len(target), len(played)) and target[common] == played[common]:
            common += 1
        with snapshot.collector_paused():
            if dirty or common < len(played):
                base = max((k for k in self.snapshots if k <= common), default=0)
                for k in [k for k in self.snapshots if k > base]:
                    del self.snapshots[k]
                if base in self.snapshots:
                    snapshot.restore(self.table, self.stored(base))
                else:
                    self.table = self._set_table()
                self.played = played[:base]
            self.table.trusted = True
            for index in target[len(self.played):]:
                h = self.history.entries[index]
                flow.play(self.table, read(self.table, h))
                for recorded in h.get("auto_actions") or ():
                    flow.play(self.table, read(self.table, recorded))
                self.played.append(index)
                self._maybe_snapshot()

    def _maybe_snapshot(self) -> None:
        n = len(self.played)
        if self.snapshot_every and n % self.snapshot_every == 0 and n not in self.snapshots:
            raw = snapshot.take(self.table)
            if self.snapshot_base is None:
                self.snapshot_base = snapshot.dictionary(raw)
            self.snapshots[n] = snapshot.pack(raw, self.snapshot_base)
            for k in [k for k in self.snapshots if k <= n - RECENT and k % SPARSE]:
                del self.snapshots[k]

    def stored(self, n: int) -> bytes:
        """The snapshot after ``n`` actions. Each is stored compressed against the game's
        first one (most of a position is as it was: the map, the charters, the players),
        of which the game keeps what zlib compresses against (``snapshot.dictionary``)."""
        return snapshot.unpack(self.snapshots[n], self.snapshot_base)

    # -- copies and export --------------------------------------------------------------

    def clone(self) -> "Game":
        """An independent copy of the game in its current position."""
        return self.copies()()

    def copies(self, lasting: bool = True) -> Callable[[], "Game"]:
        """A maker of independent copies of the game in its current position: the position
        is saved once, now, and each call restores a new copy from it (several copies of
        one position cost one snapshot). Copies not ``lasting`` (dropped soon after, such
        as a trial of one action) are left to the garbage collector's young generations
        as they are made, so that it frees them once dropped; a lasting copy's objects
        join the oldest generation at once (:func:`snapshot.collector_paused`)."""
        table = self.table
        saved = snapshot.take(table)
        fields = dict(self.__dict__)
        messages = table.messages.copy()
        history = self.history.copy()
        played = array("l", self.played)
        snapshots = dict(self.snapshots)

        def copy() -> "Game":
            made = object.__new__(Game)
            made.__dict__.update(fields)
            made.table = Table(table.spec, table.state, table.variant, table.keep_log)
            made.table.messages = messages.copy()
            if lasting:
                with snapshot.collector_paused():   # its objects live as long as it does
                    snapshot.restore(made.table, saved)
            else:
                snapshot.restore(made.table, saved)
            made.history = history.copy()
            made.played = array("l", played)
            made.snapshots = dict(snapshots)
            return made
        return copy

    def position_after(self, entries: int) -> "Game":
        """An independent copy of the game as it stood after the first ``entries`` entries
        of its log (undo, redo and chat included), rebuilt from the nearest snapshot (the
        position now is never copied: the copy's table starts from a snapshot)."""
        copy = object.__new__(Game)
        copy.__dict__.update(self.__dict__)
        copy.table = Table(self.table.spec, self.table.state, self.table.variant,
                           self.table.keep_log)
        copy.table.messages = self.table.messages.copy()
        copy.snapshots = dict(self.snapshots)
        copy.played = array("l", self.played)
        copy.history = self.history.prefix(entries)
        copy.snapshot_every = None          # a look back takes no snapshots on its way
        copy._rebuild(copy.history.action_indices(), dirty=True)
        copy.snapshot_every = self.snapshot_every
        return copy

    def export(self) -> dict:
        """The game in the 18xx.games export format."""
        return {
            "id": self.seed, "title": self.title.name,
            "players": [{"id": pid, "name": name} for pid, name in self.player_specs],
            "settings": {"seed": self.seed, "optional_rules": list(self.optional_rules)},
            "actions": list(self.history.entries),
            "result": {str(k): v for k, v in self.result().items()} if self.is_over else None,
            "game_end_reason": self.end_reason, "finished": self.is_over,
        }
