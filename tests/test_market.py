"""The stock market (``tracklayer/engine/market.py``): reading cells, par prices, and how a
share price moves on a two-dimensional grid or a single row."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tracklayer.engine.market import CELL_TYPES, PAR_TYPES, StockMarket
from tracklayer.titles.g1893 import data as g1893_data

# Row lengths differ and some cells are missing ("" or beyond a row's end):
#
#            col 0   1     2      3      4
GRID = [
    ["",   "",   "100", "110", "120e"],     # row 0
    ["",   "80", "90",  "100p", "110"],     # row 1
    ["70", "75", "80p", "90"],              # row 2
    ["65", "70"],                           # row 3
]


def corp(market, row, col):
    """A stand-in corporation whose share price is the cell at (row, col)."""
    c = SimpleNamespace(share_price=None, par_price=None, original_par_price=None)
    market.set_par(c, market.share_price((row, col)))
    return c


def at(c) -> tuple:
    return c.share_price.coordinates


@pytest.fixture
def market():
    return StockMarket(GRID)


# ---------------------------------------------------------------------------------------------
# Reading the market


def test_cells_prices_ids_and_missing_cells(market):
    """A cell has a price, coordinates, types and the id ``price,row,column``; empty codes
    and places off the grid are no cell."""
    assert market.share_price((0, 0)) is None          # empty code
    assert market.share_price((2, 4)) is None          # past the end of the row
    assert market.share_price((4, 0)) is None          # below the last row
    assert market.share_price((-1, 2)) is None
    cell = market.share_price((1, 3))
    assert cell.price == 100
    assert cell.coordinates == (1, 3)
    assert cell.id == "100,1,3"
    assert cell.types == ["par"] and cell.type == "par" and cell.can_par()
    plain = market.share_price((1, 4))
    assert plain.types == [] and plain.type is None and not plain.can_par()


@pytest.mark.parametrize("letter, type_", sorted(CELL_TYPES.items()))
def test_every_cell_letter(letter, type_):
    """Each letter after a price gives the cell its type; only the par letters allow parring."""
    m = StockMarket([["50", f"60{letter}"]])
    cell = m.share_price((0, 1))
    assert cell.price == 60
    assert cell.types == [type_]
    assert cell.can_par() is (type_ in PAR_TYPES)


def test_several_letters_and_the_flags_they_set():
    """Several letters give several types (the first is the cell's type); types decide the
    certificate limit, multiple buys, the close cell."""
    m = StockMarket([["40y", "50b", "60o", "70pe", "0c", "80"]])
    no_limit, multiple, unlimited, par_end, close, plain = m.market[0]
    assert not no_limit.counts_for_limit and not unlimited.counts_for_limit
    assert not multiple.counts_for_limit and multiple.buy_multiple
    assert plain.counts_for_limit and not plain.buy_multiple
    assert par_end.types == ["par", "endgame"] and par_end.type == "par"
    assert par_end.can_par() and not par_end.end_game_trigger()
    assert m.has_close_cell and close.type == "close"
    assert not StockMarket(GRID).has_close_cell


def test_par_prices_sorted_descending(market):
    """Par prices are listed from the highest down."""
    assert [p.id for p in market.par_prices] == ["100,1,3", "80,2,2"]


def test_equal_par_prices_are_ordered_by_column_then_row_descending():
    """1893 has two 120 par cells (2,6) and (1,5): the one further right comes first."""
    m = StockMarket(g1893_data.MARKET)
    assert [p.id for p in m.par_prices] == [
        "120,2,6", "120,1,5", "100,1,3", "90,2,3", "80,3,3", "70,4,2", "60,5,1"]
    assert [p.types for p in m.par_prices[:2]] == [["par_2"], ["par_1"]]


def test_price_by_id(market):
    """A share price is named ``price,row,column`` in the action format."""
    assert market.price_by_id("100,1,3") is market.share_price((1, 3))
    m = StockMarket(g1893_data.MARKET)
    assert m.price_by_id("60,5,1").price == 60
    assert m.price_by_id("120,1,5") is not m.price_by_id("120,2,6")


@pytest.mark.parametrize("bad", ["", "100", "1,2", "x,1,3", "100,1,x", "100,9,9", "100,0,0",
                                 "100,-1,3"])
def test_price_by_id_unknown(market, bad):
    """Ids that are malformed or name no cell give None."""
    assert market.price_by_id(bad) is None


def test_price_by_id_checks_the_price(market):
    """The price in the id must be that of the cell: "90,1,3" names no cell (1,3) is 100)."""
    assert market.price_by_id("90,1,3") is None
    assert market.price_by_id("999,1,3") is None


def test_set_par(market):
    """Parring puts the corporation on the cell and records its par price."""
    c = corp(market, 1, 3)
    cell = market.share_price((1, 3))
    assert c.share_price is cell and c.par_price is cell and c.original_par_price is cell
    assert cell.corporations == [c]


# ---------------------------------------------------------------------------------------------
# Moving on a two-dimensional market


@pytest.mark.parametrize("start, move, end", [
    ((1, 3), "right", (1, 4)),
    ((1, 4), "right", (0, 4)),    # right at the end of a row goes up
    ((2, 3), "right", (1, 3)),
    ((0, 4), "right", (0, 4)),    # … and at the end of the top row stays
    ((1, 3), "left", (1, 2)),
    ((2, 0), "left", (3, 0)),     # left at column 0 goes down
    ((1, 1), "left", (2, 1)),     # left into a missing cell goes down
    ((3, 0), "left", (3, 0)),     # … and at the bottom-left corner stays
    ((1, 3), "up", (0, 3)),
    ((0, 3), "up", (0, 3)),       # up from the top row stays
    ((1, 1), "up", (1, 1)),       # up into a missing cell does not move
    ((1, 3), "down", (2, 3)),
    ((3, 1), "down", (3, 1)),     # down off the bottom stays
    ((2, 3), "down", (2, 3)),     # down into a missing cell does not move
    ((1, 4), "down", (1, 4)),
])
def test_two_dimensional_moves(market, start, move, end):
    """Moves on a grid, at its edges and next to missing cells."""
    c = corp(market, *start)
    getattr(market, f"move_{move}")(c)
    assert at(c) == end


def test_a_move_changes_which_corporations_a_cell_holds(market):
    """A cell lists the corporations on it; a move takes one from the old cell to the new."""
    a, b = corp(market, 1, 3), corp(market, 1, 3)
    market.move_right(a)
    assert market.share_price((1, 3)).corporations == [b]
    assert market.share_price((1, 4)).corporations == [a]


def test_reaching_an_endgame_cell_sets_max_reached(market):
    """Only entering an ``e`` cell sets max_reached (the stock market game end)."""
    c = corp(market, 1, 4)
    market.move_left(c)
    assert not market.max_reached
    market.move_right(c)
    assert not market.max_reached
    market.move_right(c)                          # end of row 1: up to 120e
    assert at(c) == (0, 4)
    assert market.max_reached


def test_liquidation_cell_is_entered_only_by_force():
    """Normal moves do not enter a liquidation cell; a forced move does."""
    m = StockMarket([["0l", "10", "20p"], ["0l", "5", "10"]])
    c = corp(m, 0, 1)
    m.move_left(c)
    assert at(c) == (0, 1)
    m.move(c, (0, 0), force=True)
    assert at(c) == (0, 0)


def test_find_relative_share_price(market):
    """Where a series of moves would end, without moving; a move that goes nowhere keeps the
    last cell found."""
    start = market.share_price((1, 3))
    assert market.find_relative_share_price(start, ["right", "right"]).coordinates == (0, 4)
    assert market.find_relative_share_price(start, ["down", "left"]).coordinates == (2, 2)
    assert market.find_relative_share_price(start, ["down", "down"]).coordinates == (2, 3)


# ---------------------------------------------------------------------------------------------
# One-dimensional markets


@pytest.fixture
def row():
    return StockMarket([["0c", "10", "20", "30p", "40", "50e"]])


@pytest.mark.parametrize("start, move, end", [
    (3, "right", 4), (5, "right", 5),   # at the end of the row a price stays
    (3, "left", 2), (0, "left", 0),
    (3, "up", 4), (5, "up", 5),         # up is right
    (3, "down", 2), (0, "down", 0),     # down is left
])
def test_one_dimensional_moves(row, start, move, end):
    """A single-row market moves along the row: up is right, down is left, and the ends stop."""
    assert row.one_d and row.movement == "one_d"
    c = corp(row, 0, start)
    getattr(row, f"move_{move}")(c)
    assert at(c) == (0, end)


def test_one_dimensional_endgame(row):
    """Reaching the ``e`` cell of a single row sets max_reached."""
    c = corp(row, 0, 4)
    row.move_up(c)
    assert row.max_reached


def test_grid_is_not_one_dimensional(market):
    """More than one row makes a two-dimensional market."""
    assert not market.one_d and market.movement == "two_d"
