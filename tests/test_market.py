"""The stock market (``tracklayer/rules/market.py``, cells from ``tracklayer/spec/resolved.py``):
reading cells, par prices, and how a share price moves on a two-dimensional grid or a single
row."""

from __future__ import annotations

import dataclasses

import pytest

from tracklayer.rules import market as mk
from tracklayer.rules import setup
from tracklayer.rules.market import Direction
from tracklayer.spec.data import MarketSpec
from tracklayer.spec.resolved import CELL_KINDS, PAR_KINDS, GameSpec
from tracklayer.titles import title

# Row lengths differ and some cells are missing ("" or beyond a row's end):
#
#            col 0   1     2      3      4
GRID = [
    ["",   "",   "100", "110", "120e"],     # row 0
    ["",   "80", "90",  "100p", "110"],     # row 1
    ["70", "75", "80p", "90"],              # row 2
    ["65", "70"],                           # row 3
]

PLAYERS = [(1, "A"), (2, "B"), (3, "C")]


def table_with_market(rows):
    """A fresh 1893 table whose stock market is ``rows`` (no other market rules)."""
    base = title("1893")
    data = dataclasses.replace(base.data(len(PLAYERS), ()),
                               market=MarketSpec(tuple(tuple(r) for r in rows)))
    spec = GameSpec(base.name, data, base.settings, len(PLAYERS), (), base.player_range)
    return setup.new_table(spec, PLAYERS, 0, base.rules())


def cell(table, row, col):
    """The cell at (row, col), or None (what the old ``share_price((row, col))`` gave)."""
    return table.spec.cell((row, col))


def can_par(c) -> bool:
    return c.kind in PAR_KINDS


def corp(table, row, col):
    """A corporation of the table not yet on the market, started at the cell (row, col)."""
    free = [c for c in table.state.corporations if c.price is None]
    c = free[0]
    mk.start_at(table, c, (row, col))
    return c


def at(c) -> tuple:
    return c.price


def on(table, row, col) -> list:
    """The corporations standing on cell (row, col), in order of arrival."""
    return list(table.state.cells.get((row, col), []))


def move(table, c, direction: str) -> None:
    mk.move_price(table, c, Direction(direction))


@pytest.fixture
def market():
    return table_with_market(GRID)


# ---------------------------------------------------------------------------------------------
# Reading the market


def test_cells_prices_ids_and_missing_cells(market):
    """A cell has a price, coordinates, types and the id ``price,row,column``; empty codes
    and places off the grid are no cell."""
    assert cell(market, 0, 0) is None          # empty code
    assert cell(market, 2, 4) is None          # past the end of the row
    assert cell(market, 4, 0) is None          # below the last row
    assert cell(market, -1, 2) is None
    c = cell(market, 1, 3)
    assert c.price == 100
    assert c.at == (1, 3)
    assert c.id == "100,1,3"
    assert c.kinds == ("par",) and c.kind == "par" and can_par(c)
    plain = cell(market, 1, 4)
    assert plain.kinds == () and plain.kind is None and not can_par(plain)


@pytest.mark.parametrize("letter, type_", sorted(CELL_KINDS.items()))
def test_every_cell_letter(letter, type_):
    """Each letter after a price gives the cell its type; only the par letters allow parring."""
    m = table_with_market([["50", f"60{letter}"]])
    c = cell(m, 0, 1)
    assert c.price == 60
    assert c.kinds == (type_,)
    assert can_par(c) is (type_ in PAR_KINDS)
    assert (c in m.spec.starting_cells()) is (type_ in PAR_KINDS)


def test_several_letters_and_the_flags_they_set():
    """Several letters give several types (the first is the cell's type); types decide the
    certificate limit, multiple buys, the close cell."""
    m = table_with_market([["40y", "50b", "60o", "70pe", "0c", "80"]])
    no_limit, multiple, unlimited, par_end, close, plain = m.spec.rows[0]
    assert not no_limit.counts_for_limit and not unlimited.counts_for_limit
    assert not multiple.counts_for_limit and multiple.multiple_buy
    assert plain.counts_for_limit and not plain.multiple_buy
    assert par_end.kinds == ("par", "endgame") and par_end.kind == "par"
    # A par cell that is also marked e is not an end-of-game cell (its type is par).
    assert can_par(par_end) and par_end.kind != "endgame"
    # The market has a close cell (the old ``has_close_cell`` flag: a cell whose type is close).
    assert close.kind == "close"
    assert any(c.kind == "close" for c in m.spec.cells.values())
    assert not any(c.kind == "close" for c in table_with_market(GRID).spec.cells.values())


def test_par_cell_marked_endgame_does_not_end_the_game():
    """(Behaviour of the old ``end_game_trigger()`` being false for a "pe" cell:) entering a
    par cell that is also marked e does not set the stock market game end."""
    m = table_with_market([["40", "50", "60", "70pe", "80"]])
    c = corp(m, 0, 2)
    move(m, c, "right")
    assert at(c) == (0, 3)
    assert not m.state.top_reached


def test_par_prices_sorted_descending(market):
    """Par prices are listed from the highest down."""
    assert [p.id for p in market.spec.starting_cells()] == ["100,1,3", "80,2,2"]


def test_equal_par_prices_are_ordered_by_column_then_row_descending():
    """1893 has two 120 par cells (2,6) and (1,5): the one further right comes first."""
    spec = title("1893").game_spec(3, ())
    assert [p.id for p in spec.starting_cells()] == [
        "120,2,6", "120,1,5", "100,1,3", "90,2,3", "80,3,3", "70,4,2", "60,5,1"]
    assert [p.kinds for p in spec.starting_cells()[:2]] == [("par_2",), ("par_1",)]


def test_price_by_id(market):
    """A share price is named ``price,row,column`` in the action format."""
    assert market.spec.cell_by_id("100,1,3") is cell(market, 1, 3)
    spec = title("1893").game_spec(3, ())
    assert spec.cell_by_id("60,5,1").price == 60
    assert spec.cell_by_id("120,1,5") is not spec.cell_by_id("120,2,6")


@pytest.mark.parametrize("bad", ["", "100", "1,2", "x,1,3", "100,1,x", "100,9,9", "100,0,0",
                                 "100,-1,3"])
def test_price_by_id_unknown(market, bad):
    """Ids that are malformed or name no cell give None."""
    assert market.spec.cell_by_id(bad) is None


def test_price_by_id_checks_the_price(market):
    """The price in the id must be that of the cell: "90,1,3" names no cell (1,3) is 100)."""
    assert market.spec.cell_by_id("90,1,3") is None
    assert market.spec.cell_by_id("999,1,3") is None


def test_set_par(market):
    """Parring puts the corporation on the cell and records its par price."""
    c = corp(market, 1, 3)
    assert c.price == (1, 3) and c.par == (1, 3)
    assert on(market, 1, 3) == [c]


# ---------------------------------------------------------------------------------------------
# Moving on a two-dimensional market


@pytest.mark.parametrize("start, move_, end", [
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
def test_two_dimensional_moves(market, start, move_, end):
    """Moves on a grid, at its edges and next to missing cells."""
    c = corp(market, *start)
    move(market, c, move_)
    assert at(c) == end


def test_a_move_changes_which_corporations_a_cell_holds(market):
    """A cell lists the corporations on it; a move takes one from the old cell to the new."""
    a, b = corp(market, 1, 3), corp(market, 1, 3)
    move(market, a, "right")
    assert on(market, 1, 3) == [b]
    assert on(market, 1, 4) == [a]


def test_reaching_an_endgame_cell_sets_max_reached(market):
    """Only entering an ``e`` cell sets max_reached (the stock market game end)."""
    c = corp(market, 1, 4)
    move(market, c, "left")
    assert not market.state.top_reached
    move(market, c, "right")
    assert not market.state.top_reached
    move(market, c, "right")                          # end of row 1: up to 120e
    assert at(c) == (0, 4)
    assert market.state.top_reached


def test_liquidation_cell_is_entered_only_by_force():
    """Normal moves do not enter a liquidation cell; a forced move does."""
    m = table_with_market([["0l", "10", "20p"], ["0l", "5", "10"]])
    c = corp(m, 0, 1)
    move(m, c, "left")
    assert at(c) == (0, 1)
    # The new engine's only forced move is the module's own _move_to(force=True).
    mk._move_to(m, c, (0, 0), force=True)
    assert at(c) == (0, 0)


def relative(table, start, directions):
    """Where a series of moves from ``start`` would end, without moving anything (the old
    ``find_relative_share_price``): a move onto no cell keeps the last cell found."""
    coords, found = start, start
    for d in directions:
        coords = mk.next_cell(table, coords, Direction(d))
        if table.spec.cell(coords) is not None:
            found = coords
    return found


def test_find_relative_share_price(market):
    """Where a series of moves would end, without moving; a move that goes nowhere keeps the
    last cell found."""
    c = corp(market, 1, 3)
    assert relative(market, (1, 3), ["right", "right"]) == (0, 4)
    assert relative(market, (1, 3), ["down", "left"]) == (2, 2)
    assert relative(market, (1, 3), ["down", "down"]) == (2, 3)
    assert at(c) == (1, 3) and on(market, 1, 3) == [c]      # nothing moved


# ---------------------------------------------------------------------------------------------
# One-dimensional markets


@pytest.fixture
def row():
    return table_with_market([["0c", "10", "20", "30p", "40", "50e"]])


@pytest.mark.parametrize("start, move_, end", [
    (3, "right", 4), (5, "right", 5),   # at the end of the row a price stays
    (3, "left", 2), (0, "left", 0),
    (3, "up", 4), (5, "up", 5),         # up is right
    (3, "down", 2), (0, "down", 0),     # down is left
])
def test_one_dimensional_moves(row, start, move_, end):
    """A single-row market moves along the row: up is right, down is left, and the ends stop."""
    assert row.spec.one_row_market
    c = corp(row, 0, start)
    move(row, c, move_)
    assert at(c) == (0, end)


def test_one_dimensional_endgame(row):
    """Reaching the ``e`` cell of a single row sets max_reached."""
    c = corp(row, 0, 4)
    move(row, c, "up")
    assert row.state.top_reached


def test_grid_is_not_one_dimensional(market):
    """More than one row makes a two-dimensional market."""
    assert not market.spec.one_row_market
