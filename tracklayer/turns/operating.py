"""An operator's turn: lay track, place a station token, run trains, pay or withhold.

Track: see ``turns.laying`` (its ``TrackStep`` is also found here). Token: one per turn,
in a city the network reaches. Routes: each train its own route (see ``rules.routes``).
Dividend: the revenue goes to the shareholders (each share its part, rounded up) or stays
in the treasury; the price moves right after a payout, left after withholding.
"""

from __future__ import annotations

import math

from ..actions import OffMap, new_action
from ..errors import GameError, RouteError
from ..rules import board, certificates, market, money, network, operators, powers, \
    route_reading, routes, tokens, trains
from ..rules.market import Direction
from ..spec.data import Timing
from ..spec.settings import MinorDividend
from ..state.model import CompanyState, CorporationState, MinorState, Operation
from .laying import TrackStep  # noqa: F401  (the operating round's steps are found here)
from .round import Run
from .step import Check, Step, asked, handles


# -- tokens -------------------------------------------------------------------------------------


class PlacingTokens:
    """Placing a station token, for the token step, home tokens and special powers."""

    def check_token(self, entity, node, token, *, connected: bool = True,
                    extra_action: bool = False, payer=None) -> None:
        table = self.table
        if isinstance(node, OffMap):
            raise GameError(f"city {node.id} is not on the map")
        if connected and not network.reaches_stop(table, entity, node):
            raise GameError(f"cannot place a token on {node.hex}: it is not connected")
        if not extra_action and self.round.notes.tokened:
            raise GameError("a token was already placed this turn")
        if token is None:
            raise GameError(f"{entity.name} has no token to place")
        if token.where is not None:
            raise GameError("that token is already placed")
        problem = tokens.problem(table, entity, node, [token], free=token.price <= 0,
                                 payer=payer)
        if problem:
            raise GameError(f"{entity.name} cannot lay token: {problem}")

    def put_token(self, entity, node, token, *, extra_action: bool = False,
                  payer=None) -> None:
        table = self.table
        network.forget(table)   # before the board changes, as after (nothing to walk)
        tokens.place(table, entity, node, token)
        network.forget(table)
        if token.price > 0:
            money.pay(table, payer or entity, table.state.bank, token.price)
        if table.keep_log:
            table.log(f"{entity.name} places a token on {node.hex}"
                      + (f" for {table.money(token.price)}" if token.price > 0 else ""))
        if not extra_action:
            self.round.notes.tokened = True


class TokenStep(PlacingTokens, Step):
    """An operator may place one station token."""

    NAME = "Place a Token"

    def prepare(self) -> None:
        self.round.notes.tokened = False

    def kinds(self, entity):
        if entity is not self.actor() or not self.may_place(entity):
            return ()
        return ("place_token", "pass")

    def may_place(self, entity) -> bool:
        if self.round.notes.tokened:
            return False
        left = tokens.unplaced(entity)
        if not left or min(t.price for t in left) > entity.cash:
            return False
        return self.somewhere_to_place(entity)

    def somewhere_to_place(self, entity) -> bool:
        table = self.table
        left = tokens.unplaced(entity)
        return network.remember_any(
            table, entity, "token",
            lambda n: n.is_city and tokens.tokenable(table, entity, n, left, free=True))

    def candidates(self, entity, kind, offer) -> list:
        if kind != "place_token":
            return super().candidates(entity, kind, offer)
        return [h for n in self.cities_to_try(entity) for h in token_actions(entity, n)]

    def cities_to_try(self, entity) -> list:
        return [n for n in network.nodes_reached(self.table, entity) if n.is_city]

    @handles("place_token")
    def place(self, action):
        self.check_token(action.entity, action.city, action.token)

        def commit() -> None:
            self.put_token(action.entity, action.city, action.token)
            self.mark_done()
        return commit


def token_actions(entity, node) -> list:
    """``place_token`` actions for a city, one per slot a player may pick: the one kept
    for the operator, else each free one (the token goes where ``board.slot_for`` says
    whichever is picked); with no slot named when there is none."""
    city = node.city
    kept = board.reservation_slot(city, entity) if city is not None else None
    if kept is not None:
        slots = [kept]
    else:
        reserved = city.reservations if city is not None else []
        slots = [i for i, t in enumerate(city.slots if city is not None else ())
                 if t is None and (i >= len(reserved) or reserved[i] is None)]
    if not slots:
        return [new_action("place_token", entity, city=node.id)]
    return [new_action("place_token", entity, city=node.id, slot=i) for i in slots]


class HomeTokenStep(PlacingTokens, Step):
    """A corporation whose home is not one city chooses where its first token goes."""

    NAME = "Place Home Token"
    PASSES = False

    def __init__(self, round, **options) -> None:
        super().__init__(round, **options)
        round.notes.pending_homes = []

    def pending(self):
        found = self.round.notes.pending_homes
        return found[0] if found else None

    def kinds(self, entity):
        p = self.pending()
        return ("place_token",) if p is not None and entity is p[0] else ()

    def live(self) -> bool:
        """While some home is to be chosen (asked where play stands after every action:
        the list itself, not its first)."""
        return bool(self.round.notes.pending_homes)

    def actors(self) -> list:
        p = self.pending()
        return [p[0] if p else None]

    def candidates(self, entity, kind, offer) -> list:
        if kind != "place_token":
            return super().candidates(entity, kind, offer)
        return [h for hex_id in self.pending()[1] for n in board.view(self.table, hex_id).cities
                for h in token_actions(entity, n)]

    @handles("place_token")
    def place(self, action):
        operator, hexes, token = self.pending()
        node = action.city
        if isinstance(node, OffMap) or node.hex not in hexes:
            where = node.id if isinstance(node, OffMap) else node.hex
            raise GameError(f"cannot place the home token on {where}")
        self.check_token(operator, node, token, connected=False, extra_action=True)

        def commit() -> None:
            self.put_token(operator, node, token, extra_action=True)
            self.round.notes.pending_homes.pop(0)
        return commit


# -- routes -------------------------------------------------------------------------------------


class RouteStep(Step):
    """The operator runs its trains; the engine checks each route and works out its
    revenue."""

    NAME = "Run Routes"
    PASSES = False

    def kinds(self, entity):
        if entity is not self.actor() or isinstance(entity, CompanyState):
            return ()
        if not [t for t in entity.trains if not t.operated]:
            return ()
        return ("run_routes",) if network.has_route(self.table, entity) else ()

    def candidates(self, entity, kind, offer) -> list:
        if kind != "run_routes" or offer.planner is None:
            return super().candidates(entity, kind, offer)
        return [new_action("run_routes", entity, routes=offer.planner(self.table, entity),
                           extra_revenue=0, subsidy=0)]

    @handles("run_routes")
    def run(self, action):
        """The routes read (:func:`route_reading.read_routes`) and checked by each rule of
        :data:`RUN_CHECKS` in turn (replayed trusted, none is asked); the commit records
        the revenue each train earns."""
        table = self.table
        entity = action.entity
        found = route_reading.read_routes(table, action.routes)
        for check in (_RUN_TRUSTED if table.trusted else _RUN_CHECKED):
            check(table, action, found)

        def commit() -> None:
            for route in found:
                earned = route.revenue      # worked out as the train runs (the route keeps it)
                if table.keep_log:
                    table.log(f"{entity.name} runs a {route.train.name} train for "
                              f"{table.money(earned)}: {route.describe()}")
            self.round.notes.runs = [Run(route.train, route.revenue) for route in found]
            self.round.notes.extra_revenue = 0
            self.mark_done()
        return commit


def _own_trains(table, action, found) -> None:
    """Each train is the operator's (or nobody's yet), runs once and has not run, and its
    route is track on the map (its connections read as legs); asked route by route."""
    entity = action.entity
    used = set()
    for route, rd in zip(found, action.routes):
        train = route.train
        if train.owner is not None and train.owner is not entity:
            raise GameError(f"{entity.name} cannot run another company's train {train.id}")
        if train in used:
            raise GameError(f"train {train.id} cannot run twice")
        if train.operated:
            raise GameError(f"train {train.id} has already run")
        used.add(train)
        if not route.legs:
            raise RouteError(f"route of train {train.id} is not on the map: "
                             f"{rd.get('connections')}")


def _legal_routes(table, action, found) -> None:
    """The routes are legal, together (:func:`routes.check_run`)."""
    routes.check_run(table, found)


def _no_extra_revenue(table, action, found) -> None:
    """No revenue is added to the routes'."""
    if (action.extra_revenue or 0) != 0:
        raise RouteError(f"extra revenue is 0, not {action.extra_revenue} as recorded")


def _revenue_as_recorded(table, action, found) -> None:
    """Each train earns what the action records, if it records it."""
    for route, rd in zip(found, action.routes):
        recorded = rd.get("revenue")
        if recorded is not None and recorded != route.revenue:
            raise RouteError(f"train {route.train.id} earns {route.revenue}, "
                             f"not {recorded} as recorded ({route.describe()})")


RUN_CHECKS = (
    Check(_own_trains),
    Check(_legal_routes),
    Check(_no_extra_revenue),
    Check(_revenue_as_recorded),
)
"""The rules a run of routes must meet, in the order they are checked (each refuses the
run naming what is wrong; :class:`Check`). Each only refuses: a run replayed trusted asks
none, its revenue being the routes' own, worked out as its trains run."""

_RUN_CHECKED, _RUN_TRUSTED = asked(RUN_CHECKS)


# -- dividends ----------------------------------------------------------------------------------


class DividendStep(Step):
    """See the module docstring."""

    NAME = "Pay or Withhold Dividends"
    PASSES = False
    KINDS = ("payout", "withhold")

    def kinds(self, entity):
        if entity is not self.actor() or isinstance(entity, CompanyState) or \
                self.fixed_split(entity):
            return ()
        return ("dividend",) if self.revenue() != 0 else ()

    def fixed_split(self, entity) -> bool:
        """A minor paying half to its owner has no choice to make (1893)."""
        return isinstance(entity, MinorState) and \
            self.table.settings.minor_dividend is MinorDividend.HALF

    def lapse(self) -> None:
        entity = self.actor()
        if not self.fixed_split(entity):
            return self.pay(entity, "withhold")
        if self.round.notes.runs:   # a minor without a route does nothing at all
            self.pay(entity, "payout" if self.revenue() > 0 else "withhold")

    def revenue(self) -> int:
        n = self.round.notes
        total = n.extra_revenue or 0
        for run in n.runs:
            total += run.revenue
        return total

    def split(self, entity, kind: str, revenue: int):
        """(kept by the operator, paid to its holders) for ``kind``; a minor paying half
        keeps the other half (nothing if half is nothing)."""
        if kind == "withhold":
            return revenue, 0
        if self.fixed_split(entity):
            half = revenue // 2
            return (revenue - half if half > 0 else 0), half
        return 0, revenue

    def price_moves(self, entity, paid: int):
        """How the price moves when ``paid`` goes to the shareholders."""
        return [(Direction.RIGHT, 1)] if paid > 0 else [(Direction.LEFT, 1)]

    def candidates(self, entity, kind, offer) -> list:
        if kind != "dividend":
            return super().candidates(entity, kind, offer)
        return [new_action("dividend", entity, kind=k) for k in self.KINDS]

    @handles("dividend")
    def declare(self, action):
        if action.dividend not in self.KINDS:
            raise GameError(f"unknown dividend kind {action.dividend!r}")
        return lambda: self.pay(action.entity, action.dividend)

    def pay(self, entity, kind: str) -> None:
        """The operator's revenue is paid out or withheld as ``kind`` says: the operation
        is recorded, its trains have run, the money goes where the split says, and the
        price moves."""
        revenue = self.revenue()
        kept, paid = self.split(entity, kind, revenue)
        entity.history.append(Operation(self.table.turn, self.round.number, revenue, kind))
        self.trains_have_run(entity)
        self.share_out(entity, kept, paid)
        self.move_price(entity, paid)
        self.mark_done()

    def trains_have_run(self, entity) -> None:
        """If any train ran, companies closing when the operator runs a train close; its
        trains count as run and the obsolete ones rust; the turn's routes are done."""
        table = self.table
        n = self.round.notes
        if n.runs:
            powers.close_on(table, entity, Timing.RAN_TRAIN)
        trains.set_operated(entity, True)
        for t in [t for t in entity.trains if t.obsolete]:
            trains.rust(table, t)
        n.runs = []
        n.extra_revenue = 0

    def share_out(self, entity, kept: int, paid: int) -> None:
        """What is kept goes from the bank to the treasury, what is paid to the holders
        (:meth:`pay_holders`); an operator earning nothing "does not run"."""
        table = self.table
        if kept > 0:
            if table.keep_log:
                table.log(f"{entity.name} withholds {table.money(kept)}")
            money.pay(table, table.state.bank, entity, kept)
        elif paid == 0:
            table.log(f"{entity.name} does not run")
        if paid > 0:
            self.pay_holders(entity, paid)

    def holder_share(self, entity, holder, per_share: float) -> int:
        return math.ceil(certificates.shares_of(holder, entity) * per_share)

    def treasury_share(self, entity, per_share: float) -> int:
        """What the operator's own certificates (or, fully capitalised, those in the
        market, where the title says they pay) earn for it."""
        table = self.table
        if operators.capitalization(table, entity).value == "incremental":
            holder = entity
        elif table.settings.market_shares_pay:
            holder = table.state.market
        else:
            return 0
        return math.ceil(certificates.shares_of(holder, entity) * per_share)

    def pay_holders(self, entity, paid: int) -> None:
        """Each holder gets its shares' part; a minor's owner gets it all."""
        table = self.table
        if isinstance(entity, MinorState):
            if table.keep_log:
                table.log(f"{entity.owner.name} receives {table.money(paid)}")
            money.pay(table, table.state.bank, entity.owner, paid)
            return
        per_share = paid / certificates.total_shares(entity)
        sym = entity.sym
        for holder in table.state.players + table.state.corporations:
            if holder is entity:
                amount = self.treasury_share(entity, per_share)
            elif sym in holder.shares:      # (a holder of none of its shares earns nothing)
                amount = self.holder_share(entity, holder, per_share)
            else:
                continue
            if amount != 0:
                money.pay(table, table.state.bank, holder, amount, any_amount=True)
        if table.keep_log:
            table.log(f"{entity.name} pays out {table.money(paid)}")

    def move_price(self, entity, paid: int) -> None:
        if not isinstance(entity, CorporationState) or entity.price is None:
            return
        old = entity.price
        for direction, times in self.price_moves(entity, paid):
            market.move_price(self.table, entity, direction, times)
        market.report_move(self.table, entity, old)

    def mark_done(self) -> None:
        entity = self.actor()
        if entity is not None and len(entity.history) == 1:
            powers.close_on(self.table, entity, Timing.OPERATED)
        super().mark_done()


__all__ = ["Optional"]
