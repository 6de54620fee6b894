"""What the actions panel asks the server besides actions: a train's route built from the
stops clicked on the map, checked by the engine (its revenue, or the rule it breaks),
without changing the game."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse

from . import routes_view
from .service import Refusal

router = APIRouter()


def _check(request: Request, game_id: int, body: dict) -> dict:
    live = request.app.state.service.get(game_id)
    with live.lock:
        return routes_view.check(live.game, body.get("entity") or {}, body.get("routes") or [],
                                 [str(c) for c in body.get("colors") or []])


@router.post("/games/{game_id}/routes")
async def check_routes(request: Request, game_id: int):
    """The routes of ``{"entity": {"entity", "entity_type"}, "routes": [{"train",
    "nodes"}], "colors"}`` as the engine reads them: each route's hexes, revenue and
    problem, the ``run_routes`` action, the error of the whole run, the map's route layer."""
    try:
        body = await request.json()
    except ValueError:
        return JSONResponse({"error": "the body must be JSON"}, status_code=422)
    if not isinstance(body, dict):
        return JSONResponse({"error": "the body must be a JSON object"}, status_code=422)
    try:
        return await run_in_threadpool(_check, request, game_id, body)
    except Refusal as e:
        return JSONResponse({"error": e.message}, status_code=e.status)
