"""The legal-move listing checked against a recorded game.

At every position of an export's log (undone entries included: the players saw those
positions too) the action taken must be among the listed ones, compared in a normalised
way (:func:`normal`: no ids, times, users or programmed follow-ups; certificates of one
size from one pile alike; tiles by name; a price, or an amount chosen, within a listed
range; a ``run_routes`` matched by its operator, since routes are listed as the finder's
best set and any other legal set is accepted by ``apply``; a ``place_token`` whichever slot
it names, since the token goes where the city's rules put it; a loan whichever the bank's
it names). A seeded sample of the listed actions at each position
is also applied to a copy of the game, and must be accepted.

``undo``, ``redo``, chat and programs (``program_*``, standing orders rather than moves)
are applied but not looked for in the listing; they are counted as ``skipped``.
"""

from __future__ import annotations

import random
import re
import time
from typing import Callable, Dict, List, Optional

from .. import collector
from ..errors import GameError
from ..game import Game
from ..io.export import open_game
from ..turns.listing import RANGE_KEYS, random_value, value_range

IGNORED = ("id", "original_id", "created_at", "auto_actions", "user", "skip") + RANGE_KEYS
NOT_LISTED = ("undo", "redo", "message", "end_game")
_COPY = re.compile(r"-\d+$")


def skipped_kind(kind: Optional[str]) -> bool:
    return kind is None or kind in NOT_LISTED or kind.startswith("program_")


def _certificate(game: Game, share_id) -> tuple:
    cert = game.table.find("share", share_id)
    if cert is None:
        return ("?", share_id)
    owner = cert.owner
    return (cert.corporation.sym, holder_id(owner), cert.percent, cert.president)


def holder_id(owner) -> object:
    """The id of a certificate's holder (the market and treasuries have one too)."""
    return None if owner is None else owner.id


def normal(game: Game, h: dict, ranged: Optional[str] = None) -> tuple:
    """``h`` as compared with the listing, in the position before it (see the module
    docstring), without the field ``ranged`` (compared with a listed range instead)."""
    kind = h.get("type")
    if kind == "buy_train" and "variant" not in h:
        train = game.table.find("train", h.get("train"))
        h = dict(h, variant=train.name) if train is not None else h
    out: Dict[str, object] = {}
    for key, value in h.items():
        if key in IGNORED or value is None or key == ranged:
            continue
        if key == "shares" and isinstance(value, list):
            certs = sorted(_certificate(game, s) for s in value)
            value = (certs[0][0], h.get("percent")) if kind == "sell_shares" and certs \
                else tuple(certs)
        elif key == "tile" and isinstance(value, str):
            value = _COPY.sub("", value)
        elif key == "choice":
            value = str(value)          # recorded as 0 or "0": the same choice
        elif key == "loan" and kind in ("take_loan", "payoff_loan"):
            continue                    # any of the bank's loans: the engine counts them
        elif kind == "run_routes" and key in ("routes", "extra_revenue", "subsidy"):
            continue
        elif key == "tokener" and value == h.get("entity"):
            continue
        elif key == "slot" and kind == "place_token":
            continue                    # the token goes where the city's rules put it
        out[key] = value if not isinstance(value, list) else repr(value)
    return tuple(sorted(out.items()))


def matches(game: Game, taken: dict, listed: List[dict]) -> bool:
    """Is the action ``taken`` among ``listed`` (normalised; prices and chosen amounts
    within ranges)?"""
    key = normal(game, taken)
    for h in listed:
        if h.get("type") != taken.get("type"):
            continue
        found = value_range(h)
        if found is not None:
            if within(taken.get(found[0]), found) and \
                    normal(game, taken, found[0]) == normal(game, h, found[0]):
                return True
        elif normal(game, h) == key:
            return True
    return False


def within(value, found: tuple) -> bool:
    """Is ``value`` (an amount, or its digits: 18xx.games records a chosen amount either
    way) in the range ``found`` (``(field, least, most, step)``)?"""
    _field, low, high, step = found
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    return low <= value <= high and not (value - low) % step


def tried(h: dict, rng: random.Random) -> dict:
    """A concrete action to apply for a listed one: a price drawn within its range."""
    return random_value(h, rng)


def _refusal(copy: Callable[[], Game], action: dict) -> Optional[str]:
    """Why a copy of the game (made by ``copy``) refuses ``action``, or None if it accepts
    it. The cyclic garbage collector waits until the copy is dropped: the copy then dies
    young, freed by the next young collection, instead of being moved on, while it is
    made, to the older generations that only the costly full collections sweep."""
    with collector.paused():
        trial = copy()
        try:
            trial.apply(action)
        except GameError as e:
            return str(e)
        finally:
            del trial
        return None


def check(data: dict, sample: int = 2, seed: int = 0, examples: int = 5,
          limit: Optional[int] = None) -> dict:
    """Check the listing along an export's log (its first ``limit`` entries, if given; see
    the module docstring): one summary."""
    start = time.perf_counter()
    rng = random.Random(seed)
    game = open_game(data, keep_log=False)
    out = {"title": data.get("title"), "positions": 0, "found": 0, "missing": 0,
           "skipped": 0, "listed": 0, "listed_tried": 0, "listed_refused": 0,
           "missing_examples": [], "refused_examples": [], "error": None}
    for index, h in enumerate((data.get("actions") or [])[:limit]):
        kind = h.get("type") if isinstance(h, dict) else None
        if skipped_kind(kind) or game.is_over:
            out["skipped"] += 1
        else:
            listed = game.legal_actions()
            out["positions"] += 1
            out["listed"] += len(listed)
            if matches(game, h, listed):
                out["found"] += 1
            else:
                out["missing"] += 1
                if len(out["missing_examples"]) < examples:
                    out["missing_examples"].append(
                        {"entry": index, "action": {k: v for k, v in h.items()
                                                    if k not in ("created_at", "auto_actions")},
                         "listed_of_kind": [x for x in listed if x["type"] == kind][:8]})
            chosen = rng.sample(listed, min(sample, len(listed)))
            copy = game.copies(lasting=False) if chosen else None
            for choice in chosen:
                out["listed_tried"] += 1
                action = tried(choice, rng)
                problem = _refusal(copy, dict(action, id=len(game.actions) + 1))
                if problem is not None:
                    out["listed_refused"] += 1
                    if len(out["refused_examples"]) < examples:
                        out["refused_examples"].append({"entry": index, "action": action,
                                                        "error": problem})
        try:
            game.apply(h)
        except GameError as e:
            out["error"] = f"log entry {index}: {e}"
            break
    out["seconds"] = round(time.perf_counter() - start, 2)
    return out
