"""Games as 18xx.games exports them: a title, players, settings (seed, optional rules) and
the action log as played, undo and redo entries and chat included."""

from __future__ import annotations

import json
from typing import Iterator, Optional, Tuple

from ..errors import GameError
from ..finder import plan_routes
from ..game import Game
from ..history import in_force
from ..snapshot import collector_paused
from ..titles import title


def load_export(path: str) -> dict:
    """Read an 18xx.games export (raises OSError or ValueError if it cannot)."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not an 18xx.games export (a JSON object)")
    return data


def open_game(data: dict, keep_log: bool = True, snapshot_every: Optional[int] = 8,
              route_planner=None) -> Game:
    """A new game (no action applied) for an export's title, players and settings."""
    if not isinstance(data, dict):
        raise GameError("an 18xx.games export is a JSON object")
    settings = data.get("settings") or {}
    try:
        players = [(p["id"], p["name"]) for p in data["players"]]
    except (KeyError, TypeError) as e:
        raise GameError(f"the export's players must each have an id and a name ({e!r})")
    rules = [r for r in settings.get("optional_rules") or [] if r]
    seed = settings.get("seed")
    if seed in (None, ""):
        seed = int("".join(ch for ch in str(data.get("id", 0)) if ch.isdigit()) or 0)
    if route_planner is None:
        route_planner = plan_routes
    return Game(title(data.get("title")), players, seed=seed, optional_rules=rules,
                keep_log=keep_log, snapshot_every=snapshot_every, route_planner=route_planner)


def replay(data: dict, keep_log: bool = False, trusted: bool = False) -> Game:
    """The game after the actions of an export still in force (undone ones skipped).
    ``trusted``: the log is one this engine accepted (it stored it), so what can only
    refuse an entry is not asked (:attr:`Table.trusted`); a log from elsewhere (a file) is
    checked in full, and an illegal entry refused naming it and the rule."""
    with collector_paused():
        game = open_game(data, keep_log=keep_log, snapshot_every=None)
        game.table.trusted = trusted
        for index, h in enumerate(in_force(data.get("actions") or [])):
            if h is None or h.get("type") == "message":
                continue
            try:
                game.apply(h)
            except GameError as e:
                raise type(e)(f"log entry {index}: {e}") from e
        game.table.trusted = False
    return game


def positions(data: dict, keep_log: bool = False,
              trusted: bool = False) -> Iterator[Tuple[int, dict, Game]]:
    """(index, entry, game) after each entry of an export's log, as the players saw it
    (the same game object, advanced; ``trusted``: as :func:`replay` has it, while it
    advances)."""
    game = open_game(data, keep_log=keep_log)
    for index, h in enumerate(data.get("actions") or []):
        game.table.trusted = trusted
        try:
            game.apply(h)
        except GameError as e:
            raise type(e)(f"log entry {index}: {e}") from e
        finally:
            game.table.trusted = False
        yield index, h, game


def export(game: Game) -> dict:
    return game.export()


def route_positions(data: dict) -> Iterator[Tuple[int, dict, Game, object]]:
    """``(index, entry, game, operator)`` for every ``run_routes`` entry of an export's log,
    with the game as it stood just before that entry (undone entries included, as the
    player saw them). The game is advanced between yields: use it before the next."""
    game = open_game(data, keep_log=False)
    for index, h in enumerate(data.get("actions") or []):
        if h.get("type") == "run_routes":
            yield index, h, game, game.table.find(h.get("entity_type"), h.get("entity"))
        game.apply(h)


def recorded_revenue(entry: dict) -> int:
    """The revenue a ``run_routes`` entry records: the sum over its routes."""
    return sum(int(r.get("revenue") or 0) for r in entry.get("routes") or [])
