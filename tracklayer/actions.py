"""Actions in the 18xx.games JSON format, read against a game.

An action arrives as a dict (``{"type": "lay_tile", "entity": "DE", "hex": "O2", ...}``);
:func:`read` turns it into an :class:`Action` whose fields are the game's objects. It is
read just before it is applied, because some names ("the company's next token") depend
on the moment. A malformed action raises :class:`ActionError`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from .board.notation import StopPart
from .errors import ActionError
from .rules import board
from .rules.certificates import Bundle, share_value
from .rules.table import Table
from .rules.tokens import next_token
from .state.model import CompanyState, CorporationState, MinorState, OperatorState, PlayerState

PROGRAM_KINDS = ("program_auction_bid", "program_buy_shares", "program_independent_mines",
                 "program_merger_pass", "program_harzbahn_draft_pass", "program_share_pass",
                 "program_close_pass", "program_disable")


class Action:
    """An action read against the game; ``h`` is the dict it came from."""

    def __init__(self, kind: str, entity, h: dict) -> None:
        self.kind = kind
        self.entity = entity
        self.h = h
        self.id = h.get("id")
        self.order: Optional[int] = None     # its place among the actions carried out

    def get(self, key: str, default: Any = None) -> Any:
        return self.h.get(key, default)

    def __repr__(self) -> str:
        who = self.entity.id if self.entity is not None else None
        return f"<Action {self.kind} by {who} #{self.id}>"


class OffMap:
    """A city of a tile that is not on the map."""

    def __init__(self, city_id: str) -> None:
        self.id = city_id


def _need(h: dict, key: str):
    if h.get(key) is None:
        raise ActionError(f"{h.get('type')} action needs '{key}'")
    return h[key]


def _find(table: Table, kind: str, key, what: str):
    found = table.find(kind, key)
    if found is None:
        raise ActionError(f"unknown {what} {key!r}")
    return found


def entity_kind(entity) -> str:
    """The ``entity_type`` of an action taken by ``entity``."""
    if isinstance(entity, PlayerState):
        return "player"
    if isinstance(entity, CorporationState):
        return "corporation"
    if isinstance(entity, MinorState):
        return "minor"
    return "company"


def new_action(action_type: str, entity, **fields) -> dict:
    """An action of ``entity`` in the 18xx.games format (without id)."""
    h = {"type": action_type, "entity": entity.id, "entity_type": entity_kind(entity)}
    h.update(fields)
    return h


def read(table: Table, h) -> Action:
    """Read an action dict against ``table`` (raises ActionError when malformed)."""
    if not isinstance(h, dict):
        raise ActionError("an action must be a JSON object")
    kind = h.get("type")
    if not isinstance(kind, str):
        raise ActionError("an action needs a 'type'")
    entity_id = h.get("entity")
    entity = table.find(h.get("entity_type"), entity_id)
    if entity is None:
        if kind in ("message", "undo", "redo") or kind.startswith("program_"):
            entity = table.find("player", entity_id) or table.state.players[0]
        else:
            raise ActionError(f"unknown entity {entity_id!r} ({h.get('entity_type')})")
    action = Action(kind, entity, h)
    reader = READERS.get(kind)
    if reader is not None:
        reader(table, h, action)
    return action


# -- readers by action type --------------------------------------------------------------


def _target(table: Table, h, action) -> None:
    target = None
    for kind in ("company", "corporation", "minor"):
        if h.get(kind) is not None:
            target = _find(table, kind, h[kind], kind)
            break
    action.target = target
    action.company = target if isinstance(target, CompanyState) else None
    action.corporation = target if isinstance(target, CorporationState) else None
    action.minor = target if isinstance(target, MinorState) else None


def _bid(table: Table, h, action) -> None:
    _target(table, h, action)
    action.price = _money(h, "price")
    if action.target is None:
        raise ActionError("a bid needs a company, corporation or minor")


def _par(table: Table, h, action) -> None:
    action.corporation = _find(table, "corporation", _need(h, "corporation"), "corporation")
    price_id = _need(h, "share_price")
    action.cell = table.spec.cell_by_id(price_id)
    if action.cell is None:
        raise ActionError(f"unknown share price {price_id!r}")
    action.purchase_for = table.find(h.get("purchase_for_type"), h.get("purchase_for"))


def bundle_percent(certs, percent) -> int:
    """The percent a bundle stands for: its certificates', or less only when a president's
    certificate is sold in part (in whole shares)."""
    total = sum(c.percent for c in certs)
    if percent is None or percent == total:
        return total
    president = next((c for c in certs if c.president), None)
    share = certs[0].corporation.certificates[1].percent
    if not isinstance(percent, int) or percent <= 0 or percent > total or president is None \
            or total - percent >= president.percent or percent % share:
        raise ActionError(f"{percent!r}% is not the percent of shares "
                          f"{', '.join(c.id for c in certs)} ({total}%)")
    return percent


def _shares(table: Table, h, action) -> None:
    ids = _need(h, "shares")
    certs = [_find(table, "share", i, "share") for i in ids]
    if not certs:
        raise ActionError("a share bundle must contain at least one share")
    if len(set(ids)) != len(ids):
        raise ActionError("a share is named twice")
    action.bundle = Bundle.of(certs, bundle_percent(certs, h.get("percent")))
    price = h.get("share_price")
    if price is not None and price != share_value(table, certs[0]):
        raise ActionError(f"shares trade at the market price "
                          f"({share_value(table, certs[0])}), not {price!r}")
    if h.get("swap"):
        raise ActionError(f"{table.spec.title} has no share swaps")
    action.swap = None
    action.purchase_for = table.find(h.get("purchase_for_type"), h.get("purchase_for"))


def _company(table: Table, h, action) -> None:
    action.company = _find(table, "company", _need(h, "company"), "company")
    action.price = _money(h, "price")


def tile_known(table: Table, tile_id) -> bool:
    if not isinstance(tile_id, str):
        return False
    name = tile_id.rsplit("-", 1)[0]
    return tile_id in table.spec.supply_ids or tile_id in table.spec.printed_tiles or \
        (name in table.spec.unlimited_tiles and (tile_id in table.state.tiles or
                                                 board.where_is_tile(table, tile_id) is not None))


def _lay_tile(table: Table, h, action) -> None:
    tile_id = _need(h, "tile")
    if not tile_known(table, tile_id):
        raise ActionError(f"unknown tile {tile_id!r}")
    hex_id = _need(h, "hex")
    if hex_id not in table.state.hexes:
        raise ActionError(f"unknown hex {hex_id!r}")
    rotation = _need(h, "rotation")
    if not isinstance(rotation, int) or isinstance(rotation, bool) or not 0 <= rotation <= 5:
        raise ActionError(f"rotation must be 0-5, not {rotation!r}")
    action.tile_id = tile_id
    if tile_id in table.spec.supply_ids or tile_id in table.state.tiles:
        action.tile = table.spec.tile_defs[tile_id.rsplit("-", 1)[0]]
    else:
        action.tile = table.spec.printed_tile(tile_id)
    action.hex = hex_id
    action.rotation = rotation
    action.combo = [_find(table, "company", c, "company") for c in h.get("combo_entities") or []]


def supply_lays(entity) -> Callable[[str, object, str, int], Action]:
    """A maker of ``lay_tile`` actions of ``entity`` laying a tile of the supply
    (``tile_id``, of shape ``tile``) on a hex of the map in a rotation 0-5, made as
    :func:`read` reads their dicts (``.h``, :func:`new_action`): for moves listed, made
    and read at once; what the entity's actions share is made once (listing makes one
    for each candidate lay)."""
    head = new_action("lay_tile", entity)

    def make(tile_id: str, tile, hex_id: str, rotation: int) -> Action:
        action = Action("lay_tile", entity, dict(head, hex=hex_id, tile=tile_id,
                                                 rotation=rotation))
        action.tile_id = tile_id
        action.tile = tile
        action.hex = hex_id
        action.rotation = rotation
        action.combo = []
        return action
    return make


def city_node(table: Table, city_id) -> Optional[object]:
    """The city called ``<tile id>-<part index>``: a node on the map, an :class:`OffMap`,
    or None if there is no such city."""
    if not isinstance(city_id, str) or city_id.count("-") < 2:
        return None
    tile_id, _, index = city_id.rpartition("-")
    if not index.isdigit() or not tile_known(table, tile_id):
        return None
    hex_id = board.where_is_tile(table, tile_id)
    if hex_id is None:
        shape = table.spec.tile_defs.get(tile_id.rsplit("-", 1)[0])
        if shape is None or int(index) >= len(shape.parts) or \
                not isinstance(shape.parts[int(index)], StopPart) or \
                shape.parts[int(index)].kind != "city":
            return None
        return OffMap(city_id)
    node = board.view(table, hex_id).nodes.get(int(index))
    return node if node is not None and node.is_city else None


def _slot(h: dict) -> Optional[int]:
    """The slot of a city an action names, if it names one: a whole number from 0."""
    slot = h.get("slot")
    if slot is not None and (not isinstance(slot, int) or isinstance(slot, bool) or slot < 0):
        raise ActionError(f"slot must be a whole number from 0, not {slot!r}")
    return slot


def _place_token(table: Table, h, action) -> None:
    """The city and the token; the slot named (a token goes where the city's rules put
    it, whichever slot is named); the tokener, a corporation or else a minor (the format
    gives it no type: no title shares an id between the two)."""
    city_id = _need(h, "city")
    action.city = city_node(table, city_id)
    if action.city is None:
        raise ActionError(f"unknown city {city_id!r}")
    action.slot = _slot(h)
    tokener = None
    if h.get("tokener"):
        tokener = table.find("corporation", h["tokener"]) or table.find("minor", h["tokener"])
    owner = tokener or (action.entity.owner if isinstance(action.entity, CompanyState)
                        else action.entity)
    action.token = next_token(owner, h.get("token_type")) \
        if isinstance(owner, OperatorState) else None


def _remove_token(table: Table, h, action) -> None:
    city_id = _need(h, "city")
    action.city = city_node(table, city_id)
    if action.city is None or isinstance(action.city, OffMap):
        raise ActionError(f"unknown city {city_id!r}")
    action.slot = _slot(h)


def _whole_number(h: dict, key: str) -> int:
    """An optional amount of money: a whole number where given, 0 where not."""
    value = h.get(key)
    if value is None:
        return 0
    if not isinstance(value, int) or isinstance(value, bool):
        raise ActionError(f"{h.get('type')} action's '{key}' must be a whole number, "
                          f"not {value!r}")
    return value


def _money(h: dict, key: str) -> int:
    """An amount of money the action must name (a bid, a price): a whole number
    (:func:`_whole_number`; 51.5, text or true are refused for what they are)."""
    _need(h, key)
    return _whole_number(h, key)


def _run_routes(table: Table, h, action) -> None:
    routes = _need(h, "routes")
    if not isinstance(routes, list):
        raise ActionError("routes must be a list")
    action.routes = routes
    action.extra_revenue = _whole_number(h, "extra_revenue")
    action.subsidy = _whole_number(h, "subsidy")


def _dividend(table: Table, h, action) -> None:
    action.dividend = _need(h, "kind")


def _buy_train(table: Table, h, action) -> None:
    action.train = _find(table, "train", _need(h, "train"), "train")
    action.price = _money(h, "price")
    action.variant = h.get("variant")
    action.exchange = table.find("train", h.get("exchange")) if h.get("exchange") else None


def _train(table: Table, h, action) -> None:
    action.train = _find(table, "train", _need(h, "train"), "train")


def _special_buy(table: Table, h, action) -> None:
    action.item = _need(h, "description")


def _choose(table: Table, h, action) -> None:
    action.choice = _need(h, "choice")


def _loan(table: Table, h, action) -> None:
    """A loan of the bank's, named by its number as 18xx.games numbers them (from 0, as
    many as the bank has). 18xx.games needs it named, but takes (or repays) the loan at
    the top of its pile whichever is named; so do the rules here, which count loans."""
    loan = _need(h, "loan")
    terms = table.spec.data.loans
    if terms is None:
        raise ActionError(f"{table.spec.title} has no loans")
    if not isinstance(loan, int) or isinstance(loan, bool) or not 0 <= loan < terms.count:
        raise ActionError(f"{loan!r} is not one of the bank's loans "
                          f"(0 to {terms.count - 1})")
    action.loan = loan


def _program_buy(table: Table, h, action) -> None:
    """A standing order to buy names its corporation, and buys until it floats or until
    the player holds so many shares."""
    action.corporation = _find(table, "corporation", _need(h, "corporation"), "corporation")
    until = _need(h, "until_condition")
    if until != "float" and (not isinstance(until, int) or isinstance(until, bool)
                             or until <= 0):
        raise ActionError(f"a buying program runs until 'float' or a number of shares, "
                          f"not {until!r}")


def _assign(table: Table, h, action) -> None:
    target = h.get("target")
    action.target = None
    if target is None:
        return
    if h.get("target_type") == "hex":
        if target not in table.state.hexes:
            raise ActionError(f"unknown assign target {target!r}")
        action.target = target
        return
    action.target = _find(table, h.get("target_type"), target, "assign target")


READERS: Dict[str, Callable[[Table, dict, Action], None]] = {
    "bid": _bid, "par": _par, "buy_shares": _shares, "sell_shares": _shares,
    "buy_company": _company, "sell_company": _company, "lay_tile": _lay_tile,
    "place_token": _place_token, "run_routes": _run_routes, "dividend": _dividend,
    "buy_train": _buy_train, "discard_train": _train, "special_buy": _special_buy,
    "choose": _choose, "assign": _assign, "short": _target, "merge": _target,
    "remove_token": _remove_token, "take_loan": _loan, "payoff_loan": _loan,
    "program_buy_shares": _program_buy,
}
