"""Running trains and paying out: the route and dividend steps."""

from __future__ import annotations

import math

from ...routes.route import build_routes
from ..errors import GameError, RouteError
from ..step import Step


class RouteStep(Step):
    """The operator runs its trains; the engine checks each route and computes its revenue."""

    type = "route"

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        game = self.game
        if not entity.is_operator or not game.route_trains(entity) or not game.can_run_route(entity):
            return []
        return ["run_routes"]

    def description(self) -> str:
        return "Run Routes"

    def round_state(self) -> dict:
        return {"routes": [], "extra_revenue": 0}

    def process_run_routes(self, action) -> None:
        game = self.game
        entity = action.entity
        routes = build_routes(game, entity, action.routes)
        trains = set()
        for route, rd in zip(routes, action.routes):
            train = route.train
            if train.owner is not None and game.train_owner(train) is not entity:
                raise GameError(f"{entity.name} cannot run another company's train {train.id}")
            if train in trains:
                raise GameError(f"train {train.id} cannot run twice")
            if train.operated:
                raise GameError(f"train {train.id} has already run")
            trains.add(train)
            if not route.segments:
                raise RouteError(f"route of train {train.id} is not on the map: "
                                 f"{rd.get('connections')}")
        for route in routes:
            route.check(routes)
        game.check_routes(entity, routes)
        extra = game.extra_revenue(entity, routes)
        if (action.extra_revenue or 0) != extra:
            raise RouteError(f"extra revenue is {extra}, not {action.extra_revenue} as recorded")
        for route, rd in zip(routes, action.routes):
            recorded = rd.get("revenue")
            if recorded is not None and recorded != route.revenue:
                raise RouteError(f"train {route.train.id} earns {route.revenue}, "
                                 f"not {recorded} as recorded ({route.revenue_str()})")
            game.log(f"{entity.name} runs a {route.train.name} train for "
                     f"{game.format_currency(route.revenue)}: {route.revenue_str()}")
        self.round.routes = routes
        self.round.extra_revenue = extra
        self.pass_()


class Dividend(Step):
    """The operator pays its revenue to shareholders or keeps it; the share price moves."""

    type = "dividend"

    DIVIDEND_TYPES = ("payout", "withhold")

    def actions(self, entity):
        if entity is not self.current_entity():
            return []
        if entity.is_company or self.total_revenue() == 0:
            return []
        return ["dividend"]

    def description(self) -> str:
        return "Pay or Withhold Dividends"

    def round_state(self) -> dict:
        return {"extra_revenue": 0}

    def skip(self) -> None:
        self.process_dividend_kind(self.current_entity(), "withhold")

    def routes(self) -> list:
        return self.round.routes

    def total_revenue(self) -> int:
        return self.game.routes_revenue(self.routes()) + (self.round.extra_revenue or 0)

    def total_subsidy(self) -> int:
        return self.game.routes_subsidy(self.routes())

    def dividend_options(self, entity) -> dict:
        revenue = self.total_revenue()
        out = {}
        for kind in self.DIVIDEND_TYPES:
            payout = getattr(self, kind)(entity, revenue)
            payout["divs_to_corporation"] = self.corporation_dividends(entity, payout["per_share"])
            payout.update(self.share_price_change(entity, revenue - payout["corporation"]))
            out[kind] = payout
        return out

    def process_dividend(self, action) -> None:
        kind = action.kind
        if kind not in self.DIVIDEND_TYPES:
            raise GameError(f"unknown dividend kind {kind!r}")
        self.process_dividend_kind(action.entity, kind, action)

    def process_dividend_kind(self, entity, kind: str, action=None) -> None:
        game = self.game
        revenue = self.total_revenue()
        subsidy = self.total_subsidy()
        payout = self.dividend_options(entity)[kind]
        entity.operating_history[(game.turn, self.round.round_num)] = {
            "revenue": revenue, "kind": kind, "routes": self.routes()}
        if self.round.routes:
            game.close_companies_on_event(entity, "ran_train")
        for train in entity.trains:
            train.set_operated(True)
        self.rust_obsolete_trains(entity)
        self.round.routes = []
        self.round.extra_revenue = 0
        if payout["corporation"] > 0:
            game.log(f"{entity.name} withholds {game.format_currency(payout['corporation'])}")
        elif payout["per_share"] == 0:
            game.log(f"{entity.name} does not run")
        self.payout_corporation(payout["corporation"] + subsidy, entity)
        if payout["per_share"] > 0:
            self.payout_shares(entity, revenue - payout["corporation"])
        self.change_share_price(entity, payout)
        self.pass_()

    def payout_corporation(self, amount: int, entity) -> None:
        if amount > 0:
            self.game.bank.spend(amount, entity)

    def share_price_change(self, entity, revenue: int) -> dict:
        if revenue > 0:
            return {"share_direction": "right", "share_times": 1}
        return {"share_direction": "left", "share_times": 1}

    def withhold(self, entity, revenue: int) -> dict:
        return {"corporation": revenue, "per_share": 0}

    def payout(self, entity, revenue: int) -> dict:
        return {"corporation": 0, "per_share": self.payout_per_share(entity, revenue)}

    def payout_per_share(self, entity, revenue: int):
        return revenue / entity.total_shares

    def dividends_for_entity(self, entity, holder, per_share) -> int:
        return math.ceil(holder.num_shares_of(entity, ceil=False) * per_share)

    def corporation_dividends(self, entity, per_share) -> int:
        if entity.is_minor:
            return 0
        return self.dividends_for_entity(entity, self.holder_for_corporation(entity), per_share)

    def holder_for_corporation(self, entity):
        return entity if entity.capitalization == "incremental" else self.game.share_pool

    def payout_shares(self, entity, revenue: int) -> None:
        game = self.game
        per_share = self.payout_per_share(entity, revenue)
        for holder in game.players + game.corporations:
            if holder is entity:
                amount = self.corporation_dividends(entity, per_share)
            else:
                amount = self.dividends_for_entity(entity, holder, per_share)
            if amount == 0:
                continue
            game.bank.spend(amount, holder, check_positive=False)
        game.log(f"{entity.name} pays out {game.format_currency(revenue)}")

    def change_share_price(self, entity, payout: dict) -> None:
        direction = payout.get("share_direction")
        if not direction or entity.share_price is None:
            return
        market = self.game.stock_market
        old = entity.share_price
        times = payout["share_times"]
        directions = direction if isinstance(direction, list) else [direction]
        times = times if isinstance(times, list) else [times]
        for n, d in zip(times, directions):
            for _ in range(n):
                getattr(market, f"move_{d}")(entity)
        self.game.log_share_price(entity, old)

    def rust_obsolete_trains(self, entity) -> None:
        for train in [t for t in entity.trains if t.obsolete]:
            self.game.rust(train)

    def pass_(self) -> None:
        entity = self.current_entity()
        if entity is not None and len(entity.operating_history) == 1:
            self.game.close_companies_on_event(entity, "operated")
        super().pass_()


class MinorHalfPay:
    """Minors pay half their revenue to their owner and keep half, automatically."""

    def actions(self, entity):
        if entity.is_minor or (entity.is_corporation and entity.type == "minor"):
            return []
        return super().actions(entity)

    def skip(self) -> None:
        entity = self.current_entity()
        if entity.is_corporation and entity.type != "minor":
            return super().skip()
        revenue = self.game.routes_revenue(self.routes())
        self.process_dividend_kind(entity, "payout" if revenue > 0 else "withhold")

    def share_price_change(self, entity, revenue: int = 0) -> dict:
        if entity.is_corporation and entity.type != "minor":
            return super().share_price_change(entity, revenue)
        return {}

    def payout(self, entity, revenue: int) -> dict:
        if entity.is_corporation and entity.type != "minor":
            return super().payout(entity, revenue)
        amount = revenue // 2
        return {"corporation": amount, "per_share": amount}

    def payout_shares(self, entity, revenue: int) -> None:
        if entity.is_corporation and entity.type != "minor":
            return super().payout_shares(entity, revenue)
        self.game.log(f"{entity.owner.name} receives {self.game.format_currency(revenue)}")
        self.game.bank.spend(revenue, entity.owner)
