"""The JSON API (what the pages use too): create, import, read, list legal actions, act,
proposals (trades between different owners: an action needing the other side's consent
answers 202 with its proposal, which that side accepts or declines and its proposer may
withdraw), and a Server-Sent Events stream of accepted entries and proposals. The two
requests a game is played by, its legal actions and an action posted, are answered on a
shorter path (``play_path``). Answers are
plain JSON of plain data, written as they are (no encoder walking them first: a long
game's export is large), by ``encoding.dumps``."""

from __future__ import annotations

from typing import Optional

from fastapi import APIRouter, Header, Query, Request
from fastapi.concurrency import run_in_threadpool
from sse_starlette.sse import EventSourceResponse, ServerSentEvent

from . import credentials, guard, inputs
from .encoding import Answer
from .events import NOTICE
from .refusal import Refusal

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
    return Answer(await run_in_threadpool(_export, request.app.state.service, game_id))


@router.get("/games/{game_id}/proposals")
async def proposals(game_id: int, request: Request):
    """The proposal waiting for its answer (or null) and the game's latest proposals."""
    return Answer(await run_in_threadpool(
        request.app.state.service.proposals.listing, game_id))


@router.post("/games/{game_id}/proposals/{proposal_id}/{how}")
async def answer(game_id: int, proposal_id: int, how: str, request: Request):
    """``how``: ``accept`` or ``decline`` (by its responder), ``withdraw`` (by its
    proposer); an accepted proposal's action is stored (as ``entry``). Answered by
    ``web.play_path`` when both ids are plain numbers (of up to 18 digits); here, the
    rest."""
    return Answer(await run_in_threadpool(
        request.app.state.service.proposals.answer, game_id,
        credentials.tokens(request, game_id), proposal_id, how))


@router.get("/games/{game_id}/events")
async def events(game_id: int, request: Request, last_event_id: Optional[str] = Header(None),
                 after: Optional[int] = Query(None, ge=0, le=inputs.MAX_ID)):
    """Every entry after ``Last-Event-ID`` (or ``?after=``) from the log, then each new one
    as it is stored; the event id is the entry's number. Proposals made and answered come
    as events ``proposal`` (no id)."""
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
                    for number, data in await run_in_threadpool(service.store.entry_texts,
                                                                game_id, last):
                        last = number
                        yield _event("entry", data, number)
                    behind = False
                number, data = await queue.get()
                if number == NOTICE:
                    yield _event("proposal", data)
                elif number == last + 1:
                    last = number
                    yield _event("entry", data, number)
                elif number > last + 1:
                    behind = True       # missed one: the log fills the gap
                # else: an older one, already sent

    return EventSourceResponse(stream(), ping=15)


def _event(kind: str, data: str, number: Optional[int] = None) -> bytes:
    """One event of the stream, written as ``sse_starlette`` writes it (lines ending in
    CRLF), at once: the data is JSON, one line."""
    if "\n" in data or "\r" in data:
        return ServerSentEvent(data, event=kind, id=None if number is None else str(number)
                               ).encode()
    head = "" if number is None else f"id: {number}\r\n"
    return f"{head}event: {kind}\r\ndata: {data}\r\n\r\n".encode()


def refusal_handler(_request: Request, exc: Refusal) -> Answer:
    return Answer({"error": exc.message}, status_code=exc.status)


def database_away(_request: Request, exc: Exception) -> Answer:
    """The database could not answer (restarted, unreachable): nothing changed, try again."""
    return Answer({"error": "the database could not be reached "
                         f"({type(exc).__name__}): try again"}, status_code=503)
