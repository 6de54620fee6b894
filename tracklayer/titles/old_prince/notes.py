"""The Old Prince 1871 — what it keeps beyond the common state (``state.title``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


@dataclass(eq=False)
class OldPrinceNotes:
    """What 1871 keeps beyond the common state."""
    mainline: Any = None                  # the corporations drawn at the start
    shortline: Any = None
    drawn: Any = None                     # the third drawn: the Union Bank's other share
    union_bank: Any = None                # the Union Bank's seat (a player, id -1)
    tranches: List[list] = field(default_factory=list)   # slots: corporations or None
    peir_certificates: Dict[str, Any] = field(default_factory=dict)  # card sym -> PEIR cert
    piles: Dict[Any, list] = field(default_factory=dict)  # auction: player -> unsold lot
    bank_bought: bool = False             # the Union Bank bought this stock round
    split: Optional[Any] = None           # the split under way (titles.old_prince.split)
    split_ended_at: int = 0               # the order of the action that completed a split
    operated: set = field(default_factory=set)  # ids of the trains that have ever operated


def notes(table) -> OldPrinceNotes:
    return table.state.title
