"""Self-play: whole games of bots, to the end, with money checked after every action.

:func:`play_game` plays one game and returns its summary (``title``, ``seed``, ``bots``
per seat, ``actions``, ``end_reason``, ``result`` per seat, ``seconds``, ``error``, and
``deals``: the deals between seats proposed, accepted and declined, ``consent``);
:func:`run` plays several, in worker processes with ``jobs``.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from typing import Iterator, List, Optional, Sequence

from ..errors import GameError
from ..finder import plan_routes
from ..game import Game
from ..titles import title
from .consent import Negotiation
from .moving import bot_move
from .roster import bot

__all__ = ["bot_move", "new_game", "play_game", "run", "winners"]

MAX_ACTIONS = 6000
BOT_ROUTE_STEPS = 300_000   # search steps for a company's routes in self-play: about a
#                             second where 1817's densest networks would take half a minute


def bot_routes(table, entity) -> List[dict]:
    """The routes a company of bots runs in self-play: the route finder's best, its search
    bounded by steps (``BOT_ROUTE_STEPS``) rather than by time, so that a game of bots
    takes the same course on any machine and no position holds it up for long."""
    return plan_routes(table, entity, max_steps=BOT_ROUTE_STEPS)


def new_game(title_name: str, players: Sequence[str], seed: int,
             optional_rules: Sequence[str] = (), keep_log: bool = False) -> Game:
    ids = [(i + 1, name) for i, name in enumerate(players)]
    return Game(title(title_name), ids, seed=seed, optional_rules=optional_rules,
                keep_log=keep_log, route_planner=bot_routes, snapshot_every=None)


def play_game(title_name: str, bots: Sequence[str], seed: int,
              optional_rules: Sequence[str] = (), max_actions: int = MAX_ACTIONS,
              keep: bool = False) -> dict:
    """One game of ``bots`` (a bot kind per seat), seeded by ``seed`` (the game's seed and,
    with the seat, each bot's)."""
    start = time.perf_counter()
    names = [f"{b} {i + 1}" for i, b in enumerate(bots)]
    out = {"title": title_name, "seed": seed, "bots": list(bots), "actions": 0,
           "end_reason": None, "result": None, "seconds": 0.0, "error": None, "deals": None}
    game = None
    try:
        game = new_game(title_name, names, seed, optional_rules)
        out["title"] = game.title.name
        players = [bot(b, seed * 100 + i) for i, b in enumerate(bots)]
        talks = Negotiation()
        deals = out["deals"] = {"proposed": 0, "accepted": 0, "declined": 0}
        while not game.is_over:
            if len(game.actions) >= max_actions:
                raise GameError(f"not over after {max_actions} actions")
            h = bot_move(game, players, talks, deals)
            if h is None:
                continue
            h["id"] = len(game.actions) + 1
            game.apply(h, auto=True)
            if game.total_money() != game.starting_money:
                raise GameError(f"money not conserved after action {h['id']}: "
                                f"{game.total_money()} != {game.starting_money}")
        scores = game.result()
        out["end_reason"] = game.end_reason
        out["result"] = [scores.get(i + 1) for i in range(len(bots))]
    except Exception as e:      # noqa: BLE001 - a bot's fault ends its game, not the run
        out["error"] = f"{type(e).__name__}: {e}"
    if game is not None:
        out["actions"] = len(game.actions)
        if keep:
            out["export"] = game.export()
    out["seconds"] = round(time.perf_counter() - start, 3)
    return out


def _one(args) -> dict:
    return play_game(*args)


def run(title_name: str, bots: Sequence[str], games: int, seed: int = 1, jobs: int = 1,
        optional_rules: Sequence[str] = (), max_actions: int = MAX_ACTIONS,
        keep: bool = False, ray: Optional[str] = None) -> Iterator[dict]:
    """``games`` games, seeds ``seed``, ``seed + 1`` …, in order: here, in ``jobs`` worker
    processes, or on a Ray cluster (``ray``: its address, or ``"local"`` for a Ray
    instance started here; the optional extra ``tracklayer[ray]``) — the same games."""
    tasks: List[tuple] = [(title_name, tuple(bots), seed + k, tuple(optional_rules),
                           max_actions, keep) for k in range(games)]
    if ray is not None:
        yield from _on_ray(tasks, ray, jobs)
        return
    if jobs <= 1:
        for t in tasks:
            yield _one(t)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(_one, tasks)


def _on_ray(tasks: List[tuple], address: str, jobs: int) -> Iterator[dict]:
    """The games as Ray tasks (results in the order of the seeds)."""
    try:
        import ray
    except ImportError as e:
        raise GameError("selfplay --ray needs Ray: pip install -e '.[ray]'") from e
    started = not ray.is_initialized()
    if started:
        if address == "local":
            ray.init(num_cpus=max(1, jobs), include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    try:
        remote = ray.remote(_one)
        for ref in [remote.remote(t) for t in tasks]:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def winners(summary: dict) -> Optional[List[int]]:
    """The seats with the best score (None if the game did not end)."""
    result = summary.get("result")
    if not result or summary.get("error"):
        return None
    best = max(r for r in result if r is not None)
    return [i for i, r in enumerate(result) if r == best]
