"""1817NA's data (tracklayer/titles/north_america/data.py) against the facts of the reference
implementation (18xx.games ``lib/engine/game/g_1817_na`` and the ``g_1817`` it builds on),
and against the real games in ../shared/fixtures/1817NA where they are present."""

from __future__ import annotations

from collections import Counter

import pytest

from conftest import fixture_files, load_json
from tracklayer.board.catalogue import standard_tiles
from tracklayer.board.notation import SideEnd, read_tile
from tracklayer.spec.data import LoanSpec, PhaseSpec, TitleData
from tracklayer.spec.resolved import GameSpec
from tracklayer.spec.settings import Settings
from tracklayer.titles.north_america import data

NAME = "1817NA"


def spec(players: int = 4) -> GameSpec:
    return GameSpec(NAME, data.title_data(players, ()), Settings(), players, (), (2, 6))


def every_printed_code():
    for color, group in data.HEXES.items():
        for coords, code in group.items():
            yield color, coords, code


# -- map ------------------------------------------------------------------------------------

def test_every_printed_hex_and_tile_parses():
    for _, _, code in every_printed_code():
        read_tile(code)
    for entry in data.TILES.values():
        if isinstance(entry, tuple):
            read_tile(entry[2])


def test_the_map():
    resolved = spec()
    # map.rb HEXES: 60 white (12 mountains, 25 plain, 11 cities …), 6 gray, 5 red, 3 yellow
    # and 7 blue (sea) = 81 hexes
    counts = Counter(color for color, coords, _ in every_printed_code() for _ in coords)
    assert counts == {"white": 60, "gray": 6, "red": 5, "yellow": 3, "blue": 7}
    assert len(resolved.hexes) == 81 and resolved.grid.layout == "pointy"
    assert set(data.LOCATION_NAMES) <= set(resolved.hexes) and len(data.LOCATION_NAMES) == 22


def test_printed_track_leads_onto_the_map():
    resolved = spec()
    for hex_id, printed in resolved.hexes.items():
        for track in printed.tile.track_parts:
            for end in (track.a, track.b):
                if isinstance(end, SideEnd):
                    assert resolved.grid.neighbour(hex_id, end.side) is not None, (hex_id, end)


def test_printed_tile_ids_follow_the_reference_order():
    """The cities the real games name (``H10-6-0``, ``F14-4-0`` …) are the printed tiles'
    ids: the hex's place in its map.rb group."""
    resolved = spec()
    ids = {h: resolved.hexes[h].tile_id for h in ("H10", "F14", "D16", "F20", "I13", "F22")}
    assert ids == {"H10": "H10-6", "F14": "F14-4", "D16": "D16-1", "F20": "F20-5",
                   "I13": "I13-7", "F22": "F22-0"}
    assert len(resolved.hexes["F22"].tile.cities) == 2


def test_terrain():
    resolved = spec()
    costs = Counter((t.cost, t.terrains) for p in resolved.hexes.values()
                    for t in p.tile.terrain_parts)
    # map.rb: 13 mountains at 15 (with A7), lakes at 20 (D8 E25 J20 I19, F22 and I15),
    # water at 10 (D14 E15 F16 G17, H18 and D16)
    assert costs == {(15, ("mountain",)): 13, (20, ("lake",)): 6, (10, ("water",)): 6}
    assert len(data.MOUNTAINS) == 12


# -- tiles, market, trains, phases ----------------------------------------------------------

def test_tiles():
    standard = [n for n, e in data.TILES.items() if not isinstance(e, tuple)]
    assert len(standard) == 24 and all(n in standard_tiles() for n in standard)
    assert all(e == "unlimited" for e in data.TILES.values() if not isinstance(e, tuple))
    resolved = spec()
    assert resolved.unlimited_tiles == set(data.TILES)            # NA: X00 too (1817: one)
    assert resolved.tile_def("X30").color == "gray" and resolved.tile_def("X00").label == "B"


def test_market():
    resolved = spec()
    row = data.MARKET.rows[0]
    assert len(data.MARKET.rows) == 1 and len(row) == 32
    assert [resolved.cell((0, c)).kind for c in range(4)] == \
        ["liquidation", "acquisition", "acquisition", "acquisition"]
    assert [c.price for c in resolved.cells.values() if c.kind == "safe_par"] == [55, 70, 120]
    pars = sorted(c.price for c in resolved.starting_cells())
    assert pars == [50, 60, 65, 80, 90, 100, 110, 135, 150, 165, 180, 200]
    assert resolved.cell((0, 31)).price == 600


def test_trains():
    # game.rb TRAINS (1817NA): name, distance, price, count, rusts / obsolete on
    published = [("2", 100, 31, ("4",), ()), ("2+", 100, 3, (), ("4",)),
                 ("3", 250, 8, ("6",), ()), ("4", 400, 6, ("8",), ()), ("5", 600, 4, (), ()),
                 ("6", 750, 3, (), ()), ("7", 900, 2, (), ()), ("8", 1100, 1, (), ())]
    assert [(t.name, t.price, t.count, t.rusts_on, t.obsolete_on) for t in data.TRAINS] == \
        published
    assert [t.distance for t in data.TRAINS] == [2, 2, 3, 4, 5, 6, 7, 8]
    assert [t.name for t in data.TRAINS if t.unlimited] == ["8"]
    assert [e.kind for e in data.TRAINS[-1].events] == ["signal_end_game"]


def test_phases():
    published = [("2", 4, ("yellow",), (2,)), ("2+", 4, ("yellow",), (2,)),
                 ("3", 4, ("yellow", "green"), (2, 5)), ("4", 3, ("yellow", "green"), (5,)),
                 ("5", 3, ("yellow", "green", "brown"), (5, 10)),
                 ("6", 2, ("yellow", "green", "brown"), (10,)),
                 ("7", 2, ("yellow", "green", "brown", "gray"), (10,)),
                 ("8", 2, ("yellow", "green", "brown", "gray"), (10,))]
    assert [(p.name, p.train_limit, p.tiles, p.corporation_sizes) for p in data.PHASES] == \
        published
    assert all(p.operating_rounds == 2 for p in data.PHASES)
    assert [p.name for p in data.PHASES if "no_new_shorts" in p.status] == ["8"]


def test_a_corporation_size_must_divide_the_shares():
    with pytest.raises(ValueError, match="sizes"):
        TitleData(map=data.MapSpec({}), tiles=data.TileSupply({}), market=data.MARKET,
                  phases=(PhaseSpec("2", corporation_sizes=(3,)),), trains=(),
                  corporations=(), bank_cash=None, starting_cash=1, cert_limit=1)


# -- loans ----------------------------------------------------------------------------------

def test_the_bank_of_new_york():
    loans = data.LOANS
    assert loans.count == 56 and loans.value == 100                # seed: 56 loans of $100
    # the rate rises once more than each four loans are out (game.rb future_interest_rate)
    assert [loans.rate_for(n) for n in (0, 1, 4, 5, 8, 9, 52, 53, 56)] == \
        [5, 5, 5, 10, 10, 15, 65, 70, 70]
    assert loans.interest(15, 3) == 45
    assert LoanSpec().count == 70                                  # 1817: five at each rate


@pytest.mark.parametrize("bad", [dict(value=0), dict(rate_step=4), dict(min_rate=80),
                                 dict(per_step=True)])
def test_bad_loans_are_refused(bad):
    with pytest.raises(ValueError):
        LoanSpec(**bad)


# -- corporations, companies, the rest ------------------------------------------------------

def test_corporations():
    assert [c.sym for c in data.CORPORATIONS] == [
        "DL&W", "J", "GT", "H", "ME", "NYOW", "NYSW", "PSNR", "PLE", "PW", "R", "SR", "UR",
        "WT", "WC"]
    for c in data.CORPORATIONS:
        assert c.shares == (100,) and c.tokens == (0,) and c.home is None
        assert c.float_percent == 20 and c.max_ownership == 100 and c.market_price_as_par


def test_companies():
    published = [("DTC", 40), ("ME", 40), ("UBC", 80), ("TS", 80), ("MINC", 30),
                 ("MAJC", 90), ("MINM", 60), ("MAJM", 120)]
    assert [(c.sym, c.value) for c in data.COMPANIES] == published
    assert all(c.revenue == 0 for c in data.COMPANIES)
    mail = {c.sym: p.discount for c in data.COMPANIES for p in c.powers if p.kind == "mail"}
    assert mail == {"MINM": 10, "MAJM": 20}
    mines = {c.sym: p.count for c in data.COMPANIES for p in c.powers if p.kind == "tile_lay"
             and p.hexes == data.MOUNTAINS}
    assert mines == {"MINC": 1, "MAJC": 3}
    bridges = [p for c in data.COMPANIES for p in c.powers if p.kind == "assign_hexes"]
    assert [(p.count, p.hexes) for p in bridges] == [(2, ("D16", "H18"))]


def test_cash_limits_and_bank():
    for players, cash, limit in ((2, 420, 21), (3, 315, 16), (4, 252, 13), (5, 210, 11),
                                 (6, 180, 9)):
        d = data.title_data(players, ())
        assert (d.bank_cash, d.starting_cash, d.cert_limit) == (None, cash, limit)
        assert d.seed_money == 150 and d.loans is data.LOANS


# -- the real games -------------------------------------------------------------------------

@pytest.mark.parametrize("path", fixture_files("1817NA"))
def test_real_games_name_only_what_the_data_has(path):
    game = load_json(path)
    assert game["title"] == NAME
    resolved = spec(len(game["players"]))
    trains = {t.name: t for t in data.TRAINS}
    corporations = {c.sym for c in data.CORPORATIONS}
    companies = {c.sym for c in data.COMPANIES}
    for a in game["actions"]:
        if a.get("entity_type") == "corporation":
            assert a["entity"] in corporations
        if a.get("entity_type") == "company" or "company" in a:
            assert a.get("company", a["entity"]) in companies, a
        if a["type"] == "lay_tile":
            name, _ = a["tile"].rsplit("-", 1)
            assert a["hex"] in resolved.hexes and name in data.TILES, a
        if a["type"] == "buy_train" and "-" in a["train"]:
            name, index = a["train"].rsplit("-", 1)
            assert name in trains and (trains[name].unlimited or int(index) < trains[name].count)
        if a["type"] == "place_token":
            tile, _, _ = a["city"].rsplit("-", 2)
            assert tile in resolved.hexes or tile.split("-")[0] in data.TILES, a
        for route in a.get("routes") or ():
            for chain in route["connections"]:
                for here, there in zip(chain, chain[1:]):
                    assert resolved.grid.side_towards(here, there) is not None, (here, there)
