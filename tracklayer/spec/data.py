"""A title's data, typed: the map, tiles, stock market, trains, phases, corporations, minors
and private companies, as the title's data module declares them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property
from typing import Dict, Mapping, Optional, Tuple, Union


class Timing(Enum):
    """When a private company's power may be used (or, for ``close`` powers, what closes
    it)."""
    PASSIVE = "passive"                           # always in force
    ANY = "any"
    OWNING_CORPORATION_TURN = "owning_corp_or_turn"
    OWNING_PLAYER_STOCK_TURN = "owning_player_sr_turn"
    SOLD = "sold"                                 # when sold to a corporation
    BOUGHT_TRAIN = "bought_train"                 # when the named corporation buys a train
    OPERATED = "operated"
    RAN_TRAIN = "ran_train"
    STARTED = "par"


@dataclass(frozen=True)
class Power:
    """A power (ability) written on a private company or a corporation charter."""
    kind: str                                     # blocks_hexes, tile_discount, exchange …
    owner: Optional[str] = None                   # works only while owned by a "player" / "corporation"
    when: Tuple[Timing, ...] = ()
    count: Optional[int] = None                   # uses before it is gone
    hexes: Tuple[str, ...] = ()
    terrain: Optional[str] = None
    discount: Union[int, str, None] = None
    corporations: Tuple[str, ...] = ()
    sources: Tuple[str, ...] = ()                 # where exchanged shares come from
    certificate: Optional[str] = None             # shares: which certificate comes along
    corporation: Optional[str] = None             # close: the corporation whose act closes it
    # close: the phase whose start closes it; "never": not even the event that closes all
    # private companies (1871's Union Bank and PEIR cards). None: no such limit.
    on_phase: Optional[str] = None
    text: str = ""

    def __post_init__(self) -> None:
        if not all(isinstance(w, Timing) for w in self.when):
            raise TypeError(f"power {self.kind}: 'when' holds Timing values, not {self.when!r}")

    @property
    def passive(self) -> bool:
        return not self.when


@dataclass(frozen=True)
class TrainEvent:
    """Something that happens when the ``nth`` train of a kind is first bought."""
    kind: str
    nth: int = 1


@dataclass(frozen=True)
class StopAllowance:
    """For trains like 8+x: up to ``pay`` stops of the listed kinds count (``visit`` may be
    visited)."""
    kinds: Tuple[str, ...]
    pay: int
    visit: Optional[int] = None

    @property
    def visits(self) -> int:
        return self.pay if self.visit is None else self.visit


@dataclass(frozen=True)
class TrainVariant:
    name: str
    distance: Union[int, Tuple[StopAllowance, ...]]
    price: int
    rusts_on: Tuple[str, ...] = ()
    obsolete_on: Tuple[str, ...] = ()
    discount: Tuple[Tuple[str, int], ...] = ()    # trade-in price reductions by train name
    multiplier: Optional[int] = None
    gauge: str = "broad"


@dataclass(frozen=True)
class TrainSpec:
    """A kind of train: how many there are, what each costs and does."""
    name: str
    distance: Union[int, Tuple[StopAllowance, ...]]
    price: int
    count: Union[int, str, None] = None           # None: the title sets it; "unlimited"
    rusts_on: Tuple[str, ...] = ()
    obsolete_on: Tuple[str, ...] = ()
    available_on: Optional[str] = None            # also sold once this phase has come
    discount: Tuple[Tuple[str, int], ...] = ()
    events: Tuple[TrainEvent, ...] = ()
    variants: Tuple[TrainVariant, ...] = ()
    multiplier: Optional[int] = None
    gauge: str = "broad"
    local_ok: bool = True
    requires_token: bool = True
    # The distance counts hex sides crossed, not stops; a route earns every stop on the
    # hexes it enters (1871's H trains: a 2H crosses 2 sides, so runs through 3 hexes).
    hex_distance: bool = False
    # The depot never runs out: it starts with ``count`` (18xx.games: 1) and adds another
    # each time the last one is bought (18xx.games ``num: 'unlimited'``; 1871's D).
    unlimited: bool = False

    @cached_property
    def base(self) -> TrainVariant:
        """The train as printed (its first form)."""
        return TrainVariant(self.name, self.distance, self.price, self.rusts_on,
                            self.obsolete_on, self.discount, self.multiplier, self.gauge)


@dataclass(frozen=True)
class PhaseSpec:
    name: str
    on: Tuple[str, ...] = ()                      # trains whose purchase starts the phase
    train_limit: Union[int, Tuple[Tuple[str, int], ...]] = 4
    tiles: Tuple[str, ...] = ("yellow",)
    operating_rounds: int = 1
    status: frozenset = frozenset()
    trains_between_companies: bool = True         # or only from the depot
    # The sizes (numbers of shares) a corporation may have or be started with in this
    # phase (1817: 2, 5 or 10); empty: a title without sizes.
    corporation_sizes: Tuple[int, ...] = ()

    def limit_for(self, kind: Optional[str]) -> int:
        if isinstance(self.train_limit, int):
            return self.train_limit
        return dict(self.train_limit).get(kind, 0)


@dataclass(frozen=True)
class LoanSpec:
    """Loans the bank lends corporations, ``value`` each. The interest rate (percent a
    round) starts at ``min_rate`` and rises by ``rate_step`` once more than each further
    ``per_step`` loans are out, up to ``max_rate``; there are as many loans as the rates
    take (1817NA: rates 5, 10 … 70, four loans each, 56 loans)."""
    value: int = 100
    min_rate: int = 5
    max_rate: int = 70
    rate_step: int = 5
    per_step: int = 5

    def __post_init__(self) -> None:
        for name in ("value", "min_rate", "max_rate", "rate_step", "per_step"):
            v = vars(self)[name]
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise ValueError(f"loans: {name} must be a positive integer, not {v!r}")
        if self.max_rate < self.min_rate or (self.max_rate - self.min_rate) % self.rate_step:
            raise ValueError(f"loans: rates {self.min_rate}..{self.max_rate} do not go in "
                             f"steps of {self.rate_step}")

    @property
    def rates(self) -> Tuple[int, ...]:
        return tuple(range(self.min_rate, self.max_rate + 1, self.rate_step))

    @cached_property
    def count(self) -> int:
        """How many loans the bank has: ``per_step`` at each of the :attr:`rates` (worked
        out once: asked whenever a corporation may borrow)."""
        return ((self.max_rate - self.min_rate) // self.rate_step + 1) * self.per_step

    def rate_for(self, taken: int) -> int:
        """The interest rate with ``taken`` loans out: the first rate whose loans, with
        those of the rates before it, cover them."""
        steps_full = max(0, -(-taken // self.per_step) - 1)
        return min(self.min_rate + steps_full * self.rate_step, self.max_rate)

    def interest(self, rate: int, loans: int) -> int:
        """What ``loans`` loans cost at ``rate`` percent (whole dollars, rounded down)."""
        return rate * loans * self.value // 100


@dataclass(frozen=True)
class CorporationSpec:
    sym: str
    name: str
    tokens: Tuple[int, ...] = (0,)                # price of each station token
    shares: Tuple[int, ...] = (20, 10, 10, 10, 10, 10, 10, 10, 10)
    float_percent: int = 60
    float_excludes_market: bool = False           # shares in the market do not count as sold
    float_includes_reserved: bool = False         # reserved (exchange) shares count as sold
    floatable: bool = True
    max_ownership: int = 60
    market_price_as_par: bool = False             # treasury shares sell at the market price
    capitalization: Optional[str] = None
    kind: Optional[str] = None
    home: Union[str, Tuple[str, ...], None] = None
    home_city: Optional[int] = None               # which city of the home hex (None: the only one)
    color: Optional[str] = None
    powers: Tuple[Power, ...] = ()
    token_fee: int = 0                            # paid for all its tokens when it starts
    last_certificate_last: bool = False           # its last certificate goes last (1849)


@dataclass(frozen=True)
class MinorSpec:
    sym: str
    name: str
    tokens: Tuple[int, ...] = (0,)
    kind: Optional[str] = None
    home: Optional[str] = None
    home_city: Optional[int] = None
    color: Optional[str] = None
    powers: Tuple[Power, ...] = ()
    least_treasury: int = 0         # it floats with what its card sold for, at least this


@dataclass(frozen=True)
class CompanySpec:
    sym: str
    name: str
    value: int
    revenue: int = 0
    text: str = ""
    powers: Tuple[Power, ...] = ()
    min_price: Optional[int] = None
    max_price: Optional[int] = None
    min_players: int = 0
    color: Optional[str] = None
    stack: Optional[str] = None     # one of identical companies (1893's bonds): sold in order
    bank_buys: bool = False         # the bank buys it back at face value in stock rounds
    minor: Optional[str] = None     # the card of a minor: its buyer owns the minor


@dataclass(frozen=True)
class TileSupply:
    """Tiles a title brings, in order: a standard tile by its count, a title's own tile
    as (count, colour, tile notation)."""
    tiles: Mapping[str, Union[int, str, Tuple[int, str, str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class MapSpec:
    """The printed map: by colour, hex names (in tile-id order) and what is printed there."""
    hexes: Mapping[str, Mapping[Tuple[str, ...], str]]
    layout: str = "flat"
    letters_on_x: bool = True
    names: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class MarketSpec:
    """The stock market grid (one row of codes per line: a price and letters giving the
    cell's kinds, ``p`` par, ``e`` end of game, ``c`` closes …), and where movement stops
    until a phase status frees it."""
    rows: Tuple[Tuple[str, ...], ...]
    no_right_at: Tuple[int, ...] = ()             # prices that cannot move right …
    no_up_at: Tuple[int, ...] = ()                # … or up …
    freed_by: Optional[str] = None                # … until the phase has this status


@dataclass(frozen=True)
class OptionalRule:
    sym: str
    short_name: str
    text: str = ""
    players: Tuple[int, ...] = ()                 # only with these player counts


@dataclass(frozen=True)
class TitleData:
    """Everything a game of the title is set up from."""
    map: MapSpec
    tiles: TileSupply
    market: MarketSpec
    trains: Tuple[TrainSpec, ...]
    phases: Tuple[PhaseSpec, ...]
    corporations: Tuple[CorporationSpec, ...]
    bank_cash: Optional[int]                      # None: an unlimited bank
    starting_cash: int
    cert_limit: int
    minors: Tuple[MinorSpec, ...] = ()
    companies: Tuple[CompanySpec, ...] = ()
    # Station tokens on the map from the start, in a hex's first city: (operator, hex),
    # no operator for a neutral token that only takes up a slot.
    tokens_at_start: Tuple[Tuple[Optional[str], str], ...] = ()
    loans: Optional[LoanSpec] = None              # None: the bank lends nothing
    # Money the bank adds to winning bids in the auction of private companies, up to the
    # companies' values, until it is spent (1817's seed money); 0: none.
    seed_money: int = 0

    def __post_init__(self) -> None:
        if self.loans is not None and not isinstance(self.loans, LoanSpec):
            raise TypeError(f"loans must be a LoanSpec, not {self.loans!r}")
        if not isinstance(self.seed_money, int) or self.seed_money < 0:
            raise ValueError(f"seed money must be a whole amount >= 0, not {self.seed_money!r}")
        for p in self.phases:
            if any(not isinstance(n, int) or n <= 0 or 100 % n for n in p.corporation_sizes):
                raise ValueError(f"phase {p.name}: corporation sizes must divide 100 shares "
                                 f"evenly, not {p.corporation_sizes!r}")
        operators = {c.sym for c in self.corporations} | {m.sym for m in self.minors}
        for sym, hex_id in self.tokens_at_start:
            if sym is not None and sym not in operators:
                raise ValueError(f"a token at the start in {hex_id} for unknown {sym!r}")
        names = {t.name for t in self.trains} | {v.name for t in self.trains
                                                 for v in t.variants}
        for p in self.phases:
            for t in p.on:
                if t not in names:
                    raise ValueError(f"phase {p.name} starts with unknown train {t!r}")
        for t in self.trains:
            if not isinstance(t.count, int):
                raise ValueError(f"train {t.name} has no count for this game")


PerPlayers = Dict[int, int]
