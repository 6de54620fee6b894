"""What the app refuses before any route runs, and what every answer carries.

The limits (the README lists them; :class:`Limits` holds them):

* a request body over its route's limit is refused with 413: an import (JSON or the
  lobby's form) may hold 5 MB, any other body 64 KB;
* JSON nested more than :data:`MAX_DEPTH` levels, or holding ``NaN`` or ``Infinity``, is
  refused with 422 (:func:`parse_json`);
* games made (created or imported, through the API or the lobby) from one client address:
  30 at once, then one every 10 seconds; past that, 429;
* refused credentials (a 401 or 403 answer to a request carrying a seat token or a
  creator key) from one client address: 20 at once, then one a second; past that every
  request carrying credentials from that address is answered 429 until it refills.

Every answer carries a Content-Security-Policy (scripts only from the app, no frames), no
MIME sniffing and no referrer to other sites (a first visit's link holds a token); an answer
to a request with credentials is not stored by caches. The access log shows ``token=`` and ``key=``
values in a query as ``…``.

Limits count per process: with several workers each keeps its own count.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, Optional, Tuple

MAX_DEPTH = 32
KB = 1024
MB = 1024 * KB
DRAIN_MAX = 64 * MB          # a body this large is read to its end before the 413
CREATING = {"/api/games", "/api/games/import", "/games", "/games/import"}
IMPORTING = {"/api/games/import", "/games/import"}
SECRET_QUERY = re.compile(r"((?:^|[?&])(?:token|key)=)[^&\s\"]*")
CSP = ("default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' "
       "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = [(b"content-security-policy", CSP.encode()),
           (b"x-content-type-options", b"nosniff"),
           (b"referrer-policy", b"same-origin"),
           (b"x-frame-options", b"DENY")]


class BadJSON(ValueError):
    """A body that is not JSON the app reads (the message says why)."""


@dataclass(frozen=True)
class Limits:
    body: int = 64 * KB
    import_body: int = 5 * MB
    games_burst: int = 30
    games_per_minute: float = 6.0          # 0: no limit on games made
    auth_burst: int = 20
    auth_per_second: float = 1.0

    def body_limit(self, path: str) -> int:
        return self.import_body if path in IMPORTING else self.body


# -- JSON ---------------------------------------------------------------------------------

def _refuse_constant(name: str):
    raise BadJSON(f"{name} is not a number JSON allows")


def depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar: 0), level by level without
    recursion; -1 if a number in it is too large for a float (``1e999`` reads as
    infinity)."""
    deepest, level = 0, [value]
    while level:
        below, nested = [], False
        for item in level:
            kind = type(item)
            if kind is dict:
                below.extend(item.values())
                nested = True
            elif kind is list:
                below.extend(item)
                nested = True
            elif kind is float and not math.isfinite(item):
                return -1
        if not nested:
            return deepest
        deepest += 1
        if deepest > MAX_DEPTH:
            return deepest
        level = below
    return deepest


def parse_json(text) -> Any:
    """JSON text (str or UTF-8 bytes) as Python values; :class:`BadJSON` if it is not JSON,
    nests deeper than :data:`MAX_DEPTH` or holds NaN, Infinity or a number too large."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except RecursionError:
        raise BadJSON(f"JSON nested more than {MAX_DEPTH} deep is refused") from None
    except UnicodeDecodeError:
        raise BadJSON("the body is not UTF-8 text") from None
    except BadJSON:
        raise
    except ValueError as e:
        raise BadJSON(f"not JSON: {e}") from None
    found = depth(value)
    if found > MAX_DEPTH:
        raise BadJSON(f"JSON nested more than {MAX_DEPTH} deep is refused")
    if found < 0:
        raise BadJSON("a number is too large")
    return value


# -- rates --------------------------------------------------------------------------------

def now() -> float:
    """The buckets' clock (seconds)."""
    return time.monotonic()


class Bucket:
    """A token bucket per client address: ``burst`` at once, refilled at ``rate`` a
    second."""

    def __init__(self, burst: int, rate: float, clock: Optional[Callable[[], float]] = None):
        self.burst, self.rate = burst, rate
        self.clock = clock or (lambda: now())
        self.held: Dict[str, Tuple[float, float]] = {}
        self.lock = threading.Lock()

    def _level(self, who: str, now: float) -> float:
        level, then = self.held.get(who, (float(self.burst), now))
        return min(float(self.burst), level + (now - then) * self.rate)

    def take(self, who: str) -> bool:
        """Take one for ``who``: False (nothing taken) if the bucket is empty."""
        if self.rate <= 0:
            return True
        now = self.clock()
        with self.lock:
            level = self._level(who, now)
            if level < 1:
                self.held[who] = (level, now)
                return False
            self.held[who] = (level - 1, now)
            if len(self.held) > 10000:
                self._forget_full(now)
            return True

    def empty(self, who: str) -> bool:
        if self.rate <= 0:
            return False
        with self.lock:
            return self._level(who, self.clock()) < 1

    def wait(self, who: str) -> int:
        """Seconds until ``who`` may again."""
        with self.lock:
            level = self._level(who, self.clock())
        return max(1, math.ceil((1 - level) / self.rate)) if self.rate > 0 else 0

    def _forget_full(self, now: float) -> None:
        for who in [w for w in self.held if self._level(w, now) >= self.burst]:
            del self.held[who]


# -- the middleware -----------------------------------------------------------------------

def _header(scope, name: bytes) -> Optional[bytes]:
    for k, v in scope.get("headers") or ():
        if k == name:
            return v
    return None


def carries_credentials(scope) -> bool:
    """Does the request hold a seat token or creator key (header, cookie or query)?"""
    if _header(scope, b"authorization"):
        return True
    cookie = _header(scope, b"cookie") or b""
    if b"seats-" in cookie or b"manage-" in cookie:
        return True
    query = scope.get("query_string") or b""
    return bool(re.search(rb"(?:^|&)(?:token|key)=", query))


async def _reply(send, scope, status: int, message: str, extra=()) -> None:
    if scope["path"].startswith("/api/"):
        body, kind = json.dumps({"error": message}).encode(), b"application/json"
    else:
        from html import escape
        body = (f"<!doctype html><meta charset=utf-8><title>{status}</title>"
                f"<p id=error>{escape(message)}</p><p><a href=/>Back to the lobby</a></p>"
                ).encode()
        kind = b"text/html; charset=utf-8"
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind),
                            (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")] + HEADERS + list(extra)})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The ASGI middleware applying :class:`Limits` and the headers (see the module)."""

    def __init__(self, app, limits: Limits = Limits()) -> None:
        self.app = app
        self.limits = limits
        self.games = Bucket(limits.games_burst, limits.games_per_minute / 60.0)
        self.refused = Bucket(limits.auth_burst, limits.auth_per_second)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        client = scope.get("client")
        who = client[0] if client else "?"
        credentials = carries_credentials(scope)
        if credentials and self.refused.empty(who):
            wait = self.refused.wait(who)
            return await _reply(send, scope, 429, "too many refused tokens from this "
                                f"address: wait {wait} s", [(b"retry-after", str(wait).encode())])
        method = scope["method"]
        if method in ("POST", "PUT", "PATCH", "DELETE"):
            limit = self.limits.body_limit(scope["path"])
            body, over = await _read_body(scope, receive, limit)
            if over:
                return await _reply(send, scope, 413, f"the body is over {limit} bytes")
            if method == "POST" and scope["path"] in CREATING and not self.games.take(who):
                wait = self.games.wait(who)
                return await _reply(send, scope, 429, "too many games made from this "
                                    f"address: wait {wait} s",
                                    [(b"retry-after", str(wait).encode())])
            receive = _replay(body, receive)

        async def answer(message) -> None:
            if message["type"] == "http.response.start":
                if credentials and message["status"] in (401, 403):
                    self.refused.take(who)
                headers = list(message.get("headers") or ()) + HEADERS
                if credentials:
                    headers.append((b"cache-control", b"no-store"))
                message = dict(message, headers=headers)
            await send(message)

        await self.app(scope, receive, answer)


async def _read_body(scope, receive, limit: int) -> Tuple[bytes, bool]:
    """The whole body, or (b"", True) if it is over ``limit`` (read to its end first, up to
    :data:`DRAIN_MAX`, so that the client hears the 413 instead of a reset)."""
    length = _header(scope, b"content-length")
    declared = int(length) if length is not None and length.isdigit() else None
    if length is not None and declared is None:
        return b"", True
    if declared is not None and declared > DRAIN_MAX:
        return b"", True
    chunks, size, over = [], 0, declared is not None and declared > limit
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            over = True
        if not over:
            chunks.append(chunk)
        if size > DRAIN_MAX or not message.get("more_body"):
            break
    return (b"", True) if over else (b"".join(chunks), False)


def _replay(body: bytes, then):
    """A ``receive`` that gives the body read, then waits on the connection as before."""
    sent = False

    async def receive():
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await then()
    return receive


# -- the access log -----------------------------------------------------------------------

# the two requests a game is played by (web.play_path): one of each per action
PLAYED = re.compile(r"^/api/games/[0-9]+/(legal|actions)$")


def left_out_of_access_log(args: tuple) -> bool:
    """Is the access log's line of these arguments (uvicorn's: address, method, path,
    HTTP version, status) one it leaves out: a game's listing or action answered as asked
    (below 400)?"""
    return len(args) >= 5 and isinstance(args[4], int) and args[4] < 400 and \
        isinstance(args[2], str) and PLAYED.match(args[2]) is not None


class HideSecrets(logging.Filter):
    """Uvicorn's access log, with the values of ``token=`` and ``key=`` hidden. A game's
    listings and actions answered as asked (below 400) are left out: a game played makes
    one of each per action, the log stores every accepted action anyway, and writing their
    lines cost the server as much as reading the game's freshness did; refused ones stay."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) >= 3 and \
                isinstance(record.args[2], str):
            if left_out_of_access_log(record.args):
                return False
            args = list(record.args)
            args[2] = SECRET_QUERY.sub(r"\1…", args[2])
            record.args = tuple(args)
        return True


def hide_secrets_in_access_log() -> None:
    log = logging.getLogger("uvicorn.access")
    if not any(isinstance(f, HideSecrets) for f in log.filters):
        log.addFilter(HideSecrets())
