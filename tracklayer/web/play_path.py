"""The requests a game is played by, answered on a short path: the legal actions of a
seat (``GET /api/games/{id}/legal``), an action posted (``POST /api/games/{id}/actions``,
201 with the stored entry, or 202 with the proposal it made: a trade needing another seat's
consent), and a proposal's answer (``POST /api/games/{id}/proposals/{pid}/{how}``: accept,
decline or withdraw; the answered proposal, with the entry stored if it was accepted). A
game played flat out makes a listing and an action per action, so what a request costs
before and after the service's work counts: on the framework's path (dependency solving,
route matching, its exception layers) it cost about as much as the engine's work on the
action itself. This ASGI middleware sits inside the guard (body limits, rate limits,
headers: see guard), matches those paths itself and calls the service as the other
routes do; every other request goes on to the app's routes (an answer's path with ids
that are not plain numbers to ``api.answer``, which refuses them as it did).

Answers are those of the rest of the API: a :class:`Refusal` is ``{"error": ...}`` with
its status, a database that cannot be reached is 503 (``api.database_away``)."""

from __future__ import annotations

import asyncio
import re
from typing import Optional, Tuple

from anyio.to_thread import run_sync
from sqlalchemy.exc import OperationalError
from starlette.requests import Request

from . import credentials, guard
from .encoding import send_json
from .refusal import Refusal

PLAY = re.compile(r"^/api/games/([0-9]{1,18})/(legal|actions)$")
METHOD = {"legal": "GET", "actions": "POST"}
ANSWER = re.compile(r"^/api/games/([0-9]{1,18})/proposals/([0-9]{1,18})/([^/]+)$")


class PlayPath:
    """ASGI middleware: ``/legal`` and ``/actions`` of a game, straight to the service."""

    def __init__(self, app, service, reader=None) -> None:
        self.app = app
        self.service = service
        self.reader = reader            # workers sharing PostgreSQL: web.loop_reads

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        found = PLAY.match(scope["path"])
        if found is not None and METHOD[found[2]] != scope["method"]:
            found = None
        answer = ANSWER.match(scope["path"]) \
            if found is None and scope["method"] == "POST" else None
        if found is None and answer is None:
            return await self.app(scope, receive, send)
        request = Request(scope, receive)
        try:
            if answer is not None:
                content, status = await _answer(self.service, int(answer[1]),
                                                int(answer[2]), answer[3], request), 200
            elif found[2] == "legal":
                content, status = await _legal(self.service, int(found[1]), request,
                                               self.reader), 200
            else:
                content, status = await _act(self.service, int(found[1]), request,
                                             self.reader)
        except Refusal as e:
            content, status = {"error": e.message}, e.status
        except OperationalError as e:
            content, status = {"error": "the database could not be reached "
                               f"({type(e).__name__}): try again"}, 503
        await send_json(send, content, status)


async def _fresh(service, game_id: int, reader) -> Optional[tuple]:
    """Workers sharing the database: the game's freshness read on the loop, when it is held
    here (``Service.held_now`` decides with it); None otherwise."""
    if reader is None or not service.shared or not service.holds(game_id):
        return None
    return await reader.freshness(game_id)


async def _legal(service, game_id: int, request: Request, reader=None) -> dict:
    """The legal actions of the seat the bearer token (or the page's cookie) holds: at once
    when the service can answer without waiting (``Service.legal_now``), else in a
    thread."""
    tokens = credentials.tokens(request, game_id)
    listing = service.legal_now(game_id, tokens, await _fresh(service, game_id, reader))
    if listing is None:
        listing = await run_sync(service.legal, game_id, tokens)
    return listing


async def _act(service, game_id: int, request: Request, reader=None) -> Tuple[dict, int]:
    """Apply and store the posted entry: 201 with it once it is stored, or 202 with the
    proposal it made (the answer and its status). Applied at once when the service can
    (``Service.act_now``), its commit awaited without holding a thread; else in a thread.
    Workers sharing PostgreSQL first try it without reading the game's freshness, guarded
    as it is committed: one read an action (the listing's) instead of two."""
    body = _json(await request.body())
    tokens = credentials.tokens(request, game_id)
    storing = None
    if reader is not None and service.shared:       # checked as it is committed instead
        storing = service.act_now(game_id, tokens, body, guarded=True)
    if storing is None:
        storing = service.act_now(game_id, tokens, body,
                                  await _fresh(service, game_id, reader))
    if storing is None:
        done = await run_sync(service.act, game_id, tokens, body)
        return done, 202 if "proposal" in done else 201
    return await _stored(service, storing), 201


async def _answer(service, game_id: int, proposal_id: int, how: str,
                  request: Request) -> dict:
    """A proposal answered (``Desk.answer``), in a thread: the answer is committed by the
    log's writer (an accepted proposal's entry with it) before it is told."""
    return await run_sync(service.proposals.answer, game_id,
                          credentials.tokens(request, game_id), proposal_id, how)


def _stored(service, storing) -> asyncio.Future:
    """The stored entry, once the writer committed it (``Service.stored``, on the loop):
    finished even if the request is dropped meanwhile, so the game's lock is let go."""
    loop = asyncio.get_running_loop()
    answer = loop.create_future()

    def finish(done) -> None:
        try:
            result = service.stored(storing, done.exception())
        except Exception as e:          # the database refused it: the poster is told
            if not answer.done():
                answer.set_exception(e)
            return
        if not answer.done():
            answer.set_result(result)

    storing.done.add_done_callback(lambda done: loop.call_soon_threadsafe(finish, done))
    return answer


def _json(body: bytes) -> Optional[object]:
    try:
        return guard.parse_json(body)
    except guard.BadJSON as e:
        raise Refusal(422, f"the body is not JSON the app reads: {e}")
