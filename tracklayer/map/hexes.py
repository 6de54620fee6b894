"""The hex grid: coordinates, neighbours, and laying a tile on a hex."""

from __future__ import annotations

import re
from typing import Optional

from .tiles import ALL_EDGES, Tile

LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + \
          ["A" + chr(c) for c in range(ord("A"), ord("Z") + 1)]

# Offsets, in doubled coordinates, of the neighbour across each edge.
DIRECTIONS = {
    "flat": {(0, 2): 0, (-1, 1): 1, (-1, -1): 2, (0, -2): 3, (1, -1): 4, (1, 1): 5},
    "pointy": {(-1, 1): 0, (-2, 0): 1, (-1, -1): 2, (1, -1): 3, (2, 0): 4, (1, 1): 5},
}

_COORD = re.compile(r"^([A-Za-z]+)(-?\d+)$")


def invert(edge: int) -> int:
    """The same hex side seen from the neighbouring hex."""
    return (edge + 3) % 6


def coordinates_xy(coord: str, axes: dict) -> tuple:
    """Doubled (x, y) coordinates of a hex name such as ``"L3"``.

    ``axes`` says whether the letter or the number runs along x.
    """
    m = _COORD.match(coord)
    if not m:
        raise ValueError(f"not a hex coordinate: {coord!r}")
    letter, number = m.group(1), int(m.group(2))
    letter_value = LETTERS.index(letter)
    x = letter_value if axes["x"] == "letter" else number - 1
    y = letter_value if axes["y"] == "letter" else number - 1
    return x, y


class Hex:
    """A space of the map, holding one tile."""

    __slots__ = ("id", "layout", "x", "y", "neighbors", "all_neighbors", "tile", "original_tile",
                 "location_name", "tokens", "_paths_by_exit", "_links", "empty", "assignments",
                 "__weakref__")

    def __init__(self, coord: str, layout: str, axes: dict, tile: Optional[Tile] = None,
                 location_name: Optional[str] = None, empty: bool = False) -> None:
        self.id = coord
        self.layout = layout
        self.x, self.y = coordinates_xy(coord, axes)
        self.neighbors: dict = {}
        self.all_neighbors: dict = {}
        self.location_name = location_name
        self.tokens: list = []
        self.empty = empty
        self.assignments: dict = {}
        self.tile = tile
        self.original_tile = tile
        self._paths_by_exit = None
        self._links = None
        if tile is not None:
            tile.hex = self
            tile.location_name = location_name

    @property
    def name(self) -> str:
        return self.id

    def neighbor_direction(self, other: "Hex") -> Optional[int]:
        return DIRECTIONS[self.layout].get((other.x - self.x, other.y - self.y))

    def targeting(self, other: "Hex") -> bool:
        """Does this hex's tile have track towards ``other``?"""
        return self.neighbor_direction(other) in self.tile.exits

    def paths_at(self, edge: int) -> list:
        """The current tile's paths that leave through ``edge``."""
        if self._paths_by_exit is None:
            by_exit: dict = {}
            for path in self.tile.paths:
                for e in path.exits:
                    by_exit.setdefault(e, []).append(path)
            self._paths_by_exit = by_exit
        return self._paths_by_exit.get(edge, ())

    def links(self, path) -> list:
        """Where track ``path`` (on this hex) continues: ``(edge, lane, next path, its edge)``
        for every path across each of its hex sides whose lanes and gauge line up."""
        if self._links is None:
            self._links = {}
        found = self._links.get(path)
        if found is None:
            found = []
            for e in path.edges:
                num = e.num
                neighbor = self.neighbors.get(num)
                if neighbor is None:
                    continue
                np_edge = (num + 3) % 6
                lanes0 = path.exit_lanes.get(num)
                for np in neighbor.paths_at(np_edge):
                    if lane_match(lanes0, np.exit_lanes.get(np_edge)) and \
                            path.tracks_match(np, dual_ok=True):
                        found.append((num, e.lanes[1], np, np_edge))
            self._links[path] = found
        return found

    def distance(self, other: "Hex") -> int:
        """Distance in hexes as the crow flies."""
        dx = abs(other.x - self.x)
        dy = abs(other.y - self.y)
        if self.layout == "pointy":
            return dy + max(0, (dx - dy) // 2)
        return dx + max(0, (dy - dx) // 2)

    def city_map_for(self, tile: Tile) -> dict:
        """Which city of ``tile`` each city of the current tile becomes when ``tile`` is laid."""
        old_cities = self.tile.cities
        if not any(c.exits for c in old_cities) and len(old_cities) == len(tile.cities):
            city_map = dict(zip(old_cities, tile.cities))
        else:
            city_map = {}
            for old in old_cities:
                old_exits = old.exits
                new = None
                if old_exits:
                    for c in tile.cities:
                        c_exits = c.exits
                        if all(e in c_exits for e in old_exits):
                            new = c
                            break
                city_map[old] = new
        new_cities = [c for c in city_map.values() if c is not None]
        for i, old in enumerate(old_cities):
            if city_map.get(old) is not None:
                continue
            new = tile.cities[i] if i < len(tile.cities) else None
            if new in new_cities:
                new = next((c for c in tile.cities if c not in new_cities), None)
            city_map[old] = new
            new_cities.append(new)
        return city_map

    def lay(self, tile: Tile) -> None:
        """Put ``tile`` on this hex, carrying over tokens, reservations and borders."""
        from ..engine.errors import GameError

        city_map = self.city_map_for(tile)
        for old, new in city_map.items():
            if new is not None:
                new.reservations.extend(old.reservations)
                new.groups = old.groups
            old.reservations.clear()
        self.tile.hex = None
        tile.hex = self
        if len(city_map) == 1:
            old, new = next(iter(city_map.items()))
            for index, token in enumerate(old.tokens):
                if token is not None:
                    cheater = index >= old.slots
                    new.exchange_token(token, cheater=cheater)
            for token in old.extra_tokens:
                new.exchange_token(token, extra_slot=True)
            old.reset()
        elif len(city_map) > 1:
            groups: dict = {}
            for old, new in city_map.items():
                tokens = [t for t in old.tokens if t is not None]
                if new is None:
                    if tokens:
                        raise GameError(f"no city on tile {tile.id} for the tokens on {self.id}")
                    continue
                groups.setdefault(id(new), (new, []))[1].extend(tokens)
            for new, tokens in groups.values():
                tokens.sort(key=lambda t: 1 if t.cheater else 0)
                reserved = len(new.reservations)
                for index, token in enumerate(tokens):
                    new.exchange_token(token, cheater=(reserved + index) >= new.slots)
            for old, new in city_map.items():
                for token in old.extra_tokens:
                    new.exchange_token(token, extra_slot=True)
                old.reset()
        new_names = {}
        for icon in tile.icons:
            new_names.setdefault(icon.name, []).append(icon)
        kept = []
        for icon in self.tile.icons:
            if icon.sticky:
                if new_names.get(icon.name):
                    new_names[icon.name].pop()
                else:
                    tile.icons.append(icon)
                    continue
            if icon.preprinted:
                kept.append(icon)
        self.tile.icons = kept
        tile.reservations = self.tile.reservations
        self.tile.reservations = []
        tile.borders.extend(self.tile.borders)
        self.tile.borders = []
        tile.partitions.extend(self.tile.partitions)
        self.tile.partitions = []
        tile.location_name = self.location_name
        self.tile.location_name = None
        self.tile = tile
        self._paths_by_exit = None
        self._links = None

    def invalidate_paths(self) -> None:
        """Forget cached track (after a tile or a border changes here or next door)."""
        self._paths_by_exit = None
        self._links = None

    def __repr__(self) -> str:
        return f"<Hex {self.id} {self.tile.id if self.tile else None}>"


def lane_match(lanes0, lanes1) -> bool:
    """Do the lanes of two facing exits line up?"""
    if not lanes0 or not lanes1:
        return False
    if lanes0[0] == lanes1[0]:
        return lanes1[1] == lanes0[0] - lanes0[1] - 1
    a, b = sorted([lanes0, lanes1])
    delta = (b[0] - a[0]) // 2
    return a[1] + delta == b[0] - b[1] - 1


def connect_hexes(hexes: list, impassable_colors=("blue", "gray", "red")) -> None:
    """Link every hex to its neighbours, except through impassable borders and into
    impassable (gray/red/blue) hexes that have no track towards it."""
    by_xy = {(h.x, h.y): h for h in hexes}
    for h in hexes:
        for (dx, dy), direction in DIRECTIONS[h.layout].items():
            n = by_xy.get((h.x + dx, h.y + dy))
            if n is None:
                continue
            h.all_neighbors[direction] = n
            if n.tile.color in impassable_colors and not n.targeting(h):
                continue
            if any(b.edge == direction and b.type == "impassable" for b in h.tile.borders):
                continue
            h.neighbors[direction] = n


__all__ = ["ALL_EDGES", "Hex", "connect_hexes", "coordinates_xy", "invert", "LETTERS"]
