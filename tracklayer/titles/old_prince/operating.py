"""The Old Prince 1871 — the operating round ("Provozní kolo").

* Floated corporations operate by share price, the PEIR last.
* Dividends: the PEIR pays out, pays half or withholds, each of its shares earning the
  revenue divided by their number, rounded up; half keeps half the revenue rounded up.
  Other corporations pay out or withhold; their shares in the market and their own
  buyable ones pay the corporation; the price moves right only on a full payout, left
  when nothing is paid; at the 400 cell each share earns 40 more.
* The PEIR need not own a train and buys at most one train from the depot a turn.
"""

from __future__ import annotations

import math
from dataclasses import replace

from ...actions import new_action
from ...errors import GameError
from ...rules import certificates, finance, money, operators, phases, powers, trading, trains
from ...rules.certificates import Bundle
from ...rules.market import Direction
from ...state.model import CorporationState, PlayerState
from ...turns.companies import BuyCompanyStep
from ...turns.operating import DividendStep, RouteStep, TokenStep, TrackStep
from ...turns.round import OperatingRound
from ...turns.step import Step, handles
from ...turns.trains import BankruptcyStep, BuyTrainStep, DiscardStep
from . import data
from .notes import notes

PEIR = data.PEIR.sym


def is_peir(entity) -> bool:
    return isinstance(entity, CorporationState) and entity.sym == PEIR


class PrinceOperatingRound(OperatingRound):
    """An operating round of 1871: the PEIR operates after every other corporation."""

    def choose_entities(self) -> list:
        """By share price, the PEIR last."""
        order = operators.operating_order(self.table)
        return [c for c in order if not is_peir(c)] + [c for c in order if is_peir(c)]


class PrinceDividend(DividendStep):
    """See the module docstring."""

    def kinds_of(self, entity) -> tuple:
        """The PEIR may also pay half."""
        return ("payout", "half", "withhold") if is_peir(entity) else self.KINDS

    def candidates(self, entity, kind, offer) -> list:
        if kind != "dividend":
            return super().candidates(entity, kind, offer)
        return [new_action("dividend", entity, kind=k) for k in self.kinds_of(entity)]

    @handles("dividend")
    def declare(self, action):
        """The PEIR may also pay half."""
        if is_peir(action.entity) and action.dividend == "half":
            return lambda: self.pay(action.entity, "half")
        return super().declare(action)

    def split(self, entity, kind, revenue):
        """Half keeps half the revenue, rounded up."""
        if kind == "half":
            kept = math.ceil(revenue / 2)
            return kept, revenue - kept
        return super().split(entity, kind, revenue)

    def trains_have_run(self, entity) -> None:
        """Every train the corporation holds at its revenue has operated, whether it ran a
        route or not (a 4+ that has never operated is made obsolete, not rusted, by the D)."""
        notes(self.table).operated.update(t.id for t in entity.trains)
        super().trains_have_run(entity)

    def price_moves(self, entity, paid: int):
        """Right only when the whole revenue is paid out; left when nothing is."""
        if paid == 0:
            return [(Direction.LEFT, 1)]
        return [(Direction.RIGHT, 1)] if paid >= self.revenue() else []

    def pay_holders(self, entity, paid: int) -> None:
        """The PEIR pays per share, rounded up; at 400 each share earns 40 more."""
        table = self.table
        if is_peir(entity):
            per_share = math.ceil(paid / len(entity.certificates))
            for holder in list(table.state.players) + [table.state.market]:
                count = len(certificates.held(holder, entity))
                if count:
                    to = entity if holder is table.state.market else holder
                    money.pay(table, table.state.bank, to, per_share * count)
            table.log(f"{entity.name} pays out {table.money(paid)}")
            return
        cell = table.cell(entity.price)
        if cell is not None and cell.price == 400:
            paid += data.BONUS_PER_SHARE * certificates.total_shares(entity)
        super().pay_holders(entity, paid)

    def treasury_share(self, entity, per_share: float) -> int:
        """Its own buyable shares and those in the market pay the corporation."""
        own = sum(c.percent for c in certificates.held(entity, entity) if c.buyable)
        share = certificates.share_percent(entity)
        market = certificates.percent_of(self.table.state.market, entity)
        return math.ceil(own / share * per_share) + math.ceil(market / share * per_share)


class PrinceBuyTrain(BuyTrainStep):
    """Buying trains: the PEIR need not own one and buys one from the depot a turn; a
    corporation that must buy one first issues the shares of its treasury; a
    player raising money sells at most 30% of a corporation, once; a corporation whose
    president is the Union Bank is helped by the owner of UB."""

    def kinds(self, entity):
        current = self.actor()
        if entity is current and self.issuable(entity):
            return ("sell_shares", "buy_train")
        if current is not None and isinstance(entity, PlayerState) and \
                entity is not current.owner and entity is self.helper(current) and \
                self.president_helps(current):
            return ("sell_shares",)
        return super().kinds(entity)

    def helper(self, operator):
        """Who pays for the operator's train: its president, or for the Union Bank the
        owner of UB."""
        owner = operator.owner
        if owner is notes(self.table).union_bank:
            ub = self.table.company("UB")
            return ub.owner if ub is not None else owner
        return owner

    def must_buy(self, entity) -> bool:
        """The PEIR never has to own a train."""
        return not is_peir(entity) and super().must_buy(entity)

    def issuable(self, corporation) -> list:
        """The treasury shares a trainless corporation short of the cheapest train must
        issue before its president helps (as many at once as it likes, all of them if it
        will)."""
        table = self.table
        if not isinstance(corporation, CorporationState) or corporation.trains or \
                corporation in self.sold_for or not self.must_buy(corporation) or \
                corporation.cash >= trains.cheapest_price(table):
            return []
        own = [c for c in certificates.held(corporation, corporation) if c.buyable]
        if not own or not trading.market_has_room(table, Bundle.whole(own)):
            return []
        return own

    def funding(self, entity, train, form, variant, price, exchange):
        """The Union Bank, presiding, pays what it can, the owner of UB the rest, once the
        Union Bank has nothing left it may sell."""
        bank_seat = notes(self.table).union_bank
        missing = price - entity.cash
        if entity.owner is not bank_seat or missing <= 0:
            return super().funding(entity, train, form, variant, price, exchange)
        if not self.president_helps(entity) or exchange is not None:
            raise GameError(f"{entity.name} has {entity.cash} and cannot spend {price}")
        self.cheapest_check(train, form)
        if price > variant.price and not isinstance(train.owner, CorporationState):
            raise GameError("cannot buy for more than cost")
        helper = self.helper(entity)
        if helper is not bank_seat and bank_seat.cash < missing and \
                finance.emergency_cash(self.table, bank_seat, self.may_sell) > bank_seat.cash:
            # the Union Bank sells what it may before the player acting for it pays
            raise GameError(f"{bank_seat.name} has {bank_seat.cash} and cannot spend {missing}")
        if bank_seat.cash + (helper.cash if helper is not bank_seat else 0) < missing:
            raise GameError(f"{bank_seat.name} and {helper.name} cannot contribute {missing}")
        return 0, missing

    def pay_in(self, entity, form, owner_pays, president_pays) -> None:
        bank_seat = notes(self.table).union_bank
        if entity.owner is bank_seat and president_pays > bank_seat.cash:
            money.pay(self.table, self.helper(entity), bank_seat,
                      president_pays - bank_seat.cash)
        super().pay_in(entity, form, owner_pays, president_pays)

    def president_helps(self, entity) -> bool:
        """Only once the corporation has issued what it must."""
        return not self.issuable(entity) and super().president_helps(entity)

    def may_sell(self, seller, bundle) -> bool:
        """The corporation issues its whole treasury; a player sells at most 30% of a
        corporation, in one sale. Once a player has sold a corporation's shares in this
        emergency, none of them is sold again, not even from its own treasury."""
        if bundle.corporation in self.sold_for:
            return False                   # its shares were sold already: one sale only
        if seller is bundle.corporation:
            own = self.issuable(seller)
            return bool(own) and all(c in own for c in bundle.certificates)
        if bundle.percent > data.TURN_SALE_LIMIT:
            return False
        return super().may_sell(seller, bundle)

    @handles("sell_shares")
    def sell(self, action):
        """A corporation issuing its shares may then buy only from the depot."""
        commit = super().sell(action)
        if action.entity is not self.actor():
            return commit

        def then() -> None:
            commit()
            self.issued = True
        return then

    def others_offer(self, entity) -> list:
        if self.issued:
            return []
        return super().others_offer(entity)

    def unoffered_others(self, entity) -> list:
        """Other corporations' trains that 18xx.games takes, at a price the corporation
        can pay, though it does not offer them (after shares were sold for the purchase),
        while it offers some train. tracklayer lists them too: what is accepted is
        listed; whether the turn goes on still follows what is offered."""
        table = self.table
        if not table.phase.trains_between_companies:
            return []
        offered = self.offered_now(entity)
        return [t for t in trains.others_trains(table, entity) if t not in offered] \
            if offered else []

    def check_offered(self, entity, train, form, exchange) -> None:
        if exchange is None and train in self.unoffered_others(entity) and \
                form in trains.variants(train):
            return
        super().check_offered(entity, train, form, exchange)

    def candidates(self, entity, kind, offer) -> list:
        if kind == "buy_train":
            return super().candidates(entity, kind, offer) + [
                new_action("buy_train", entity, train=t.id, price=p, variant=t.name)
                for t in self.unoffered_others(entity)
                for p in offer.prices(*self.price_range(entity, t))]
        if kind == "sell_shares" and entity is self.actor():
            own = self.issuable(entity)
            return [new_action("sell_shares", entity, shares=[c.id for c in own[:n]],
                               percent=sum(c.percent for c in own[:n]))
                    for n in range(1, len(own) + 1)]
        return super().candidates(entity, kind, offer)

    def prepare(self) -> None:
        super().prepare()
        self.from_depot = False
        self.issued = False

    def depot_offer(self, entity) -> list:
        """The PEIR buys one train a turn from the depot."""
        if is_peir(entity) and self.from_depot:
            return []
        return super().depot_offer(entity)

    def take_train(self, entity, train, variant, price, exchange) -> None:
        """After a train from the depot, an operator offered no other train is done
        buying (the PEIR, say, once no other corporation has a train to sell it)."""
        from_depot = trains.in_depot(train)
        if from_depot:
            self.from_depot = True
        spare_unrun_trains(self.table, train)
        super().take_train(entity, train, variant, price, exchange)
        if from_depot and not self.on_offer(entity):
            self.mark_done()


def spare_unrun_trains(table, bought) -> None:
    """A 4+ that has not yet operated when the first D comes does not rust: it becomes
    obsolete (it may run once more). A train has operated once a corporation holding it
    has come to the revenue of its turn, with a route for it or not."""
    operated = notes(table).operated
    for t in table.state.depot.every:
        if t.rusted or t.id in operated or bought.spec.name not in t.variant.rusts_on or \
                t.spec.name not in data.SPARED_UNRUN:
            continue
        t.variant = replace(t.variant, rusts_on=(),
                            obsolete_on=t.variant.obsolete_on + (bought.spec.name,))


class PrinceBankruptcy(BankruptcyStep):
    """The player acting for the corporation answers for it: for a corporation the
    Union Bank presides over, the owner of UB. They may go bankrupt only when the
    corporation's cash, what they could raise and what the Union Bank could raise (each
    its cash and what it may sell) come short of the cheapest train.

    18xx.games counts the corporation's cash twice here (once with each of the two), so
    it refuses the bankruptcy of an owner of UB who cannot pay: with the trains of other
    players' corporations declined, play has no move left. tracklayer follows the rule:
    the corporation's cash counts once."""

    @handles("bankrupt")
    def declare(self, action):
        table = self.table
        operator = action.entity
        bank_seat = notes(table).union_bank
        if operator.owner is not bank_seat:
            return super().declare(action)
        ub = table.company("UB")
        player = ub.owner if ub is not None else None
        rule = self.seller_rule()
        if not isinstance(player, PlayerState) or player is bank_seat:
            raise GameError(f"{operator.name} has nobody to answer for it")
        power = finance.emergency_cash(table, player, rule) + \
            finance.emergency_cash(table, bank_seat, rule) + operator.cash
        if power >= trains.cheapest_price(table):
            raise GameError(f"{player.name} cannot go bankrupt: {operator.name}'s cash plus "
                            f"what {player.name} and {bank_seat.name} could raise total "
                            f"{table.money(power)}, and the cheapest train costs "
                            f"{table.money(trains.cheapest_price(table))}")
        return lambda: self.go_bankrupt(player, operator, rule)


class PrinceBuyCompany(BuyCompanyStep):
    """Corporations buy the Hunslet from its owner from the 4H, the PEIR never."""

    def may_buy(self, entity) -> bool:
        """The PEIR never buys the Hunslet."""
        return not is_peir(entity) and super().may_buy(entity)


class HunsletStep(Step):
    """The corporation owning the Hunslet may, any time in its turn, close it to buy the
    depot's next train at its price (room and cash permitting)."""

    NAME = "Hunslet Train Purchase"
    PASSES = False
    HOLDS = False
    BARE_KINDS = ("purchase_train",)

    def live(self) -> bool:
        hunslet = self.table.company("HSE")
        return hunslet is not None and not hunslet.closed

    def next_train(self):
        upcoming = self.table.state.depot.upcoming
        return upcoming[0] if upcoming else None

    def kinds(self, entity):
        table = self.table
        operator = self.round.entities[self.round.index] if self.round.entities else None
        train = self.next_train()
        if entity is not table.company("HSE") or entity.owner is not operator or \
                train is None or not trains.has_room(table, operator) or \
                operator.cash < train.variant.price:
            return ()
        return ("purchase_train",)

    @handles("purchase_train")
    def purchase(self, action):
        """See the class docstring."""
        hunslet = action.entity
        if "purchase_train" not in self.kinds(hunslet):
            raise GameError(f"{hunslet.name} cannot buy a train now")
        corporation, train = hunslet.owner, self.next_train()

        def commit() -> None:
            table = self.table
            table.log(f"{corporation.name} closes the {hunslet.name} to purchase a "
                      f"{train.name} train for {table.money(train.variant.price)}")
            powers.close_company(table, hunslet)
            spare_unrun_trains(table, train)
            trains.hand_over(table, train, corporation, train.variant.price)
            phases.train_bought(table, train)
        return commit


def operating_round(table, number: int):
    return PrinceOperatingRound(table, [HunsletStep, PrinceBankruptcy, PrinceBuyCompany, TrackStep, TokenStep,
                                        RouteStep, PrinceDividend, DiscardStep, PrinceBuyTrain,
                                        (PrinceBuyCompany, {"holds": True})], number)
