"""Playing an action: the round takes it, then the game moves on through the rounds it
finished, checking after each action whether the game ends."""

from __future__ import annotations

from ..rules import endgame, operators
from ..rules.table import Table
from ..spec.settings import EndTiming
from . import programs

MAX_TURNS = 100


def play(table: Table, action) -> None:
    """Apply ``action`` (already read) and everything that follows from it."""
    step, commit = table.round.judge(action)
    table.round.carry_out(action, step, commit)
    settle(table)


def settle(table: Table) -> None:
    r = table.round
    if operators.close_in_closing_cells(table):
        r.forget()              # what was pending for the closed company has lapsed
        step, entity = r.active_step(), r.acting()
        left_with_nothing = step is not None and entity is not None and not step.kinds(entity)
        if left_with_nothing or (step is None and not r.over()):
            r.lapse_idle_steps()
            r.advance()
        r.forget()
    trigger = endgame.check_triggers(table)
    reason, timing = trigger or (None, None)
    state = table.state
    end = state.end
    if timing is EndTiming.IMMEDIATELY:
        endgame.finish(table, reason.value)
    while state.round.over() and not end.finished:
        for e in state.round.entities:
            e.passed = False
        if timing is None and end.trigger is not None:
            reason, timing = end.trigger     # a trigger that came with a new round
        if endgame.ends_now(table, timing):
            endgame.finish(table, reason.value)
        elif table.state.turn >= MAX_TURNS:
            endgame.finish(table, "dnf")
        else:
            next_round(table)


def next_round(table: Table) -> None:
    table.state.round = table.variant.next_round(table)
    if table.state.end.finished:
        return
    for player, kept in table.state.programs.items():
        kept[:] = [p for p in kept if programs.keep_across_rounds(table, p)]
    table.round.at_start = True
    table.round.begin()
