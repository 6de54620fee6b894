"""The stock round's main step: buy, sell and par shares, buy private companies."""

from __future__ import annotations

from ..actions import Action, action_hash
from ..errors import GameError
from ..step import Step

PURCHASE_TYPES = ("buy_company", "buy_shares", "par")


def action_before(action, program) -> bool:
    """Was ``action`` taken before ``program`` was set (by id, else by time)?"""
    if action.id is not None and program.id is not None:
        return action.id < program.id
    return (action.get("created_at") or 0) < (program.get("created_at") or 0)


class ShareBuying:
    """Buying shares, shared by every step that lets an entity buy them."""

    def buy_shares(self, entity, bundle, exchange=None, exchange_price=None, swap=None,
                   allow_president_change: bool = True, silent: bool = False) -> None:
        if not self.can_buy(entity, bundle) and swap is None:
            raise GameError(f"{entity.name} cannot buy a share of {bundle.corporation.name}")
        self.game.share_pool.buy_shares(entity, bundle, exchange=exchange,
                                        exchange_price=exchange_price, swap=swap,
                                        allow_president_change=allow_president_change,
                                        silent=silent)
        self.maybe_place_home_token(bundle.corporation)

    def maybe_place_home_token(self, corporation) -> None:
        game = self.game
        if (game.HOME_TOKEN_TIMING == "float" and corporation.floated()) or \
                (game.HOME_TOKEN_TIMING == "par" and corporation.ipoed):
            game.place_home_token(corporation)

    def can_gain(self, entity, bundle, exchange: bool = False) -> bool:
        """Would owning ``bundle`` keep ``entity`` within holding and certificate limits?"""
        if bundle is None or entity is None:
            return False
        game = self.game
        if bundle.owner.is_player and not game.can_gain_from_player(entity, bundle):
            return False
        corporation = bundle.corporation
        return corporation.holding_ok(entity, bundle.common_percent) and (
            not corporation.counts_for_limit() or exchange
            or game.num_certs(entity) < game.cert_limit(entity))


class BuySellParShares(ShareBuying, Step):
    """A player's stock round turn: sell, buy one certificate (or several where the market
    allows), start a corporation, or pass."""

    type = "buy_sell_par_shares"

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if self.must_sell(entity):
            return ["sell_shares"]
        out = []
        if self.can_buy_any(entity):
            out.append("buy_shares")
        if self.can_ipo_any(entity):
            out.append("par")
        if self.purchasable_companies(entity) or self.buyable_bank_owned_companies(entity):
            out.append("buy_company")
        if self.can_sell_any(entity):
            out.append("sell_shares")
        if out:
            out.append("pass")
        return out

    def description(self) -> str:
        return {"sell_buy_or_buy_sell": "Buy or Sell Shares", "sell_buy": "Sell then Buy Shares",
                "sell_buy_sell": "Sell/Buy/Sell Shares"}[self.game.SELL_BUY_ORDER]

    def round_state(self) -> dict:
        return {"players_sold": {}, "players_bought": {}, "current_actions": [],
                "bought_from_ipo": False, "players_history": {}}

    def setup(self) -> None:
        r = self.round
        for corps in r.players_sold.values():
            for corp in corps:
                corps[corp] = "prev"
        entity = self.current_entity()
        if entity is not None:
            r.players_history.setdefault(entity, {}).clear()
        r.current_actions = []
        r.bought_from_ipo = False

    # -- state helpers ---------------------------------------------------------------------

    def sold_map(self, entity) -> dict:
        return self.round.players_sold.setdefault(entity, {})

    def bought(self) -> bool:
        return any(a.type in PURCHASE_TYPES for a in self.round.current_actions)

    def sold(self) -> bool:
        return any(a.type == "sell_shares" for a in self.round.current_actions)

    def available_cash(self, entity) -> int:
        return entity.cash

    def track_action(self, action, corporation, player_action: bool = True) -> None:
        player = action.entity.player
        self.round.last_to_act = player
        if player_action:
            self.round.current_actions.append(action)
        self.round.players_history.setdefault(player, {}).setdefault(corporation, []) \
            .append(action)

    # -- buying ----------------------------------------------------------------------------

    def can_buy(self, entity, bundle) -> bool:
        if bundle is None or not bundle.buyable:
            return False
        if entity is bundle.owner:
            return False
        corporation = bundle.corporation
        if corporation.share_price is None and bundle.owner is corporation.ipo_owner and \
                not bundle.presidents_share:
            return False  # not started: its shares come only after parring it
        return (self.available_cash(entity) >= self.modify_purchase_price(bundle)
                and not self.sold_map(entity).get(corporation)
                and (self.can_buy_multiple(entity, corporation, bundle.owner) or not self.bought())
                and self.can_gain(entity, bundle))

    def modify_purchase_price(self, bundle) -> int:
        return bundle.price

    def can_buy_multiple(self, entity, corporation, owner) -> bool:
        game = self.game
        if game.MULTIPLE_BUY_ONLY_FROM_MARKET:
            if not owner.is_share_pool or self.round.bought_from_ipo:
                return False
        return (corporation.buy_multiple()
                and not any(a.type == "par" for a in self.round.current_actions)
                and not any(a.type == "buy_shares" and a.bundle.corporation is not corporation
                            for a in self.round.current_actions))

    def can_buy_shares(self, entity, shares) -> bool:
        if not shares:
            return False
        sample = shares[0]
        corporation = sample.corporation
        if self.sold_map(entity).get(corporation) or (
                self.bought() and not self.can_buy_multiple(entity, corporation, sample.owner)):
            return False
        smallest = None
        for s in shares:
            if s.buyable and (smallest is None or s.percent < smallest.percent):
                smallest = s
        if smallest is None:
            return False
        bundle = smallest.to_bundle()
        return self.available_cash(entity) >= self.modify_purchase_price(bundle) and \
            self.can_gain(entity, bundle)

    def can_buy_any_from_market(self, entity) -> bool:
        groups: dict = {}
        for s in self.game.share_pool.shares:
            groups.setdefault(s.corporation, []).append(s)
        return any(self.can_buy_shares(entity, shares) for shares in groups.values())

    def can_buy_any_from_ipo(self, entity) -> bool:
        return any(c.ipoed and self.can_buy_shares(entity, c.ipo_owner.shares_of(c))
                   for c in self.game.corporations)

    def can_buy_any_from_player(self, entity) -> bool:
        if not self.game.BUY_SHARE_FROM_OTHER_PLAYER:
            return False
        return any(self.can_buy_shares(entity, p.shares)
                   for p in self.game.players if p is not entity)

    def can_buy_any(self, entity) -> bool:
        return (self.can_buy_any_from_market(entity) or self.can_buy_any_from_ipo(entity)
                or self.can_buy_any_from_player(entity))

    def can_ipo_any(self, entity) -> bool:
        if self.bought():
            return False
        for c in self.game.corporations:
            if self.game.can_par(c, entity) and c.all_shares and \
                    self.can_buy(entity, c.all_shares[0].to_bundle()):
                return True
        return False

    def get_par_prices(self, entity, corporation) -> list:
        return [p for p in self.game.stock_market.par_prices
                if p.price * 2 <= self.available_cash(entity)]

    # -- selling ---------------------------------------------------------------------------

    def must_sell(self, entity) -> bool:
        """Over the certificate limit, or above 60% of a corporation, and able to sell."""
        game = self.game
        over = game.num_certs(entity) > game.cert_limit(entity) or (
            not game.can_hold_above_corp_limit(entity)
            and any(not c.holding_ok(entity) for c in game.corporations))
        if not over or not self.can_sell_any(entity):
            return False
        if game.num_certs(entity) > game.cert_limit(entity):
            return True
        return bool(self.must_sell_corporations(entity))

    def must_sell_corporations(self, entity) -> list:
        return [c for c in self.game.corporations
                if not c.holding_ok(entity) and self.can_sell_any_bundles(entity, c)]

    def can_sell(self, entity, bundle) -> bool:
        if bundle is None or entity is not bundle.owner:
            return False
        game = self.game
        corporation = bundle.corporation
        if not game.check_sale_timing(entity, bundle):
            return False
        if game.TURN_SELL_LIMIT and bundle.percent + self.sold_this_turn(corporation) > \
                game.TURN_SELL_LIMIT:
            return False
        if game.MUST_SELL_IN_BLOCKS and self.sold_map(entity).get(corporation) == "now":
            return False
        return self.can_sell_order() and game.share_pool.fit_in_bank(bundle) and \
            self.can_dump(entity, bundle)

    def can_dump(self, entity, bundle) -> bool:
        return bundle.can_dump(entity)

    def can_sell_order(self) -> bool:
        order = self.game.SELL_BUY_ORDER
        if order == "sell_buy_or_buy_sell":
            actions = self.round.current_actions
            kinds = {a.type for a in actions}
            return not (len(kinds) == 2 and actions[-1].type in PURCHASE_TYPES)
        if order == "sell_buy":
            return not self.bought()
        return True

    def sold_this_turn(self, corporation) -> int:
        return sum(a.bundle.percent for a in self.round.current_actions
                   if a.type == "sell_shares" and a.bundle.corporation is corporation)

    def may_sell_some(self, entity, corporation) -> bool:
        """Quick test, before looking at bundles, that no rule rules out every sale of
        ``corporation`` by ``entity`` now."""
        game = self.game
        if game.MUST_SELL_IN_BLOCKS and self.sold_map(entity).get(corporation) == "now":
            return False
        if game.SELL_AFTER == "operate" and not corporation.operated():
            return False
        if game.SELL_AFTER == "first" and not (game.turn > 1 or game.round.is_operating):
            return False
        return self.can_sell_order()

    def can_sell_any_bundles(self, entity, corporation) -> bool:
        if not self.may_sell_some(entity, corporation):
            return False
        return any(self.can_sell(entity, b)
                   for b in self.game.bundles_for_corporation(entity, corporation))

    def can_sell_any(self, entity) -> bool:
        return any(self.can_sell_any_bundles(entity, c)
                   for c, shares in list(entity.shares_by_corporation.items())
                   if shares and not c.closed)

    def sell_shares(self, entity, bundle, swap=None) -> None:
        if not self.can_sell(entity, bundle) and swap is None:
            raise GameError(f"{entity.name} cannot sell shares of {bundle.corporation.name}")
        self.sold_map(bundle.owner)[bundle.corporation] = "now"
        self.game.sell_shares_and_change_price(bundle, swap=swap)

    # -- companies -------------------------------------------------------------------------

    def purchasable_companies(self, entity) -> list:
        game = self.game
        if self.bought() or self.available_cash(entity) <= 0 or \
                "can_buy_companies_from_other_players" not in game.phase.status:
            return []
        return game.purchasable_companies(entity)

    def buyable_bank_owned_companies(self, entity) -> list:
        if not entity.is_player or self.bought():
            return []
        return [c for c in self.game.buyable_bank_owned_companies()
                if self.can_buy_company(entity, c)]

    def can_buy_company(self, player, company) -> bool:
        return company in self.game.buyable_bank_owned_companies() and \
            self.available_cash(player) >= company.value

    # -- processing ------------------------------------------------------------------------

    def check_purchase(self, bundle) -> None:
        """A stock round purchase is one certificate, of a company that has been started."""
        corporation = bundle.corporation
        if corporation.share_price is None and bundle.owner is corporation.ipo_owner:
            raise GameError(f"{corporation.name} has not been started: par it first")
        if len(bundle.shares) > 1:
            raise GameError("a stock round purchase is one certificate")

    def process_buy_shares(self, action: Action) -> None:
        r = self.round
        bundle = action.bundle
        self.check_purchase(bundle)
        bought = r.players_bought.setdefault(action.entity, {})
        bought[bundle.corporation] = bought.get(bundle.corporation, 0) + bundle.percent
        if bundle.owner.is_corporation:
            r.bought_from_ipo = True
        self.buy_shares(action.purchase_for or action.entity, bundle, swap=action.swap,
                        allow_president_change=self.allow_president_change(bundle.corporation))
        self.track_action(action, bundle.corporation)

    def allow_president_change(self, corporation) -> bool:
        return True

    def process_sell_shares(self, action: Action) -> None:
        self.sell_shares(action.entity, action.bundle, swap=action.swap)
        self.track_action(action, action.bundle.corporation)

    def process_par(self, action: Action) -> None:
        if action.purchase_for is not None:
            raise GameError("cannot par on behalf of other entities")
        corporation = action.corporation
        entity = action.entity
        self.check_par(entity, corporation, action.share_price)
        self.game.stock_market.set_par(corporation, action.share_price)
        share = corporation.ipo_shares()[0]
        bought = self.round.players_bought.setdefault(entity, {})
        bought[corporation] = bought.get(corporation, 0) + share.percent
        self.buy_shares(entity, share.to_bundle())
        self.game.after_par(corporation)
        self.track_action(action, corporation)

    def check_par(self, entity, corporation, share_price) -> None:
        if not self.game.can_par(corporation, entity):
            raise GameError(f"{corporation.name} cannot be parred")
        if share_price not in self.get_par_prices(entity, corporation):
            raise GameError(f"{corporation.name} cannot be parred at "
                            f"{self.game.format_currency(share_price.price)}")

    def process_buy_company(self, action: Action) -> None:
        entity = action.entity
        company = action.company
        price = action.price
        owner = company.owner
        if owner is not None and owner.is_corporation:
            raise GameError(f"cannot buy {company.name} from {owner.name}")
        company.owner = entity
        if owner is not None and company in getattr(owner, "companies", []):
            owner.companies.remove(company)
        entity.companies.append(company)
        entity.spend(price, owner if owner is not None else self.game.bank)
        self.round.current_actions.append(action)
        self.game.log(f"{entity.name} buys {company.name} for {self.game.format_currency(price)}")
        if entity.is_player:
            self.game.after_buy_company(entity, company, price)

    def pass_(self) -> None:
        super().pass_()
        entity = self.current_entity()
        r = self.round
        if r.current_actions:
            if entity in r.pass_order:
                r.pass_order.remove(entity)
            if entity is not None:
                entity.unpass()
        else:
            if entity not in r.pass_order:
                r.pass_order.append(entity)
            if entity is not None:
                entity.pass_()

    def log_pass(self, entity) -> None:
        if not self.round.current_actions:
            self.game.log(f"{entity.name} passes")
        elif not (self.bought() and self.sold()):
            self.game.log(f"{entity.name} declines to {'sell' if self.bought() else 'buy'} shares")

    def log_skip(self, entity) -> None:
        self.game.log(f"{entity.name} has no valid actions and passes")

    # -- programmed actions ----------------------------------------------------------------

    def auto_actions(self, entity):
        return self.programmed_auto_actions(entity)

    def programmed_auto_actions(self, entity):
        """Actions the player's programs take now (passing, buying until floated …)."""
        programs = self.game.programs.get(entity.player, [])
        if not programs:
            return None
        out = []
        for program in programs:
            method = getattr(self, f"activate_{program.type}", None)
            if method is None:
                continue
            new = method(entity, program)
            if new:
                out.extend(new)
        return out

    def activate_program_share_pass(self, entity, program):
        """Pass for the player, unless someone has done something since the program was set
        that the player would want to react to."""
        if "pass" not in self.actions(entity):
            return None
        if not program.get("unconditional"):
            reason = self.should_stop_applying_program(entity, program, None)
            if reason:
                return [action_hash("program_disable", entity, reason=reason)]
        return [action_hash("pass", entity)]

    def from_market(self, program) -> bool:
        return bool(program.get("from_market"))

    def activate_program_buy_shares(self, entity, program):
        """Buy one share a turn of a corporation until it floats or the player holds the
        number of shares asked for."""
        game = self.game
        corporation = game.corporation_by_id(program.get("corporation"))
        until = program.get("until_condition")
        reason = None
        if until == "float":
            if corporation.floated() or corporation.percent_to_float() == 0:
                reason = f"{corporation.name} is floated"
        elif entity.num_shares_of(corporation, ceil=False) >= until:
            reason = f"{until} share(s) bought in {corporation.name}, end condition met"
        if reason:
            out = [action_hash("program_disable", entity, reason=reason)]
            if program.get("auto_pass_after"):
                out.append(action_hash("program_share_pass", entity, unconditional=False,
                                       indefinite=False))
            return out
        available = self.actions(entity)
        if "buy_shares" in available:
            if self.from_market(program):
                source = "market"
                shares = game.share_pool.shares_of(corporation)
            else:
                source = "IPO"
                shares = corporation.ipo_shares()
            by_percent: dict = {}
            for share in shares:
                if self.can_buy(entity, share.to_bundle()):
                    by_percent.setdefault(share.percent, []).append(share)
            if not by_percent:
                return [action_hash("program_disable", entity,
                                    reason=f"Cannot buy {corporation.name} from {source}")]
            if len(by_percent) != 1:
                return [action_hash("program_disable", entity,
                                    reason="Shares of different sizes exist, cannot auto buy "
                                           f"{corporation.name} from {source}")]
            share = next(iter(by_percent.values()))[0]
            reason = self.should_stop_applying_program(entity, program, share)
            if reason:
                return [action_hash("program_disable", entity, reason=reason)]
            return [action_hash("buy_shares", entity, shares=[share.id], percent=share.percent)]
        if self.bought() and "pass" in available:
            if until == "float" and corporation.floated():
                return None
            return [action_hash("pass", entity)]
        return None

    def corporation_secure_percent(self) -> int:
        return 50

    def should_stop_applying_program(self, entity, program, share_to_buy):
        """Why the program should stop: the player must sell, or another player did
        something since the program was set that might change their mind."""
        if self.must_sell(entity):
            return f"{entity.name} must sell shares"
        for other, corporations in self.round.players_history.items():
            if other is entity:
                continue
            for corporation, actions in corporations.items():
                for action in actions:
                    if action_before(action, program):
                        continue
                    reason = self.action_is_shenanigan(entity, other, action, corporation,
                                                       share_to_buy)
                    if reason:
                        return reason
        return None

    def action_is_shenanigan(self, entity, other, action, corporation, share_to_buy):
        game = self.game
        buying = share_to_buy.corporation if share_to_buy is not None else None
        if action.type == "par":
            from ..entities import Share
            probe = Share(corporation, corporation, False, corporation.share_percent, -1)
            if buying is None or game.check_sale_timing(entity, probe.to_bundle()):
                return f"Corporation {corporation.name} parred"
            return None
        if action.type == "buy_shares":
            if action.entity is corporation:
                return f"{corporation.name} redeemed a share."
            if corporation.owner is not entity:
                return None
            if corporation.owner.percent_of(corporation) >= self.corporation_secure_percent():
                return None
            if corporation is not buying:
                return f"{other.name} bought on corporation {corporation.name} and is unsecure"
            percentage = corporation.owner.percent_of(corporation) + share_to_buy.percent
            if percentage > self.corporation_secure_percent():
                return None
            bigger = [s for s in corporation.all_shares
                      if s.percent > share_to_buy.percent
                      and (s.owner is not entity or s.owner is not corporation.owner)]
            if bigger:
                biggest = max(bigger, key=lambda s: s.percent)
                other_percent = action.entity.percent_of(corporation) + biggest.percent
                if percentage < other_percent:
                    return (f"{action.entity.player.name} has bought, shares exist that could "
                            "allow them to gain presidency")
            return None
        if action.type == "sell_shares":
            return "Shares were sold"
        if action.type == "take_loan":
            return f"{corporation.name} took a loan"
        return f"Unknown action {action.type} disabling for safety"
