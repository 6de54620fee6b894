"""Station tokens: where an operator may place one, and placing it.

A token goes in a free slot of a city (or the slot reserved for its owner), one per hex
and operator, if the operator can pay for it; slots reserved for others on the hex stay
theirs while free slots are needed for them.
"""

from __future__ import annotations

from typing import List, Optional

from ..state.model import TokenState
from . import board, money
from .board import Node, free_slot, reservation_slot, slot_for
from .table import Table


def unplaced(operator) -> List[TokenState]:
    """One token of each kind the operator still has on its charter (cheapest first as
    listed)."""
    seen, out = set(), []
    for t in operator.tokens:
        if t.where is None and t.kind not in seen:
            seen.add(t.kind)
            out.append(t)
    return out


def next_token(operator, kind: Optional[str] = None) -> Optional[TokenState]:
    kind = kind or "normal"
    for t in operator.tokens:
        if t.where is None and t.kind == kind:
            return t
    return None


def any_unplaced(operator) -> Optional[TokenState]:
    return next((t for t in operator.tokens if t.where is None), None)


def free_slots(city) -> int:
    reservations = city.reservations
    return sum(1 for i, t in enumerate(city.slots)
               if t is None and (i >= len(reservations) or reservations[i] is None))


def _blocked_by_reservations(table: Table, hex_id: str, operator) -> bool:
    """Do reservations of the hex (not of one city) keep the operator out: as many others
    have them as there are free slots?"""
    h = table.state.hexes[hex_id]
    if not h.reservations:
        return False
    others = sum(1 for r in h.reservations if r is not operator)
    return others >= sum(free_slots(c) for c in h.cities)


def problem(table: Table, operator, node: Node, tokens: List[TokenState], *,
            free: bool = False, cheater: bool = False, extra: bool = False, payer=None,
            same_hex_ok: bool = False) -> Optional[str]:
    """Why none of ``tokens`` can go in city ``node``, or None if one can (the reason
    given is what keeps out the last of them)."""
    if not extra and not tokens:
        return f"{operator.name} has no tokens left"
    reason = "cannot token here"
    for t in tokens:
        reason = _keeps_out(table, operator, node, t, free=free, cheater=cheater, extra=extra,
                            payer=payer, same_hex_ok=same_hex_ok)
        if reason is None:
            return None
    return reason


def _keeps_out(table: Table, operator, node: Node, token: TokenState, *, free: bool,
               cheater: bool, extra: bool, payer, same_hex_ok: bool) -> Optional[str]:
    """The first rule keeping ``token`` out of the city, or None. A token needs a slot
    (unless it goes in an extra one), is paid for (unless free), goes where its owner has
    none on the hex yet (unless allowed), and leaves the hex's slots others reserved
    (unless the operator has one reserved in this city, or cheats)."""
    hex_id = node.hex
    if not extra and slot_for(node.city, token.owner, cheater) is None:
        return f"no token slot available in {hex_id}"
    if not free and token.price > (payer or operator).cash:
        return f"{operator.name} cannot afford a token for {token.price}"
    if not same_hex_ok and any(c.holds(token.owner) for c in board.view(table, hex_id).cities):
        return f"{operator.name} already has a token on {hex_id}"
    if reservation_slot(node.city, operator) is None and not cheater \
            and _blocked_by_reservations(table, hex_id, operator):
        return f"the remaining token slots on {hex_id} are reserved"
    return None


def place(table: Table, operator, node: Node, token: TokenState, *, cheater: bool = False,
          extra: bool = False) -> None:
    """Put the token in the city; the operator's reservations there are used up."""
    board.put_token(table, node.hex, _city_index(table, node), token, cheater=cheater,
                    extra=extra)
    h = table.state.hexes[node.hex]
    if operator in h.reservations:
        h.reservations.remove(operator)
    board.clear_city_reservation(node.city, operator)


def pay_for(table: Table, payer, token: TokenState) -> None:
    if token.price > 0:
        money.pay(table, payer, table.state.bank, token.price)


def _city_index(table: Table, node: Node) -> int:
    return board.view(table, node.hex).cities.index(node)


def tokenable(table: Table, operator, node: Node, tokens, **kw) -> bool:
    return problem(table, operator, node, tokens, **kw) is None


def has_free_slot(node: Node) -> bool:
    return node.city is not None and free_slot(node.city) is not None
