"""Which tile may replace which: the common rules (``tracklayer.rules.track.shape_allows``)
and 1893's own (``table.variant.may_upgrade`` and ``table.variant.rotation_allowed``, which
includes the common rules of :func:`tracklayer.rules.track.rotation_allows`).

An upgrade goes to the next colour, keeps all existing track (for some rotation of the new
tile), keeps the label, and keeps the number of cities and towns. 1893 adds Leverkusen (its
two yellow towns become one green city), the blocked hexes N5/P5, and the Rhine.
"""

from __future__ import annotations

import pytest

from tracklayer import actions
from tracklayer.board.catalogue import standard_tiles
from tracklayer.board.notation import SIDES
from tracklayer.board.tiles import TileDef
from tracklayer.errors import GameError
from tracklayer.game import Game
from tracklayer.rules import board, phases, track
from tracklayer.titles import title

CATALOGUE = standard_tiles()

PLAIN_GREEN_1893 = ["16", "19", "20", "23", "24", "25", "26", "27", "28", "29"]

PLAYERS = [(1, "A"), (2, "B"), (3, "C")]


def new_table():
    return Game(title("1893"), PLAYERS, seed=1).table


@pytest.fixture(scope="module")
def game():
    return new_table()


def tile(name: str) -> TileDef:
    color, code = CATALOGUE[name]
    return TileDef(name, color, code)


def title_tile(table, tile_id: str) -> TileDef:
    """A tile of the game's supply (1893's own tiles such as K1 are not in the catalogue)."""
    assert table.state.tiles.count(tile_id) == 1, tile_id
    return board.supply_tile(table, tile_id)


def white(table, hex_id: str):
    """The preprinted tile of a hex of the 1893 map, as it lies there."""
    return board.view(table, hex_id).layout


def layout(t):
    """A tile's track as laid unturned (a tile not on any hex)."""
    return t if not isinstance(t, TileDef) else t.layout(0)


def upgrades_to(table, old, new: TileDef, hex_id=None, special: bool = False) -> bool:
    """1893's upgrade rules for ``new`` replacing ``old``; ``hex_id`` is the hex the old
    tile lies on (None: a tile on no hex, so no rule of a particular hex applies)."""
    return table.variant.may_upgrade(table, hex_id, layout(old), new, special)


def upgrades_on(table, hex_id: str, new: TileDef, special: bool = False) -> bool:
    """May ``new`` replace the tile lying on ``hex_id``?"""
    return upgrades_to(table, white(table, hex_id), new, hex_id, special)


# ---------------------------------------------------------------------------------------------
# Plain track


@pytest.mark.parametrize("old, allowed", [
    ("7", {"26", "27", "28", "29"}),                          # sharp curve
    ("8", {"16", "19", "23", "24", "25", "28", "29"}),        # gentle curve
    ("9", {"19", "20", "23", "24", "26", "27"}),              # straight
])
def test_plain_yellow_to_green(game, old, allowed):
    """A yellow track tile upgrades to exactly the green tiles that contain its curve or
    straight."""
    found = {new for new in PLAIN_GREEN_1893 if upgrades_to(game, tile(old), tile(new))}
    assert found == allowed


@pytest.mark.parametrize("rotation", SIDES)
def test_upgrade_does_not_depend_on_how_the_old_tile_is_turned(game, rotation):
    """Existing track may be kept by any rotation of the new tile, so the old tile's own
    rotation does not matter."""
    old = tile("7").layout(rotation)
    assert upgrades_to(game, old, tile("26"))
    assert not upgrades_to(game, old, tile("19"))


@pytest.mark.parametrize("new", ["7", "8", "9"])
def test_blank_hex_takes_plain_yellow_track(game, new):
    """An empty white hex takes any plain yellow track tile."""
    assert upgrades_on(game, "J7", tile(new))


@pytest.mark.parametrize("old, new", [
    ("blank", "57"),      # a city needs a city hex
    ("blank", "3"),       # a town needs a town hex
    ("blank", "19"),      # white goes to yellow first
    ("7", "7"),           # same colour
    ("7", "8"),
    ("57", "7"),          # a city's track and city cannot disappear
    ("9", "39"),          # green is skipped (39 is brown)
    ("19", "9"),          # backwards
])
def test_wrong_colour_or_content(game, old, new):
    """Upgrades go one colour up and never lose track, cities or towns."""
    if old == "blank":
        assert not upgrades_on(game, "J7", tile(new))
    else:
        assert not upgrades_to(game, tile(old), tile(new))


# ---------------------------------------------------------------------------------------------
# Cities and towns


@pytest.mark.parametrize("new, ok", [
    ("5", True), ("6", True), ("57", True),
    ("7", False), ("8", False), ("9", False),   # no city on the tile
    ("3", False), ("4", False), ("58", False),  # a town is not a city
    ("14", False),                              # white to green
])
def test_white_city(game, new, ok):
    """Bergisch-Gladbach (I8), an unlabelled white city."""
    assert upgrades_on(game, "I8", tile(new)) is ok


@pytest.mark.parametrize("new, ok", [
    ("3", True), ("4", True), ("58", True),
    ("57", False), ("5", False),                # a town is not a city
    ("7", False), ("9", False),                 # the town cannot disappear
])
def test_white_town(game, new, ok):
    """A white town hex (B7) takes yellow town tiles only."""
    assert upgrades_on(game, "B7", tile(new)) is ok


@pytest.mark.parametrize("old, new, ok", [
    ("57", "14", True), ("57", "15", True), ("57", "619", True),
    ("5", "14", True), ("5", "15", True), ("5", "619", True),
    ("6", "14", True), ("6", "15", True), ("6", "619", True),
    ("57", "19", False),                        # green track without the city
    ("57", "57", False),
])
def test_yellow_city_to_green_city(game, old, new, ok):
    """A yellow city upgrades to a green city whose exits include the old ones."""
    assert upgrades_to(game, tile(old), tile(new)) is ok


@pytest.mark.parametrize("old, new, ok", [
    ("3", "141", True), ("3", "142", True), ("3", "143", True), ("3", "144", False),
    ("4", "141", True), ("4", "142", True), ("4", "143", False), ("4", "144", False),
    ("58", "141", True), ("58", "142", True), ("58", "143", True), ("58", "144", True),
])
def test_yellow_town_to_green_town(game, old, new, ok):
    """All of a town's exits must be kept: a straight through the town needs opposite exits,
    a sharp curve neighbouring ones."""
    assert upgrades_to(game, tile(old), tile(new)) is ok


def test_number_of_cities_must_match(game):
    """Two cities (OO) upgrade to two cities; a single city does not become two."""
    oo = TileDef("OO", "white", "city 0 ; city 0 ; label OO")
    assert upgrades_to(game, oo, tile("235"))
    assert not upgrades_to(game, oo, tile("57"))
    assert upgrades_to(game, tile("235"), tile("59"))
    assert not upgrades_to(game, TileDef("c", "white", "city 0 ; label OO"), tile("235"))


def test_a_labelled_city_keeps_a_city(game):
    """A labelled city hex cannot become a tile without a city, even with the same label."""
    old = TileDef("k", "white", "city 0 ; label K")
    assert not upgrades_to(game, old, TileDef("n", "yellow", "path 0 3 ; label K"))
    assert upgrades_to(game, old, TileDef("n", "yellow", "city 30 ; path 0 N0 ; label K"))


# ---------------------------------------------------------------------------------------------
# Labels


@pytest.mark.parametrize("new, ok", [
    ("K5-0", True), ("K6-0", True), ("K57-0", True),
])
def test_bx_city_takes_only_bx_tiles(game, new, ok):
    """Benrath (D5) is labelled BX: only BX tiles, not the plain 5/6/57."""
    assert upgrades_on(game, "D5", title_tile(game, new)) is ok
    plain = tile(new.split("-")[0][1:])
    assert not upgrades_on(game, "D5", plain)


def test_tile_ids_in_actions_name_tiles_of_the_supply(game):
    """``K6-0`` in a lay_tile action is 1893's yellow BX tile K6, not the preprinted tile of
    the hex called K6 (whose tile also has the id ``K6-0``)."""
    assert game.state.hexes["K6"].tile == "K6-0"
    action = actions.read(game, {"type": "lay_tile", "entity": "KFBE", "entity_type": "minor",
                                 "hex": "K6", "tile": "K6-0", "rotation": 0})
    found = action.tile
    assert found is title_tile(game, "K6-0")
    assert found is not board.tile_of(game, "K6")
    assert found.color == "yellow" and found.label == "BX"


def test_bx_yellow_to_bx_green(game):
    """BX tiles upgrade to BX tiles; unlabelled and BX tiles do not mix."""
    assert upgrades_to(game, title_tile(game, "K57-0"), title_tile(game, "K14-0"))
    assert upgrades_to(game, title_tile(game, "K57-0"), title_tile(game, "K15-0"))
    assert not upgrades_to(game, title_tile(game, "K57-0"), tile("14"))
    assert not upgrades_to(game, tile("57"), title_tile(game, "K14-0"))


def test_koeln_label(game):
    """Köln (L5, label K) takes K201, which takes K269; plain city tiles are refused."""
    assert upgrades_on(game, "L5", title_tile(game, "K201-0"))
    assert not upgrades_on(game, "L5", tile("57"))
    assert not upgrades_on(game, "L5", title_tile(game, "K57-0"))
    assert upgrades_to(game, title_tile(game, "K201-0"), title_tile(game, "K269-0"))
    assert not upgrades_to(game, title_tile(game, "K201-0"), tile("14"))


def test_special_lay_skips_label_and_city_checks(game):
    """A lay by a private company's ability checks only colour and kept track."""
    assert not upgrades_on(game, "I8", tile("7"))
    assert upgrades_on(game, "I8", tile("7"), special=True)
    assert not upgrades_to(game, tile("57"), tile("8"), special=True)


# ---------------------------------------------------------------------------------------------
# 1893: Leverkusen, the blocked hexes, the Rhine


@pytest.fixture
def fresh():
    return new_table()


def test_leverkusen_white_takes_the_two_town_l_tiles(fresh):
    """Leverkusen (G6, two towns, label L) takes K1/K55, not the unlabelled 1 nor a one-town
    tile."""
    assert upgrades_on(fresh, "G6", title_tile(fresh, "K1-0"))
    assert upgrades_on(fresh, "G6", title_tile(fresh, "K55-0"))
    assert not upgrades_on(fresh, "G6", tile("1"))          # same track, but no label L
    assert not upgrades_on(fresh, "G6", tile("4"))          # one town


@pytest.mark.parametrize("yellow", ["K1-0", "K55-0"])
def test_leverkusen_yellow_becomes_the_green_city(fresh, yellow):
    """Laid on Leverkusen (G6), K1/K55 (two towns) upgrade to K314 (one city) and nothing
    else, although the general rules would refuse a change from towns to a city."""
    board.lay(fresh, "G6", yellow, 0, title_tile(fresh, yellow))
    old = white(fresh, "G6")
    assert old.tile.name == yellow.split("-")[0]
    assert upgrades_on(fresh, "G6", title_tile(fresh, "K314-0"))
    assert not track.shape_allows(old, title_tile(fresh, "K314-0"))
    for other in ("14", "15", "619"):
        assert not upgrades_on(fresh, "G6", tile(other))


def test_l_tiles_elsewhere_follow_the_general_rules(fresh):
    """Off Leverkusen, K1 (two towns) does not upgrade to K314 (a city)."""
    assert not upgrades_to(fresh, title_tile(fresh, "K1-0"), title_tile(fresh, "K314-0"))


@pytest.mark.parametrize("hex_id", ["N5", "P5"])
def test_blocked_hexes_until_the_green_phase(fresh, hex_id):
    """N5 and P5 cannot be built on until the first 3-train removes their block."""
    new = tile("9") if hex_id == "N5" else tile("4")
    with pytest.raises(GameError, match=hex_id):
        upgrades_on(fresh, hex_id, new)
    phases.run_event(fresh, "remove_tile_block")
    assert upgrades_on(fresh, hex_id, new)


def test_n5_track_must_meet_its_stub(fresh):
    """N5 has a stub of track on edge 4: a new tile must have an exit there."""
    phases.run_event(fresh, "remove_tile_block")
    entity = fresh.minor("KBE")
    def rotation_allowed(table, entity, hex_id, layout):
        return table.variant.rotation_allowed(table, entity, hex_id, layout, list(SIDES))
    assert rotation_allowed(fresh, entity, "N5", tile("9").layout(1))       # edges 1, 4
    assert not rotation_allowed(fresh, entity, "N5", tile("9").layout(0))   # edges 0, 3


@pytest.mark.parametrize("hex_id, tile_id", [("L5", "K201-0"), ("S6", "K5-0")])
def test_rhine_crossings_closed_in_phase_2(fresh, hex_id, tile_id):
    """In phase 2 no track may cross the water border of Köln (L5) or Bonn (S6) (edge 4);
    from phase 3 it may, where the common rules let the tile lie so."""
    water = [b.side for b in fresh.state.hexes[hex_id].borders if b.kind == "water"]
    assert water == [4]
    entity = fresh.minor("KFBE")
    new = title_tile(fresh, tile_id)
    crossing = [r for r in SIDES if 4 in new.layout(r).exits]
    other = [r for r in SIDES if 4 not in new.layout(r).exits]
    assert crossing and other
    assert fresh.phase.name == "2"

    def rotation_allowed(table, entity, hex_id, layout):
        return table.variant.rotation_allowed(table, entity, hex_id, layout, list(SIDES))

    def common_rules_allow(table, entity, hex_id, layout):
        return track.rotation_allows(table, entity, hex_id, layout, list(SIDES))
    for r in crossing:
        assert not rotation_allowed(fresh, entity, hex_id, new.layout(r))
    for r in other:
        assert rotation_allowed(fresh, entity, hex_id, new.layout(r)) == \
            common_rules_allow(fresh, entity, hex_id, new.layout(r))
    phases.start_next_phase(fresh)
    assert fresh.phase.name == "3"
    assert any(common_rules_allow(fresh, entity, hex_id, new.layout(r)) for r in crossing)
    for r in crossing:
        assert rotation_allowed(fresh, entity, hex_id, new.layout(r)) == \
            common_rules_allow(fresh, entity, hex_id, new.layout(r))
