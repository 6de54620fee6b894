"""The state of a game in the trace format of ``shared/traces/SCHEMA.md``."""

from __future__ import annotations

import json

from .rules import certificates, operators
from .state.model import PlayerState


def _id(entity) -> str:
    return str(entity.id)


def _hexes(operator) -> list:
    return sorted(t.where[0] for t in operator.tokens if t.where is not None)


def snapshot(game, index: int, h: dict) -> dict:
    """The game's state as one trace line (for the entry ``h`` at position ``index``)."""
    table = game.table
    state = table.state
    players = {}
    for p in state.players:
        shares = {sym: sum(c.percent for c in certs) for sym, certs in p.shares.items()}
        players[_id(p)] = {
            "cash": p.cash,
            "shares": {k: v for k, v in shares.items() if v != 0},
            "companies": sorted(c.sym for c in p.companies),
        }
    corporations = {}
    for c in state.corporations:
        if c.closed:
            continue
        owner = c.owner
        corporations[c.sym] = {
            "cash": c.cash,
            "price": table.spec.cells[c.price].price if c.price is not None else None,
            "floated": c.floated or operators.float_condition(table, c),
            "president": _id(owner) if isinstance(owner, PlayerState) else None,
            "trains": sorted(t.name for t in c.trains),
            "tokens": _hexes(c),
            "loans": c.loans,
            "ipo_percent": certificates.percent_of(c, c),
        }
    minors = {}
    for m in state.minors:
        if m.closed:
            continue
        minors[m.sym] = {
            "cash": m.cash,
            "owner": _id(m.owner) if isinstance(m.owner, PlayerState) else None,
            "trains": sorted(t.name for t in m.trains),
            "tokens": _hexes(m),
        }
    r = state.round
    turn = f"{state.turn}.{r.number}" if r.NUMBERED_IN_SET else f"{state.turn}"
    return {
        "i": index, "id": h.get("id"), "type": h.get("type"), "entity": h.get("entity"),
        "round": r.NAME, "turn": turn, "phase": table.phase.name,
        "players": players, "corporations": corporations, "minors": minors,
        "bank_cash": None if state.bank.unlimited else state.bank.cash,
        "depot": [t.name for t in state.depot.upcoming] +
                 [t.name for t in state.depot.given_back],
    }


def dumps(line: dict) -> str:
    return json.dumps(line, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
