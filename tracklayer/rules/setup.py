"""Setting up a game: the state before the first action, from the title's data."""

from __future__ import annotations

import math
from typing import Dict, List, Sequence, Tuple

from ..errors import GameError
from ..rng import SeededRandom
from ..spec.resolved import GameSpec
from ..state.model import (BankState, Certificate, CityState, CompanyState, CorporationState,
                           DepotState, GameState, HexState, MarketState, MinorState, PlayerState,
                           PowerState, TokenState, TrainState)
from . import board, money, tokens
from .table import Table


def _powers(holder, specs) -> List[PowerState]:
    return [PowerState(spec, holder, spec.count) for spec in specs]


def _corporation(spec) -> CorporationState:
    corp = CorporationState(sym=spec.sym, spec=spec, floatable=spec.floatable)
    corp.tokens = [TokenState(corp, price) for price in spec.tokens]
    corp.powers = _powers(corp, spec.powers)
    certs = [Certificate(corp, i, pct, i == 0, corp) for i, pct in enumerate(spec.shares)]
    if spec.last_certificate_last:
        certs[-1].last = True
    corp.certificates = certs
    corp.shares[spec.sym] = list(certs)
    corp.holders[corp] = sum(spec.shares)
    return corp


def fresh_corporation(spec) -> CorporationState:
    """A corporation as it is before it starts (1849 puts a closed one back so)."""
    return _corporation(spec)


def _minor(spec) -> MinorState:
    minor = MinorState(sym=spec.sym, spec=spec)
    minor.tokens = [TokenState(minor, price) for price in spec.tokens]
    minor.powers = _powers(minor, spec.powers)
    return minor


def _company(spec) -> CompanyState:
    company = CompanyState(spec, revenue=spec.revenue,
                           min_price=spec.min_price if spec.min_price is not None
                           else math.ceil(spec.value / 2),
                           max_price=spec.max_price if spec.max_price is not None
                           else spec.value * 2)
    company.powers = _powers(company, spec.powers)
    return company


def _trains(spec: GameSpec, depot: DepotState) -> List[TrainState]:
    out = []
    for t in spec.trains:
        for index in range(t.count):
            train = TrainState(t, index, t.base, owner=depot)
            train.events_due = tuple(e for e in t.events if e.nth == index + 1)
            out.append(train)
    return out


def _hexes(spec: GameSpec) -> dict:
    out = {}
    for hex_id, printed in spec.hexes.items():
        tile = printed.tile
        if tile is None:
            raise GameError(f"hex {hex_id} has no tile")
        out[hex_id] = HexState(
            id=hex_id, tile=printed.tile_id, printed=printed.shape,
            cities=[CityState(slots=[None] * p.slots, groups=p.groups) for p in tile.cities],
            terrain=tile.terrain_parts, borders=list(tile.borders), icons=list(tile.icons))
    return out


def _open_sides(table: Table) -> None:
    """Track may cross a side unless the hex across is one track cannot enter (gray,
    red, blue) with no track towards this hex, or the side is an impassable border. At
    the start this reads the printed map alone: it is worked out once for the title's
    data (:data:`_OPEN_AT_START`)."""
    spec = table.spec
    kept = _OPEN_AT_START.get(id(spec))
    if kept is None or kept[0] is not spec:
        kept = _OPEN_AT_START[id(spec)] = (spec, _open_sides_of(table))
    opened = kept[1]
    for hex_id, h in table.state.hexes.items():
        h.open_sides = opened[hex_id]


# By the id of a game's static data: (that data, each hex's open sides at the start).
_OPEN_AT_START: Dict[int, tuple] = {}


def _open_sides_of(table: Table) -> Dict[str, tuple]:
    """Each hex's open sides on the printed map (:func:`_open_sides`)."""
    impassable = table.settings.impassable_colors
    out = {}
    for hex_id, h in table.state.hexes.items():
        sides = []
        for side, other in table.spec.grid.across[hex_id].items():
            if board.tile_of(table, other).color in impassable and \
                    not board.targets(table, other, hex_id):
                continue
            if any(b.side == side and b.kind == "impassable" for b in h.borders):
                continue
            sides.append(side)
        out[hex_id] = tuple(sides)
    return out


def _token_at_start(table: Table, sym, hex_id: str) -> None:
    """A token on the map from the start (``sym`` None: a neutral one, nobody's)."""
    if sym is None:
        owner = MinorState(sym="N")
        token = TokenState(owner, kind="neutral")
        owner.tokens = [token]
    else:
        owner = table.find("corporation", sym) or table.find("minor", sym)
        token = tokens.next_token(owner)
    tokens.place(table, owner, board.view(table, hex_id).cities[0], token)


def new_table(spec: GameSpec, players: Sequence[Tuple[object, str]], seed: int, variant,
              keep_log: bool = True) -> Table:
    """The table of a new game, before its first round."""
    depot = DepotState()
    bank = BankState(cash=spec.data.bank_cash or 0, unlimited=spec.data.bank_cash is None)
    state = GameState(
        players=[PlayerState(pid, name) for pid, name in players],
        corporations=[_corporation(c) for c in spec.data.corporations],
        minors=[_minor(m) for m in spec.data.minors],
        companies=[_company(c) for c in spec.companies],
        bank=bank, market=MarketState(), depot=depot, hexes=_hexes(spec),
        tiles=list(spec.supply), cells={}, par_cells=[c.at for c in spec.starting_cells()])
    state.rng = SeededRandom(seed or 0)
    state.operating_rounds = spec.phases[0].operating_rounds
    table = Table(spec, state, variant, keep_log)
    state.corporations = variant.corporation_order(table, state.corporations)
    depot.every = _trains(spec, depot)
    depot.upcoming = list(depot.every)
    for p in state.players:
        money.pay(table, bank, p, spec.data.starting_cash)
    for corp in state.corporations:
        home = corp.spec.home
        for coord in ([home] if isinstance(home, str) else list(home or ())):
            board.reserve(table, coord, corp, corp.spec.home_city)
    _open_sides(table)
    for sym, hex_id in spec.data.tokens_at_start:
        _token_at_start(table, sym, hex_id)
    table.log(f"-- Phase {table.phase.name} --")
    for company in state.companies:
        for p in company.powers:
            if p.spec.kind == "shares":
                p.certificate = variant.certificate_with_company(table, company, p)
    return table
