"""The choices of an 1871 split in words: the branch founded, the stations, the starting
price, the trains, the cash and the Hunslet it takes over."""

from __future__ import annotations

from ..titles.old_prince.split import SplitStep
from ..turns.listing import value_range
from .names import name_of, place_name


def split_choice(w, step: SplitStep, h: dict) -> str:
    """What choosing ``h["choice"]`` gives the branch (``w``: the position's words)."""
    s = step.split()
    table = w.table
    choice = h.get("choice")
    branch, parent = s.branch, s.corporation
    if isinstance(choice, int) or value_range(h) is not None:
        return f"gives {name_of(branch)} {w.priced(h, 'choice')} of {name_of(parent)}'s cash"
    corporation = table.find("corporation", choice)
    if corporation is not None:
        return f"splits {name_of(parent)} into {name_of(corporation)}"
    if choice == "done":
        return f"gives {name_of(branch)} nothing more"
    if choice == "yes":
        return f"gives {name_of(branch)} the Hunslet"
    if choice == "no":
        return f"keeps the Hunslet in {name_of(parent)}"
    train = table.find("train", choice)
    if train is not None:
        return f"gives {name_of(branch)} the {train.name}-train"
    if str(choice).isdigit() and int(choice) < len(parent.tokens):
        where = parent.tokens[int(choice)].where
        return f"gives {name_of(branch)} the station in " + \
            (place_name(table, where[0]) if where else "a city")
    cell = table.spec.cell_by_id(choice)
    if cell is not None:
        return f"starts {name_of(branch)} at {w.money(cell.price)} a share"
    return f"chooses {choice}"
