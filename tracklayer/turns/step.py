"""Steps: the parts of a round (bid, lay track, place a token, run trains …).

A step says which kinds of action an entity may take in it now (:meth:`Step.kinds`) and
takes them. Each kind is handled by one method marked :func:`handles`: it checks the
action against the rules and returns what to do if it is legal, so that one check both
refuses an illegal action and filters the moves a player is offered.

A round asks its steps in order; the first step that *holds* the turn and has something
for the entity whose turn it is, is where play stands. A step with nothing to offer is
*lapsed* (which may do something: withholding when no train can run).
"""

from __future__ import annotations

from types import FunctionType
from typing import Callable, ClassVar, Dict, Iterable, List, NamedTuple, Optional, Tuple

from ..actions import new_action
from ..errors import GameError
from ..rules import trading

Commit = Callable[[], None]
_UNKNOWN = object()     # (not yet remembered: :meth:`Step.remember`)


def handles(*kinds: str):
    """Mark a method as the handler of actions of ``kinds``: called with the action, it
    raises GameError if the action is not allowed, else returns the change to make. A
    subclass overriding a handler marks its method too."""
    def mark(method):
        method.action_kinds = kinds
        return method
    return mark


class Check(NamedTuple):
    """One rule of a table of checks a handler judges an action by (``rule``: refuses the
    action naming what is wrong), and what an action replayed trusted
    (:attr:`Table.trusted`: from a log this engine accepted) works out of it instead
    (``kept``: what carrying the action out needs of it; None: the rule only refuses, and
    is not asked)."""
    rule: Callable[..., None]
    kept: Optional[Callable[..., None]] = None


def asked(checks: Iterable[Check]) -> Tuple[tuple, tuple]:
    """What a table of :class:`Check` asks: (judging an action, replaying one trusted)."""
    checks = tuple(checks)
    return (tuple(c.rule for c in checks),
            tuple(c.kept for c in checks if c.kept is not None))


def _handled_kinds(attr) -> tuple:
    return attr.__dict__.get("action_kinds", ()) if isinstance(attr, FunctionType) else ()


class Kinds:
    """Kinds of action worked out only as far as they are asked about: from an iterator
    yielding each kind once, in order. Asking whether there is any kind, or whether one
    is among them, goes only as far as it must (a stock turn's first kind, buying, often
    decides its turn); reading them all works them all out. A step's :meth:`Step.kinds`
    may return one; it is read while the position stands (see :meth:`Step.known_kinds`).

    A step may also say, by the same rules that decide its listing: ``some``, whether
    there is any kind at all (asking its rules cheapest first), and ``rules``, for a kind,
    whether it is among them (without working out the kinds listed before it)."""

    __slots__ = ("_source", "_found", "_some", "_rules")

    def __init__(self, source: Iterable[str], some: Optional[Callable[[], bool]] = None,
                 rules: Optional[Dict[str, Callable[[], bool]]] = None) -> None:
        self._source = iter(source)
        self._found: List[str] = []
        self._some = some
        self._rules = rules

    def _next(self) -> Optional[str]:
        """The next kind worked out (None when there are no more)."""
        source = self._source
        if source is None:
            return None
        for kind in source:
            self._found.append(kind)
            return kind
        self._source = None
        return None

    def all(self) -> tuple:
        while self._next() is not None:
            pass
        return tuple(self._found)

    def __contains__(self, kind) -> bool:
        if kind in self._found:
            return True
        rules = self._rules
        if rules is not None and self._source is not None:
            rule = rules.get(kind)
            if rule is not None:
                return rule()
        while True:
            found = self._next()
            if found is None:
                return False
            if found == kind:
                return True

    def __bool__(self) -> bool:
        if self._found:
            return True
        if self._source is None:
            return False
        some = self._some
        if some is None:
            return self._next() is not None
        if some():
            return True
        self._source = None     # nothing to list
        return False

    def __iter__(self):
        return iter(self.all())

    def __len__(self) -> int:
        return len(self.all())

    def __eq__(self, other) -> bool:
        return self.all() == tuple(other)

    def __repr__(self) -> str:
        return f"Kinds{self.all()!r}"


class Step:
    """One part of a round. ``done`` once passed or finished for the current entity."""

    NAME: ClassVar[str] = "Step"
    HOLDS: ClassVar[bool] = True
    HANDLERS: ClassVar[Dict[str, Callable]] = {}
    # Whether the step's actor is the round's entity in turn (no class says otherwise by
    # its own :meth:`actors`).
    ROUND_ACTOR: ClassVar[bool] = True
    # Whether it may hold the turn only once the game is over (chat): while the game goes
    # on, the round does not ask it where play stands (``round.layout``).
    HOLDS_ONCE_OVER: ClassVar[bool] = False
    # Whether passing is ever among its kinds: a step that never offers it takes no pass
    # (so a pass is not weighed against its kinds on the way to the step that takes it).
    PASSES: ClassVar[bool] = True
    # Whether its actions change the position (what any step's kinds and the networks are
    # worked out from): those of a step that only keeps what a player said (chat, their
    # programs) do not, and what was worked out before them still holds after them.
    CHANGES_POSITION: ClassVar[bool] = True
    # Its actions take their place among those carried out (``Action.order``, which
    # programs read); a chat message, which changes nothing, takes none.
    IN_PLAY: ClassVar[bool] = True

    def __init_subclass__(cls, **kw) -> None:
        """The class's handlers: those it inherits, and its own marked methods."""
        super().__init_subclass__(**kw)
        handlers: Dict[str, Callable] = {}
        for base in reversed(cls.__bases__):
            handlers.update(base.__dict__.get("HANDLERS", {}))
        inherited = {f.__name__ for f in handlers.values()}
        for name, attr in vars(cls).items():
            kinds = _handled_kinds(attr)
            if not kinds and name in inherited and isinstance(attr, FunctionType):
                raise TypeError(f"{cls.__name__}.{name} overrides a handler: mark it @handles")
            for kind in kinds:
                handlers[kind] = attr
        if not cls.PASSES:
            handlers.pop("pass", None)
        cls.HANDLERS = handlers
        cls.ROUND_ACTOR = all("actors" not in vars(c) for c in cls.__mro__ if c is not Step)

    def __init__(self, round, **options) -> None:
        self.round = round
        self.table = round.table    # the round's, for the life of the step
        self.options = options
        self.done = False
        self.acted = False
        self.memo: Dict[object, object] = {}

    def __getstate__(self):
        """A snapshot keeps what the step knows, not what it has worked out."""
        state = dict(self.__dict__)
        state["memo"] = {}
        return state

    # -- what may be done -----------------------------------------------------------------

    def kinds(self, entity) -> tuple:
        """The kinds of action ``entity`` may take in this step now."""
        return ()

    def describe(self) -> str:
        return self.NAME

    def prepare(self) -> None:
        """At the start of the round and of every entity's turn."""

    def holds(self) -> bool:
        """Can this step hold the turn (not just take actions in passing)? A step that
        cannot offers no pass (``Round.step_taking`` does not ask it about one)."""
        return self.HOLDS

    def holding(self) -> bool:
        """Does the step hold the turn now: it can, and :meth:`has_turn`?"""
        return self.holds() and self.has_turn()

    def has_turn(self) -> bool:
        """Has the step something for the entity whose turn it is (not closed)?"""
        entity = self.actor()
        return entity is not None and not entity.closed and bool(self.known_kinds(entity))

    def live(self) -> bool:
        return not self.done

    def known_kinds(self, entity) -> tuple:
        """:meth:`kinds`, remembered until the position changes (kept by the entity
        itself: entities are told apart by identity)."""
        memo = self.memo
        found = memo.get(entity)
        if found is None:
            found = self.kinds(entity)
            if not isinstance(found, Kinds):
                found = tuple(found)
            if not memo:
                self.round.memo.append(self)
            memo[entity] = found
        return found

    def remember(self, key, work: Callable[..., object], *args):
        """``work(*args)``, kept with the kinds (:meth:`known_kinds`) until the position
        changes: for what weighing the kinds asks again and again (the arguments given
        apart, so that asking again makes no closure)."""
        memo = self.memo
        found = memo.get(key, _UNKNOWN)
        if found is not _UNKNOWN:
            return found
        found = work(*args)
        if not memo:
            self.round.memo.append(self)
        memo[key] = found
        return found

    def current_kinds(self) -> tuple:
        entity = self.actor()
        if entity is None or entity.closed:
            return ()
        return self.known_kinds(entity)

    def actors(self) -> list:
        r = self.round
        return [r.entities[r.index]] if r.index < len(r.entities) else [None]

    def actor(self):
        """The first of :meth:`actors` (None if none)."""
        if self.ROUND_ACTOR:
            r = self.round
            try:
                return r.entities[r.index]
            except IndexError:      # past the last
                return None
        actors = self.actors()
        return actors[0] if actors else None

    # Kinds whose one action names nothing but its entity (besides passing).
    BARE_KINDS: ClassVar[tuple] = ()

    def candidates(self, entity, kind: str, offer) -> list:
        """Actions of ``kind`` ``entity`` might take here, to be judged for the list of
        legal moves (``offer``: prices and routes; see ``tracklayer.turns.listing``)."""
        if kind == "pass" or kind in self.BARE_KINDS:
            return [new_action(kind, entity)]
        if kind == "choose":
            return [new_action("choose", entity, choice=c) for c in self.choices()]
        if kind == "sell_shares":
            return sale_candidates(self.table, entity)
        return []

    def may_sell(self, seller, bundle) -> bool:
        """May ``seller`` sell ``bundle`` in this step? (Steps where shares are sold say.)"""
        return False

    def leading_bidder(self, company):
        """The player whose bid on ``company`` leads, while bids on it stand (auction
        steps say)."""
        return None

    def leading_bids(self, player) -> int:
        """The money ``player``'s leading bids hold (auction steps say)."""
        return 0

    def auto_moves(self, entity) -> Optional[List[dict]]:
        """Actions the entity's standing programs take now."""
        return None

    # -- taking actions -------------------------------------------------------------------

    def judge(self, action) -> Commit:
        """Check ``action`` (raise GameError if it breaks a rule); return its change."""
        handler = self.HANDLERS.get(action.kind)
        if handler is None:
            raise GameError(f"{action.kind} is not supported in {self.describe()}")
        return handler(self, action)

    # -- passing --------------------------------------------------------------------------

    def mark_done(self) -> None:
        self.done = True

    def reopen(self) -> None:
        self.done = False
        self.acted = False

    def lapse(self) -> None:
        """Nothing to do here: move on (saying that the entity skips)."""
        if not self.acted:
            entity = self.actor()
            if entity is not None:
                self.tell_skip(entity)
        self.mark_done()

    def tell_pass(self, entity) -> None:
        if self.table.keep_log:     # (the step's description is worked out only to be told)
            self.table.log(f"{entity.name} passes {self.describe().lower()}")

    def tell_skip(self, entity) -> None:
        if self.table.keep_log:
            self.table.log(f"{entity.name} skips {self.describe().lower()}")

    @handles("pass")
    def decline(self, action) -> Commit:
        def commit() -> None:
            self.tell_pass(action.entity)
            self.mark_done()
        return commit

    # -- choices --------------------------------------------------------------------------

    CHOICES: ClassVar[tuple] = ()

    def choices(self) -> List[str]:
        """What a ``choose`` action may pick in this step."""
        return list(self.CHOICES)

    def check_choice(self, action) -> None:
        options = self.choices()
        if action.choice not in options:
            raise GameError(f"choose one of {', '.join(options)}")


Step.HANDLERS = {kind: attr for attr in vars(Step).values() for kind in _handled_kinds(attr)}


def mine(step: Step, entity) -> bool:
    return entity is step.actor()


def first(items: Iterable):
    for item in items:
        return item
    return None


def sale_candidates(table, seller) -> list:
    """Every bundle ``seller`` could sell, as ``sell_shares`` actions (a step offering
    sales judges which it takes)."""
    return [new_action("sell_shares", seller, shares=b.ids(), percent=b.percent)
            for certs in list(seller.shares.values())
            if certs and not certs[0].corporation.closed
            for b in trading.sale_bundles(table, seller, certs[0].corporation)]
