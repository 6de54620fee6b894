"""Actions in the 18xx.games JSON format, resolved against a game's entities.

An action arrives as a dict (``{"type": "lay_tile", "entity": "DE", "hex": "O2", ...}``);
:func:`resolve` turns it into an :class:`Action` whose fields point at the game's objects.
Resolution happens just before the action is applied, because ids such as "the next unused
token" depend on the state of the game at that moment.
"""

from __future__ import annotations

from typing import Any

from .entities import ShareBundle
from .errors import ActionError

# Action types that never change the game.
NON_GAME_TYPES = ("message",)


class Item:
    """A choice offered by a step (e.g. "yes"/"no" in a vote)."""

    __slots__ = ("description", "cost")

    def __init__(self, description: str, cost: int = 0) -> None:
        self.description = description
        self.cost = cost


class Action:
    """An action with its fields resolved; ``h`` is the original dict."""

    def __init__(self, type: str, entity, h: dict) -> None:
        self.type = type
        self.entity = entity
        self.h = h
        self.id = h.get("id")

    def get(self, key: str, default: Any = None) -> Any:
        return self.h.get(key, default)

    def __repr__(self) -> str:
        return f"<Action {self.type} by {getattr(self.entity, 'id', None)} #{self.id}>"


def _require(h: dict, key: str):
    if h.get(key) is None:
        raise ActionError(f"{h.get('type')} action needs '{key}'")
    return h[key]


def _lookup(game, kind: str, key, what: str):
    obj = game.lookup(kind, key)
    if obj is None:
        raise ActionError(f"unknown {what} {key!r}")
    return obj


def resolve(game, h: dict) -> Action:
    """Turn an action dict into an :class:`Action` for ``game`` (raises ActionError)."""
    if not isinstance(h, dict):
        raise ActionError("an action must be a JSON object")
    type_ = h.get("type")
    if not isinstance(type_, str):
        raise ActionError("an action needs a 'type'")
    entity = game.lookup(h.get("entity_type"), h.get("entity"))
    if entity is None:
        if type_ in ("message", "undo", "redo") or type_.startswith("program_"):
            entity = game.lookup("player", h.get("entity")) or game.players[0]
        else:
            raise ActionError(f"unknown entity {h.get('entity')!r} ({h.get('entity_type')})")
    action = Action(type_, entity, h)
    parser = _PARSERS.get(type_)
    if parser is not None:
        parser(game, h, action)
    return action


def _company_target(game, h, action):
    target = None
    for kind in ("company", "corporation", "minor"):
        if h.get(kind) is not None:
            target = _lookup(game, kind, h[kind], kind)
            break
    action.company = target if target is not None and target.is_company else None
    action.corporation = target if target is not None and target.is_corporation else None
    action.minor = target if target is not None and target.is_minor else None
    action.target = target


def _bid(game, h, action):
    _company_target(game, h, action)
    action.price = _require(h, "price")
    if action.target is None:
        raise ActionError("a bid needs a company, corporation or minor")


def _par(game, h, action):
    action.corporation = _lookup(game, "corporation", _require(h, "corporation"), "corporation")
    price_id = _require(h, "share_price")
    action.share_price = game.stock_market.price_by_id(price_id)
    if action.share_price is None:
        raise ActionError(f"unknown share price {price_id!r}")
    action.purchase_for = game.lookup(h.get("purchase_for_type"), h.get("purchase_for"))


def _shares(game, h, action):
    ids = _require(h, "shares")
    shares = [_lookup(game, "share", i, "share") for i in ids]
    if not shares:
        raise ActionError("a share bundle must contain at least one share")
    if len(set(ids)) != len(ids):
        raise ActionError("a share is named twice")
    action.bundle = ShareBundle(shares, _bundle_percent(shares, h.get("percent")))
    price = h.get("share_price")
    if price is not None and not game.ACTION_SHARE_PRICES and \
            price != shares[0].price_per_share:
        raise ActionError(f"shares trade at the market price "
                          f"({shares[0].price_per_share}), not {price!r}")
    if h.get("swap") and not game.ACTION_SHARE_SWAPS:
        raise ActionError(f"{game.TITLE} has no share swaps")
    action.swap = game.lookup("share", h.get("swap")) if h.get("swap") else None
    action.purchase_for = game.lookup(h.get("purchase_for_type"), h.get("purchase_for"))
    action.borrow_from = game.lookup(h.get("borrow_from_type"), h.get("borrow_from"))
    action.total_price = h.get("total_price")


def _bundle_percent(shares, percent) -> int:
    """The percent a bundle stands for: that of its certificates, or less only when a
    president's certificate is sold in part (whole shares of the company)."""
    total = sum(s.percent for s in shares)
    if percent is None or percent == total:
        return total
    corporation = shares[0].corporation
    president = next((s for s in shares if s.president), None)
    if not isinstance(percent, int) or percent <= 0 or percent > total or president is None \
            or total - percent >= president.percent or percent % corporation.share_percent:
        raise ActionError(f"{percent!r}% is not the percent of shares "
                          f"{', '.join(s.id for s in shares)} ({total}%)")
    return percent


def _company(game, h, action):
    action.company = _lookup(game, "company", _require(h, "company"), "company")
    action.price = _require(h, "price")


def _lay_tile(game, h, action):
    action.tile = _lookup(game, "tile", _require(h, "tile"), "tile")
    action.hex = _lookup(game, "hex", _require(h, "hex"), "hex")
    rotation = _require(h, "rotation")
    if not isinstance(rotation, int) or not 0 <= rotation <= 5:
        raise ActionError(f"rotation must be 0-5, not {rotation!r}")
    action.rotation = rotation
    action.combo_entities = [_lookup(game, "company", c, "company")
                             for c in h.get("combo_entities") or []]


def _place_token(game, h, action):
    action.city = _lookup(game, "city", _require(h, "city"), "city")
    action.slot = h.get("slot")
    action.cost = h.get("cost")
    tokener = None
    if h.get("tokener"):
        tokener = game.lookup("corporation", h["tokener"]) or game.lookup("minor", h["tokener"])
    owner = tokener or (action.entity.owner if action.entity.is_company else action.entity)
    action.token = owner.find_token_by_type(h.get("token_type")) \
        if hasattr(owner, "find_token_by_type") else None


def _run_routes(game, h, action):
    routes = _require(h, "routes")
    if not isinstance(routes, list):
        raise ActionError("routes must be a list")
    action.routes = routes
    action.extra_revenue = h.get("extra_revenue") or 0
    action.subsidy = h.get("subsidy") or 0


def _dividend(game, h, action):
    action.kind = _require(h, "kind")
    action.amount = h.get("amount")


def _buy_train(game, h, action):
    action.train = _lookup(game, "train", _require(h, "train"), "train")
    action.price = _require(h, "price")
    action.variant = h.get("variant")
    action.exchange = game.lookup("train", h.get("exchange")) if h.get("exchange") else None
    action.shell = h.get("shell")
    action.slots = h.get("slots")


def _train(game, h, action):
    action.train = _lookup(game, "train", _require(h, "train"), "train")


def _special_buy(game, h, action):
    action.item = Item(_require(h, "description"), h.get("cost", 0))


def _choose(game, h, action):
    action.choice = _require(h, "choice")


def _assign(game, h, action):
    target = h.get("target")
    action.target = _lookup(game, h.get("target_type"), target, "assign target") \
        if target is not None else None


def _corporation(game, h, action):
    action.corporation = _lookup(game, "corporation", _require(h, "corporation"), "corporation")


def _loan(game, h, action):
    action.loan = h.get("loan")


_PARSERS = {
    "bid": _bid,
    "par": _par,
    "buy_shares": _shares,
    "sell_shares": _shares,
    "short": _shares,
    "buy_company": _company,
    "sell_company": _company,
    "lay_tile": _lay_tile,
    "place_token": _place_token,
    "run_routes": _run_routes,
    "dividend": _dividend,
    "buy_train": _buy_train,
    "discard_train": _train,
    "scrap_train": _train,
    "special_buy": _special_buy,
    "choose": _choose,
    "assign": _assign,
    "merge": _corporation,
    "take_loan": _loan,
    "payoff_loan": _loan,
}


def effective_actions(actions: list) -> tuple:
    """Apply ``undo`` and ``redo`` to a recorded action list.

    Returns ``(kept, pending_undos)``: ``kept[i]`` is the i-th entry if it is still in force
    (``None`` if undone, or if it is itself an undo/redo), and ``pending_undos`` the groups of
    undone entries a ``redo`` could restore. Chat messages are never undone.
    """
    kept: list = [None] * len(actions)
    undos: list = []
    for index, a in enumerate(actions):
        t = a.get("type")
        if t == "undo":
            target = a.get("action_id")
            if target is not None:
                if target == 0:
                    undo_to = 0
                else:
                    idx = next((i for i, x in enumerate(actions) if x.get("id") == target), None)
                    if idx is None:
                        raise ActionError(f"undo to unknown action id {target}")
                    undo_to = idx + 1
            else:
                undo_to = next((i for i in range(index - 1, -1, -1)
                                if kept[i] is not None and kept[i].get("type") != "message"), 0)
            group = []
            for i in range(undo_to, index):
                if kept[i] is not None and kept[i].get("type") != "message":
                    group.append((kept[i], i))
                    kept[i] = None
            undos.append(group)
        elif t == "redo":
            if not undos:
                raise ActionError("nothing to redo")
            for item, i in undos.pop():
                kept[i] = item
        elif t == "message":
            kept[index] = a
        else:
            undos.clear()
            kept[index] = a
    return kept, undos


def entity_type(entity) -> str:
    """The ``entity_type`` of an action taken by ``entity``."""
    if entity.is_player:
        return "player"
    if entity.is_corporation:
        return "corporation"
    if entity.is_minor:
        return "minor"
    return "company"


def action_hash(type_: str, entity, **fields) -> dict:
    """An action of ``entity`` in the 18xx.games format (without id)."""
    h = {"type": type_, "entity": entity.id, "entity_type": entity_type(entity)}
    h.update(fields)
    return h
