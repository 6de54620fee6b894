"""A game as the server holds it in memory (:class:`Live`): the engine's game, its seats,
and what the server derived as it applied the log (where each action's lines end, the
players' values by round, the proposals in play), with the lock its requests take."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from ..game import Game
from ..play.consent import Negotiation
from . import archive
from .bots import seat_of
from .values import Marks, Values, compact

__all__ = ["Live", "Seat"]


@dataclass
class Seat:
    position: int
    player_id: int
    name: str
    bot: Optional[str]
    token: Optional[str]


@dataclass
class Live:
    """A game in memory: the engine's game, its seats, and how many log entries it holds."""
    id: int
    game: Game
    seats: List[Seat]
    lock: threading.RLock = field(default_factory=threading.RLock)
    loaded: bool = False             # its log read from the database
    seats_read: float = 0.0          # when the seats were last read (time.monotonic)
    bots_running: bool = False
    # the legal listing of one position (the log's length): (position, actions, the
    # actions by the player who takes them, in the listing's order)
    cached: tuple = (-1, [], {})
    # how long the game's log was before any action, and after each action (by its
    # index in the log of entries): where each action's lines end, to place chat among them
    log_start: Optional[int] = None
    log_marks: Marks = field(default_factory=Marks)
    values: Values = field(default_factory=Values)      # the players' values by round
    talks: Negotiation = field(default_factory=Negotiation)     # proposals (web.proposals)
    standing: archive.Standing = field(default_factory=archive.Standing)   # read-only?
    talks_mark: Optional[tuple] = None      # the proposals' mark when read (Store.freshness)
    talks_at: int = -1                      # and the actions in force then
    used: float = field(default_factory=time.monotonic)     # last asked for
    resting: bool = False                   # dropped what it derived (see rest)
    storing: bool = False                   # an entry applied, its commit awaited (act_now)
    # (entry, whether a seat has a webhook) as the writer said when it stored that entry
    hooks_seen: Tuple[int, Optional[bool]] = (0, None)

    def restart(self, game: Game) -> "Live":
        """Begin again from ``game`` (just set up): what a replay of the log starts from."""
        self.game, self.log_start, self.cached = game, None, (-1, [], {})
        self.log_marks, self.values = Marks(), Values()
        return self

    def apply(self, entry: dict, auto: bool = False) -> None:
        """Apply a log entry to the game, noting where the lines it wrote end and the
        players' values when a round begins."""
        if self.log_start is None and not self.game.actions:
            self.log_start = len(self.game.table.messages)
        self.game.apply(compact(entry), auto=auto)
        self.game.history.entries.pack()        # a live game's logs kept small
        self.game.table.messages.pack()
        if entry.get("type") not in ("undo", "redo", "message"):
            self.log_marks[self.number - 1] = len(self.game.table.messages)
        self.values.after(self.game, entry)

    def talks_noted(self, made: int = 0, pending: int = 0, void: int = 0) -> None:
        """Keep the mark of the proposals (``Store.freshness``) in step with a write of
        this process (``made`` proposals, ``pending`` and ``void`` ones more or fewer, at
        the position play stands at), when it was read where play stands: the next request
        then finds them known without reading them again (``Service._talks_known``). A
        change made elsewhere meanwhile moves the mark otherwise (every proposal made
        counts; one answered only moves on), so it is still read again then."""
        at = len(self.game.actions)
        if self.talks_mark is None or self.talks_at != at:
            return
        count, waiting, voided, last = self.talks_mark
        self.talks_mark = (count + made, waiting + pending, voided + void,
                           max(last, at) if made else last)

    def rest(self) -> None:
        """Drop what the game derived from its position (the board's graph of track, the
        routes found, the legal listing): a third of a long game's memory, rebuilt in a
        few milliseconds when it is next used (under the game's lock)."""
        self.game.table.forget()
        self.cached = (-1, [], {})
        self.resting = True

    def legal(self) -> List[dict]:
        """The game's legal actions, worked out once per position (the log only grows, so
        its length names the position); copies, so that callers may change them. None
        at all while a proposal waits for its answer (the game stands still) or in a game
        that is read-only (web.archive)."""
        return [dict(a) for a in self._listed()[1]]

    def legal_of(self, player_id: int) -> List[dict]:
        """The legal actions the player ``player_id`` takes (``legal``, of one seat)."""
        return [dict(a) for a in self._listed()[2].get(player_id, ())]

    def _listed(self) -> tuple:
        """The position's listing, with its actions by the player who takes them (each
        action's player found once a position, whoever asks)."""
        if self.talks.pending is not None or self.standing.read_only:
            return (self.number, [], {})
        if self.cached[0] != self.number:
            actions = [] if self.game.is_over else self.game.legal_actions()
            by_player: Dict[Optional[int], List[dict]] = {}
            for a in actions:
                by_player.setdefault(seat_of(self.game, a), []).append(a)
            self.cached = (self.number, actions, by_player)
        return self.cached

    @property
    def number(self) -> int:
        return len(self.game.history.entries)

    def seat_by_token(self, token: Optional[str]) -> Optional[Seat]:
        return next((s for s in self.seats if token and s.token == token), None)

    def seat(self, player_id) -> Optional[Seat]:
        return next((s for s in self.seats if s.player_id == player_id), None)

    def undo_target(self, player_id: int) -> Optional[int]:
        """Where an undo by ``player_id`` may go back to when only bots acted since that
        player's last action: the id of the action before it (0: the start); None if
        someone else acted since, or the player never did."""
        actions = self.game.actions
        for k in range(len(actions) - 1, -1, -1):
            p = seat_of(self.game, actions[k])
            if p == player_id:
                return actions[k - 1].get("id") if k else 0
            seat = self.seat(p)
            if seat is None or not seat.bot:
                return None
        return None

    def acting_seats(self) -> List[int]:
        """The players (ids) to act: while a proposal waits, its responder and then its
        proposer (who may withdraw it); else whoever has a legal move."""
        if self.game.is_over or self.standing.read_only:
            return []
        if self.talks.pending is not None:
            return [self.game.player_specs[s][0] for s in self.talks.acting_seats()]
        return [p for p in self._listed()[2] if p is not None]
