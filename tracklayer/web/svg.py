"""The map as SVG, drawn on the server from the engine's tile data: each hex's tile in its
colour, its track (by gauge), cities with their token slots, towns, off-boards and their
revenues, terrain and border costs, labels and names; and single tiles for the tile picker.

Geometry: 18xx.games numbers hex sides clockwise from the bottom (flat-topped maps) or from
the lower left (pointy-topped); the grid's doubled coordinates place each hex."""

from __future__ import annotations

import math
from html import escape
from typing import Dict, List, Optional, Sequence, Tuple

from ..board.notation import StopPart
from ..board.tiles import TileDef
from ..game import Game
from ..rules import board
from ..state.model import CorporationState, MinorState

R = 50.0                         # hex radius (centre to corner)
APOTHEM = R * math.sqrt(3) / 2
COLORS = {"white": "#eae0c8", "yellow": "#fde900", "green": "#71bf44", "brown": "#cb7745",
          "gray": "#bcbdc0", "red": "#e05050", "blue": "#35a7ff", "sepia": "#d6b37b",
          "greenbrown": "#a2a046", "browngray": "#c39b80", "brownsepia": "#d19a6a",
          "none": "#eae0c8", "pink": "#f7a8c8", "purple": "#a070c0", "orange": "#f5a030"}
COMPANY_COLORS = {"black": "#222", "white": "#fff", "yellow": "#ffd700", "gold": "#d4af37"}


def side_angle(layout: str, side: float) -> float:
    """Degrees (SVG: clockwise from east) from the hex centre towards the middle of a side."""
    return (90 + 60 * side) if layout == "flat" else (120 + 60 * side)


def polar(angle: float, dist: float) -> Tuple[float, float]:
    a = math.radians(angle)
    return round(math.cos(a) * dist, 2), round(math.sin(a) * dist, 2)


def corners(layout: str, radius: float = R) -> str:
    start = 0 if layout == "flat" else 30
    return " ".join("%s,%s" % polar(start + 60 * k, radius) for k in range(6))


def centre(xy: Tuple[int, int], layout: str) -> Tuple[float, float]:
    x, y = xy
    if layout == "flat":
        return x * 1.5 * R, y * APOTHEM
    return x * APOTHEM, y * 1.5 * R


class TileDrawing:
    """One tile at one rotation, drawn around (0, 0)."""

    def __init__(self, tile: TileDef, rotation: int, layout: str, cities=(),
                 phase_color: Optional[str] = None, token_cities=(), hex_id: str = "") -> None:
        self.tile, self.rotation, self.layout = tile, rotation, layout
        self.hex_id = hex_id                # names the stops (data-node) for route clicks
        self.shape = tile.layout(rotation)
        self.cities = list(cities)          # CityState per city of the tile, when laid
        self.phase_color = phase_color
        # where a token may go now: city index → the slots named (empty: any free one)
        self.token_cities = token_cities if isinstance(token_cities, dict) else \
            {i: [] for i in token_cities}
        self.out: List[str] = []

    def stop_xy(self, stop: int) -> Tuple[float, float]:
        side = self.shape.drawn_sides.get(stop)
        if side is None:
            return 0.0, 0.0
        part = self.tile.parts[stop]
        dist = APOTHEM * (0.5 if part.is_city else 0.55)
        return polar(side_angle(self.layout, side), dist)

    def end_xy(self, end) -> Tuple[float, float]:
        kind, value = end
        if kind == "side":
            return polar(side_angle(self.layout, value), APOTHEM)
        if kind == "junction":
            return 0.0, 0.0
        return self.stop_xy(value)

    def draw(self) -> str:
        fill = COLORS.get(self.tile.color, "#eee")
        self.out.append(f'<polygon class="tile" points="{corners(self.layout)}" fill="{fill}" '
                        f'stroke="#333" stroke-width="1"/>')
        self._terrain()
        for t in self.shape.tracks:
            self._track(t)
        for part in self.tile.stops:
            if part.is_city:
                self._city(part)
            elif part.is_town:
                self._town(part)
            else:
                self._offboard(part)
        for i, text in enumerate(self.tile.labels):
            self.out.append(f'<text class="label" x="{-R * 0.55:.1f}" y="{-R * 0.35 + i * 12:.1f}"'
                            f' font-size="13" font-weight="bold">{escape(text)}</text>')
        return "".join(self.out)

    def _track(self, t) -> None:
        ends = list(t.ends)
        if len(ends) != 2:
            return
        (x1, y1), (x2, y2) = self.end_xy(ends[0]), self.end_xy(ends[1])
        width = 8 if t.gauge != "narrow" else 4
        dash = ' stroke-dasharray="6,4"' if t.gauge == "narrow" else ""
        if ends[0][0] == "side" and ends[1][0] == "side":
            path = f"M{x1},{y1} Q0,0 {x2},{y2}"
        else:
            path = f"M{x1},{y1} L{x2},{y2}"
        self.out.append(f'<path class="track" d="{path}" stroke="#000" stroke-width="{width}"'
                        f' fill="none"{dash}/>')

    def _revenue(self, part: StopPart, x: float, y: float) -> None:
        if part.is_offboard:
            return
        value = part.revenue_table().get(self.phase_color or "yellow", part.best_revenue)
        if not value:
            return
        self.out.append(f'<circle cx="{x}" cy="{y}" r="8" fill="#fff" stroke="#000" '
                        f'stroke-width="0.8"/><text x="{x}" y="{y + 3.5}" font-size="10" '
                        f'text-anchor="middle">{value}</text>')

    def _node(self, part: StopPart) -> str:
        """The attributes naming a stop for a click that builds a route."""
        return f' data-node="{self.hex_id}-{part.index}"' if self.hex_id else ""

    def _city(self, part: StopPart) -> None:
        x, y = self.stop_xy(part.index)
        index = self.tile.cities.index(part)
        marked = self.token_cities.get(index)
        self.out.append(f'<g class="stop city{" legal-city" if marked is not None else ""}"'
                        f'{self._node(part)} data-city="{index}">')
        state = self.cities[index] if index < len(self.cities) else None
        slots = max(part.slots, len(state.slots) if state else 0)
        r = 12 if slots == 1 else 10
        offsets = [(0, 0)] if slots == 1 else \
            [(-r + 2 * r * i / (slots - 1) * 1.0, 0) for i in range(slots)] if slots <= 2 else \
            [polar(90 + 360 * i / slots, r * 1.2) for i in range(slots)]
        if slots > 1:
            w = 2 * r * (1 if slots == 2 else 1.8) + 2 * r
            self.out.append(f'<rect x="{x - w / 2}" y="{y - r - 1}" width="{w}" height="{2 * r + 2}"'
                            f' rx="{r}" fill="#fff" stroke="#000"/>' if slots == 2 else
                            f'<circle cx="{x}" cy="{y}" r="{r * 2.3}" fill="#fff" stroke="#000"/>')
        for i, (dx, dy) in enumerate(offsets):
            token = state.slots[i] if state and i < len(state.slots) else None
            cx, cy = round(x + dx, 2), round(y + dy, 2)
            reserved = state.reservations[i] if state and i < len(state.reservations) else None
            legal = token is None and marked is not None and \
                (i in marked if marked else reserved is None)
            attrs = f'class="slot{" legal-token" if legal else ""}" data-city="{index}" ' \
                    f'data-slot="{i}"'
            if legal:
                self.out.append(f'<circle cx="{cx}" cy="{cy}" r="{r + 3}" fill="none" '
                                f'stroke="#d0f" stroke-width="3"/>')
            if token is None:
                self.out.append(f'<circle {attrs} cx="{cx}" cy="{cy}" r="{r}" fill="#fff" '
                                f'stroke="#000" stroke-width="1.5"/>')
                if reserved is not None:
                    self.out.append(self._sym_text(cx, cy, _sym(reserved), "#888"))
            else:
                owner = token.owner
                color = color_of(owner)
                self.out.append(f'<circle {attrs} cx="{cx}" cy="{cy}" r="{r}" fill="{color}" '
                                f'stroke="#000" stroke-width="1.5"/>')
                self.out.append(self._sym_text(cx, cy, _sym(owner), _ink(color)))
        self.out.append("</g>")
        self._revenue(part, x + (r + 12 if slots > 1 else r + 6), y - r - 2)

    @staticmethod
    def _sym_text(x, y, sym: str, fill: str) -> str:
        size = 9 if len(sym) <= 3 else 7
        return (f'<text x="{x}" y="{y + size / 3}" font-size="{size}" text-anchor="middle" '
                f'fill="{fill}" font-weight="bold">{escape(sym)}</text>')

    def _town(self, part: StopPart) -> None:
        x, y = self.stop_xy(part.index)
        self.out.append(f'<circle class="stop town" cx="{x}" cy="{y}" r="6" fill="#000"'
                        f'{self._node(part)}/>')
        self._revenue(part, x + 12, y - 10)

    def _offboard(self, part: StopPart) -> None:
        values = [(c, v) for c, v in part.revenue if c in ("yellow", "green", "brown", "gray")]
        seen, boxes = set(), []
        for c, v in values:
            if (c, v) not in seen:
                seen.add((c, v))
                boxes.append((c, v))
        if len({v for _, v in boxes}) == 1:
            boxes = boxes[:1]
        w = 20
        x0 = -w * len(boxes) / 2
        self.out.append(f'<g class="stop offboard"{self._node(part)}>')
        for i, (c, v) in enumerate(boxes):
            self.out.append(f'<rect x="{x0 + i * w}" y="-8" width="{w}" height="16" '
                            f'fill="{COLORS.get(c, "#fff")}" stroke="#000" stroke-width="0.6"/>'
                            f'<text x="{x0 + i * w + w / 2}" y="4" font-size="10" '
                            f'text-anchor="middle">{v}</text>')
        self.out.append("</g>")

    def _terrain(self) -> None:
        for i, t in enumerate(self.tile.terrain_parts):
            if not t.cost:
                continue
            x, y = R * 0.35, R * 0.45 + i * 12
            self.out.append(f'<polygon points="{x - 9},{y + 6} {x},{y - 8} {x + 9},{y + 6}" '
                            f'fill="#8b5a2b" opacity="0.8"/><text x="{x}" y="{y + 4}" '
                            f'font-size="8" fill="#fff" text-anchor="middle">{t.cost}</text>')


def _sym(entity) -> str:
    return str(entity.sym if isinstance(entity, _HAS_SYM) else entity)


def color_of(owner) -> str:
    spec = owner.spec if isinstance(owner, _HAS_SYM) else None
    name = spec.color if spec is not None and isinstance(spec.color, str) else "gray"
    return COMPANY_COLORS.get(name, name if name.startswith("#") else name)


LIGHT_NAMES = ("white", "yellow", "gold", "orange", "lightblue", "pink", "lime")


def _ink(color: str) -> str:
    """Black on a light colour, white on a dark one: a named colour by the list of light
    ones, a hex colour (#rgb, #rrggbb) by its brightness."""
    if not color.startswith("#"):
        return "#000" if color in LIGHT_NAMES else "#fff"
    digits = color[1:]
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    try:
        r, g, b = (int(digits[i:i + 2], 16) for i in (0, 2, 4))
    except ValueError:
        return "#fff"
    return "#000" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def chip_style(color: str) -> str:
    """A company chip's style: its colour, with ink that reads on it (no dark halo round
    black ink)."""
    ink = _ink(color)
    return f"background: {color}; color: {ink}" + ("; text-shadow: none" if ink == "#000"
                                                    else "")


_HAS_SYM = (CorporationState, MinorState)


def phase_color(game: Game) -> str:
    tiles = game.table.spec.phases[game.state.phase].tiles
    return tiles[-1] if tiles else "yellow"


def draw_map(game: Game, highlight: Sequence[str] = (), routes: Sequence[dict] = (),
             options: Optional[Dict[str, Dict[str, List[int]]]] = None,
             token_cities: Optional[Dict[str, Dict[int, List[int]]]] = None) -> str:
    """The whole map; each hex a ``<g class="hex" data-hex="L3">``, each stop named by
    ``data-node`` (for route clicks); hexes in ``highlight`` marked (those where the seat
    to act may lay a tile), with ``options`` (tile → rotations) drawn hidden for the page
    to show while chosen; city slots in ``token_cities`` marked; ``routes`` (trains with
    ``color``, ``nodes``, ``connections`` or ``hexes``) drawn in the route layer."""
    table = game.table
    grid = table.spec.grid
    layout = grid.layout
    pc = phase_color(game)
    placed: Dict[str, Tuple[float, float]] = {h: centre(xy, layout) for h, xy in grid.xy.items()}
    xs = [p[0] for p in placed.values()]
    ys = [p[1] for p in placed.values()]
    pad = R * 1.1
    minx, miny = min(xs) - pad, min(ys) - pad
    width, height = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + 2 * pad
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="map" viewBox="{minx:.0f} {miny:.0f} '
           f'{width:.0f} {height:.0f}" width="{width * 0.8:.0f}" font-family="sans-serif">']
    marked = set(highlight)
    for hex_id in table.spec.hex_order if table.spec.hex_order else sorted(placed):
        if hex_id not in placed:
            continue
        x, y = placed[hex_id]
        h = table.state.hexes[hex_id]
        tile = board.tile_of(table, hex_id)
        printed = table.spec.hexes.get(hex_id)
        cls = "hex legal" if hex_id in marked else "hex"
        out.append(f'<g class="{cls}" data-hex="{hex_id}" transform="translate({x:.1f},{y:.1f})">')
        out.append(TileDrawing(tile, h.rotation, layout, h.cities, pc,
                               (token_cities or {}).get(hex_id, ()), hex_id).draw())
        for tile_id, rotations in (options or {}).get(hex_id, {}).items():
            new_tile = board.supply_tile(table, tile_id)
            for r in rotations:
                # shown by the page (Alpine.js) while this tile and rotation are chosen
                out.append(f'<g class="preview" style="display: none" x-show="hex === '
                           f"'{hex_id}' && tile === '{tile_id}' && rot === {r}\">"
                           f'{TileDrawing(new_tile, r, layout, h.cities, pc).draw()}</g>')
        out.append(_borders(h, layout))
        if printed is not None and printed.name:
            out.append(f'<text x="0" y="{APOTHEM * 0.82:.1f}" font-size="8" '
                       f'text-anchor="middle">{escape(printed.name[:22])}</text>')
        out.append(f'<text x="{-R * 0.15:.1f}" y="{-APOTHEM * 0.72:.1f}" font-size="7" '
                   f'fill="#555">{hex_id}</text>')
        if hex_id in marked:
            out.append(f'<polygon class="mark" points="{corners(layout, R - 3)}" fill="none" '
                       f'stroke="#d0f" stroke-width="4" opacity="0.7"/>')
        out.append("</g>")
    out.append(f'<g id="route-layer">{route_layer(game, routes)}</g>')
    out.append("</svg>")
    return "".join(out)


def stop_point(game: Game, name: str) -> Optional[Tuple[float, float]]:
    """Where the stop ``"HEX-part"`` is drawn on the map."""
    table = game.table
    hex_id, _, part = str(name).rpartition("-")
    xy = table.spec.grid.xy.get(hex_id)
    if xy is None or not part.isdigit():
        return None
    cx, cy = centre(xy, table.spec.grid.layout)
    tile = board.tile_of(table, hex_id)
    index = int(part)
    if index >= len(tile.parts) or not isinstance(tile.parts[index], StopPart) or \
            tile.parts[index].is_offboard:
        return cx, cy
    drawing = TileDrawing(tile, table.state.hexes[hex_id].rotation, table.spec.grid.layout)
    dx, dy = drawing.stop_xy(index)
    return cx + dx, cy + dy


def route_points(game: Game, route: dict) -> List[Tuple[float, float]]:
    """The points a route is drawn through: its stops, and between two stops the middle
    of each hex its track crosses."""
    layout = game.table.spec.grid.layout
    xy = game.table.spec.grid.xy
    nodes = list(route.get("nodes") or [])
    legs = [[n.split()[0] for n in leg] for leg in route.get("connections") or []]
    if len(nodes) != len(legs) + 1 or not legs:
        return [centre(xy[h], layout) for h in route.get("hexes") or () if h in xy]
    points: List[Tuple[float, float]] = []
    for i, leg in enumerate(legs):
        start = stop_point(game, nodes[i])
        if start is not None and (not points or points[-1] != start):
            points.append(start)
        points.extend(centre(xy[h], layout) for h in leg[1:-1] if h in xy)
        end = stop_point(game, nodes[i + 1])
        if end is not None:
            points.append(end)
    return points


def route_layer(game: Game, routes: Sequence[dict]) -> str:
    """Each train's route, in the train's colour, with its stops ringed."""
    out = []
    for i, r in enumerate(routes):
        points = route_points(game, r)
        if len(points) < 2:
            continue
        color = r.get("color") or "#f0f"
        offset = (i % 3 - 1) * 3         # routes sharing hexes side by side
        line = " ".join(f"{x + offset:.1f},{y + offset:.1f}" for x, y in points)
        title = escape(f"{r.get('name') or r.get('train')}: {r.get('revenue', '')}")
        out.append(f'<polyline class="route" data-train="{escape(str(r.get("train")))}" '
                   f'points="{line}" fill="none" stroke="{color}" stroke-width="7" '
                   f'opacity="0.75" stroke-linejoin="round" stroke-linecap="round">'
                   f'<title>{title}</title></polyline>')
        for x, y in points[:1] + points[-1:]:
            out.append(f'<circle class="route-end" cx="{x + offset:.1f}" cy="{y + offset:.1f}" '
                       f'r="5" fill="{color}" opacity="0.9"/>')
    return "".join(out)


def _borders(h, layout: str) -> str:
    out = []
    for b in h.borders or ():
        side = b.side
        a1, a2 = side_angle(layout, side) - 30, side_angle(layout, side) + 30
        (x1, y1), (x2, y2) = polar(a1, R), polar(a2, R)
        color = "#00f" if b.cost else "#f00"
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{color}" '
                   f'stroke-width="5"/>')
        if b.cost:
            mx, my = polar(side_angle(layout, side), APOTHEM * 0.8)
            out.append(f'<text x="{mx}" y="{my}" font-size="9" text-anchor="middle">{b.cost}</text>')
    return "".join(out)


def draw_tile(game: Game, hex_id: str, tile_id: str, rotation: int, size: int = 90) -> str:
    """A supply tile as it would lie on ``hex_id`` at ``rotation`` (for the picker)."""
    table = game.table
    tile = board.supply_tile(table, tile_id)
    layout = table.spec.grid.layout
    h = table.state.hexes[hex_id]
    box = R * 1.05
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{-box} {-box} {2 * box} {2 * box}"'
            f' width="{size}" height="{size}" font-family="sans-serif">'
            f'{TileDrawing(tile, rotation, layout, [] if tile.cities else h.cities, phase_color(game)).draw()}'
            f'</svg>')
