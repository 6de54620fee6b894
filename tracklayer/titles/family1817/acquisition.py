"""The 1817 acquisition round.

Every floated corporation is offered in turn, the cheapest first (of two at one price,
the one that would operate later):

* one that entered the acquisition or liquidation zone since the operating round is
  skipped;
* one in the liquidation zone: its cash goes to the bank and its loans are put aside; the
  players bid for it from $10 (the bank offers $0); if nobody bids, the bank liquidates
  it: its tokens leave the map;
* one in the acquisition zone is auctioned from $10;
* any other may be offered for sale by its president, from its value (its shares at the
  price, to the next $10), if any player could pay that; the buyer then also gets its
  treasury shares' value.

The auction is an open one (``auction.OpenAuction``) in steps of $10, starting with the
player after the president; a player bids for one of the corporations they preside that
could pay (``takeover.most_for``). The winning corporation takes the acquired one over
(``takeover``); it may then take more loans, and repay the acquired ones (each unpaid
loan moves its price left). The bid settles the acquired corporation's debts and the
rest goes to its shareholders; it closes, and may be founded again. The stages of an
offer and the moves between them are in ``offers``.
"""

from __future__ import annotations

from typing import Iterator, List, Optional

from ...actions import new_action
from ...errors import GameError
from ...rules import board, finance, market, money, network, operators
from ...rules.market import Direction
from ...state.model import PlayerState
from ...turns import programs
from ...turns.step import Step, handles
from ...turns.trains import DiscardStep
from . import loans, takeover
from .takeover import BID_STEP
from .auction import OpenAuction
from .crisis import Bankrupt, CashCrisis
from .mergers import MergerRound, ReduceTokens
from .merging import reset
from .notes import notes
from .offers import KINDS, MOVES, Offer, Stage
from .stock import ZONES


def cell_kind(table, at) -> Optional[str]:
    cell = table.cell(at)
    return cell.kind if cell is not None else None


def presidencies(table, player) -> list:
    return [c for c in table.state.corporations if c.owner is player and not c.closed]


def presidencies_by_owner(table) -> dict:
    """Each owner's open corporations (``presidencies``), in one look at them all."""
    held: dict = {}
    for c in table.state.corporations:
        if not c.closed:
            held.setdefault(c.owner, []).append(c)
    return held


class AcquisitionRound(MergerRound):
    NAME = "Acquisition Round"

    def choose_entities(self) -> list:
        return [p for p in self.table.state.players if presidencies(self.table, p)]

    def begin(self) -> None:
        self.lapse_idle_steps()

    def after_action(self, action) -> None:
        """When play comes back to the offers (every cash crisis over, as 18xx.games
        looks again only then), a corporation under offer that a bankruptcy put into
        liquidation is no longer offered, and a bankrupt player takes no further part in
        the auction."""
        step = self.active_step()
        if not isinstance(step, Acquire):
            return
        fallen = step.drop_if_fallen()
        gone = step.drop_bankrupt_bidders()
        if fallen or gone:
            self.forget()

    def over(self) -> bool:
        return self.active_step() is None


def may_acquire(table, buyer, corporation) -> bool:
    return buyer is not corporation and operators.has_floated(table, buyer) and \
        cell_kind(table, buyer.price) not in ZONES


class Acquire(Step):
    """See the module docstring; the stages of one offer are :class:`Stage`, their moves
    ``MOVES``."""

    NAME = "Acquire Corporations"

    def __init__(self, round, **options) -> None:
        super().__init__(round, **options)
        table = self.table
        floated = [c for c in table.state.corporations
                   if not c.closed and operators.has_floated(table, c)]
        self.offering = list(reversed(operators.by_price(table, floated)))
        self.stage = Stage.BETWEEN
        self.how: Optional[Offer] = None   # how the head of the offers is put up
        self.auction: Optional[OpenAuction] = None
        self.winner = None            # (player, price)
        self.buyer = None
        self.unpaid = 0
        self.liquidation_cash = 0
        self.shareholder_cash = 0
        self.next_offer()

    def move_to(self, stage: Stage) -> None:
        """Move to ``stage``, one of the moves ``MOVES`` allows."""
        if stage not in MOVES[self.stage]:
            raise AssertionError(f"no move from {self.stage.name} to {stage.name}")
        self.stage = stage

    @property
    def offer(self):
        """The corporation whose president decides whether to offer it (else None)."""
        return self.offering[0] if self.stage is Stage.PUT_UP else None

    # -- who acts ----------------------------------------------------------------------------

    def live(self) -> bool:
        return self.stage is not Stage.DONE

    def actors(self) -> list:
        stage = self.stage
        if stage is Stage.PUT_UP:
            owner = self.offer.owner
            return [owner] if isinstance(owner, PlayerState) else []
        if stage is Stage.AUCTION:
            return [self.auction.next_bidder() if self.auction.bids else self.first_bidder()]
        if stage is Stage.CHOOSE_BUYER:
            return [self.winner[0]]
        if stage in (Stage.BORROWING, Stage.REPAYING):
            return [self.buyer]
        return []

    def first_bidder(self):
        """The first player still in after the corporation's president (or the player
        who liquidated it)."""
        corporation = self.auction.item
        owner = corporation.owner if isinstance(corporation.owner, PlayerState) else \
            notes(self.table).liquidated_by.get(corporation.sym)
        players = self.table.state.players
        start = (players.index(owner) + 1) % len(players) if owner in players else 0
        for p in players[start:] + players[:start]:
            if p in self.auction.bidders:
                return p
        return None

    def kinds(self, entity):
        """As the stage says (``KINDS``); a buyer that may take no more loans may go on
        to repay."""
        if entity is not self.actor():
            return ()
        stage = self.stage
        if stage is Stage.BORROWING and not self.may_borrow(entity):
            stage = Stage.REPAYING
        if stage is Stage.REPAYING and not self.may_repay(entity):
            return ()
        return KINDS.get(stage, ())

    def auto_moves(self, entity):
        """A merger-pass program declines to offer the player's corporation for sale."""
        if self.offer is not None and entity is self.offer.owner and \
                self.offer.sym in programs.merger_passes(self.table, entity, "AR"):
            return [new_action("pass", entity)]
        return None

    # -- prices -----------------------------------------------------------------------------

    def least_bid(self, corporation) -> int:
        if self.auction is not None and self.auction.bids:
            return self.auction.top[1] + BID_STEP
        return takeover.starting_bid(self.table, corporation)

    def compensation(self, corporation) -> int:
        """Offered for sale, the buyer also gets its treasury shares' value."""
        if self.how is not Offer.FOR_SALE:
            return 0
        return takeover.treasury_value(self.table, corporation)

    def most_bid(self, player, corporation, presided: Optional[list] = None) -> int:
        """The most ``player`` may bid: what their best corporation could pay, $0 with
        none (only the least bid, for their own corporation). ``presided``: the player's
        corporations, when already known."""
        table = self.table
        most = None
        for buyer in presidencies(table, player) if presided is None else presided:
            if may_acquire(table, buyer, corporation):
                if most is None:        # what the acquired brings and the bank lends: once
                    compensation = self.compensation(corporation)
                    left = finance.loans_left(table)
                bid = takeover.most_for(table, buyer, corporation, compensation, left)
                if most is None or bid > most:
                    most = bid
        if most is None:
            most = 0
        if corporation.owner is player:
            return min(most, self.least_bid(corporation))
        return most

    def buyers_for(self, player, corporation, price: int) -> list:
        table = self.table
        compensation = self.compensation(corporation)
        left = finance.loans_left(table)
        return [c for c in presidencies(table, player)
                if may_acquire(table, c, corporation) and
                takeover.most_for(table, c, corporation, compensation, left) >= price]

    # -- the offers in turn ------------------------------------------------------------------

    def lapse(self) -> None:
        """With nobody to act, an offer whose corporation fell into liquidation (its
        president's bankruptcy) is dropped and the next is made."""
        if not self.drop_if_fallen():
            super().lapse()

    def drop_if_fallen(self) -> bool:
        """An offer or auction whose corporation has just entered a zone ends."""
        if self.stage not in (Stage.PUT_UP, Stage.AUCTION):
            return False
        corporation = self.offering[0]
        if not self.entered_zone_now(corporation):
            return False
        self.table.log(f"{corporation.name} is no longer eligible to be auctioned")
        self.offering.pop(0)
        self.end_offer()
        return True

    def drop_bankrupt_bidders(self) -> bool:
        """A player who went bankrupt while the auction was open takes no further part:
        they pass at once, and the auction goes on without them (with nobody left, the
        corporation is not bought, or the bank liquidates it)."""
        auction = self.auction
        gone = [p for p in auction.bidders if p.bankrupt] if auction is not None else []
        for player in gone:
            self.table.log(f"{player.name} passes on {auction.item.name}")
            auction.drop(player)
        if gone:
            self.resolve()
        return bool(gone)

    def entered_zone_now(self, corporation) -> bool:
        table = self.table
        kind = cell_kind(table, corporation.price)
        before = notes(table).prices_at_mergers.get(corporation.sym)
        return kind in ZONES and kind != cell_kind(table, before)

    def end_offer(self) -> None:
        """The offer is over (the corporation left the offers): the next is made."""
        self.auction = None
        self.move_to(Stage.BETWEEN)
        self.next_offer()

    def next_offer(self) -> None:
        """The next corporation is offered as its zone says (one that entered a zone
        just now is skipped; one nobody could buy for sale is not offered)."""
        table = self.table
        self.how = None
        held = None     # each owner's corporations (``presidencies_by_owner``), found
        # when first needed: no offer skipped here changes hands
        while self.offering:
            corporation = self.offering[0]
            self.liquidation_cash = 0
            kind = cell_kind(table, corporation.price)
            if self.entered_zone_now(corporation):
                table.log(f"{corporation.name} moved into {kind} during M&A and so is skipped")
                self.offering.pop(0)
                continue
            if kind == "liquidation":
                self.put_in_liquidation(corporation)
            elif kind == "acquisition":
                table.log(f"{corporation.name} offered for acquisition")
                self.how = Offer.ACQUISITION
            else:
                self.how = Offer.FOR_SALE
                least = takeover.starting_bid(self.table, corporation)
                if held is None:
                    held = presidencies_by_owner(table)
                if next(self.bidders(corporation, least, held), None) is None:
                    table.log(f"{corporation.name} cannot be bought at {table.money(least)}, "
                              f"skipping")
                    self.offering.pop(0)
                    continue
                table.log(f"{corporation.name} may be offered for sale for "
                          f"{table.money(least)}")
                self.move_to(Stage.PUT_UP)
                return
            self.open_auction(corporation)
            return
        self.move_to(Stage.DONE)

    def bidders(self, corporation, least: int, held: dict) -> Iterator:
        """The players who could bid ``least`` for ``corporation`` (:meth:`may_bid`), in
        turn order, each looked at only when asked for (``held``: each owner's
        corporations). What the acquired brings and the bank lends are the same for
        each: worked out once."""
        compensation = self.compensation(corporation)
        left = finance.loans_left(self.table)
        return (p for p in self.round.entities
                if self.may_bid(p, corporation, least, held.get(p, ()), compensation, left))

    def may_bid(self, player, corporation, least: int, presided: list, compensation: int,
                left: int) -> bool:
        """Is :meth:`most_bid` at least ``least``? Some corporation of the player's that
        may acquire could pay it (every one asked whether it may, as :meth:`most_bid`
        asks; what they could pay worked out only until one could), or $0 is enough with
        none; for their own corporation, the least bid must reach it too."""
        table = self.table
        if corporation.owner is player and self.least_bid(corporation) < least:
            return False
        found = enough = False
        for buyer in presided:
            if may_acquire(table, buyer, corporation):
                found = True
                if not enough and takeover.most_for(table, buyer, corporation, compensation,
                                                    left) >= least:
                    enough = True
        return enough or (not found and least <= 0)

    def put_in_liquidation(self, corporation) -> None:
        """Its cash goes to the bank and its loans are put aside (still owed until it
        settles: the bank cannot lend them to a buyer meanwhile)."""
        table = self.table
        self.liquidation_cash = corporation.cash
        if corporation.cash > 0:
            money.pay(table, corporation, table.state.bank, corporation.cash)
        aside = finance.put_aside_loans(table, corporation)
        table.log(f"{corporation.name} is being liquidated, bank offers $0, "
                  f"corporation had {table.money(self.liquidation_cash)} and "
                  f"{aside} loans")
        self.how = Offer.LIQUIDATION

    def open_auction(self, corporation) -> None:
        """The players who can meet the first bid take part; with none, nobody bids."""
        least = takeover.starting_bid(self.table, corporation)
        bidders = list(self.bidders(corporation, least, presidencies_by_owner(self.table)))
        self.auction = OpenAuction(corporation, None, bidders, step=BID_STEP)
        if bidders:
            self.move_to(Stage.AUCTION)
        else:
            self.nobody_bids()

    def nobody_bids(self) -> None:
        """Nobody bids: not acquired, not sold, or the bank liquidates; then the next."""
        table = self.table
        corporation = self.offering.pop(0)
        self.auction = None
        if self.how is Offer.ACQUISITION:
            table.log(f"All players pass on {corporation.name}, not acquired")
        elif self.how is Offer.FOR_SALE:
            table.log(f"All players pass on {corporation.name}, not sold")
        if self.how is not Offer.LIQUIDATION:
            self.end_offer()
            return
        table.log(f"Bank liquidates {corporation.name} for $0")
        for token in corporation.tokens:
            board.lift_token(table, token)
        network.forget(table)
        self.settle(corporation)

    # -- actions -----------------------------------------------------------------------------

    @handles("assign")
    def put_up(self, action):
        if self.stage is not Stage.PUT_UP or action.target is not self.offer:
            raise GameError(f"Can only offer up {self.auction_item().name}")

        def commit() -> None:
            corporation = self.offer
            self.table.log(f"{corporation.name} is offered at auction, buying corporation will "
                           f"receive {self.table.money(self.compensation(corporation))} for "
                           f"treasury shares")
            self.open_auction(corporation)
        return commit

    def candidates(self, entity, kind, offer) -> list:
        if kind == "bid" and self.auction is not None:
            c = self.auction.item
            return [new_action("bid", entity, corporation=c.sym, price=p)
                    for p in offer.prices(-(-self.least_bid(c) // BID_STEP) * BID_STEP,
                                          self.most_bid(entity, c), BID_STEP)]
        if kind == "assign":
            return [new_action("assign", entity, target=self.offer.sym,
                               target_type="corporation")]
        if kind in ("take_loan", "payoff_loan"):
            return [new_action(kind, entity, loan=0)]
        if kind == "merge":
            player, price = self.winner
            return [new_action("merge", entity, corporation=c.sym)
                    for c in self.buyers_for(player, self.auction_item(), price)]
        return super().candidates(entity, kind, offer)

    def auction_item(self):
        return self.offering[0] if self.offering else None

    @handles("bid")
    def bid(self, action):
        corporation, price, player = action.corporation, action.price, action.entity
        if self.auction is None or corporation is not self.auction.item:
            raise GameError(f"{corporation.name if corporation else '?'} is not for auction")
        if not isinstance(price, int) or price % BID_STEP:
            raise GameError(f"Bid {price} is not a multiple of {BID_STEP}")
        if price < self.least_bid(corporation):
            raise GameError(f"the minimum bid for {corporation.name} is "
                            f"{self.table.money(self.least_bid(corporation))}")
        if price > self.most_bid(player, corporation):
            raise GameError(f"Cannot afford bid. Maximum possible bid is "
                            f"{self.most_bid(player, corporation)}")

        def commit() -> None:
            self.table.log(f"{player.name} bids {self.table.money(price)} for "
                           f"{corporation.name}")
            self.auction.place(player, price,
                               lambda p, least: self.most_bid(p, corporation) >= least,
                               self.table.log)
            self.resolve()
        return commit

    @handles("pass")
    def decline(self, action):
        entity = action.entity

        def commit() -> None:
            table = self.table
            if self.stage is Stage.PUT_UP:
                table.log(f"{entity.name} declines to put {self.offer.name} up for sale")
                self.offering.pop(0)
                self.end_offer()
            elif self.stage is Stage.AUCTION:
                table.log(f"{entity.name} passes on {self.auction.item.name}")
                self.auction.drop(entity)
                self.resolve()
            elif self.stage is Stage.BORROWING and self.may_borrow(entity):
                table.log(f"{entity.name} passes taking additional loans")
                self.move_to(Stage.REPAYING)
                self.after_loans()
            else:
                table.log(f"{entity.name} passes paying off additional loans")
                self.after_loans(repaying=False)
        return commit

    def resolve(self) -> None:
        """With nobody left, nobody bids; with one bidder left, they win, and name the
        buyer if more than one of their corporations could pay."""
        auction = self.auction
        if not auction.bidders:
            self.nobody_bids()
            return
        won = auction.winner()
        if won is None:
            return
        player, price = won
        corporation = auction.item
        self.table.log(f"{player.name} wins the auction of {corporation.name} for "
                       f"{self.table.money(price)}")
        self.auction = None
        self.winner = won
        found = self.buyers_for(player, corporation, price)
        if len(found) == 1:
            self.acquire(found[0])
        else:
            self.move_to(Stage.CHOOSE_BUYER)

    @handles("merge")
    def choose_buyer(self, action):
        buyer = action.corporation
        player, price = self.winner if self.winner is not None else (None, 0)
        if self.stage is not Stage.CHOOSE_BUYER or \
                buyer not in self.buyers_for(player, self.auction_item(), price):
            raise GameError(f"Choose a corporation to acquire {self.auction_item().name}")
        return lambda: self.acquire(buyer)

    def acquire(self, buyer) -> None:
        """The buyer takes the acquired corporation over (``takeover.take_over``), its
        treasury shares' value with it when offered for sale; it may then take loans."""
        corporation = self.offering[0]
        _, price = self.winner
        self.buyer = buyer
        if cell_kind(self.table, corporation.price) == "liquidation":
            self.liquidation_cash += price
        self.shareholder_cash = price
        self.unpaid = corporation.loans
        self.round.reducing = takeover.take_over(self.table, buyer, corporation, price,
                                                   self.compensation(corporation))
        self.move_to(Stage.BORROWING)
        self.after_loans()

    def may_borrow(self, entity) -> bool:
        return entity is self.buyer and self.stage is Stage.BORROWING and \
            loans.may_borrow(self.table, entity)

    def may_repay(self, entity, repaying: bool = True) -> bool:
        return repaying and entity is self.buyer and self.unpaid > 0 and \
            entity.cash >= self.table.spec.data.loans.value

    @handles("take_loan")
    def borrow(self, action):
        if not self.may_borrow(action.entity):
            raise GameError(f"{action.entity.name} cannot take a loan now")

        def commit() -> None:
            loans.take(self.table, action.entity)
            self.after_loans()
        return commit

    @handles("payoff_loan")
    def repay(self, action):
        if "payoff_loan" not in self.kinds(action.entity):
            raise GameError(f"{action.entity.name} cannot repay a loan now")

        def commit() -> None:
            loans.repay(self.table, action.entity, move=False)
            self.unpaid -= 1
            if self.stage is Stage.BORROWING:
                self.move_to(Stage.REPAYING)
            self.after_loans()
        return commit

    def after_loans(self, repaying: bool = True) -> None:
        """While the buyer may take loans it may go on; then loans over its limit are
        repaid; it may repay the others (``repaying``: it has not passed on that); those
        left unpaid move its price left, and the acquired corporation is settled."""
        table, buyer = self.table, self.buyer
        if self.may_borrow(buyer):
            return
        if self.stage is Stage.BORROWING:
            self.move_to(Stage.REPAYING)
        corporation = self.offering[0]
        while buyer.loans > loans.most_loans(buyer):
            loans.repay(table, buyer, move=False)
            self.unpaid -= 1
        if self.may_repay(buyer, repaying):
            return
        if self.unpaid > 0:
            old = buyer.price
            market.move_price(table, buyer, Direction.LEFT, self.unpaid)
            market.report_move(table, buyer, old)
            if cell_kind(table, buyer.price) == "acquisition" and buyer in self.offering:
                table.log(f"{buyer.name} falls into acquisition and will not be offered for "
                          f"sale this round")
                self.offering.remove(buyer)
        self.unpaid = 0
        self.settle(corporation)

    def settle(self, corporation) -> None:
        """The acquired (or liquidated) corporation's debts and shareholders are paid
        (``takeover.pay_out``); it closes, and the next offer is made."""
        table = self.table
        if cell_kind(table, corporation.price) == "liquidation":
            self.shareholder_cash = takeover.pay_debts(table, corporation,
                                                         self.liquidation_cash,
                                                         finance.settle_aside_loans(table))
        takeover.pay_shareholders(table, corporation, self.shareholder_cash)
        self.shareholder_cash = 0
        owner = corporation.owner
        notes(table).crisis_player = owner if isinstance(owner, PlayerState) else \
            notes(table).liquidated_by.get(corporation.sym)
        reset(table, corporation, self.round.reducing)
        if corporation in self.offering:
            self.offering.remove(corporation)
        self.buyer = None
        self.winner = None
        self.end_offer()


def acquisition_round(table, number: int):
    table.log(f"-- Acquisition Round {table.state.turn}.{number} --")
    table.state.round_count += 1
    return AcquisitionRound(table, [ReduceTokens, Bankrupt, CashCrisis, DiscardStep, Acquire],
                            number)


__all__: List[str] = ["AcquisitionRound", "Acquire", "acquisition_round"]
