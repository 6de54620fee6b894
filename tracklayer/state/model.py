"""The state of a game, as plain data: who holds what, where everything lies, whose turn
it is. It references the title's static data (tile shapes, train kinds, charters) but no
rules; the rules modules in ``tracklayer.rules`` are the only ones that change it, each
its own part.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Dict, List, Optional, Tuple

from ..spec.data import CompanySpec, CorporationSpec, MinorSpec, Power, TrainSpec, TrainVariant


@dataclass(eq=False)
class Certificate:
    """A share certificate: ``percent`` of a corporation; index 0 is the president's."""
    corporation: "CorporationState"
    index: int
    percent: int
    president: bool
    owner: Any
    buyable: bool = True
    last: bool = False        # goes only when it is the last certificate of its pile

    @property
    def id(self) -> str:
        return f"{self.corporation.sym}_{self.index}"

    def __repr__(self) -> str:
        return f"<Certificate {self.id} {self.percent}%>"


@dataclass(eq=False)
class PowerState:
    """A power in play: its text, the entity it belongs to, and what is left of it."""
    spec: Power
    holder: Any
    uses_left: Optional[int] = None
    used: bool = False
    certificate: Optional[str] = None     # a shares power: the certificate that comes along


@dataclass(eq=False)
class PlayerState:
    id: Any
    name: str
    cash: int = 0
    shares: Dict[str, List[Certificate]] = field(default_factory=dict)
    companies: List["CompanyState"] = field(default_factory=list)
    bankrupt: bool = False
    passed: bool = False
    penalty: int = 0          # taken off the final score (1849's emergency loan)
    closed: ClassVar[bool] = False   # a player never closes (as companies do)

    def __repr__(self) -> str:
        return f"<Player {self.id}>"


@dataclass(eq=False)
class MarketState:
    """The open market (bank pool): certificates for sale."""
    shares: Dict[str, List[Certificate]] = field(default_factory=dict)
    name: str = "Market"
    id: str = "market"


@dataclass(eq=False)
class BankState:
    cash: int
    unlimited: bool = False
    broken: bool = False
    loans_aside: int = 0      # owed by a corporation being liquidated, until it settles
    companies: List["CompanyState"] = field(default_factory=list)
    shares: Dict[str, List[Certificate]] = field(default_factory=dict)
    name: str = "The Bank"
    id: str = "bank"


@dataclass(eq=False)
class TokenState:
    """A station marker; ``where`` is (hex, city part index) once placed."""
    owner: Any
    price: int = 0
    kind: str = "normal"
    where: Optional[Tuple[str, int]] = None
    extra: bool = False
    cheater: bool = False


@dataclass(eq=False)
class TrainState:
    spec: TrainSpec
    index: int
    variant: TrainVariant
    owner: Any = None
    operated: bool = False
    obsolete: bool = False
    rusted: bool = False
    saleable: bool = True     # false once its company closed
    events_due: Tuple = ()

    @property
    def id(self) -> str:
        return f"{self.spec.name}-{self.index}"

    @property
    def name(self) -> str:
        return self.variant.name

    def __repr__(self) -> str:
        return f"<Train {self.id} {self.name}>"


@dataclass(eq=False)
class Operation:
    """One operating turn of a company: what it earned and what it did with it."""
    turn: int
    round: int
    revenue: int
    kind: str


@dataclass(eq=False)
class OperatorState:
    """What corporations and minors share: a treasury, trains, station tokens, history."""
    sym: str
    cash: int = 0
    owner: Any = None
    trains: List[TrainState] = field(default_factory=list)
    tokens: List[TokenState] = field(default_factory=list)
    companies: List["CompanyState"] = field(default_factory=list)
    history: List[Operation] = field(default_factory=list)
    powers: List[PowerState] = field(default_factory=list)
    assignments: Dict[str, bool] = field(default_factory=dict)
    floated: bool = False
    closed: bool = False
    passed: bool = False
    route_known: bool = False   # once it has had a route, it is treated as having one
    loans: int = 0              # loans owed to the bank (rules.finance)

    @property
    def id(self) -> str:
        return self.sym

    @property
    def name(self) -> str:
        return self.sym

    @property
    def operated(self) -> bool:
        return bool(self.history)


@dataclass(eq=False)
class CorporationState(OperatorState):
    spec: CorporationSpec = None  # type: ignore[assignment]
    certificates: List[Certificate] = field(default_factory=list)
    shares: Dict[str, List[Certificate]] = field(default_factory=dict)
    holders: Dict[Any, int] = field(default_factory=dict)   # percent by holder, in order of arrival
    price: Optional[Tuple[int, int]] = None                  # market cell (row, column)
    par: Optional[Tuple[int, int]] = None
    started: bool = False
    floatable: bool = True
    reached_top: bool = False

    def __repr__(self) -> str:
        return f"<Corporation {self.sym}>"


@dataclass(eq=False)
class MinorState(OperatorState):
    spec: MinorSpec = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Minor {self.sym}>"


@dataclass(eq=False)
class CompanyState:
    """A private company (also the cards of 1893's minors and its bonds)."""
    spec: CompanySpec
    owner: Any = None
    closed: bool = False
    revenue: int = 0
    discount: int = 0
    min_price: int = 0
    max_price: int = 0
    powers: List[PowerState] = field(default_factory=list)
    passed: bool = False

    @property
    def sym(self) -> str:
        return self.spec.sym

    @property
    def id(self) -> str:
        return self.spec.sym

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def value(self) -> int:
        return self.spec.value

    def __repr__(self) -> str:
        return f"<Company {self.sym}>"


@dataclass(eq=False)
class CityState:
    """What sits in a city of the tile on a hex: tokens by slot, reservations by slot."""
    slots: List[Optional[TokenState]]
    extra: List[TokenState] = field(default_factory=list)
    reservations: List[Any] = field(default_factory=list)
    groups: Tuple[str, ...] = ()


@dataclass(eq=False)
class HexState:
    """A hex: the tile on it (id, rotation), what is on its cities, and what the hex
    keeps whatever tile is laid (terrain in some titles, borders, icons)."""
    id: str
    tile: str
    printed: Optional[str] = None             # the printed tile's shape while it lies here
    rotation: int = 0
    cities: List[CityState] = field(default_factory=list)   # by city, in the tile's order
    reservations: List[Any] = field(default_factory=list)
    terrain: Tuple = ()
    borders: List = field(default_factory=list)
    icons: List = field(default_factory=list)
    assignments: Dict[str, bool] = field(default_factory=dict)
    open_sides: Tuple[int, ...] = ()          # sides track may cross to the next hex


@dataclass(eq=False)
class DepotState:
    """The bank's trains: those still to be sold, in order, and those given back."""
    upcoming: List[TrainState] = field(default_factory=list)
    given_back: List[TrainState] = field(default_factory=list)
    every: List[TrainState] = field(default_factory=list)    # every train ever made


@dataclass(eq=False)
class EndState:
    finished: bool = False
    reason: Optional[str] = None
    trigger: Optional[Tuple[Any, Any]] = None
    final_turn: Optional[int] = None


@dataclass(eq=False)
class GameState:
    players: List[PlayerState]
    corporations: List[CorporationState]      # in the title's order (1849: founding order)
    minors: List[MinorState]
    companies: List[CompanyState]
    bank: BankState
    market: MarketState
    depot: DepotState
    hexes: Dict[str, HexState]
    tiles: List[str]                          # tile ids in the supply, in order
    cells: Dict[Tuple[int, int], List[CorporationState]]   # who stands on each market cell
    par_cells: List[Tuple[int, int]]          # cells a corporation may start at
    phase: int = 0
    turn: int = 1
    operating_rounds: int = 1                 # in this set, fixed when the set begins
    round: Any = None                         # the round being played (tracklayer.turns)
    end: EndState = field(default_factory=EndState)
    programs: Dict[Any, list] = field(default_factory=dict)
    title: Any = None                         # what a title keeps of its own
    rng: Any = None                           # the game's random numbers
    round_count: int = 0
    carried_out: int = 0                      # actions carried out so far (turns.round)
    top_reached: bool = False                 # a price has reached an end-of-game cell
    networks: Dict[Any, Any] = field(default_factory=dict)   # rules.network: as last worked out
