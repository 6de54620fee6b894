"""The Old Prince 1871's data (tracklayer/titles/old_prince/data.py) against the facts of the
reference implementation (18xx.games ``lib/engine/game/g_1871``), and against the real games
in ../shared/fixtures/1871 where they are present. The title has no rules module yet: these
checks read the data and resolve it without a title's Variant."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import fixture_files, load_json
from tracklayer.board.catalogue import standard_tiles
from tracklayer.board.notation import DrawingPart, LabelPart, SideEnd, read_tile
from tracklayer.board.tiles import TileDef
from tracklayer.rules.setup import new_table
from tracklayer.rules.variant import Variant
from tracklayer.spec.resolved import GameSpec
from tracklayer.spec.settings import Capitalization, Settings
from tracklayer.titles import TITLES
from tracklayer.titles.old_prince import data

NAME = "The Old Prince 1871"


def spec(players: int = 4) -> GameSpec:
    return GameSpec(NAME, data.title_data(players, ()), Settings(), players, (), (3, 4))


def every_printed_code():
    for color, group in data.HEXES.items():
        for coords, code in group.items():
            yield color, coords, code


# -- map ------------------------------------------------------------------------------------

def test_every_printed_hex_and_tile_parses():
    for _, coords, code in every_printed_code():
        read_tile(code)
    for name, entry in data.TILES.items():
        if isinstance(entry, tuple):
            read_tile(entry[2])


def test_the_map_resolves_for_both_player_counts():
    for players in (3, 4):
        resolved = spec(players)
        # map.rb HEXES: 6 red, 9 blue, 67 white, 21 gray, 5 yellow, 2 green = 110 hexes.
        assert len(resolved.hexes) == 110
        assert resolved.grid.layout == "flat"
    counts = Counter(color for color, coords, _ in every_printed_code() for _ in coords)
    assert counts == {"red": 6, "blue": 9, "white": 67, "gray": 21, "yellow": 5, "green": 2}


def test_printed_track_leads_onto_the_map():
    """Every side with printed track faces a hex of the map: the layout and axes are right."""
    resolved = spec()
    for hex_id, printed in resolved.hexes.items():
        for track in printed.tile.track_parts:
            for end in (track.a, track.b):
                if isinstance(end, SideEnd):
                    assert resolved.grid.neighbour(hex_id, end.side) is not None, \
                        f"{hex_id} has track off the map on side {end.side}"


def test_terrain_and_named_places():
    resolved = spec()
    costs = {h: [t.cost for t in p.tile.terrain_parts] for h, p in resolved.hexes.items()
             if p.tile.terrain_parts}
    # map.rb: mountains cost 80 (N16 J16 H16 P14), water 60 (10 hexes), 80 (D8), 120 (G13 F12).
    assert Counter(c for v in costs.values() for c in v) == {60: 10, 80: 5, 120: 2}
    assert costs["D8"] == [80] and costs["T12"] == [60]
    assert len(data.LOCATION_NAMES) == 55                     # map.rb LOCATION_NAMES
    assert set(data.LOCATION_NAMES) <= set(resolved.hexes)


def test_homes_are_cities_and_g11_holds_a_neutral_token():
    resolved = spec()
    for corporation in data.NUMBERED:
        assert resolved.hexes[corporation.home].tile.cities, corporation.sym
    # corporations.rb homes
    assert {c.sym: c.home for c in data.NUMBERED} == {
        "So": "T12", "A": "D6", "MS": "M13", "MR": "Q21", "S": "F14", "Gt": "R16", "C": "L16"}
    table = new_table(resolved, [(1, "a"), (2, "b"), (3, "c"), (4, "d")], 7, Variant())
    (city,) = table.state.hexes["G11"].cities
    assert [t.kind for t in city.slots] == ["neutral"]
    assert table.state.hexes["T12"].cities[0].reservations[0].sym == "So"


# -- tiles ----------------------------------------------------------------------------------

def test_tile_supply():
    resolved = spec()
    # tiles.rb: 131 standard tiles and 33 PEI tiles (PEI1-PEI16).
    assert len(resolved.supply) == 164
    own = {n: e for n, e in data.TILES.items() if isinstance(e, tuple)}
    assert sum(e[0] for e in own.values()) == 33 and len(own) == 16
    assert data.TILES["8"] == 25 and data.TILES["7"] == 12 and data.TILES["9"] == 1
    assert Counter(e[1] for e in own.values()) == {"green": 8, "brown": 6, "gray": 2}


def test_standard_tiles_are_in_the_catalogue():
    catalogue = standard_tiles()
    standard = [n for n, e in data.TILES.items() if not isinstance(e, tuple)]
    assert len(standard) == 42                                # tiles.rb
    assert [n for n in standard if n not in catalogue] == []


def test_labelled_cities_have_green_tiles_to_become():
    """The X and T cities printed (or marked for green) find green tiles of their label."""
    green = {TileDef(n, e[1], e[2]).label for n, e in data.TILES.items()
             if isinstance(e, tuple) and e[1] == "green"}
    wanted = set()
    for _, _, code in every_printed_code():
        for part in read_tile(code):
            if isinstance(part, LabelPart):
                wanted.add(part.text)
            if isinstance(part, DrawingPart) and part.what == "future_label" \
                    and part.args[1] == "green":
                wanted.add(part.args[0])
    assert wanted == {"X", "T"} and wanted <= green


# -- market, trains, phases -----------------------------------------------------------------

def test_market():
    resolved = spec()
    # market.rb: 7 rows, the top one from its third column up to 400 (pays_bonus).
    assert [len(r) for r in data.MARKET.rows] == [15, 13, 11, 7, 6, 5, 4]
    pars = [(c.price, c.kind) for c in resolved.starting_cells()]
    assert pars == [(80, "par"), (74, "par_1"), (65, "par_2"), (58, "par_3")]
    assert resolved.cell((0, 14)).price == 400 and resolved.cell((0, 14)).kind == "pays_bonus"
    assert resolved.cell(data.MAINLINE_PAR).price == 92       # game.rb set_par [1, 1]
    assert resolved.cell(data.SHORTLINE_PAR).price == 86      # game.rb set_par [2, 1]
    assert [resolved.cell(at).price for at in data.PAR_REMOVED_BY.values()] == [80, 74, 65]


def test_trains():
    # trains.rb: name, price, count, rusts on
    published = [("2H", 80, 4, "5H"), ("3H", 100, 3, "6H"), ("4H", 120, 3, "2+"),
                 ("5H", 160, 3, "3+"), ("6H", 180, 2, "4+"), ("2+", 220, 4, "7"),
                 ("3+", 240, 3, "D"), ("4+", 200, 2, "D"), ("7", 500, 4, None),
                 ("D", 600, 1, None)]
    assert [(t.name, t.price, t.count, t.rusts_on[0] if t.rusts_on else None)
            for t in data.TRAINS] == published
    assert [t.name for t in data.TRAINS if t.hex_distance] == ["2H", "3H", "4H", "5H", "6H"]
    assert [t.name for t in data.TRAINS if t.unlimited] == ["D"]
    plus = {t.name: t.distance for t in data.TRAINS if "+" in t.name}
    for name, rows in plus.items():
        assert rows[0].kinds == ("city", "offboard") and rows[0].pay == int(name[0])
        assert rows[1].kinds == ("town",) and rows[1].pay == 99
    events = {t.name: [e.kind for e in t.events] for t in data.TRAINS if t.events}
    assert events == {"5H": ["remove_smv_80"], "3+": ["remove_smv_74"],
                      "4+": ["close_companies"], "7": ["remove_smv_65"]}
    table = new_table(spec(3), [(1, "a"), (2, "b"), (3, "c")], 7, Variant())
    assert len(table.state.depot.upcoming) == 29


def test_phases():
    # phases.rb: name, train limit, operating rounds, newest tile colour
    published = [("2H", 4, 1, "yellow"), ("3H", 4, 1, "yellow"), ("4H", 4, 2, "green"),
                 ("5H", 4, 2, "green"), ("6H", 4, 2, "green"), ("2+", 3, 2, "green"),
                 ("3+", 3, 2, "green"), ("4+", 3, 3, "brown"), ("7", 2, 3, "brown"),
                 ("D", 2, 3, "gray")]
    assert [(p.name, p.train_limit, p.operating_rounds, p.tiles[-1])
            for p in data.PHASES] == published
    assert [p.name for p in data.PHASES if "can_buy_companies" in p.status] == \
        ["4H", "5H", "6H", "2+", "3+"]
    assert all(p.on == (p.name,) for p in data.PHASES[1:]) and data.PHASES[0].on == ()


# -- corporations, companies, the rest ------------------------------------------------------

def test_corporations():
    # corporations.rb: 7 numbered, the PEIR, 6 branches
    assert len(data.CORPORATIONS) == 14
    assert [c.sym for c in data.CORPORATIONS] == [
        "So", "A", "MS", "MR", "S", "Gt", "C", "PEIR", "CB", "SB", "MB", "BB", "WB", "HRB"]
    for c in data.NUMBERED + data.BRANCHES:
        assert c.tokens == (0, 80, 80, 80) and c.float_percent == 60
        assert c.float_excludes_market and c.float_includes_reserved and c.market_price_as_par
        assert sum(c.shares) == 100 and c.shares[0] == 20
    assert all(c.capitalization == "none" and c.home is None for c in data.BRANCHES)
    assert all(Capitalization(c.capitalization) is Capitalization.NONE for c in data.BRANCHES)
    peir = data.PEIR
    assert peir.shares == (20,) * 5 and peir.tokens == (0,) * 5
    assert peir.float_percent == 0 and peir.max_ownership == 100 and peir.home is None
    assert data.NUMBERS == {"So": 1, "A": 2, "MS": 3, "MR": 4, "S": 5, "Gt": 6, "C": 7}
    assert data.TRANCHES == (2, 1, 2, 3) and sum(data.TRANCHES) == 8


def test_companies():
    # companies.rb: sym, value, revenue
    published = [("MC", 40, 5), ("VR", 40, 5), ("IB", 40, 5), ("RA", 110, 10),
                 ("RF", 120, 15), ("SB", 90, 15), ("HSE", 110, 20), ("ML", 160, 20),
                 ("SBC", 100, 30), ("SL", 160, 30), ("UB", 120, 0), ("KM", 0, 80)]
    assert [(c.sym, c.value, c.revenue) for c in data.COMPANIES] == published
    cards = [f"P{n}" for n in range(1, 8)]     # all seven; the game drops the drawn two
    assert [c.sym for c in spec(3).companies] == \
        [s for s, _, _ in published if s != "IB"] + cards
    assert [c.sym for c in spec(4).companies] == [s for s, _, _ in published] + cards
    shares = {c.sym: p.certificate for c in data.COMPANIES for p in c.powers
              if p.kind == "shares"}
    assert shares == {"RA": "mainline_1", "RF": "mainline_2", "ML": "mainline_0",
                      "SL": "shortline_0"}
    exchangers = [c.sym for c in data.COMPANIES for p in c.powers
                  if p.kind == "exchange" and p.corporations == ("shortline",)]
    assert tuple(exchangers) == data.SHORTLINE_EXCHANGERS
    hunslet = next(c for c in data.COMPANIES if c.sym == "HSE")
    assert (hunslet.min_price, hunslet.max_price) == (1, 200)
    never = [c.sym for c in data.COMPANIES + data.PEIR_CARDS for p in c.powers
             if p.kind == "close" and p.on_phase == "never"]
    assert never == ["UB", "P1", "P2", "P3", "P4", "P5", "P6", "P7"]
    # game.rb setup_preround: one PEIR card per numbered corporation, worth 80
    assert [(c.sym, c.value) for c in data.PEIR_CARDS] == [(f"P{n}", 80) for n in range(1, 8)]


def test_cash_limits_and_bank():
    # game.rb: unlimited bank, certificate limit and starting cash by players
    for players, cash, limit in ((3, 580, 20), (4, 480, 16)):
        d = data.title_data(players, ())
        assert (d.bank_cash, d.starting_cash, d.cert_limit) == (None, cash, limit)
    assert data.PEIR_STARTING_CASH == 200 and data.MARKET_LIMIT == 80
    assert data.TURN_SALE_LIMIT == 30 and data.SECOND_LAY_COST == 20


def test_registered():
    """With its rules module, the title is offered."""
    assert NAME in TITLES


# -- the real games -------------------------------------------------------------------------

@pytest.mark.parametrize("path", fixture_files("1871"))
def test_real_games_name_only_what_the_data_has(path):
    game = load_json(path)
    assert game["title"] == NAME
    resolved = spec(len(game["players"]))
    supply = Counter(tile_id.rsplit("-", 1)[0] for tile_id in resolved.supply)
    trains = {t.name: t for t in data.TRAINS}
    corporations = {c.sym for c in data.CORPORATIONS}
    companies = {c.sym for c in data.COMPANIES + data.PEIR_CARDS}
    for a in game["actions"]:
        if a.get("entity_type") == "corporation":
            assert a["entity"] in corporations
        if a.get("entity_type") == "company" or "company" in a:
            assert a.get("company", a["entity"]) in companies
        if a["type"] == "lay_tile":
            name, index = a["tile"].rsplit("-", 1)
            assert a["hex"] in resolved.hexes and int(index) < supply[name], a
        if a["type"] == "buy_train" and "-" in a["train"]:
            name, index = a["train"].rsplit("-", 1)
            assert name in trains and (trains[name].unlimited or int(index) < trains[name].count)
        if a["type"] == "par":
            cell = resolved.cell_by_id(a["share_price"])
            assert cell is not None and cell.kind in ("par", "par_1", "par_2", "par_3"), a
        if a["type"] == "place_token":
            # a city is named by its tile's id: a printed tile's, or one from the supply
            tile, index, _ = a["city"].rsplit("-", 2)
            assert tile in resolved.hexes or int(index) < supply[tile], a
        for route in a.get("routes") or ():
            for chain in route["connections"]:
                for here, there in zip(chain, chain[1:]):
                    assert resolved.grid.side_towards(here, there) is not None, (here, there)
