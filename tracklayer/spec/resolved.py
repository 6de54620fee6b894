"""The static side of one game: a title's data made ready for play for a number of players
and a set of optional rules. Shared by every copy of the game, never changed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Dict, FrozenSet, List, Optional, Tuple

from ..board.catalogue import standard_tiles
from ..board.grid import Grid
from ..board.tiles import TileDef
from .data import CompanySpec, CorporationSpec, MinorSpec, PhaseSpec, TitleData, TrainSpec
from .settings import EndTrigger, Settings

# Letters after a price in a market cell, and the kinds of cell they make.
CELL_KINDS = {
    "p": "par", "e": "endgame", "c": "close", "b": "multiple_buy", "o": "unlimited",
    "y": "no_cert_limit", "l": "liquidation", "a": "acquisition", "r": "repar",
    "i": "ignore_one_sale", "j": "ignore_two_sales", "s": "safe_par", "P": "par_overlap",
    "x": "par_1", "z": "par_2", "w": "par_3", "C": "convert_range", "m": "max_price",
    "n": "max_price_1", "u": "phase_limited", "t": "type_limited", "B": "pays_bonus",
    "W": "pays_bonus_1", "X": "pays_bonus_2", "Y": "pays_bonus_3", "Z": "pays_bonus_4",
    "S": "share_split", "f": "only_president",
}
PAR_KINDS = ("par", "par_overlap", "par_1", "par_2", "par_3")
NO_LIMIT_KINDS = ("multiple_buy", "unlimited", "no_cert_limit")


class SpecError(ValueError):
    """A title's data does not make a game."""


@dataclass(frozen=True)
class Cell:
    """A cell of the stock market."""
    row: int
    column: int
    price: int
    kinds: Tuple[str, ...]

    @property
    def at(self) -> Tuple[int, int]:
        return (self.row, self.column)

    # The facts below are read again and again by the rules: worked out once per cell.

    @cached_property
    def kind(self) -> Optional[str]:
        return self.kinds[0] if self.kinds else None

    @cached_property
    def id(self) -> str:
        return f"{self.price},{self.row},{self.column}"

    @cached_property
    def counts_for_limit(self) -> bool:
        return self.kind not in NO_LIMIT_KINDS

    @cached_property
    def multiple_buy(self) -> bool:
        return self.kind == "multiple_buy"


@dataclass(frozen=True)
class PrintedHex:
    """A hex as printed: its tile's id and shape (``shape``: its key among the tile
    shapes)."""
    id: str
    tile_id: str
    tile: Optional[TileDef]
    name: Optional[str]
    shape: str = ""


class GameSpec:
    """A title's data for one game (players, optional rules), ready to build its state."""

    def __init__(self, title: str, data: TitleData, settings: Settings, players: int,
                 options: Tuple[str, ...], player_range: Tuple[int, int]) -> None:
        self.title = title
        self.data = data
        self.settings = settings
        self.players = players
        self.options = options
        self.player_range = player_range
        self.money = settings.format_money
        self.bank_breaks = data.bank_cash is not None and any(
            trigger is EndTrigger.BANK_BROKEN for trigger, _ in settings.end_triggers)
        self.trains: Tuple[TrainSpec, ...] = data.trains
        self.phases: Tuple[PhaseSpec, ...] = data.phases
        self.corporations: Dict[str, CorporationSpec] = {c.sym: c for c in data.corporations}
        self.minors: Dict[str, MinorSpec] = {m.sym: m for m in data.minors}
        self.companies: Tuple[CompanySpec, ...] = tuple(
            c for c in data.companies if players >= c.min_players)
        self.tile_defs: Dict[str, TileDef] = {}
        self.supply: List[str] = []
        self.unlimited_tiles: set = set()
        self._read_tiles()
        self.hexes: Dict[str, PrintedHex] = {}
        self._read_map()
        self.grid = Grid(list(self.hexes), data.map.layout, data.map.letters_on_x)
        self.cells: Dict[Tuple[int, int], Cell] = {}
        self.rows: List[List[Optional[Cell]]] = []
        self._read_market()
        self.static_objects: Optional[Dict[int, object]] = None   # see tracklayer.snapshot

    # -- tiles and map ------------------------------------------------------------------

    def tile_def(self, name: str, color: Optional[str] = None, code: Optional[str] = None):
        found = self.tile_defs.get(name)
        if found is None:
            if code is None:
                catalogue = standard_tiles()
                if name not in catalogue:
                    raise SpecError(f"tile {name} is not in the tile catalogue")
                color, code = catalogue[name]
            found = self.tile_defs[name] = TileDef(name, color, code)
        return found

    def _read_tiles(self) -> None:
        for name, entry in self.data.tiles.tiles.items():
            if isinstance(entry, tuple):
                count, color, code = entry
                self._add_copies(name, count, self.tile_def(name, color, code))
            else:
                self._add_copies(name, entry, self.tile_def(name))

    def _add_copies(self, name: str, count, tile: TileDef) -> None:
        if count == "unlimited":
            self.unlimited_tiles.add(name)
            count = 1
        self.supply.extend(f"{name}-{i}" for i in range(count))

    def _read_map(self) -> None:
        catalogue = standard_tiles()
        for color, group in self.data.map.hexes.items():
            for coords, code in group.items():
                if isinstance(coords, str):
                    coords = (coords,)
                for index, coord in enumerate(coords):
                    if coord in self.hexes:
                        raise SpecError(f"hex {coord} is printed twice")
                    if color == "empty":
                        self.hexes[coord] = PrintedHex(coord, "", None, None)
                        continue
                    if code and code in catalogue:
                        key = code
                        tile = self.tile_def(code)
                        tile_id = f"{code}-{index}"
                    else:
                        key = self.printed_shape(coord, color, code)
                        tile = self.tile_defs[key]
                        tile_id = f"{coord}-{index}"
                    self.hexes[coord] = PrintedHex(coord, tile_id, tile,
                                                   self.data.map.names.get(coord), key)

    def printed_shape(self, coord: str, color: str, code: str) -> str:
        """Register the shape of a tile printed on hex ``coord``; return its key."""
        key = f"{coord}@{color}:{code}"
        if key not in self.tile_defs:
            self.tile_defs[key] = TileDef(coord, color, code)
        return key

    @cached_property
    def hex_order(self) -> Dict[str, int]:
        """Each hex's place in map order (the order of :attr:`hexes`)."""
        return {hex_id: i for i, hex_id in enumerate(self.hexes)}

    @cached_property
    def supply_ids(self) -> frozenset:
        """The ids of the tiles of the supply at the start (:attr:`supply`), to look up."""
        return frozenset(self.supply)

    @cached_property
    def printed_tiles(self) -> Dict[str, TileDef]:
        """The shapes of the tiles printed on the map, by id (the first hex's of an id)."""
        found: Dict[str, TileDef] = {}
        for h in self.hexes.values():
            if h.tile_id is not None:
                found.setdefault(h.tile_id, h.tile)
        return found

    @cached_property
    def blockable_hexes(self) -> FrozenSet[str]:
        """The hexes a ``blocks_hexes`` power of a corporation, minor or company names (the
        entities' powers come from these specs: no other hex is ever blocked)."""
        holders = (*self.data.corporations, *self.data.minors, *self.companies)
        return frozenset(h for holder in holders for p in holder.powers
                         if p.kind == "blocks_hexes" for h in p.hexes)

    def printed_tile(self, tile_id: str) -> Optional[TileDef]:
        """The shape of a tile printed on the map, by its id."""
        return self.printed_tiles.get(tile_id)

    # -- market -------------------------------------------------------------------------

    def _read_market(self) -> None:
        for r, row in enumerate(self.data.market.rows):
            cells: List[Optional[Cell]] = []
            for c, code in enumerate(row):
                if not code:
                    cells.append(None)
                    continue
                m = re.fullmatch(r"(\d*)([a-zA-Z]*)", code)
                if m is None or any(ch not in CELL_KINDS for ch in m.group(2)):
                    raise SpecError(f"cannot read market cell {code!r}")
                cell = Cell(r, c, int(m.group(1) or 0), tuple(CELL_KINDS[ch] for ch in m.group(2)))
                cells.append(cell)
                self.cells[cell.at] = cell
            self.rows.append(cells)

    def cell(self, at) -> Optional[Cell]:
        return self.cells.get(at) if at is not None else None

    def cell_by_id(self, text) -> Optional[Cell]:
        """The cell called ``"price,row,column"`` (the 18xx.games share price id), if it
        exists and has that price."""
        try:
            _, r, c = str(text).split(",")
            cell = self.cells.get((int(r), int(c)))
        except ValueError:
            return None
        return cell if cell is not None and cell.id == text else None

    def starting_cells(self) -> List[Cell]:
        """Cells a corporation may start at, dearest first (then by column, then row)."""
        return list(self._starting_cells)

    @cached_property
    def _starting_cells(self) -> Tuple[Cell, ...]:
        found = [c for c in self.cells.values() if c.kind in PAR_KINDS]
        found.sort(key=lambda c: (c.price, c.column, c.row), reverse=True)
        return tuple(found)

    @cached_property
    def closing_cells(self) -> FrozenSet[Tuple[int, int]]:
        """Where on the market a corporation closes."""
        return frozenset(at for at, cell in self.cells.items() if cell.kind == "close")

    @cached_property
    def frees_from_limit(self) -> bool:
        """Does some cell free its corporations' certificates from the certificate limit?"""
        return any(not cell.counts_for_limit for cell in self.cells.values())

    @property
    def one_row_market(self) -> bool:
        return len(self.rows) == 1
