"""The 1817 acquisition round (to come: offers, acquisitions, liquidation)."""

from __future__ import annotations

from ...turns.step import Step
from .mergers import MergerRound


class AcquisitionRound(MergerRound):
    NAME = "Acquisition Round"

    def choose_entities(self) -> list:
        return []


class Acquire(Step):
    NAME = "Acquire Corporations"


def acquisition_round(table, number: int):
    table.log(f"-- Acquisition Round {table.state.turn}.{number} --")
    table.state.round_count += 1
    return AcquisitionRound(table, [Acquire], number)
