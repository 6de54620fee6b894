"""A short 1893: Cologne game written by hand, in the 18xx.games action format.

The script drafts the starting package, floats DE in the first stock round, and plays two
operating rounds, a forced auction, a stock round and part of a third operating round. It
is used by the tests that need a game in progress; named *checkpoints* mark the moments
those tests start from. It depends on nothing outside this repository.

Players: 1 (A), 2 (B), 3 (C), seed 1. After the draft A owns KFBE, KBE and FdSD; B owns EKB
and BKB; C owns KSZ and EVA.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import json
import types

from tracklayer.game import Game
from tracklayer.titles import title
from tracklayer.trace import snapshot

PLAYERS = [(1, "A"), (2, "B"), (3, "C")]
SEED = 1


def _player(pid):
    return {"entity": pid, "entity_type": "player"}


def _minor(sym):
    return {"entity": sym, "entity_type": "minor"}


def _corp(sym):
    return {"entity": sym, "entity_type": "corporation"}


def _route(train, connections, revenue):
    return {"train": train, "connections": connections, "revenue": revenue}


A, B, C = _player(1), _player(2), _player(3)
EKB, KFBE, KSZ, KBE, BKB = (_minor(s) for s in ("EKB", "KFBE", "KSZ", "KBE", "BKB"))
DE = _corp("DE")

# (checkpoint name or None, who, action fields). A checkpoint names the moment *before*
# its action is processed.
_STEPS = [
    # -- Draft: only privates and the two lowest-numbered minors are on offer, at face value.
    (None, A, {"type": "bid", "company": "KFBE", "price": 200}),
    (None, B, {"type": "bid", "company": "EKB", "price": 210}),
    ("draft", C, {"type": "bid", "company": "KSZ", "price": 100}),
    (None, A, {"type": "bid", "company": "KBE", "price": 220}),
    (None, B, {"type": "bid", "company": "BKB", "price": 180}),
    (None, C, {"type": "bid", "company": "EVA", "price": 150}),
    (None, A, {"type": "bid", "company": "FdSD", "price": 180}),
    # -- Stock round 1 (B, C, A).
    (None, B, {"type": "par", "corporation": "RSE", "share_price": "60,5,1"}),
    (None, C, {"type": "par", "corporation": "DE", "share_price": "70,4,2"}),
    (None, A, {"type": "pass"}),
    ("sr1", B, {"type": "buy_shares", "shares": ["RSE_1"], "percent": 10}),
    (None, C, {"type": "buy_shares", "shares": ["DE_1"], "percent": 10}),
    ("sr1_sell", C, {"type": "buy_shares", "shares": ["DE_2"], "percent": 10}),
    (None, C, {"type": "buy_shares", "shares": ["DE_3"], "percent": 10}),
    # -- Operating round 1.1 (phase 2): minors in order, then DE.
    ("or1_track", EKB, {"type": "lay_tile", "hex": "T3", "tile": "57-0", "rotation": 2}),
    ("or1_train", EKB, {"type": "buy_train", "train": "2-0", "price": 80}),
    (None, EKB, {"type": "pass"}),
    (None, KFBE, {"type": "lay_tile", "hex": "L3", "tile": "57-1", "rotation": 1}),
    (None, KFBE, {"type": "buy_train", "train": "2-1", "price": 80}),
    (None, KFBE, {"type": "pass"}),
    (None, KSZ, {"type": "lay_tile", "hex": "Q8", "tile": "58-0", "rotation": 2}),
    (None, KSZ, {"type": "buy_train", "train": "2-2", "price": 80}),
    ("ksz_poor", KSZ, {"type": "pass"}),
    (None, KBE, {"type": "lay_tile", "hex": "O4", "tile": "57-2", "rotation": 0}),
    (None, KBE, {"type": "buy_train", "train": "2-3", "price": 80}),
    (None, KBE, {"type": "pass"}),
    (None, BKB, {"type": "lay_tile", "hex": "I2", "tile": "6-0", "rotation": 3}),
    (None, BKB, {"type": "buy_train", "train": "2-4", "price": 80}),
    (None, BKB, {"type": "pass"}),
    ("de1_track", DE, {"type": "lay_tile", "hex": "O2", "tile": "6-1", "rotation": 2}),
    ("de1_train", DE, {"type": "buy_train", "train": "2-5", "price": 80}),
    (None, DE, {"type": "buy_train", "train": "2-6", "price": 80}),
    (None, DE, {"type": "pass"}),
    # -- Operating round 1.2.
    ("or2_track", EKB, {"type": "pass"}),
    ("or2_route", EKB, {"type": "run_routes",
                        "routes": [_route("2-0", [["T3", "U4"]], 30)]}),
    (None, EKB, {"type": "pass"}),
    (None, KFBE, {"type": "lay_tile", "hex": "K4", "tile": "9-0", "rotation": 1}),
    (None, KFBE, {"type": "run_routes",
                  "routes": [_route("2-1", [["L3", "K4", "J5"]], 40)]}),
    (None, KFBE, {"type": "pass"}),
    (None, KSZ, {"type": "pass"}),
    (None, KSZ, {"type": "run_routes", "routes": [_route("2-2", [["P7", "Q8"]], 30)]}),
    (None, KSZ, {"type": "pass"}),
    (None, KBE, {"type": "pass"}),
    (None, KBE, {"type": "pass"}),
    (None, BKB, {"type": "pass"}),
    (None, BKB, {"type": "pass"}),
    (None, DE, {"type": "lay_tile", "hex": "N3", "tile": "8-0", "rotation": 5}),
    ("de2_route", DE, {"type": "run_routes", "routes": [_route("2-5", [["O2", "N1"]], 40)]}),
    ("de2_dividend", DE, {"type": "dividend", "kind": "payout"}),
    ("de2_train", DE, {"type": "buy_train", "train": "3-0", "price": 180}),
    (None, DE, {"type": "pass"}),
    # -- Forced auction of the rest of the starting package (HdSK), price falling by 10.
    ("auction", A, {"type": "bid", "company": "HdSK", "price": 100}),
    (None, C, {"type": "pass"}),
    (None, C, {"type": "pass"}),
    (None, C, {"type": "pass"}),
    (None, A, {"type": "bid", "company": "HdSK", "price": 60}),
    # -- Stock round 2 (A, B, C).
    (None, A, {"type": "pass"}),
    ("sr2", C, {"type": "buy_shares", "shares": ["DE_4"], "percent": 10}),
    ("sr2_after_buy", A, {"type": "pass"}),
    ("sr2_may_sell", C, {"type": "pass"}),
    # -- Operating round 2.1 (phase 3: green tiles).
    (None, EKB, {"type": "pass"}),
    (None, EKB, {"type": "run_routes", "routes": [_route("2-0", [["T3", "U4"]], 30)]}),
    (None, EKB, {"type": "pass"}),
    (None, KFBE, {"type": "pass"}),
    (None, KFBE, {"type": "run_routes",
                  "routes": [_route("2-1", [["L3", "K4", "J5"]], 40)]}),
    (None, KFBE, {"type": "pass"}),
    (None, KSZ, {"type": "pass"}),
    (None, KSZ, {"type": "run_routes", "routes": [_route("2-2", [["P7", "Q8"]], 30)]}),
    (None, KSZ, {"type": "pass"}),
    ("kbe_upgrade", KBE, {"type": "lay_tile", "hex": "O4", "tile": "15-0", "rotation": 0}),
    (None, KBE, {"type": "run_routes",
                 "routes": [_route("2-3", [["O4", "N3", "O2"]], 50)]}),
    (None, KBE, {"type": "pass"}),
    (None, BKB, {"type": "pass"}),
    (None, BKB, {"type": "pass"}),
    (None, DE, {"type": "pass"}),
    ("de3_token", DE, {"type": "place_token", "city": "15-0-0"}),
    ("de3_route", DE, {"type": "run_routes",
                       "routes": [_route("3-0", [["O2", "N3", "O4"]], 50),
                                  _route("2-5", [["O2", "N1"]], 50)]}),
    ("de3_dividend", DE, {"type": "dividend", "kind": "withhold"}),
]


def script() -> list:
    """The whole action list (fresh copies), with ids 1, 2, 3 …"""
    return [dict(copy.deepcopy(fields), **who, id=i + 1)
            for i, (_, who, fields) in enumerate(_STEPS)]


CHECKPOINTS = {name: i for i, (name, _, _) in enumerate(_STEPS) if name}


def new_game() -> Game:
    return Game(title("1893"), PLAYERS, seed=SEED)


def game_at(checkpoint: str):
    """``(game, next_action)``: the game just before the action at ``checkpoint``, and that
    (legal) action."""
    index = CHECKPOINTS[checkpoint]
    actions = script()
    game = new_game()
    for h in actions[:index]:
        game.apply(h)
    return game, actions[index]


# What is only worked out from the state, not part of it: skipped by ``_deep``. A step's
# ``memo`` (the kinds of action each entity may take, remembered until the position
# changes), the round's remembered active step, the back-links to the table, and the
# answers remembered in a network.
_CACHES = {"memo", "_active", "table", "answers"}
# Fields nothing reads, skipped by ``_deep`` on objects of the class named: the chat step's
# ``acted`` flag (set when a message is taken; its ``lapse`` and ``reopen``, the only
# readers of ``acted``, do nothing), so that a chat message changes nothing.
_UNREAD = {("Chat", "acted")}


def _deep(root) -> object:
    """The whole state as plain, comparable data: every object reached from ``root`` with
    all its fields, in a fixed walk order; an object met again is written as a reference
    to its first appearance, so that who holds what is compared as well as what there is.
    The title's static data (charters, train kinds, tile parts) is written by name."""
    seen: dict = {}

    def walk(obj):
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return obj
        if isinstance(obj, enum.Enum):
            return f"{type(obj).__name__}.{obj.name}"
        if isinstance(obj, (list, tuple)):
            return [walk(x) for x in obj]
        if isinstance(obj, (set, frozenset)):
            return sorted(repr(walk(x)) for x in obj)
        if isinstance(obj, dict):
            return [[walk(k), walk(v)] for k, v in obj.items()]
        if isinstance(obj, (type, types.FunctionType, types.MethodType,
                            types.BuiltinFunctionType)):
            return f"<{getattr(obj, '__qualname__', repr(obj))}>"
        module = type(obj).__module__ or ""
        if module.startswith(("tracklayer.spec", "tracklayer.board", "tracklayer.title")) \
                and not module.startswith("tracklayer.titles"):
            return f"<static {type(obj).__name__} {getattr(obj, 'name', None) or repr(obj)}>"
        key = id(obj)
        if key in seen:
            return {"ref": seen[key]}
        seen[key] = len(seen)
        if dataclasses.is_dataclass(obj):
            fields = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
        elif hasattr(obj, "__dict__"):
            fields = dict(vars(obj))
        else:
            fields = {n: getattr(obj, n) for n in getattr(type(obj), "__slots__", ())
                      if hasattr(obj, n)}
        return {"@": seen[key], "class": type(obj).__name__,
                **{n: walk(v) for n, v in fields.items()
                   if n not in _CACHES and (type(obj).__name__, n) not in _UNREAD}}

    return walk(root)


def state(game) -> dict:
    """Everything observable about a game, for before/after comparisons: the trace snapshot,
    who holds which certificate (and the corporations' record of it), share prices, owners of
    companies and trains, the map (tile, rotation and tokens on every hex), the tile supply,
    whose turn it is and what they may do, the action list and the log — and, to leave
    nothing out, the whole state (``table.state``: round and steps included) as plain data."""
    table = game.table
    s = table.state
    entity = game.acting

    def name(holder):
        return getattr(holder, "id", None) if holder is not None else None

    def price(cell):
        return [list(cell), table.spec.cells[cell].price] if cell is not None else None

    return {
        "snapshot": snapshot(game, 0, {}),
        "holdings": {c.sym: sorted((str(name(h)), p) for h, p in c.holders.items() if p)
                     for c in s.corporations},
        "certificates": {cert.id: name(cert.owner)
                         for c in s.corporations for cert in c.certificates},
        "share_prices": {c.sym: price(c.price) for c in s.corporations},
        "companies": {c.sym: [name(c.owner), c.closed] for c in s.companies},
        "trains": {t.id: name(t.owner) for t in s.depot.every},
        "actions": json.dumps(list(game.actions), sort_keys=True),
        "map": {hex_id: [h.tile, h.rotation,
                         [[name(t.owner) if t else None for t in c.slots] for c in h.cities]]
                for hex_id, h in s.hexes.items()},
        "tiles": list(s.tiles),
        "round": [table.round.NAME, table.round.number, s.turn, table.phase.name],
        "current": name(entity),
        "may": table.round.kinds_for(entity) if entity is not None else [],
        "step": table.round.describe(),
        "messages": list(table.messages),
        "finished": [game.is_over, game.end_reason],
        "state": _deep(s),
    }
