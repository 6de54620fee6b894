"""Tiles: reading tile notation, rotating tiles, comparing track, naming parts.

The notation is documented in ``tracklayer/map/tiles.py``; the standard catalogue is
``tracklayer/map/data/tiles.json`` (name → [colour, notation]).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracklayer.map.tiles import (ALL_EDGES, COLORS, REVENUE_PHASES, City, Offboard, Tile,
                                  TileError, Town)

CATALOGUE_PATH = Path(__file__).resolve().parent.parent / "tracklayer" / "map" / "data" / \
    "tiles.json"
CATALOGUE = json.loads(CATALOGUE_PATH.read_text(encoding="utf-8"))


def tile(name: str, index: int = 0) -> Tile:
    """A fresh copy of a catalogue tile."""
    color, code = CATALOGUE[name]
    return Tile(name, color, code, index=index)


def path_ends(t: Tile) -> list:
    """Each path of ``t`` at its current rotation as a sorted pair; edges are numbers and
    nodes ``"N<k>"`` (their position among the tile's cities/towns/off-boards)."""
    nodes = t.cities + t.towns + t.offboards
    out = []
    for p in t.paths:
        ends = []
        for part in (p.a, p.b):
            ends.append(part.num if part.is_edge else f"N{nodes.index(part)}")
        out.append(tuple(sorted(ends, key=str)))
    return sorted(out, key=str)


# ---------------------------------------------------------------------------------------------
# Reading the notation


def test_city_on_a_straight_track():
    """Tile 57: one city worth 20 in every phase, one slot, track from edge 0 through the
    city to edge 3 (two paths, each from an edge to the city)."""
    t = tile("57")
    assert t.color == "yellow"
    assert len(t.cities) == 1 and not t.towns and not t.offboards
    city = t.cities[0]
    assert isinstance(city, City)
    assert city.slots == 1 and city.tokens == [None]
    assert city.revenue == {color: 20 for color in REVENUE_PHASES}
    assert len(t.paths) == 2
    assert sorted(t.exits) == [0, 3]
    assert all(p.city is city and p.nodes == [city] for p in t.paths)
    assert sorted(city.exits) == [0, 3]
    assert t.label is None and t.terrain == [] and t.borders == []


def test_two_towns_each_with_its_own_track():
    """Tile 1: two towns worth 10; town N0 joins edges 1 and 3, town N1 joins 0 and 4."""
    t = tile("1")
    assert len(t.towns) == 2 and all(isinstance(x, Town) for x in t.towns)
    assert [x.revenue["yellow"] for x in t.towns] == [10, 10]
    assert sorted(t.towns[0].exits) == [1, 3]
    assert sorted(t.towns[1].exits) == [0, 4]
    assert path_ends(t) == [(0, "N1"), (1, "N0"), (3, "N0"), (4, "N1")]


def test_city_slots_option():
    """``slots=N`` gives a city N token slots (tile 14 is a two-slot green city)."""
    t = tile("14")
    assert t.cities[0].slots == 2
    assert t.cities[0].tokens == [None, None]
    assert t.cities[0].revenue["green"] == 30


def test_offboard_with_revenue_per_phase_group_and_terminal_track():
    """An off-board with revenue per phase colour, a group, hidden revenue, and terminal
    track: the revenue in a phase is that of the latest listed colour the phase has."""
    t = Tile("N1", "red",
             "offboard yellow:20,green:30,brown:50 group=Aachen hide ; path 5 N0 terminal")
    off = t.offboards[0]
    assert isinstance(off, Offboard)
    assert off.revenue == {"yellow": 20, "green": 30, "brown": 50}
    assert off.groups == ["Aachen"]
    assert off.hide is True
    assert off.max_revenue == 50
    assert off.revenue_in(["yellow"]) == 20
    assert off.revenue_in(["yellow", "green"]) == 30
    assert off.revenue_in(["yellow", "green", "brown", "gray"]) == 50
    assert off.revenue_in(["gray"]) == 0
    (p,) = t.paths
    assert p.terminal and p.is_terminal and p.exits == [5] and p.offboard is off


def test_plain_revenue_applies_to_every_phase():
    """A single number is the revenue in every phase."""
    t = Tile("x", "yellow", "town 10 ; path 0 N0")
    assert t.towns[0].revenue_in(["yellow", "green", "brown", "gray"]) == 10


def test_node_options():
    """Options of a city or town: visit cost, optional stop, drawing location, town style;
    several groups are separated by ``/``."""
    t = Tile("x", "yellow",
             "city 20 visit_cost=0 route=optional loc=2.5 group=A/B ; town 10 style=rect ; "
             "path 0 N0 ; path N1 3")
    city, town = t.cities[0], t.towns[0]
    assert city.visit_cost == 0
    assert city.route == "optional"
    assert city.loc == "2.5"
    assert city.groups == ["A", "B"]
    assert town.style == "rect"
    assert town.visit_cost == 1 and town.route == "mandatory"


def test_label_terrain_border_icon_and_stub():
    """Köln in 1893: a label, a water upgrade cost, a passable water border with its cost,
    an impassable border; plus an icon that blocks tile lays and a track stub."""
    t = Tile("L5", "white", "city 0 ; border 5 impassable ; upgrade 40 water/mountain ; "
                            "label K ; border 4 water 10 ; icon 1893/green_hex blocks_lay ; "
                            "stub 1")
    assert t.label.text == "K"
    assert [(u.cost, u.terrains) for u in t.upgrades] == [(40, ["water", "mountain"])]
    assert t.terrain == ["water", "mountain"]
    borders = {(b.edge, b.type, b.cost) for b in t.borders}
    assert borders == {(5, "impassable", None), (4, "water", 10)}
    assert t.blocks_lay is True
    assert t.icons[0].name == "green_hex"
    assert [s.edge for s in t.stubs] == [1]
    assert t.paths == [] and t.exits == []


def test_labels_compare_by_text():
    """Labels are equal when their text is (upgrades compare labels)."""
    assert Tile("a", "white", "label K").label == Tile("b", "yellow", "city 30 ; label K").label
    assert Tile("a", "white", "label K").label != Tile("b", "white", "label BX").label
    assert Tile("a", "white", "label OO").label.text == "OO"


def test_gauge_and_lanes():
    """``track=`` sets the gauge (broad by default); ``lanes=N`` makes N parallel paths whose
    lanes run across (lane i at one end is lane N-1-i at the other)."""
    assert [p.track for p in tile("77").paths] == ["narrow"]
    assert [p.track for p in tile("7").paths] == ["broad"]
    assert [p.track for p in tile("233").paths] == ["dual"]
    t = Tile("x", "yellow", "path 0 3 lanes=2")
    assert len(t.paths) == 2
    assert sorted((p.exit_lanes[0], p.exit_lanes[3]) for p in t.paths) == \
        [((2, 0), (2, 1)), ((2, 1), (2, 0))]


def test_junction_paths():
    """A junction (Lawson tile 81) joins its paths: each path's far ends are the other exits."""
    t = tile("81")
    assert t.junction is not None
    assert sorted(t.exits) == [0, 2, 4]
    for p in t.paths:
        far = sorted(e.num for e in p.ends if e.is_edge)
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
    """Notation that cannot be read raises TileError, not some other exception."""
    with pytest.raises(TileError):
        Tile("bad", "yellow", code)


@pytest.mark.parametrize("code", [
    "city 20 ; path 0 N1",        # only one node declared (N0)
    "path N0 3",                  # no node at all
])
def test_path_to_an_undeclared_node_raises_tile_error(code):
    """``Nk`` must name a node declared before the path."""
    with pytest.raises(TileError):
        Tile("bad", "yellow", code)


@pytest.mark.parametrize("code", ["path 0 6", "city 20 ; path 7 N0", "path -1 2"])
def test_path_edge_outside_0_to_5_raises_tile_error(code):
    """A hex has six sides, numbered 0-5."""
    with pytest.raises(TileError):
        Tile("bad", "yellow", code)


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_every_catalogue_tile_reads(name):
    """Every standard tile has a known colour, track between edges 0-5 and declared nodes,
    and each city has as many token slots as its ``slots``."""
    color, code = CATALOGUE[name]
    assert color in COLORS
    t = Tile(name, color, code)
    assert all(e in ALL_EDGES for e in t.exits)
    for p in t.paths:
        for part in (p.a, p.b):
            assert part.is_edge or part.is_node or part.is_junction
            if not part.is_edge:
                assert part in t.parts
    for c in t.cities:
        assert len(c.tokens) == c.slots >= 1


# ---------------------------------------------------------------------------------------------
# Ids


def test_tile_and_part_ids():
    """A tile is ``<name>-<index>``; its parts are ``<name>-<index>-<part index>``, the part
    index being the position in the notation (labels and paths count too)."""
    t = Tile("X", "yellow", "label K ; city 20 ; town 10 ; path 0 N0 ; path N1 3", index=2)
    assert t.id == "X-2"
    assert t.labels[0].id == "X-2-0"
    assert t.cities[0].id == "X-2-1"
    assert t.towns[0].id == "X-2-2"
    assert [p.id for p in t.paths] == ["X-2-3", "X-2-4"]
    assert [p.index for p in t.parts] == list(range(len(t.parts)))


def test_city_ids_of_the_second_copy_of_a_tile():
    """The 18xx.games format names cities this way, e.g. ``57-1-0`` for the city of the second
    tile 57; two cities of one tile differ in the last number."""
    assert tile("57", index=1).cities[0].id == "57-1-0"
    assert [c.id for c in tile("59", index=3).cities] == ["59-3-0", "59-3-1"]


def test_ids_do_not_change_with_rotation():
    """Turning a tile keeps the ids of its parts (actions name cities by id)."""
    t = tile("57", index=4)
    before = [p.id for p in t.paths] + [t.cities[0].id]
    t.rotate(3)
    assert [p.id for p in t.paths] + [t.cities[0].id] == before


def test_copies_have_independent_parts():
    """Two tiles read from the same notation share no parts: placing a token or changing a
    revenue on one leaves the other alone."""
    a, b = tile("57", 0), tile("57", 1)
    assert a.cities[0] is not b.cities[0]
    a.cities[0].tokens[0] = "token"
    a.cities[0].revenue["yellow"] = 99
    assert b.cities[0].tokens == [None]
    assert b.cities[0].revenue["yellow"] == 20
    assert tile("57", 2).cities[0].revenue["yellow"] == 20


# ---------------------------------------------------------------------------------------------
# Rotation


@pytest.mark.parametrize("rotation", ALL_EDGES)
def test_rotation_turns_every_exit(rotation):
    """Rotating by r (clockwise ticks) moves every exit e to (e + r) mod 6."""
    t = tile("7")                                   # a sharp curve 0-1
    t.rotate(rotation)
    assert sorted(t.exits) == sorted({rotation, (rotation + 1) % 6})
    assert [sorted(p.exits) for p in t.paths] == [sorted({rotation, (rotation + 1) % 6})]


def test_rotation_is_absolute_not_cumulative():
    """``rotate(r)`` sets rotation r from the printed position; it does not add to the
    current one."""
    t = tile("8")                                   # gentle curve 0-2
    t.rotate(2)
    t.rotate(2)
    assert sorted(t.exits) == [2, 4]
    t.rotate(0)
    assert sorted(t.exits) == [0, 2]
    assert t.rotation == 0


def test_rotation_of_a_tile_with_several_paths():
    """Every path turns with the tile (18: 0-3 and 1-2 turned by 4 are 4-1 and 5-0)."""
    t = tile("18")                                  # 0-3 and 1-2
    t.rotate(4)
    assert path_ends(t) == [(0, 5), (1, 4)]
    assert sorted(t.exits) == [0, 1, 4, 5]


@pytest.mark.parametrize("rotation", ALL_EDGES)
def test_node_paths_follow_rotation(rotation):
    """After a rotation a city's paths and exits are those of the turned tile."""
    t = tile("5")                                   # city with edges 0 and 1
    t.rotate(rotation)
    city = t.cities[0]
    expected = sorted({rotation, (rotation + 1) % 6})
    assert sorted(city.exits) == expected
    assert all(p in t.paths for p in city.paths)
    assert sorted(e for p in city.paths for e in p.exits) == expected


def test_node_paths_follow_rotation_after_being_read():
    """A city's paths, once looked at, still follow later rotations."""
    t = tile("57")
    assert sorted(t.cities[0].exits) == [0, 3]
    t.rotate(1)
    assert sorted(t.cities[0].exits) == [1, 4]
    t.rotate(5)
    assert sorted(t.cities[0].exits) == [2, 5]


def test_town_paths_follow_rotation_separately():
    """Each of two towns keeps its own track when the tile turns."""
    t = tile("1")
    t.rotate(1)
    assert sorted(t.towns[0].exits) == [2, 4]
    assert sorted(t.towns[1].exits) == [1, 5]


def test_rotation_keeps_gauge_terminal_and_lanes():
    """Turning a path changes its edges only, not its gauge, terminal mark or lanes."""
    t = Tile("x", "red", "offboard 20 ; path 2 N0 terminal track=narrow a_lane=2.1")
    t.rotate(3)
    (p,) = t.paths
    assert p.exits == [5]
    assert p.terminal and p.track == "narrow"
    assert p.exit_lanes[5] == (2, 1)


def test_exit_count_follows_rotation():
    """Two paths on the same side (1893's K170 has two on edge 3) count twice."""
    t = Tile("K170", "brown", "city 50 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; "
                              "path 3 N0 ; path 4 N0 ; path 5 N0 ; label L")
    assert t.exit_count(3) == 2 and t.exit_count(1) == 0
    t.rotate(2)
    assert t.exit_count(5) == 2 and t.exit_count(3) == 0 and t.exit_count(0) == 1


def test_rotating_does_not_change_the_unrotated_paths():
    """Rotation is a view: turning back to 0 gives the printed track again."""
    t = tile("9")
    t.rotate(1)
    assert sorted(t.exits) == [1, 4]
    fresh = tile("9")
    assert sorted(fresh.exits) == [0, 3]
    t.rotate(0)
    assert path_ends(t) == path_ends(fresh)


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
    assert tile(old).paths_are_subset_of(tile(new).paths) is fits


@pytest.mark.parametrize("rotation", ALL_EDGES)
def test_paths_are_subset_of_does_not_depend_on_the_new_tiles_rotation(rotation):
    """The new tile is tried in every rotation, so its current one does not matter."""
    new = tile("18")
    new.rotate(rotation)
    assert tile("7").paths_are_subset_of(new.paths)
    assert not tile("9").paths_are_subset_of(tile("16").rotate(rotation).paths)


def test_paths_are_subset_of_respects_gauge():
    """Broad track fits in broad or dual track, narrow in narrow or dual, never across."""
    assert tile("9").paths_are_subset_of(tile("233").paths)        # broad in dual
    assert tile("79").paths_are_subset_of(tile("233").paths)       # narrow in dual
    assert not tile("79").paths_are_subset_of(tile("20").paths)    # narrow in broad
    assert not tile("9").paths_are_subset_of(tile("79").paths)     # broad in narrow


def test_empty_tile_fits_anywhere():
    """A tile without track keeps nothing, so any track contains it."""
    assert Tile("blank", "white", "").paths_are_subset_of(tile("7").paths)
    assert Tile("blank", "white", "").paths_are_subset_of([])
