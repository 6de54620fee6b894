"""Games as the server plays them: each live :class:`Game` kept in memory (rebuilt from the
log on demand, and brought up to date with entries another worker stored), every entry
checked by the engine before it is stored, in one transaction, under the next number.
A listing or an action on a game held in memory and up to date is answered on the event
loop (``legal_now``, ``act_now``): no thread to hand over to and back, the commit awaited
with the game's lock held. Up to date: this process alone stores the game's entries, or,
workers sharing PostgreSQL, the database just said so (``web.loop_reads``). The games in memory
are :class:`~tracklayer.web.live.Live`; the bots' turns are ``bot_turns``.

Errors are :class:`Refusal` with the HTTP status the API answers: 401/403 (whose seat),
404, 409 (stale number), 422 (the rule's message; nothing stored)."""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..errors import GameError
from ..finder import plan_routes
from ..game import Game
from ..io.export import open_game
from ..titles import title as find_title
from ..play.consent import Negotiation, deal_of
from . import archive, inputs
from .bot_turns import BotTurns
from .bots import make_bot, seat_of
from .db import Store
from .live import Live, Seat
from .proposals import Desk, as_api, load as load_proposals
from .refusal import Refusal
from .writer import Guard, Unguarded

__all__ = ["Live", "Refusal", "Seat", "Service"]

MAX_LIVE = 300                   # games kept in memory at most
IDLE_S = 60.0                    # a game nobody asked for this long drops what it derived
SWEEP_S = 10.0                   # how often the games in memory are looked over for that
SEATS_FRESH_S = 0.05             # seats read this recently (by the request) are not re-read
# a live game's snapshots (Game.snapshot_every): each costs its position's pickle, taken
# on the action's path; an undo replays at most this many actions less one
SNAPSHOT_EVERY = 16
LOG = logging.getLogger(__name__)


@dataclass
class Storing:
    """An entry applied on the event loop and handed to the log's writer (``act_now``):
    ``done`` once committed."""
    live: Live
    number: int
    stored: dict
    text: str                   # as the log keeps it (Store.entry_text)
    done: Future


def _opened(data: dict) -> Game:
    """A live game as set up (its entries to be applied), from its settings."""
    return open_game(data, route_planner=plan_routes, snapshot_every=SNAPSHOT_EVERY)


def _settings(data: dict, players) -> dict:
    return {"title": data["title"], "players": [{"id": p, "name": n} for p, n in players],
            "settings": {"seed": data["seed"], "optional_rules": data["optional_rules"]}}


class Service(BotTurns):
    """The games this process serves; ``publish(game_id, number, entry, text=None)`` is
    told of every entry stored (``text``: the entry as the log keeps it, when at hand).
    ``shared``: other processes store entries of the same games (workers sharing Redis),
    so a game is brought up to the log before it is read; alone, the games in memory are
    the log's newest."""

    def __init__(self, store: Store, publish: Callable[[int, int, dict], None],
                 run_bots_in_background: bool = True, shared: bool = False) -> None:
        self.store = store
        self.publish = publish
        self.shared = shared
        self.background = run_bots_in_background
        self.live: "OrderedDict[int, Live]" = OrderedDict()     # least recently used first
        self.lock = threading.Lock()
        self.swept = time.monotonic()           # the last look for idle games (_rest_idle)
        self.proposals = Desk(self)

    # -- making games ---------------------------------------------------------------------

    def create(self, body: dict) -> dict:
        if not isinstance(body, dict):
            raise Refusal(422, "the body must be a JSON object")
        players = body.get("players")
        if not isinstance(players, list) or not players:
            raise Refusal(422, "players must be a non-empty list of {name, bot}")
        if len(players) > 6:
            raise Refusal(422, "a game has at most 6 players")
        inputs.title(body.get("title"))
        seats = []
        for i, p in enumerate(players):
            if not isinstance(p, dict):
                raise Refusal(422, f"player {i + 1} needs a name")
            name = inputs.name(p.get("name"), f"player {i + 1}")
            bot = p.get("bot")
            is_open = p.get("open") is True
            if bot is not None:
                if not isinstance(bot, str):
                    raise Refusal(422, f"player {i + 1}: a bot is named by text")
                try:
                    make_bot(bot)
                except GameError as e:
                    raise Refusal(422, str(e))
            seats.append({"player_id": i + 1, "name": name, "bot": bot,
                          "token": None if bot or is_open else secrets.token_urlsafe(24)})
        inputs.distinct([s["name"] for s in seats])
        seed = body.get("seed")
        seed = secrets.randbelow(2 ** 31) if seed is None else seed
        inputs.seed(seed)
        rules = inputs.rules(body.get("optional_rules"))
        try:
            Game(find_title(body.get("title")), [(s["player_id"], s["name"]) for s in seats],
                 seed=seed, optional_rules=rules)
        except GameError as e:
            raise Refusal(422, str(e))
        creator = secrets.token_urlsafe(24)
        game_id = self.store.create(body["title"], seed, rules, seats, creator_token=creator,
                                    **archive.stamp(find_title(body["title"])))
        self.after_change(game_id)
        return {"id": game_id, "seats": self._seat_list(seats), "creator_token": creator}

    def import_export(self, data: dict) -> dict:
        """A game from an 18xx.games export: every entry replayed by the engine first."""
        inputs.export(data)
        try:
            game = open_game(data)
            inputs.seed(game.seed)
            for index, h in enumerate(data.get("actions") or []):
                if not isinstance(h, dict):
                    raise GameError(f"log entry {index} is not an object")
                if h.get("type") == "message" and not isinstance(h.get("message"), str):
                    raise GameError(f"log entry {index}: a chat message is text")
                try:
                    game.apply(h)
                except GameError as e:
                    raise type(e)(f"log entry {index}: {e}") from e
        except GameError as e:
            raise Refusal(422, str(e))
        seats = [{"player_id": pid, "name": name.strip(), "bot": None,
                  "token": secrets.token_urlsafe(24)} for pid, name in game.player_specs]
        creator = secrets.token_urlsafe(24)
        game_id = self.store.create(game.title.name, game.seed, list(game.optional_rules),
                                    seats, game.history.entries,
                                    description=str(data.get("description") or ""),
                                    creator_token=creator, **archive.stamp(game.title))
        return {"id": game_id, "seats": self._seat_list(seats), "creator_token": creator}

    @staticmethod
    def _seat_list(seats) -> list:
        return [{"player_id": s["player_id"], "name": s["name"], "bot": s["bot"],
                 "token": s["token"]} for s in seats]

    # -- the live game --------------------------------------------------------------------

    def get(self, game_id: int) -> Live:
        """The game in memory, up to date with the log (404 if there is no such game)."""
        if not inputs.is_id(game_id):
            raise Refusal(404, f"no game {game_id}")
        with self.lock:
            live = self.live.get(game_id)
            if live is not None:
                self.live.move_to_end(game_id)
        if live is None:
            row = self.store.game(game_id)
            if row is None:
                raise Refusal(404, f"no game {game_id}")
            seats = [Seat(s.position, s.player_id, s.name, s.bot, s.token)
                     for s in self.store.seats(game_id)]
            data = _settings({"title": row.title, "seed": row.seed,
                              "optional_rules": row.optional_rules},
                             [(s.player_id, s.name) for s in seats])
            live = Live(game_id, _opened(data), seats)
            with self.lock:
                live = self.live.setdefault(game_id, live)
                self._evict()
        with live.lock:
            if not live.loaded:
                self._load(live)
            else:
                self._catch_up(live)
            live.loaded = True
            live.used, live.resting = time.monotonic(), False
        self._rest_idle(live.used)
        return live

    def _load(self, live: Live) -> None:
        """Replay the stored log into the game just set up, up to the first entry the
        rules refuse (then read-only: see archive), and read the proposals. A log these
        rules accepted is replayed trusted (``archive.accepted_now``): should it still
        stop, the agreed entries are replayed again, checked, into a new game."""
        entries = self.store.entries(live.id)
        for expected, (number, _) in enumerate(entries, start=1):
            if number != expected:
                raise Refusal(500, f"game {live.id}: log entry {number} out of order")
        g = live.game
        data = _settings({"title": g.title.name, "seed": g.seed,
                          "optional_rules": list(g.optional_rules)}, g.player_specs)
        g.table.trusted = archive.accepted_now(self.store, live.id, g.title)
        try:
            _, divergence = archive.replay(
                live, lambda _: live.restart(_opened(data)),
                Live.apply, entries)
        finally:
            live.game.table.trusted = False
        live.standing = archive.standing(self.store, live.id, g.title, divergence)
        if divergence is not None:
            LOG.warning("game %s opens read-only at entry %s: the rules refuse entry %s: %s",
                        live.id, divergence.agreed, divergence.number, divergence.rule)
        live.talks = load_proposals(self.store, live)
        live.talks_mark, live.talks_at = None, len(live.game.actions)

    def _rest_idle(self, now: float) -> None:
        """Every SWEEP_S, let the games nobody asked for in IDLE_S rest (``Live.rest``);
        one busy now (its lock held) is left for the next sweep."""
        with self.lock:
            if now - self.swept < SWEEP_S:
                return
            self.swept = now
            idle = [live for live in self.live.values()
                    if not live.resting and not live.bots_running and now - live.used > IDLE_S]
        for live in idle:
            if live.lock.acquire(blocking=False):
                try:
                    if not live.resting and now - live.used > IDLE_S:
                        live.rest()
                finally:
                    live.lock.release()

    def _catch_up(self, live: Live, check: bool = False) -> None:
        """Apply the entries other processes stored, and read the proposals (only when
        they may have changed: ``shared``, or ``check``); shared, the seats are read in the
        same query, with a mark of the game's proposals (``Store.freshness``): they are
        read again only when that mark moved, or when play moved on in a game that has
        any (those answered where play stands count)."""
        if not (self.shared or check):
            return
        behind, mark = True, None
        if not check:
            latest, seats, mark = self.store.freshness(live.id)
            live.seats, live.seats_read = [Seat(*row) for row in seats], time.monotonic()
            behind = latest > live.number
        if behind and not live.standing.read_only:
            for number, h in self.store.entries(live.id, after=live.number):
                if number != live.number + 1:
                    raise Refusal(500, f"game {live.id}: log entry {number} out of order")
                try:
                    live.apply(h)
                except GameError:           # stored by a worker on other rules: reopen
                    self.forget(live.id)
                    raise Refusal(503, f"game {live.id}: entry {number} was stored under "
                                  "other rules: reload the game")
        at = len(live.game.actions)
        if check or not self._talks_known(live, mark):
            live.talks = load_proposals(self.store, live)
            live.talks_mark, live.talks_at = (None if check else mark), at

    @staticmethod
    def _talks_known(live: Live, mark: tuple) -> bool:
        """Are the game's proposals in play known without reading them, from the mark of
        its proposals (``Store.freshness``)? Known if the mark has not moved since they
        were read and play has not moved on since (or the game has none); or if none is
        pending and none was made where play stands or beyond: then none is in play
        (what ``proposals.load`` would find), and that is noted."""
        at = len(live.game.actions)
        if mark == live.talks_mark and (at == live.talks_at or mark[0] == 0):
            return True
        if mark[1] == 0 and mark[3] < at:
            live.talks, live.talks_mark, live.talks_at = Negotiation(), mark, at
            return True
        return False

    def _evict(self) -> None:
        """Keep at most MAX_LIVE games in memory (the log rebuilds any of them)."""
        for game_id in list(self.live):
            if len(self.live) <= MAX_LIVE:
                return
            held = self.live[game_id]
            if not held.bots_running and not held.storing:
                del self.live[game_id]

    def forget(self, game_id: int) -> None:
        with self.lock:
            self.live.pop(game_id, None)

    def refresh_seats(self, live: Live) -> None:
        live.seats = [Seat(*row) for row in self.store.seat_list(live.id)]
        live.seats_read = time.monotonic()

    def check_seats(self, live: Live) -> None:
        """Re-read the seats if another process may have changed them (a link issued anew,
        a seat joined) and this request has not read them yet: the database decides at
        once on every worker."""
        if self.shared and time.monotonic() - live.seats_read > SEATS_FRESH_S:
            self.refresh_seats(live)

    # -- acting ---------------------------------------------------------------------------

    def legal(self, game_id: int, token: Optional[str]) -> dict:
        """The legal actions of the seat the token(s) hold (of several, the first with any),
        the next action's number and the proposal waiting for its answer."""
        live = self.get(game_id)
        with live.lock:
            return self._listing(live, token)

    def legal_now(self, game_id: int, token: Optional[str],
                  fresh: Optional[tuple] = None) -> Optional[dict]:
        """``legal`` on the event loop, when it can be answered without waiting (see
        ``held_now``): a listing already worked out costs less than the hand-over to a
        thread and back. None: ask ``legal``, in a thread."""
        live = self.held_now(game_id, fresh)
        if live is None:
            return None
        try:
            listing = self._listing(live, token)
        finally:
            live.lock.release()
        self._rest_idle(live.used)
        return listing

    def holds(self, game_id: int) -> bool:
        """Is the game held in memory, its log read?"""
        live = self.live.get(game_id)
        return live is not None and live.loaded

    def held_now(self, game_id: int, fresh: Optional[tuple] = None,
                 guarded: bool = False) -> Optional[Live]:
        """The game with its lock taken, when a request on the event loop can have it
        without waiting for anything: held in memory and up to date, no entry of it
        waiting to be stored (``act_now``), its lock free. None when not. Up to date: this
        process alone stores its entries (not ``shared``), or, shared, ``fresh`` (the
        game's freshness just read on the loop, ``web.loop_reads``) shows nothing stored
        or proposed elsewhere since the game was brought up to date (``_fresh``), or
        ``guarded``: what is done with it is checked as it is committed (``act_now``)."""
        if (self.shared and fresh is None and not guarded) or not inputs.is_id(game_id):
            return None
        with self.lock:
            live = self.live.get(game_id)
            if live is None or not live.loaded or live.storing:
                return None
            self.live.move_to_end(game_id)
        if not live.lock.acquire(blocking=False):
            return None
        if fresh is not None and not self._fresh(live, fresh):
            live.lock.release()
            return None
        live.used, live.resting = time.monotonic(), False
        return live

    @staticmethod
    def _fresh(live: Live, fresh: tuple) -> bool:
        """Does the game in memory stand where the database says (``Store.freshness``):
        no newer entry, and the proposals as read (see ``_catch_up``)? If so its seats
        are taken from the same read (a link issued anew counts at once)."""
        latest, seats, mark = fresh
        if latest > live.number or not Service._talks_known(live, mark):
            return False
        live.seats, live.seats_read = [Seat(*row) for row in seats], time.monotonic()
        return True

    def _listing(self, live: Live, token) -> dict:
        mine = [(seat, live.legal_of(seat.player_id))
                for seat in self._seats_held(live, token, fresh=True)]
        seat, actions = next((m for m in mine if m[1]), mine[0])
        pending = live.talks.pending
        return {"player_id": seat.player_id, "next_id": live.number + 1,
                "actions": actions,
                "proposal": as_api(live, pending) if pending else None}

    def join(self, game_id: int, position: int, name: str) -> str:
        """Take an open seat (a person's seat nobody holds yet): its new token."""
        live = self.get(game_id)
        name = inputs.name(name, "a player joining")
        with live.lock:
            self.refresh_seats(live)
            seat = next((s for s in live.seats if s.position == position), None)
            if seat is None or seat.bot or seat.token:
                raise Refusal(409, f"seat {position + 1} is not open")
            inputs.distinct([s.name for s in live.seats if s is not seat] + [name])
            token = secrets.token_urlsafe(24)
            self.store.set_seat(game_id, position, name, token)
        self.forget(game_id)            # rebuilt with the player's name
        return token

    def _seat(self, live: Live, token) -> Seat:
        return self._seats_held(live, token)[0]

    def _seats_held(self, live: Live, token, fresh: bool = False) -> List[Seat]:
        """The seats the token(s) hold (a browser's cookie may hold several), checked
        against the database: a link issued anew, or a seat joined, on another worker
        counts at once (401 without a token, 403 if none holds a seat). ``fresh``: the
        request read them already (``get`` does, with the game's freshness)."""
        tokens = [token] if isinstance(token, str) else [t for t in token or () if t]
        if not tokens:
            raise Refusal(401, "a seat's bearer token is needed")
        if not fresh:
            self.check_seats(live)
        held = [s for s in live.seats if s.token and
                any(secrets.compare_digest(s.token.encode(), t.encode()) for t in tokens)]
        if not held:
            raise Refusal(403, "that token holds no seat in this game")
        return held

    def act(self, game_id: int, token, entry) -> dict:
        """Apply and store an entry posted by the seat a token holds (of several, the one
        that may take it)."""
        entry = inputs.entry(entry)
        live = self.get(game_id)
        with live.lock:
            seats = self._seats_held(live, token, fresh=True)
            if live.standing.read_only:
                raise live.standing.refusal(game_id)
            if entry.get("id") != live.number + 1:
                self._catch_up(live, check=True)      # perhaps stored by another worker
            seat = self._checked(live, seats, entry)
            if deal_of(live.game, entry) is not None:
                stored = self.proposals.propose(live, seat, entry)
            else:
                stored = self._apply_and_store(live, entry)
            start = self.claim_bots(live)
        if start:
            self.start_bots(live)
        return stored

    def act_now(self, game_id: int, token, entry, fresh: Optional[tuple] = None,
                guarded: bool = False) -> Optional[Storing]:
        """``act`` on the event loop, for an action that needs nothing but the game held in
        memory (see ``held_now``): at the number the game expects, not a proposal (that is
        stored with the proposals). The entry is applied and handed to the log's writer;
        the game's lock stays held until ``stored`` is told the writer committed it, so
        that nobody sees the entry before it is stored (a request meanwhile waits, or from
        the loop goes to a thread). None: ask ``act``, in a thread.

        ``guarded`` (workers sharing the database, the game's freshness not read): the game
        as held here is taken as the log's newest, and the writer checks that as it commits
        (``db.Guard``: an entry stored elsewhere meanwhile took the number; the seat's link
        issued anew; a proposal made); any refusal here may come from what another worker
        changed, so it is None instead: ask again with the freshness read."""
        entry = inputs.entry(entry)
        live = self.held_now(game_id, fresh, guarded)
        if live is None:
            return None
        try:
            seats = self._seats_held(live, token, fresh=True)
            if live.standing.read_only:
                raise live.standing.refusal(game_id)
            if entry.get("id") == live.number + 1:
                seat = self._checked(live, seats, entry)
                if deal_of(live.game, entry) is None:
                    number, stored = self._apply(live, entry)
                    live.storing = True
                    guard = Guard(seat.player_id, seat.token) if guarded else None
                    text = self.store.entry_text(stored)
                    return Storing(live, number, stored, text,
                                   self.store.submit(live.id, number, text, guard))
        except Refusal:
            live.lock.release()
            if guarded:
                return None
            raise
        except BaseException:
            live.lock.release()
            raise
        live.lock.release()
        return None

    def stored(self, storing: Storing, error: Optional[BaseException]) -> dict:
        """The end of ``act_now``, once the writer answered: the entry committed (told to
        the listeners), or refused by the database (the game forgotten, to be rebuilt from
        the log); the game's lock let go, and the bots started if it is their turn."""
        live, start = storing.live, False
        try:
            if error is not None:
                raise self._not_stored(live, storing.number, error)
            live.hooks_seen = (storing.number, storing.done.result())
            self.publish(live.id, storing.number, storing.stored, storing.text)
            start = self.claim_bots(live)
        finally:
            live.storing = False
            live.lock.release()
        if start:
            self.start_bots(live)
        return storing.stored

    def _checked(self, live: Live, seats: List[Seat], entry: dict) -> Seat:
        """The seat of ``seats`` that may post the entry where the game stands: while a
        proposal waits only chat goes on, the entry has the next number, a game over
        takes only chat (the first refusal if none may)."""
        if live.talks.pending is not None and entry["type"] != "message":
            raise self.proposals.waiting(live)
        self._check_number(live, entry)
        if live.game.is_over and entry["type"] != "message":
            raise Refusal(409, f"game {live.id} is over: it stays as it ended (chat "
                          "is still open)")
        return self._check_one_of(live, seats, entry)

    def _check_one_of(self, live: Live, seats: List[Seat], entry: dict) -> Seat:
        """The seat of ``seats`` that may post the entry (the first refusal if none)."""
        refused = None
        for seat in seats:
            try:
                self._check_seat(live, seat, entry)
                return seat
            except Refusal as e:
                refused = refused or e
        raise refused

    @staticmethod
    def _check_number(live: Live, entry: dict) -> None:
        expected = live.number + 1
        if type(entry.get("id")) is not int:
            raise Refusal(422, f"an action's id is the next action number, {expected} "
                          f"(an integer), not {entry.get('id')!r}")
        if entry["id"] != expected:
            raise Refusal(409, f"the next action number is {expected}, not {entry.get('id')!r}"
                          " (the game has moved on: reload it)")

    @staticmethod
    def _check_seat(live: Live, seat: Seat, entry: dict) -> None:
        game = live.game
        kind = entry["type"]
        if kind == "message":
            if entry.get("entity") != seat.player_id or entry.get("entity_type") != "player":
                raise Refusal(403, "a message is sent by one's own player")
            return
        if kind == "undo" and "action_id" in entry:
            target = live.undo_target(seat.player_id)
            if target is None or entry["action_id"] != target:
                raise Refusal(403, "a seat may undo back to before its own last action, "
                              f"when only bots acted since (here: action_id {target})")
            return
        if kind == "undo":
            if not game.actions:
                raise Refusal(422, "nothing to undo")
            whose = seat_of(game, game.actions[-1])
        elif kind == "redo":
            groups = game.history.redo_groups
            if not groups or not groups[-1]:
                raise Refusal(422, "nothing to redo")
            whose = seat_of(game, groups[-1][0][0])
        else:
            whose = seat_of(game, entry)
            if whose is None:
                raise Refusal(422, f"{entry.get('entity_type')} {entry.get('entity')!r} is "
                              "no entity of this game that a player acts for")
        if whose != seat.player_id:
            raise Refusal(403, f"this seat (player {seat.player_id}) may not act for "
                          f"{entry.get('entity_type')} {entry.get('entity')!r}"
                          if kind not in ("undo", "redo") else
                          f"only the player who took the action may {kind} it")

    def _apply_and_store(self, live: Live, entry: dict) -> dict:
        number, stored = self._apply(live, entry)
        try:
            self.store.append(live.id, number, stored)
        except SQLAlchemyError as e:
            raise self._not_stored(live, number, e)
        self.publish(live.id, number, stored)
        return stored

    @staticmethod
    def _apply(live: Live, entry: dict) -> Tuple[int, dict]:
        """Apply the entry (422 with the rule's message if refused): its number and the
        entry as the log keeps it."""
        if live.standing.read_only:
            raise live.standing.refusal(live.id)
        entry = dict(entry)
        entry.setdefault("created_at", int(time.time()))
        number = live.number + 1
        try:
            live.apply(entry, auto=entry["type"] not in ("undo", "redo", "message"))
        except GameError as e:
            raise Refusal(422, str(e))
        return number, live.game.history.entries[-1]

    def _not_stored(self, live: Live, number: int, error: BaseException) -> Refusal:
        """An entry applied that the database did not store: the game is forgotten (the
        log rebuilds it without the entry) and the poster told."""
        self.forget(live.id)
        if isinstance(error, IntegrityError):       # another worker stored that number first
            return Refusal(409, f"action {number} was taken by someone else: reload the game")
        if isinstance(error, Unguarded) and error.what == "token":
            return Refusal(403, "that token holds no seat in this game")
        if isinstance(error, Unguarded):            # a proposal made on another worker
            return Refusal(409, "a proposal waits for its answer: the game stands still "
                           "meanwhile (reload the game)")
        return Refusal(503, f"the action could not be stored ({type(error).__name__}); "
                       "nothing was kept: try again")
