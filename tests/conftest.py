"""Shared test helpers: where the real games live (``../shared``), skipping when absent."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TRACKLAYER_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures"
TRACES = SHARED / "traces"


def fixture_files(title_dir: str) -> list:
    """The real games of a title, or a single skipped placeholder if ../shared is absent."""
    folder = FIXTURES / title_dir
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"no fixtures in {folder} (the shared test data is not present)"))]
    return [pytest.param(f, id=f.stem) for f in files]


def load_trace(path: Path) -> list:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_json(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def branched(path) -> dict:
    """The export of a game that branches off a real one: the first ``prefix`` log entries
    of the real game the file names (``fixture``, read from ``../shared``, never copied
    here), then the file's own entries (tracklayer's bots playing on). Skips the test
    where the shared test data is not present."""
    branch = load_json(path)
    real = FIXTURES / branch["fixture"]
    if not real.exists():
        pytest.skip(f"needs {real} (the real game this one branches off)")
    data = load_json(real)
    data["actions"] = data["actions"][:branch["prefix"]] + branch["actions"]
    for key in ("result", "game_end_reason", "finished"):
        data.pop(key, None)
    return data


def game_after(data: dict, entries: int):
    """The game after the first ``entries`` log entries of the export ``data`` (a negative
    number leaves that many out at the end); the export is left as it is."""
    from tracklayer.io.export import replay
    return replay(dict(data, actions=data["actions"][:entries]))


def apply_live(game, h: dict) -> list:
    """Apply ``h`` as a live game does: the programmed actions recorded with it dropped,
    the players' programs run instead; returns what they did."""
    game.apply({k: v for k, v in h.items() if k != "auto_actions"}, auto=True)
    return game.history.entries[-1].get("auto_actions") or []


# -- self-play up to a situation ------------------------------------------------------------


def play_until(title_name, seed, bots, stop, limit=3000, tries=1):
    """A self-play game (as play_game plays it, deals proposed and answered) up to the
    first position where ``stop(game, seat)`` holds for the seat to move; the game and the
    bots. With ``tries`` above one, the seeds after ``seed`` are played in turn until one
    reaches such a position (the situation matters, not one seed's exact course, which
    moves whenever a bot or the route finder changes)."""
    for s in range(seed, seed + tries):
        found = play_one_until(title_name, s, bots, stop, limit)
        if found is not None:
            return found
    pytest.fail(f"no such position in seeds {seed}..{seed + tries - 1}")


def play_one_until(title_name, seed, bots, stop, limit):
    """One seed's self-play game up to the first position where ``stop`` holds, or None."""
    from tracklayer.play.consent import Negotiation
    from tracklayer.play.roster import bot
    from tracklayer.play.seats import seat_to_act
    from tracklayer.play.selfplay import bot_move, new_game

    game = new_game(title_name, [f"{b} {i + 1}" for i, b in enumerate(bots)], seed)
    players = [bot(b, seed * 100 + i) for i, b in enumerate(bots)]
    talks = Negotiation()
    while not game.is_over and len(game.actions) < limit:
        seat = seat_to_act(game) or 0
        if stop(game, seat):
            return game, players
        h = bot_move(game, players, talks)
        if h is not None:
            h["id"] = len(game.actions) + 1
            game.apply(h, auto=True)
    return None
