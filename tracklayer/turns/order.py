"""The common order of rounds, for titles whose rounds follow it.

The game opens with the auction of the private companies (a waterfall auction), or, with
none, a stock round; each stock round is followed by the phase's number of operating
rounds. A stock round turn sells, buys and starts corporations; an operating turn lays
track, places a token, runs trains, pays or withholds and buys trains, and a corporation
may buy private companies from players where the phase allows.
"""

from __future__ import annotations

from ..rules.table import Table
from ..rules.variant import Variant
from .auction import PendingPar, WaterfallAuction
from .companies import BuyCompanyStep
from .operating import DividendStep, HomeTokenStep, RouteStep, TokenStep, TrackStep
from .round import OperatingRound, SeatRound, StockRound
from .sequence import common_next_round, stock_round
from .stock import StockTurn
from .trains import BankruptcyStep, BuyTrainStep, DiscardStep


class CommonRounds(Variant):
    """A title's rules with the common order of rounds (see the module docstring); a
    title changes the steps of a round by changing these lists."""

    OPENING_STEPS: tuple = (PendingPar, WaterfallAuction)
    STOCK_STEPS: tuple = (DiscardStep, StockTurn)
    OPERATING_STEPS: tuple = (BankruptcyStep, DiscardStep, HomeTokenStep, BuyCompanyStep,
                              TrackStep, TokenStep, RouteStep, DividendStep, BuyTrainStep)

    def first_round(self, table: Table):
        """The auction of the private companies, or a stock round if there are none."""
        if table.state.companies:
            return SeatRound(table, list(self.OPENING_STEPS))
        return stock_round(table, self.stock_round)

    def next_round(self, table: Table):
        return common_next_round(table, self.stock_round, self.operating_round)

    def stock_round(self, table: Table):
        return StockRound(table, list(self.STOCK_STEPS))

    def operating_round(self, table: Table, number: int):
        return OperatingRound(table, list(self.OPERATING_STEPS), number)
