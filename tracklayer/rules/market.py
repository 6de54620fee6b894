"""The stock market: where share prices stand and how they move.

A price moves one cell at a time. Right means up in value along the row; at the end of a
row it moves up a row instead. Left moves along the row towards lower values, or down a
row when there is no cell to the left. Up and down change rows in the same column; at the
edge of the grid the price stays. On a single-row market down is left and up is right. A
title may name prices that cannot move right or up until a phase (1849's blue zone).

Several corporations on one cell keep the order in which they arrived: it decides who
operates first.
"""

from __future__ import annotations

from enum import Enum
from typing import Optional, Tuple

from ..spec.settings import PoolDrop, SaleMovement
from ..state.model import CorporationState
from .table import Table

At = Tuple[int, int]


class Direction(Enum):
    LEFT = "left"
    RIGHT = "right"
    UP = "up"
    DOWN = "down"


def _exists(table: Table, at: At) -> bool:
    return at in table.spec.cells


def _within(table: Table, at: At) -> Optional[At]:
    """``at`` if it lies on the grid (a cell may still be blank there)."""
    r, c = at
    rows = table.spec.rows
    if r < 0 or c < 0 or r >= len(rows) or c >= len(rows[r]):
        return None
    return at


def _blocked(table: Table, at: At, prices: Tuple[int, ...]) -> bool:
    market = table.spec.data.market
    if not prices or (market.freed_by and table.phase_has(market.freed_by)):
        return False
    cell = table.spec.cells.get(at)
    return cell is not None and cell.price in prices


def _left(table: Table, at: At) -> At:
    r, c = at
    if table.spec.one_row_market:
        return (r, c - 1) if c > 0 else at
    if c > 0 and _exists(table, (r, c - 1)):
        return (r, c - 1)
    return _down(table, at)


def _right(table: Table, at: At) -> At:
    r, c = at
    if _blocked(table, at, table.spec.data.market.no_right_at):
        return _up(table, at)
    if table.spec.one_row_market:
        return (r, c + 1) if c + 1 < len(table.spec.rows[r]) else at
    if c + 1 >= len(table.spec.rows[r]):
        return _up(table, at)
    return (r, c + 1)


def _up(table: Table, at: At) -> At:
    r, c = at
    if _blocked(table, at, table.spec.data.market.no_up_at):
        return at
    if table.spec.one_row_market:
        return _right(table, at)
    return (r - 1, c) if r > 0 else at


def _down(table: Table, at: At) -> At:
    r, c = at
    if table.spec.one_row_market:
        return _left(table, at)
    return (r + 1, c) if r + 1 < len(table.spec.rows) else at


STEPS = {Direction.LEFT: _left, Direction.RIGHT: _right, Direction.UP: _up,
         Direction.DOWN: _down}


def next_cell(table: Table, at: At, direction: Direction) -> At:
    """Where a price at ``at`` goes moving one step in ``direction``."""
    return STEPS[direction](table, at)


def move_price(table: Table, corporation: CorporationState, direction: Direction,
               times: int = 1) -> None:
    """Move the corporation's price ``times`` steps (a step onto no cell, or onto a
    liquidation cell, does not happen)."""
    for _ in range(times):
        target = next_cell(table, corporation.price, direction)
        _move_to(table, corporation, target)


def _move_to(table: Table, corporation: CorporationState, target: At,
             force: bool = False) -> None:
    cell = table.spec.cells.get(target) if _within(table, target) else None
    if cell is None or target == corporation.price:
        return
    if not force and cell.kind == "liquidation":
        return
    place(table, corporation, target)
    if cell.kind == "endgame":
        table.state.top_reached = True
        if not corporation.reached_top:
            corporation.reached_top = True
            table.log(f"{corporation.name} reached the top of the market")


def start_at(table: Table, corporation: CorporationState, at: At) -> None:
    """The corporation's price starts at cell ``at`` (its par)."""
    table.state.cells.setdefault(at, []).append(corporation)
    corporation.price = at
    corporation.par = at


def place(table: Table, corporation: CorporationState, at: At) -> None:
    """The corporation's price marker is put on cell ``at``: a marker coming onto a cell
    goes under those already there (it operates after them), while a marker already on
    ``at`` stays where it is in the stack."""
    if corporation.price == at:
        return
    leave_market(table, corporation)
    corporation.price = at
    table.state.cells.setdefault(at, []).append(corporation)


def leave_market(table: Table, corporation: CorporationState) -> None:
    stack = table.state.cells.get(corporation.price)
    if stack is not None and corporation in stack:
        stack.remove(corporation)


def price(table: Table, corporation) -> Optional[int]:
    cell = table.spec.cells.get(corporation.price) if corporation.price else None
    return cell.price if cell else None


def report_move(table: Table, corporation, old: Optional[At]) -> None:
    """The log tells of a price that moved from ``old`` (when a log is kept)."""
    new = corporation.price
    if new != old and new is not None and old is not None and table.keep_log:
        table.log(f"{corporation.name}'s share price moves from "
                  f"{table.money(table.spec.cells[old].price)} to "
                  f"{table.money(table.spec.cells[new].price)}")


# How a sale moves the price: the direction, and how many steps for a sale of ``shares``
# shares making ``percent`` percent.
SALE_MOVES = {
    SaleMovement.DOWN_PER_SHARE: (Direction.DOWN, lambda shares, percent: shares),
    SaleMovement.DOWN_PER_SALE: (Direction.DOWN, lambda shares, percent: 1),
    SaleMovement.DOWN_PER_10_PERCENT: (Direction.DOWN, lambda shares, percent: percent // 10),
    SaleMovement.LEFT_PER_SHARE: (Direction.LEFT, lambda shares, percent: shares),
    SaleMovement.LEFT_PER_SALE: (Direction.LEFT, lambda shares, percent: 1),
    SaleMovement.NONE: (Direction.DOWN, lambda shares, percent: 0),
}


def after_sale(table: Table, corporation: CorporationState, shares: int, percent: int,
               movement: Optional[SaleMovement] = None) -> None:
    """Move the price for a sale of ``shares`` shares (``percent`` percent)."""
    movement = movement or table.settings.sale_movement
    direction, steps = SALE_MOVES[movement]
    old = corporation.price
    move_price(table, corporation, direction, steps(shares, percent))
    if movement is not SaleMovement.NONE:
        report_move(table, corporation, old)


# What shares left in the market do at the end of a stock round.
POOL_DROPS = {
    PoolDrop.NONE: (Direction.DOWN, lambda n: 0),
    PoolDrop.DOWN_ONE: (Direction.DOWN, lambda n: 1),
    PoolDrop.DOWN_PER_SHARE: (Direction.DOWN, lambda n: n),
    PoolDrop.LEFT_ONE: (Direction.LEFT, lambda n: 1),
}


def pool_drop(table: Table, corporation: CorporationState, shares_in_market: int) -> None:
    if shares_in_market <= 0:
        return
    direction, steps = POOL_DROPS[table.settings.pool_drop]
    move_price(table, corporation, direction, steps(shares_in_market))
