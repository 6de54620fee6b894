"""Phases and the events trains bring.

Buying the first train of the kind that starts the next phase starts it (several, if the
train starts more than one); then trains rust, and the events written on the train run,
each by its name: the title's handlers first, then the common ones here.
"""

from __future__ import annotations

from typing import Callable, Dict

from ..errors import GameError
from ..state.model import TrainState
from . import powers, trains
from .table import Table


def next_phase_starts_with(table: Table, train: TrainState) -> bool:
    phases = table.spec.phases
    i = table.state.phase + 1
    if i >= len(phases):
        return False
    on = phases[i].on
    return train.id in on or train.spec.name in on


def start_next_phase(table: Table) -> None:
    """The next phase begins: companies whose powers say so close."""
    table.state.phase += 1
    phase = table.phase
    table.log(f"-- Phase {phase.name} --")
    table.derived.offer = None
    table.derived.crowded = None
    table.variant.phase_started(table, phase)


def export(table: Table, train: TrainState) -> None:
    """The bank takes a train out of the depot (1817's exports at the end of an operating
    round): it is gone, and its phase, rusting and events come as if it had been bought."""
    trains.detach(table, train)
    train.owner = None
    train_bought(table, train)


def train_bought(table: Table, train: TrainState) -> None:
    """A train was bought (or exported): phases, rusting, then its events."""
    while next_phase_starts_with(table, train):
        start_next_phase(table)
    trains.rust_after(table, train)
    events = train.events_due
    train.events_due = ()
    for event in events:
        run_event(table, event.kind)


def close_all_companies(table: Table) -> None:
    """Every private company closes, but those whose close power says never."""
    table.log("-- Event: Private companies close --")
    for company in list(table.state.companies):
        if not any(p.spec.kind == "close" and p.spec.on_phase == "never"
                   for p in company.powers):
            powers.close_company(table, company)


COMMON_EVENTS: Dict[str, Callable[[Table], None]] = {
    "close_companies": close_all_companies,
}


def run_event(table: Table, kind: str) -> None:
    handler = table.variant.events.get(kind) or COMMON_EVENTS.get(kind)
    if handler is None:
        raise GameError(f"{table.spec.title} has no event {kind}")
    handler(table)
