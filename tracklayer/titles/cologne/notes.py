"""What 1893 keeps beyond the common state (``state.title``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False)
class CologneNotes:
    """What 1893 keeps beyond the common state."""
    passers: list = field(default_factory=list)       # passed in the draft / first SR
    after_merger: tuple = ()                          # the round due after a merger round
    mergeable: dict = field(default_factory=dict)     # "AGV"/"HGK" → may form by vote
    due: dict = field(default_factory=dict)           # "AGV"/"HGK" → forms by itself
    fdsd_to_close: bool = False
    discards: list = field(default_factory=list)      # formed with trains to give back


def notes(table) -> CologneNotes:
    return table.state.title
