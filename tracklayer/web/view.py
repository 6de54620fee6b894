"""What a page shows of a game, as plain data for the templates: the seat(s) viewing, who is
to act, the map, the market, players (1893 hides other players' cash), companies with
their revenue history, trains and phase, the log, and the viewing seat's legal actions
grouped for the controls (``actions_view``)."""

from __future__ import annotations

from typing import Dict, List, Optional

from ..game import Game
from ..state.model import CorporationState, PlayerState
from . import logbook, proposals, svg
from .actions_view import build_actions
from .routes_view import COLORS
from .bots import seat_of
from .service import Live, Seat



def seats_viewing(live: Live, tokens: List[str]) -> List[Seat]:
    return [s for s in live.seats if s.token and s.token in tokens]


def build(live: Live, tokens: List[str]) -> Dict:
    game = live.game
    table = game.table
    mine = seats_viewing(live, tokens)
    acting = live.acting_seats()
    me: Optional[Seat] = next((s for s in mine if s.player_id in acting), None)
    legal = live.legal_of(me.player_id) if me else []
    actions = build_actions(game, legal, me.name if me else "")
    drawn = actions["map"]
    tiles = drawn.get("tiles") or {}
    token_cities: Dict[str, Dict[int, List[int]]] = {}
    for key, h in (drawn.get("tokens") or {}).items():
        hex_id, _, index = key.partition("|")
        slots = token_cities.setdefault(hex_id, {}).setdefault(int(index), [])
        if isinstance(h.get("slot"), int):
            slots.append(h["slot"])
    return {
        "id": live.id, "title": game.title.name, "number": live.number,
        "over": game.is_over, "end_reason": game.end_reason,
        "result": game.result() if game.is_over else None,
        "round": f"{table.round.NAME} {game.state.turn}", "step": table.round.describe(),
        "acting": [live.seat(p).name if live.seat(p) else str(p) for p in acting],
        "me": me, "mine": mine, "token": me.token if me else (mine[0].token if mine else ""),
        "map": svg.draw_map(game, list(tiles), drawn.get("routes") or last_routes(game),
                            options=tiles, token_cities=token_cities),
        "play": {"layers": {k: layer["tiles"] for k, layer in
                            (actions["track"] or {}).get("layers", {}).items()},
                 "order": (actions["track"] or {}).get("order", []),
                 "tokens": drawn.get("tokens") or {},
                 "lays": (actions["track"] or {}).get("lays", {}),
                 "costs": (actions["track"] or {}).get("costs", {}),
                 "routes": actions["routes"]},
        "actions": actions,
        **_undo_redo(live, mine),
        "players": players(live, mine), "corporations": corporations(live),
        "loans": table.spec.data.loans is not None,
        "market": market(game), "trains": trains(game), "log": log(live),
        "my_turn": me is not None, "end": ending(live),
        "proposals": proposals.for_view(live, mine),
    }


def last_routes(game: Game) -> List[dict]:
    """The routes of the last run in force, each train in its colour."""
    last = next((h for h in reversed(game.actions) if h.get("type") == "run_routes"), None)
    if last is None:
        return []
    return [dict(r, color=COLORS[i % len(COLORS)]) for i, r in enumerate(last.get("routes") or [])]


def _undo_redo(live: Live, mine: List[Seat]) -> Dict:
    """The seat tokens the undo and redo buttons act with (empty: no button); none once
    the game is over, since a finished game takes no undo or redo (409)."""
    game = live.game
    if game.is_over:
        return {"undo_token": "", "undo_back": None, "redo_token": ""}
    return {"undo_token": _token_for(mine, game.actions[-1] if game.actions else None, game),
            "undo_back": _undo_back(live, mine),
            "redo_token": _token_for(mine, _to_redo(game), game)}


def _undo_back(live: Live, mine: List[Seat]) -> Optional[Dict]:
    """An undo past the bots' moves back to before one of the viewer's seats' last action
    (when the last action is not the viewer's own)."""
    game = live.game
    if not game.actions or not mine or seat_of(game, game.actions[-1]) in \
            [s.player_id for s in mine]:
        return None
    for seat in mine:
        target = live.undo_target(seat.player_id)
        if target is not None:
            return {"token": seat.token, "action_id": target}
    return None


def _to_redo(game: Game) -> Optional[dict]:
    groups = game.history.redo_groups
    return groups[-1][0][0] if groups and groups[-1] else None


def _token_for(mine: List[Seat], action, game: Game) -> str:
    if action is None:
        return ""
    p = seat_of(game, action)
    return next((s.token for s in mine if s.player_id == p), "")


def players(live: Live, mine: List[Seat]) -> List[Dict]:
    game = live.game
    hide = game.title.settings.cash_secret
    own = {s.player_id for s in mine}
    out = []
    for p in game.state.players:
        seat = live.seat(p.id)
        shares = {sym: sum(c.percent for c in certs) for sym, certs in p.shares.items() if certs}
        out.append({"id": p.id, "name": seat.name if seat else p.name,
                    "bot": seat.bot if seat else None,
                    "cash": "hidden" if hide and p.id not in own and not game.is_over
                    else p.cash,
                    "shares": ", ".join(f"{k} {v}%" for k, v in shares.items()),
                    "companies": ", ".join(c.sym for c in p.companies),
                    "passed": p.passed, "bankrupt": p.bankrupt})
    return out


def corporations(live: Live) -> List[Dict]:
    game = live.game
    table = game.table
    out = []
    for c in list(game.state.corporations) + list(game.state.minors):
        is_corp = isinstance(c, CorporationState)
        price = table.spec.cell(c.price).price if is_corp and c.price is not None else None
        par = table.spec.cell(c.par).price if is_corp and c.par is not None else None
        market_pct = sum(x.percent for x in game.state.market.shares.get(c.sym, ()))
        ipo_pct = sum(x.percent for x in c.shares.get(c.sym, ())) if is_corp else 0
        held = {p.id: sum(x.percent for x in p.shares.get(c.sym, ()))
                for p in game.state.players}
        out.append({"sym": c.sym, "name": c.spec.name, "color": svg.color_of(c), "held": held,
                    "president": _name(live, c.owner),
                    "price": price, "par": par, "cash": c.cash,
                    "trains": " ".join(t.spec.name if not t.variant else t.variant.name
                                       for t in c.trains),
                    "tokens": sum(1 for t in c.tokens if t.where is None),
                    "ipo": ipo_pct, "market": market_pct, "floated": c.floated,
                    "closed": c.closed, "companies": ", ".join(x.sym for x in c.companies),
                    "loans": c.loans,
                    "history": [(f"{o.turn}.{o.round}", o.revenue, o.kind) for o in c.history]})
    return out


def _name(live: Live, owner) -> str:
    if isinstance(owner, PlayerState):
        seat = live.seat(owner.id)
        return seat.name if seat else owner.name
    return ""


def market(game: Game) -> Dict:
    table = game.table
    at: Dict[tuple, List[Dict]] = {}
    for c in game.state.corporations:
        if c.price is not None and not c.closed:
            at.setdefault(c.price, []).append({"sym": c.sym, "color": svg.color_of(c)})
    rows = []
    for r, row in enumerate(table.spec.rows):
        cells = []
        for col, cell in enumerate(row):
            if cell is None:
                cells.append(None)
                continue
            cells.append({"price": cell.price, "kinds": " ".join(cell.kinds),
                          "corps": at.get((r, col), [])})
        rows.append(cells)
    return {"rows": rows}


def trains(game: Game) -> Dict:
    table = game.table
    phase = table.spec.phases[game.state.phase]
    depot: Dict[str, Dict] = {}
    for t in game.state.depot.upcoming:
        d = depot.setdefault(t.spec.name, {"name": t.spec.name, "price": t.spec.price,
                                           "count": 0})
        d["count"] += 1
    return {"phase": phase.name, "tiles": ", ".join(phase.tiles),
            "limit": str(phase.train_limit) if isinstance(phase.train_limit, int) else
            ", ".join(f"{k} {v}" for k, v in phase.train_limit),
            "depot": list(depot.values()),
            "given_back": ", ".join(t.spec.name for t in game.state.depot.given_back),
            "bank": bank(game)}


def bank(game: Game) -> str:
    """The bank's cash as a player reads it: "unlimited" for a title whose bank never
    runs out (its count may go below zero, which means nothing), never a negative sum."""
    b = game.state.bank
    if b.unlimited:
        return "unlimited"
    return f"{max(b.cash, 0)} (broken)" if b.broken else str(b.cash)


def at_entry(live: Live, number: int) -> Dict:
    """The map, market, players, companies, trains and log as they stood after entry
    ``number`` (for the history slider; cash hidden as in the live view, for a
    spectator)."""
    number = max(0, min(number, live.number))
    past = Live(live.id, live.game.position_after(number), live.seats,
                log_start=live.log_start,
                log_marks=live.log_marks.before(number))
    game = past.game
    return {"number": number, "map": svg.draw_map(game, [], last_routes(game)),
            "market": market(game), "players": players(past, []),
            "corporations": corporations(past), "trains": trains(game),
            "log": log(past), "round": f"{game.table.round.NAME} {game.state.turn}"}


def log(live: Live) -> Dict:
    """The newest lines of the game's log with its chat (see logbook)."""
    return logbook.tail(logbook.items(live))


END_REASONS = {
    "bank": "the bank broke",
    "stock_market": "a share price reached the top of the market",
    "final_phase": "the last phase came and the final set of rounds was played",
    "final_train": "the last train was bought",
    "all_closed": "every corporation closed",
    "dnf": "still going at the turn limit (nothing could change any more: the scores stand)",
    "manually_ended": "the players ended it",
}


def ending(live: Live) -> Optional[Dict]:
    """A finished game's end: why it ended, in words, and every player's final score
    (the title's own scoring), best first; equal scores share a place, and every player
    with the best score wins."""
    game = live.game
    if not game.is_over:
        return None
    scores = game.result()
    rows, place, last = [], 0, None
    for k, (pid, value) in enumerate(scores.items()):
        if value != last:
            place, last = k + 1, value
        seat = live.seat(pid)
        name = seat.name if seat else str(dict(game.player_specs).get(pid, pid))
        rows.append({"id": pid, "name": name, "place": place, "score": value,
                     "money": game.table.money(value)})
    reason = game.end_reason or ""
    words = END_REASONS.get(reason, reason.replace("_", " "))
    if reason == "bankrupt":
        words = "a player went bankrupt" if game.table.settings.bankruptcy_ends.value == "one" \
            else "every player but one went bankrupt"
    return {"reason": words, "code": reason,
            "winners": [r["name"] for r in rows if r["place"] == 1], "scores": rows}
