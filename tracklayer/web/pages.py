"""The pages (Jinja2 templates, htmx and Alpine.js from ``static/``): the lobby (create a
game with seats for people or bots, import an export, the list of games), the seat links
of a new game, and the game page, whose view is fetched again after each stored entry."""

from __future__ import annotations

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
from . import chart, credentials, guard, logbook, svg, view
from .bots import BOTS
from .service import Refusal

router = APIRouter()
templates = Jinja2Templates(directory=str(Path(__file__).resolve().parent / "templates"))
templates.env.filters["chip_style"] = svg.chip_style


MAX_ECHO = 100_000          # an import's pasted text longer than this is not shown again


def _form_state(form=None) -> dict:
    """What the lobby's forms show: what was sent (after an error), else the defaults."""
    if form is None:
        return {"title": supported_titles()[0], "names": ["Ann", "Bob", "Cid", "", "", ""],
                "bots": [""] * 6, "seed": "", "rules": [], "text": ""}
    text = str(form.get("text") or "")
    return {"title": str(form.get("title") or ""),
            "names": [str(form.get(f"name{i}") or "")[:100] for i in range(6)],
            "bots": [str(form.get(f"bot{i}") or "")[:40] for i in range(6)],
            "seed": str(form.get("seed") or "")[:40],
            "rules": [str(r)[:100] for r in form.getlist("rule")][:50],
            "text": text if len(text) <= MAX_ECHO else ""}


def _lobby(request: Request, error: str = "", status: int = 200, form=None):
    service = request.app.state.service
    games = []
    for g in service.store.games():
        seats = service.store.seats(g.id)
        names = ", ".join(s.name + (f" ({s.bot})" if s.bot else "") for s in seats)
        games.append({"id": g.id, "title": g.title, "players": names,
                      "open": [s.position for s in seats if not s.bot and not s.token]})
    counts = {}
    for t in supported_titles():
        low, high = TITLES[t].player_range
        counts[t] = f"{low}–{high}" if low != high else str(low)
    return templates.TemplateResponse(request, "lobby.html", {
        "titles": supported_titles(), "bots": sorted(BOTS), "games": games, "error": error,
        "options": {t: TITLES[t].optional_rules for t in supported_titles()},
        "counts": counts, "form": _form_state(form)}, status_code=status)


@lru_cache(maxsize=None)
def _guide(name: str) -> str:
    """A title's guide (``tracklayer guide``), made once per title."""
    return guide_page(TITLES[name], "html")


@router.get("/guides/{name}", response_class=HTMLResponse)
async def guide(request: Request, name: str):
    """The guide to a title (by its name or a part naming only it, as ``tracklayer guide``
    takes it), as ``tracklayer guide TITLE --format html`` writes it."""
    try:
        found = title_like(name)
    except GameError as e:
        return problem(request, Refusal(404, str(e)))
    return HTMLResponse(await run_in_threadpool(_guide, found.name))


def problem(request: Request, e: Refusal):
    """A refusal as a page (its message escaped like every value a template shows)."""
    return templates.TemplateResponse(request, "problem.html", {"message": e.message},
                                      status_code=e.status)


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
        return await run_in_threadpool(_lobby, request, "the seed must be a whole number",
                                       422, form)
    except Refusal as e:
        return await run_in_threadpool(_lobby, request, e.message, e.status, form)
    return _created(request, made)


@router.post("/games/import", response_class=HTMLResponse)
async def import_page(request: Request):
    form = await request.form(max_files=1, max_fields=20,
                              max_part_size=request.app.state.limits.import_body)
    upload = form.get("file")
    text = str(form.get("text") or "")
    if upload is not None and not isinstance(upload, str):
        text = (await upload.read()).decode("utf-8", "replace") or text
    try:
        data = guard.parse_json(text)
        made = await run_in_threadpool(request.app.state.service.import_export, data)
    except guard.BadJSON as e:
        return await run_in_threadpool(_lobby, request, str(e), 422, form)
    except Refusal as e:
        return await run_in_threadpool(_lobby, request, e.message, e.status, form)
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
    return credentials.keep_seats(RedirectResponse(f"/games/{game_id}", status_code=303),
                                  request, game_id, [token])


def _history(request: Request, game_id: int, at: int) -> dict:
    live = request.app.state.service.get(game_id)
    with live.lock:
        return view.at_entry(live, at)


@router.get("/games/{game_id}/history", response_class=HTMLResponse)
async def history(request: Request, game_id: int, at: int = Query(0, ge=0, le=10 ** 7)):
    h = await run_in_threadpool(_history, request, game_id, at)
    return templates.TemplateResponse(request, "history.html", {"h": h, "id": game_id})


def _chart(request: Request, game_id: int) -> str:
    live = request.app.state.service.get(game_id)
    with live.lock:
        if live.game.title.settings.cash_secret and not live.game.is_over:
            return (f"<p>{live.game.title.name} keeps players' cash secret: the chart of "
                    "values is shown when the game is over.</p>")
        return chart.draw_once(live)


@router.get("/games/{game_id}/chart", response_class=HTMLResponse)
async def value_chart(request: Request, game_id: int):
    return HTMLResponse(await run_in_threadpool(_chart, request, game_id))


def _log(request: Request, game_id: int, page: Optional[int]) -> dict:
    live = request.app.state.service.get(game_id)
    with live.lock:
        found = logbook.items(live)
        return {"id": game_id, "title": live.game.title.name,
                "p": logbook.page(found, page), "pages": logbook.pages(len(found))}


@router.get("/games/{game_id}/log", response_class=HTMLResponse)
async def whole_log(request: Request, game_id: int,
                    page: Optional[int] = Query(None, ge=1, le=10 ** 6)):
    """The game's whole log with its chat, a page at a time (page 1: the start; no page:
    the last); htmx asks for the page alone, a browser for a page of its own."""
    found = await run_in_threadpool(_log, request, game_id, page)
    if found["p"] is None:
        return problem(request, Refusal(404, f"no page {page}: the log has {found['pages']} "
                                             "page(s)"))
    fragment = request.headers.get("HX-Request") == "true"
    return templates.TemplateResponse(request, "log_page.html" if fragment else "log.html",
                                      dict(found, fragment=fragment))


def _view(request: Request, game_id: int, tokens: List[str]) -> dict:
    service = request.app.state.service
    live = service.get(game_id)
    with live.lock:
        if tokens:
            service.check_seats(live)       # the database says which tokens hold seats
        v = view.build(live, tokens)
        v["standing"] = live.standing           # read-only? (web.archive)
    mine = [s.player_id for s in v["mine"]]
    v["webhooks"] = {s.player_id: {"url": s.webhook_url, "seat_link": s.webhook_seat_link}
                     for s in service.store.webhooks(game_id) if s.player_id in mine} \
        if mine else {}
    return credentials.without_tokens(v)


def _holding_seats(request: Request, game_id: int, tokens: List[str]) -> List[str]:
    """The tokens of a link that hold a seat of the game (404 if there is no game)."""
    service = request.app.state.service
    live = service.get(game_id)
    with live.lock:
        service.refresh_seats(live)
        return [t for t in dict.fromkeys(tokens) if live.seat_by_token(t) is not None]


@router.get("/games/{game_id}", response_class=HTMLResponse)
async def game_page(request: Request, game_id: int, token: Optional[List[str]] = Query(None)):
    """The game page. A seat link's first visit (``?token=``) leaves its tokens in the
    browser's cookie for the game and comes back here without them (see credentials)."""
    if token:
        kept = await run_in_threadpool(_holding_seats, request, game_id, token[:6])
        if not kept:
            return problem(request, Refusal(403, f"that link holds no seat in game {game_id} "
                                                 "(a new one may have been issued): ask the "
                                                 "game's creator for yours"))
        return credentials.keep_seats(RedirectResponse(f"/games/{game_id}", status_code=303),
                                      request, game_id, kept)
    tokens = credentials.tokens(request, game_id)
    v = await run_in_threadpool(_view, request, game_id, tokens)
    return templates.TemplateResponse(request, "game.html", {"v": v})


@router.get("/games/{game_id}/view", response_class=HTMLResponse)
async def game_view(request: Request, game_id: int, token: Optional[List[str]] = Query(None)):
    """The view alone (what the page fetches after each entry), for the seats of the
    browser's cookie (or, for scripts, of ``?token=``)."""
    tokens = (token or [])[:6] or credentials.tokens(request, game_id)
    v = await run_in_threadpool(_view, request, game_id, tokens)
    return templates.TemplateResponse(request, "view.html", {"v": v})
