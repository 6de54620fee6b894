"""The table: one game's static data, its state, and what is worked out from the state.

Every rule is a function of the table. The state is plain data (``tracklayer.state``);
what is derived from it (where tiles lie, the companies' networks, the trains for sale)
is kept in :class:`Derived`, each part owned by the rules module that works it out and
forgotten when what it depends on changes.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from ..errors import GameError
from ..packed import Packed
from ..spec.data import PhaseSpec
from ..spec.resolved import Cell, GameSpec
from ..state.model import CompanyState, GameState, OperatorState, PlayerState


class Derived:
    """What is worked out from the state (see the owners named below)."""

    __slots__ = ("index", "views", "network", "chains", "offer", "crowded", "held", "linked",
                 "after_lay", "opened", "loans_out", "turned")

    def __init__(self) -> None:
        self.index: Optional[Dict[str, dict]] = None      # rules.table: ids → objects
        self.views: Dict[str, Any] = {}                    # rules.board: tiles as laid
        self.linked: Dict[str, list] = {}                  # rules.board: rails with links kept
        self.network: Dict[Any, Any] = {}                  # rules.network: who reaches what
        self.chains: Dict[Any, Any] = {}                   # rules.route_reading: connections read
        self.offer: Optional[list] = None                  # rules.trains: trains for sale
        self.crowded: Optional[list] = None                # rules.trains: over the limit
        self.held: Optional[list] = None                   # rules.trains: owners' trains
        self.after_lay: Dict[Any, Any] = {}                # rules.track: tiles in trial
        self.opened: List[Any] = []                        # rules.network: route flags set
        self.loans_out: Optional[int] = None               # rules.finance: loans lent out
        self.turned: Dict[Any, dict] = {}                  # rules.variant: rotations judged


# What the table indexes by id, each kind worked out from the state (:meth:`Table.find`).
_INDEXED: Dict[str, Callable[[GameState], dict]] = {
    "player": lambda s: {p.id: p for p in s.players},
    "corporation": lambda s: {c.sym: c for c in s.corporations},
    "minor": lambda s: {m.sym: m for m in s.minors},
    "company": lambda s: {c.sym: c for c in s.companies},
    "train": lambda s: {t.id: t for t in s.depot.every},
    "share": lambda s: {cert.id: cert for c in s.corporations for cert in c.certificates},
}


class Table:
    """One game: ``spec`` (static), ``state`` (plain data), ``variant`` (the title's own
    rules), ``derived`` (caches)."""

    def __init__(self, spec: GameSpec, state: GameState, variant: Any,
                 keep_log: bool = True) -> None:
        self.spec = spec
        self.state = state
        self.variant = variant
        self.settings = spec.settings
        self.derived = Derived()
        self.keep_log = keep_log
        self.messages: Packed = Packed()      # the lines the rules wrote
        self.listing = False      # true while moves are only being listed or tried
        # true while entries this engine accepted are replayed: what can only refuse them
        # is not asked (turns.laying.LAY_CHECKS, turns.operating.RUN_CHECKS)
        self.trusted = False

    # -- the log --------------------------------------------------------------------------

    def log(self, message: str) -> None:
        if self.keep_log:
            self.messages.append(message)

    def money(self, amount: int) -> str:
        return self.spec.money(amount)

    # -- the phase and the round ----------------------------------------------------------

    @property
    def phase(self) -> PhaseSpec:
        return self.spec.phases[self.state.phase]

    def phase_has(self, status: str) -> bool:
        return status in self.spec.phases[self.state.phase].status

    def phase_reached(self, name: Optional[str]) -> bool:
        """Has the phase called ``name`` come (or is it the current one)?"""
        for i, p in enumerate(self.spec.phases):
            if p.name == name:
                return i <= self.state.phase
        return False

    @property
    def round(self):
        return self.state.round

    @property
    def turn(self) -> int:
        return self.state.turn

    def cell(self, at) -> Optional[Cell]:
        return self.spec.cells.get(at) if at is not None else None

    # -- finding things by id -------------------------------------------------------------

    def forget(self) -> None:
        """Forget everything derived (after the state was replaced)."""
        self.derived = Derived()

    def forget_index(self) -> None:
        self.derived.index = None

    def index_certificate(self, certificate) -> None:
        """A certificate new to the game is found by its id (the index of certificates, if
        made, kept)."""
        index = self.derived.index
        shares = index.get("share") if index is not None else None
        if shares is not None:
            shares[certificate.id] = certificate

    def _index(self, kind: str) -> Optional[dict]:
        """The objects of ``kind`` by id (None: no such kind). Each kind is indexed when
        first looked up after the index was forgotten (a train bought, a corporation
        closed, a certificate gone: ``forget_index``), not all of them at once: most
        actions after that look up a player or a corporation alone, and the trains and
        certificates cost most to index."""
        index = self.derived.index
        if index is None:
            index = self.derived.index = {}
        found = index.get(kind)
        if found is None:
            build = _INDEXED.get(kind)
            if build is None:
                return None
            found = index[kind] = build(self.state)
        return found

    def find(self, kind: Optional[str], key) -> Any:
        """The player, corporation, minor, company, train or share (certificate) called
        ``key``, or None (a player's number may come as a string)."""
        if kind is None:
            return None
        index = self.derived.index
        table = index.get(kind) if index is not None else None
        if table is None:
            table = self._index(kind)
            if table is None:
                return None
        found = table.get(key)
        if found is None and kind == "player" and isinstance(key, str) \
                and key.lstrip("-").isdigit():
            found = table.get(int(key))
        return found

    def player(self, pid):
        return self.find("player", pid)

    def corporation(self, sym: str):
        return self.find("corporation", sym)

    def minor(self, sym: str):
        return self.find("minor", sym)

    def company(self, sym: str):
        return self.find("company", sym)

    def operators(self) -> list:
        return self.state.minors + self.state.corporations


Hook = Callable[..., Any]


def controller(entity):
    """The player in control of ``entity`` (None for the bank, the market, or a company in
    receivership)."""
    owner, seen = entity, []
    while isinstance(owner, (CompanyState, OperatorState)) and owner not in seen:
        seen.append(owner)
        owner = owner.owner
    return owner if isinstance(owner, PlayerState) else None


def refuse(message: str) -> None:
    """Refuse an action: the rule it breaks."""
    raise GameError(message)
