"""Which tile may replace which: ``Game.upgrades_to`` and 1893's own rules.

An upgrade goes to the next colour, keeps all existing track (for some rotation of the new
tile), keeps the label, and keeps the number of cities and towns. 1893 adds Leverkusen (its
two yellow towns become one green city), the blocked hexes N5/P5, and the Rhine.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tracklayer.engine.errors import GameError
from tracklayer.engine.game import Game
from tracklayer.map.tiles import ALL_EDGES, Tile
from tracklayer.titles.g1893.game import G1893

CATALOGUE = json.loads((Path(__file__).resolve().parent.parent / "tracklayer" / "map" / "data" /
                        "tiles.json").read_text(encoding="utf-8"))

PLAIN_GREEN_1893 = ["16", "19", "20", "23", "24", "25", "26", "27", "28", "29"]


@pytest.fixture(scope="module")
def game():
    return G1893([(1, "A"), (2, "B"), (3, "C")], seed=1)


def tile(name: str, index: int = 0) -> Tile:
    color, code = CATALOGUE[name]
    return Tile(name, color, code, index=index)


def title_tile(game, tile_id: str) -> Tile:
    """A tile of the game's supply (1893's own tiles such as K1 are not in the catalogue)."""
    found = [t for t in game.tiles if t.id == tile_id]
    assert len(found) == 1, tile_id
    return found[0]


def white(game, hex_id: str) -> Tile:
    """The preprinted tile of a hex of the 1893 map."""
    return game.hex_by_id(hex_id).tile


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
    found = {new for new in PLAIN_GREEN_1893 if game.upgrades_to(tile(old), tile(new))}
    assert found == allowed


@pytest.mark.parametrize("rotation", ALL_EDGES)
def test_upgrade_does_not_depend_on_how_the_old_tile_is_turned(game, rotation):
    """Existing track may be kept by any rotation of the new tile, so the old tile's own
    rotation does not matter."""
    old = tile("7").rotate(rotation)
    assert game.upgrades_to(old, tile("26"))
    assert not game.upgrades_to(old, tile("19"))


@pytest.mark.parametrize("new", ["7", "8", "9"])
def test_blank_hex_takes_plain_yellow_track(game, new):
    """An empty white hex takes any plain yellow track tile."""
    assert game.upgrades_to(white(game, "J7"), tile(new))


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
    old_tile = white(game, "J7") if old == "blank" else tile(old)
    assert not game.upgrades_to(old_tile, tile(new))


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
    assert game.upgrades_to(white(game, "I8"), tile(new)) is ok


@pytest.mark.parametrize("new, ok", [
    ("3", True), ("4", True), ("58", True),
    ("57", False), ("5", False),                # a town is not a city
    ("7", False), ("9", False),                 # the town cannot disappear
])
def test_white_town(game, new, ok):
    """A white town hex (B7) takes yellow town tiles only."""
    assert game.upgrades_to(white(game, "B7"), tile(new)) is ok


@pytest.mark.parametrize("old, new, ok", [
    ("57", "14", True), ("57", "15", True), ("57", "619", True),
    ("5", "14", True), ("5", "15", True), ("5", "619", True),
    ("6", "14", True), ("6", "15", True), ("6", "619", True),
    ("57", "19", False),                        # green track without the city
    ("57", "57", False),
])
def test_yellow_city_to_green_city(game, old, new, ok):
    """A yellow city upgrades to a green city whose exits include the old ones."""
    assert game.upgrades_to(tile(old), tile(new)) is ok


@pytest.mark.parametrize("old, new, ok", [
    ("3", "141", True), ("3", "142", True), ("3", "143", True), ("3", "144", False),
    ("4", "141", True), ("4", "142", True), ("4", "143", False), ("4", "144", False),
    ("58", "141", True), ("58", "142", True), ("58", "143", True), ("58", "144", True),
])
def test_yellow_town_to_green_town(game, old, new, ok):
    """All of a town's exits must be kept: a straight through the town needs opposite exits,
    a sharp curve neighbouring ones."""
    assert game.upgrades_to(tile(old), tile(new)) is ok


def test_number_of_cities_must_match(game):
    """Two cities (OO) upgrade to two cities; a single city does not become two."""
    oo = Tile("OO", "white", "city 0 ; city 0 ; label OO")
    assert game.upgrades_to(oo, tile("235"))
    assert not game.upgrades_to(oo, tile("57"))
    assert game.upgrades_to(tile("235"), tile("59"))
    assert not game.upgrades_to(Tile("c", "white", "city 0 ; label OO"), tile("235"))


def test_a_labelled_city_keeps_a_city(game):
    """A labelled city hex cannot become a tile without a city, even with the same label."""
    old = Tile("k", "white", "city 0 ; label K")
    assert not game.upgrades_to(old, Tile("n", "yellow", "path 0 3 ; label K"))
    assert game.upgrades_to(old, Tile("n", "yellow", "city 30 ; path 0 N0 ; label K"))


# ---------------------------------------------------------------------------------------------
# Labels


@pytest.mark.parametrize("new, ok", [
    ("K5-0", True), ("K6-0", True), ("K57-0", True),
])
def test_bx_city_takes_only_bx_tiles(game, new, ok):
    """Benrath (D5) is labelled BX: only BX tiles, not the plain 5/6/57."""
    assert game.upgrades_to(white(game, "D5"), title_tile(game, new)) is ok
    plain = tile(new.split("-")[0][1:])
    assert not game.upgrades_to(white(game, "D5"), plain)


def test_tile_ids_in_actions_name_tiles_of_the_supply(game):
    """``K6-0`` in a lay_tile action is 1893's yellow BX tile K6, not the preprinted tile of
    the hex called K6 (whose tile also has the id ``K6-0``)."""
    assert game.hex_by_id("K6").tile.id == "K6-0"
    found = game.lookup("tile", "K6-0")
    assert found is title_tile(game, "K6-0")
    assert found.color == "yellow" and found.label.text == "BX"


def test_bx_yellow_to_bx_green(game):
    """BX tiles upgrade to BX tiles; unlabelled and BX tiles do not mix."""
    assert game.upgrades_to(title_tile(game, "K57-0"), title_tile(game, "K14-0"))
    assert game.upgrades_to(title_tile(game, "K57-0"), title_tile(game, "K15-0"))
    assert not game.upgrades_to(title_tile(game, "K57-0"), tile("14"))
    assert not game.upgrades_to(tile("57"), title_tile(game, "K14-0"))


def test_koeln_label(game):
    """Köln (L5, label K) takes K201, which takes K269; plain city tiles are refused."""
    assert game.upgrades_to(white(game, "L5"), title_tile(game, "K201-0"))
    assert not game.upgrades_to(white(game, "L5"), tile("57"))
    assert not game.upgrades_to(white(game, "L5"), title_tile(game, "K57-0"))
    assert game.upgrades_to(title_tile(game, "K201-0"), title_tile(game, "K269-0"))
    assert not game.upgrades_to(title_tile(game, "K201-0"), tile("14"))


def test_special_lay_skips_label_and_city_checks(game):
    """A lay by a private company's ability checks only colour and kept track."""
    assert not game.upgrades_to(white(game, "I8"), tile("7"))
    assert game.upgrades_to(white(game, "I8"), tile("7"), special=True)
    assert not game.upgrades_to(tile("57"), tile("8"), special=True)


# ---------------------------------------------------------------------------------------------
# 1893: Leverkusen, the blocked hexes, the Rhine


@pytest.fixture
def fresh():
    return G1893([(1, "A"), (2, "B"), (3, "C")], seed=1)


def test_leverkusen_white_takes_the_two_town_l_tiles(fresh):
    """Leverkusen (G6, two towns, label L) takes K1/K55, not the unlabelled 1 nor a one-town
    tile."""
    g6 = fresh.hex_by_id("G6").tile
    assert fresh.upgrades_to(g6, title_tile(fresh, "K1-0"))
    assert fresh.upgrades_to(g6, title_tile(fresh, "K55-0"))
    assert not fresh.upgrades_to(g6, tile("1"))          # same track, but no label L
    assert not fresh.upgrades_to(g6, tile("4"))          # one town


@pytest.mark.parametrize("yellow", ["K1-0", "K55-0"])
def test_leverkusen_yellow_becomes_the_green_city(fresh, yellow):
    """Laid on Leverkusen (G6), K1/K55 (two towns) upgrade to K314 (one city) and nothing
    else, although the general rules would refuse a change from towns to a city."""
    hex_ = fresh.hex_by_id("G6")
    old = title_tile(fresh, yellow)
    hex_.lay(old)
    assert fresh.upgrades_to(old, title_tile(fresh, "K314-0"))
    assert not Game.upgrades_to(fresh, old, title_tile(fresh, "K314-0"))
    for other in ("14", "15", "619"):
        assert not fresh.upgrades_to(old, tile(other))


def test_l_tiles_elsewhere_follow_the_general_rules(fresh):
    """Off Leverkusen, K1 (two towns) does not upgrade to K314 (a city)."""
    assert not fresh.upgrades_to(title_tile(fresh, "K1-0"), title_tile(fresh, "K314-0"))


@pytest.mark.parametrize("hex_id", ["N5", "P5"])
def test_blocked_hexes_until_the_green_phase(fresh, hex_id):
    """N5 and P5 cannot be built on until the first 3-train removes their block."""
    old = fresh.hex_by_id(hex_id).tile
    new = tile("9") if hex_id == "N5" else tile("4")
    with pytest.raises(GameError, match=hex_id):
        fresh.upgrades_to(old, new)
    fresh.event_remove_tile_block()
    assert fresh.upgrades_to(old, new)


def test_n5_track_must_meet_its_stub(fresh):
    """N5 has a stub of track on edge 4: a new tile must have an exit there."""
    fresh.event_remove_tile_block()
    hex_ = fresh.hex_by_id("N5")
    entity = fresh.minor_by_id("KBE")
    assert fresh.legal_tile_rotation(entity, hex_, tile("9").rotate(1))       # edges 1, 4
    assert not fresh.legal_tile_rotation(entity, hex_, tile("9").rotate(0))   # edges 0, 3


@pytest.mark.parametrize("hex_id, tile_id", [("L5", "K201-0"), ("S6", "K5-0")])
def test_rhine_crossings_closed_in_phase_2(fresh, hex_id, tile_id):
    """In phase 2 no track may cross the water border of Köln (L5) or Bonn (S6) (edge 4);
    from phase 3 it may."""
    hex_ = fresh.hex_by_id(hex_id)
    water = [b.edge for b in hex_.tile.borders if b.type == "water"]
    assert water == [4]
    entity = fresh.minor_by_id("KFBE")
    new = title_tile(fresh, tile_id)
    crossing = [r for r in ALL_EDGES if 4 in new.rotate(r).exits]
    other = [r for r in ALL_EDGES if 4 not in new.rotate(r).exits]
    assert crossing and other
    assert fresh.phase.name == "2"
    for r in crossing:
        assert not fresh.legal_tile_rotation(entity, hex_, new.rotate(r))
    for r in other:
        assert fresh.legal_tile_rotation(entity, hex_, new.rotate(r))
    fresh.phase.next()
    assert fresh.phase.name == "3"
    for r in crossing:
        assert fresh.legal_tile_rotation(entity, hex_, new.rotate(r))
