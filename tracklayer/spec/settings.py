"""A title's settings: the choices among rule variants that titles make, as one typed,
validated declaration. A value of the wrong kind fails when the title is loaded."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from functools import lru_cache
from typing import Optional, Tuple, get_origin, get_type_hints


class Capitalization(Enum):
    """What a corporation receives."""
    FULL = "full"                  # the whole par value of its shares when it floats
    INCREMENTAL = "incremental"    # the price of each share sold from its treasury
    NONE = "none"                  # nothing from its shares (1871's branches: their split pays)


class SaleTiming(Enum):
    """When shares of a corporation may first be sold."""
    AFTER_FIRST_STOCK_ROUND = "first"
    AFTER_IT_OPERATED = "operate"
    OPERATED_OR_IN_OPERATING_ROUND = "after_sr_floated"   # 1817: any time in an OR
    ANY_TIME = "any_time"


class SaleMovement(Enum):
    """How the share price moves when shares are sold to the market."""
    DOWN_PER_SHARE = "down_share"
    DOWN_PER_SALE = "down_block"
    DOWN_PER_10_PERCENT = "down_per_10"
    LEFT_PER_SHARE = "left_share"
    LEFT_PER_SALE = "left_block"
    NONE = "none"


class TradeOrder(Enum):
    """In which order a player may sell and buy in one stock round turn."""
    SELL_BUY_OR_BUY_SELL = "sell_buy_or_buy_sell"
    SELL_THEN_BUY = "sell_buy"
    SELL_BUY_SELL = "sell_buy_sell"


class PoolDrop(Enum):
    """What shares left in the market do to the price at the end of a stock round."""
    NONE = "none"
    DOWN_ONE = "down_block"
    DOWN_PER_SHARE = "down_share"
    LEFT_ONE = "left_block"


class PriorityDeal(Enum):
    """Who goes first in the next stock round."""
    AFTER_LAST_TO_ACT = "after_last_to_act"
    FIRST_TO_PASS = "first_to_pass"
    MOST_CASH = "most_cash"
    LEAST_CASH = "least_cash"


class HomeTokenTiming(Enum):
    """When a corporation's home station token goes on the map."""
    FIRST_OPERATION = "operate"
    FLOAT = "float"
    START = "par"
    OPERATING_ROUND = "operating_round"


class TrackRestriction(Enum):
    """What an upgrade must do with the track the company reaches."""
    SEMI_RESTRICTIVE = "semi_restrictive"     # use new track or change a city's value
    RESTRICTIVE = "restrictive"               # use new track
    PERMISSIVE = "permissive"
    CITY_PERMISSIVE = "city_permissive"       # a city tile, or new track
    STATION_RESTRICTIVE = "station_restrictive"


class TrainDuty(Enum):
    """When a company must own a train."""
    ALWAYS = "always"
    WITH_ROUTE = "route"
    NEVER = "never"


class EmergencyTrainsFromOthers(Enum):
    """Whether a company raising emergency money may buy another company's train."""
    UP_TO_FACE_VALUE = "value"
    NEVER = "never"
    ANY_PRICE = "any"


class MinorDividend(Enum):
    """How a minor's revenue is paid."""
    TO_OWNER = "owner"     # paid out (all to its owner) or withheld, as a corporation's
    HALF = "half"          # half to its owner, half kept, without a choice (1893)


class EndTiming(Enum):
    """When the game ends once a trigger has happened."""
    IMMEDIATELY = "immediate"
    END_OF_ROUND = "current_round"
    END_OF_OPERATING_ROUND = "current_or"
    END_OF_SET = "full_or"
    ONE_MORE_SET = "one_more_full_or_set"
    AFTER_IT_OPERATES = "after_max_operates"


class EndTrigger(Enum):
    """What can end the game."""
    BANKRUPTCY = "bankrupt"
    BANK_BROKEN = "bank"
    MARKET_TOP = "stock_market"
    FINAL_TRAIN = "final_train"
    FINAL_PHASE = "final_phase"
    ALL_CLOSED = "all_closed"


class BankruptcyEnd(Enum):
    """Whose bankruptcy ends the game."""
    FIRST = "one"
    ALL_BUT_ONE = "all_but_one"


@dataclass(frozen=True)
class TileLay:
    """One tile lay of an operating turn: a yellow lay, an upgrade, and what each costs."""
    lay: bool = True
    upgrade: bool = True
    cost: int = 0
    upgrade_cost: Optional[int] = None
    not_after_upgrade: bool = False     # neither lay nor upgrade once the turn upgraded
    new_hex_only: bool = False          # not a hex laid earlier this turn
    no_upgrade_after_upgrade: bool = False   # a lay, but no upgrade, once the turn upgraded

    @property
    def price_of_upgrade(self) -> int:
        return self.cost if self.upgrade_cost is None else self.upgrade_cost


@dataclass(frozen=True)
class Settings:
    """Every rule variant a title chooses (defaults: the common 18xx rules)."""

    currency: str = "${}"
    treasury_name: str = "IPO"                      # where unsold shares are, as players say
    capitalization: Capitalization = Capitalization.FULL
    market_limit: int = 50                          # percent of a corporation in the market
    shares_start_in_market: bool = False            # all but the president's, at its start
    privates_count_for_limit: bool = True
    short_selling: bool = False                     # shorts: negative holdings (1817)
    sell_in_blocks: bool = False                    # one sale of a corporation per turn
    sale_timing: SaleTiming = SaleTiming.AFTER_FIRST_STOCK_ROUND
    sale_movement: SaleMovement = SaleMovement.DOWN_PER_SHARE
    trade_order: TradeOrder = TradeOrder.SELL_BUY_OR_BUY_SELL
    # The stock turn's trades (turns/trades.py):
    frozen_cells: Tuple[str, ...] = ()              # cell kinds whose shares are neither
#                                                     bought nor sold in a stock turn (1817)
    largest_sale: int = 0                           # percent of a corporation in one sale
#                                                     (0: no limit; 1871: 30)
    sales_in_first_stock_round: bool = True         # (1893: nobody sells in the first)
    holding_limit_forces_sale: bool = True          # over a holding limit, sell first (1871:
#                                                     only the certificate limit forces it)
    buys_after_start: int = 0                       # shares its starter may buy right after
#                                                     starting a corporation (1849: 2)
    pool_drop: PoolDrop = PoolDrop.NONE
    sold_out_rises: bool = True
    priority_deal: PriorityDeal = PriorityDeal.AFTER_LAST_TO_ACT
    home_token: HomeTokenTiming = HomeTokenTiming.FIRST_OPERATION
    track_restriction: TrackRestriction = TrackRestriction.SEMI_RESTRICTIVE
    tile_lays: Tuple[TileLay, ...] = (TileLay(),)
    impassable_colors: Tuple[str, ...] = ("blue", "gray", "red")
    train_duty: TrainDuty = TrainDuty.WITH_ROUTE
    minors_run_trains: bool = False                 # and need not own one (1893)
    owner_pays_minor_first_train: bool = False      # what a trainless minor lacks for one
    minor_trains_to_corporations: bool = True       # may a corporation buy a minor's train
    trade_ins_per_turn: int = 0                     # 0: as many as it likes
    minor_dividend: MinorDividend = MinorDividend.TO_OWNER
    market_shares_pay: bool = True                  # to the corporation, fully capitalised
    emergency_from_others: EmergencyTrainsFromOthers = EmergencyTrainsFromOthers.UP_TO_FACE_VALUE
    emergency_swaps_presidencies: bool = True       # a sale for a train may hand another
#                                                     corporation's presidency over (1817: no)
    given_back_for_sale: bool = True                # a discarded train may be bought again
#                                                     (False: it leaves the game, 1871)
    obsolete_count_for_limit: bool = False          # obsolete trains fill the train limit
#                                                     (1817); by default they do not
    closing_frees_reservations: bool = True
    end_triggers: Tuple[Tuple[EndTrigger, EndTiming], ...] = (
        (EndTrigger.BANKRUPTCY, EndTiming.IMMEDIATELY),
        (EndTrigger.BANK_BROKEN, EndTiming.END_OF_SET))
    # Which timing wins when several triggers have happened: the earliest in this list.
    end_timing_order: Tuple[EndTiming, ...] = (
        EndTiming.IMMEDIATELY, EndTiming.END_OF_ROUND, EndTiming.END_OF_OPERATING_ROUND,
        EndTiming.END_OF_SET, EndTiming.ONE_MORE_SET)
    bankruptcy_ends: BankruptcyEnd = BankruptcyEnd.FIRST
    min_bid_step: int = 5
    cash_secret: bool = False                       # a player's cash is known to that player
#                                                     alone until the game ends (1893)

    def __post_init__(self) -> None:
        for name, kind in _declared_types().items():
            value = vars(self)[name]
            if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
                raise TypeError(f"setting {name} must be a {kind.__name__}, not {value!r}")
        if not all(isinstance(lay, TileLay) for lay in self.tile_lays):
            raise TypeError("tile_lays must be TileLay entries")
        for trigger, timing in self.end_triggers:
            if not isinstance(trigger, EndTrigger) or not isinstance(timing, EndTiming):
                raise TypeError(f"end_triggers hold (EndTrigger, EndTiming) pairs, not "
                                f"{(trigger, timing)!r}")
            if timing not in self.end_timing_order:
                raise ValueError(f"{timing} is not ranked in end_timing_order")

    def format_money(self, amount: int) -> str:
        return self.currency.format(amount)


@lru_cache(maxsize=None)
def _declared_types() -> dict:
    """Each setting's declared type (a tuple for the tuple ones)."""
    hints = get_type_hints(Settings)
    return {f.name: get_origin(hints[f.name]) or hints[f.name] for f in fields(Settings)}
