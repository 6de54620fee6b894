"""Trains: what the depot sells, who may own how many, buying, trading in, rusting.

The depot sells the next train of its stack, and also any later train whose phase has
come, and one of each kind given back to it. A train bought may start a phase; trains
named by the kind bought rust (leave the game) or become obsolete (rust when they next
run, and do not count for the limit unless the title says they do). An operator over its
train limit gives trains back.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..spec.data import Timing
from ..state.model import DepotState, TrainState
from . import money, powers
from .table import Table


def variants(train: TrainState) -> dict:
    """The forms the train may be bought in, by name (its own first)."""
    spec = train.spec
    out = {spec.name: spec.base}
    for v in spec.variants:
        out.setdefault(v.name, v)
    return out


def in_depot(train: TrainState) -> bool:
    return isinstance(train.owner, DepotState)


def cheapest_form(train: TrainState) -> int:
    """The price of the train's cheapest form (kept for its kind of train: the forms are
    the kind's)."""
    spec = train.spec
    kept = _CHEAPEST.get(id(spec))
    if kept is None or kept[0] is not spec:
        kept = _CHEAPEST[id(spec)] = (spec, min(v.price for v in variants(train).values()))
    return kept[1]


# By the id of a kind of train: (the kind, :func:`cheapest_form` of its trains).
_CHEAPEST: dict = {}


def lowest_price(train: TrainState) -> int:
    """The least the train can be bought for: its cheapest form from the depot, 1 from
    another company."""
    return cheapest_form(train) if in_depot(train) else 1


# -- the depot ---------------------------------------------------------------------------


def for_sale(table: Table) -> List[TrainState]:
    """Trains the depot sells now (see the module docstring): one of each name of the
    next train and those whose phase has come, then one of each name given back."""
    found = table.derived.offer
    if found is None:
        depot = table.state.depot
        upcoming = depot.upcoming
        released = [t for t in upcoming if t.spec.available_on
                    and table.phase_reached(t.spec.available_on)]
        found = table.derived.offer = one_of_each_name(upcoming[:1] + released) + \
            one_of_each_name(depot.given_back)
    return found


def one_of_each_name(trains_: List[TrainState]) -> List[TrainState]:
    """The first train of each name, in order."""
    seen, out = set(), []
    for t in trains_:
        if t.name not in seen:
            seen.add(t.name)
            out.append(t)
    return out


def _forget(table: Table) -> None:
    """A train changed hands (every change of a train's owner ends here)."""
    table.derived.offer = None
    table.derived.crowded = None
    table.derived.held = None


def cheapest_for_sale(table: Table) -> Optional[TrainState]:
    trains = for_sale(table)
    return min(trains, key=lambda t: t.variant.price) if trains else None


def cheapest_price(table: Table) -> int:
    train = cheapest_for_sale(table)
    return cheapest_form(train) if train is not None else 0


def dearest_price(table: Table) -> int:
    trains = for_sale(table)
    if not trains:
        return 0
    train = max(trains, key=lambda t: t.variant.price)
    return max(v.price for v in variants(train).values())


def held(table: Table) -> List[TrainState]:
    """The trains that operators own (neither in the depot nor gone), in the order of
    the game's trains. Kept until a train changes hands (:func:`_forget`): the others'
    trains an operator could buy are looked for among these few, not every train."""
    found = table.derived.held
    if found is None:
        found = table.derived.held = [t for t in table.state.depot.every
                                      if t.owner is not None and not in_depot(t)]
    return found


def others_trains(table: Table, operator) -> List[TrainState]:
    """Trains of other operators ``operator`` could buy."""
    if not table.variant.trains_change_hands:
        return []
    return [t for t in held(table) if _of_another(t, operator)]


def _of_another(train: TrainState, operator) -> bool:
    """Of the trains :func:`held`: one of another operator's that may change hands."""
    return train.saleable and not train.obsolete and train.owner is not operator


def available(table: Table, operator) -> List[TrainState]:
    return for_sale(table) + others_trains(table, operator)


def affords_available(table: Table, operator, cash: int) -> bool:
    """Could ``cash`` buy some train :func:`available` to ``operator``: the depot's
    cheapest, or else another operator's train, which can be had for 1 (so the other
    operators' trains are looked at only when the depot's are too dear)."""
    offer = for_sale(table)
    if offer and cash >= min(lowest_price(t) for t in offer):
        return True
    return cash >= 1 and table.variant.trains_change_hands and \
        any(_of_another(t, operator) for t in held(table))


# -- owning trains -------------------------------------------------------------------------


def limit(table: Table, operator) -> int:
    """How many trains the operator may own in this phase."""
    return table.phase.limit_for(operator.spec.kind)


def counted(table: Table, operator) -> int:
    """The operator's trains that fill its train limit: obsolete ones only where the
    title says so (``Settings.obsolete_count_for_limit``)."""
    if table.settings.obsolete_count_for_limit:
        return len(operator.trains)
    count = 0
    for t in operator.trains:
        if not t.obsolete:
            count += 1
    return count


def has_room(table: Table, operator) -> bool:
    return counted(table, operator) < limit(table, operator)


def over_limit(table: Table) -> list:
    """Operators with more trains than their limit, minors first (one without trains is
    within any limit)."""
    found = table.derived.crowded
    if found is None:
        found = table.derived.crowded = [o for o in table.operators()
                                         if o.trains and counted(table, o) > limit(table, o)]
    return found


def trade_ins(table: Table, operator) -> List[Tuple[TrainState, TrainState, str, int]]:
    """(own train, depot train, form, price) for every trade-in on offer: each of the
    operator's trains against each depot train with a trade-in discount, in each form
    trading it in makes cheaper (:func:`discount_forms`), for the form's price less its
    discount for the train traded in."""
    offer = [(t, forms) for t in for_sale(table) for forms in (discount_forms(t),) if forms]
    out = []
    for own in operator.trains:
        traded = own.name
        for t, forms in offer:
            for name, price, discounts in forms:
                discount = discounts.get(traded, 0)
                if discount > 0:
                    out.append((own, t, name, price - discount))
    return out


def discount_forms(train: TrainState) -> List[Tuple[str, int, dict]]:
    """(form, price, discount by the name of the train traded in) for each form of
    ``train`` that has trade-in discounts: the form it is in, then its others."""
    forms = [(train.name, train.variant)] + [(name, v) for name, v in variants(train).items()
                                            if name != train.name]
    return [(name, v.price, dict(v.discount)) for name, v in forms if v.discount]


# -- changing hands ------------------------------------------------------------------------


def detach(table: Table, train: TrainState) -> None:
    """The train leaves its owner (the depot's stack or pile, or an operator)."""
    owner = train.owner
    if owner is None:
        return
    depot = table.state.depot
    if isinstance(owner, DepotState):
        if train in depot.upcoming:
            depot.upcoming.remove(train)
            _never_runs_out(table, train)
        if train in depot.given_back:
            depot.given_back.remove(train)
    elif train in owner.trains:
        owner.trains.remove(train)
    _forget(table)


def _never_runs_out(table: Table, train: TrainState) -> None:
    """The last of an unlimited kind of train left the depot: another comes in."""
    spec = train.spec
    depot = table.state.depot
    if not spec.unlimited or any(t.spec is spec for t in depot.upcoming):
        return
    index = max(t.index for t in depot.every if t.spec is spec) + 1
    fresh = TrainState(spec, index, spec.base, owner=depot)
    depot.upcoming.append(fresh)
    depot.every.append(fresh)
    table.forget_index()


def hand_over(table: Table, train: TrainState, to, price: Optional[int]) -> None:
    """``to`` takes the train, paying ``price`` to its owner (None: nothing paid)."""
    if price is not None:
        money.pay(table, to, train.owner, price)
    detach(table, train)
    train.owner = to
    to.trains.append(train)
    _forget(table)
    powers.close_on(table, to, Timing.BOUGHT_TRAIN)


def give_back(table: Table, train: TrainState) -> None:
    """A train returns to the depot (discarded or traded in); it can be bought again
    unless obsolete, or where the title takes such trains out of the game."""
    if train.owner is None:
        return
    detach(table, train)
    depot = table.state.depot
    train.owner = depot
    if not train.obsolete and table.settings.given_back_for_sale:
        depot.given_back.append(train)
    _forget(table)


def rust(table: Table, train: TrainState) -> None:
    train.rusted = True
    detach(table, train)
    train.owner = None


def move_all(table: Table, source, target) -> List[TrainState]:
    moved = list(source.trains)
    for t in moved:
        t.owner = target
        target.trains.append(t)
    source.trains.clear()
    _forget(table)
    return moved


def rust_after(table: Table, bought: TrainState) -> None:
    """Trains that rust or become obsolete because a train of ``bought``'s kind was
    bought (none when no form of any of the title's trains names that kind:
    :func:`_aging_kinds`)."""
    kind = bought.spec.name
    if kind not in _aging_kinds(table.spec.trains):
        _forget(table)
        return
    depot = table.state.depot
    every = depot.every
    obsolete = []
    for t in every:
        if not t.obsolete and kind in t.variant.obsolete_on:
            t.obsolete = True
            obsolete.append(t.name)
    rusted = []
    for t in list(every):
        if t.rusted:
            continue
        if kind in t.variant.rusts_on or (kind in t.variant.obsolete_on and t in depot.given_back):
            rusted.append(t.name)
            rust(table, t)
    _forget(table)
    if obsolete:
        table.log(f"-- Event: {', '.join(dict.fromkeys(obsolete))} trains are obsolete --")
    if rusted:
        table.log(f"-- Event: {', '.join(dict.fromkeys(rusted))} trains rust --")


# By the id of a title's train kinds: (the kinds, :func:`_aging_kinds` of them).
_AGING: dict = {}


def _aging_kinds(specs: tuple) -> frozenset:
    """The kinds of train whose purchase may make some train rust or become obsolete:
    those named by some form of a train (a form a title gives a train later only moves
    a kind from rusting to making obsolete, as 1871's unrun 4+). Kept for the kinds."""
    kept = _AGING.get(id(specs))
    if kept is None or kept[0] is not specs:
        named = frozenset(k for spec in specs for form in (spec, *spec.variants)
                          for k in form.rusts_on + form.obsolete_on)
        kept = _AGING[id(specs)] = (specs, named)
    return kept[1]


def set_operated(operator, value: bool) -> None:
    for t in operator.trains:
        t.operated = value
