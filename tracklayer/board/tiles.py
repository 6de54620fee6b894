"""Tiles as shapes: what a tile of a given name holds, and how its track lies when it is
turned to each of the six rotations.

A :class:`TileDef` is immutable and shared by every copy of a tile and by every game. The
track of a turned tile is a :class:`Layout`, worked out once per rotation. Where a tile
lies and what sits on it (tokens, reservations) is game state, kept elsewhere.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Dict, List, Optional, Tuple

from .notation import (SIDES, BorderPart, IconPart, JunctionPart, LabelPart, NodeEnd, SideEnd,
                       StopPart, StubPart, TerrainPart, TrackPart, read_tile)

# Tile colours in upgrade order: a tile is replaced by one of the next colour.
COLOR_ORDER = ("white", "yellow", "green", "brown", "gray", "blue", "sepia", "greenbrown",
               "browngray", "brownsepia", "none", "pink", "red", "purple", "orange")


def turn(side: int, ticks: int) -> int:
    """A hex side turned clockwise by ``ticks`` sixths."""
    return (side + ticks) % 6


def facing(side: int) -> int:
    """The same hex side seen from the hex across it."""
    return (side + 3) % 6


class Track:
    """A piece of track of a turned tile: its ends as hex sides (with lanes) and stops."""

    __slots__ = ("part", "sides", "lanes", "stops", "junction", "terminal", "gauge", "ignore",
                 "ends", "stop")

    def __init__(self, part: TrackPart, ticks: int, tile: "TileDef") -> None:
        self.part = part
        self.terminal = part.terminal
        self.gauge = part.gauge
        self.ignore = part.ignore
        sides, lanes, stops = [], {}, []
        junction = False
        ends = []
        for end in (part.a, part.b):
            if isinstance(end, SideEnd):
                side = turn(end.side, ticks)
                sides.append(side)
                lanes[side] = end.lane
                ends.append(("side", side))
            elif isinstance(tile.parts[end.part], JunctionPart):
                junction = True
                ends.append(("junction", end.part))
            else:
                stops.append(end.part)
                ends.append((tile.parts[end.part].kind, end.part))
        self.sides: Tuple[int, ...] = tuple(sides)
        self.lanes: Dict[int, Tuple[int, int]] = lanes
        self.stops: Tuple[int, ...] = tuple(stops)
        self.junction = junction
        self.ends = tuple(ends)
        # The stop this track belongs to for drawing and for the city-town edge rules:
        # a city before a town.
        city = next((s for s in stops if tile.parts[s].kind == "city"), None)
        town = next((s for s in stops if tile.parts[s].kind == "town"), None)
        self.stop = city if city is not None else town

    def __repr__(self) -> str:
        return f"<Track {self.part.index} {self.ends}>"


def gauges_join(a: str, b: str, dual_ok: bool = False) -> bool:
    """Can track of gauge ``a`` continue onto (or be replaced by) track of gauge ``b``?"""
    if a == "broad":
        return b in ("broad", "dual")
    if a == "narrow":
        return b in ("narrow", "dual")
    return dual_ok or b == "dual"


class Layout:
    """The track of a tile at one rotation."""

    def __init__(self, tile: "TileDef", rotation: int) -> None:
        self.tile = tile
        self.rotation = rotation
        self.tracks: Tuple[Track, ...] = tuple(Track(p, rotation, tile) for p in tile.track_parts)
        exits: List[int] = []
        bits = 0
        count: Dict[int, int] = {}
        for t in self.tracks:
            for s in t.sides:
                if s not in exits:
                    exits.append(s)
                    bits |= 1 << s
                count[s] = count.get(s, 0) + 1
        self.exits: Tuple[int, ...] = tuple(exits)
        # The exits as a set of bits (side s: bit s: :func:`side_bits`), to compare
        # layouts' sides at once.
        self.exit_bits = bits
        self.side_count = count
        self.stop_sides: Dict[int, List[int]] = {}
        self.stop_tracks: Dict[int, List[Track]] = {}
        for t in self.tracks:
            for s in t.stops:
                self.stop_tracks.setdefault(s, []).append(t)
                self.stop_sides.setdefault(s, []).extend(t.sides)
        for t in self.tracks:
            for s in t.stops:
                self.stop_sides.setdefault(s, [])
        self._track_ends = None

    def sides_of(self, stop_index: int) -> List[int]:
        """The hex sides the track of a stop leads to."""
        return self.stop_sides.get(stop_index, [])

    def city_town_sides(self) -> List[List[int]]:
        """For each city or town with track, the sides its track leads to (a track joining
        a city and a town counts for the city), in the order the tracks list them."""
        found: Dict[int, List[int]] = {}
        for t in self.tracks:
            if t.stop is not None:
                found.setdefault(t.stop, []).extend(t.sides)
        return list(found.values())

    def track_ends(self, t: Track) -> tuple:
        """Both ends of track ``t``, with a junction replaced by the far ends of the other
        tracks through it (worked out once for each track)."""
        known = self._track_ends
        if known is None:
            known = self._track_ends = {}
        found = known.get(t)
        if found is None:
            found = known[t] = tuple(self._ends_through_junction(t))
        return found

    def _ends_through_junction(self, t: Track) -> list:
        if not t.junction:
            return list(t.ends)
        out = []
        for kind, value in t.ends:
            if kind != "junction":
                out.append((kind, value))
                continue
            for other in self.tracks:
                if other is not t and other.junction:
                    out.extend(e for e in other.ends if e[0] != "junction")
        return out

    @cached_property
    def drawn_sides(self) -> Dict[int, Optional[float]]:
        """The side of the hex each city or town is drawn next to (None: in the centre).
        See :func:`drawn_sides`."""
        return drawn_sides(self)


def _ends_fit(old: list, new: list, stop_kinds: Dict[int, Tuple[str, bool]],
              new_kinds: Dict[int, Tuple[str, bool]]) -> bool:
    """Does every end of an old track have a matching end on a new track (the same side; a
    stop of the same kind, or a city for a town that may become one)?"""
    for kind, value in old:
        ok = False
        for nkind, nvalue in new:
            if kind == "side":
                ok = nkind == "side" and nvalue == value
            elif kind == "town" and stop_kinds[value][1]:
                ok = nkind in ("town", "city")
            else:
                ok = nkind == kind
            if ok:
                break
        if not ok:
            return False
    return True


def track_kept(old_layout: Layout, old: Track, new_layout: Layout, new: Track) -> bool:
    """Does track ``new`` keep the connections of track ``old`` (in the same gauge, or
    dual gauge for dual)?"""
    return (_ends_fit(old_layout.track_ends(old), new_layout.track_ends(new),
                      old_layout.tile.stop_flags, new_layout.tile.stop_flags)
            and gauges_join(old.gauge, new.gauge))


def all_track_kept(old: Layout, new: Layout) -> bool:
    """Is every piece of track of ``old`` kept by some piece of ``new``? (Not if an old
    track leads to a side no new track leads to: looked at first, on the sides' bits.)"""
    if old.exit_bits & ~new.exit_bits:
        return False
    return all(any(track_kept(old, o, new, n) for n in new.tracks) for o in old.tracks)


@lru_cache(maxsize=None)
def fits_some_rotation(old: Layout, new: Layout) -> bool:
    """Could the track of the old tile, turned some way, be kept by ``new``? (An upgrade
    keeps the old track; how the old tile happens to lie does not matter.) Between tiles
    with junctions only the sides count. (Rotations turning an old side to one the new
    tile lacks are passed over on the sides' bits. Shapes only, the same in every game:
    worked out once.)"""
    if old.tile.junction is not None and new.tile.junction is not None:
        new_exits = new.exits
        return any(all(e in {turn(x, t) for x in new_exits} for e in old.exits)
                   for t in SIDES)
    bits, new_bits = old.tile.layout(0).exit_bits, new.exit_bits
    return any(all_track_kept(old.tile.layout(t), new) for t in SIDES
               if not turned_bits(bits, t) & ~new_bits)


def turned_bits(bits: int, ticks: int) -> int:
    """Sides as bits (:attr:`Layout.exit_bits`) turned clockwise by ``ticks`` sixths."""
    return ((bits << ticks) | (bits >> (6 - ticks))) & 63


def side_bits(sides) -> int:
    """Hex sides as bits (side s: bit s)."""
    return sum(1 << s for s in sides)


def city_sides_fit(old: List[List[int]], new: List[List[int]]) -> bool:
    """Can the sides of each old city or town, all turned alike, be found among the sides
    of one new city or town?"""
    for ticks in SIDES:
        if all(any(all(turn(s, ticks) in n for s in o) for n in new) for o in old):
            return True
    return False


def drawn_sides(layout: Layout) -> Dict[int, Optional[float]]:
    """Where each city and town is drawn: next to a hex side, or in the centre (None).

    It matters to the rules in one place: a route leaving a town by a side other than the
    one the town is drawn at uses a separate piece of track. The drawing rule: a lone city
    (or a lone town with other than two sides) sits in the centre; otherwise each stop in
    turn, by its sorted sides, takes its least crowded side, where a side used counts one
    and its neighbours a tenth (side 0 starts with a tenth)."""
    tile = layout.tile
    cities = [p.index for p in tile.cities]
    towns = [p.index for p in tile.towns]
    city_towns = [p.index for p in tile.stops if p.kind in ("city", "town")]
    out: Dict[int, Optional[float]] = {}

    def at(loc) -> Optional[float]:
        if loc is None or loc == "center":
            return None
        return (float(loc) + layout.rotation) % 6

    if not layout.tracks and len(cities) == 2 and len(towns) == 2:
        for i, x in enumerate(cities):
            out[x] = i * 3
        for i, x in enumerate(towns):
            out[x] = i * 3
        return out
    if not layout.tracks and len(cities) >= 2:
        step = 6 // len(cities)
        for i, x in enumerate(cities):
            out[x] = i * step
        return out
    if len(cities) == 1 and not towns and at(tile.parts[cities[0]].loc) is None:
        out[cities[0]] = None
        return out
    if not cities and len(towns) == 1 and len(layout.sides_of(towns[0])) != 2 \
            and at(tile.parts[towns[0]].loc) is None:
        out[towns[0]] = None
        return out
    crowd: Dict[int, float] = {0: 0.1}

    def use(side: int) -> None:
        crowd[side] = crowd.get(side, 0) + 1
        crowd[(side + 1) % 6] = crowd.get((side + 1) % 6, 0) + 0.1
        crowd[(side - 1) % 6] = crowd.get((side - 1) % 6, 0) + 0.1

    sides: Dict[int, List[int]] = {}
    order: List[int] = []
    for t in layout.tracks:
        if t.stop is None:
            continue
        if t.stop not in sides:
            sides[t.stop] = []
            order.append(t.stop)
        for s in t.sides:
            sides[t.stop].append(s)
            use(s)
    for stop, its_sides in sorted(((s, sorted(sides[s])) for s in order), key=lambda x: x[1]):
        loc = tile.parts[stop].loc
        if loc is not None:
            out[stop] = at(loc)
            continue
        side = min(its_sides, key=lambda s: crowd.get(s, 0)) if its_sides else None
        if side is not None:
            use(side)
        out[stop] = side
    trackless = [x for x in city_towns if not layout.stop_tracks.get(x)]
    if len(trackless) == 1 and len(city_towns) == 2:
        first = next(iter(out.values()), None)
        if first is not None:
            out[trackless[0]] = (first + 3) % 6
    for x in city_towns:
        if not layout.sides_of(x) and tile.parts[x].loc is not None:
            out[x] = at(tile.parts[x].loc)
    return out


class TileDef:
    """A tile by name: its colour and parts, the same for every copy."""

    def __init__(self, name: str, color: str, code: str) -> None:
        self.name = name
        self.color = color
        self.code = code
        self.parts = read_tile(code)
        self.stops: Tuple[StopPart, ...] = tuple(p for p in self.parts if isinstance(p, StopPart))
        self.cities = tuple(p for p in self.stops if p.kind == "city")
        self.towns = tuple(p for p in self.stops if p.kind == "town")
        self.offboards = tuple(p for p in self.stops if p.kind == "offboard")
        self.junction = next((p for p in self.parts if isinstance(p, JunctionPart)), None)
        self.track_parts = tuple(p for p in self.parts if isinstance(p, TrackPart))
        self.labels = tuple(p.text for p in self.parts if isinstance(p, LabelPart))
        self.terrain_parts = tuple(p for p in self.parts if isinstance(p, TerrainPart))
        self.borders = tuple(p for p in self.parts if isinstance(p, BorderPart))
        self.icons = tuple(p for p in self.parts if isinstance(p, IconPart))
        self.stubs = tuple(p.side for p in self.parts if isinstance(p, StubPart))
        self.blocks_lay = any(i.blocks_lay for i in self.icons)
        # stop part index -> (kind, may become a city)
        self.stop_flags = {p.index: (p.kind, p.to_city) for p in self.stops}
        seen: List[int] = []
        for t in self.track_parts:
            for end in (t.a, t.b):
                if isinstance(end, NodeEnd) and isinstance(self.parts[end.part], StopPart) \
                        and end.part not in seen:
                    seen.append(end.part)
        self.stops_with_track: Tuple[int, ...] = tuple(seen)
        self._layouts: Dict[int, Layout] = {}

    @property
    def label(self) -> Optional[str]:
        return self.labels[-1] if self.labels else None

    @property
    def color_rank(self) -> int:
        return COLOR_ORDER.index(self.color)

    def layout(self, rotation: int) -> Layout:
        found = self._layouts.get(rotation)
        if found is None:
            found = self._layouts[rotation] = Layout(self, rotation)
        return found

    def part(self, index: int):
        return self.parts[index]

    def joins_stops_twice(self) -> bool:
        """More than one piece of track joins two stops: a hex name alone cannot say which
        connection a route means."""
        return sum(1 for t in self.layout(0).tracks if len(t.stops) > 1) > 1

    def __repr__(self) -> str:
        return f"<TileDef {self.name} {self.color}>"


def leading_number(text: str) -> int:
    """The number a name starts with, 0 if none (``"14a"`` → 14, ``"K14"`` → 0)."""
    digits = ""
    for ch in text.strip():
        if ch.isdigit() or (ch == "-" and not digits):
            digits += ch
        else:
            break
    try:
        return int(digits)
    except ValueError:
        return 0
