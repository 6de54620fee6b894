"""The 1817 family of rules (1817NA, and 1817 itself).

* Private companies are auctioned with seed money (``auction``); corporations are
  founded by auctioning their president's certificates, in 2, 5 or 10 shares as the phase
  allows (``founding``, ``shares``), and choose their home city.
* Incremental capitalisation; shares are never sold for less than they fetch (no price
  change on a sale); each share left in the market moves the price left at the end of the
  stock round; sold-out 5- and 10-share corporations rise.
* Corporations borrow from the bank (``loans``), short selling (``stock``), no president's
  money for trains.
* After each operating round: a merger and conversion round, then an acquisition round
  (``mergers``).
* The first 8 (bought or exported) ends the game after one more set of operating rounds;
  bankruptcy of all but one player ends it at once.
"""

from __future__ import annotations

import functools
from typing import FrozenSet, Iterator, List

from ...rules import board, endgame, phases, powers, tokens, trading
from ...rules.revenue import BonusParts, StopRules
from ...spec.settings import (BankruptcyEnd, Capitalization, EndTiming, EndTrigger,
                              HomeTokenTiming, PoolDrop, SaleMovement, SaleTiming, Settings,
                              TileLay, TradeOrder, TrainDuty)
from ...state.model import CompanyState
from ...errors import RouteError
from ...turns.operating import HomeTokenStep, RouteStep, TokenStep
from ...turns.order import CommonRounds
from ...turns.round import SeatRound
from ...turns.sequence import operating_round, reorder_players, stock_round
from ...turns.trains import DiscardStep
from . import acquisition, mergers, shares
from .auction import PrivateAuction
from .crisis import Bankrupt, CashCrisis
from .notes import Notes1817, notes
from .operating import Dividend1817, LoanStep, OperatingRound1817, TrainsThenInterest
from .stock import ZONES, StockRound1817, StockTurn1817, close_bank_shorts
from .track import BRIDGE, MINE, BridgeStep, Track1817

SETTINGS = Settings(
    treasury_name="Treasury",
    capitalization=Capitalization.INCREMENTAL, market_limit=1000,
    privates_count_for_limit=False, short_selling=True, frozen_cells=ZONES,
    sale_timing=SaleTiming.OPERATED_OR_IN_OPERATING_ROUND,
    sale_movement=SaleMovement.NONE, trade_order=TradeOrder.SELL_THEN_BUY,
    pool_drop=PoolDrop.DOWN_PER_SHARE, home_token=HomeTokenTiming.START,
    tile_lays=(TileLay(), TileLay(cost=20, no_upgrade_after_upgrade=True, new_hex_only=True)),
    train_duty=TrainDuty.NEVER, obsolete_count_for_limit=True,
    emergency_swaps_presidencies=False,
    bankruptcy_ends=BankruptcyEnd.ALL_BUT_ONE,
    end_triggers=((EndTrigger.BANKRUPTCY, EndTiming.IMMEDIATELY),
                  (EndTrigger.FINAL_PHASE, EndTiming.ONE_MORE_SET)))


class Family1817(CommonRounds):
    """The 1817 rules (see the module docstring)."""

    OPENING_STEPS = (PrivateAuction,)
    STOCK_STEPS = (DiscardStep, HomeTokenStep, StockTurn1817)
    OPERATING_STEPS = (Bankrupt, CashCrisis, DiscardStep, LoanStep, BridgeStep, Track1817, TokenStep, RouteStep,
                       Dividend1817, TrainsThenInterest)

    def __init__(self) -> None:
        self.events = {"signal_end_game": self.last_set}

    def may_start(self, table, corporation, player) -> bool:
        """Corporations are founded by auction (``founding``), never parred."""
        return False

    def set_up(self, table) -> None:
        table.state.title = Notes1817(seed_money=table.spec.data.seed_money)

    def first_round(self, table):
        table.log(f"Seed Money for initial auction is {table.money(notes(table).seed_money)}")
        return SeatRound(table, list(self.OPENING_STEPS))

    # -- the order of rounds -------------------------------------------------------------

    def stock_round(self, table):
        close_bank_shorts(table)
        notes(table).interest_rate = None
        return StockRound1817(table, list(self.STOCK_STEPS))

    def operating_round(self, table, number: int):
        return OperatingRound1817(table, list(self.OPERATING_STEPS), number)

    def next_round(self, table):
        r = table.round
        state = table.state
        kept = notes(table)
        kept.interest_paid = {}
        if r.is_stock:
            state.operating_rounds = kept.final_operating_rounds or table.phase.operating_rounds
            reorder_players(table)
            return operating_round(table, self.operating_round)
        if r.is_operating:
            export_train(table)
            kept.prices_at_mergers = {c.sym: c.price for c in state.corporations}
            return mergers.merger_round(table, r.number)
        if r.is_merger and not mergers.is_acquisition(r):
            return acquisition.acquisition_round(table, r.number)
        if r.is_merger:
            if r.number < state.operating_rounds:
                return operating_round(table, self.operating_round, r.number + 1)
            state.turn += 1
            return stock_round(table, self.stock_round)
        reorder_players(table)
        return stock_round(table, self.stock_round)

    def last_set(self, table) -> None:
        """The first 8: the game ends after the next set of operating rounds (of 3 if it
        came in the second operating round of a set, else of 2)."""
        r = table.round
        kept = notes(table)
        kept.final_operating_rounds = 3 if r.number == 2 else 2
        endgame.check_triggers(table)
        table.log(f"First 8 train bought/exported, ending game at the end of "
                  f"{table.state.turn + 1}.{kept.final_operating_rounds}")

    # -- rules -------------------------------------------------------------------------------

    def home_choices(self, table, operator) -> List[str]:
        """Any city with a free slot the corporation has no token in (a hex without
        cities is passed over without reading its tile)."""
        out = []
        for hex_id, hex_state in table.state.hexes.items():
            if not hex_state.cities:
                continue
            for node in board.view(table, hex_id).cities:
                if tokens.has_free_slot(node) and not any(
                        t is not None and t.owner is operator for t in node.city.slots):
                    out.append(hex_id)
                    break
        return out

    def hex_takes_upgrades(self, table, hex_id, old) -> bool:
        """A mine's hex keeps its yellow tile."""
        return MINE not in table.state.hexes[hex_id].assignments

    def tile_terrain_cost(self, table, operator, hex_id, tile, rotation) -> int:
        """A coal mine saves the terrain it is laid on, up to its discount ($15)."""
        cost = super().tile_terrain_cost(table, operator, hex_id, tile, rotation)
        if isinstance(operator, CompanyState):
            for p in powers.powers(table, operator, "tile_lay"):
                if isinstance(p.spec.discount, int):
                    cost -= min(cost, p.spec.discount)
        return cost

    def route_bonus(self, table, route, stops) -> int:
        """See :meth:`route_bonus_parts` (only the hexes the route runs through are
        looked at for mines)."""
        return self.route_bonus_parts(table, route.train, route.hexes_run()).of(route, stops)

    def route_bonus_parts(self, table, train, among=None) -> BonusParts:
        """$10 for each stop on a bridge, $10 for each mine the route runs through; with
        Modern Trains, a 7 earns $10 and an 8 $20 more for each of its owner's stations
        it stops at. (``among``: only those hexes are looked at for mines.)"""
        hexes = table.state.hexes
        per_station = modern_bonus(table, train)
        owner = train.owner

        def per_stop(node) -> int:
            bonus = 10 if BRIDGE in hexes[node.hex].assignments else 0
            if per_station and node.is_city and node.city is not None and any(
                    t is not None and t.owner is owner for t in node.city.slots):
                bonus += per_station
            return bonus
        return BonusParts(per_stop, {h: 10 for h in _marked(hexes, MINE, among)})

    def route_bonus_bound(self, table, operator, train) -> int:
        marked = [h for h in table.state.hexes.values()
                  if MINE in h.assignments or BRIDGE in h.assignments]
        stations = sum(1 for t in operator.tokens if t.where is not None)
        return 10 * len(marked) + modern_bonus(table, train) * stations

    def route_problem(self, table, route) -> None:
        """See :meth:`route_stop_rules` (only the route's end hexes are looked at for
        mines)."""
        hexes = route.hexes()
        problem = self.route_stop_rules(table, hexes[:1] + hexes[-1:]).problem(route)
        if problem:
            raise RouteError(problem)

    def route_stop_rules(self, table, among=None) -> StopRules:
        """A route visits no hex twice, and neither starts nor ends at a mine.
        (``among``: only those hexes are looked at for mines.) The rules for a set of
        mines are made once."""
        return _mine_rules(frozenset(_marked(table.state.hexes, MINE, among)))

    def ends_after_round(self, table, timing) -> bool:
        """One more set ends with the acquisition round after its last operating round."""
        if timing is EndTiming.ONE_MORE_SET:
            r = table.round
            return mergers.is_acquisition(r) and r.number == table.state.operating_rounds \
                and table.turn == table.state.end.final_turn
        return super().ends_after_round(table, timing)

    def sale_candidates(self, table, holder, corporation) -> Iterator:
        """Shares only: a short is never sold."""
        certs = [c for c in shares.certificates.held(holder, corporation) if c.percent > 0]
        return trading.growing_candidates(table, holder, corporation, certs)

    # The certificate limit by the number of players still in the game: a bankruptcy
    # raises it (the title's table; empty: the limit of the game's data).
    CERT_LIMITS: dict = {}

    def certificate_limit(self, table, holder=None) -> int:
        """The limit for the players left in the game."""
        left = 0
        for p in table.state.players:
            if not p.bankrupt:
                left += 1
        return self.CERT_LIMITS.get(left, table.spec.data.cert_limit)

    def score(self, table, player) -> int:
        """Cash and shares at their price, shorts taken off, and private companies still
        held at face value. (The seed says privates count nothing; 18xx.games counts them,
        and a random game's recorded result shows it: a bankrupt player keeping the Minor
        Mail Contract scores $60.)"""
        total = player.cash + sum(c.value for c in player.companies)
        for certs in player.shares.values():
            for cert in certs:
                cell = table.cell(cert.corporation.price)
                if cell is not None:
                    total += cell.price * cert.percent // \
                        shares.certificates.share_percent(cert.corporation)
        return total


MODERN_BONUS = {7: 10, 8: 20}


@functools.lru_cache(maxsize=64)
def _mine_rules(mines: FrozenSet[str]) -> StopRules:
    """:meth:`Family1817.route_stop_rules` for the mines ``mines``."""
    return StopRules(one_per_hex=True, not_an_end=mines,
                     end_problem="Route cannot start or end with a mine")


def _marked(hexes: dict, mark: str, among=None) -> List[str]:
    """The hexes (of ``among``, else of the map, in map order) assigned ``mark``."""
    if among is None:
        return [h for h, state in hexes.items() if mark in state.assignments]
    return [h for h in among if mark in hexes[h].assignments]


def modern_bonus(table, train) -> int:
    """What each of its owner's stations adds to a 7 or 8 with the Modern Trains option."""
    if "modern_trains" not in table.spec.options:
        return 0
    distance = train.variant.distance
    return MODERN_BONUS.get(distance, 0) if isinstance(distance, int) else 0


def export_train(table) -> None:
    """The bank exports the next train; the first time, all the 2s."""
    upcoming = table.state.depot.upcoming
    if not upcoming:
        return
    first = upcoming[0]
    doomed = [t for t in upcoming if t.spec is first.spec] if first.spec.name == "2" \
        else [first]
    for train in doomed:
        phases.export(table, train)
    table.log(f"-- Event: {first.name} train exported --" if len(doomed) == 1 else
              f"-- Event: All {first.name} trains are exported --")


__all__ = ["Family1817", "SETTINGS"]
