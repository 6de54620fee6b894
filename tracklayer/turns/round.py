"""Rounds: stock rounds, operating rounds, and rounds in seat order (auctions, drafts).

A round runs the turns of its entities in order, each turn through the round's steps.
An action goes to the first live step that holds the turn or takes actions of its kind
in passing; an action the step holding the turn does not take is refused. After each
action, steps left with nothing to offer lapse, and when none holds the turn, the next
entity's turn begins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from operator import attrgetter
from typing import Any, Dict, List, NamedTuple, Optional

from ..errors import GameError
from ..rules import market, network, operators, powers, trains
from ..rules.table import Table
from ..spec.settings import HomeTokenTiming
from ..state.model import CompanyState, MarketState, PlayerState
from .meta import ENDING, MESSAGES, PROGRAMS
from .step import Step


class Run(NamedTuple):
    """What the round keeps of a train's run until the dividend: the train and what it
    earned. (Not the route itself, whose stops and rails belong to the board's track
    graph: a snapshot of the round would copy that graph.)"""
    train: Any
    revenue: int


@dataclass(eq=False)
class Notes:
    """What the steps of a round share."""
    runs: List[Run] = field(default_factory=list)         # this turn's, for the dividend
    extra_revenue: int = 0
    laid: int = 0                                          # tile lays this turn
    upgraded: bool = False
    upgrades: int = 0
    laid_hexes: list = field(default_factory=list)
    tokened: bool = False
    pending_homes: Optional[list] = None                   # (operator, hexes, token) to choose
    pending_par: list = field(default_factory=list)        # companies whose buyer sets a par
    sold: Dict[Any, dict] = field(default_factory=dict)    # player → corporation → "now"/"prev"
    bought: Dict[Any, dict] = field(default_factory=dict)  # player → corporation → percent
    turn_actions: list = field(default_factory=list)       # this stock turn's actions
    bought_from_treasury: bool = False
    history: Dict[Any, dict] = field(default_factory=dict)  # player → corporation → actions
    sold_company: Any = None
    company_sellers: dict = field(default_factory=dict)
    traded_in: list = field(default_factory=list)          # operators that traded a train in
    last_to_act: Any = None
    pass_order: list = field(default_factory=list)


@lru_cache(maxsize=None)
def layout(classes: tuple, holding: tuple) -> tuple:
    """A round's make-up (the classes of its steps, in order, and each step's own
    ``HOLDS``, which a step's options may set) → the places of the steps that may hold
    the turn (those that never do, their ``HOLDS`` False and ``holds`` not their own, are
    not asked where play stands); by kind of action the places of the steps that take it
    (have a handler for it; a pass, only those that may hold the turn: a step that cannot
    offers no pass); and the places of the steps with something to prepare at the start
    of a turn (``prepare`` their own); the places of the steps that reopen as a step
    does, and of those that reopen in a way of their own (``reopen`` their own). Of each
    step that may hold the turn, whether it is *plain*: ``live`` and ``holds`` not its
    own, it may hold the turn just while it is not done; and whether its turn is the
    round's: its actor the round's entity in turn and ``has_turn`` not its own, it has
    the turn while that entity, not closed, has some kind of action in it. Last, the
    places among those that may hold the turn of the steps that may before the game is
    over (not ``HOLDS_ONCE_OVER``). Worked out once for each make-up (the titles have a
    handful)."""
    holders = tuple(place for place, cls in enumerate(classes)
                    if holding[place] or cls.holds is not Step.holds)
    plain = (tuple(classes[place].live is Step.live and classes[place].holds is Step.holds
                   for place in holders),
             tuple(classes[place].ROUND_ACTOR and classes[place].actor is Step.actor
                   and classes[place].has_turn is Step.has_turn for place in holders))
    takers: Dict[str, list] = {}
    for place, cls in enumerate(classes):
        for kind in cls.HANDLERS:
            if kind != "pass" or place in holders:
                takers.setdefault(kind, []).append(place)
    preparing = tuple(place for place, cls in enumerate(classes)
                      if cls.prepare is not Step.prepare)
    reopening = (tuple(place for place, cls in enumerate(classes) if cls.reopen is Step.reopen),
                 tuple(place for place, cls in enumerate(classes)
                       if cls.reopen is not Step.reopen))
    in_play = tuple(n for n, place in enumerate(holders) if not classes[place].HOLDS_ONCE_OVER)
    return holders, plain, {k: tuple(v) for k, v in takers.items()}, preparing, reopening, \
        in_play


_HOLDS = attrgetter("HOLDS")


class Round:
    NAME = "Round"
    is_stock = is_operating = is_merger = is_auction = False
    # Numbered within its set ("2.1"), as operating rounds are (and 1817's merger and
    # acquisition rounds, one after each operating round).
    NUMBERED_IN_SET = False

    def __init__(self, table: Table, steps: list, number: int = 1) -> None:
        self.table = table
        self.number = number
        self.index = 0
        self.notes = Notes()
        self.at_start = False
        self._active = None
        self.memo: list = []     # the steps whose kinds are remembered (Step.known_kinds)
        self.entities = self.choose_entities()
        self.steps = []
        for spec in [ENDING, MESSAGES, PROGRAMS] + list(steps):
            cls, options = spec if isinstance(spec, tuple) else (spec, {})
            step = cls(self, **options)
            step.prepare()
            self.steps.append(step)
        self._index_steps()

    def _index_steps(self) -> None:
        """Which steps may hold the turn, and where the steps taking each kind of action
        are (:func:`layout`). A round's steps never change: this is worked out when it is
        set up or restored, not kept in snapshots."""
        steps = self.steps
        holders, plain, self._takers, preparing, reopening, in_play = \
            layout(tuple(map(type, steps)), tuple(map(_HOLDS, steps)))
        self._holders = tuple(map(steps.__getitem__, holders))
        self._standing = tuple(zip(self._holders, *plain))
        self._in_play = tuple(map(self._standing.__getitem__, in_play))
        self._preparing = tuple(map(steps.__getitem__, preparing))
        self._resetting, self._reopening = (tuple(map(steps.__getitem__, places))
                                            for places in reopening)

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_active"] = None
        state["memo"] = []
        del state["_holders"], state["_standing"], state["_in_play"], state["_takers"], \
            state["_preparing"], state["_resetting"], state["_reopening"]
        return state

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        self._index_steps()

    def choose_entities(self) -> list:
        raise NotImplementedError

    def begin(self) -> None:
        """Start the round (after it is set up)."""

    # -- where play stands --------------------------------------------------------------

    def active_step(self, entity=None):
        """The first live step holding the turn (for ``entity``: the first step where it
        may act; a company may act in steps that do not hold the turn)."""
        if entity is not None:
            company = isinstance(entity, CompanyState)
            for step in self.steps:
                if step.live() and (company or step.holding()) and step.known_kinds(entity):
                    return step
            return None
        active = self._active
        if active is None:       # not known since the position last changed
            self._active = active = self._holding() or False
        return active or None    # (False: known that no step holds the turn)

    def _holding(self):
        """The first live step holding the turn, asked in order (:func:`layout`)."""
        entity = self.in_turn()
        for step, plain, by_round in self._standing_now():
            if step.done if plain else not (step.live() and step.holds()):
                continue     # may not hold the turn now
            if (entity is not None and not entity.closed
                    and step.known_kinds(entity)) if by_round else step.has_turn():
                return step
        return None

    def _standing_now(self) -> tuple:
        """The steps asked where play stands, in order, with what :func:`layout` found of
        each: while the game goes on, not those that may hold the turn only once it is
        over (``Step.HOLDS_ONCE_OVER``)."""
        return self._standing if self.table.state.end.finished else self._in_play

    def in_turn(self):
        """The entity whose turn it is in the round (None past the last)."""
        try:
            return self.entities[self.index]
        except IndexError:
            return None

    def actors(self) -> list:
        step = self.active_step()
        return step.actors() if step else []

    def acting(self):
        actors = self.actors()
        return actors[0] if actors else None

    def holders(self) -> tuple:
        """The steps that may hold the turn (those that never do, :meth:`Step.holds` being
        their class's ``HOLDS`` = False, are not asked where play stands)."""
        return self._holders

    def takers(self, kind: str) -> tuple:
        """The places among the steps of those that take actions of ``kind``, in order."""
        return self._takers.get(kind, ())

    def forget(self) -> None:
        """Forget what was worked out about the position (after any change)."""
        self._active = None
        remembering = self.memo
        if remembering:
            for step in remembering:
                step.memo.clear()
            remembering.clear()

    def over(self) -> bool:
        return self.active_step() is None

    def describe(self) -> str:
        step = self.active_step()
        return step.describe() if step else ""

    def kinds_for(self, entity) -> List[str]:
        """Every kind of action ``entity`` may take now (each step's, remembered until the
        position changes: :meth:`Step.known_kinds`)."""
        out: List[str] = []
        if entity is None:
            return out
        for step in self.steps:
            if not step.live():
                continue
            for k in step.known_kinds(entity):
                if k not in out:
                    out.append(k)
            if step.holding():
                break
        return out

    def step_for(self, entity, kind: str):
        for step in self.steps:
            if not step.live():
                continue
            if kind in step.known_kinds(entity):
                return step
            if step.holding():
                break
        return None

    # -- taking actions -------------------------------------------------------------------

    def step_taking(self, action):
        """The step that takes ``action`` (raises GameError if none may): a step before the
        one holding the turn that takes its kind in passing, else the step holding the
        turn if it takes it. A step takes only the kinds it has a handler for (those it may
        list, :meth:`takers`); passing is offered only where a step can hold the turn
        (``Step.holds``), so a step that cannot is not asked about a pass."""
        kind = action.kind
        if self.table.state.end.finished and kind != "message":
            raise GameError(f"the game is over: cannot process {kind}")
        entity = action.entity
        active = self.active_step()
        if active is not None and not active.live():
            active = None
        steps = self.steps
        last = len(steps) if active is None else steps.index(active)
        for place in self._takers.get(kind, ()):
            if place >= last:
                break
            step = steps[place]
            if step.live() and (kind != "pass" or step.holds()) and \
                    kind in step.known_kinds(entity):
                return step
        if active is None:
            raise GameError(f"no step can process {kind} by {entity.name}")
        if kind in active.HANDLERS and kind in active.known_kinds(entity):
            return active
        current = active.actor()
        who = "" if current is entity else \
            f"it is {current.name if current is not None else None}'s turn, "
        raise GameError(
            f"{entity.name} cannot {kind} now: {who}at "
            f"'{active.describe()}' ({', '.join(active.current_kinds()) or 'no actions'})")

    def judge(self, action):
        """The step taking ``action`` and the change it makes (raises if illegal)."""
        step = self.step_taking(action)
        return step, step.judge(action)

    def carry_out(self, action, step, commit) -> None:
        """Make the change; what was worked out at the position before it is forgotten,
        unless the step's actions leave the position as it was (``Step.CHANGES_POSITION``);
        then the steps left with nothing lapse, and the round moves on. The action takes
        its place among those carried out (``Action.order``), programmed ones included,
        unless it is no part of play (``Step.IN_PLAY``: a chat message)."""
        step.acted = True
        if step.IN_PLAY:
            state = self.table.state
            state.carried_out += 1
            action.order = state.carried_out
        commit()
        if step.CHANGES_POSITION:
            network.position_changed(self.table)
            self.forget()
        self.at_start = False
        self.after_action_before_lapses(action)
        self.lapse_idle_steps()
        self.after_action(action)

    def after_action_before_lapses(self, action) -> None:
        pass

    def after_action(self, action) -> None:
        pass

    def lapse_idle_steps(self) -> None:
        """Steps up to the first that holds the turn, with nothing for the entity whose
        turn it is, lapse (none while that entity is closed)."""
        entity = self.in_turn()
        if entity is not None and entity.closed:
            return
        lapsed = False
        for step, plain, by_round in self._standing_now():
            if step.done if plain else not (step.live() and step.holds()):
                continue         # may not hold the turn now (:func:`layout`)
            if (entity is not None and step.known_kinds(entity)) if by_round \
                    else step.has_turn():
                if not lapsed:   # every step before it passed over: where play stands
                    self._active = step
                return
            step.lapse()
            lapsed = True
            self.forget()
            entity = self.in_turn()
            if entity is not None and entity.closed:
                return
        if not lapsed:           # no step holds the turn
            self._active = False

    def goto(self, entity) -> None:
        self.index = self.entities.index(entity)

    def next_index(self) -> None:
        self.index = (self.index + 1) % len(self.entities)

    def first_index(self) -> None:
        self.index = 0

    def auto_moves(self):
        entity = self.acting()
        step = self.active_step(entity) if entity is not None else None
        return step.auto_moves(entity) if step else None

    def operator_closed(self, operator) -> None:
        """An operator left the game during the round."""

    def reopen_steps(self) -> None:
        """Every step opens again for the next turn (those that reopen in a way of their
        own after the others), and those with something to prepare for it prepare
        (:func:`layout`)."""
        for step in self._resetting:      # :meth:`Step.reopen`
            step.done = step.acted = False
        for step in self._reopening:
            step.reopen()
        for step in self._preparing:
            step.prepare()


class StockRound(Round):
    NAME = "Stock Round"
    is_stock = True

    def choose_entities(self) -> list:
        return [p for p in self.table.state.players if not p.bankrupt]

    def begin(self) -> None:
        self.lapse_idle_steps()
        if self.active_step() is None:
            self.advance()

    def after_action(self, action) -> None:
        if self.active_step() is not None:
            return
        self.advance()

    def advance(self) -> None:
        """The next player's turn (the round ends when all have passed in a row)."""
        if self.over():
            self.next_index()
            self.at_end()
            return
        self.next_index()
        self.start_turn()

    def start_turn(self) -> None:
        self.reopen_steps()
        self.forget()
        self.lapse_idle_steps()
        if self.active_step() is None:
            self.advance()

    def over(self) -> bool:
        if self.table.state.end.finished:
            return True
        for e in self.entities:     # (a loop: cheaper than all(map(attrgetter)))
            if not e.passed:
                return False
        return True

    def at_end(self) -> None:
        """Sold-out corporations rise; shares left in the market may push prices down."""
        table = self.table
        corps = [c for c in table.state.corporations
                 if operators.has_floated(table, c) and c.spec.kind != "minor"]
        for corp in operators.by_price(table, corps):
            if corp.price is None:
                continue
            old = corp.price
            if operators.sold_out(table, corp) and table.settings.sold_out_rises:
                market.move_price(table, corp, market.Direction.UP)
            market.pool_drop(table, corp, operators.shares_in_market(table, corp))
            market.report_move(table, corp, old)


class OperatingRound(Round):
    NAME = "Operating Round"
    is_operating = True
    NUMBERED_IN_SET = True

    def __init__(self, table: Table, steps: list, number: int = 1) -> None:
        self.operator = None
        self.operator_acted = False
        super().__init__(table, steps, number)

    @property
    def rounds_in_set(self) -> int:
        return self.table.state.operating_rounds

    def choose_entities(self) -> list:
        return operators.operating_order(self.table)

    def begin(self) -> None:
        self.operator = None
        self.operator_acted = False
        table = self.table
        powers.pay_revenues(table)
        if table.settings.home_token is HomeTokenTiming.OPERATING_ROUND:
            for entity in self.entities:
                operators.place_home_token(table, entity)
        for entity in self.entities:
            trains.set_operated(entity, False)
        if self.any_to_act():
            self.start_operating()

    def any_to_act(self) -> bool:
        """Is some operator of the round still open (asked after every action)?"""
        for entity in self.entities:
            if not entity.closed:
                return True
        return False

    def after_action(self, action) -> None:
        if action.kind == "message":
            return
        if action.entity is self.operator:
            self.operator_acted = True
        if self.active_step() is not None:
            entity = self.entities[self.index]
            if isinstance(entity.owner, (PlayerState, MarketState)):
                return
        if not self.table.state.end.finished:
            self.advance()

    def operator_closed(self, operator) -> None:
        if self.acting() is operator:
            for step in self.steps:
                step.mark_done()
            self.advance()
            self.forget()

    def advance(self) -> None:
        if self.index == len(self.entities) - 1:
            return
        self.next_index()
        if self.entities[self.index].closed:
            return self.advance()
        self.reopen_steps()
        self.forget()
        self.start_operating()

    def start_operating(self) -> None:
        entity = self.entities[self.index]
        if entity.closed:
            return self.advance()
        self.operator = entity
        self.operator_acted = False
        self.forget()          # asked afresh: where the operator begins
        table = self.table
        if not self.over() and table.keep_log:
            owner = entity.owner
            table.log(f"{owner.name if owner else 'Nobody'} operates {entity.name}")
        if table.settings.home_token is HomeTokenTiming.FIRST_OPERATION and \
                operators.place_home_token(table, entity):
            self.forget()      # the home token changed the position
        elif self.operator is None:
            self.forget()      # found over: asked again as the steps lapse
        self.lapse_idle_steps()
        if not self.over():
            return
        self.advance()

    def reorder_rest(self) -> None:
        """After sales changed prices (or a bankruptcy): the companies still to operate,
        in the round's order of those that operate."""
        rest = self.entities[self.index + 1:]
        del self.entities[self.index + 1:]
        self.entities.extend(e for e in self.choose_entities() if e in rest)

    def over(self) -> bool:
        done = self.active_step() is None or not self.any_to_act()
        if done:
            self.operator = None
        return done


class SeatRound(Round):
    """A round played in seat order (an auction or a draft). Its entities are the
    players' own list, so a change of seating changes it."""

    NAME = "Auction Round"
    is_auction = True

    def choose_entities(self) -> list:
        return self.table.state.players


class DraftRound(SeatRound):
    NAME = "Draft Round"
    is_auction = False
