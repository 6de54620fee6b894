"""The end of the game: what triggers it, when it then ends, and the scores.

Each trigger the title lists is checked after every action; once one has happened the
game ends at its timing (immediately, after the round, after the operating round, after
the set of operating rounds, after one more set). Several triggers: the one that ends
the game soonest counts. A player's score is their cash, their shares at market price
and their companies' values, less what the title takes off.
"""

from __future__ import annotations

from typing import Callable, Dict, Optional, Tuple

from ..spec.settings import BankruptcyEnd, EndTiming, EndTrigger
from ..state.model import PlayerState
from . import trains
from .certificates import certificate_price
from .table import Table


def _bankruptcy(table: Table) -> bool:
    """A player went bankrupt (where the first bankruptcy ends the game), or all players
    but one did."""
    if table.settings.bankruptcy_ends is BankruptcyEnd.FIRST:
        return _first_bankruptcy(table)
    return _all_but_one_bankrupt(table)


def _first_bankruptcy(table: Table) -> bool:
    """:func:`_bankruptcy` where the first bankruptcy ends the game."""
    for p in table.state.players:
        if p.bankrupt:
            return True
    return False


def _all_but_one_bankrupt(table: Table) -> bool:
    """:func:`_bankruptcy` where the game ends once all players but one went bankrupt."""
    players = table.state.players
    left = len(players)
    for p in players:      # (a loop: for a few, cheaper than sum(map(...)))
        if p.bankrupt:
            left -= 1
    return left == 1


TRIGGERS: Dict[EndTrigger, Callable[[Table], bool]] = {
    EndTrigger.BANKRUPTCY: _bankruptcy,
    EndTrigger.BANK_BROKEN: lambda table: table.state.bank.broken,
    EndTrigger.MARKET_TOP: lambda table: table.state.top_reached,
    EndTrigger.FINAL_TRAIN: lambda table: not trains.for_sale(table),
    EndTrigger.FINAL_PHASE: lambda table: table.state.phase == len(table.spec.phases) - 1,
    EndTrigger.ALL_CLOSED: lambda table: all(
        e.closed for e in table.state.corporations + table.state.companies),
}


def check_triggers(table: Table) -> Optional[Tuple[EndTrigger, EndTiming]]:
    """The trigger in force (reason, timing): of the title's triggers that have happened,
    the one ending the game soonest (a trigger already in force stays unless a sooner
    one happens; between equals, the first). One ending after one more set fixes the
    final turn when it first comes into force. Asked after every action: the title's
    triggers are looked up once for its settings (:func:`_checks`)."""
    end = table.state.end
    current = end.trigger
    settings = table.settings
    kept = _CHECKS.get(id(settings))
    if kept is None or kept[0] is not settings:
        kept = _checks(settings)
    sooner = kept[2] if current is None else settings.end_timing_order.index(current[1])
    for happened, pair, rank in kept[1]:
        if rank < sooner and happened(table):     # (one no sooner changes nothing)
            end.trigger = current = pair
            sooner = rank
    if current is not None and current[1] is EndTiming.ONE_MORE_SET \
            and end.final_turn is None:
        end.final_turn = table.turn + 1
    return current


# By the id of a title's settings: (the settings, their triggers as (whether it has
# happened, (trigger, timing), the timing's rank in ``end_timing_order``), the number of
# timings ranked).
_CHECKS: Dict[int, tuple] = {}


def _checks(settings) -> tuple:
    """The settings' triggers, each with its rule of :data:`TRIGGERS` and the rank of its
    timing (an earlier rank ends the game sooner), kept for the settings."""
    order = settings.end_timing_order
    found = (settings, tuple((TRIGGERS[trigger], (trigger, timing), order.index(timing))
                             for trigger, timing in settings.end_triggers), len(order))
    _CHECKS[id(settings)] = found
    return found


def ends_now(table: Table, timing: Optional[EndTiming]) -> bool:
    """Does the game end now that a round is over, for a trigger with ``timing``?"""
    if timing is None:
        return False
    return table.variant.ends_after_round(table, timing)


def _last_of_set(table: Table) -> bool:
    r = table.round
    return r.is_operating and r.number == r.rounds_in_set


# Whether a round just over is the last, by the trigger's timing: any round, for an end
# at once or after the round; any operating round, for an end after it; the last of
# the set, for an end after the set; the last of the final set, for one more set.
ROUND_ENDS_GAME: Dict[EndTiming, Callable[[Table], bool]] = {
    EndTiming.IMMEDIATELY: lambda table: True,
    EndTiming.END_OF_ROUND: lambda table: True,
    EndTiming.END_OF_OPERATING_ROUND: lambda table: table.round.is_operating,
    EndTiming.ONE_MORE_SET: lambda table: _last_of_set(table)
    and table.turn == table.state.end.final_turn,
}


def common_ending(table: Table, timing: EndTiming) -> bool:
    """Does the round just over end the game, for a trigger with ``timing``
    (:data:`ROUND_ENDS_GAME`; otherwise at the end of the set)?"""
    return ROUND_ENDS_GAME.get(timing, _last_of_set)(table)


def finish(table: Table, reason: str) -> None:
    end = table.state.end
    if end.finished:
        return
    end.finished = True
    end.reason = reason
    table.state.round_count += 1
    scores = ", ".join(f"{table.player(pid).name} ({table.money(v)})"
                       for pid, v in scores_by_player(table).items())
    table.log(f"-- Game over: {scores} --")


def worth(table: Table, player: PlayerState) -> int:
    """Cash, shares at market price, companies at face value, less penalties."""
    shares = sum(certificate_price(table, c) for certs in player.shares.values()
                 for c in certs if c.corporation.started)
    return player.cash + shares + sum(c.value for c in player.companies) - player.penalty


def scores_by_player(table: Table) -> Dict:
    """Final score per player id, best first (ties in seat order)."""
    scores = [(p.id, table.variant.score(table, p)) for p in table.variant.scored(table)]
    scores.sort(key=lambda x: x[1], reverse=True)
    return dict(scores)
