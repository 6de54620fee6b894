"""How a browser holds its seats with no token in any URL after the first visit.

A seat link (``/games/{id}?token=…``, what a game's creator hands out; a hotseat link has
several) is a first visit: the server keeps the link's tokens in an HttpOnly cookie for that
game (``seats-{id}``) and sends the browser on to the same page without them, so that
neither the address bar, the history nor a later request holds a token. The page's own
requests carry the cookie; its HTML holds no token (a seat is named by its player,
``seat-2``). A creator's link (``/games/{id}/manage?key=…``) is kept the same way
(``manage-{id}``). API clients send ``Authorization: Bearer TOKEN``.

A request that changes something on the strength of a cookie must come from the app's own
pages: the cookie is ``SameSite=Lax``, and the request's ``Origin`` (when the browser sends
one) must be the app's own."""

from __future__ import annotations

import dataclasses
import re
from typing import Dict, List, Optional

from fastapi import Request
from fastapi.responses import Response

from .refusal import Refusal

COOKIE_AGE = 365 * 24 * 3600
TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
MAX_HELD = 6                      # seats one cookie holds (a hotseat game's people)


def seat_cookie(game_id: int) -> str:
    return f"seats-{game_id}"


def manage_cookie(game_id: int) -> str:
    return f"manage-{game_id}"


def bearer(authorization: Optional[str]) -> Optional[str]:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip() or None
    return None


def held(request: Request, name: str) -> List[str]:
    """The well-formed tokens a cookie holds."""
    raw = request.cookies.get(name) or ""
    return [t for t in raw.split(".") if TOKEN.match(t)][:MAX_HELD]


def same_origin(request: Request) -> bool:
    """Does the request come from the app's own pages (as far as the browser says)?"""
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site in ("same-origin", "none")
    origin = request.headers.get("origin")
    return origin is None or origin.split("://", 1)[-1] == request.headers.get("host")


def tokens(request: Request, game_id: int) -> List[str]:
    """The seat tokens a request carries: its bearer token, else its cookie's for the game
    (403 if a cookie is to change something from another site's page)."""
    found = bearer(request.headers.get("authorization"))
    if found:
        return [found]
    cookie = held(request, seat_cookie(game_id))
    if cookie and request.method not in ("GET", "HEAD") and not same_origin(request):
        raise Refusal(403, "a seat's cookie acts only from this site's own pages")
    return cookie


def creator_key(request: Request, game_id: int, given: Optional[str] = None) -> Optional[str]:
    """The creator's key a request carries: given (bearer or form), else the cookie's."""
    if given:
        return given
    cookie = held(request, manage_cookie(game_id))
    if cookie and request.method not in ("GET", "HEAD") and not same_origin(request):
        raise Refusal(403, "the creator's cookie acts only from this site's own pages")
    return cookie[0] if cookie else None


def keep(response: Response, request: Request, name: str, values: List[str],
         paths: List[str]) -> Response:
    """Set the cookie ``name`` to ``values`` for each of ``paths`` (HttpOnly, a year): a
    game's cookie goes only with that game's requests."""
    for path in paths:
        response.set_cookie(name, ".".join(values), max_age=COOKIE_AGE, path=path,
                            httponly=True, samesite="lax",
                            secure=request.url.scheme == "https")
    return response


def keep_seats(response: Response, request: Request, game_id: int,
               tokens: List[str]) -> Response:
    """The seats' cookie, for the game's pages and its API."""
    return keep(response, request, seat_cookie(game_id), tokens,
                [f"/games/{game_id}", f"/api/games/{game_id}"])


def keep_key(response: Response, request: Request, game_id: int, key: str) -> Response:
    """The creator's cookie, for the game's manage page."""
    return keep(response, request, manage_cookie(game_id), [key], [f"/games/{game_id}/manage"])


def marker(seat) -> str:
    """What a page says instead of a seat's token: which seat, nothing secret."""
    return f"seat-{seat.player_id}"


def without_tokens(v: Dict) -> Dict:
    """A game view (``view.build``) whose seats and buttons name seats by marker instead of
    by token (the browser's cookie holds the tokens)."""
    seats = list(v.get("mine") or []) + ([v["me"]] if v.get("me") else [])
    named = {s.token: marker(s) for s in seats if s.token}

    def hide(token):
        return named.get(token, "") if token else token

    v["mine"] = [dataclasses.replace(s, token=hide(s.token)) for s in v.get("mine") or []]
    if v.get("me"):
        v["me"] = dataclasses.replace(v["me"], token=hide(v["me"].token))
    for key in ("token", "undo_token", "redo_token"):
        if key in v:
            v[key] = hide(v[key])
    if v.get("undo_back"):
        v["undo_back"] = dict(v["undo_back"], token=hide(v["undo_back"].get("token")))
    return v
