"""Buying trains, giving back those over the limit, and bankruptcy.

An operator may buy trains while it has room: from the depot at their price, or from
another operator at any price both agree on. One that must own a train and has none must
buy one; if its treasury is short, its president adds what is missing, selling shares
(only as many as needed, and not so as to hand over the presidency of the company
buying, or of any corporation where the title says) to raise it, for the cheapest train
the depot sells. A president who cannot raise it goes bankrupt; nobody goes bankrupt
otherwise.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from ..errors import GameError
from ..rules import finance, money, network, phases, trading, trains
from ..rules.certificates import (Bundle, bundle_price, certificate_price, player_holders,
                                  share_value)
from ..spec.settings import EmergencyTrainsFromOthers, TrainDuty
from ..state.model import CorporationState, MinorState, PlayerState
from ..actions import new_action
from .step import Step, handles
from .stock import sale_candidates


def must_own_train(table, operator) -> bool:
    """Must the operator buy a train now: it has none, the depot has some, and it has a
    route (or the title says always)?"""
    if operator.trains or not trains.for_sale(table):
        return False
    duty = table.settings.train_duty
    if duty is TrainDuty.ALWAYS:
        return True
    if duty is TrainDuty.WITH_ROUTE:
        return network.has_route_for_train(table, operator)
    return False


class BuyTrainStep(Step):
    """See the module docstring."""

    NAME = "Buy Trains"

    def prepare(self) -> None:
        self.last_sale_price: Optional[int] = None
        self.sold_for: List = []

    def kinds(self, entity):
        if not self.may_own_trains(entity):
            return ()
        current = self.actor()
        if current is not None and entity is current.owner and isinstance(entity, PlayerState):
            return ("sell_shares",)
        if entity is not current:
            return ()
        if self.president_helps(entity):
            return ("sell_shares", "buy_train")
        if self.may_buy_any(entity):
            return ("buy_train", "pass")
        return ()

    def may_own_trains(self, entity) -> bool:
        return not isinstance(entity, MinorState) or self.table.settings.minors_run_trains

    def must_buy(self, entity) -> bool:
        """Must ``entity`` buy a train now? (A minor never must.)"""
        return not isinstance(entity, MinorState) and must_own_train(self.table, entity)

    def president_helps(self, entity) -> bool:
        """May the president add cash (the company must buy a train)?"""
        return self.must_buy(entity)

    def may_trade_in(self, entity) -> bool:
        """May ``entity`` trade a train in for a new one (as often as the title allows)?"""
        limit = self.table.settings.trade_ins_per_turn
        return limit == 0 or self.round.notes.traded_in.count(entity) < limit

    def may_buy_any(self, entity) -> bool:
        table = self.table
        if trains.has_room(table, entity):
            if trains.affords_available(table, entity, entity.cash):
                return True
        return self.may_trade_in(entity) and any(
            entity.cash >= price for _, _, _, price in trains.trade_ins(table, entity))

    def cash_needed(self, entity) -> int:
        return trains.cheapest_price(self.table)

    def cash_at_hand(self, entity) -> int:
        current = self.actor()
        if entity is current:
            return current.cash
        return entity.cash + current.cash

    def on_offer(self, entity) -> list:
        """The trains ``entity`` may buy now: the depot's, then other companies'."""
        return self.depot_offer(entity) + self.others_offer(entity)

    def offered_now(self, entity) -> list:
        """:meth:`on_offer`, remembered until the position changes (the check of each
        train bought asks it; the listing judges many)."""
        return self.remember(("on_offer", id(entity)), lambda: self.on_offer(entity))

    def depot_offer(self, entity) -> list:
        """What the depot sells; to an operator short of the cheapest train's price, only
        the cheapest train."""
        table = self.table
        if entity.cash < trains.cheapest_price(table):
            cheapest = trains.cheapest_for_sale(table)
            return [cheapest] if cheapest else []
        return list(trains.for_sale(table))

    def others_offer(self, entity) -> list:
        """Other companies' trains, where the phase allows (a minor's only to a minor,
        where the title says). Where the title forbids buying them in an emergency:
        none to an operator without cash, nor to one short of the cheapest train once
        its president has sold shares. Where it allows that, only trains whose price
        the sales have not overshot (:meth:`price_range`)."""
        table = self.table
        if not table.phase.trains_between_companies:
            return []
        never = table.settings.emergency_from_others is EmergencyTrainsFromOthers.NEVER
        after_sales = self.last_sale_price is not None and \
            entity.cash < trains.cheapest_price(table)
        if never and (entity.cash == 0 or after_sales):
            return []
        found = [t for t in trains.others_trains(table, entity)
                 if table.settings.minor_trains_to_corporations
                 or isinstance(entity, MinorState) or not isinstance(t.owner, MinorState)]
        if after_sales:
            found = [t for t in found if t.variant.price >= self.price_range(entity, t)[0]]
        return found

    def price_range(self, entity, train) -> Tuple[int, int]:
        """What may be paid for another operator's train."""
        rule = self.table.settings.emergency_from_others
        if rule is not EmergencyTrainsFromOthers.NEVER and entity.cash < train.variant.price:
            most = entity.cash + money.spendable(entity.owner)
            low = most - self.last_sale_price + 1 if self.last_sale_price is not None else 1
            high = min(train.variant.price, most) \
                if rule is EmergencyTrainsFromOthers.UP_TO_FACE_VALUE else most
            return low, high
        return 1, entity.cash

    def cheapest_check(self, train, form: str) -> None:
        """With the president's help only the cheapest train of the depot."""
        cheapest = trains.cheapest_for_sale(self.table)
        if cheapest is None:
            return
        prices: dict = {}
        for name, v in trains.variants(cheapest).items():
            prices.setdefault(v.price, []).append(name)
        names = prices[min(prices)]
        if form not in names and (self.table.settings.emergency_from_others is
                                  EmergencyTrainsFromOthers.NEVER or trains.in_depot(train)):
            raise GameError(f"cannot buy a {form}: a cheaper train is available ({names[0]})")

    def candidates(self, entity, kind, offer) -> list:
        table = self.table
        if kind == "sell_shares":
            return sale_candidates(table, entity)
        if kind != "buy_train":
            return super().candidates(entity, kind, offer)
        out = []
        helped = self.president_helps(entity)
        for train in self.offered_now(entity):
            if trains.in_depot(train):
                for name, v in trains.variants(train).items():
                    out.append(new_action("buy_train", entity, train=train.id, price=v.price,
                                          variant=name))
            else:
                low, high = self.price_range(entity, train)
                if not helped:
                    high = min(high, entity.cash)
                out.extend(new_action("buy_train", entity, train=train.id, price=p,
                                      variant=train.name) for p in offer.prices(low, high))
        if self.may_trade_in(entity):
            for own, t, name, price in trains.trade_ins(table, entity):
                out.append(new_action("buy_train", entity, train=t.id, price=price,
                                      variant=name, exchange=own.id))
        return out

    # -- selling shares for a train ----------------------------------------------------------

    def may_sell(self, seller, bundle: Bundle) -> bool:
        """May ``seller`` sell ``bundle`` to raise money for the train?"""
        table = self.table
        if bundle.owner is not seller:
            return False
        if not trading.sale_timing_allows(table, bundle.corporation):
            return False
        if not self.sale_allowed(seller, bundle):
            return False
        return self.only_what_is_needed(bundle)

    def sale_allowed(self, seller, bundle: Bundle) -> bool:
        """The market has room, someone can take over a president's certificate (the
        title's rule, ``Variant.presidency_may_pass``, as in the stock round), and the
        president of the company buying keeps its presidency (and of every corporation,
        where the title allows no presidency to change hands in an emergency)."""
        table = self.table
        return trading.market_has_room(table, bundle) and \
            table.variant.presidency_may_pass(table, bundle, seller) and \
            not self.loses_presidency(seller, bundle)

    def loses_presidency(self, seller, bundle: Bundle) -> bool:
        """Would a president, selling shares, hold less than someone else of a corporation
        whose presidency may not change hands now (the company buying the train; any,
        where ``Settings.emergency_swaps_presidencies`` is off)?"""
        corporation = bundle.corporation
        if corporation.owner is not seller:
            return False
        if corporation is not self.actor() and self.table.settings.emergency_swaps_presidencies:
            return False
        holders = player_holders(corporation, True)
        others = [p for h, p in holders.items() if h is not seller]
        return holders.get(seller, 0) - bundle.percent < max(others, default=0)

    def only_what_is_needed(self, bundle: Bundle) -> bool:
        seller = bundle.owner
        needed = self.cash_needed(seller) - self.cash_at_hand(seller)
        smaller = bundle_price(self.table, bundle) - \
            min(certificate_price(self.table, c) for c in bundle.certificates)
        return smaller < needed

    @handles("sell_shares")
    def sell(self, action):
        bundle = action.bundle
        if not self.may_sell(action.entity, bundle):
            raise GameError(f"cannot sell shares of {bundle.corporation.name}")
        current = self.actor()

        def commit() -> None:
            if action.entity is not current:
                self.last_sale_price = share_value(self.table, bundle.certificates[0])
            self.sell_for_train(bundle)
            if action.entity is not current:
                self.sold_for.append(bundle.corporation)
        return commit

    def sell_for_train(self, bundle: Bundle) -> None:
        trading.sell(self.table, bundle)
        self.round.reorder_rest()

    # -- buying ------------------------------------------------------------------------------

    def owner_help(self, entity, price: int) -> int:
        """What the owner of a trainless minor pays towards its first train, where the
        title says: what the minor lacks, if the owner can make it up."""
        if not self.table.settings.owner_pays_minor_first_train or \
                not isinstance(entity, MinorState) or entity.trains or price <= entity.cash \
                or money.spendable(entity.owner) + entity.cash < price:
            return 0
        return price - entity.cash

    @handles("buy_train")
    def buy(self, action):
        """A train on offer, in a form on offer, at its price (the depot's, the trade-in's,
        or one within the limits for another company's train), paid by the operator, with
        its owner's or president's help where the title or the duty to own a train says."""
        entity, train, price, exchange = action.entity, action.train, action.price, \
            action.exchange
        form = action.variant or train.name
        self.check_trade_in_allowed(entity, exchange)
        self.check_agreed_price(entity, train, price)
        self.check_offered(entity, train, form, exchange)
        variant = trains.variants(train)[form]
        self.check_price(entity, train, form, variant, price, exchange)
        owner_pays, president_pays = self.funding(entity, train, form, variant, price,
                                                  exchange)

        def commit() -> None:
            self.pay_in(entity, form, owner_pays, president_pays)
            self.take_train(entity, train, variant, price, exchange)
        return commit

    def check_trade_in_allowed(self, entity, exchange) -> None:
        if exchange is not None and not self.may_trade_in(entity):
            raise GameError(f"{entity.name} already traded in a train this turn")

    def check_agreed_price(self, entity, train, price) -> None:
        """Another corporation's train goes for a price within :meth:`price_range`."""
        owner = train.owner
        if trains.in_depot(train) or not isinstance(owner, CorporationState):
            return
        low, high = self.price_range(entity, train)
        if not low <= price <= high:
            raise GameError(f"{entity.name} may only spend between {self.table.money(low)} "
                            f"and {self.table.money(high)} on {owner.name}'s {train.name} "
                            f"train")

    def check_offered(self, entity, train, form: str, exchange) -> None:
        """The train is on offer (or in the depot and available), in one of its forms,
        while something is on offer: a trade-in, when one is traded in."""
        table = self.table
        offer = [t for _, t, _, _ in trains.trade_ins(table, entity)] if exchange is not None \
            else self.offered_now(entity)
        forms = list(trains.variants(train)) if any(t.name in trains.variants(t) for t in offer) \
            else []
        offered = train in self.offered_now(entity) or \
            (trains.in_depot(train) and train in trains.available(table, entity))
        if form not in forms or not offered:
            raise GameError(f"{entity.name} cannot buy train {train.id} now")

    def check_price(self, entity, train, form: str, variant, price, exchange) -> None:
        """A trade-in costs what it is offered for (of a train the operator owns); a
        depot train its price; any train something; and not from the buyer itself."""
        table = self.table
        if exchange is not None:
            if exchange.owner is not entity:
                raise GameError(f"{entity.name} does not own train {exchange.id}")
            allowed = [p for t, dt, name, p in trains.trade_ins(table, entity)
                       if t is exchange and dt.spec.name == train.spec.name and name == form]
            if not allowed or price != allowed[0]:
                raise GameError(f"trading in a {exchange.name} for a {form} costs "
                                f"{allowed[0] if allowed else 'nothing: not allowed'}")
        elif trains.in_depot(train) and price != variant.price:
            raise GameError(f"a {form} train from the depot costs {table.money(variant.price)}")
        if train.owner is entity:
            raise GameError("an entity cannot buy a train from itself")
        if not isinstance(price, int) or price <= 0:
            raise GameError("a train must cost something")

    def funding(self, entity, train, form: str, variant, price: int, exchange):
        """(what the owner of a trainless minor pays in, what the president contributes).
        The operator pays what it can; the president adds the rest only where the
        company must buy a train, for the cheapest one, not trading in, not paying more
        than a depot train's price, and only as far as they can."""
        owner_pays = self.owner_help(entity, price)
        missing = price - entity.cash - owner_pays
        if missing <= 0:
            return owner_pays, 0
        if not self.president_helps(entity):
            raise GameError(f"{entity.name} has {entity.cash + owner_pays} and cannot spend "
                            f"{price}")
        self.cheapest_check(train, form)
        if exchange is not None:
            raise GameError("cannot contribute funds when exchanging")
        if price > variant.price and not isinstance(train.owner, CorporationState):
            raise GameError("cannot buy for more than cost")
        if money.spendable(entity.owner) < missing:
            raise GameError(f"{entity.owner.name} cannot contribute {missing}")
        return owner_pays, missing

    def pay_in(self, entity, form: str, owner_pays: int, president_pays: int) -> None:
        """The owner's help goes through the bank; the president's straight in."""
        table = self.table
        if owner_pays > 0:
            money.pay(table, entity.owner, table.state.bank, owner_pays)
            money.pay(table, table.state.bank, entity, owner_pays)
            table.log(f"{entity.owner.name} pays {table.money(owner_pays)} to assist buying a "
                      f"{form} train")
        if president_pays > 0:
            money.pay(table, entity.owner, entity, president_pays)
            table.log(f"{entity.owner.name} contributes {table.money(president_pays)}")

    def take_train(self, entity, train, variant, price: int, exchange) -> None:
        """The train, in its chosen form, joins the operator (a traded-in one goes back to
        the depot first); phases and rusting follow; with nothing more to buy the
        operator's buying is done."""
        table = self.table
        train.variant = variant
        if exchange is not None:
            trains.give_back(table, exchange)
        if table.keep_log:
            verb = f"exchanges a {exchange.name} for" if exchange is not None else "buys"
            seller = "The Depot" if trains.in_depot(train) else train.owner.name
            table.log(f"{entity.name} {verb} a {train.name} train for {table.money(price)} "
                      f"from {seller}")
        trains.hand_over(table, train, entity, price)
        phases.train_bought(table, train)
        if exchange is not None:
            self.round.notes.traded_in.append(entity)
        if not self.may_buy_any(entity):
            self.mark_done()

    def mark_done(self) -> None:
        self.last_sale_price = None
        super().mark_done()

    def tell_skip(self, entity) -> None:
        if not self.table.keep_log:
            return
        if trains.has_room(self.table, entity):
            return super().tell_skip(entity)
        self.table.log(f"{entity.name} skips buying trains: it has no room for more")


class DiscardStep(Step):
    """An operator over its train limit gives trains back to the bank."""

    NAME = "Discard Trains"
    PASSES = False

    def crowded(self) -> list:
        return trains.over_limit(self.table)

    def kinds(self, entity):
        return ("discard_train",) if entity in self.crowded() else ()

    def actors(self) -> list:
        return self.crowded()[:1]

    def live(self) -> bool:
        return bool(self.crowded())

    def candidates(self, entity, kind, offer) -> list:
        if kind != "discard_train":
            return super().candidates(entity, kind, offer)
        return [new_action("discard_train", entity, train=t.id) for t in entity.trains]

    @handles("discard_train")
    def discard(self, action):
        train = action.train
        if train.owner is not action.entity:
            raise GameError(f"{action.entity.name} does not own train {train.id}")

        def commit() -> None:
            trains.give_back(self.table, train)
            self.table.log(f"{action.entity.name} discards {train.name}")
        return commit


class BankruptcyStep(Step):
    """A president who cannot raise the money for a required train goes bankrupt. Only
    then: bankruptcy comes when the company must buy a train (it has none and one is
    required) and the title's emergency rules call on its president, who cannot raise
    the money. A company with a train, or one that need not own one, or one that must
    still raise money of its own first (1871's treasury shares), cannot go bankrupt:
    18xx.games's page offers the bankruptcy only in that emergency purchase."""

    NAME = "Bankrupt"
    PASSES = False
    HOLDS = False
    BARE_KINDS = ("bankrupt",)

    def kinds(self, entity):
        return ("bankrupt",) if entity is self.actor() and self.forced(entity) else ()

    def forced(self, operator) -> bool:
        """Must ``operator`` buy a train now with its president's help: play stands at its
        train purchase, it must own a train, and the title's emergency rules have the
        president pay in?"""
        step = self.round.active_step()
        return isinstance(step, BuyTrainStep) and step.actor() is operator and \
            step.president_helps(operator)

    def seller_rule(self):
        """What may be sold now: as the step where play stands allows."""
        step = self.round.active_step()
        return step.may_sell if step is not None else (lambda seller, bundle: False)

    @handles("bankrupt")
    def declare(self, action):
        table = self.table
        operator = action.entity
        player = operator.owner
        rule = self.seller_rule()
        if not finance.may_go_bankrupt(table, player, operator, rule):
            raise GameError(finance.bankruptcy_refusal(table, player, operator, rule))
        return lambda: self.go_bankrupt(player, operator, rule)

    def go_bankrupt(self, player, operator, rule) -> None:
        table = self.table
        finance.sell_what_may_be_sold(table, player, rule)
        self.round.reorder_rest()
        finance.leave_with_nothing(table, player)
        finance.declare_bankrupt(table, player)
