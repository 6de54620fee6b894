"""The moves of a worked example as the engine saw them: each entry with the position
before and after it (:class:`Moment`), and what its explanation needs to know of the
position before it is applied (:func:`prepare`: the step taking it and the rule it
applies, the certificates bought and their price, the routes run and what each stop
earns, the holdings a dividend is shared by, the tile laid and what the hex costs).
:mod:`tracklayer.guide.tell` tells them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from ..actions import read
from ..errors import GameError
from ..rules import certificates, route_reading, tokens, track
from ..state.model import CorporationState, OperatorState
from .arith import Line, Value, line, money
from .facts import Facts
from .notes import Notes


@dataclass
class Moment:
    """One entry of the example game and the position around it."""
    index: int
    entry: dict
    taken_in: str                      # the round in which it was taken
    phase: str
    before: dict                       # the trace line before it
    after: dict                        # ... and after it
    cells_before: Dict[str, Tuple[int, int]]
    cells_after: Dict[str, Tuple[int, int]]
    messages: List[str]
    pre: Dict[str, object]             # what prepare() read before it
    operated: Dict[str, object]        # operators that operated in it: their operation
    round_after: str
    phase_after: str

    @property
    def kind(self) -> str:
        return str(self.entry.get("type"))

    @property
    def actor_id(self) -> str:
        return str(self.entry.get("entity"))


Holder = Tuple[str, str]               # ("cash", player id) or ("treasury", symbol)


def actor_purse(m: Moment) -> Holder:
    """The purse of whoever takes the move: a player's cash or a company's treasury."""
    return ("cash", m.actor_id) if m.entry.get("entity_type") == "player" else \
        ("treasury", m.actor_id)


def new_tokens(m: Moment, op: str) -> List[str]:
    """The hexes where ``op`` placed a station during the move."""
    held = m.after["corporations"].get(op) or m.after["minors"].get(op) or {}
    had = m.before["corporations"].get(op) or m.before["minors"].get(op) or {}
    return [h for h in held.get("tokens", []) if h not in had.get("tokens", [])]


@dataclass
class Flow:
    """A payment into (positive) or out of a purse, and what it is for."""
    holder: Holder
    amount: int
    label: str


@dataclass
class Context:
    """What explanations need of the title and the game."""
    f: Facts
    n: Notes
    table: object                      # the example's table (names, data)
    player: str                        # the followed player's id
    companies: List[str]               # the followed corporations and minors
    corporations: List[str]
    names: Dict[str, str]
    loans: bool
    rules_told: set = field(default_factory=set)     # the rules said so far
    bids: Dict[Tuple[str, str], int] = field(default_factory=dict)   # standing bids

    @classmethod
    def make(cls, f: Facts, n: Notes, game, player: str, companies: List[str]) -> "Context":
        table = game.table
        names = {str(p.id): p.name for p in table.state.players}
        corps = [c for c in companies if c in {x.sym for x in table.state.corporations}]
        return cls(f, n, table, player, companies, corps, names,
                   table.spec.data.loans is not None)

    def money(self, amount) -> str:
        return self.f.settings.format_money(amount)

    def name(self, key: str) -> str:
        return self.names.get(str(key), str(key))

    def company(self, sym: str) -> str:
        try:
            c = self.table.company(sym)
        except (KeyError, GameError):
            return sym
        if c is None:
            return sym
        return c.name if c.name.startswith(sym) else f"{sym} ({c.name})"

    def place(self, hex_id: str) -> str:
        printed = self.f.spec.hexes.get(hex_id)
        name = printed.name if printed is not None and printed.name else \
            self.f.data.map.names.get(hex_id)
        return f"{name} ({hex_id})" if name else hex_id

    def stop(self, hex_id: str, kind: str) -> str:
        """A stop of a route: the place's name, or what it is and where."""
        named = self.place(hex_id)
        if named != hex_id:
            return named
        return {"town": "a town", "offboard": "an off-board area"}.get(kind, "a city") + \
            f" ({hex_id})"

    def purse(self, state: dict, holder: Holder) -> Optional[int]:
        kind, key = holder
        if kind == "cash":
            p = state["players"].get(key)
            return None if p is None else p["cash"]
        held = state["corporations"].get(key) or state["minors"].get(key)
        return None if held is None else held["cash"]

    def purse_name(self, holder: Holder) -> str:
        kind, key = holder
        return f"{self.name(key)}'s cash" if kind == "cash" else f"{key}'s treasury"


    def intro(self, state: dict, data: dict, said: List[str]) -> List[Line]:
        """The position before the first move (``said``: what the game logged as it was
        set up)."""
        d = self.f.by_players[len(state["players"]) if len(state["players"]) in
                              self.f.by_players else max(self.f.by_players)]
        players = [p for p in data["players"]]
        cash = state["players"][str(players[0]["id"])]["cash"]
        out = [line(f"{len(players)} players, each starting with ",
                    Value(money(cash), ("cash", str(players[0]["id"])), -1),
                    f"; the certificate limit is {d.cert_limit}.")]
        for text in said:
            text = text.strip("- ").strip()
            if text and not text.startswith("Phase"):
                out.append(line(text.rstrip(".") + "."))
        return out


AUCTION_MOVES = ("bid", "pass", "offer", "place_token", "assign")


def sold(m: Moment) -> bool:
    """Whether an item changed hands in the move: a company got a new owner, or a
    corporation its first president."""
    for pid, p in m.after["players"].items():
        had = m.before["players"].get(pid, {}).get("companies", [])
        if any(sym not in had for sym in p["companies"]):
            return True
    return any(c["president"] and not (m.before["corporations"].get(sym) or {}).get("president")
               for sym, c in m.after["corporations"].items())


def runs(moments: List[Moment]) -> List[List[Moment]]:
    """The moves in runs: the bids (and passes) on one item of an auction together, up to
    its sale; every other move alone."""
    out: List[List[Moment]] = []
    open_run = False
    for m in moments:
        item = m.pre.get("company") or m.pre.get("corporation")
        first = out[-1][0].pre.get("company") or out[-1][0].pre.get("corporation") \
            if out else None
        joins = open_run and m.kind in AUCTION_MOVES and out[-1][-1].taken_in == m.taken_in \
            and (m.kind != "bid" or first is None or item == first)
        if joins:
            out[-1].append(m)
        else:
            out.append([m])
            open_run = m.kind in ("bid", "offer") and not sold(m)
        if joins and sold(m):
            open_run = False
    return out


def actor_name(m: Moment, ctx: "Context") -> str:
    return ctx.name(m.actor_id) if m.entry.get("entity_type") == "player" else m.actor_id


def delta(m: Moment, ctx: "Context", holder: Holder) -> int:
    """How much a purse changed during the move."""
    before, after = ctx.purse(m.before, holder), ctx.purse(m.after, holder)
    return (after or 0) - (before or 0)


# -- before a move -------------------------------------------------------------------------


def prepare(table, entry: dict) -> Dict[str, object]:
    """What the explanation of ``entry`` needs of the position before it."""
    out: Dict[str, object] = {}
    try:
        action = read(table, entry)
        step = table.round.step_taking(action)
        out["step_name"] = step.NAME
    except GameError:
        action = None
    kind = entry.get("type")
    reader = READERS.get(kind)
    if reader is not None and action is not None:
        reader(table, entry, action, out)
    return out


def _read_company(table, entry, action, out) -> None:
    if entry.get("corporation"):
        out["corporation"] = str(entry["corporation"])
    sym = entry.get("company")
    c = table.company(sym) if sym else None
    if c is None:
        return
    out["company"] = c.sym
    out["value"] = c.value
    out["minor"] = c.spec.minor


def _read_shares(table, entry, action, out) -> None:
    ids = entry.get("shares") or []
    if not ids:
        return
    sym, _, index = str(ids[0]).rpartition("_")
    corp = table.corporation(sym)
    cert = corp.certificates[int(index)]
    owner = cert.owner
    out["corporation"] = corp.sym
    out["percent"] = entry.get("percent") or sum(
        corp.certificates[int(str(i).rpartition("_")[2])].percent for i in ids)
    out["from"] = ("treasury" if owner is corp else "market" if owner is table.state.market
                   else "bank" if owner is table.state.bank else "player")
    out["price"] = table.spec.cells[corp.price].price if corp.price is not None else None
    out["share_percent"] = certificates.share_percent(corp)
    out["incremental"] = table.settings.capitalization.value == "incremental"


def _read_par(table, entry, action, out) -> None:
    corp = table.corporation(str(entry.get("corporation")))
    out["corporation"] = corp.sym
    out["percent"] = corp.certificates[0].percent
    out["par"] = int(str(entry.get("share_price", "0")).split(",")[0])


def _read_tile(table, entry, action, out) -> None:
    hex_id = entry.get("hex")
    here = table.state.hexes[hex_id]
    new = table.spec.tile_def(str(entry.get("tile")).rsplit("-", 1)[0])
    out["hex"] = hex_id
    old = here.tile.rsplit("-", 1)[0]
    out["old"] = (old, "printed") if here.printed is not None else \
        (old, table.spec.tile_def(old).color)
    out["new"] = (new.name, new.color)
    try:
        out["terrain"] = track.lay_cost(table, action.entity, hex_id, new, entry.get("rotation", 0))
    except (GameError, KeyError, AttributeError):
        out["terrain"] = None


def _read_token(table, entry, action, out) -> None:
    token = tokens.next_token(action.entity)
    out["hex"] = entry.get("city", "").rsplit("-", 1)[0] if entry.get("city") else None
    out["token_price"] = None if token is None else token.price


def _read_routes(table, entry, action, out) -> None:
    found = []
    try:
        runs = route_reading.read_routes(table, entry.get("routes") or [])
    except GameError:
        return
    for route in runs:
        stops = [(n.hex, n.kind, table.variant.stop_value(table, n, route.train))
                 for n in route.stops()]
        found.append((route.train.name, stops, route.revenue))
    out["routes"] = found


def _read_dividend(table, entry, action, out) -> None:
    op = action.entity
    if not isinstance(op, CorporationState):
        return
    out["shares"] = {str(p.id): certificates.shares_of(p, op) for p in table.state.players
                     if certificates.percent_of(p, op) > 0}
    out["total_shares"] = certificates.total_shares(op)
    out["own_shares"] = certificates.shares_of(op, op)
    out["market_shares"] = certificates.shares_of(table.state.market, op)


def _read_train(table, entry, action, out) -> None:
    train = next((t for t in table.state.depot.every if t.id == entry.get("train")), None)
    if train is None:
        return
    out["train"] = train.name
    owner = train.owner
    out["from"] = owner.sym if isinstance(owner, OperatorState) else None
    out["printed"] = train.variant.price


READERS: Dict[str, Callable] = {
    "bid": _read_company, "buy_company": _read_company, "sell_company": _read_company,
    "buy_shares": _read_shares, "sell_shares": _read_shares, "par": _read_par,
    "lay_tile": _read_tile, "place_token": _read_token, "run_routes": _read_routes,
    "dividend": _read_dividend, "buy_train": _read_train,
}
