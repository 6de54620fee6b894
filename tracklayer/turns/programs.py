"""Programmed actions in a stock round: a player's standing orders to pass, or to buy a
share a turn of a corporation until it floats or they hold so many.

A program stops (and says why) when the player must sell, or when another player has
done something since it was set that the player might want to react to: started a
corporation, sold shares, bought into the player's corporation so that its presidency is
no longer safe.
"""

from __future__ import annotations

from typing import List, Optional

from ..actions import new_action
from ..rules import certificates, operators, trading
from ..rules.certificates import Bundle, share_percent
from ..state.model import PlayerState


def _before(action, program: dict) -> bool:
    """Was ``action`` taken before ``program`` was set (by id, else by time)?"""
    if action.id is not None and program.get("id") is not None:
        return action.id < program["id"]
    return (action.get("created_at") or 0) < (program.get("created_at") or 0)


def stock_programs(step, entity) -> Optional[List[dict]]:
    """What the player's programs do now."""
    player = entity if isinstance(entity, PlayerState) else entity.owner
    programs = step.table.state.programs.get(player, [])
    if not programs:
        return None
    out: List[dict] = []
    for program in programs:
        run = PROGRAMS.get(program.get("type"))
        if run is None:
            continue
        found = run(step, entity, program)
        if found:
            out.extend(found)
    return out


def _pass_program(step, entity, program: dict):
    """Pass for the player, unless something happened they would want to react to."""
    if "pass" not in step.kinds(entity):
        return None
    if not program.get("unconditional"):
        reason = step.program_stop_reason(entity, program, None)
        if reason:
            return [new_action("program_disable", entity, reason=reason)]
    return [new_action("pass", entity)]


def _buy_program(step, entity, program: dict):
    """Buy one share a turn of a corporation until it floats or the player holds the
    number of shares asked for."""
    table = step.table
    corporation = table.corporation(program.get("corporation"))
    until = program.get("until_condition")
    reason = None
    if until == "float":
        if operators.has_floated(table, corporation) or \
                operators.percent_to_float(table, corporation) == 0:
            reason = f"{corporation.name} is floated"
    elif certificates.shares_of(entity, corporation) >= until:
        reason = f"{until} share(s) bought in {corporation.name}, end condition met"
    if reason:
        out = [new_action("program_disable", entity, reason=reason)]
        if program.get("auto_pass_after"):
            out.append(new_action("program_share_pass", entity, unconditional=False,
                                  indefinite=False))
        return out
    available = step.kinds(entity)
    if "buy_shares" in available:
        if step.program_buys_from_market(program):
            source, pile = "market", certificates.held(table.state.market, corporation)
        else:
            source, pile = "IPO", certificates.treasury(corporation)
        by_percent: dict = {}
        for cert in pile:
            if step.may_buy(entity, Bundle.of([cert])):
                by_percent.setdefault(cert.percent, []).append(cert)
        if not by_percent:
            return [new_action("program_disable", entity,
                               reason=f"Cannot buy {corporation.name} from {source}")]
        if len(by_percent) != 1:
            return [new_action("program_disable", entity,
                               reason="Shares of different sizes exist, cannot auto buy "
                                      f"{corporation.name} from {source}")]
        cert = next(iter(by_percent.values()))[0]
        reason = step.program_stop_reason(entity, program, cert)
        if reason:
            return [new_action("program_disable", entity, reason=reason)]
        return [new_action("buy_shares", entity, shares=[cert.id], percent=cert.percent)]
    if step.bought() and "pass" in available:
        if until == "float" and operators.has_floated(table, corporation):
            return None
        return [new_action("pass", entity)]
    return None


PROGRAMS = {"program_share_pass": _pass_program, "program_buy_shares": _buy_program}

SAFE_PERCENT = 50


def stop_reason(step, entity, program: dict, buying) -> Optional[str]:
    """Why the program should stop now, if it should."""
    if step.must_sell(entity):
        return f"{entity.name} must sell shares"
    for other, corporations in step.round.notes.history.items():
        if other is entity:
            continue
        for corporation, actions in corporations.items():
            for action in actions:
                if _before(action, program):
                    continue
                reason = _worrying(step, entity, other, action, corporation, buying)
                if reason:
                    return reason
    return None


def _worrying(step, entity, other, action, corporation, buying) -> Optional[str]:
    """Would ``action`` by ``other`` make ``entity`` reconsider its program?"""
    table = step.table
    target = buying.corporation if buying is not None else None
    if action.kind == "par":
        if target is None or trading.sale_timing_allows(table, corporation):
            return f"Corporation {corporation.name} parred"
        return None
    if action.kind == "buy_shares":
        if action.entity is corporation:
            return f"{corporation.name} redeemed a share."
        if corporation.owner is not entity:
            return None
        own = certificates.percent_of(corporation.owner, corporation)
        if own >= SAFE_PERCENT:
            return None
        if corporation is not target:
            return f"{other.name} bought on corporation {corporation.name} and is unsecure"
        percentage = own + buying.percent
        if percentage > SAFE_PERCENT:
            return None
        bigger = [c for c in corporation.certificates if c.percent > buying.percent
                  and (c.owner is not entity or c.owner is not corporation.owner)]
        if bigger:
            biggest = max(bigger, key=lambda c: c.percent)
            other_percent = certificates.percent_of(action.entity, corporation) + \
                biggest.percent
            if percentage < other_percent:
                return (f"{other.name} has bought, shares exist that could allow them to "
                        "gain presidency")
        return None
    if action.kind == "sell_shares":
        return "Shares were sold"
    if action.kind == "take_loan":
        return f"{corporation.name} took a loan"
    return f"Unknown action {action.kind} disabling for safety"


def keep_across_rounds(table, program: dict) -> bool:
    """Programs end when the round changes, except passing (and buying) in stock rounds
    while stock rounds go on, and passing set to last."""
    kind = program.get("type")
    if kind == "program_share_pass":
        return table.round.is_stock or bool(program.get("indefinite"))
    if kind == "program_buy_shares":
        return table.round.is_stock
    return False


__all__ = ["share_percent"]
