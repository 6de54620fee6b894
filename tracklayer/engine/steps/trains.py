"""Buying and discarding trains, emergency money raising, bankruptcy."""

from __future__ import annotations

from ..errors import GameError
from ..step import Step


class EmergencyMoney:
    """A president sells shares to buy a train the company must have."""

    def process_sell_shares(self, action) -> None:
        if not self.can_sell(action.entity, action.bundle):
            raise GameError(f"cannot sell shares of {action.bundle.corporation.name}")
        self.game.sell_shares_and_change_price(action.bundle)
        if hasattr(self.round, "recalculate_order"):
            self.round.recalculate_order()

    def can_sell(self, entity, bundle) -> bool:
        if entity is not bundle.owner:
            return False
        if not self.game.check_sale_timing(entity, bundle):
            return False
        if not self.sellable_bundle(bundle):
            return False
        if self.game.EBUY_SELL_MORE_THAN_NEEDED:
            return True
        return self.selling_minimum_shares(bundle)

    def selling_minimum_shares(self, bundle) -> bool:
        """Only as many shares as needed: one fewer would not raise enough."""
        seller = bundle.owner
        needed = self.needed_cash(seller) - self.available_cash(seller)
        smaller = bundle.price - min(s.price for s in bundle.shares)
        return smaller < needed

    def sellable_bundle(self, bundle) -> bool:
        seller = bundle.owner
        if not bundle.can_dump(seller):
            return False
        if not self.game.share_pool.fit_in_bank(bundle):
            return False
        corporation = bundle.corporation
        if not corporation.president_of(seller):
            return True
        if not self.president_swap_concern(corporation):
            return True
        return not self.causes_president_swap(corporation, bundle)

    def president_swap_concern(self, corporation) -> bool:
        return not self.game.EBUY_PRES_SWAP or corporation is self.current_entity()

    def causes_president_swap(self, corporation, bundle) -> bool:
        seller = bundle.owner
        holders = corporation.player_share_holders(corporate=True)
        remaining = holders.get(seller, 0) - bundle.percent
        others = [p for h, p in holders.items() if h is not seller]
        return remaining < (max(others) if others else 0)


class TrainBuying(EmergencyMoney):
    """Train purchase rules shared by buy-train steps."""

    def train_setup(self) -> None:
        self.depot = self.game.depot
        self.last_share_sold_price = None
        self.last_share_issued_price = None
        self.corporations_sold = []

    def room(self, entity) -> bool:
        return self.game.num_corp_trains(entity) < self.game.train_limit(entity)

    def can_entity_buy_train(self, entity) -> bool:
        return not entity.is_minor

    def must_buy_train(self, entity) -> bool:
        return self.game.must_buy_train(entity)

    def president_may_contribute(self, entity) -> bool:
        return self.must_buy_train(entity)

    def discountable_trains_allowed(self, entity) -> bool:
        return True

    def can_buy_train(self, entity=None) -> bool:
        entity = entity or self.current_entity()
        min_price = self.game.depot.min_price(entity)
        power = self.buying_power(entity)
        if self.room(entity) and min_price is not None and power >= min_price:
            return True
        return self.discountable_trains_allowed(entity) and any(
            power >= price for _, _, _, price in self.game.discountable_trains_for(entity))

    def needed_cash(self, entity) -> int:
        depot = self.game.depot
        return depot.min_depot_price() if self.game.EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST \
            else depot.max_depot_price()

    def available_cash(self, entity) -> int:
        current = self.current_entity()
        if entity is current:
            return current.cash
        return entity.cash + current.cash

    def buyable_trains(self, entity) -> list:
        game = self.game
        depot = game.depot
        depot_trains = list(depot.depot_trains())
        others = list(depot.other_trains(entity)) if game.ALLOW_TRAIN_BUY_FROM_OTHERS else []
        if entity.cash < depot.min_depot_price():
            if game.EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST:
                cheapest = depot.min_depot_train()
                depot_trains = [cheapest] if cheapest else []
            if self.last_share_sold_price is not None:
                if game.EBUY_FROM_OTHERS != "never":
                    others = [t for t in others if t.price >= self.spend_minmax(entity, t)[0]]
                else:
                    others = []
        if entity.cash == 0 and game.EBUY_FROM_OTHERS == "never":
            others = []
        if not self.president_may_contribute(entity):
            others = [t for t in others
                      if not (entity.cash < t.price and self.must_buy_at_face_value(t, entity))]
        return depot_trains + others

    def must_buy_at_face_value(self, train, entity) -> bool:
        return self.game.ALWAYS_BUY_TRAINS_AT_FACE_VALUE

    def spend_minmax(self, entity, train) -> tuple:
        game = self.game
        if game.EBUY_FROM_OTHERS != "never" and self.buying_power(entity) < train.price:
            max_possible = self.buying_power(entity) + entity.owner.cash
            low = max_possible - self.last_share_sold_price + 1 \
                if self.last_share_sold_price is not None else 1
            high = min(train.price, max_possible) if game.EBUY_FROM_OTHERS == "value" \
                else max_possible
            return low, high
        return 1, self.buying_power(entity)

    def exchangeable_variants(self, train, entity) -> list:
        info = self.game.discountable_trains_for(entity)
        if not any(dt.name in dt.variants for _, dt, _, _ in info):
            return []
        return list(train.variants.keys())

    def buyable_variants(self, train, entity) -> list:
        if not any(bt.name in bt.variants for bt in self.buyable_trains(entity)):
            return []
        names = list(train.variants.keys())
        return names

    def check_spend(self, action) -> None:
        low, high = self.spend_minmax(action.entity, action.train)
        if low <= action.price <= high:
            return
        if not (action.train.owner is not None and action.train.owner.is_corporation):
            return
        raise GameError(f"{action.entity.name} may only spend between "
                        f"{self.game.format_currency(low)} and {self.game.format_currency(high)} "
                        f"on {action.train.owner.name}'s {action.train.name} train")

    def buy_train_action(self, action, entity=None) -> None:
        game = self.game
        entity = entity or action.entity
        train = action.train
        price = action.price
        exchange = action.exchange
        variant = action.variant or train.name
        variants = self.exchangeable_variants(train, entity) if exchange else \
            self.buyable_variants(train, entity)
        # Another company's train only where the rules open that market (phase, owner type).
        offered = train in self.buyable_trains(entity) or \
            (train.from_depot() and train in game.depot.available(entity))
        if variant not in variants or not offered:
            raise GameError(f"{entity.name} cannot buy train {train.id} now")
        train.set_variant(action.variant)
        if exchange is not None:
            if exchange.owner is not entity:
                raise GameError(f"{entity.name} does not own train {exchange.id}")
            allowed = [p for t, dt, name, p in game.discountable_trains_for(entity)
                       if t is exchange and dt.name == train.sym and name == train.name]
            if not allowed or price != allowed[0]:
                raise GameError(f"trading in a {exchange.name} for a {train.name} costs "
                                f"{allowed[0] if allowed else 'nothing: not allowed'}")
        elif train.from_depot() and price != train.price:
            raise GameError(f"a {train.name} train from the depot costs "
                            f"{game.format_currency(train.price)}")
        if train.owner is entity:
            raise GameError("an entity cannot buy a train from itself")
        if price <= 0:
            raise GameError("a train must cost something")
        remaining = price - self.buying_power(entity)
        if remaining > 0 and self.president_may_contribute(entity):
            self.check_for_cheapest_train(train)
            if exchange is not None:
                raise GameError("cannot contribute funds when exchanging")
            if price > train.price and not (train.owner and train.owner.is_corporation):
                raise GameError("cannot buy for more than cost")
            player = entity.owner
            if player.cash < remaining:
                raise GameError(f"{player.name} cannot contribute {remaining}")
            player.spend(remaining, entity)
            game.log(f"{player.name} contributes {game.format_currency(remaining)}")
        if exchange is not None:
            game.depot.reclaim_train(exchange)
        source = train.owner
        game.log(f"{entity.name} {'exchanges a ' + exchange.name + ' for' if exchange else 'buys'}"
                 f" a {train.name} train for {game.format_currency(price)} from {source.name}")
        game.buy_train(entity, train, price)
        game.phase.buying_train(entity, train, source)
        if not self.can_buy_train(entity) and self.pass_if_cannot_buy_train(entity):
            self.pass_()

    def pass_if_cannot_buy_train(self, entity) -> bool:
        return True

    def check_for_cheapest_train(self, train) -> None:
        game = self.game
        cheapest = game.depot.min_depot_train()
        if cheapest is None:
            return
        prices = {}
        for name, v in cheapest.variants.items():
            prices.setdefault(v["price"], []).append(name)
        names = prices[min(prices)]
        if train.name not in names and game.EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST and \
                (game.EBUY_FROM_OTHERS == "never" or train.from_depot()):
            raise GameError(f"cannot buy a {train.name}: a cheaper train is available "
                            f"({names[0]})")


class BuyTrain(TrainBuying, Step):
    """The operator buys trains (it must have one if it has a route)."""

    type = "buy_train"

    def actions(self, entity):
        if not self.can_entity_buy_train(entity):
            return []
        current = self.current_entity()
        if current is not None and entity is current.owner and self.can_ebuy_sell_shares(current):
            return ["sell_shares"]
        if entity is not current:
            return []
        if self.president_may_contribute(entity):
            return ["sell_shares", "buy_train"]
        if self.can_buy_train(entity):
            return ["buy_train", "pass"]
        return []

    def can_ebuy_sell_shares(self, entity) -> bool:
        return self.game.EBUY_CAN_SELL_SHARES

    def description(self) -> str:
        return "Buy Trains"

    def setup(self) -> None:
        self.train_setup()

    def pass_(self) -> None:
        self.last_share_sold_price = None
        self.last_share_issued_price = None
        super().pass_()

    def process_sell_shares(self, action) -> None:
        if action.entity is not self.current_entity():
            self.last_share_sold_price = action.bundle.price_per_share
        super().process_sell_shares(action)
        if action.entity is not self.current_entity():
            self.corporations_sold.append(action.bundle.corporation)

    def process_buy_train(self, action) -> None:
        self.check_spend(action)
        self.buy_train_action(action)

    def log_skip(self, entity) -> None:
        if self.game.num_corp_trains(entity) < self.game.train_limit(entity):
            return super().log_skip(entity)
        self.game.log(f"{entity.name} skips buying trains: it has no room for more")


class DiscardTrain(Step):
    """An operator over its train limit gives trains back to the bank."""

    type = "discard_train"

    def actions(self, entity):
        return ["discard_train"] if entity in self.crowded_corps() else []

    def active_entities(self) -> list:
        return self.crowded_corps()[:1]

    def active(self) -> bool:
        return bool(self.crowded_corps())

    def description(self) -> str:
        return "Discard Trains"

    def crowded_corps(self) -> list:
        return self.game.crowded_corps()

    def process_discard_train(self, action) -> None:
        train = action.train
        if train.owner is not action.entity:
            raise GameError(f"{action.entity.name} does not own train {train.id}")
        self.game.depot.reclaim_train(train)
        self.game.log(f"{action.entity.name} discards {train.name}")


class Bankrupt(Step):
    """A president who cannot raise the money for a required train goes bankrupt."""

    type = "bankrupt"

    def actions(self, entity):
        return ["bankrupt"] if entity is self.current_entity() else []

    def blocks(self) -> bool:
        return False

    def description(self) -> str:
        return "Bankrupt"

    def process_bankrupt(self, action) -> None:
        game = self.game
        corp = action.entity
        player = game.acting_for_entity(corp.owner)
        if not game.can_go_bankrupt(player, corp):
            raise GameError(
                f"{player.name} cannot go bankrupt: {corp.name}'s cash plus {player.name}'s "
                f"cash and sellable shares total "
                f"{game.format_currency(game.total_emr_buying_power(player, corp))}, and the "
                f"cheapest train costs {game.format_currency(game.depot.min_depot_price())}")
        self.sell_bankrupt_shares(player, corp)
        if hasattr(self.round, "recalculate_order"):
            self.round.recalculate_order()
        player.set_cash(0, game.bank)
        game.declare_bankrupt(player)

    def sell_bankrupt_shares(self, player, corp) -> None:
        game = self.game
        game.log(f"-- {player.name} goes bankrupt and sells remaining shares --")
        for corporation in sorted(list(player.shares_by_corporation),
                                  key=game.corporation_sort_key):
            if corporation.share_price is None:
                continue
            while True:
                bundles = game.sellable_bundles(player, corporation)
                if not bundles:
                    break
                game.sell_shares_and_change_price(max(bundles, key=lambda b: b.price))


class BuyCompany(Step):
    """Operators buy private companies from players (when the phase allows)."""

    type = "buy_company"

    def actions(self, entity):
        if entity.is_minor:
            return []
        if self.can_buy_company(entity):
            return ["buy_company", "pass"] if self.blocks() else ["buy_company"]
        if self.blocks() and entity.is_corporation and \
                self.game.abilities(entity, passive_ok=False):
            # The operator still has a special power it could use (e.g. a port token).
            return ["pass"]
        return []

    def blocks(self) -> bool:
        return bool(self.opts.get("blocks"))

    def description(self) -> str:
        return "Buy Companies"

    def round_state(self) -> dict:
        return {"just_sold_company": None, "company_sellers": {}}

    def can_buy_company(self, entity) -> bool:
        game = self.game
        companies = game.purchasable_companies(entity)
        return (entity is self.current_entity() and "can_buy_companies" in game.phase.status
                and bool(companies)
                and min(c.min_price for c in companies) <= self.buying_power(entity))

    def process_buy_company(self, action) -> None:
        self.buy_company(action.entity, action.company, action.price, action.company.owner)

    def buy_company(self, entity, company, price, owner) -> None:
        game = self.game
        if not game.company_sellable(company):
            raise GameError(f"cannot buy {company.name} from {owner.name}")
        low, high = company.min_price, company.max_price(entity)
        if not low <= price <= high:
            raise GameError(f"price must be between {game.format_currency(low)} and "
                            f"{game.format_currency(high)}")
        company.owner = entity
        if owner is not None and company in getattr(owner, "companies", []):
            owner.companies.remove(company)
        for ability in game.abilities(company, "assign_corporation", time="sold"):
            for c in game.corporations:
                c.assignments.pop(company.id, None)
            entity.assignments[company.id] = True
            ability.use()
        for ability in game.abilities(company, "revenue_change", time="sold"):
            company.revenue = ability.revenue
        company.remove_ability_when("sold")
        self.round.just_sold_company = company
        self.round.company_sellers[company] = owner
        entity.companies.append(company)
        entity.spend(price, owner if owner is not None else game.bank)
        game.company_bought(company, entity)
        game.log(f"{entity.name} buys {company.name} from "
                 f"{owner.name if owner else 'the market'} for {game.format_currency(price)}")
        game.after_sell_company(entity, company, price, owner)
