"""Pictures for a guide, drawn from the title's data as SVG: the map as printed (each hex
in its colour, with its track, cities, towns, off-board values, terrain costs and names),
the tiles of the supply by colour (with how many there are), and the stock market grid."""

from __future__ import annotations

import html
import math
from typing import Dict, List, Sequence, Tuple

from ..board.grid import SIDE_OFFSETS
from ..board.notation import NodeEnd, SideEnd
from ..spec.resolved import GameSpec

R = 30.0                                  # hex radius in SVG units
FILL = {"white": "#f4eedc", "yellow": "#f5d93b", "green": "#6cb55a", "brown": "#b07a4a",
        "gray": "#b9b9b9", "red": "#d9534f", "blue": "#5aa0d8", "black": "#444"}
CELL_FILL = {"par": "#ffd7d7", "par_1": "#ffe8c7", "par_2": "#fff3b0", "par_3": "#e2f5c8",
             "endgame": "#c9a6ff", "close": "#555", "liquidation": "#ff8080",
             "acquisition": "#cccccc", "safe_par": "#c7e3ff", "phase_limited": "#b8dcff",
             "pays_bonus": "#c9a6ff"}
TILE_COLOURS = ("yellow", "green", "brown", "gray")
Point = Tuple[float, float]


def svg(width: float, height: float, body: Sequence[str], left: float = 0,
        top: float = 0) -> str:
    """An SVG document of ``body`` in the box given."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.0f} {top:.0f} '
            f'{width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
            f'font-family="sans-serif">' + "".join(body) + "</svg>")


def _centre(layout: str, x: int, y: int) -> Point:
    if layout == "flat":
        return x * 1.5 * R, y * math.sqrt(3) / 2 * R
    return x * math.sqrt(3) / 2 * R, y * 1.5 * R


def _corners(layout: str, cx: float, cy: float) -> List[Point]:
    start = 0 if layout == "flat" else 30
    return [(cx + R * math.cos(math.radians(start + 60 * i)),
             cy + R * math.sin(math.radians(start + 60 * i))) for i in range(6)]


def _side_point(layout: str, side: int, cx: float, cy: float, scale: float = 1.0) -> Point:
    """The middle of a hex side (``scale`` < 1: towards the centre)."""
    dx, dy = SIDE_OFFSETS[layout][side]
    ox, oy = _centre(layout, dx, dy)
    length = math.hypot(ox, oy)
    apothem = R * math.sqrt(3) / 2 * scale
    return cx + ox / length * apothem, cy + oy / length * apothem


def _side_corners(layout: str, side: int, cx: float, cy: float):
    """The two corners at the ends of a hex side."""
    mx, my = _side_point(layout, side, cx, cy)
    corners = sorted(_corners(layout, cx, cy), key=lambda p: math.hypot(p[0] - mx, p[1] - my))
    return corners[0], corners[1]


def _revenue(stop) -> str:
    values = sorted({v for k, v in stop.revenue if k != "diesel"})
    return "/".join(str(v) for v in values) if any(values) else ""


def _stop_places(layout: str, tile, cx: float, cy: float) -> Dict[int, Point]:
    """Where each stop of a tile is drawn: in the centre if it is alone, else towards
    the sides its track leaves by."""
    places: Dict[int, Point] = {}
    for stop in tile.stops:
        places[stop.index] = (cx, cy)
    if len(tile.stops) < 2:
        return places
    for stop in tile.stops:
        sides = [end.side for t in tile.track_parts for end, other in ((t.a, t.b), (t.b, t.a))
                 if isinstance(end, SideEnd) and isinstance(other, NodeEnd)
                 and other.part == stop.index]
        if sides:
            points = [_side_point(layout, s, cx, cy, 0.45) for s in sides]
            places[stop.index] = (sum(p[0] for p in points) / len(points),
                                  sum(p[1] for p in points) / len(points))
    return places


def hex_parts(layout: str, tile, cx: float, cy: float, label: str = "",
              name: str = "") -> List[str]:
    """A hex with ``tile`` on it, centred at (cx, cy): its colour, track, stops, revenue,
    terrain and borders; ``label`` above the centre (a hex id), ``name`` below it."""
    e = html.escape
    parts: List[str] = []
    points = " ".join(f"{px:.1f},{py:.1f}" for px, py in _corners(layout, cx, cy))
    parts.append(f'<polygon points="{points}" fill="{FILL.get(tile.color, "#fff")}" '
                 f'stroke="#777" stroke-width="0.8"><title>{e(label)}'
                 f'{" " + e(name) if name else ""}</title></polygon>')
    places = _stop_places(layout, tile, cx, cy)
    for t in tile.track_parts:
        ends = []
        for end in (t.a, t.b):
            if isinstance(end, SideEnd):
                ends.append(_side_point(layout, end.side, cx, cy))
            elif isinstance(end, NodeEnd):
                ends.append(places.get(end.part, (cx, cy)))
        if len(ends) != 2 or ends[0] == ends[1]:
            continue
        (x1, y1), (x2, y2) = ends
        dash = ' stroke-dasharray="4,3"' if t.gauge == "narrow" else ""
        if all(isinstance(end, SideEnd) for end in (t.a, t.b)):
            parts.append(f'<path d="M{x1:.1f},{y1:.1f} Q{cx:.1f},{cy:.1f} {x2:.1f},{y2:.1f}" '
                         f'fill="none" stroke="#222" stroke-width="3"{dash}/>')
        else:
            parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                         f'stroke="#222" stroke-width="3"{dash}/>')
    for b in tile.borders:
        if b.kind == "impassable":
            (ax, ay), (bx, by) = _side_corners(layout, b.side, cx, cy)
            parts.append(f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" y2="{by:.1f}" '
                         f'stroke="#c00" stroke-width="3"/>')
    values = []
    for stop in tile.stops:
        sx, sy = places[stop.index]
        if stop.kind == "city":
            parts.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="{R * 0.3:.1f}" '
                         f'fill="#fff" stroke="#222" stroke-width="1.5"/>')
            if stop.slots > 1:
                parts.append(f'<text x="{sx:.1f}" y="{sy + 3:.1f}" font-size="8" '
                             f'text-anchor="middle">{stop.slots}</text>')
        elif stop.kind == "town":
            parts.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="{R * 0.12:.1f}" '
                         f'fill="#222"/>')
        value = _revenue(stop)
        if value and value not in values:
            values.append(value)
    if values:
        parts.append(f'<text x="{cx:.1f}" y="{cy + R * 0.68:.1f}" font-size="8" '
                     f'text-anchor="middle" font-weight="bold">{e(" ".join(values))}</text>')
    for terrain in tile.terrain_parts:
        parts.append(f'<text x="{cx + R * 0.45:.1f}" y="{cy + R * 0.2:.1f}" font-size="7" '
                     f'text-anchor="middle" fill="#633">{terrain.cost}</text>')
    if tile.label:
        parts.append(f'<text x="{cx - R * 0.5:.1f}" y="{cy + R * 0.2:.1f}" font-size="8" '
                     f'text-anchor="middle" font-weight="bold">{e(tile.label)}</text>')
    if label:
        parts.append(f'<text x="{cx:.1f}" y="{cy - R * 0.55:.1f}" font-size="7" '
                     f'text-anchor="middle" fill="#333">{e(label)}</text>')
    if name:
        parts.append(f'<text x="{cx:.1f}" y="{cy - R * 0.33:.1f}" font-size="6" '
                     f'text-anchor="middle" fill="#000">{e(name[:16])}</text>')
    return parts


def map_svg(spec: GameSpec) -> str:
    """The printed map of a game, as an SVG document."""
    layout = spec.grid.layout
    centres = {hex_id: _centre(layout, x, y) for hex_id, (x, y) in spec.grid.xy.items()}
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    left, top = min(xs) - R - 2, min(ys) - R - 2
    width, height = max(xs) - left + R + 2, max(ys) - top + R + 2
    parts: List[str] = []
    for hex_id, printed in spec.hexes.items():
        if printed.tile is not None:
            cx, cy = centres[hex_id]
            parts.extend(hex_parts(layout, printed.tile, cx, cy, hex_id, printed.name or ""))
    return svg(width, height, parts, left, top)


def supply(spec: GameSpec) -> Dict[str, List[Tuple[str, object]]]:
    """The tiles a game brings, by colour: (tile name, how many: a number or
    "unlimited"), in the title's order."""
    out: Dict[str, List[Tuple[str, object]]] = {}
    for name, entry in spec.data.tiles.tiles.items():
        count = entry[0] if isinstance(entry, tuple) else entry
        out.setdefault(spec.tile_def(name).color, []).append((name, count))
    return out


def tiles_svg(spec: GameSpec, colour: str, per_line: int = 8) -> str:
    """The tiles of one colour, each with its name and how many there are."""
    layout = spec.grid.layout
    tiles = supply(spec).get(colour, [])
    step_x, step_y = 2.3 * R, 2.6 * R
    parts: List[str] = []
    for i, (name, count) in enumerate(tiles):
        cx = R * 1.2 + (i % per_line) * step_x
        cy = R * 1.1 + (i // per_line) * step_y
        parts.extend(hex_parts(layout, spec.tile_def(name), cx, cy))
        times = "∞" if count == "unlimited" else f"×{count}"
        parts.append(f'<text x="{cx:.1f}" y="{cy + R * 1.2:.1f}" font-size="9" '
                     f'text-anchor="middle">{html.escape(name)} {times}</text>')
    lines = max(1, (len(tiles) + per_line - 1) // per_line)
    return svg(min(len(tiles), per_line) * step_x + 0.4 * R, lines * step_y, parts)


def market_svg(spec: GameSpec) -> str:
    """The stock market grid, each cell with its price, coloured by its kind."""
    w, h = 34, 22
    rows = spec.rows
    columns = max(len(r) for r in rows)
    one_row = len(rows) == 1
    per_line = 16 if one_row else columns
    cells = []
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            if cell is None:
                continue
            x, y = (c % per_line, c // per_line) if one_row else (c, r)
            fill = CELL_FILL.get(cell.kind, "#fff")
            colour = "#fff" if cell.kind == "close" else "#000"
            cells.append(f'<rect x="{x * w}" y="{y * h}" width="{w}" height="{h}" '
                         f'fill="{fill}" stroke="#666"/><text x="{x * w + w / 2}" '
                         f'y="{y * h + 15}" font-size="11" text-anchor="middle" '
                         f'fill="{colour}">{cell.price}</text>')
    lines = (len(rows[0]) + per_line - 1) // per_line if one_row else len(rows)
    return svg(per_line * w, lines * h, cells)
