"""The stages of one offer in the 1817 acquisition round, and the moves between them.

Each floated corporation is offered in turn (see ``acquisition``): how it is put up is an
:class:`Offer`, where that stands a :class:`Stage`; ``MOVES`` lists, for each stage, the
stages it may move to and what causes each move, and ``KINDS`` what the player acting
may do in it.
"""

from __future__ import annotations

from enum import Enum


class Offer(Enum):
    """How the corporation at the head of the offers is put up (see the module docstring)."""
    FOR_SALE = "offered for sale by its president, from its value"
    ACQUISITION = "auctioned from the acquisition zone, from $10"
    LIQUIDATION = "auctioned from the liquidation zone, the bank offering $0"


class Stage(Enum):
    """Where the offer of the corporation at the head of the offers stands."""
    BETWEEN = "one offer is over, the next not yet made"
    PUT_UP = "its president decides whether to offer it for sale"
    AUCTION = "the players bid for it"
    CHOOSE_BUYER = "the winner names which of their corporations buys it"
    BORROWING = "the buyer may take more loans"
    REPAYING = "the buyer may repay the loans it took over"
    DONE = "every corporation has been offered"


# The moves between stages, each with what causes it.
MOVES = {
    Stage.BETWEEN: (Stage.PUT_UP,        # the next is offered for sale, someone could pay
                    Stage.AUCTION,       # the next is in a zone, and someone can bid
                    Stage.BETWEEN,       # skipped, nobody bids, or the bank liquidates it
                    Stage.DONE),         # no corporation is left to offer
    Stage.PUT_UP: (Stage.AUCTION,        # its president offers it ("assign")
                   Stage.BETWEEN),       # declined ("pass"), nobody can bid, or it fell
    Stage.AUCTION: (Stage.CHOOSE_BUYER,  # won by a player with several corporations able to buy
                    Stage.BORROWING,     # won, the one able to buy buying it
                    Stage.BETWEEN),      # all passed, or it fell into liquidation
    Stage.CHOOSE_BUYER: (Stage.BORROWING,),   # the buyer is named ("merge")
    Stage.BORROWING: (Stage.REPAYING,),  # it passes, or may take no more loans
    Stage.REPAYING: (Stage.BETWEEN,),    # it passes or has nothing left to repay: settled
    Stage.DONE: (),
}

# What the player acting may do in each stage (the buyer's loans: see :meth:`Acquire.kinds`).
KINDS = {Stage.PUT_UP: ("assign", "pass"), Stage.AUCTION: ("bid", "pass"),
         Stage.CHOOSE_BUYER: ("merge",), Stage.BORROWING: ("take_loan", "pass"),
         Stage.REPAYING: ("payoff_loan", "pass")}
