"""Pictures for a guide, drawn from the title's data: the map as printed (each hex in its
colour, with its track, cities, towns, off-board values, terrain costs and names) and the
stock market grid, as SVG."""

from __future__ import annotations

import html
import math
from typing import Dict, List, Tuple

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


def _centre(layout: str, x: int, y: int) -> Tuple[float, float]:
    if layout == "flat":
        return x * 1.5 * R, y * math.sqrt(3) / 2 * R
    return x * math.sqrt(3) / 2 * R, y * 1.5 * R


def _corners(layout: str, cx: float, cy: float) -> List[Tuple[float, float]]:
    start = 0 if layout == "flat" else 30
    return [(cx + R * math.cos(math.radians(start + 60 * i)),
             cy + R * math.sin(math.radians(start + 60 * i))) for i in range(6)]


def _side_point(layout: str, side: int, cx: float, cy: float, scale: float = 1.0):
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
    values = sorted({v for _, v in stop.revenue})
    return "/".join(str(v) for v in values) if any(values) else ""


def map_svg(spec: GameSpec) -> str:
    """The printed map of a game, as an SVG document."""
    layout = spec.grid.layout
    e = html.escape
    parts: List[str] = []
    centres: Dict[str, Tuple[float, float]] = {}
    for hex_id, (x, y) in spec.grid.xy.items():
        centres[hex_id] = _centre(layout, x, y)
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    left, top = min(xs) - R - 2, min(ys) - R - 2
    width, height = max(xs) - left + R + 2, max(ys) - top + R + 2
    for hex_id, printed in spec.hexes.items():
        tile = printed.tile
        if tile is None:
            continue
        cx, cy = centres[hex_id]
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in _corners(layout, cx, cy))
        parts.append(f'<polygon points="{points}" fill="{FILL.get(tile.color, "#fff")}" '
                     f'stroke="#777" stroke-width="0.8"><title>{e(hex_id)}'
                     f'{" " + e(printed.name) if printed.name else ""}</title></polygon>')
        for t in tile.track_parts:
            ends = []
            for end in (t.a, t.b):
                if isinstance(end, SideEnd):
                    ends.append(_side_point(layout, end.side, cx, cy))
                elif isinstance(end, NodeEnd):
                    ends.append((cx, cy))
            if len(ends) == 2:
                (x1, y1), (x2, y2) = ends
                if (x1, y1) == (x2, y2):
                    continue
                dash = ' stroke-dasharray="4,3"' if t.gauge == "narrow" else ""
                parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                             f'stroke="#222" stroke-width="3"{dash}/>')
        for b in tile.borders:
            if b.kind == "impassable":
                (ax, ay), (bx, by) = _side_corners(layout, b.side, cx, cy)
                parts.append(f'<line x1="{ax:.1f}" y1="{ay:.1f}" x2="{bx:.1f}" '
                             f'y2="{by:.1f}" stroke="#c00" stroke-width="3"/>')
        label_y = cy - R * 0.55
        for stop in tile.stops:
            value = _revenue(stop)
            if stop.kind == "city":
                parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{R * 0.3:.1f}" '
                             f'fill="#fff" stroke="#222" stroke-width="1.5"/>')
                if stop.slots > 1:
                    parts.append(f'<text x="{cx:.1f}" y="{cy + 3:.1f}" font-size="8" '
                                 f'text-anchor="middle">{stop.slots}</text>')
            elif stop.kind == "town":
                parts.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{R * 0.12:.1f}" '
                             f'fill="#222"/>')
            if value:
                parts.append(f'<text x="{cx:.1f}" y="{cy + R * 0.62:.1f}" font-size="8" '
                             f'text-anchor="middle" font-weight="bold">{e(value)}</text>')
        for terrain in tile.terrain_parts:
            parts.append(f'<text x="{cx + R * 0.45:.1f}" y="{cy + R * 0.2:.1f}" font-size="7" '
                         f'text-anchor="middle" fill="#633">{terrain.cost}</text>')
        parts.append(f'<text x="{cx:.1f}" y="{label_y:.1f}" font-size="7" '
                     f'text-anchor="middle" fill="#333">{e(hex_id)}</text>')
        if printed.name:
            parts.append(f'<text x="{cx:.1f}" y="{cy - R * 0.33:.1f}" font-size="6" '
                         f'text-anchor="middle" fill="#000">{e(printed.name[:16])}</text>')
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left:.0f} {top:.0f} '
            f'{width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}" '
            f'font-family="sans-serif">' + "".join(parts) + "</svg>")


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
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{per_line * w}" '
            f'height="{lines * h}" font-family="sans-serif">' + "".join(cells) + "</svg>")
