"""The map in play: which tile lies on each hex, and what sits in its cities.

This module is the only writer of the hexes' state. It also keeps, as derived data, each
hex's tile *as laid* (:class:`TileView`: its track and stops bound to the hex), rebuilt
when a tile is laid, and which track meets across each hex side.

Laying a tile carries over what was on the old one: tokens and reservations go to the
new tile's city with the same track (a city whose track is gone takes a city with no
match, in order), borders and reservations of the hex stay, sticky icons stay.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Dict, List, Optional, Tuple

from ..board.notation import StopPart
from ..board.tiles import Layout, TileDef, Track, facing, gauges_join
from ..errors import GameError
from ..state.model import CityState, HexState, TokenState
from .table import Table


# Told just before a tile, token or open side changes: networks known only as "on the board
BEFORE_CHANGE: List = []   # as it is" are walked (rules.network.before_board_change)


def _changing(table: Table) -> None:
    for hook in BEFORE_CHANGE:
        hook(table)


class Node:
    """A city, town or off-board of the tile on a hex. ``entries`` are the rails a network
    walk may set out along from it (see :class:`TileView`)."""

    __slots__ = ("view", "hex", "part", "index", "kind", "city", "rails", "entries",
                 "by_color", "__weakref__")

    def __init__(self, view: "TileView", part: StopPart, city: Optional[CityState]) -> None:
        self.view = view
        self.hex: str = view.hex     # (its view's hex, kept: asked at every stop walked)
        self.part = part
        self.index = part.index
        self.kind = part.kind
        self.city = city
        self.rails: List["Rail"] = []
        self.entries: Tuple["Rail", ...] = ()
        self.by_color: Optional[Dict[str, int]] = None   # its revenue by colour, once asked

    @property
    def id(self) -> str:
        return f"{self.view.tile_id}-{self.index}"

    @property
    def is_city(self) -> bool:
        return self.kind == "city"

    @property
    def is_town(self) -> bool:
        return self.kind == "town"

    @property
    def is_offboard(self) -> bool:
        return self.kind == "offboard"

    @property
    def optional(self) -> bool:
        return self.part.optional

    @property
    def groups(self) -> Tuple[str, ...]:
        return self.city.groups if self.city is not None else self.part.groups

    @property
    def sides(self) -> List[int]:
        return self.view.layout.sides_of(self.index)

    def holds(self, operator) -> bool:
        """Does a token of ``operator`` sit here?"""
        city = self.city
        if city is None:
            return False
        for t in city.slots:
            if t is not None and t.owner is operator:
                return True
        for t in city.extra:
            if t.owner is operator:
                return True
        return False

    def closed_to(self, operator) -> bool:
        """Can ``operator``'s trains not run through here? Off-boards stop every train; a
        city every slot of which holds another company's token (not a neutral one)
        stops those of other companies."""
        if self.kind == "offboard":
            return True
        city = self.city
        if city is None or operator is None or self.holds(operator):
            return False
        for t in city.slots:
            if t is None or t.kind == "neutral":
                return False
        return True

    def revenue_in(self, colors) -> int:
        """Revenue in a phase whose tile colours are ``colors``: that of the latest colour
        the stop names."""
        table = self.by_color
        if table is None:
            table = self.by_color = dict(self.part.revenue)
        for color in reversed(colors):
            if color in table:
                return table[color]
        return 0

    def __repr__(self) -> str:
        return f"<Node {self.view.hex}:{self.index}>"


class Junction:
    __slots__ = ("view", "rails")

    def __init__(self, view: "TileView") -> None:
        self.view = view
        self.rails: List["Rail"] = []


# The side keys of a track on a hex (:class:`Rail`), made once: tiles are laid again and
# again in trial on the same hexes.
_SIDE_KEYS: Dict[Tuple[str, Track], Tuple[str, ...]] = {}


class Rail:
    """A piece of track of the tile on a hex, with what walks along it read again and
    again: ``side_keys``, the hex sides it uses by lane as ``"hex side lane"`` strings, in
    the order of ``sides``; ``blind``, track behind a junction that is terminal (no walk
    enters it); ``others``, the other rails through its junction that a walk may enter;
    ``position``, its index among the rails of its tile; ``walk``, its links as walks read
    them (kept by :func:`.network.walk_links`, dropped with its links); ``pieces``, kept by
    :func:`.routes.track_pieces`; ``across``, kept by :func:`.network.rail_across`."""

    __slots__ = ("view", "track", "sides", "lanes", "nodes", "junction", "terminal", "gauge",
                 "ignore", "hex", "side_keys", "blind", "others", "position", "walk", "pieces",
                 "across", "__weakref__")

    def __init__(self, view: "TileView", track: Track, nodes: Tuple[Node, ...],
                 junction: Optional[Junction], position: int = 0) -> None:
        self.view = view
        self.track = track
        self.sides = sides = track.sides
        self.lanes = lanes = track.lanes
        self.nodes = nodes
        self.junction = junction
        self.terminal = terminal = track.terminal
        self.gauge = track.gauge
        self.ignore = track.ignore
        self.hex = hex_id = view.hex
        keys = _SIDE_KEYS.get((hex_id, track))
        if keys is None:    # strings keep their hash, tuples not
            keys = _SIDE_KEYS[hex_id, track] = tuple(
                [f"{hex_id} {side} {lanes[side][1]}" for side in sides])
        self.side_keys: Tuple[str, ...] = keys
        self.blind: bool = terminal and junction is not None
        self.others: Tuple["Rail", ...] = ()
        self.position = position
        self.walk = self.pieces = self.across = None   # kept by their owners (see above)

    def __repr__(self) -> str:
        return f"<Rail {self.hex} {self.sides} {[n.index for n in self.nodes]}>"


class TileView:
    """The tile on a hex as laid: its rails and stops, bound to the hex."""

    def __init__(self, hex_state: HexState, tile: TileDef) -> None:
        self.hex = hex_state.id
        self.tile_id = hex_state.tile
        self.tile = tile
        self.layout: Layout = tile.layout(hex_state.rotation)
        cities = iter(hex_state.cities)
        self.nodes: Dict[int, Node] = {}
        for part in tile.stops:
            self.nodes[part.index] = Node(self, part, next(cities) if part.is_city else None)
        junction = self.junction = Junction(self) if tile.junction is not None else None
        nodes = self.nodes
        self.rails: List[Rail] = []
        self.by_side: Dict[int, List[Rail]] = {}
        for position, t in enumerate(self.layout.tracks):
            rail = Rail(self, t, tuple([nodes[i] for i in t.stops]),
                        junction if t.junction else None, position)
            self.rails.append(rail)
            for n in rail.nodes:
                n.rails.append(rail)
            for s in rail.sides:
                self.by_side.setdefault(s, []).append(rail)
        if junction is not None:
            for rail in self.rails:
                if rail.junction is not None:
                    junction.rails.append(rail)
            for rail in junction.rails:
                rail.others = tuple([r for r in junction.rails if r is not rail and not r.blind])
        for node in nodes.values():
            if node.rails:
                node.entries = tuple([r for r in node.rails if not r.ignore and not r.blind])
        # Stops with track, in the order their track lists them.
        self.stops: List[Node] = [self.nodes[i] for i in tile.stops_with_track]
        self.goal: Optional[tuple] = None   # kept by .reaching.goal_rails

    @cached_property
    def cities(self) -> List[Node]:   # the nodes do not change: worked out once
        return [n for n in self.nodes.values() if n.kind == "city"]

    @cached_property
    def joins_stops_twice(self) -> bool:
        """:meth:`TileDef.joins_stops_twice` of its tile."""
        return self.tile.joins_stops_twice()

    @property
    def city_towns(self) -> List[Node]:
        return [n for n in self.nodes.values() if n.kind in ("city", "town")]


# -- reading the map --------------------------------------------------------------------------


def tile_of(table: Table, hex_id: str) -> TileDef:
    """The shape of the tile on ``hex_id``."""
    h = table.state.hexes[hex_id]
    if h.printed is not None:
        return table.spec.tile_defs[h.printed]
    return supply_tile(table, h.tile)


def supply_tile(table: Table, tile_id: str) -> TileDef:
    """The shape of a tile of the supply, by its id (``<name>-<copy>``)."""
    found = table.spec.tile_defs.get(tile_id.rsplit("-", 1)[0])
    if found is None:
        raise GameError(f"unknown tile {tile_id}")
    return found


def view(table: Table, hex_id: str) -> TileView:
    """The tile on ``hex_id`` as laid (worked out again after each lay)."""
    found = table.derived.views.get(hex_id)
    if found is None:
        h = table.state.hexes[hex_id]
        found = table.derived.views[hex_id] = TileView(h, tile_of(table, hex_id))
    return found


def neighbour(table: Table, hex_id: str, side: int) -> Optional[str]:
    """The hex across ``side`` that track may cross to, if any."""
    h = table.state.hexes[hex_id]
    if side not in h.open_sides:
        return None
    return table.spec.grid.across[hex_id].get(side)


def lanes_meet(a, b) -> bool:
    """Do the lanes of two facing track ends line up?"""
    if not a or not b:
        return False
    if a[0] == b[0]:
        return b[1] == a[0] - a[1] - 1
    low, high = sorted([a, b])
    delta = (high[0] - low[0]) // 2
    return low[1] + delta == high[0] - high[1] - 1


def links(table: Table, rail: Rail) -> list:
    """Where ``rail`` continues across its hex sides: ``(side, lane, next rail, its side)``
    for each rail of the next hex that meets it in lane and gauge (worked out each time
    asked: walks keep it on the rail, :func:`.walk.walk_links`)."""
    found = []
    views = table.derived.views
    for side in rail.sides:
        other = neighbour(table, rail.hex, side)
        if other is None:
            continue
        back = facing(side)
        lane = rail.lanes.get(side)
        for r in (views.get(other) or view(table, other)).by_side.get(back, ()):
            if lanes_meet(lane, r.lanes.get(back)) and gauges_join(rail.gauge, r.gauge, True):
                found.append((side, lane[1], r, back))
    return found


def targets(table: Table, hex_id: str, other: str) -> bool:
    """Does the tile on ``hex_id`` have track towards hex ``other``?"""
    side = table.spec.grid.side_towards(hex_id, other)
    return side is not None and side in view(table, hex_id).layout.exits


def where_is_tile(table: Table, tile_id: str) -> Optional[str]:
    """The hex a tile lies on (a tile of the supply before a printed tile of that id)."""
    printed = None
    for h in table.state.hexes.values():
        if h.tile == tile_id:
            if h.printed is None:
                return h.id
            printed = printed or h.id
    return printed


# -- cities: tokens and reservations ----------------------------------------------------------


def reservation_slot(city: CityState, entity) -> Optional[int]:
    """The slot reserved for ``entity`` or an operator it owns (reservations hold them)."""
    for i, r in enumerate(city.reservations):
        if r is not None and (r is entity or r.owner is entity):
            return i
    return None


def free_slot(city: CityState) -> Optional[int]:
    """The first slot with no token and no reservation."""
    reservations = city.reservations
    for i, t in enumerate(city.slots):
        if t is None and (i >= len(reservations) or reservations[i] is None):
            return i
    return None


def slot_for(city: CityState, operator, cheater: bool = False) -> Optional[int]:
    """The slot a token of ``operator`` would take: its reservation, else the first free
    one (a cheater token takes a slot beyond the city's size when none is free)."""
    reserved = reservation_slot(city, operator)
    free = free_slot(city)
    if cheater:
        return free if free is not None else len(city.slots)
    return reserved if reserved is not None else free


def put_token(table: Table, hex_id: str, city_index: int, token: TokenState,
              cheater: bool = False, extra: bool = False) -> None:
    """Put ``token`` in a city of ``hex_id`` (its slot as :func:`slot_for` finds it)."""
    _changing(table)
    city = table.state.hexes[hex_id].cities[city_index]
    token.where = (hex_id, city_index)
    token.extra = extra
    token.cheater = cheater
    seat(city, token, cheater, extra)


def seat(city: CityState, token: TokenState, cheater: bool, extra: bool) -> None:
    """The city's part of putting ``token`` there (:func:`put_token`): an extra token
    beside its slots, any other in its slot."""
    if extra:
        city.extra.append(token)
    else:
        slot = slot_for(city, token.owner, cheater)
        if slot == 1 and len(city.slots) == 1 and \
                sum(1 for r in city.reservations if r is not None) == 2:
            slot = 0
            city.reservations.reverse()
        if slot >= len(city.slots):
            city.slots.extend([None] * (slot + 1 - len(city.slots)))
        city.slots[slot] = token


def lift_token(table: Table, token: TokenState) -> None:
    """Take a token off the map (it may be placed again)."""
    _changing(table)
    if token.where is not None:
        hex_id, index = token.where
        city = table.state.hexes[hex_id].cities[index]
        city.slots = [None if t is token else t for t in city.slots]
        if token in city.extra:
            city.extra.remove(token)
    token.where = None
    token.extra = token.cheater = False


def reserve(table: Table, hex_id: str, entity, city_index: Optional[int],
            slot: Optional[int] = None) -> None:
    """Reserve a slot of a city (or the hex, when no city is named) for ``entity``."""
    h = table.state.hexes[hex_id]
    if len(h.cities) == 1:
        city_index = 0
    if city_index is not None and slot is None:
        slot = slot_for(h.cities[city_index], entity)
    if city_index is not None and slot is not None:
        h.cities[city_index].reservations.insert(slot, entity)
    else:
        h.reservations.append(entity)


def unreserve(table: Table, hex_id: str, entity) -> None:
    h = table.state.hexes[hex_id]
    for city in h.cities:
        if reservation_slot(city, entity) is not None:
            _clear_reservation(city, entity)
            return
    if entity in h.reservations:
        h.reservations.remove(entity)


def _clear_reservation(city: CityState, entity) -> None:
    for i, r in enumerate(city.reservations):
        if r is entity:
            city.reservations[i] = None
            return


def clear_city_reservation(city: CityState, entity) -> None:
    _clear_reservation(city, entity)


def reserved_here(table: Table, hex_id: str, entity) -> bool:
    """Is the hex (its tile) reserved for ``entity``?"""
    return any(r is entity or r.owner is entity
               for r in table.state.hexes[hex_id].reservations)


# -- laying tiles -----------------------------------------------------------------------------


def new_cities(tile: TileDef) -> List[CityState]:
    return [CityState(slots=[None] * p.slots, groups=p.groups) for p in tile.cities]


@lru_cache(maxsize=None)
def city_map(old: Layout, new_tile: TileDef, rotation: int) -> Dict[int, Optional[int]]:
    """Which city of the new tile each city of the old one (as it lies, ``old``) becomes (by
    position among the cities): the one whose track includes all of the old city's sides; a
    city without such a match (or without track) takes the city in its place, or the next
    unused one. (Shapes only, the same in every game: worked out once, and only read.)"""
    layout = new_tile.layout(rotation)
    old_cities = [p.index for p in old.tile.cities]
    new_list = [p.index for p in new_tile.cities]
    result: Dict[int, Optional[int]] = {}
    old_sides = {i: old.sides_of(i) for i in old_cities}
    if not any(old_sides.values()) and len(old_cities) == len(new_list):
        result = {i: k for i, k in zip(range(len(old_cities)), range(len(new_list)))}
    else:
        for pos, i in enumerate(old_cities):
            found = None
            if old_sides[i]:
                for k, j in enumerate(new_list):
                    sides = layout.sides_of(j)
                    if all(e in sides for e in old_sides[i]):
                        found = k
                        break
            result[pos] = found
    used = [k for k in result.values() if k is not None]
    for pos in range(len(old_cities)):
        if result.get(pos) is not None:
            continue
        k = pos if pos < len(new_list) else None
        if k in used:
            k = next((x for x in range(len(new_list)) if x not in used), None)
        result[pos] = k
        used.append(k)
    return result


def lay(table: Table, hex_id: str, tile_id: str, rotation: int, tile: TileDef) -> str:
    """Lay ``tile_id`` on ``hex_id``; return the id of the tile it replaced."""
    _changing(table)
    h = table.state.hexes[hex_id]
    cities, moved, extras = cities_after_lay(table, hex_id, tile_id, tile, rotation)
    old_tile = h.tile
    h.cities = cities
    h.tile = tile_id
    h.printed = None
    h.rotation = rotation
    table.derived.views.pop(hex_id, None)
    for k, token, cheater in moved:
        put_token(table, hex_id, k, token, cheater=cheater)
    for k, token in extras:
        put_token(table, hex_id, k, token, extra=True)
    h.borders = list(tile.borders) + h.borders
    _carry_icons(h, tile)
    table.variant.terrain_after_lay(table, h, tile)
    forget_track_near(table, hex_id)
    return old_tile


def cities_after_lay(table: Table, hex_id: str, tile_id: str, tile: TileDef,
                     rotation: int) -> tuple:
    """The hex's cities once the tile is laid (each old city's reservations and groups
    passing to the one it becomes: :func:`city_map`), and the tokens that move into them,
    in the order they are put there: ``(cities, moved, extras)``, ``(new city's place,
    token, cheater)`` for a token in a slot, ``(place, token)`` for an extra one. The
    board is not changed."""
    h = table.state.hexes[hex_id]
    old_view = view(table, hex_id)
    mapping = city_map(old_view.layout, tile, rotation)
    cities = new_cities(tile)
    old_cities = h.cities
    for pos, k in mapping.items():
        if k is not None:
            cities[k].reservations.extend(old_cities[pos].reservations)
            cities[k].groups = old_cities[pos].groups
    moved: List[Tuple[int, TokenState, bool]] = []   # new city, token, cheater
    if len(mapping) == 1:
        (pos, k), = mapping.items()
        old = old_cities[pos]
        moved = [(k, t, i >= _printed_slots(old_view, pos)) for i, t in enumerate(old.slots)
                 if t is not None]
        extras = [(k, t) for t in old.extra]
    else:
        groups: Dict[int, List[TokenState]] = {}
        for pos, k in mapping.items():
            tokens = [t for t in old_cities[pos].slots if t is not None]
            if k is None:
                if tokens:
                    raise GameError(f"no city on tile {tile_id} for the tokens on {hex_id}")
                continue
            groups.setdefault(k, []).extend(tokens)
        for k, tokens in groups.items():
            tokens.sort(key=lambda t: 1 if t.cheater else 0)
            reserved = len(cities[k].reservations)
            slots = len(cities[k].slots)
            moved.extend((k, t, reserved + i >= slots) for i, t in enumerate(tokens))
        extras = [(k, t) for pos, k in mapping.items() for t in old_cities[pos].extra]
    return cities, moved, extras


def _printed_slots(old_view: TileView, pos: int) -> int:
    return old_view.tile.cities[pos].slots


def _carry_icons(h: HexState, tile: TileDef) -> None:
    """Sticky icons stay on the hex unless the new tile shows the same icon."""
    incoming: Dict[str, list] = {}
    for icon in tile.icons:
        incoming.setdefault(icon.name, []).append(icon)
    kept = list(tile.icons)
    for icon in h.icons:
        if icon.sticky:
            if incoming.get(icon.name):
                incoming[icon.name].pop()
            else:
                kept.append(icon)
    h.icons = kept


def open_sides_after_lay(table: Table, hex_id: str, old_color: str) -> None:
    """A tile laid on a hex that track could not enter (gray, red, blue) opens the sides
    its track leads to, unless a border there is impassable."""
    if old_color not in table.settings.impassable_colors:
        return
    _changing(table)
    h = table.state.hexes[hex_id]
    exits = view(table, hex_id).layout.exits
    for side, other in table.spec.grid.across[hex_id].items():
        if any(b.side == side and b.kind == "impassable" for b in h.borders):
            continue
        if side not in exits:
            continue
        o = table.state.hexes[other]
        back = table.spec.grid.side_towards(other, hex_id)
        if back not in o.open_sides:
            o.open_sides = tuple(sorted(o.open_sides + (back,)))
        if side not in h.open_sides:
            h.open_sides = tuple(sorted(h.open_sides + (side,)))


def forget_track_near(table: Table, hex_id: str) -> None:
    """Forget the track links of a hex (after its tile changed, or the sides open there)
    and of the rails of its neighbours with the side facing it (``toward``): no other
    links lead into the hex. (Route connections read check their tiles themselves.)"""
    toward = table.spec.grid.facing_sides[hex_id]
    linked = table.derived.linked
    for rail in linked.pop(hex_id, ()):
        rail.walk = None
    for h, side in toward.items():
        kept = []
        for rail in linked.get(h, ()):
            if side in rail.sides:
                rail.walk = None
            else:
                kept.append(rail)
        linked[h] = kept


def remove_border(table: Table, hex_id: str, border) -> None:
    h = table.state.hexes[hex_id]
    h.borders = [b for b in h.borders if b is not border]


def remove_borders_facing(table: Table, hex_id: str, other: str) -> None:
    """Remove the borders of ``hex_id`` on its side facing ``other``."""
    h = table.state.hexes[hex_id]
    side = table.spec.grid.side_towards(hex_id, other)
    h.borders = [b for b in h.borders if b.side != side]


def replace_printed_tile(table: Table, hex_id: str, shape_key: str) -> None:
    """The tile printed on a hex changes (1849's earthquake): ``shape_key`` names the new
    shape among the title's tiles."""
    _changing(table)
    h = table.state.hexes[hex_id]
    h.printed = shape_key
    table.derived.views.pop(hex_id, None)
    forget_track_near(table, hex_id)
