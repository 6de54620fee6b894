"""What a seat and a game's creator may change besides the game: a seat's turn webhook
(set, removed and tried by the seat, with its own token), and a new link for a seat (by
the creator, with the creator token given when the game was made; the old link stops
working). The JSON routes are under ``/api``; the creator's page is ``/games/{id}/manage``.
A seat's token comes as a bearer token or in the game page's cookie (``X-Seat`` names which
of its seats); the creator's key as a bearer token, in the manage form, or in the cookie a
first visit of the creator's link leaves (see credentials).

Every body is small: over :data:`MAX_BODY` bytes is refused (413) before it is read."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Optional
from urllib.parse import parse_qs

from fastapi import APIRouter, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

from . import credentials, webhooks
from .service import Refusal, Service

router = APIRouter()
templates = Jinja2Templates(directory=str(Path(__file__).resolve().parent / "templates"))
MAX_BODY = 16 * 1024


async def _small_body(request: Request) -> bytes:
    length = request.headers.get("content-length")
    if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
        raise Refusal(413, f"the body is over {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refusal(413, f"the body is over {MAX_BODY} bytes")
    return body


async def _json_object(request: Request) -> dict:
    try:
        body = json.loads(await _small_body(request) or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise Refusal(422, "the body is not JSON")
    if not isinstance(body, dict):
        raise Refusal(422, "the body must be a JSON object")
    return body


async def _form(request: Request) -> dict:
    """A small urlencoded form: each field's first value."""
    try:
        text = (await _small_body(request)).decode("utf-8")
        return {k: v[0] for k, v in parse_qs(text, max_num_fields=20).items()}
    except (UnicodeDecodeError, ValueError):
        raise Refusal(422, "the form could not be read")


_bearer = credentials.bearer


class Seats:
    """The seat tokens a request carries (bearer, or the page's cookie) and the player
    whose seat it asks for (``X-Seat``, when a cookie holds several)."""

    def __init__(self, request: Request, game_id: int) -> None:
        self.tokens = credentials.tokens(request, game_id)
        wanted = request.headers.get("x-seat") or ""
        self.player = int(wanted) if wanted.isdigit() and len(wanted) < 6 else None


def seat_row(service: Service, game_id: int, token):
    """The stored seat a token holds in a game (401 without one, 403 for a wrong one); of
    a cookie's several, the one asked for."""
    asked = token if isinstance(token, Seats) else None
    tokens = asked.tokens if asked else [token] if token else []
    if not tokens:
        raise Refusal(401, "a seat's bearer token is needed")
    if service.store.game(game_id) is None:
        raise Refusal(404, f"no game {game_id}")
    rows = [s for s in service.store.seats(game_id) if s.token and
            any(secrets.compare_digest(s.token.encode(), t.encode()) for t in tokens)]
    if asked and asked.player is not None:
        rows = [s for s in rows if s.player_id == asked.player]
    if not rows:
        raise Refusal(403, "that token holds no seat in this game")
    return rows[0]


# -- the seat's webhook ---------------------------------------------------------------------

def set_webhook(service: Service, game_id: int, token: Optional[str], body: dict,
                site: Optional[str]) -> dict:
    row = seat_row(service, game_id, token)
    url = body.get("url")
    seat_link = body.get("seat_link", False)
    if not isinstance(seat_link, bool):
        raise Refusal(422, "seat_link is true or false")
    url = webhooks.check_url(url) if url not in (None, "") else None
    service.store.set_webhook(game_id, row.position, url, site, seat_link)
    return {"player_id": row.player_id, "url": url, "seat_link": bool(url) and seat_link}


@router.put("/api/games/{game_id}/webhook")
async def put_webhook(game_id: int, request: Request):
    """Set (``{"url": "https://…", "seat_link": false}``) or, with no url, remove the
    webhook of the seat the bearer token holds."""
    body = await _json_object(request)
    return await run_in_threadpool(set_webhook, request.app.state.service, game_id,
                                   Seats(request, game_id), body,
                                   webhooks.site_of(request.base_url))


@router.delete("/api/games/{game_id}/webhook")
async def delete_webhook(game_id: int, request: Request):
    return await run_in_threadpool(set_webhook, request.app.state.service, game_id,
                                   Seats(request, game_id), {}, None)


def try_webhook(service: Service, game_id: int, token: Optional[str]) -> dict:
    row = seat_row(service, game_id, token)
    if not row.webhook_url:
        raise Refusal(409, "this seat has no webhook: save one first")
    title = service.store.game(game_id).title
    return webhooks.post(row.webhook_url, webhooks.trial_message(row, game_id, title))


@router.post("/api/games/{game_id}/webhook/test")
async def test_webhook(game_id: int, request: Request):
    """Send the seat's webhook a message now: whether it took it."""
    await _small_body(request)
    return await run_in_threadpool(try_webhook, request.app.state.service, game_id,
                                   Seats(request, game_id))


# -- the creator: a seat's new link -------------------------------------------------------

def creator_game(service: Service, game_id: int, key: Optional[str]):
    """The game, if ``key`` is its creator token (401 without, 403 wrong, 404 no game)."""
    row = service.store.game(game_id)
    if row is None:
        raise Refusal(404, f"no game {game_id}")
    if not key:
        raise Refusal(401, "the creator's key is needed")
    if not row.creator_token or not secrets.compare_digest(row.creator_token.encode(),
                                                           key.encode()):
        raise Refusal(403, "that key does not manage this game")
    return row


def reissue(service: Service, game_id: int, key: Optional[str], position) -> dict:
    """A new token for a person's seat; the old one is void from now on."""
    creator_game(service, game_id, key)
    if isinstance(position, bool) or not isinstance(position, int):
        raise Refusal(422, "which seat? (its position, from 0)")
    live = service.get(game_id)
    with live.lock:
        service.refresh_seats(live)
        seat = next((s for s in live.seats if s.position == position), None)
        if seat is None:
            raise Refusal(404, f"game {game_id} has no seat {position + 1}")
        if seat.bot:
            raise Refusal(409, f"seat {position + 1} is played by the {seat.bot} bot")
        if not seat.token:
            raise Refusal(409, f"seat {position + 1} is open: anyone may join it from the lobby")
        token = secrets.token_urlsafe(24)
        service.store.reissue(game_id, position, token)
        service.refresh_seats(live)
    return {"position": position, "player_id": seat.player_id, "name": seat.name,
            "token": token}


@router.post("/api/games/{game_id}/seats/{position}/token")
async def new_token(game_id: int, position: int, request: Request,
                    authorization: Optional[str] = Header(None)):
    """A new link for seat ``position`` (from 0), with the creator token as bearer."""
    await _small_body(request)
    return await run_in_threadpool(reissue, request.app.state.service, game_id,
                                   _bearer(authorization), position)


def _manage(request: Request, game_id: int, key: Optional[str], issued=None):
    service = request.app.state.service
    row = creator_game(service, game_id, key)
    return templates.TemplateResponse(request, "manage.html", {
        "id": game_id, "title": row.title, "issued": issued, "error": "",
        "seats": service.store.seats(game_id), "standing": service.get(game_id).standing})


def _problem(request: Request, e: Refusal):
    return templates.TemplateResponse(request, "problem.html", {"message": e.message},
                                      status_code=e.status)


@router.get("/games/{game_id}/manage", response_class=HTMLResponse)
async def manage(request: Request, game_id: int,
                 key: Optional[str] = Query(None, max_length=200)):
    """The creator's page; the link's first visit (``?key=``) leaves the key in the
    browser's cookie for the game and comes back here without it."""
    try:
        if key:
            await run_in_threadpool(creator_game, request.app.state.service, game_id, key)
            return credentials.keep_key(RedirectResponse(f"/games/{game_id}/manage",
                                                          status_code=303),
                                        request, game_id, key)
        return await run_in_threadpool(_manage, request, game_id,
                                       credentials.creator_key(request, game_id))
    except Refusal as e:
        return _problem(request, e)


@router.post("/games/{game_id}/manage", response_class=HTMLResponse)
async def manage_reissue(request: Request, game_id: int):
    try:
        form = await _form(request)
        key = credentials.creator_key(request, game_id, form.get("key"))
        try:
            position = int(form.get("seat", ""))
        except ValueError:
            raise Refusal(422, "which seat? (its position, from 0)")
        issued = await run_in_threadpool(reissue, request.app.state.service, game_id, key,
                                         position)
        return await run_in_threadpool(_manage, request, game_id, key, issued)
    except Refusal as e:
        return _problem(request, e)
