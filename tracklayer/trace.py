"""The state of a game in the trace format of ``shared/traces/SCHEMA.md``."""

from __future__ import annotations

import json


def _pid(player) -> str:
    return str(player.id)


def snapshot(game, index: int, h: dict) -> dict:
    """The game's state as one trace line (for the entry ``h`` at position ``index``)."""
    players = {}
    for p in game.players:
        shares: dict = {}
        for s in p.shares:
            sym = s.corporation.id
            shares[sym] = shares.get(sym, 0) + s.percent
        players[_pid(p)] = {
            "cash": p.cash,
            "shares": {k: v for k, v in shares.items() if v != 0},
            "companies": sorted(c.sym for c in p.companies),
        }
    corporations = {}
    for c in game.corporations:
        if c.closed:
            continue
        owner = c.owner
        corporations[c.id] = {
            "cash": c.cash,
            "price": c.share_price.price if c.share_price is not None else None,
            "floated": c.floated_now(),
            "president": _pid(owner) if owner is not None and owner.is_player else None,
            "trains": sorted(t.name for t in c.trains),
            "tokens": sorted(t.city.hex.id for t in c.tokens if t.city is not None
                             and t.city.hex is not None),
            "loans": len(c.loans),
            "ipo_percent": c.ipo_owner.percent_of(c),
        }
    minors = {}
    for m in game.minors:
        if m.closed:
            continue
        minors[m.id] = {
            "cash": m.cash,
            "owner": _pid(m.owner) if m.owner is not None and m.owner.is_player else None,
            "trains": sorted(t.name for t in m.trains),
            "tokens": sorted(t.city.hex.id for t in m.tokens if t.city is not None
                             and t.city.hex is not None),
        }
    round = game.round
    kind = round.name[:-len(" Round")] if round.name.endswith(" Round") else round.name
    turn = f"{game.turn}.{round.round_num}" if game.total_rounds(kind) else f"{game.turn}"
    return {
        "i": index,
        "id": h.get("id"),
        "type": h.get("type"),
        "entity": h.get("entity"),
        "round": round.name,
        "turn": turn,
        "phase": game.phase.name,
        "players": players,
        "corporations": corporations,
        "minors": minors,
        "bank_cash": None if game.bank.unlimited else game.bank.cash,
        "depot": [t.name for t in game.depot.upcoming] + [t.name for t in game.depot.discarded],
    }


def dumps(state: dict) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
