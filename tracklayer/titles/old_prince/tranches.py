"""The Old Prince 1871 — tranches: corporations open in groups of 2 (the Mainline and
the Shortline), 1, 2 and 3; a group opens once every corporation of the one before has
operated or sold out (no share left in the market or its treasury)."""

from __future__ import annotations

from ...rules import certificates
from .notes import notes


def _open_tranche(table):
    """The index of the first tranche with an empty place, or None."""
    for i, tranche in enumerate(notes(table).tranches):
        if None in tranche:
            return i
    return None


def sold_out_of_bank(table, corporation) -> bool:
    """No share left in the market or the treasury (reserved ones included)."""
    return not certificates.held(table.state.market, corporation) and \
        not certificates.held(corporation, corporation)


def tranche_open(table) -> bool:
    """Has a tranche room, and has the one before all operated or sold out?"""
    i = _open_tranche(table)
    if i is None:
        return False
    if i == 0:
        return True
    return all(c is not None and (c.operated or sold_out_of_bank(table, c))
               for c in notes(table).tranches[i - 1])


def enter_tranche(table, corporation) -> None:
    """A corporation started (or a branch split off) takes the tranche's next place."""
    tranche = notes(table).tranches[_open_tranche(table)]
    tranche[tranche.index(None)] = corporation


def is_branch(corporation) -> bool:
    return corporation.spec.name.endswith("Branch")
