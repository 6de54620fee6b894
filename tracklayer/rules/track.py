"""Track: which tile may replace which, how it may be turned, what laying it costs, and
laying it.

An upgrade goes to the next colour, keeps all the old track (turned some way), keeps the
label, the number of towns and (unlabelled) of cities, and the cities' own track. Laid
on the map, the tile must point at least one track at a side the operator reaches, lead
nowhere off the map, keep the old track as it lies, add no city that was not there, and
keep big cities big. The title's track restriction says what an upgrade must bring to the
operator's network. Terrain on the hex and priced borders its new track crosses are paid
for.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Collection, List, Optional

from ..board.tiles import COLOR_ORDER, Layout, TileDef, all_track_kept, city_sides_fit, \
    fits_some_rotation, side_bits, track_kept
from ..errors import GameError
from ..spec.settings import TrackRestriction
from ..state.model import CompanyState, CorporationState
from . import board, money, powers
from .table import Table, refuse


# -- shapes -----------------------------------------------------------------------------------


def next_color(color: str) -> Optional[str]:
    """The colour of the tiles that may replace a tile of ``color``: the next colour
    (None: none replaces it)."""
    at = COLOR_ORDER.index(color) + 1 if color in COLOR_ORDER else len(COLOR_ORDER)
    return COLOR_ORDER[at] if at < len(COLOR_ORDER) else None


def shape_allows(old: Layout, new_tile: TileDef, special: bool = False) -> bool:
    """May ``new_tile`` replace the tile of layout ``old``? It is of the next colour and
    keeps the old track (turned some way); unless a special power lays it, it also
    keeps the label and the cities and towns (:func:`cities_and_towns_fit`). How the old
    tile lies does not matter (its track and stops are matched turned every way): worked
    out once for the old tile (:func:`_tile_allows`). (Shapes only, the same in every
    game: worked out once.)"""
    return _tile_allows(old.tile, new_tile, special)


def shape_upgrades(old: Layout, tiles, special: bool = False) -> list:
    """The tiles of ``tiles`` that may replace the tile of layout ``old`` by their shapes
    (:func:`shape_allows` of each, in their order)."""
    return list(_shape_upgrades(old.tile, tuple(tiles), special))


@lru_cache(maxsize=None)
def _shape_upgrades(old_tile: TileDef, tiles: tuple, special: bool) -> tuple:
    """:func:`shape_upgrades` for the old tile, however it lies. (Shapes only, the same
    in every game: worked out once for each old tile and tiles asked of, which change
    only as names leave or come back to the supply.)"""
    return tuple(t for t in tiles if _tile_allows(old_tile, t, special))


@lru_cache(maxsize=None)
def _tile_allows(old_tile: TileDef, new_tile: TileDef, special: bool) -> bool:
    """:func:`shape_allows` for the old tile, however it lies."""
    old = old_tile.layout(0)
    return new_tile.color == next_color(old_tile.color) \
        and fits_some_rotation(old, new_tile.layout(0)) \
        and (special or (old_tile.label == new_tile.label and cities_and_towns_fit(old, new_tile)))


def _same_towns(old: Layout, new: TileDef) -> bool:
    return len(old.tile.towns) == len(new.towns)


def _same_cities_unless_labelled(old: Layout, new: TileDef) -> bool:
    """A labelled city may merge or split (an OO becoming one city); others may not."""
    return bool(old.tile.label) or len(old.tile.cities) == len(new.cities)


def _cities_keep_their_sides(old: Layout, new: TileDef) -> bool:
    """Several cities becoming several cities keep the sides each city's track
    reaches."""
    if len(old.tile.cities) > 1 and len(new.cities) > 1:
        return city_sides_fit(old.city_town_sides(), new.layout(0).city_town_sides())
    return True


def _labelled_city_stays_a_city(old: Layout, new: TileDef) -> bool:
    o = old.tile
    return not (o.label and o.cities and not new.cities)


def _oo_hex_gets_two_cities(old: Layout, new: TileDef) -> bool:
    """The first tile on an empty OO hex has as many cities as the hex."""
    o = old.tile
    return not (o.color == "white" and o.label == "OO" and len(o.cities) != len(new.cities))


# What an upgrade keeps of the old tile's cities and towns.
CITY_AND_TOWN_RULES = (_same_towns, _same_cities_unless_labelled, _cities_keep_their_sides,
                       _labelled_city_stays_a_city, _oo_hex_gets_two_cities)


def cities_and_towns_fit(old: Layout, new_tile: TileDef) -> bool:
    """Does ``new_tile`` keep the cities and towns of ``old`` (:data:`CITY_AND_TOWN_RULES`)?"""
    return all(rule(old, new_tile) for rule in CITY_AND_TOWN_RULES)


def rotation_allows(table: Table, operator, hex_id: str, new: Layout,
                    sides_reached: Optional[List[int]]) -> bool:
    """May the new tile lie on the hex as ``new`` lies (see the module docstring)? Its
    track leads only where track may go and meets the hex's stubs, points at a side the
    operator reaches (``sides_reached``), keeps the old track as it lies, keeps the old
    cities and towns (:func:`_stops_kept`), and keeps big cities big."""
    if sides_reached:
        for side in new.exits:
            if side in sides_reached:
                return lies_on_hex(table, hex_id, new)
    return False


def lies_on_hex(table: Table, hex_id: str, new: Layout) -> bool:
    """The part of :func:`rotation_allows` that is the hex's alone, whoever lays: the
    track leads only where track may go and meets the hex's stubs, keeps the old track as
    it lies and the old cities and towns, and keeps big cities big (:func:`_lies_on`)."""
    return _lies_on(board.view(table, hex_id).layout, table.state.hexes[hex_id].open_sides,
                    new)


def rotations_on_hex(table: Table, hex_id: str, tile: TileDef) -> tuple:
    """The rotations in which ``tile`` lies on the hex (:func:`lies_on_hex`): those the
    rotation check need ask of an operator."""
    return _rotations_on(board.view(table, hex_id).layout,
                         table.state.hexes[hex_id].open_sides, tile)


@lru_cache(maxsize=None)
def _rotations_on(old: Layout, open_sides: tuple, tile: TileDef) -> tuple:
    """The rotations in which ``tile`` lies on a hex (:func:`_lies_on`). (Shapes only,
    the same in every game: worked out once.)"""
    return tuple(r for r in range(6) if _lies_on(old, open_sides, tile.layout(r)))


@lru_cache(maxsize=None)
def _lies_on(old: Layout, open_sides: tuple, new: Layout) -> bool:
    """Does ``new`` lie on a hex whose tile lies as ``old`` and whose track may cross
    ``open_sides`` (:func:`lies_on_hex`)? It depends on nothing else: the hex's tile as
    laid, and the sides open there, whatever changed since (listing asks it of every
    tile in every rotation on every hex, position after position, undone or not).
    (Shapes only, the same in every game: worked out once.)"""
    return _exits_allowed(open_sides, old.tile.stubs, new) and _keeps_as_laid(old, new) \
        and big_cities_stay_big(old, new)


@lru_cache(maxsize=None)
def _keeps_as_laid(old: Layout, new: Layout) -> bool:
    """Does ``new`` keep the old track as it lies and the old cities and towns
    (:func:`_stops_kept`)? (Shapes only, the same in every game: worked out once.)"""
    return all_track_kept(old, new) and _stops_kept(old, new)


def _exits_allowed(open_sides: tuple, stubs: tuple, new: Layout) -> bool:
    """Every track end leads to an open side, and every stub of the hex has track (the
    sides as bits)."""
    exits = new.exit_bits
    return not (exits & ~side_bits(open_sides) or side_bits(stubs) & ~exits)


def _stops_kept(old: Layout, new: Layout) -> bool:
    """No more cities or towns appear apart from the old ones than the tile adds; where
    several cities become several, each old one lies in exactly one new one."""
    old_sides = old.city_town_sides()
    new_sides = new.city_town_sides()
    added = max(0, len(new_sides) - len(old_sides))
    apart = sum(1 for n in new_sides if all(not (set(n) & set(o)) for o in old_sides))
    if added < apart:
        return False
    if len(new.tile.cities) > 1 and len(old.tile.cities) > 1:
        return all(sum(1 for n in new_sides if set(o) & set(n) == set(o)) == 1
                   for o in old_sides)
    return True


def big_cities_stay_big(old: Layout, new: Layout) -> bool:
    """Each city of the old tile (as it lies, ``old``) becomes one with as many slots."""
    if len({c.slots for c in old.tile.cities}) <= 1:
        return True
    mapping = board.city_map(old, new.tile, new.rotation)
    for pos, k in mapping.items():
        if k is not None and new.tile.cities[k].slots < old.tile.cities[pos].slots:
            return False
    return True


@lru_cache(maxsize=None)
def keeps_stop_track(old: Layout, new: Layout) -> bool:
    """Every city and town keeps its track: some stop of the new tile has all its sides.
    (Shapes only, the same in every game: worked out once.)"""
    new_stops = [p.index for p in new.tile.stops if p.kind in ("city", "town")]
    for p in old.tile.stops:
        if p.kind not in ("city", "town"):
            continue
        sides = old.sides_of(p.index)
        if not any(all(e in new.sides_of(n) for e in sides) for n in new_stops):
            return False
    return True


def restriction_problem(table: Table, old: Layout, new: Layout, reached) -> Optional[str]:
    """What the title's track restriction finds wrong with the upgrade, counting only the
    new tracks for which ``reached(track)`` holds (:func:`restriction_demand`)."""
    demand = restriction_demand(table, old, new)
    if demand is None:
        return None
    tracks, problem = demand
    return None if any(reached(t) for t in tracks) else problem


def restriction_demand(table: Table, old: Layout, new: Layout) -> Optional[tuple]:
    """What the title's track restriction asks of the upgrade (:data:`TRACK_RESTRICTIONS`):
    None if it is met whatever track the operator reaches, otherwise ``(tracks, problem)``:
    the new tracks any one of which meets it once the operator reaches it (none: nothing
    can), and what is wrong if the operator reaches none of them. (Each restriction asks
    for something of the tile or for one reached track that is new or changes a stop.)"""
    return _demand(table.settings.track_restriction, old, new)


@lru_cache(maxsize=None)
def _demand(restriction: TrackRestriction, old: Layout, new: Layout) -> Optional[tuple]:
    """:func:`restriction_demand` under ``restriction``. (Shapes only, the same in every
    game: worked out once.)"""
    rule = TRACK_RESTRICTIONS.get(restriction)
    if rule is None:
        return None
    allowed, problem = rule
    if allowed(new, False, False):
        return None
    tracks = tuple(nt for nt in new.tracks if allowed(new, *_track_change(old, new, nt)))
    return tracks, problem


@lru_cache(maxsize=None)
def _track_change(old: Layout, new: Layout, nt) -> tuple:
    """(whether new track ``nt`` is new, whether it changes a stop): it is new when no old
    track lies along it, and changes a stop when the stops' best revenues differ from
    those of the old track it keeps. (Shapes only, the same in every game: worked out
    once.)"""
    kept = next((ot for ot in old.tracks if track_kept(new, nt, old, ot)), None)
    old_values = sorted(old.tile.parts[i].best_revenue for i in kept.stops) \
        if kept is not None else None
    new_values = sorted(new.tile.parts[i].best_revenue for i in nt.stops)
    return kept is None, old_values != new_values


# What each track restriction asks of a lay (given its layout, whether it uses new track and
# whether it changes a stop's value), and what is wrong otherwise. Others allow anything.
TRACK_RESTRICTIONS = {
    TrackRestriction.CITY_PERMISSIVE: (
        lambda new, uses_new, changes: bool(new.tile.cities) or uses_new,
        "must be a city tile or use new track"),
    TrackRestriction.RESTRICTIVE: (
        lambda new, uses_new, changes: uses_new,
        "must use new track"),
    TrackRestriction.SEMI_RESTRICTIVE: (
        lambda new, uses_new, changes: uses_new or changes,
        "must use new track or change city value"),
    TrackRestriction.STATION_RESTRICTIVE: (
        lambda new, uses_new, changes: uses_new or bool(new.tile.stops_with_track),
        "must use new track"),
}


# -- costs ------------------------------------------------------------------------------------


def terrain_discount(table: Table, operator, hex_id: str) -> int:
    """What the operator's tile-discount powers take off the terrain cost of the hex."""
    entity = operator
    if isinstance(entity, CompanyState) and isinstance(entity.owner, CorporationState):
        entity = entity.owner
    total = 0
    terrain = table.state.hexes[hex_id].terrain
    for p in powers.all_powers(entity):
        spec = p.spec
        if spec.kind != "tile_discount" or (spec.hexes and hex_id not in spec.hexes):
            continue
        if spec.terrain is not None and not any(spec.terrain in t.terrains for t in terrain):
            continue
        total += spec.discount or 0
    return total


def terrain_cost(table: Table, operator, hex_id: str) -> int:
    """Terrain on the hex, less the operator's discounts (the common rule)."""
    total = sum(t.cost for t in table.state.hexes[hex_id].terrain)
    return total - min(total, terrain_discount(table, operator, hex_id)) if total else 0


def lay_cost(table: Table, operator, hex_id: str, tile: TileDef, rotation: int) -> int:
    """What laying the tile costs before any price the lay itself carries: the hex's
    terrain (as the title prices it) and the priced borders its track crosses."""
    terrain = table.variant.tile_terrain_cost(table, operator, hex_id, tile, rotation)
    if not table.state.hexes[hex_id].borders:
        return terrain      # (most hexes have no border: nothing crossed)
    return terrain + sum(b.cost for b, _ in border_crossings(table, hex_id,
                                                             tile.layout(rotation)))


def border_crossings(table: Table, hex_id: str, new: Layout) -> List[tuple]:
    """Priced borders of the hex the new track crosses: ``(border, hex across)``."""
    out = []
    grid = table.spec.grid
    for border in table.state.hexes[hex_id].borders:
        if border.cost is None:
            continue
        other = board.neighbour(table, hex_id, border.side)
        if other is None or border.side not in new.exits:
            continue
        back = grid.side_towards(other, hex_id)
        if back not in board.view(table, other).layout.exits:
            continue
        out.append((border, other))
    return out


# -- laying -----------------------------------------------------------------------------------


def take_from_supply(table: Table, tile_id: str) -> None:
    """The tile leaves the supply; of a tile there is no end of, a new copy comes in (the
    next number after the copies in play)."""
    supply = table.state.tiles
    name = tile_id.rsplit("-", 1)[0]
    if name in table.spec.unlimited_tiles:
        # The copies of this name: ids "<name>-<copy>" (looked at by their start first:
        # the supply holds dozens of ids, of few of which it is the name). The newest copy
        # is always in the supply: every copy comes into play from it, and the lay taking
        # one adds the next before it leaves; so the supply alone tells the next number.
        prefix = name + "-"
        copies = [int(t[len(prefix):]) for t in supply
                  if t.startswith(prefix) and "-" not in t[len(prefix):]]
        supply.append(f"{name}-{max(copies) + 1}")
    supply.remove(tile_id)


def lay(table: Table, hex_id: str, tile_id: str, rotation: int, tile: TileDef, payer,
        cost: int) -> int:
    """Lay the tile (already judged legal, and priced: ``cost``, :func:`lay_cost` and the
    lay's own price): the supply gives it, the old tile goes back, crossed borders are
    paid and removed. Returns the cost paid."""
    h = table.state.hexes[hex_id]
    old_color = board.tile_of(table, hex_id).color
    was_printed = h.printed is not None
    take_from_supply(table, tile_id)
    old_tile = board.lay(table, hex_id, tile_id, rotation, tile)
    _view_made_before(table, hex_id, tile_id, rotation, tile)
    if not was_printed:
        table.state.tiles.append(old_tile)
    board.open_sides_after_lay(table, hex_id, old_color)
    for border, other in border_crossings(table, hex_id, tile.layout(rotation)):
        board.remove_border(table, hex_id, border)
        board.remove_borders_facing(table, other, hex_id)
    if cost > 0:
        money.pay(table, payer, table.state.bank, cost)
    if table.keep_log:
        table.log(f"{payer.name}{' spends ' + table.money(cost) + ' and' if cost else ''}"
                  f" lays tile #{tile.name} with rotation {rotation} on {hex_id}")
    return cost


def _view_made_before(table: Table, hex_id: str, tile_id: str, rotation: int,
                      tile: TileDef) -> None:
    """The tile just laid on the hex (for good, or in trial) is seen as the judge of the
    lay saw it, if it made that view (a :class:`TrialLay`'s, or :func:`view_after_lay`'s,
    kept by hex, tile and rotation): the rails and stops of a tile on a hex are those of
    its tile at its rotation there whatever the position, so that view, given the hex's
    cities, is the hex's view (taken from where it was kept; its rails' links were
    dropped with the hex's, :func:`board.forget_track_near`), not made again."""
    if hex_id in table.derived.views:
        return
    kept = table.derived.after_lay
    key = (hex_id, tile, rotation)
    found = kept.get(key)
    if found is not None and found.tile is tile and found.tile_id == tile_id and \
            found.layout.rotation == rotation:
        del kept[key]
        _seat_cities(found, table.state.hexes[hex_id].cities)
        table.derived.views[hex_id] = found


class LaySite:
    """A hex as any tile lay on it finds it at one position: the tile there as it lies
    (``old``, its layout), whether a lay there is an upgrade, the colour that may replace
    it (:func:`next_color`) and whether the phase allows that colour there, and, worked out
    as they are asked, which tiles the title lets replace it (``may_upgrade``) and the
    rotations each lies on the hex in (``rotations``). None of it changes until an action
    is carried out: a step keeps one per hex for the position (listing asks these of every
    tile on the hex, the judge of every lay listed)."""

    __slots__ = ("table", "hex", "old", "upgrade", "color", "colors", "color_allowed",
                 "_upgrades", "_rotations", "_layouts")

    def __init__(self, table: Table, hex_id: str) -> None:
        self.table = table
        self.hex = hex_id
        self.old: Layout = board.view(table, hex_id).layout
        old_color = self.old.tile.color
        self.upgrade = old_color != "white"
        self.color = next_color(old_color)
        self.colors = table.variant.tile_colors(table, hex_id)
        self.color_allowed = self.color in self.colors
        self._upgrades: dict = {}
        self._rotations: dict = {}
        self._layouts: dict = {}

    def may_upgrade(self, tile: TileDef, special: bool = False) -> bool:
        """Does the title let ``tile`` replace the tile there (:meth:`Variant.may_upgrade`;
        ``special``: a special power lays it)? A refusal the title raises is raised again
        each time it is asked."""
        key = (tile, special) if special else tile
        found = self._upgrades.get(key)
        if found is None:
            table = self.table
            try:
                found = bool(table.variant.may_upgrade(table, self.hex, self.old, tile,
                                                       special))
            except GameError as e:
                found = e
            self._upgrades[key] = found
        if found is True or found is False:
            return found
        raise found.with_traceback(None)

    def upgrades(self, tiles) -> list:
        """The tiles of ``tiles`` (of the colour that may go there) that the title lets
        replace the tile there, in their order (:meth:`Variant.upgrades`: the rule of
        :meth:`may_upgrade`, asked of them all at once), each noted as allowed for the
        judge of a lay listed to find (:meth:`may_upgrade` asks no more of it)."""
        table = self.table
        found = table.variant.upgrades(table, self.hex, self.old, tiles)
        for tile in found:
            self._upgrades.setdefault(tile, True)
        return found

    def rotations(self, tile: TileDef) -> tuple:
        """The rotations ``tile`` lies on the hex in, whoever lays it
        (:meth:`Variant.rotations_on_hex`)."""
        found = self._rotations.get(tile)
        if found is None:
            table = self.table
            found = self._rotations[tile] = table.variant.rotations_on_hex(table, self.hex,
                                                                           tile)
        return found

    def layouts(self, tile: TileDef) -> tuple:
        """``tile`` laid in each of :meth:`rotations`, in their order."""
        found = self._layouts.get(tile)
        if found is None:
            found = self._layouts[tile] = layouts_of(tile, self.rotations(tile))
        return found


@lru_cache(maxsize=None)
def layouts_of(tile: TileDef, rotations: tuple) -> tuple:
    """``tile`` laid in each of ``rotations``. (Shapes only, the same in every game:
    worked out once.)"""
    return tuple(tile.layout(r) for r in rotations)


def check_lay_basics(table: Table, operator, hex_id: str, tile_id: str, tile: TileDef,
                     special: bool = False,
                     hex_blocker: Callable[[Table, object, str], Optional[object]]
                     = powers.hex_blocker, site: Optional[LaySite] = None,
                     supply: Optional[Collection[str]] = None) -> None:
    """The checks before the tile is turned: in the supply, of a colour of the phase,
    not on a blocked hex (the power blocking it: ``hex_blocker``, by default
    :func:`powers.hex_blocker`; a step may give its own answer to it, remembered), an
    upgrade of the tile there (of the next colour, :func:`next_color`, first: listing
    lays asks the title's upgrade rule of no other). ``site``: the hex as the position
    has it (:class:`LaySite`, kept by the step; made here if not given); ``supply``: the
    ids of the supply's tiles, as a set kept by the step (by default the supply)."""
    if tile_id not in (supply if supply is not None else table.state.tiles):
        refuse(f"tile {tile_id} is not available")
    if site is None:
        site = LaySite(table, hex_id)
    if tile.color not in site.colors:
        refuse(f"{tile.color} tiles cannot be laid in phase {table.phase.name}")
    blocker = hex_blocker(table, operator, hex_id)
    if blocker is not None:
        refuse(f"{hex_id} is blocked by {blocker.holder.name}")
    if tile.color != site.color or not site.may_upgrade(tile, special):
        refuse(f"{site.old.tile.name} on {hex_id} cannot be upgraded to {tile.name}")


class _HexAfterLay:
    """What a tile's view reads of its hex (:class:`board.TileView`), as a lay would
    leave it."""

    __slots__ = ("id", "tile", "rotation", "cities")

    def __init__(self, hex_id: str, tile_id: str, rotation: int, cities: list) -> None:
        self.id, self.tile, self.rotation, self.cities = hex_id, tile_id, rotation, cities


def view_after_lay(table: Table, hex_id: str, tile_id: str, rotation: int,
                   tile: TileDef) -> board.TileView:
    """The tile on the hex as it would lie once laid (:func:`board.lay`: the tokens in its
    cities as the lay puts them there), the board left as it is: the view of the hex a
    :class:`TrialLay` would show, for what needs no walk on the board with it.

    Its rails and stops are those of the tile at that rotation on that hex, whatever the
    position: the view is built once per hex, tile and rotation and kept with the table,
    its cities given again each time asked (building one costs as much as judging the
    rest of the restriction without a walk, and listing asks it of each candidate; what
    reads it reads it at once and changes nothing). Kept by the tile's shape, not its id
    (each copy of a tile lies alike: the copy's id is given again, with the cities)."""
    key = (hex_id, tile, rotation)
    found = table.derived.after_lay.get(key)
    cities = _cities_after_lay(table, hex_id, tile_id, tile, rotation) \
        if tile.stops else []
    if found is None:
        found = table.derived.after_lay[key] = board.TileView(
            _HexAfterLay(hex_id, tile_id, rotation, cities), tile)
    else:
        found.tile_id = tile_id
        if cities:
            _seat_cities(found, cities)
    return found


def _cities_after_lay(table: Table, hex_id: str, tile_id: str, tile: TileDef,
                      rotation: int) -> list:
    """The hex's cities once the tile is laid, the tokens seated there as the lay seats
    them (:func:`board.cities_after_lay`), the board left as it is."""
    cities, moved, extras = board.cities_after_lay(table, hex_id, tile_id, tile, rotation)
    for k, token, cheater in moved:
        board.seat(cities[k], token, cheater, False)
    for k, token in extras:
        board.seat(cities[k], token, False, True)
    return cities


def _seat_cities(tile_view: board.TileView, cities: list) -> None:
    """Give the view's cities ``cities``, in the order of its tile's stops (as
    :class:`board.TileView` gives them)."""
    given = iter(cities)
    for node in tile_view.nodes.values():
        if node.part.is_city:
            node.city = next(given)


class TrialLay:
    """A tile laid only to see what it would do (the track restriction looks at the
    network with the new tile); everything goes back as it was afterwards, the old tile's
    view too (what was worked out of it holds again). The tile laid is seen as a lay
    carried out sees it (:func:`_view_made_before`: the view of that lay made before, if
    one was), and its view kept after as :func:`view_after_lay` keeps it, for the next
    trial, the judge's view of the lay, or the lay. What was worked out of networks
    meanwhile is in ``found``."""

    def __init__(self, table: Table, hex_id: str, tile_id: str, rotation: int,
                 tile: TileDef) -> None:
        self.table = table
        self.args = (hex_id, tile_id, rotation, tile)
        self.found: dict = {}

    def __enter__(self) -> "TrialLay":
        table = self.table
        hex_id = self.args[0]
        h = table.state.hexes[hex_id]
        self.saved = (h.tile, h.printed, h.rotation, h.cities, list(h.borders), list(h.icons),
                      h.terrain)
        self.tokens = [(t, t.where, t.extra, t.cheater) for c in h.cities
                       for t in list(c.slots) + list(c.extra) if t is not None]
        self.networks = (dict(table.state.networks), dict(table.derived.network))
        self.old_view = board.view(table, hex_id)
        table.state.networks.clear()
        table.derived.network.clear()
        board.lay(table, *self.args)
        _view_made_before(table, *self.args)
        return self

    def __exit__(self, *exc) -> None:
        table = self.table
        hex_id = self.args[0]
        self.found = dict(table.state.networks)
        laid = table.derived.views.get(hex_id)
        if laid is not None:    # kept for the lay itself or the next trial (_view_made_before)
            _, tile_id, rotation, tile = self.args
            table.derived.after_lay[(hex_id, tile, rotation)] = laid
        h = table.state.hexes[hex_id]
        h.tile, h.printed, h.rotation, h.cities, h.borders, h.icons, h.terrain = self.saved
        for token, where, extra, cheater in self.tokens:
            token.where, token.extra, token.cheater = where, extra, cheater
        table.derived.views[hex_id] = self.old_view
        board.forget_track_near(table, hex_id)
        table.state.networks.clear()
        table.state.networks.update(self.networks[0])
        table.derived.network.clear()
        table.derived.network.update(self.networks[1])
