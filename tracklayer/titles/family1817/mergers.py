"""The rounds after each 1817 operating round: the merger and conversion round, then the
acquisition round.

Merger and conversion: each corporation in the white zone of the market (floated, not in
the acquisition or liquidation zone), by price, may convert (2 → 5 or 5 → 10 shares,
where the phase allows) or pass.

Acquisition (``acquisition``): corporations are offered in turn, cheapest first.
"""

from __future__ import annotations

from ...errors import GameError
from ...rules import operators
from ...turns.round import Round
from ...turns.step import Step, handles
from . import shares
from .stock import in_zone


class MergerRound(Round):
    NAME = "Merger and Conversion Round"
    is_merger = True
    NUMBERED_IN_SET = True

    def choose_entities(self) -> list:
        table = self.table
        corps = [c for c in table.state.corporations
                 if not c.closed and operators.has_floated(table, c) and not in_zone(table, c)]
        return operators.by_price(table, corps)

    def begin(self) -> None:
        self.lapse_idle_steps()
        if self.active_step() is None:
            self.advance()

    def after_action(self, action) -> None:
        if self.active_step() is None:
            self.advance()

    def advance(self) -> None:
        while self.index < len(self.entities) - 1:
            self.index += 1
            self.reopen_steps()
            self.forget()
            self.lapse_idle_steps()
            if self.active_step() is not None:
                return
        self.index = len(self.entities)

    def over(self) -> bool:
        return self.index >= len(self.entities) or self.active_step() is None


class ConversionStep(Step):
    """A corporation converts or passes."""

    NAME = "Convert or Merge"

    def kinds(self, entity):
        if entity is not self.actor():
            return ()
        return ("convert", "pass") if self.may_convert(entity) else ("pass",)

    def may_convert(self, corporation) -> bool:
        size = shares.size_of(corporation)
        return size < 10 and {2: 5, 5: 10}[size] in self.table.phase.corporation_sizes

    @handles("convert")
    def convert(self, action):
        corporation = action.entity
        if not self.may_convert(corporation):
            raise GameError(f"{corporation.name} cannot convert now")

        def commit() -> None:
            before = shares.size_of(corporation)
            shares.convert(self.table, corporation)
            self.table.log(f"{corporation.name} converts from {before} to "
                           f"{shares.size_of(corporation)} shares")
            self.mark_done()
        return commit


def merger_round(table, number: int):
    table.log(f"-- Merger and Conversion Round {table.state.turn}.{number} --")
    table.state.round_count += 1
    return MergerRound(table, [ConversionStep], number)


def is_acquisition(r) -> bool:
    return r.NAME == "Acquisition Round"
