"""The bots by name: ``random``, ``greedy``, ``planner``."""

from __future__ import annotations

from typing import Callable, Dict

from .bots import Bot, RandomBot
from .greedy import GreedyBot
from .planner import PlannerBot

BOTS: Dict[str, Callable[[int], Bot]] = {"random": RandomBot, "greedy": GreedyBot,
                                         "planner": PlannerBot}


def bot(name: str, seed: int = 0) -> Bot:
    """A new bot of kind ``name`` with its seed."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}: one of {', '.join(sorted(BOTS))}")
    return BOTS[name](seed)
