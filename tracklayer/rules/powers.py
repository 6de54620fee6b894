"""Private companies and the powers written on them (and on some charters).

A power works only while its company is owned as it says (by a player, or by a
corporation), and at the time it says: always (passive), in the owning corporation's
operating turn, in the owning player's stock round turn, or when an event happens (the
company is sold to a corporation, a corporation buys a train …). A power with a count is
gone once used up.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

from ..spec.data import Power, Timing
from ..state.model import CompanyState, CorporationState, OperatorState, PlayerState, PowerState
from . import money
from .table import Table


def _owning_corporation(holder):
    if isinstance(holder, CorporationState):
        return holder
    if isinstance(holder, CompanyState) and isinstance(holder.owner, CorporationState):
        return holder.owner
    return None


def _owning_player(holder):
    """The player owning ``holder``, through a company's or corporation's owner."""
    owner = holder
    while isinstance(owner, (CompanyState, OperatorState)):
        owner = owner.owner
    return owner if isinstance(owner, PlayerState) else None


def _in_corporation_turn(table: Table, power: PowerState) -> bool:
    r = table.round
    corporation = _owning_corporation(power.holder)
    return r.is_operating and corporation is not None and r.operator is corporation


def _in_player_stock_turn(table: Table, power: PowerState) -> bool:
    r = table.round
    player = _owning_player(power.holder)
    return r.is_stock and player is not None and r.acting() is player


# When a timed power may be used, unless an event is asked for.
IN_TURN: Dict[Timing, Callable[[Table, PowerState], bool]] = {
    Timing.ANY: lambda table, power: True,
    Timing.OWNING_CORPORATION_TURN: _in_corporation_turn,
    Timing.OWNING_PLAYER_STOCK_TURN: _in_player_stock_turn,
}


def owned_as_required(power: PowerState) -> bool:
    holder = power.holder.owner if isinstance(power.holder, CompanyState) else None
    wanted = power.spec.owner
    if wanted == "player":
        return holder is None or isinstance(holder, PlayerState)
    if wanted == "corporation":
        return holder is not None and isinstance(holder, CorporationState)
    return True


PLAYER_TIMINGS = (Timing.OWNING_PLAYER_STOCK_TURN,)


def all_powers(entity) -> List[PowerState]:
    """The entity's powers. A corporation's include those of the companies it owns, and
    the powers for its owning player of the companies its president owns."""
    if isinstance(entity, CorporationState):
        out = [p for c in entity.companies for p in c.powers] + entity.powers
        owner = entity.owner
        if isinstance(owner, PlayerState):
            out.extend(p for c in owner.companies for p in c.powers
                       if any(w in PLAYER_TIMINGS for w in p.spec.when))
        return out
    if isinstance(entity, (CompanyState, OperatorState)):
        return list(entity.powers)
    return []


def powers(table: Table, entity, kind: Optional[str] = None, *,
           event: Optional[Timing] = None, timed_only: bool = False) -> List[PowerState]:
    """The powers of ``entity`` (of ``kind``) that work now, or at ``event``
    (``timed_only``: leave out those always in force)."""
    if entity is None:
        return []
    out = []
    for p in all_powers(entity):
        spec = p.spec
        if kind is not None and spec.kind != kind:
            continue
        if timed_only and not spec.when:
            continue
        if not owned_as_required(p):
            continue
        if _works(table, p, event):
            out.append(p)
    return out


def _works(table: Table, power: PowerState, event: Optional[Timing]) -> bool:
    when = power.spec.when
    if Timing.ANY in when or not when:
        return True
    if event is not None:
        return event in when
    return any(IN_TURN[w](table, power) for w in when if w in IN_TURN)


def use(table: Table, power: PowerState) -> None:
    """The power is used once; with no uses left it is gone."""
    power.used = True
    if power.uses_left is None:
        return
    power.uses_left -= 1
    if power.uses_left <= 0:
        remove(power)


def remove(power: PowerState) -> None:
    holder = power.holder
    holder.powers = [p for p in holder.powers if p is not power]


def grant(holder, spec: Power) -> PowerState:
    power = PowerState(spec, holder, spec.count)
    holder.powers.append(power)
    return power


def close_company(table: Table, company: CompanyState) -> None:
    """A private company closes: it leaves its owner and its powers are gone."""
    company.closed = True
    company.powers = []
    owner = company.owner
    if owner is not None:
        if company in owner.companies:
            owner.companies.remove(company)
        company.owner = None


def close_on(table: Table, corporation, event: Timing) -> None:
    """Companies whose power says they close when ``corporation`` does ``event``. (Asked
    at every train bought and every run: only companies with such a power naming the
    corporation are looked at further.)"""
    if corporation is None:
        return
    name = corporation.name
    for company in list(table.state.companies):
        if company.closed:
            continue
        for p in company.powers:      # (few: a plain loop is quickest)
            if p.spec.kind == "close" and p.spec.corporation == name:
                break
        else:
            continue
        for p in powers(table, company, "close", event=event):
            if p.spec.corporation != name:
                continue
            close_company(table, company)
            table.log(f"{company.name} closes")


def pay_revenues(table: Table) -> None:
    """Private companies pay their revenue to their owners (players in seat order, then
    corporations by name)."""
    state = table.state
    paying = [c for c in state.companies if c.owner is not None and c.revenue > 0]

    def order(c: CompanyState):
        if isinstance(c.owner, PlayerState):
            return ((0, state.players.index(c.owner), ""), c.revenue, c.name)
        return ((1, 0, c.owner.name), c.revenue, c.name)

    for company in sorted(paying, key=order):
        if company.owner is state.bank:
            continue
        money.pay(table, state.bank, company.owner, company.revenue)
        if table.keep_log:
            table.log(f"{company.owner.name} collects {table.money(company.revenue)} "
                      f"from {company.name}")


def hex_blocker(table: Table, entity, hex_id: str) -> Optional[PowerState]:
    """A power of another company that keeps ``entity`` from laying track on the hex.
    (Every power is held by a company or operator: most hexes no power names at all, which
    is looked at first, in the title's specs, then in the powers held.)"""
    if hex_id not in table.spec.blockable_hexes:
        return None
    state = table.state
    holders = (state.companies, state.minors, state.corporations)
    if not _named_by_a_block(holders, hex_id):
        return None
    for e in (e for group in holders for e in group):
        if e.closed or e is entity:
            continue
        for p in powers(table, e, "blocks_hexes"):
            if hex_id in p.spec.hexes:
                return p
    return None


def _named_by_a_block(holders: tuple, hex_id: str) -> bool:
    """Does a ``blocks_hexes`` power of any of the holders (lists of entities) name the
    hex? (Asked of every lay judged: plain loops.)"""
    for group in holders:
        for e in group:
            for p in e.powers:
                spec = p.spec
                if spec.kind == "blocks_hexes" and hex_id in spec.hexes:
                    return True
    return False


def buyable_from_players(table: Table, buyer=None) -> List[CompanyState]:
    """Companies owned by players (other than ``buyer``) that may be sold to another."""
    return [c for c in table.state.companies
            if isinstance(c.owner, PlayerState) and c.owner is not buyer
            and not powers(table, c, "no_buy")]


def give(table: Table, company: CompanyState, new_owner) -> None:
    """The company changes owner (no money involved)."""
    owner = company.owner
    if owner is not None and company in owner.companies:
        owner.companies.remove(company)
    company.owner = new_owner
    new_owner.companies.append(company)
