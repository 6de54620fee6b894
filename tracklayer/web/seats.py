"""What a seat and a game's creator may change besides the game: a seat's turn webhook
(set, removed and tried by the seat, with its own token), and a new link for a seat (by
the creator, with the creator token given when the game was made; the old link stops
working). The JSON routes are under ``/api``; the creator's page is ``/games/{id}/manage``.

Every body is small: over :data:`MAX_BODY` bytes is refused (413) before it is read."""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Optional
from urllib.parse import parse_qs

from fastapi import APIRouter, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from . import webhooks
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


def _bearer(authorization: Optional[str]) -> Optional[str]:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def seat_row(service: Service, game_id: int, token: Optional[str]):
    """The stored seat a token holds in a game (401 without one, 403 for a wrong one)."""
    if not token:
        raise Refusal(401, "a seat's bearer token is needed")
    if service.store.game(game_id) is None:
        raise Refusal(404, f"no game {game_id}")
    row = next((s for s in service.store.seats(game_id) if s.token and
                secrets.compare_digest(s.token.encode(), token.encode())), None)
    if row is None:
        raise Refusal(403, "that token holds no seat in this game")
    return row


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
async def put_webhook(game_id: int, request: Request,
                      authorization: Optional[str] = Header(None)):
    """Set (``{"url": "https://…", "seat_link": false}``) or, with no url, remove the
    webhook of the seat the bearer token holds."""
    body = await _json_object(request)
    return await run_in_threadpool(set_webhook, request.app.state.service, game_id,
                                   _bearer(authorization), body,
                                   webhooks.site_of(request.base_url))


@router.delete("/api/games/{game_id}/webhook")
async def delete_webhook(game_id: int, request: Request,
                         authorization: Optional[str] = Header(None)):
    return await run_in_threadpool(set_webhook, request.app.state.service, game_id,
                                   _bearer(authorization), {}, None)


def try_webhook(service: Service, game_id: int, token: Optional[str]) -> dict:
    row = seat_row(service, game_id, token)
    if not row.webhook_url:
        raise Refusal(409, "this seat has no webhook: save one first")
    title = service.store.game(game_id).title
    return webhooks.post(row.webhook_url, webhooks.trial_message(row, game_id, title))


@router.post("/api/games/{game_id}/webhook/test")
async def test_webhook(game_id: int, request: Request,
                       authorization: Optional[str] = Header(None)):
    """Send the seat's webhook a message now: whether it took it."""
    await _small_body(request)
    return await run_in_threadpool(try_webhook, request.app.state.service, game_id,
                                   _bearer(authorization))


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
        "id": game_id, "title": row.title, "key": key, "issued": issued, "error": "",
        "seats": service.store.seats(game_id)})


def _problem(request: Request, e: Refusal):
    return templates.TemplateResponse(request, "problem.html", {"message": e.message},
                                      status_code=e.status)


@router.get("/games/{game_id}/manage", response_class=HTMLResponse)
async def manage(request: Request, game_id: int,
                 key: Optional[str] = Query(None, max_length=200)):
    try:
        return await run_in_threadpool(_manage, request, game_id, key)
    except Refusal as e:
        return _problem(request, e)


@router.post("/games/{game_id}/manage", response_class=HTMLResponse)
async def manage_reissue(request: Request, game_id: int):
    try:
        form = await _form(request)
        key = form.get("key")
        try:
            position = int(form.get("seat", ""))
        except ValueError:
            raise Refusal(422, "which seat? (its position, from 0)")
        issued = await run_in_threadpool(reissue, request.app.state.service, game_id, key,
                                         position)
        return await run_in_threadpool(_manage, request, game_id, key, issued)
    except Refusal as e:
        return _problem(request, e)
