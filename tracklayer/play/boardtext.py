"""The board as a player reads it at the terminal, in text: a compact grid of the map (each
hex by its coordinate, coloured as its tile, marked where a city, town or off-board is)
and a listing, row by row, of the hexes that matter — every city, town and off-board by
the name printed there, and every hex with track laid: the tile (its number and colour),
what each stop pays in the current phase, and each city's station slots with the
companies' tokens in them, free slots, and slots kept for a company's home.

Pure functions of the game's table: the terminal prints them, the tests read them.
"""

from __future__ import annotations

import re
from typing import Dict, List, Tuple

from rich.text import Text

from ..board.grid import hex_xy
from ..rules import board
from ..rules.table import Table
from .names import hex_name, short_name

FREE = "·"                         # a free station slot
MARKS = {"city": "o", "town": ".", "offboard": ">"}
TOKEN_MARK = "*"                   # a city with a station token in it
# Tile colours as the grid shows them (background, text).
STYLES = {"yellow": "black on yellow", "green": "black on green", "brown": "white on dark_orange3",
          "gray": "black on grey70", "red": "white on red", "blue": "white on blue",
          "sepia": "black on tan", "purple": "white on purple", "orange": "black on orange1"}
_COORD = re.compile(r"^([A-Za-z]+)(-?\d+)$")


def laid(table: Table, hex_id: str) -> bool:
    """Whether a tile has been laid on the hex (it no longer shows its printed tile)."""
    printed = table.spec.hexes.get(hex_id)
    return printed is not None and table.state.hexes[hex_id].tile != printed.tile_id


def tile_words(table: Table, hex_id: str) -> str:
    """The tile on a hex: "#57 green" for a tile laid, the printed colour otherwise (none
    for a plain white hex)."""
    tile = board.tile_of(table, hex_id)
    if laid(table, hex_id):
        return f"#{table.state.hexes[hex_id].tile.rsplit('-', 1)[0]} {tile.color}"
    return tile.color if tile.color != "white" else ""


def slot_words(city) -> str:
    """A city's slots: the token in each ("DE"), a slot kept for a home ("(RSE)"), free
    ("·"), a slot the map blocks for everyone ("blocked"); tokens beyond the slots after a
    "+"."""
    out = []
    for i, token in enumerate(city.slots):
        kept = city.reservations[i] if i < len(city.reservations) else None
        if token is not None:
            out.append("blocked" if token.kind == "neutral" else short_name(token.owner))
        elif kept is not None:
            out.append(f"({short_name(kept)})")
        else:
            out.append(FREE)
    extra = " ".join(short_name(t.owner) for t in city.extra)
    return " ".join(out) + (f" + {extra}" if extra else "")


def _paying(node, colors) -> str:
    revenue = node.revenue_in(colors)
    return f" {revenue}" if revenue else ""


def stop_words(table: Table, hex_id: str) -> List[str]:
    """Each stop of the hex's tile: "city 40: DE ·", "town 10", "off-board 20/30/50"
    (what it pays in the current phase; a printed white city or town pays nothing yet)."""
    colors = tuple(table.phase.tiles)
    out = []
    for node in board.view(table, hex_id).nodes.values():
        if node.is_offboard:
            values = sorted({v for _, v in node.part.revenue})
            out.append("off-board " + "/".join(str(v) for v in values))
        elif node.is_city:
            out.append(f"city{_paying(node, colors)}: {slot_words(node.city)}")
        elif node.is_town:
            out.append(f"town{_paying(node, colors)}")
    return out


def shown(table: Table, hex_id: str) -> bool:
    """A hex the listing shows: a named place, a stop, or track laid."""
    return bool(board.view(table, hex_id).nodes) or laid(table, hex_id) or \
        hex_name(table, hex_id) != hex_id


def hex_line(table: Table, hex_id: str) -> str:
    """One hex in a line: coordinate, name, tile, stops."""
    name = hex_name(table, hex_id)
    place = name if name != hex_id else ""
    stops = "; ".join(stop_words(table, hex_id))
    return f"  {hex_id:<4} {place:<24} {tile_words(table, hex_id):<11} {stops}".rstrip()


def row_of(table: Table, hex_id: str) -> Tuple[int, str]:
    """The row a hex sits in as the map prints it, and its name: the letter on a map whose
    rows are lettered, else the number."""
    m = _COORD.match(hex_id)
    letters_on_x = table.spec.data.map.letters_on_x
    if m is None:
        return (0, "")
    y = hex_xy(hex_id, letters_on_x)[1]
    return (y, m.group(2) if letters_on_x else m.group(1))


def matches(table: Table, hex_id: str, words: str) -> bool:
    """Whether a hex answers to what was typed: the start of its coordinate or of a word of
    its name, or of a company holding a station there (any case)."""
    words = words.strip().lower()
    if not words:
        return True
    text = f"{hex_id} {hex_name(table, hex_id)} " + " ".join(stop_words(table, hex_id))
    return any(w.startswith(words) for w in re.split(r"[\s():,/&-]+", text.lower()) if w) or \
        hex_id.lower() == words


def map_lines(table: Table, only: str = "") -> List[str]:
    """The listing of the board, row by row ("Row L"), the hexes that matter, or only
    those answering to ``only`` (see :func:`matches`)."""
    rows: Dict[Tuple[int, str], List[str]] = {}
    for hex_id in table.spec.hexes:
        if shown(table, hex_id) and matches(table, hex_id, only):
            rows.setdefault(row_of(table, hex_id), []).append(hex_id)
    out: List[str] = []
    for (_, label), hexes in sorted(rows.items()):
        out.append(f"Row {label}")
        letters_on_x = table.spec.data.map.letters_on_x
        for hex_id in sorted(hexes, key=lambda h: hex_xy(h, letters_on_x)[0]):
            out.append(hex_line(table, hex_id))
    return out


def mark(table: Table, hex_id: str) -> str:
    """The grid's mark after a coordinate: a station ("*"), else the kind of stop."""
    nodes = board.view(table, hex_id).nodes.values()
    if any(n.is_city and (any(n.city.slots) or n.city.extra) for n in nodes):
        return TOKEN_MARK
    kinds = [n.kind for n in nodes]
    for kind in ("city", "offboard", "town"):
        if kind in kinds:
            return MARKS[kind]
    return " "


def grid_lines(table: Table) -> List[Text]:
    """The map as a grid of coordinates, laid out as the hexes lie (a hex's neighbours
    beside it, half a row up or down), each coloured as its tile and marked: "o" a city,
    "*" a city with a station, "." a town, ">" an off-board."""
    layout = table.spec.data.map.layout
    letters_on_x = table.spec.data.map.letters_on_x
    places = {h: hex_xy(h, letters_on_x) for h in table.spec.hexes if _COORD.match(h)}
    if not places:
        return []
    width = max(len(h) for h in places) + 1
    unit = width + 1 if layout == "flat" else (width + 2) // 2
    low_x = min(x for x, _ in places.values())
    low_y = min(y for _, y in places.values())
    lines: Dict[int, List[Tuple[int, str, str]]] = {}
    for h, (x, y) in places.items():
        color = board.tile_of(table, h).color
        lines.setdefault(y - low_y, []).append(
            ((x - low_x) * unit, (h + mark(table, h)).ljust(width), STYLES.get(color, "")))
    out: List[Text] = []
    for y in range(max(lines) + 1):
        text = Text()
        for at, cell, style in sorted(lines.get(y, [])):
            text.append(" " * max(0, at - len(text)))
            text.append(cell, style=style)
        out.append(text)
    return out


def legend() -> str:
    return (f"o city, {TOKEN_MARK} city with a station, . town, > off-board; "
            f"in a city's slots {FREE} is free, (XX) kept for XX's home")

