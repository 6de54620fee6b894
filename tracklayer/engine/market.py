"""The stock market: a grid (or a single row) of share prices and how prices move on it."""

from __future__ import annotations

import re
from typing import List, Optional

# Letters after a price in a market cell give the cell's types.
CELL_TYPES = {
    "p": "par", "e": "endgame", "c": "close", "b": "multiple_buy", "o": "unlimited",
    "y": "no_cert_limit", "l": "liquidation", "a": "acquisition", "r": "repar",
    "i": "ignore_one_sale", "j": "ignore_two_sales", "s": "safe_par", "P": "par_overlap",
    "x": "par_1", "z": "par_2", "w": "par_3", "C": "convert_range", "m": "max_price",
    "n": "max_price_1", "u": "phase_limited", "t": "type_limited", "B": "pays_bonus",
    "W": "pays_bonus_1", "X": "pays_bonus_2", "Y": "pays_bonus_3", "Z": "pays_bonus_4",
    "S": "share_split", "f": "only_president",
}
PAR_TYPES = ("par", "par_overlap", "par_1", "par_2", "par_3")
CERT_LIMIT_TYPES = ("multiple_buy", "unlimited", "no_cert_limit")


class SharePrice:
    """One cell of the market."""

    __slots__ = ("coordinates", "price", "types", "corporations", "counts_for_limit",
                 "buy_multiple", "id")

    def __init__(self, row: int, column: int, price: int, types: List[str],
                 unlimited_types=CERT_LIMIT_TYPES, multiple_buy_types=("multiple_buy",)) -> None:
        self.coordinates = (row, column)
        self.price = price
        self.types = list(types)
        self.corporations: list = []
        self.counts_for_limit = self.type not in unlimited_types
        self.buy_multiple = self.type in multiple_buy_types
        self.id = f"{price},{row},{column}"

    @property
    def type(self) -> Optional[str]:
        return self.types[0] if self.types else None

    def can_par(self) -> bool:
        return self.type in PAR_TYPES

    def end_game_trigger(self) -> bool:
        return self.type == "endgame"

    def normal_movement(self) -> bool:
        return self.type != "liquidation"

    def remove_par(self) -> None:
        self.types = [t for t in self.types if t not in PAR_TYPES]

    def __repr__(self) -> str:
        return f"<SharePrice {self.id}>"


class StockMarket:
    """Share prices laid out in rows; ``move_*`` moves a corporation's token on it."""

    def __init__(self, rows: list, unlimited_types=CERT_LIMIT_TYPES,
                 multiple_buy_types=("multiple_buy",), movement: str = "two_d") -> None:
        self.market: List[List[Optional[SharePrice]]] = []
        self.par_prices: List[SharePrice] = []
        self.has_close_cell = False
        self.max_reached = False
        for r, row in enumerate(rows):
            cells = []
            for c, code in enumerate(row):
                if not code:
                    cells.append(None)
                    continue
                m = re.match(r"(\d*)([a-zA-Z]*)", code)
                types = [CELL_TYPES[ch] for ch in m.group(2)]
                cell = SharePrice(r, c, int(m.group(1) or 0), types, unlimited_types,
                                  multiple_buy_types)
                cells.append(cell)
                if cell.can_par():
                    self.par_prices.append(cell)
                if cell.type == "close":
                    self.has_close_cell = True
            self.market.append(cells)
        # Par prices in descending order (price, then column, then row).
        self.par_prices.sort(key=lambda p: (p.price, p.coordinates[1], p.coordinates[0]),
                             reverse=True)
        self.one_d = len(self.market) == 1
        self.movement = "one_d" if self.one_d else movement

    def share_price(self, coordinates) -> Optional[SharePrice]:
        r, c = coordinates
        if r < 0 or c < 0 or r >= len(self.market):
            return None
        row = self.market[r]
        return row[c] if c < len(row) else None

    def price_by_id(self, price_id: str) -> Optional[SharePrice]:
        """The cell called ``"price,row,column"`` (the 18xx.games share price id); None if
        there is no such cell or its price is not the one named."""
        try:
            _, r, c = price_id.split(",")
            cell = self.share_price((int(r), int(c)))
        except ValueError:
            return None
        return cell if cell is not None and cell.id == price_id else None

    def set_par(self, corporation, share_price: SharePrice) -> None:
        share_price.corporations.append(corporation)
        corporation.share_price = share_price
        corporation.par_price = share_price
        corporation.original_par_price = share_price

    # -- directions (coordinates only) -----------------------------------------------------

    def left(self, coords):
        r, c = coords
        if self.movement == "one_d":
            return (r, c - 1) if c - 1 >= 0 else (r, c)
        if c > 0 and self.share_price((r, c - 1)) is not None:
            return (r, c - 1)
        return self.down(coords)

    def right(self, coords):
        r, c = coords
        if self.movement == "one_d":
            return (r, c + 1) if c + 1 < len(self.market[r]) else (r, c)
        if c + 1 >= len(self.market[r]):
            return self.up(coords)
        return (r, c + 1)

    def down(self, coords):
        r, c = coords
        if self.movement == "one_d":
            return self.left(coords)
        return (r + 1, c) if r + 1 < len(self.market) else (r, c)

    def up(self, coords):
        r, c = coords
        if self.movement == "one_d":
            return self.right(coords)
        return (r - 1, c) if r - 1 >= 0 else (r, c)

    # -- moving a corporation --------------------------------------------------------------

    def move(self, corporation, coords, force: bool = False) -> None:
        target = self.share_price(coords)
        if target is None or target is corporation.share_price:
            return
        if not force and not target.normal_movement():
            return
        corporation.share_price.corporations.remove(corporation)
        corporation.share_price = target
        if target.end_game_trigger():
            self.max_reached = True
        target.corporations.append(corporation)

    def move_left(self, corporation) -> None:
        self.move(corporation, self.left(corporation.share_price.coordinates))

    def move_right(self, corporation) -> None:
        self.move(corporation, self.right(corporation.share_price.coordinates))

    def move_up(self, corporation) -> None:
        self.move(corporation, self.up(corporation.share_price.coordinates))

    def move_down(self, corporation) -> None:
        self.move(corporation, self.down(corporation.share_price.coordinates))

    def find_relative_share_price(self, share_price: SharePrice, directions) -> SharePrice:
        coords = share_price.coordinates
        price = share_price
        for d in directions:
            coords = getattr(self, d)(coords)
            price = self.share_price(coords) or price
        return price

    def share_prices_with_types(self, types) -> list:
        cells = [sp for row in self.market for sp in row if sp and set(types) & set(sp.types)]
        return sorted(cells, key=lambda sp: sp.price, reverse=True)

    def remove_par(self, price: SharePrice) -> None:
        if price in self.par_prices:
            self.par_prices.remove(price)
        price.remove_par()
