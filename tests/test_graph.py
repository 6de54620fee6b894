"""Track connectivity on the 1893 map (``tracklayer/rules/network.py``, the map in play in
``tracklayer/rules/board.py``).

Tiles are put straight onto hexes (no actions), then the network of an operator with a
token is asked what it reaches. In 1893 every minor starts with its token in its home city:
EKB in T3, KFBE in L3, KSZ in P7 (a yellow city with track to Q6 and Q8), KBE in O4, BKB in
I2.

Networks are kept until a tile lay or a token placement in a turn forgets them; as the
tests change the map directly, they call ``network.forget`` themselves.

Hex sides are numbered 0-5; on this map side 0 of a hex faces the hex two letters on
(L3 → N3), side 3 the hex two letters back (L3 → J3), side 1 → M2, 2 → K2, 4 → K4, 5 → M4.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from tracklayer.board.catalogue import standard_tiles
from tracklayer.game import Game
from tracklayer.rules import board, network, tokens
from tracklayer.state.model import MinorState, TokenState
from tracklayer.titles import title

CATALOGUE = standard_tiles()
PLAYERS = [(1, "A"), (2, "B"), (3, "C")]
_written = itertools.count()


@pytest.fixture
def game():
    """A new 1893 table with tile shapes of its own (the tests add tiles written in tile
    notation to it, which must not reach other games)."""
    private = dataclasses.replace(title("1893"), _specs={})
    return Game(private, PLAYERS, seed=1).table


def lay(table, hex_id: str, name_or_code: str, rotation: int) -> str:
    """Put a tile on a hex: a tile of the supply by name, else a catalogue tile, else a tile
    written in tile notation. Returns the tile's id; the networks are forgotten."""
    supply = [t for t in table.state.tiles if t.rsplit("-", 1)[0] == name_or_code]
    if supply:
        tile_id = supply[0]
        table.state.tiles.remove(tile_id)
        tile = board.supply_tile(table, tile_id)
    elif name_or_code in CATALOGUE:
        tile = table.spec.tile_def(name_or_code)
        tile_id = f"{name_or_code}-{90 + rotation}"
    else:
        name = f"T{hex_id}x{next(_written)}"
        tile = table.spec.tile_def(name, "yellow", name_or_code)
        tile_id = f"{name}-99"
    board.lay(table, hex_id, tile_id, rotation, tile)
    network.forget(table)
    return tile_id


def token(table, hex_id: str, operator) -> None:
    """Put a station token of ``operator`` in the (first) city of a hex (no checks)."""
    node = board.view(table, hex_id).cities[0]
    tokens.place(table, operator, node, tokens.next_token(operator))
    network.forget(table)


def hex_ids(mapping) -> set:
    return {h for h in mapping if h is not None}


def path_hexes(table, operator) -> set:
    return {r.hex for r in network.rails_reached(table, operator)}


def node_hexes(table, operator) -> set:
    return {n.hex for n in network.nodes_reached(table, operator)}


def edges(table, operator, hex_id) -> list:
    return sorted(network.hexes_reached(table, operator)[hex_id])


def rail_sides(table, operator, hex_id) -> list:
    """The sides of each rail of ``hex_id`` that the operator reaches."""
    return [list(r.sides) for r in network.rails_reached(table, operator) if r.hex == hex_id]


def open_sides(table, hex_id) -> tuple:
    """The sides across which track of ``hex_id`` may continue (the old ``Hex.neighbors``)."""
    return table.state.hexes[hex_id].open_sides


def tokenable_cities(table, operator) -> list:
    """Cities the operator's track reaches where it could place a token."""
    left = tokens.unplaced(operator)
    return [n for n in network.nodes_reached(table, operator)
            if n.is_city and tokens.tokenable(table, operator, n, left, free=True)]


def can_token(table, operator) -> bool:
    """As the token step asks (the answer kept with the network)."""
    return network.remember(table, operator, "token",
                            lambda: bool(tokenable_cities(table, operator)))


# ---------------------------------------------------------------------------------------------
# Reaching along track


def test_minor_reaches_its_own_track_and_the_sides_it_points_at(game):
    """KSZ in P7 (track to sides 1 and 5): it may build on P7 (any side with a neighbour)
    and on Q6 and Q8 on the sides facing P7's track, nowhere else."""
    ksz = game.minor("KSZ")
    assert hex_ids(network.hexes_reached(game, ksz)) == {"P7", "Q6", "Q8"}
    assert edges(game, ksz, "P7") == sorted(open_sides(game, "P7"))
    assert edges(game, ksz, "Q6") == [4]
    assert edges(game, ksz, "Q8") == [2]
    assert node_hexes(game, ksz) == {"P7"}
    assert path_hexes(game, ksz) == {"P7"}
    assert not network.has_route(game, ksz)


def test_track_leads_on_to_towns_and_offboards(game):
    """A town tile in Q8 joining P7 to the off-board P9: KSZ reaches the town and P9, and now
    has a route for a train (two stops)."""
    ksz = game.minor("KSZ")
    lay(game, "Q8", "58", 2)                     # town, sides 2 (P7) and 4 (P9)
    assert node_hexes(game, ksz) == {"P7", "Q8", "P9"}
    assert path_hexes(game, ksz) == {"P7", "Q8", "P9"}
    assert edges(game, ksz, "Q8") == [2, 4]
    assert network.has_route(game, ksz) and network.has_route_for_train(game, ksz)


def test_reach_follows_a_chain_of_tiles(game):
    """BKB in I2: city tile to J3, a curve on to L3 … each hex it reaches is open on the sides
    its track points at."""
    bkb = game.minor("BKB")
    lay(game, "I2", "6", 3)                      # city, sides 3 (G2) and 5 (J3)
    lay(game, "J3", "8", 0)                      # sides 0 (L3) and 2 (I2)
    assert path_hexes(game, bkb) == {"I2", "J3"}
    assert hex_ids(network.hexes_reached(game, bkb)) >= {"I2", "J3", "L3", "G2"}
    assert edges(game, bkb, "L3") == [3]
    assert edges(game, bkb, "J3") == [0, 2]


def test_track_that_does_not_line_up_is_not_reached(game):
    """A tile next door whose track does not point back is not connected; nor is track
    elsewhere on the map."""
    bkb = game.minor("BKB")
    lay(game, "I2", "6", 3)                      # sides 3 and 5 (J3 is on side 5)
    lay(game, "J3", "9", 1)                      # sides 1 and 4: not side 2, facing I2
    lay(game, "S8", "9", 0)
    assert path_hexes(game, bkb) == {"I2"}
    assert "S8" not in hex_ids(network.hexes_reached(game, bkb))


def test_graph_is_per_operator(game):
    """Track reached by one operator is not thereby reached by another."""
    bkb, ekb = game.minor("BKB"), game.minor("EKB")
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
    bkb = game.minor("BKB")
    assert "L3" in node_hexes(game, bkb)
    assert "N3" not in path_hexes(game, bkb)
    assert "P3" not in hex_ids(network.hexes_reached(game, bkb))
    assert rail_sides(game, bkb, "L3") == [[3]]


def test_own_token_does_not_block(through_l3):
    """KFBE itself runs through L3 in both directions."""
    game = through_l3
    kfbe = game.minor("KFBE")
    assert path_hexes(game, kfbe) == {"I2", "J3", "L3", "N3"}
    assert edges(game, kfbe, "P3") == [3]
    assert "I2" in node_hexes(game, kfbe)


def test_city_with_a_free_slot_does_not_block(through_l3):
    """Upgraded to a two-slot city (KFBE's token carried over), L3 can be passed."""
    game = through_l3
    lay(game, "L3", "15", 0)                     # two slots, sides 0-3
    city = game.state.hexes["L3"].cities[0]
    assert [t.owner.sym for t in city.slots if t] == ["KFBE"]
    bkb = game.minor("BKB")
    assert "N3" in path_hexes(game, bkb)


def test_neutral_token_does_not_block(through_l3):
    """A neutral token (as in 1893's Köln-Deutz) fills a slot but blocks nobody."""
    game = through_l3
    node = board.view(game, "L3").cities[0]
    board.lift_token(game, game.minor("KFBE").tokens[0])
    neutral = MinorState(sym="N2")
    neutral.tokens = [TokenState(neutral, kind="neutral")]
    tokens.place(game, neutral, node, neutral.tokens[0])
    assert game.state.hexes["L3"].cities[0].slots[0].owner is neutral
    network.forget(game)
    assert "N3" in path_hexes(game, game.minor("BKB"))


def test_hgk_token_in_j5_blocks_from_the_start(game):
    """J5 (gray, one slot) holds HGK's token from the start: KFBE reaches it over K4 but does
    not pass on to H5."""
    kfbe = game.minor("KFBE")
    lay(game, "L3", "57", 1)                     # city, sides 1 and 4 (K4)
    lay(game, "K4", "9", 1)                      # sides 1 (L3) and 4 (J5)
    assert "J5" in node_hexes(game, kfbe)
    assert "H5" not in node_hexes(game, kfbe)
    assert rail_sides(game, kfbe, "J5") == [[1]]


# ---------------------------------------------------------------------------------------------
# Off-boards, terminal track


@pytest.fixture
def to_l9(game):
    """DE's token in Bergisch-Gladbach (I8), track I8 - K8 - L9 (off-board with terminal track
    to K8 and M8), and a town tile in M8 with track to L9."""
    de = game.corporation("DE")
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
    assert rail_sides(game, de, "L9") == [[2]]


def test_terminal_track_ends_the_walk(game):
    """Track marked terminal leads to its city but not through it."""
    de = game.corporation("DE")
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
    assert side in game.spec.grid.across[hex_id]
    assert side not in open_sides(game, hex_id)
    assert board.neighbour(game, hex_id, side) is None


def test_rhine_cuts_track(game):
    """Köln (L5) with track towards M6 across the impassable Rhine border: a company in L5
    does not reach M6's track; across an ordinary side (to M4) it does."""
    de = game.corporation("DE")
    assert any(t.rsplit("-", 1)[0] == "K201" for t in game.state.tiles)
    k201 = lay(game, "L5", "K201", 5)            # sides 5 (M6, across the Rhine) and 0 (N5)
    assert k201.startswith("K201-")
    assert sorted(board.view(game, "L5").layout.exits) == [0, 5]
    lay(game, "M6", "9", 2)                      # sides 2 (L5) and 5
    token(game, "L5", de)
    assert "M6" not in path_hexes(game, de)
    assert "M6" not in hex_ids(network.hexes_reached(game, de))
    lay(game, "L5", "city 30 ; path 0 N0 ; path 1 N0 ; path 5 N0 ; label K", 0)
    lay(game, "M4", "4", 1)                      # town, sides 1 and 4 (L5)
    assert "M4" in node_hexes(game, de)
    assert "M6" not in path_hexes(game, de)


def test_water_border_is_passable(game):
    """Köln's border to K6 (side 4) is water, not impassable: only a cost."""
    assert 4 in open_sides(game, "L5")
    assert [(b.side, b.kind, b.cost) for b in game.state.hexes["L5"].borders
            if b.kind == "water"] == [(4, "water", 0)]


def test_gray_hex_is_a_neighbour_only_where_it_has_track(game):
    """H5 (gray) has track only on side 0 (to J5): I4, whose side 4 faces H5, does not count
    H5 as a neighbour, but J5 does."""
    assert 4 not in open_sides(game, "I4")
    assert board.neighbour(game, "J5", 3) == "H5"


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
    assert ("Q8" in node_hexes(game, game.minor("KSZ"))) is reached


def test_lane_match():
    """Facing exits line up when lane i of a two-lane side meets lane 1-i; single lanes
    always meet; a side without track meets nothing."""
    assert board.lanes_meet((1, 0), (1, 0))
    assert board.lanes_meet((2, 0), (2, 1)) and board.lanes_meet((2, 1), (2, 0))
    assert not board.lanes_meet((2, 0), (2, 0))
    assert not board.lanes_meet((2, 1), (2, 1))
    assert not board.lanes_meet(None, (1, 0))


def test_two_lane_track_links_lane_to_lane(game):
    """Two hexes with two-lane straights facing each other: each lane continues into exactly
    one lane of the neighbour."""
    lay(game, "J7", "path 0 3 lanes=2", 0)
    lay(game, "L7", "path 0 3 lanes=2", 0)
    rails = board.view(game, "J7").rails
    assert len(rails) == 2
    for rail in rails:
        found = [(side, nxt) for side, _, nxt, _ in board.links(game, rail) if nxt.hex == "L7"]
        assert len(found) == 1
        (side, nxt), = found
        assert side == 0
        assert nxt.lanes[3] == (2, 1 - rail.lanes[0][1])


# ---------------------------------------------------------------------------------------------
# Tokens


def test_tokenable_cities_need_a_free_slot(game):
    """DE in O2 with track to KBE's home O4: while O4's one slot holds KBE's token DE cannot
    token there; once O4 is a two-slot city it can."""
    de = game.corporation("DE")
    token(game, "O2", de)
    lay(game, "O2", "6", 2)                      # city, sides 2 and 4 (N3)
    lay(game, "N3", "8", 5)                      # sides 1 (O2) and 5 (O4)
    lay(game, "O4", "city 20 ; path 2 N0 ; path N0 0", 0)
    assert "O4" in node_hexes(game, de)
    assert tokenable_cities(game, de) == []
    assert not can_token(game, de)
    lay(game, "O4", "15", 0)                     # two slots, sides 0-3 (2 faces N3)
    assert {c.hex for c in tokenable_cities(game, de)} == {"O4"}
    assert can_token(game, de)
