"""What the 1817 family keeps beyond the common state (``state.title``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Optional


@dataclass(eq=False)
class Notes1817:
    """What an 1817 game keeps beyond the common state."""
    seed_money: int = 0                       # what is left of it in the opening auction
    interest_rate: Optional[int] = None       # fixed for the operating round being played
    interest_paid: Dict[Any, bool] = field(default_factory=dict)   # this operating turn
    final_operating_rounds: Optional[int] = None    # set by the first 8
    prices_at_mergers: Dict[Any, Any] = field(default_factory=dict)
    liquidated_by: Dict[Any, Any] = field(default_factory=dict)    # corporation → owner then
    crisis_player: Any = None                 # whom a cash crisis starts from


def notes(table) -> Notes1817:
    found = table.state.title
    if not isinstance(found, Notes1817):
        raise TypeError("not an 1817 game: its state keeps no 1817 notes")
    return found
