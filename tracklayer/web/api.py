"""The JSON API (what the pages use too): create, import, read, list legal actions, act,
and a Server-Sent Events stream of accepted entries. Answers are plain JSON of plain data,
written as they are (no encoder walking them first: a long game's export is large)."""

from __future__ import annotations

import json
from typing import Optional

from fastapi import APIRouter, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from sse_starlette.sse import EventSourceResponse

from . import credentials, guard, inputs
from .service import Refusal

router = APIRouter(prefix="/api")


bearer = credentials.bearer


async def _body(request: Request):
    try:
        return guard.parse_json(await request.body())
    except guard.BadJSON as e:
        raise Refusal(422, f"the body is not JSON the app reads: {e}")


@router.post("/games", status_code=201)
async def create_game(request: Request):
    body = await _body(request)
    return await run_in_threadpool(request.app.state.service.create, body)


@router.post("/games/import", status_code=201)
async def import_game(request: Request):
    body = await _body(request)
    return await run_in_threadpool(request.app.state.service.import_export, body)


def _export(service, game_id: int) -> dict:
    live = service.get(game_id)
    with live.lock:
        data = live.game.export()
        data["id"] = game_id
        data["players"] = [{"id": s.player_id, "name": s.name} for s in live.seats]
        return data


@router.get("/games/{game_id}")
async def get_game(game_id: int, request: Request):
    return JSONResponse(await run_in_threadpool(_export, request.app.state.service, game_id))


@router.get("/games/{game_id}/legal")
async def legal(game_id: int, request: Request):
    """The legal actions of the seat the bearer token (or the page's cookie) holds."""
    return JSONResponse(await run_in_threadpool(request.app.state.service.legal, game_id,
                                                credentials.tokens(request, game_id)))


@router.post("/games/{game_id}/actions", status_code=201)
async def act(game_id: int, request: Request):
    body = await _body(request)
    return JSONResponse(await run_in_threadpool(request.app.state.service.act, game_id,
                                                credentials.tokens(request, game_id), body),
                        status_code=201)


@router.get("/games/{game_id}/events")
async def events(game_id: int, request: Request, last_event_id: Optional[str] = Header(None),
                 after: Optional[int] = Query(None, ge=0, le=inputs.MAX_ID)):
    """Every entry after ``Last-Event-ID`` (or ``?after=``) from the log, then each new one
    as it is stored; the event id is the entry's number."""
    service = request.app.state.service
    broker = request.app.state.broker
    await run_in_threadpool(service.get, game_id)          # 404 before the stream opens
    last = inputs.after(last_event_id) if last_event_id else (after or 0)

    async def stream():
        nonlocal last
        with broker.listen(game_id) as queue:
            behind = True               # read the log: at the start, and after a gap
            while True:
                if behind:
                    for number, entry in await run_in_threadpool(service.store.entries,
                                                                 game_id, last):
                        last = number
                        yield {"id": str(number), "event": "entry", "data": json.dumps(entry)}
                    behind = False
                number, entry = await queue.get()
                if number == last + 1:
                    last = number
                    yield {"id": str(number), "event": "entry", "data": json.dumps(entry)}
                elif number > last + 1:
                    behind = True       # missed one: the log fills the gap
                # else: an older one, already sent

    return EventSourceResponse(stream(), ping=15)


def refusal_handler(_request: Request, exc: Refusal) -> JSONResponse:
    return JSONResponse({"error": exc.message}, status_code=exc.status)


def database_away(_request: Request, exc: Exception) -> JSONResponse:
    """The database could not answer (restarted, unreachable): nothing changed, try again."""
    return JSONResponse({"error": "the database could not be reached "
                         f"({type(exc).__name__}): try again"}, status_code=503)
