"""What an action costs whoever pays for it, worked out by the rules that charge it: a
tile's terrain, borders and the step's price for a second tile or an upgrade (less what a
company pays back for it), a station token's price, a bundle of shares at its price, a
president's certificate at the starting price, a train or a company at the price named."""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..actions import Action, read
from ..errors import GameError
from ..game import Game
from ..rules import certificates, operators, track
from ..rules.table import Table
from ..state.model import CompanyState
from ..turns.listing import value_range
from ..turns.operating import TrackStep


def at_least(h: dict) -> dict:
    """A listed action as the engine reads it (a range at its least value)."""
    found = value_range(h)
    return h if found is None else dict(h, **{found[0]: found[1]})


def reading(table: Table, h: dict) -> Optional[Action]:
    """The action read against the position (None if it cannot be read)."""
    try:
        return read(table, at_least(h))
    except (GameError, KeyError, TypeError, ValueError):
        return None


def lay_price(table: Table, a: Action, step) -> int:
    """What a lay costs the operator: the terrain and borders, and the step's price for a
    second tile or an upgrade."""
    cost = track.lay_cost(table, a.entity, a.hex, a.tile, a.rotation)
    if isinstance(step, TrackStep):
        lay = step.allowance(a.entity)
        if lay is not None:
            cost += lay.cost if a.tile.color == "yellow" else lay.price_of_upgrade
    return cost


def lay_income(table: Table, a: Action) -> List[Tuple[CompanyState, int]]:
    """What companies the operator owns pay it for the lay (1817's Mountain Engineers:
    a tile on a mountain): ``(company, amount)``."""
    operator = a.entity.owner if isinstance(a.entity, CompanyState) else a.entity
    terrain = table.state.hexes[a.hex].terrain
    out = []
    for company in operator.companies:
        for p in company.powers:
            spec = p.spec
            if spec.kind == "tile_income" and not company.closed and \
                    any(spec.terrain in t.terrains for t in terrain):
                out.append((company, spec.discount or 0))
    return out


def president_price(a: Action) -> Optional[int]:
    """What starting a corporation at a price costs: its president's certificate."""
    president = next((c for c in a.corporation.certificates if c.president), None)
    if president is None:
        return None
    return a.cell.price * president.percent // certificates.share_percent(a.corporation)


def price_paid(game: Game, h: dict) -> Optional[int]:
    """What the action costs whoever pays for it (the acting operator for track and
    tokens, the buyer for shares, trains and companies), as its words name it; negative
    for money received (a sale); None for an action that moves no money by itself."""
    table = game.table
    a = reading(table, h)
    if a is None:
        return None
    kind = a.kind
    if kind == "lay_tile":
        step = table.round.step_for(a.entity, kind)
        return lay_price(table, a, step) - sum(n for _, n in lay_income(table, a))
    if kind == "place_token":
        return a.token.price if a.token is not None else 0
    if kind == "buy_shares" and not isinstance(a.entity, CompanyState):
        return certificates.bundle_price(table, a.bundle)
    if kind == "sell_shares":
        return -certificates.bundle_price(table, a.bundle)
    if kind == "short":
        return -operators.par_value(table, a.target)
    if kind == "par":
        return president_price(a)
    if kind in ("buy_train", "buy_company"):
        return a.price
    return None
