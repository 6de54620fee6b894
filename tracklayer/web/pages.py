"""The pages (Jinja2 templates, htmx and Alpine.js from ``static/``): the lobby (create a
game with seats for people or bots, import an export, the list of games), the seat links
of a new game, and the game page, whose view is fetched again after each stored entry."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import List, Optional

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from ..errors import GameError
from ..guide.build import page as guide_page
from ..titles import TITLES, supported_titles, title_like
from . import chart, view
from .bots import BOTS
from .service import Refusal

router = APIRouter()
templates = Jinja2Templates(directory=str(Path(__file__).resolve().parent / "templates"))


def _lobby(request: Request, error: str = "", status: int = 200):
    service = request.app.state.service
    games = []
    for g in service.store.games():
        seats = service.store.seats(g.id)
        names = ", ".join(s.name + (f" ({s.bot})" if s.bot else "") for s in seats)
        games.append({"id": g.id, "title": g.title, "players": names,
                      "open": [s.position for s in seats if not s.bot and not s.token]})
    return templates.TemplateResponse(request, "lobby.html", {
        "titles": supported_titles(), "bots": sorted(BOTS), "games": games, "error": error,
        "options": {t: TITLES[t].optional_rules for t in supported_titles()}},
        status_code=status)


@lru_cache(maxsize=None)
def _guide(name: str) -> str:
    """A title's guide (``tracklayer guide``), made once per title."""
    return guide_page(TITLES[name], "html")


@router.get("/guides/{name}", response_class=HTMLResponse)
async def guide(name: str):
    """The guide to a title (by its name or a part naming only it, as ``tracklayer guide``
    takes it), as ``tracklayer guide TITLE --format html`` writes it."""
    try:
        found = title_like(name)
    except GameError as e:
        return HTMLResponse(str(e), status_code=404)
    return HTMLResponse(await run_in_threadpool(_guide, found.name))


@router.get("/favicon.ico", include_in_schema=False)
async def favicon():
    return Response(status_code=204)


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request):
    return await run_in_threadpool(_lobby, request)


def _created(request: Request, made: dict):
    people = [s["token"] for s in made["seats"] if s["token"]]
    hotseat = f"/games/{made['id']}?" + "&".join(f"token={t}" for t in people) \
        if len(people) > 1 else ""
    return templates.TemplateResponse(request, "created.html", {
        "id": made["id"], "seats": made["seats"], "hotseat": hotseat,
        "creator": made.get("creator_token")}, status_code=201)


@router.post("/games", response_class=HTMLResponse)
async def create(request: Request):
    form = await request.form()
    players = []
    for i in range(6):
        name = str(form.get(f"name{i}") or "").strip()
        kind = str(form.get(f"bot{i}") or "")
        if name or kind == "open":
            players.append({"name": name or f"Seat {i + 1}", "bot": None, "open": True}
                           if kind == "open" else {"name": name, "bot": kind or None})
    seed_text = str(form.get("seed") or "").strip()
    rules = [str(r) for r in form.getlist("rule") if str(r).strip()]
    body = {"title": form.get("title"), "players": players, "optional_rules": rules}
    try:
        if seed_text:
            body["seed"] = int(seed_text)
        made = await run_in_threadpool(request.app.state.service.create, body)
    except ValueError:
        return await run_in_threadpool(_lobby, request, "the seed must be a whole number", 422)
    except Refusal as e:
        return await run_in_threadpool(_lobby, request, e.message, e.status)
    return _created(request, made)


@router.post("/games/import", response_class=HTMLResponse)
async def import_page(request: Request):
    form = await request.form()
    upload = form.get("file")
    text = str(form.get("text") or "")
    if upload is not None and not isinstance(upload, str):
        text = (await upload.read()).decode("utf-8", "replace") or text
    try:
        data = json.loads(text)
        made = await run_in_threadpool(request.app.state.service.import_export, data)
    except ValueError as e:
        return await run_in_threadpool(_lobby, request, f"not JSON: {e}", 422)
    except Refusal as e:
        return await run_in_threadpool(_lobby, request, e.message, e.status)
    return _created(request, made)


@router.post("/games/{game_id}/join")
async def join(request: Request, game_id: int):
    form = await request.form()
    try:
        position = int(str(form.get("seat") or ""))
        token = await run_in_threadpool(request.app.state.service.join, game_id, position,
                                        str(form.get("name") or ""))
    except ValueError:
        return await run_in_threadpool(_lobby, request, "which seat?", 422)
    except Refusal as e:
        return await run_in_threadpool(_lobby, request, e.message, e.status)
    return RedirectResponse(f"/games/{game_id}?token={token}", status_code=303)


def _history(request: Request, game_id: int, at: int) -> dict:
    live = request.app.state.service.get(game_id)
    with live.lock:
        return view.at_entry(live, at)


@router.get("/games/{game_id}/history", response_class=HTMLResponse)
async def history(request: Request, game_id: int, at: int = 0):
    h = await run_in_threadpool(_history, request, game_id, at)
    return templates.TemplateResponse(request, "history.html", {"h": h, "id": game_id})


def _chart(request: Request, game_id: int, tokens: List[str]) -> str:
    live = request.app.state.service.get(game_id)
    with live.lock:
        if live.game.title.name in view.HIDDEN_CASH and not live.game.is_over:
            return (f"<p>{live.game.title.name} keeps players' cash secret: the chart of "
                    "values is shown when the game is over.</p>")
        return chart.draw(live)


@router.get("/games/{game_id}/chart", response_class=HTMLResponse)
async def value_chart(request: Request, game_id: int, token: Optional[List[str]] = Query(None)):
    return HTMLResponse(await run_in_threadpool(_chart, request, game_id, token or []))


def _view(request: Request, game_id: int, tokens: List[str]) -> dict:
    live = request.app.state.service.get(game_id)
    with live.lock:
        return view.build(live, tokens)


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: int, token: Optional[List[str]] = Query(None)):
    tokens = token or []
    v = await run_in_threadpool(_view, request, game_id, tokens)
    return templates.TemplateResponse(request, "game.html", {"v": v, "tokens": tokens})


@router.get("/games/{game_id}/view", response_class=HTMLResponse)
async def game_view(request: Request, game_id: int, token: Optional[List[str]] = Query(None)):
    v = await run_in_threadpool(_view, request, game_id, token or [])
    return templates.TemplateResponse(request, "view.html", {"v": v})
