"""A person's legal moves as a menu to read: each move in words (``describe``), grouped
under a heading for its kind ("Lay track", "Buy trains"); a kind with many moves shown
as one line per hex, corporation or holder to choose first ("Köln (L5): 12 lays, 0M to
80M"), so that a tile lay is picked by its hex, then its tile and rotation; and the moves
answering to a few typed letters (the start of a hex, a city, a company, a word of the
move).

Pure functions of the game: :func:`sections` says what the screen lists, the terminal
numbers and prints it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ..game import Game
from ..turns.listing import value_range
from .costs import price_paid
from .describe import Words
from .names import name_of, place_name

LIMIT = 14                  # a kind with more moves than this is shown by group
BY_HEX = 6                  # lays and stations: more than this, chosen by hex first

# The headings of the kinds of move, in a player's words.
HEADINGS = {
    "bid": "Bids", "par": "Start a corporation", "buy_shares": "Buy shares",
    "sell_shares": "Sell shares", "short": "Short shares", "lay_tile": "Lay track",
    "place_token": "Place a station", "run_routes": "Run trains", "dividend": "Dividend",
    "buy_train": "Buy trains", "discard_train": "Discard trains",
    "buy_company": "Buy private companies", "sell_company": "Sell private companies",
    "take_loan": "Loans", "payoff_loan": "Repay loans", "merge": "Mergers",
    "convert": "Conversions", "choose": "Choices", "assign": "Private company powers",
    "bankrupt": "Bankruptcy", "pass": "Pass",
}


# What a group's moves are called ("Köln (L5): 3 stations").
NOUNS = {"bid": "bids", "place_token": "stations", "buy_train": "trains",
         "buy_shares": "purchases", "sell_shares": "sales", "par": "starting prices",
         "buy_company": "purchases"}


@dataclass
class Choice:
    """One line of the menu: a move (one in ``moves``) or a group of them to open."""
    label: str
    moves: List[dict]

    @property
    def is_group(self) -> bool:
        return len(self.moves) > 1


def heading(kind: str) -> str:
    return HEADINGS.get(kind, str(kind).replace("_", " ").capitalize())


def sentence(words: Words, h: dict) -> str:
    """The move in words; its raw fields if it cannot be put in words."""
    try:
        return words.sentence(h)
    except Exception:                  # a move the words do not know yet: its fields
        return " ".join(f"{k}={v}" for k, v in h.items() if k not in ("entity_type",))


def _group_key(game: Game, h: dict) -> Optional[str]:
    """What a move is chosen by first, within its kind: a lay or a station by its hex, a
    share by its corporation, a train by its holder, a bid by what it bids on."""
    table = game.table
    if h.get("hex"):
        return place_name(table, h["hex"])
    if h.get("city"):
        return place_name(table, str(h["city"]).split("-")[0])
    for field in ("corporation", "company", "minor", "target"):
        if h.get(field):
            found = table.find("corporation", h[field]) or table.find("company", h[field])
            return name_of(found) if found is not None else str(h[field])
    if h.get("shares"):
        return str(h["shares"][0]).split("_")[0]
    if h.get("train"):
        return f"{str(h['train']).split('-')[0]}-train"
    entity = table.find(h.get("entity_type"), h.get("entity"))
    return name_of(entity) if entity is not None else None


def _tile_key(game: Game, h: dict) -> Optional[str]:
    tile = h.get("tile")
    return f"tile #{str(tile).rsplit('-', 1)[0]}" if tile else None


def _costs(game: Game, moves: List[dict]) -> str:
    money = game.table.money
    found = []
    for h in moves:
        try:
            cost = price_paid(game, h)
        except Exception:            # a cost the rules cannot work out here: not shown
            cost = None
        if cost is not None:
            found.append(cost)
    if not found:
        return ""
    low, high = min(found), max(found)
    if low == high:
        return ", free" if low == 0 else f", {money(low)}"
    return f", {money(low)} to {money(high)}"


def _grouped(game: Game, kind: str, moves: List[dict],
             key: Callable[[Game, dict], Optional[str]]) -> Optional[List[Choice]]:
    groups: Dict[str, List[dict]] = {}
    for h in moves:
        groups.setdefault(key(game, h) or "other", []).append(h)
    if len(groups) < 2 or 2 * len(groups) >= len(moves):
        return None                    # one group, or groups of one or two: no help
    return [Choice(_group_label(game, kind, name, found) if len(found) > 1
                   else sentence(Words(game.table), found[0]), found)
            for name, found in sorted(groups.items(), key=lambda g: g[0].lower())]


def _group_label(game: Game, kind: str, name: str, moves: List[dict]) -> str:
    """A group's line: "Köln (L5): 6 lays of #57, #14, 20M to 60M"."""
    if kind == "lay_tile":
        tiles = []
        for h in moves:
            tile = f"#{str(h.get('tile')).rsplit('-', 1)[0]}"
            if tile not in tiles:
                tiles.append(tile)
        if len(tiles) == 1:
            if name.startswith("tile "):       # the tile's rotations on one hex
                where = moves[0].get("hex")
                place = place_name(game.table, where) + ", " if where else ""
                return f"{place}{name}: {len(moves)} rotations{_costs(game, moves)}"
            return f"{name}: tile {tiles[0]} in {len(moves)} rotations{_costs(game, moves)}"
        return f"{name}: {len(moves)} lays of {', '.join(tiles)}{_costs(game, moves)}"
    return f"{name}: {len(moves)} {NOUNS.get(kind, 'moves')}{_costs(game, moves)}"


def kind_choices(game: Game, kind: str, moves: List[dict], words: Words) -> List[Choice]:
    """The lines for the moves of one kind: each move, or (more than :data:`LIMIT`, or
    :data:`BY_HEX` lays or stations) a line per hex, corporation or holder, and then per
    tile."""
    if len(moves) > (BY_HEX if kind in ("lay_tile", "place_token") else LIMIT):
        for key in (_group_key, _tile_key):
            found = _grouped(game, kind, moves, key)
            if found is not None:
                return found
    return [Choice(sentence(words, h), [h]) for h in moves]


def sections(game: Game, moves: List[dict]) -> List[Tuple[str, List[Choice]]]:
    """The menu: (heading, lines) by kind of move, in the order the kinds are listed."""
    kinds: Dict[str, List[dict]] = {}
    for h in moves:
        kinds.setdefault(h["type"], []).append(h)
    words = Words(game.table)
    return [(heading(kind), kind_choices(game, kind, found, words))
            for kind, found in kinds.items()]


def numbered(game: Game, moves: List[dict]) -> List[Choice]:
    """The menu's lines in the order they are numbered (from 1)."""
    return [c for _, lines in sections(game, moves) for c in lines]


def _words_of(game: Game, words: Words, h: dict) -> List[str]:
    text = " ".join([sentence(words, h), heading(h["type"])] +
                    [str(v) for k, v in h.items() if isinstance(v, (str, int))
                     and k not in ("entity_type",)])
    return [w for w in re.split(r"[\s():,;/&'#.-]+", text.lower()) if w]


def answering(game: Game, moves: List[dict], typed: str) -> List[dict]:
    """The moves answering to what was typed: each word typed starts a word of the move
    (its words, its kind's heading, its hex, tile, company), any case."""
    wanted = [w for w in typed.lower().split() if w]
    words = Words(game.table)
    out = []
    for h in moves:
        own = _words_of(game, words, h)
        if all(any(w.startswith(t) for w in own) for t in wanted):
            out.append(h)
    return out


def price_prompt(h: dict) -> str:
    """What the terminal asks for a move with a range: "price (100..300, Enter for 100)"."""
    field, low, high, step = value_range(h)
    each = f" in steps of {step}" if step > 1 else ""
    return f"{field} ({low}..{high}{each}, Enter for {low})"


def read_value(h: dict, line: str) -> Tuple[Optional[int], str]:
    """The value typed for a move with a range, or what is wrong with it in a sentence."""
    field, low, high, step = value_range(h)
    text = line.strip()
    if not text:
        return low, ""
    if not re.fullmatch(r"-?\d+", text):
        return None, (f"{text!r} is not a number: type the {field} as a whole number from "
                      f"{low} to {high}, or press Enter for {low}.")
    return int(text), ""
