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
from ..rules.certificates import share_percent
from ..state.model import PlayerState
from .listing import accepted


def _before(action, program: dict) -> bool:
    """Was ``action`` carried out before ``program`` was set? (18xx.games compares ids,
    and, for a program or action with none, one a program sets, the times they were
    made: the order they were carried out in, in either case.)"""
    return action.order < program["set_at"]


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
    """Pass for the player, an ordinary pass (``StockTurn.passes_plainly``), unless
    something happened they would want to react to."""
    if "pass" not in step.kinds(entity) or not step.passes_plainly(entity):
        return None
    if not program.get("unconditional"):
        reason = step.program_stop_reason(entity, program, None)
        if reason:
            return [_stop(entity, reason)]
    return [new_action("pass", entity)]


def _buy_program(step, entity, program: dict):
    """Buy one share a turn of a corporation until it floats or the player holds the
    number of shares asked for; then the program ends (passing from then on, if set
    so). A turn in which the share was bought ends with a pass."""
    table = step.table
    corporation = table.corporation(program.get("corporation"))
    until = program.get("until_condition")
    reason = _target_met(table, entity, corporation, until)
    if reason:
        return _end_of_buying(entity, program, reason)
    available = step.kinds(entity)
    if "buy_shares" in available:
        return _programmed_purchase(step, entity, program, corporation)
    if step.bought() and "pass" in available:
        return _pass_after_purchase(table, entity, corporation, until)
    return None


def _target_met(table, entity, corporation, until) -> Optional[str]:
    """Why the buying program has done its work: the corporation has floated (or has
    sold enough shares to), or the player holds ``until`` shares."""
    if until == "float":
        if operators.has_floated(table, corporation) or \
                operators.percent_to_float(table, corporation) == 0:
            return f"{corporation.name} is floated"
        return None
    if certificates.shares_of(entity, corporation) >= until:
        return f"{until} share(s) bought in {corporation.name}, end condition met"
    return None


def _end_of_buying(entity, program: dict, reason: str) -> List[dict]:
    out = [_stop(entity, reason)]
    if program.get("auto_pass_after"):
        out.append(new_action("program_share_pass", entity, unconditional=False,
                              indefinite=False))
    return out


def _programmed_purchase(step, entity, program: dict, corporation) -> List[dict]:
    """Buy the next certificate from the program's source, if the player may buy one,
    all buyable ones are of one size, and nothing happened to make the player think
    again. A certificate may be bought if the purchase's own check accepts it (a started
    corporation's share, one the player may hold and pay for: :func:`.listing.accepted`)."""
    table = step.table
    if step.program_buys_from_market(program):
        source, pile = "market", certificates.held(table.state.market, corporation)
    else:
        source, pile = table.settings.treasury_name, certificates.treasury(corporation)
    buyable = [(c, h) for c in pile for h in (_purchase(entity, c),) if accepted(table, h)]
    sizes = {c.percent for c, _ in buyable}
    if not sizes:
        return [_stop(entity, f"Cannot buy {corporation.name} from {source}")]
    if len(sizes) != 1:
        return [_stop(entity, "Shares of different sizes exist, cannot auto buy "
                              f"{corporation.name} from {source}")]
    cert, purchase = buyable[0]
    reason = step.program_stop_reason(entity, program, cert)
    if reason:
        return [_stop(entity, reason)]
    return [purchase]


def _purchase(entity, cert) -> dict:
    """The purchase of ``cert`` by ``entity``."""
    return new_action("buy_shares", entity, shares=[cert.id], percent=cert.percent)


def _pass_after_purchase(table, entity, corporation, until) -> Optional[List[dict]]:
    """Pass once the share is bought, except just after the corporation floated (the
    player may want to sell at once)."""
    if until == "float" and operators.has_floated(table, corporation):
        return None
    return [new_action("pass", entity)]


def _stop(entity, reason: str) -> dict:
    return new_action("program_disable", entity, reason=reason)


PROGRAMS = {"program_share_pass": _pass_program, "program_buy_shares": _buy_program}


def secure_percent(table) -> int:
    """What a president holds of a corporation to be sure to keep it: half of it; where
    shares are sold short (1817), a rival can hold more than the half left (the shorted
    shares are certificates too), so 60%, as 18xx.games has it."""
    return 60 if table.settings.short_selling else 50


def stop_reason(step, entity, program: dict, buying) -> Optional[str]:
    """Why the program should stop now, if it should: the player must sell, or another
    player did something since it was set that the player may want to react to
    (``buying``: the certificate the program would buy, if it buys)."""
    if step.must_sell(entity):
        return f"{entity.name} must sell shares"
    for other, corporation, action in _others_actions_since(step, entity, program):
        reason = _worrying(step, entity, other, action, corporation, buying)
        if reason:
            return reason
    return None


def _others_actions_since(step, entity, program: dict):
    """(player, corporation, action) for what other players did this round since the
    program was set."""
    for other, corporations in step.round.notes.history.items():
        if other is entity:
            continue
        for corporation, actions in corporations.items():
            for action in actions:
                if not _before(action, program):
                    yield other, corporation, action


def _worrying(step, entity, other, action, corporation, buying) -> Optional[str]:
    """Would ``action`` by ``other`` make ``entity`` reconsider its program? Any action
    not known here does, to be safe."""
    worry = WORRIES.get(action.kind)
    if worry is None:
        return f"Unknown action {action.kind} disabling for safety"
    return worry(step, entity, other, action, corporation, buying)


def _started(step, entity, other, action, corporation, buying) -> Optional[str]:
    """A corporation started matters to a player passing, or one whose shares may already
    be sold (its price could be played with)."""
    if buying is None or trading.sale_timing_allows(step.table, corporation):
        return f"Corporation {corporation.name} parred"
    return None


def _bought_into(step, entity, other, action, corporation, buying) -> Optional[str]:
    """A corporation redeeming a share always matters; another player buying into the
    player's corporation matters while the player is not sure to keep it
    (:func:`secure_percent`), unless the program is buying it and so stays safe
    (:func:`_purchase_keeps_presidency`)."""
    if action.entity is corporation:
        return f"{corporation.name} redeemed a share."
    if corporation.owner is not entity:
        return None
    own = certificates.percent_of(entity, corporation)
    secure = secure_percent(step.table)
    if own >= secure:
        return None
    if buying is None or corporation is not buying.corporation:
        return f"{other.name} bought on corporation {corporation.name} and is unsecure"
    if _purchase_keeps_presidency(entity, action.entity, corporation, own + buying.percent,
                                  buying.percent, secure):
        return None
    return f"{other.name} has bought, shares exist that could allow them to gain presidency"


def _purchase_keeps_presidency(entity, rival, corporation, after: int, buying: int,
                              secure: int) -> bool:
    """After buying, the player holds ``after`` percent: safe above ``secure``
    (:func:`secure_percent`), or if the rival could not pass it by buying the biggest
    certificate larger than the one bought that the player does not hold."""
    if after > secure:
        return True
    bigger = [c for c in corporation.certificates if c.percent > buying and c.owner is not entity]
    if not bigger:
        return True
    biggest = max(bigger, key=lambda c: c.percent)
    return after >= certificates.percent_of(rival, corporation) + biggest.percent


def _sale_seen(step, entity, other, action, corporation, buying) -> str:
    """Any sale matters (prices moved)."""
    return "Shares were sold"


def _borrowed(step, entity, other, action, corporation, buying) -> str:
    return f"{corporation.name} took a loan"


def _shorted(step, entity, other, action, corporation, buying) -> str:
    """A short sale (1817) matters as a sale does."""
    return "Short bought"


# What in another player's action may make a player reconsider, by the action's kind.
WORRIES = {"par": _started, "buy_shares": _bought_into, "sell_shares": _sale_seen,
           "take_loan": _borrowed, "short": _shorted}


def keep_across_rounds(table, program: dict) -> bool:
    """Programs end when the round changes, except passing (and buying) in stock rounds
    while stock rounds go on, and passing set to last."""
    kind = program.get("type")
    if kind == "program_share_pass":
        return table.round.is_stock or bool(program.get("indefinite"))
    if kind == "program_buy_shares":
        return table.round.is_stock
    if kind == "program_merger_pass":
        return table.round.is_merger
    return False


def merger_passes(table, player, round_name: str) -> set:
    """The corporations ``player``'s merger-pass programs pass for in the round called
    ``round_name`` ("MR", "AR"): by round, or (the older form) the same ones in each round
    listed."""
    out = set()
    for program in table.state.programs.get(player, []):
        if program.get("type") != "program_merger_pass":
            continue
        by_round = program.get("corporations_by_round")
        if by_round is not None:
            out.update(by_round.get(round_name) or ())
        elif round_name in (program.get("rounds") or ()):
            out.update(program.get("corporations") or ())
    return out


__all__ = ["share_percent"]
