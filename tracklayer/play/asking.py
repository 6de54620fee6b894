"""The moves a bot asks for: every legal move, except that tile lays are judged lazily.

On a dense map an operator may be offered a thousand tile lays, and each is judged by the
track and network rules (where its track leads, whether the operator reaches it) before
it is listed; a bot picks one of a handful. So the lays are first ranked by the bot's own
cheap guess, unjudged, and judged best first until ``wanted`` of each entity's are found
legal; the others are never judged. Every other move is listed as ``Game.legal_actions``
lists it, by the same check (``turns.listing``), so what is listed is always legal.
"""

from __future__ import annotations

import random
from typing import Callable, Dict, List, Optional

from ..game import Game
from ..rules import network
from ..turns.listing import Offer, accepted, offered, with_ranges

LAZY_KINDS = ("lay_tile",)


def key_of(h: dict) -> str:
    """The candidate's identity, to list it once (the steps offer a move's fields in one
    order)."""
    return repr(h)


def moves_asked(game: Game, rank: Callable[[List[dict]], List[float]], wanted: int,
                lazy: Optional[tuple] = None,
                lay_hexes: Optional[Callable[[object, list], list]] = None) -> List[dict]:
    """The legal moves now, with at most ``wanted`` legal moves per entity of each lazy
    kind (``LAZY_KINDS``): the best ranked by ``rank`` (a score per candidate, higher
    first, for the candidates of one kind and entity); an operator's tile lays only on
    the hexes ``lay_hexes`` picks (given the entity and the hexes its network reaches),
    if given."""
    table = game.table
    if table.state.end.finished:
        return []
    lazy = LAZY_KINDS if lazy is None else lazy
    listing, table.listing = table.listing, True
    restore = network.checkpoint(table)
    try:
        offer = Offer(random.Random(0), game.route_planner, lay_hexes)
        seen, out = set(), []
        later: Dict[tuple, List[dict]] = {}
        for h in offered(table, offer):
            key = key_of(h)
            if key in seen:
                continue
            seen.add(key)
            if h["type"] in lazy:
                later.setdefault((h["type"], h.get("entity_type"), h.get("entity")),
                                 []).append(h)
            elif accepted(table, h, offer):
                out.append(h)
        for candidates in later.values():
            ranks = rank(candidates)
            order = sorted(range(len(candidates)), key=lambda i: -ranks[i])
            found = 0
            for i in order:
                if accepted(table, candidates[i], offer):
                    out.append(candidates[i])
                    found += 1
                    if found >= wanted:
                        break
        return with_ranges(out, offer.ranges)
    finally:
        table.listing = listing
        restore()
