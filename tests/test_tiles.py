"""Tiles: reading tile notation, rotating tiles, comparing track, naming parts.

The notation is documented in ``tracklayer/board/notation.py``; tiles as shapes and their
layouts per rotation are in ``tracklayer/board/tiles.py``; the standard catalogue is
``tracklayer/board/data/tiles.json`` (name → [colour, notation], read by
``tracklayer/board/catalogue.py``). What sits on a tile laid on a hex (its tokens, its ids)
is game state, seen through ``tracklayer.rules.board.TileView``.
"""

from __future__ import annotations

import dataclasses

import pytest

from tracklayer.board.catalogue import standard_tiles
from tracklayer.board.notation import (REVENUE_COLORS, SIDES, JunctionPart, LabelPart,
                                       NodeEnd, NotationError, SideEnd, StopPart)
from tracklayer.board.tiles import COLOR_ORDER, TileDef, fits_some_rotation
from tracklayer.rules import board
from tracklayer.state.model import HexState

CATALOGUE = standard_tiles()


def tile(name: str) -> TileDef:
    """A catalogue tile."""
    color, code = CATALOGUE[name]
    return TileDef(name, color, code)


def laid(t: TileDef, index: int = 0, rotation: int = 0, hex_id: str = "X1") -> board.TileView:
    """Copy ``index`` of tile ``t`` (id ``<name>-<index>``) as laid on a hex, with fresh
    cities (what the engine gives a hex when the tile is laid there)."""
    h = HexState(id=hex_id, tile=f"{t.name}-{index}", rotation=rotation,
                 cities=board.new_cities(t))
    return board.TileView(h, t)


def path_ends(layout) -> list:
    """Each track of ``layout`` as a sorted pair; sides are numbers and nodes ``"N<k>"``
    (their position among the tile's cities/towns/off-boards)."""
    t = layout.tile
    nodes = [p.index for p in t.cities + t.towns + t.offboards]
    out = []
    for track in layout.tracks:
        ends = []
        for kind, value in track.ends:
            ends.append(value if kind == "side" else f"N{nodes.index(value)}")
        out.append(tuple(sorted(ends, key=str)))
    return sorted(out, key=str)


def stop_tracks(layout, stop) -> list:
    """The tracks of ``layout`` that touch stop part ``stop``."""
    return [tr for tr in layout.tracks if stop.index in tr.stops]


# ---------------------------------------------------------------------------------------------
# Reading the notation


def test_city_on_a_straight_track():
    """Tile 57: one city worth 20 in every phase, one slot, track from edge 0 through the
    city to edge 3 (two paths, each from an edge to the city)."""
    t = tile("57")
    assert t.color == "yellow"
    assert len(t.cities) == 1 and not t.towns and not t.offboards
    city = t.cities[0]
    assert isinstance(city, StopPart) and city.kind == "city" and city.is_city
    assert city.slots == 1 and laid(t).nodes[city.index].city.slots == [None]
    assert dict(city.revenue) == {color: 20 for color in REVENUE_COLORS}
    assert len(t.track_parts) == 2
    layout = t.layout(0)
    assert sorted(layout.exits) == [0, 3]
    assert all(tr.stops == (city.index,) and tr.stop == city.index for tr in layout.tracks)
    assert sorted(layout.sides_of(city.index)) == [0, 3]
    assert t.label is None and t.terrain_parts == () and t.borders == ()


def test_two_towns_each_with_its_own_track():
    """Tile 1: two towns worth 10; town N0 joins edges 1 and 3, town N1 joins 0 and 4."""
    t = tile("1")
    assert len(t.towns) == 2 and all(isinstance(x, StopPart) and x.is_town for x in t.towns)
    assert [dict(x.revenue)["yellow"] for x in t.towns] == [10, 10]
    layout = t.layout(0)
    assert sorted(layout.sides_of(t.towns[0].index)) == [1, 3]
    assert sorted(layout.sides_of(t.towns[1].index)) == [0, 4]
    assert path_ends(layout) == [(0, "N1"), (1, "N0"), (3, "N0"), (4, "N1")]


def test_city_slots_option():
    """``slots=N`` gives a city N token slots (tile 14 is a two-slot green city)."""
    t = tile("14")
    assert t.cities[0].slots == 2
    assert laid(t).nodes[t.cities[0].index].city.slots == [None, None]
    assert dict(t.cities[0].revenue)["green"] == 30


def test_offboard_with_revenue_per_phase_group_and_terminal_track():
    """An off-board with revenue per phase colour, a group, hidden revenue, and terminal
    track: the revenue in a phase is that of the latest listed colour the phase has."""
    t = TileDef("N1", "red",
                "offboard yellow:20,green:30,brown:50 group=Aachen hide ; path 5 N0 terminal")
    off = t.offboards[0]
    assert isinstance(off, StopPart) and off.kind == "offboard" and off.is_offboard
    assert dict(off.revenue) == {"yellow": 20, "green": 30, "brown": 50}
    assert off.groups == ("Aachen",)
    assert off.hidden is True
    assert off.best_revenue == 50
    node = laid(t).nodes[off.index]
    assert node.revenue_in(["yellow"]) == 20
    assert node.revenue_in(["yellow", "green"]) == 30
    assert node.revenue_in(["yellow", "green", "brown", "gray"]) == 50
    assert node.revenue_in(["gray"]) == 0
    (p,) = t.layout(0).tracks
    assert p.terminal and p.sides == (5,) and p.stops == (off.index,)


def test_plain_revenue_applies_to_every_phase():
    """A single number is the revenue in every phase."""
    t = TileDef("x", "yellow", "town 10 ; path 0 N0")
    node = laid(t).nodes[t.towns[0].index]
    assert node.revenue_in(["yellow", "green", "brown", "gray"]) == 10


def test_node_options():
    """Options of a city or town: visit cost, optional stop, drawing location, town style;
    several groups are separated by ``/``."""
    t = TileDef("x", "yellow",
                "city 20 visit_cost=0 route=optional loc=2.5 group=A/B ; town 10 style=rect ; "
                "path 0 N0 ; path N1 3")
    city, town = t.cities[0], t.towns[0]
    assert city.visit_cost == 0
    assert city.optional is True
    assert city.loc == "2.5"
    assert city.groups == ("A", "B")
    assert town.style == "rect"
    assert town.visit_cost == 1 and town.optional is False


def test_label_terrain_border_icon_and_stub():
    """Köln in 1893: a label, a water upgrade cost, a passable water border with its cost,
    an impassable border; plus an icon that blocks tile lays and a track stub."""
    t = TileDef("L5", "white", "city 0 ; border 5 impassable ; upgrade 40 water/mountain ; "
                               "label K ; border 4 water 10 ; icon 1893/green_hex blocks_lay ; "
                               "stub 1")
    assert t.label == "K"
    assert [(u.cost, u.terrains) for u in t.terrain_parts] == [(40, ("water", "mountain"))]
    # The terrain kinds of the hex, each once (the old ``Tile.terrain``).
    kinds = []
    for u in t.terrain_parts:
        kinds.extend(x for x in u.terrains if x not in kinds)
    assert kinds == ["water", "mountain"]
    borders = {(b.side, b.kind, b.cost) for b in t.borders}
    assert borders == {(5, "impassable", None), (4, "water", 10)}
    assert t.blocks_lay is True
    assert t.icons[0].name == "green_hex" and t.icons[0].blocks_lay
    assert list(t.stubs) == [1]
    assert t.track_parts == () and t.layout(0).tracks == () and t.layout(0).exits == ()


def test_labels_compare_by_text():
    """Labels are equal when their text is (upgrades compare labels)."""
    assert TileDef("a", "white", "label K").label == \
        TileDef("b", "yellow", "city 30 ; label K").label
    assert TileDef("a", "white", "label K").label != TileDef("b", "white", "label BX").label
    assert TileDef("a", "white", "label OO").label == "OO"


def test_gauge_and_lanes():
    """``track=`` sets the gauge (broad by default); ``lanes=N`` makes N parallel paths whose
    lanes run across (lane i at one end is lane N-1-i at the other)."""
    assert [p.gauge for p in tile("77").track_parts] == ["narrow"]
    assert [p.gauge for p in tile("7").track_parts] == ["broad"]
    assert [p.gauge for p in tile("233").track_parts] == ["dual"]
    t = TileDef("x", "yellow", "path 0 3 lanes=2")
    tracks = t.layout(0).tracks
    assert len(tracks) == 2
    assert sorted((tr.lanes[0], tr.lanes[3]) for tr in tracks) == \
        [((2, 0), (2, 1)), ((2, 1), (2, 0))]


def test_junction_paths():
    """A junction (Lawson tile 81) joins its paths: each path's far ends are the other exits."""
    t = tile("81")
    assert t.junction is not None
    layout = t.layout(0)
    assert sorted(layout.exits) == [0, 2, 4]
    for tr in layout.tracks:
        far = sorted(value for kind, value in layout.track_ends(tr) if kind == "side")
        assert len(far) == 3 and set(far) == {0, 2, 4}


@pytest.mark.parametrize("code", [
    "bogus 1",                    # unknown kind
    "city abc",                   # revenue not a number
    "city yellow:2x",             # per-phase revenue not a number
    "path 0",                     # a path needs two ends
    "path x 1",                   # an end is neither an edge nor a node
    "border",                     # a border needs its edge
    "upgrade",                    # terrain needs a cost
    "path 0 1 lanes=x",           # lanes must be a number
])
def test_malformed_notation_raises_tile_error(code):
    """Notation that cannot be read raises NotationError (the old TileError), not some other
    exception."""
    with pytest.raises(NotationError):
        TileDef("bad", "yellow", code)


@pytest.mark.parametrize("code", [
    "city 20 ; path 0 N1",        # only one node declared (N0)
    "path N0 3",                  # no node at all
])
def test_path_to_an_undeclared_node_raises_tile_error(code):
    """``Nk`` must name a node declared before the path."""
    with pytest.raises(NotationError):
        TileDef("bad", "yellow", code)


@pytest.mark.parametrize("code", ["path 0 6", "city 20 ; path 7 N0", "path -1 2"])
def test_path_edge_outside_0_to_5_raises_tile_error(code):
    """A hex has six sides, numbered 0-5."""
    with pytest.raises(NotationError):
        TileDef("bad", "yellow", code)


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_every_catalogue_tile_reads(name):
    """Every standard tile has a known colour, track between edges 0-5 and declared nodes,
    and each city has as many token slots as its ``slots``."""
    color, code = CATALOGUE[name]
    assert color in COLOR_ORDER
    t = TileDef(name, color, code)
    assert all(e in SIDES for e in t.layout(0).exits)
    for p in t.track_parts:
        for end in (p.a, p.b):
            assert isinstance(end, (SideEnd, NodeEnd))
            if isinstance(end, SideEnd):
                assert end.side in SIDES
            else:
                assert isinstance(t.parts[end.part], (StopPart, JunctionPart))
                assert t.parts[end.part] in t.parts
    view = laid(t)
    for c in t.cities:
        assert len(view.nodes[c.index].city.slots) == c.slots >= 1


# ---------------------------------------------------------------------------------------------
# Ids


def test_tile_and_part_ids():
    """A tile is ``<name>-<index>``; its parts are ``<name>-<index>-<part index>``, the part
    index being the position in the notation (labels and paths count too)."""
    t = TileDef("X", "yellow", "label K ; city 20 ; town 10 ; path 0 N0 ; path N1 3")
    view = laid(t, index=2)
    assert view.tile_id == "X-2"
    label = next(p for p in t.parts if isinstance(p, LabelPart))
    assert f"{view.tile_id}-{label.index}" == "X-2-0"
    assert view.nodes[t.cities[0].index].id == "X-2-1"
    assert view.nodes[t.towns[0].index].id == "X-2-2"
    assert [f"{view.tile_id}-{r.track.part.index}" for r in view.rails] == ["X-2-3", "X-2-4"]
    assert [p.index for p in t.parts] == list(range(len(t.parts)))


def test_city_ids_of_the_second_copy_of_a_tile():
    """The 18xx.games format names cities this way, e.g. ``57-1-0`` for the city of the second
    tile 57; two cities of one tile differ in the last number."""
    assert laid(tile("57"), index=1).cities[0].id == "57-1-0"
    assert [c.id for c in laid(tile("59"), index=3).cities] == ["59-3-0", "59-3-1"]


def test_ids_do_not_change_with_rotation():
    """Turning a tile keeps the ids of its parts (actions name cities by id)."""
    def ids(view):
        return [f"{view.tile_id}-{r.track.part.index}" for r in view.rails] + \
            [view.cities[0].id]

    before = ids(laid(tile("57"), index=4, rotation=0))
    assert ids(laid(tile("57"), index=4, rotation=3)) == before


def test_copies_have_independent_parts():
    """Two copies of a tile share no state: placing a token on one leaves the other alone.
    (The new engine shares one immutable TileDef between copies; a revenue cannot be
    changed at all, so it cannot leak from one copy to another.)"""
    t = tile("57")
    a, b = laid(t, 0, hex_id="A1"), laid(t, 1, hex_id="B1")
    assert a.cities[0].city is not b.cities[0].city
    a.cities[0].city.slots[0] = "token"
    assert b.cities[0].city.slots == [None]
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.cities[0].part.revenue = (("yellow", 99),)
    assert dict(b.cities[0].part.revenue)["yellow"] == 20
    assert laid(tile("57"), 2).cities[0].revenue_in(["yellow"]) == 20


# ---------------------------------------------------------------------------------------------
# Rotation


@pytest.mark.parametrize("rotation", SIDES)
def test_rotation_turns_every_exit(rotation):
    """Rotating by r (clockwise ticks) moves every exit e to (e + r) mod 6."""
    layout = tile("7").layout(rotation)                 # a sharp curve 0-1
    assert sorted(layout.exits) == sorted({rotation, (rotation + 1) % 6})
    assert [sorted(tr.sides) for tr in layout.tracks] == [sorted({rotation, (rotation + 1) % 6})]


def test_rotation_is_absolute_not_cumulative():
    """``layout(r)`` is rotation r from the printed position; it does not add to a rotation
    looked at before."""
    t = tile("8")                                   # gentle curve 0-2
    t.layout(2)
    layout = t.layout(2)
    assert sorted(layout.exits) == [2, 4]
    layout = t.layout(0)
    assert sorted(layout.exits) == [0, 2]
    assert layout.rotation == 0
    # On a hex, the rotation recorded is the one the tile is shown at.
    assert sorted(laid(t, rotation=2).layout.exits) == [2, 4]


def test_rotation_of_a_tile_with_several_paths():
    """Every path turns with the tile (18: 0-3 and 1-2 turned by 4 are 4-1 and 5-0)."""
    layout = tile("18").layout(4)                   # 0-3 and 1-2
    assert path_ends(layout) == [(0, 5), (1, 4)]
    assert sorted(layout.exits) == [0, 1, 4, 5]


@pytest.mark.parametrize("rotation", SIDES)
def test_node_paths_follow_rotation(rotation):
    """After a rotation a city's paths and exits are those of the turned tile."""
    t = tile("5")                                   # city with edges 0 and 1
    layout = t.layout(rotation)
    city = t.cities[0]
    expected = sorted({rotation, (rotation + 1) % 6})
    assert sorted(layout.sides_of(city.index)) == expected
    tracks = stop_tracks(layout, city)
    assert tracks and all(tr in layout.tracks for tr in tracks)
    assert sorted(e for tr in tracks for e in tr.sides) == expected
    # The same through the tile as laid on a hex at that rotation.
    node = laid(t, rotation=rotation).cities[0]
    assert sorted(node.sides) == expected
    assert sorted(e for r in node.rails for e in r.sides) == expected


def test_node_paths_follow_rotation_after_being_read():
    """A city's paths, once looked at, still follow later rotations (also on a hex of a
    game, where the tile as laid is kept until the tile changes)."""
    t = tile("57")
    assert sorted(t.layout(0).sides_of(t.cities[0].index)) == [0, 3]
    assert sorted(t.layout(1).sides_of(t.cities[0].index)) == [1, 4]
    assert sorted(t.layout(5).sides_of(t.cities[0].index)) == [2, 5]

    from tracklayer.game import Game
    from tracklayer.titles import title
    table = Game(title("1893"), [(1, "A"), (2, "B"), (3, "C")], seed=0).table
    tile_id = next(x for x in table.state.tiles if x.startswith("57-"))
    tile_def = board.supply_tile(table, tile_id)
    board.lay(table, "I2", tile_id, 0, tile_def)
    assert sorted(board.view(table, "I2").cities[0].sides) == [0, 3]
    board.lay(table, "I2", tile_id, 1, tile_def)
    assert sorted(board.view(table, "I2").cities[0].sides) == [1, 4]
    board.lay(table, "I2", tile_id, 5, tile_def)
    assert sorted(board.view(table, "I2").cities[0].sides) == [2, 5]


def test_town_paths_follow_rotation_separately():
    """Each of two towns keeps its own track when the tile turns."""
    t = tile("1")
    layout = t.layout(1)
    assert sorted(layout.sides_of(t.towns[0].index)) == [2, 4]
    assert sorted(layout.sides_of(t.towns[1].index)) == [1, 5]


def test_rotation_keeps_gauge_terminal_and_lanes():
    """Turning a path changes its edges only, not its gauge, terminal mark or lanes."""
    t = TileDef("x", "red", "offboard 20 ; path 2 N0 terminal track=narrow a_lane=2.1")
    (p,) = t.layout(3).tracks
    assert p.sides == (5,)
    assert p.terminal and p.gauge == "narrow"
    assert p.lanes[5] == (2, 1)


def test_exit_count_follows_rotation():
    """Two paths on the same side (1893's K170 has two on edge 3) count twice."""
    t = TileDef("K170", "brown", "city 50 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; "
                                 "path 3 N0 ; path 4 N0 ; path 5 N0 ; label L")
    count = t.layout(0).side_count
    assert count.get(3, 0) == 2 and count.get(1, 0) == 0
    count = t.layout(2).side_count
    assert count.get(5, 0) == 2 and count.get(3, 0) == 0 and count.get(0, 0) == 1


def test_rotating_does_not_change_the_unrotated_paths():
    """Rotation is a view: turning back to 0 gives the printed track again."""
    t = tile("9")
    assert sorted(t.layout(1).exits) == [1, 4]
    fresh = tile("9")
    assert sorted(fresh.layout(0).exits) == [0, 3]
    assert path_ends(t.layout(0)) == path_ends(fresh.layout(0))


# ---------------------------------------------------------------------------------------------
# Does one tile's track fit in another's?


@pytest.mark.parametrize("old, new, fits", [
    ("7", "18", True),      # sharp curve inside 0-3 + 1-2
    ("7", "19", False),     # 19 has a straight and a gentle curve, no sharp curve
    ("8", "19", True),
    ("9", "19", True),
    ("9", "16", False),     # two gentle curves, no straight
    ("9", "20", True),
    ("7", "26", True),
    ("8", "25", True),
    ("57", "14", True),     # city straight inside a four-exit city
    ("57", "15", True),
    ("5", "14", True),
    ("6", "15", True),
    ("9", "14", False),     # plain track does not fit through a city
    ("57", "9", False),     # a city's track is not plain track
    ("4", "57", False),     # a town's track does not become a city's
    ("3", "143", True),     # town with a sharp curve inside a three-exit town
    ("4", "143", False),    # 143 (edges 0, 1, 2) has no straight through the town
    ("58", "144", True),
])
def test_paths_are_subset_of(old, new, fits):
    """Some rotation of the old tile's track is kept, path for path, by the new tile's track
    (same ends: edges, and a city for a city, a town for a town)."""
    assert fits_some_rotation(tile(old).layout(0), tile(new).layout(0)) is fits


@pytest.mark.parametrize("rotation", SIDES)
def test_paths_are_subset_of_does_not_depend_on_the_new_tiles_rotation(rotation):
    """The new tile is tried in every rotation, so its current one does not matter."""
    assert fits_some_rotation(tile("7").layout(0), tile("18").layout(rotation))
    assert not fits_some_rotation(tile("9").layout(0), tile("16").layout(rotation))


def test_paths_are_subset_of_respects_gauge():
    """Broad track fits in broad or dual track, narrow in narrow or dual, never across."""
    def fits(old, new):
        return fits_some_rotation(tile(old).layout(0), tile(new).layout(0))

    assert fits("9", "233")         # broad in dual
    assert fits("79", "233")        # narrow in dual
    assert not fits("79", "20")     # narrow in broad
    assert not fits("9", "79")      # broad in narrow


def test_empty_tile_fits_anywhere():
    """A tile without track keeps nothing, so any track contains it."""
    blank = TileDef("blank", "white", "").layout(0)
    assert fits_some_rotation(blank, tile("7").layout(0))
    assert fits_some_rotation(blank, TileDef("none", "white", "").layout(0))
