"""What the players of a game the rules no longer accept may do (``web.archive``): continue
it from the agreed entry as a new game linked to the old one, or keep it as an archive.

Either is asked by a person holding a seat of the old game (its page's cookie, or a bearer
token) or by its creator (the manage page's cookie, or the creator key as bearer). The
continuation is made once: whoever asks later is sent to the same new game, and a player
asking with their old seat gets their new seat there (the same position, a new link,
kept in the new game's cookie); the creator gets the new game's seat links and creator
link. The old game is left as it was.

Routes: ``POST /games/{id}/continue`` and ``/archive`` (the game page's buttons),
``POST /games/{id}/manage/continue`` (the creator's), and the JSON ``POST
/api/games/{id}/continue``, ``/archive``, ``GET /api/games/{id}/rules`` (the game's
standing) and ``GET /api/games/{id}/stored`` (the log as stored, every entry, as an
18xx.games export)."""

from __future__ import annotations

import secrets
from typing import List, Optional

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, RedirectResponse
from sqlalchemy.exc import IntegrityError

from . import archive, credentials
from .pages import problem, templates
from .service import Live, Refusal, Service

router = APIRouter()


def _seats_held(live: Live, tokens: List[str]) -> list:
    return [s for s in live.seats if s.token and not s.bot and
            any(secrets.compare_digest(s.token.encode(), t.encode()) for t in tokens)]


def _is_creator(service: Service, game_id: int, key: Optional[str]) -> bool:
    row = service.store.game(game_id)
    return bool(key and row is not None and row.creator_token and
                secrets.compare_digest(row.creator_token.encode(), key.encode()))


def _asker(service: Service, live: Live, tokens: List[str], key: Optional[str]):
    """The seats the asker holds, and whether they are the creator (401/403 if neither)."""
    if not tokens and not key:
        raise Refusal(401, "a seat of the game, or its creator's key, is needed")
    service.refresh_seats(live)
    held = _seats_held(live, tokens)
    creator = _is_creator(service, live.id, key)
    if not held and not creator:
        raise Refusal(403, "neither a seat of this game nor its creator's key")
    return held, creator


def continue_game(service: Service, game_id: int, tokens: List[str],
                  key: Optional[str] = None) -> dict:
    """The new game continuing ``game_id`` from its agreed entry (made if it is not yet),
    with the asker's seats in it (their new tokens) and, for the creator, every seat and
    the new creator key."""
    live = service.get(game_id)
    made = False
    with live.lock:
        held, creator = _asker(service, live, tokens, key)
        standing = live.standing
        new_id = standing.continued_by or archive.continuation(service.store, game_id)
        if new_id is None:
            if standing.divergence is None:
                raise Refusal(409, f"game {game_id} replays under the current rules: play on")
            new_id, made = _make_continuation(service, live), True
    service.forget(game_id)             # reopened, it names its continuation
    if made:
        service.after_change(new_id)    # the bots to act there play
    positions = {s.position for s in held}
    seats = [{"position": s.position, "player_id": s.player_id, "name": s.name,
              "bot": s.bot, "token": s.token if creator or s.position in positions else None}
             for s in service.store.seats(new_id)]
    row = service.store.game(new_id)
    return {"id": new_id, "continues": game_id, "made": made, "entries": row.continued_at,
            "seats": seats, "creator_token": row.creator_token if creator else None}


def _make_continuation(service: Service, live: Live) -> int:
    """Store the new game: the old one's settings and seats (new links), its log up to
    the agreed entry as stored; another worker's, if it was first."""
    agreed = live.standing.divergence.agreed
    row = service.store.game(live.id)
    entries = [h for _, h in service.store.entries(live.id)[:agreed]]
    seats = [{"player_id": s.player_id, "name": s.name, "bot": s.bot,
              "token": secrets.token_urlsafe(24) if s.token else None} for s in live.seats]
    try:
        return service.store.create(row.title, row.seed, list(row.optional_rules), seats,
                                    entries, description=row.description,
                                    creator_token=secrets.token_urlsafe(24),
                                    continues_id=live.id, continued_at=agreed,
                                    **archive.stamp(live.game.title))
    except IntegrityError:
        found = archive.continuation(service.store, live.id)
        if found is None:
            raise
        return found


def keep_as_archive(service: Service, game_id: int, tokens: List[str],
                    key: Optional[str] = None) -> dict:
    """Mark the game as kept as an archive (only a game the rules no longer accept)."""
    live = service.get(game_id)
    with live.lock:
        _asker(service, live, tokens, key)
        if live.standing.divergence is None:
            raise Refusal(409, f"game {game_id} replays under the current rules: play on")
        archive.keep_as_archive(service.store, game_id)
    service.forget(game_id)
    return service.get(game_id).standing.as_dict()


def standing(service: Service, game_id: int) -> dict:
    live = service.get(game_id)
    with live.lock:
        return dict(live.standing.as_dict(), id=game_id)


def stored_log(service: Service, game_id: int) -> dict:
    """The game as stored: its settings and every entry of its log, refused ones too."""
    live = service.get(game_id)
    with live.lock:
        g = live.game
        data = {"id": game_id, "title": g.title.name,
                "players": [{"id": s.player_id, "name": s.name} for s in live.seats],
                "settings": {"seed": g.seed, "optional_rules": list(g.optional_rules)}}
    data["actions"] = [h for _, h in service.store.entries(game_id)]
    return data


# -- the pages' forms ----------------------------------------------------------------------

@router.post("/games/{game_id}/continue")
async def continue_page(request: Request, game_id: int):
    """A player continues the game (or takes their seat in its continuation): their new
    seats go in the new game's cookie, and the browser goes there."""
    try:
        tokens = credentials.tokens(request, game_id)
        done = await run_in_threadpool(continue_game, request.app.state.service, game_id,
                                       tokens)
    except Refusal as e:
        return problem(request, e)
    mine = [s["token"] for s in done["seats"] if s["token"]]
    return credentials.keep_seats(RedirectResponse(f"/games/{done['id']}", status_code=303),
                                  request, done["id"], mine)


@router.post("/games/{game_id}/archive")
async def archive_page(request: Request, game_id: int):
    try:
        await run_in_threadpool(keep_as_archive, request.app.state.service, game_id,
                                credentials.tokens(request, game_id))
    except Refusal as e:
        return problem(request, e)
    return RedirectResponse(f"/games/{game_id}", status_code=303)


@router.post("/games/{game_id}/manage/continue")
async def continue_by_creator(request: Request, game_id: int):
    """The creator continues the game: the new game's seat links and creator link."""
    try:
        key = credentials.creator_key(request, game_id)
        done = await run_in_threadpool(continue_game, request.app.state.service, game_id,
                                       [], key)
    except Refusal as e:
        return problem(request, e)
    people = [s["token"] for s in done["seats"] if s["token"]]
    hotseat = f"/games/{done['id']}?" + "&".join(f"token={t}" for t in people) \
        if len(people) > 1 else ""
    return templates.TemplateResponse(request, "created.html", {
        "id": done["id"], "seats": done["seats"], "hotseat": hotseat,
        "creator": done["creator_token"], "continues": game_id}, status_code=201)


# -- the API --------------------------------------------------------------------------------

def _bearer_or_cookie(request: Request, game_id: int) -> tuple:
    found = credentials.bearer(request.headers.get("authorization"))
    return ([found], found) if found else (credentials.tokens(request, game_id), None)


@router.post("/api/games/{game_id}/continue")
async def continue_api(request: Request, game_id: int):
    tokens, key = _bearer_or_cookie(request, game_id)
    done = await run_in_threadpool(continue_game, request.app.state.service, game_id,
                                   tokens, key)
    return JSONResponse(done, status_code=201 if done["made"] else 200)


@router.post("/api/games/{game_id}/archive")
async def archive_api(request: Request, game_id: int):
    tokens, key = _bearer_or_cookie(request, game_id)
    return JSONResponse(await run_in_threadpool(keep_as_archive, request.app.state.service,
                                                game_id, tokens, key))


@router.get("/api/games/{game_id}/rules")
async def rules_api(request: Request, game_id: int):
    """Which rules accepted the game's log, and whether the current ones still do."""
    return JSONResponse(await run_in_threadpool(standing, request.app.state.service, game_id))


@router.get("/api/games/{game_id}/stored")
async def stored_api(request: Request, game_id: int):
    return JSONResponse(await run_in_threadpool(stored_log, request.app.state.service,
                                                game_id))
