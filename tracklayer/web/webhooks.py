"""Turn alerts by webhook: a seat may give a URL (``http`` or ``https``) to which the server
POSTs a JSON message each time it becomes that seat's turn, and once when the game ends.
The message is what chat tools' incoming webhooks take (``text``, and ``content`` for
Discord) with the facts beside it (``event``, ``game_id``, ``title``, ``seat``,
``player_id``, ``link``, ``entry``). Its link is the game's page, without the seat's secret
token unless the seat asked for its own link in it.

Nothing here runs on an action's path: the service tells :class:`Notifier` of each stored
entry, which queues it; a thread of its own works out whose turn it became, and a few
more send, each with a short timeout and no redirects; a failure is logged, never raised."""

from __future__ import annotations

import json
import logging
import queue
import threading
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from typing import Dict, Optional, Set
from urllib.parse import urlsplit

from .bots import seat_of
from .service import Refusal, Service

LOG = logging.getLogger(__name__)
MAX_URL = 500
TIMEOUT_S = 4.0


def check_url(url) -> str:
    """A webhook URL as given, if it is an absolute ``http``/``https`` URL with a host
    (422 otherwise)."""
    if not isinstance(url, str):
        raise Refusal(422, "the webhook must be a URL (text)")
    url = url.strip()
    if len(url) > MAX_URL:
        raise Refusal(422, f"the webhook URL is longer than {MAX_URL} characters")
    if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in url):
        raise Refusal(422, "the webhook URL may not hold spaces or control characters")
    try:
        parts = urlsplit(url)
        parts.port                                   # a bad port raises here
    except ValueError as e:
        raise Refusal(422, f"the webhook is not a URL: {e}")
    if parts.scheme not in ("http", "https"):
        raise Refusal(422, "a webhook is an http:// or https:// URL")
    if not parts.hostname:
        raise Refusal(422, "the webhook URL has no host")
    return url


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A webhook answers where it was asked: a redirect is a failure, not followed."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def post(url: str, body: dict, timeout: float = TIMEOUT_S) -> Dict:
    """POST ``body`` as JSON: ``{"ok", "status", "error"}``, never an exception."""
    request = urllib.request.Request(url, data=json.dumps(body).encode("utf-8"), method="POST",
                                     headers={"Content-Type": "application/json",
                                              "User-Agent": "tracklayer-turn-alerts"})
    try:
        with _opener.open(request, timeout=timeout) as answer:
            status = answer.status
    except urllib.error.HTTPError as e:
        status = e.code
    except Exception as e:          # unreachable, refused, timed out, a bad certificate …
        return {"ok": False, "status": None, "error": f"{type(e).__name__}: {e}"}
    ok = 200 <= status < 300
    return {"ok": ok, "status": status, "error": None if ok else f"answered {status}"}


def message(event: str, *, game_id: int, title: str, seat: str, player_id: int, link: str,
            entry: int, text: str) -> Dict:
    return {"text": text, "content": text, "event": event, "game_id": game_id,
            "title": title, "seat": seat, "player_id": player_id, "link": link,
            "entry": entry}


def link_for(seat_row, game_id: int) -> str:
    """The game's page on the site the seat set its webhook from; its own secret link only
    if the seat asked for it."""
    link = f"{seat_row.webhook_site or ''}/games/{game_id}"
    if seat_row.webhook_seat_link and seat_row.token:
        link += f"?token={seat_row.token}"
    return link


class Notifier:
    """Whose turn it became after each stored entry, told to their webhooks."""

    BATCH = 500                     # entries considered together at most

    def __init__(self, service: Service, timeout: float = TIMEOUT_S, senders: int = 4) -> None:
        self.service = service
        self.timeout = timeout
        self.queue: "queue.Queue" = queue.Queue(maxsize=10000)
        self.senders = ThreadPoolExecutor(senders, thread_name_prefix="webhook")
        self.acting: Dict[int, Set[int]] = {}      # game -> the seats last seen to act
        self.ended: Set[int] = set()
        self.thread = threading.Thread(target=self._run, name="turn-alerts", daemon=True)
        self.thread.start()

    def entry_stored(self, game_id: int, number: int, entry: dict) -> None:
        """Called where the entry is stored: queue it and return at once (nothing to do
        for a message, or where the writer said the game has no webhook to tell)."""
        if entry.get("type") == "message" or self._unhooked((game_id, number, entry)):
            return
        try:
            self.queue.put_nowait((game_id, number, entry))
        except queue.Full:
            LOG.warning("turn alerts: the queue is full; game %s entry %s not told",
                        game_id, number)

    def stop(self) -> None:
        self.queue.put(None)
        self.senders.shutdown(wait=False, cancel_futures=True)

    def _run(self) -> None:
        """Take the entries queued so far together: one query finds which of their games
        have a seat with a webhook (most have none), then each entry is considered."""
        while True:
            items = [self.queue.get()]
            while len(items) < self.BATCH:
                try:
                    items.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            stop = None in items
            items = [item for item in items if item is not None and not self._unhooked(item)]
            try:
                hooked = self.service.store.hooked_games({item[0] for item in items})
            except Exception:           # a database away: each entry asks on its own
                LOG.exception("turn alerts: the games with webhooks could not be read")
                hooked = None
            for item in items:
                try:
                    self._consider(*item, hooked=hooked)
                except Exception:       # a game that cannot be read, a database away …
                    LOG.exception("turn alerts for game %s failed", item[0])
            if stop:
                return

    def _unhooked(self, item: tuple) -> bool:
        """Did the writer say, as it stored this entry or a later one here, that its game
        has no seat with a webhook (``Live.hooks_seen``)? Then there is nobody to tell,
        and no query to ask (a game that had alerts going is always asked)."""
        game_id, number, _ = item
        with self.service.lock:
            live = self.service.live.get(game_id)
        if live is None or game_id in self.acting:
            return False
        seen, hooked = live.hooks_seen
        return seen >= number and hooked is False

    def _consider(self, game_id: int, number: int, entry: dict,
                  hooked: Optional[Set[int]] = None) -> None:
        store = self.service.store
        if hooked is None:
            hooked = store.hooked_games({game_id})
        hooks = {s.player_id: s for s in store.webhooks(game_id)} \
            if game_id in hooked else {}
        if not hooks:
            self.acting.pop(game_id, None)
            return
        live = self.service.get(game_id)
        with live.lock:
            if any(h.get("type") != "message" for h in live.game.history.entries[number:]):
                return                  # a later entry is queued: it decides
            actor = seat_of(live.game, entry)
            acting = set(live.acting_seats())
            game = live.game
            title, over = game.title.name, game.is_over
            where = f"{game.table.round.NAME} {game.state.turn}"
            ending = None
            if over:
                names = {s.player_id: s.name for s in live.seats}
                ending = ", ".join(f"{names.get(pid, pid)} {game.table.money(v)}"
                                   for pid, v in game.result().items())
        before = self.acting.get(game_id, {actor} if actor is not None else set())
        self.acting[game_id] = acting
        for pid in sorted(acting - before):
            seat = hooks.get(pid)
            if seat is not None:
                link = link_for(seat, game_id)
                self._send(seat.webhook_url, message(
                    "your_turn", game_id=game_id, title=title, seat=seat.name,
                    player_id=pid, link=link, entry=number,
                    text=f"Your turn, {seat.name}: {title}, game {game_id}, {where}. {link}"))
        if over and game_id not in self.ended:
            self.ended.add(game_id)
            for pid, seat in hooks.items():
                link = link_for(seat, game_id)
                self._send(seat.webhook_url, message(
                    "game_over", game_id=game_id, title=title, seat=seat.name,
                    player_id=pid, link=link, entry=number,
                    text=f"Game over: {title}, game {game_id}. {ending}. {link}"))

    def _send(self, url: str, body: dict) -> None:
        def go() -> None:
            result = post(url, body, self.timeout)
            if not result["ok"]:
                LOG.warning("turn alert to %s for game %s failed: %s",
                            urlsplit(url).hostname, body["game_id"], result["error"])
        try:
            self.senders.submit(go)
        except RuntimeError:            # shutting down
            pass


def trial_message(seat_row, game_id: int, title: str) -> Dict:
    link = link_for(seat_row, game_id)
    return message("test", game_id=game_id, title=title, seat=seat_row.name,
                   player_id=seat_row.player_id, link=link, entry=0,
                   text=f"tracklayer will tell {seat_row.name} here when it is their turn "
                        f"in {title}, game {game_id}. {link}")


def site_of(base_url: str) -> Optional[str]:
    """The site a request came to (``scheme://host[:port]``), for the links in messages."""
    site = str(base_url).rstrip("/")
    return site if len(site) <= 300 else None
