"""Track connectivity on the 1893 map (``tracklayer/map/graph.py``, ``tracklayer/map/hexes.py``).

Tiles are put straight onto hexes (no actions), then the graph of an operator with a token
is asked what it reaches. In 1893 every minor starts with its token in its home city: EKB in
T3, KFBE in L3, KSZ in P7 (a yellow city with track to Q6 and Q8), KBE in O4, BKB in I2.

Hex sides are numbered 0-5; on this map side 0 of a hex faces the hex two letters on
(L3 → N3), side 3 the hex two letters back (L3 → J3), side 1 → M2, 2 → K2, 4 → K4, 5 → M4.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracklayer.engine.entities import Corporation
from tracklayer.map.hexes import lane_match
from tracklayer.map.tiles import Tile
from tracklayer.titles.g1893.game import G1893

CATALOGUE = json.loads((Path(__file__).resolve().parent.parent / "tracklayer" / "map" / "data" /
                        "tiles.json").read_text(encoding="utf-8"))


@pytest.fixture
def game():
    return G1893([(1, "A"), (2, "B"), (3, "C")], seed=1)


def lay(game, hex_id: str, name_or_code: str, rotation: int) -> Tile:
    """Put a tile on a hex: a tile of the supply by name, else a catalogue tile, else a tile
    written in tile notation. Cached track of the hex and its neighbours is forgotten."""
    hex_ = game.hex_by_id(hex_id)
    supply = [t for t in game.tiles if t.name == name_or_code]
    if supply:
        tile = supply[0]
        game.tiles.remove(tile)
    elif name_or_code in CATALOGUE:
        color, code = CATALOGUE[name_or_code]
        tile = Tile(name_or_code, color, code, index=90 + rotation)
    else:
        tile = Tile("T" + hex_id, "yellow", name_or_code, index=99)
    tile.rotate(rotation)
    hex_.lay(tile)
    for h in [hex_] + list(hex_.all_neighbors.values()):
        h.invalidate_paths()
    game.graph.clear()
    return tile


def token(game, hex_id: str, corporation) -> None:
    """Put a station token of ``corporation`` in the (first) city of a hex."""
    city = game.hex_by_id(hex_id).tile.cities[0]
    city.place_token(corporation, corporation.next_token(), free=True, check_tokenable=False)
    game.graph.clear()


def hex_ids(mapping) -> set:
    return {h.id for h in mapping if h is not None}


def path_hexes(game, entity) -> set:
    return {p.tile.hex.id for p in game.graph.connected_paths(entity)}


def node_hexes(game, entity) -> set:
    return {n.hex.id for n in game.graph.connected_nodes(entity)}


def edges(game, entity, hex_id) -> list:
    return sorted(game.graph.connected_hexes(entity)[game.hex_by_id(hex_id)])


# ---------------------------------------------------------------------------------------------
# Reaching along track


def test_minor_reaches_its_own_track_and_the_sides_it_points_at(game):
    """KSZ in P7 (track to sides 1 and 5): it may build on P7 (any side with a neighbour)
    and on Q6 and Q8 on the sides facing P7's track, nowhere else."""
    ksz = game.minor_by_id("KSZ")
    g = game.graph
    assert hex_ids(g.connected_hexes(ksz)) == {"P7", "Q6", "Q8"}
    assert edges(game, ksz, "P7") == sorted(game.hex_by_id("P7").neighbors)
    assert edges(game, ksz, "Q6") == [4]
    assert edges(game, ksz, "Q8") == [2]
    assert node_hexes(game, ksz) == {"P7"}
    assert path_hexes(game, ksz) == {"P7"}
    assert not (g.route_info(ksz) or {}).get("route_available")


def test_track_leads_on_to_towns_and_offboards(game):
    """A town tile in Q8 joining P7 to the off-board P9: KSZ reaches the town and P9, and now
    has a route for a train (two stops)."""
    ksz = game.minor_by_id("KSZ")
    lay(game, "Q8", "58", 2)                     # town, sides 2 (P7) and 4 (P9)
    assert node_hexes(game, ksz) == {"P7", "Q8", "P9"}
    assert path_hexes(game, ksz) == {"P7", "Q8", "P9"}
    assert edges(game, ksz, "Q8") == [2, 4]
    info = game.graph.route_info(ksz)
    assert info["route_available"] and info["route_train_purchase"]


def test_reach_follows_a_chain_of_tiles(game):
    """BKB in I2: city tile to J3, a curve on to L3 … each hex it reaches is open on the sides
    its track points at."""
    bkb = game.minor_by_id("BKB")
    lay(game, "I2", "6", 3)                      # city, sides 3 (G2) and 5 (J3)
    lay(game, "J3", "8", 0)                      # sides 0 (L3) and 2 (I2)
    assert path_hexes(game, bkb) == {"I2", "J3"}
    assert hex_ids(game.graph.connected_hexes(bkb)) >= {"I2", "J3", "L3", "G2"}
    assert edges(game, bkb, "L3") == [3]
    assert edges(game, bkb, "J3") == [0, 2]


def test_track_that_does_not_line_up_is_not_reached(game):
    """A tile next door whose track does not point back is not connected; nor is track
    elsewhere on the map."""
    bkb = game.minor_by_id("BKB")
    lay(game, "I2", "6", 3)                      # sides 3 and 5 (J3 is on side 5)
    lay(game, "J3", "9", 1)                      # sides 1 and 4: not side 2, facing I2
    lay(game, "S8", "9", 0)
    assert path_hexes(game, bkb) == {"I2"}
    assert "S8" not in hex_ids(game.graph.connected_hexes(bkb))


def test_graph_is_per_operator(game):
    """Track reached by one operator is not thereby reached by another."""
    bkb, ekb = game.minor_by_id("BKB"), game.minor_by_id("EKB")
    lay(game, "I2", "6", 3)
    assert "I2" in path_hexes(game, bkb)
    assert path_hexes(game, ekb) == set()
    assert node_hexes(game, ekb) == {"T3"}


# ---------------------------------------------------------------------------------------------
# Cities full of other companies' tokens


@pytest.fixture
def through_l3(game):
    """Track I2 - J3 - L3 - N3 - P3: a straight line through KFBE's one-slot home city."""
    lay(game, "I2", "6", 3)                      # BKB's city, sides 3 and 5
    lay(game, "J3", "8", 0)                      # sides 0 and 2
    lay(game, "L3", "57", 0)                     # city, sides 0 (N3) and 3 (J3)
    lay(game, "N3", "9", 0)                      # sides 0 (P3) and 3 (L3)
    return game


def test_full_city_of_another_company_blocks(through_l3):
    """BKB may reach L3 (and end a route there) but not pass through it: L3's only slot holds
    KFBE's token."""
    game = through_l3
    bkb = game.minor_by_id("BKB")
    assert "L3" in node_hexes(game, bkb)
    assert "N3" not in path_hexes(game, bkb)
    assert "P3" not in hex_ids(game.graph.connected_hexes(bkb))
    l3_paths = [p for p in game.graph.connected_paths(bkb) if p.tile.hex.id == "L3"]
    assert [p.exits for p in l3_paths] == [[3]]


def test_own_token_does_not_block(through_l3):
    """KFBE itself runs through L3 in both directions."""
    game = through_l3
    kfbe = game.minor_by_id("KFBE")
    assert path_hexes(game, kfbe) == {"I2", "J3", "L3", "N3"}
    assert edges(game, kfbe, "P3") == [3]
    assert "I2" in node_hexes(game, kfbe)


def test_city_with_a_free_slot_does_not_block(through_l3):
    """Upgraded to a two-slot city (KFBE's token carried over), L3 can be passed."""
    game = through_l3
    lay(game, "L3", "15", 0)                     # two slots, sides 0-3
    city = game.hex_by_id("L3").tile.cities[0]
    assert [t.corporation.id for t in city.tokens if t] == ["KFBE"]
    bkb = game.minor_by_id("BKB")
    assert "N3" in path_hexes(game, bkb)


def test_neutral_token_does_not_block(through_l3):
    """A neutral token (as in 1893's Köln-Deutz) fills a slot but blocks nobody."""
    game = through_l3
    city = game.hex_by_id("L3").tile.cities[0]
    game.minor_by_id("KFBE").tokens[0].remove()
    neutral = Corporation("N2", "Neutral", tokens=[0])
    for t in neutral.tokens:
        t.type = "neutral"
    city.place_token(neutral, neutral.next_token(), free=True, check_tokenable=False)
    assert city.tokens[0].corporation is neutral
    game.graph.clear()
    assert "N3" in path_hexes(game, game.minor_by_id("BKB"))


def test_hgk_token_in_j5_blocks_from_the_start(game):
    """J5 (gray, one slot) holds HGK's token from the start: KFBE reaches it over K4 but does
    not pass on to H5."""
    kfbe = game.minor_by_id("KFBE")
    lay(game, "L3", "57", 1)                     # city, sides 1 and 4 (K4)
    lay(game, "K4", "9", 1)                      # sides 1 (L3) and 4 (J5)
    assert "J5" in node_hexes(game, kfbe)
    assert "H5" not in node_hexes(game, kfbe)
    j5_paths = [p for p in game.graph.connected_paths(kfbe) if p.tile.hex.id == "J5"]
    assert [p.exits for p in j5_paths] == [[1]]


# ---------------------------------------------------------------------------------------------
# Off-boards, terminal track


@pytest.fixture
def to_l9(game):
    """DE's token in Bergisch-Gladbach (I8), track I8 - K8 - L9 (off-board with terminal track
    to K8 and M8), and a town tile in M8 with track to L9."""
    de = game.corporation_by_id("DE")
    lay(game, "I8", "57", 0)                     # city, sides 0 (K8) and 3
    lay(game, "K8", "8", 3)                      # sides 3 (I8) and 5 (L9)
    lay(game, "M8", "4", 1)                      # town, sides 1 and 4 (L9)
    token(game, "I8", de)
    return game, de


@pytest.mark.parametrize("offboard", [None, "offboard 20 ; path 1 N0 ; path 2 N0"])
def test_offboard_is_reached_but_not_passed(to_l9, offboard):
    """Trains stop at an off-board: L9 as printed (terminal track), and an off-board whose
    track is not marked terminal."""
    game, de = to_l9
    if offboard:
        lay(game, "L9", offboard, 0)
    assert "L9" in node_hexes(game, de)
    assert "M8" not in node_hexes(game, de)
    assert "M8" not in path_hexes(game, de)
    l9_paths = [p for p in game.graph.connected_paths(de) if p.tile.hex.id == "L9"]
    assert [p.exits for p in l9_paths] == [[2]]


def test_terminal_track_ends_the_walk(game):
    """Track marked terminal leads to its city but not through it."""
    de = game.corporation_by_id("DE")
    lay(game, "I8", "57", 0)                     # city, side 0 to K8
    token(game, "I8", de)
    lay(game, "K8", "city 20 ; path 3 N0 terminal ; path N0 0", 0)
    lay(game, "M8", "4", 3)                      # town, sides 0 and 3 (K8)
    assert "K8" in node_hexes(game, de)
    assert "M8" not in path_hexes(game, de)
    lay(game, "K8", "city 20 ; path 3 N0 ; path N0 0", 0)
    assert "M8" in path_hexes(game, de)


# ---------------------------------------------------------------------------------------------
# Borders


@pytest.mark.parametrize("hex_id, side", [("C4", 5), ("D5", 1), ("D5", 2), ("E4", 4),
                                          ("L5", 5), ("M6", 2), ("O6", 1), ("Q6", 0),
                                          ("S6", 3)])
def test_impassable_border_removes_the_neighbour(game, hex_id, side):
    """The Rhine: across an impassable border the hexes are not neighbours for track."""
    h = game.hex_by_id(hex_id)
    assert side in h.all_neighbors
    assert side not in h.neighbors


def test_rhine_cuts_track(game):
    """Köln (L5) with track towards M6 across the impassable Rhine border: a company in L5
    does not reach M6's track; across an ordinary side (to M4) it does."""
    de = game.corporation_by_id("DE")
    k201 = [t for t in game.tiles if t.name == "K201"][0]
    lay(game, "L5", "K201", 5)                   # sides 5 (M6, across the Rhine) and 0 (N5)
    assert sorted(k201.exits) == [0, 5]
    lay(game, "M6", "9", 2)                      # sides 2 (L5) and 5
    token(game, "L5", de)
    assert "M6" not in path_hexes(game, de)
    assert "M6" not in hex_ids(game.graph.connected_hexes(de))
    lay(game, "L5", "city 30 ; path 0 N0 ; path 1 N0 ; path 5 N0 ; label K", 0)
    lay(game, "M4", "4", 1)                      # town, sides 1 and 4 (L5)
    assert "M4" in node_hexes(game, de)
    assert "M6" not in path_hexes(game, de)


def test_water_border_is_passable(game):
    """Köln's border to K6 (side 4) is water, not impassable: only a cost."""
    l5 = game.hex_by_id("L5")
    assert 4 in l5.neighbors
    assert [(b.edge, b.type, b.cost) for b in l5.tile.borders if b.type == "water"] == \
        [(4, "water", 0)]


def test_gray_hex_is_a_neighbour_only_where_it_has_track(game):
    """H5 (gray) has track only on side 0 (to J5): I4, whose side 4 faces H5, does not count
    H5 as a neighbour, but J5 does."""
    assert 4 not in game.hex_by_id("I4").neighbors
    assert game.hex_by_id("J5").neighbors.get(3) is game.hex_by_id("H5")


# ---------------------------------------------------------------------------------------------
# Gauge and lanes


@pytest.mark.parametrize("code, reached", [
    ("town 10 ; path 2 N0 ; path N0 4", True),
    ("town 10 ; path 2 N0 track=narrow ; path N0 4 track=narrow", False),
    ("town 10 ; path 2 N0 track=dual ; path N0 4 track=dual", True),
])
def test_gauges_must_match_across_a_side(game, code, reached):
    """KSZ's broad track from P7 continues into Q8 only onto broad or dual-gauge track."""
    lay(game, "Q8", code, 0)
    assert ("Q8" in node_hexes(game, game.minor_by_id("KSZ"))) is reached


def test_lane_match():
    """Facing exits line up when lane i of a two-lane side meets lane 1-i; single lanes
    always meet; a side without track meets nothing."""
    assert lane_match((1, 0), (1, 0))
    assert lane_match((2, 0), (2, 1)) and lane_match((2, 1), (2, 0))
    assert not lane_match((2, 0), (2, 0))
    assert not lane_match((2, 1), (2, 1))
    assert not lane_match(None, (1, 0))


def test_two_lane_track_links_lane_to_lane(game):
    """Two hexes with two-lane straights facing each other: each lane continues into exactly
    one lane of the neighbour."""
    lay(game, "J7", "path 0 3 lanes=2", 0)
    lay(game, "L7", "path 0 3 lanes=2", 0)
    j7, l7 = game.hex_by_id("J7"), game.hex_by_id("L7")
    for path in j7.tile.paths:
        links = [(num, np) for num, _, np, _ in j7.links(path) if np.tile.hex is l7]
        assert len(links) == 1
        (num, np), = links
        assert num == 0
        assert np.exit_lanes[3] == (2, 1 - path.exit_lanes[0][1])


# ---------------------------------------------------------------------------------------------
# Tokens


def test_tokenable_cities_need_a_free_slot(game):
    """DE in O2 with track to KBE's home O4: while O4's one slot holds KBE's token DE cannot
    token there; once O4 is a two-slot city it can."""
    de = game.corporation_by_id("DE")
    token(game, "O2", de)
    lay(game, "O2", "6", 2)                      # city, sides 2 and 4 (N3)
    lay(game, "N3", "8", 5)                      # sides 1 (O2) and 5 (O4)
    lay(game, "O4", "city 20 ; path 2 N0 ; path N0 0", 0)
    assert "O4" in node_hexes(game, de)
    assert game.graph.tokenable_cities(de) == []
    assert not game.graph.can_token(de)
    lay(game, "O4", "15", 0)                     # two slots, sides 0-3 (2 faces N3)
    assert {c.hex.id for c in game.graph.tokenable_cities(de)} == {"O4"}
    assert game.graph.can_token(de)
