"""The 1849 family of rules (1849: Kingdom of the Two Sicilies, and 1849 itself).

* Corporations come in a random order fixed by the seed; only the next in that order may
  be started, at the par prices of the phase (68 and 100, then 144, then 216).
* Incremental capitalisation: treasury shares pay the corporation. A corporation pays for
  its three tokens when it starts and floats with its president's certificate. Its last
  certificate is a 20% one that goes only when it is the last of its pile.
* Trains count hex sides, narrow gauge (broad for the R6H) double; a chain of track
  between two stops keeps one gauge; E-trains avoid narrow gauge.
* A dividend moves the price right only if it reaches the price; none moves it left.
  Shares sold move the price down a row per 10%.
* From their second operating turn corporations issue and redeem shares.
* A president who cannot buy a required train goes bankrupt with the corporation, which
  closes and can start again; a player left with no shares may take a loan of 500
  (750 off the final score) instead of leaving the game.
* The game ends when the bank breaks (after the set) or when a corporation reaches the
  top of the market (after it operates).
"""

from __future__ import annotations

import functools
import itertools
from typing import Iterator, List, Optional, Tuple

from ...errors import GameError, RouteError
from ...rules import board, certificates, money, operators, powers, setup, tokens, track, \
    trading
from ...rules.certificates import Bundle, move_certificate
from ...rules.revenue import BonusParts, StopRules
from ...spec.data import Power, Timing
from ...spec.settings import (BankruptcyEnd, Capitalization, EmergencyTrainsFromOthers,
                              EndTiming, EndTrigger, HomeTokenTiming, PoolDrop, SaleMovement,
                              SaleTiming, Settings, TradeOrder)
from ...turns.order import CommonRounds
from . import steps
from .gauges import GaugeMeeting, added_gauge, hex_cost
from .steps import Notes1849, notes, sms_hexes

SETTINGS = Settings(
    treasury_name="Treasury",
    currency="L.{}", capitalization=Capitalization.INCREMENTAL,
    bankruptcy_ends=BankruptcyEnd.ALL_BUT_ONE,
    end_triggers=((EndTrigger.BANKRUPTCY, EndTiming.IMMEDIATELY),
                  (EndTrigger.MARKET_TOP, EndTiming.AFTER_IT_OPERATES),
                  (EndTrigger.BANK_BROKEN, EndTiming.END_OF_SET)),
    end_timing_order=(EndTiming.IMMEDIATELY, EndTiming.AFTER_IT_OPERATES, EndTiming.END_OF_SET),
    closing_frees_reservations=False,
    emergency_from_others=EmergencyTrainsFromOthers.NEVER,
    home_token=HomeTokenTiming.FLOAT, sale_timing=SaleTiming.AFTER_IT_OPERATED,
    trade_order=TradeOrder.SELL_THEN_BUY, sale_movement=SaleMovement.DOWN_PER_10_PERCENT,
    pool_drop=PoolDrop.DOWN_ONE, buys_after_start=2)


def distinct_combinations(certs: list) -> List[tuple]:
    """Index sets of ``certs`` giving every distinct kind of bundle (how many 10%s,
    whether the president's, whether the last), each the first such set in order of size
    then position."""
    return _combinations(tuple([(c.percent == 10, c.president, c.last) for c in certs]))


@functools.lru_cache(maxsize=1024)
def _combinations(kinds: Tuple[Tuple[bool, bool, bool], ...]) -> Tuple[tuple, ...]:
    """:func:`distinct_combinations` of certificates that are, in turn, (10%, president's,
    last) as ``kinds`` says: it depends on nothing else."""
    tens = [i for i, k in enumerate(kinds) if k[0]]
    pres = [i for i, k in enumerate(kinds) if k[1]]
    last = [i for i, k in enumerate(kinds) if k[2]]
    found = []
    for k in range(len(tens) + 1):
        for p in range(min(1, len(pres)) + 1):
            for q in range(min(1, len(last)) + 1):
                if k + p + q:
                    combo = sorted(tens[:k] + pres[:p] + last[:q])
                    found.append((len(combo), combo))
    found.sort()
    return tuple(tuple(combo) for _, combo in found)


def president_in_part(corporation) -> Iterator[Bundle]:
    """The president's certificate sold in part: 10% of it."""
    yield Bundle((corporation.certificates[0],), 10)


class Family1849(CommonRounds):
    """The 1849 rules; a title gives its home-choosing corporation and special hexes."""

    CHOOSES_HOME = ""
    HOME_CHOICES: tuple = ()
    PORTS: tuple = ()
    SMS_HEXES: tuple = ()
    E_DOUBLES: tuple = ()               # hexes an E-train scores twice
    GRAY_REVENUE: dict = {}              # gray locations whose revenue follows the phase
    MESSINA = "B14"
    LOAN, LOAN_PENALTY = 500, 750
    RSA_CLOSES = "RSA"

    def __init__(self) -> None:
        self.events = {"green_par": lambda t: notes(t).par_groups.append("par_1"),
                       "brown_par": lambda t: notes(t).par_groups.append("par_2")}

    # -- setting up -----------------------------------------------------------------------

    def corporation_order(self, table, corporations):
        """The corporations' order is drawn from the seed (2.1)."""
        return table.state.rng.shuffled(corporations)

    def set_up(self, table) -> None:
        """RSA closes when the corporation of its certificate buys a train; the first
        corporation of the order may start (2.1)."""
        state = table.state
        state.title = n = Notes1849()
        rsa = table.company(self.RSA_CLOSES)
        first = table.find("share", rsa.powers[0].certificate).corporation
        powers.grant(rsa, Power("close", when=(Timing.BOUGHT_TRAIN,), corporation=first.name))
        n.next_to_start[state.corporations[0].sym] = True

    def next_round(self, table):
        """The common order of rounds; the coastal hexes SMS opened last one turn."""
        nxt = super().next_round(table)
        notes(table).sms_hexes.clear()
        return nxt

    def stock_round(self, table):
        """Corporations closed last set may start again; Messina may be upgraded."""
        for c in table.state.corporations:
            notes(table).closed_recently[c.sym] = False
        notes(table).messina = True
        return steps.stock_round(table)

    def operating_round(self, table, number: int):
        """The 1849 operating turn (see ``steps.operating_round``)."""
        return steps.operating_round(table, number)

    # -- starting corporations ------------------------------------------------------------

    def may_start(self, table, corporation, player) -> bool:
        """Only the next corporation in the order, if its home is free (2.2)."""
        n, sym = notes(table), corporation.sym
        return (not corporation.started and n.next_to_start.get(sym, False)
                and not n.closed_recently.get(sym, False) and n.slot_open.get(sym, True))

    def start_cells(self, table, corporation, player) -> list:
        """The par prices of the phase: 68 and 100, then 144, then 216."""
        groups = set(notes(table).par_groups)
        cells = [c for row in table.spec.rows for c in row
                 if c and not groups.isdisjoint(c.kinds)]   # (no set made per cell)
        return sorted(cells, key=lambda c: c.price, reverse=True)

    def corporation_started(self, table, corporation) -> None:
        """The corporation pays its token fee; the next in order may start; in a stock
        round its home token goes on the map."""
        operators.after_start(table, corporation)
        money.pay(table, corporation, table.state.bank, corporation.spec.token_fee)
        table.log(f"{corporation.name} spends {table.money(corporation.spec.token_fee)} "
                  f"for tokens")
        self.pass_the_turn(table, corporation)
        if table.round.is_stock:
            operators.place_home_token(table, corporation)

    def pass_the_turn(self, table, corporation) -> None:
        """The next corporation in the order may start once this one has."""
        order, n = table.state.corporations, notes(table)
        n.next_to_start[corporation.sym] = False
        if corporation is not order[-1]:
            n.next_to_start[order[order.index(corporation) + 1].sym] = True

    def chooser(self, table):
        """The corporation that chooses its home among several cities."""
        return next((c for c in table.state.corporations if c.sym == self.CHOOSES_HOME), None)

    def home_choices(self, table, corporation) -> list:
        """The corporation without a home chooses a free city among its choices."""
        if corporation.sym != self.CHOOSES_HOME:
            raise GameError(f"{corporation.name} has a fixed home")
        left = tokens.unplaced(corporation)
        return [h for h in self.HOME_CHOICES
                if any(tokens.tokenable(table, corporation, c, left, free=True)
                       for c in board.view(table, h).cities)]

    def free_chooser(self, table) -> None:
        """The home-choosing corporation may start again once a home is free."""
        c, n = self.chooser(table), notes(table)
        if c is None or n.slot_open.get(c.sym, True) or not self.home_choices(table, c):
            return
        n.slot_open[c.sym] = True
        n.closed_recently[c.sym] = True

    # -- shares ---------------------------------------------------------------------------

    def certificates_for_presidency(self, table, corporation, president, count, swap_to,
                                    old_president) -> list:
        """A new president holding the 20% last certificate hands it over (the old
        president may then choose two 10% ones instead)."""
        held = certificates.held(president, corporation)
        double = next((c for c in held if c.last), None)
        if double is None:
            return [c for c in held if not c.last][:2]
        if sum(c.percent for c in held) >= 40:
            notes(table).swap = (old_president, swap_to, president, corporation)
        return [double]

    def return_part(self, table, bundle, source, to) -> None:
        """A president's certificate sold in part gives back a 10% share, never
        the 20% last certificate."""
        move_certificate(next(c for c in certificates.held(source, bundle.corporation)
                              if not c.last), to)

    def sale_candidates(self, table, holder, corporation) -> Iterator[Bundle]:
        """Every distinct way to sell, each made when asked for, and the president's
        certificate in part; which of them may go is the sale check's to judge
        (:meth:`presidency_may_pass` for those passing on the presidency)."""
        if not corporation.started:
            return
        held = list(certificates.held(holder, corporation))
        for combo in distinct_combinations(held):
            yield Bundle.whole([held[i] for i in combo])
        if corporation.owner is holder:
            yield from president_in_part(corporation)

    def heir(self, table, player, corporation):
        """Who would take the presidency: the other player with most (20% or more), the
        first after the seller when equal."""
        found = []   # (each other player's holding, summed once)
        for p in table.state.players:
            if p.id != player.id:
                percent = certificates.percent_of(p, corporation)
                if percent >= 20:
                    found.append((p, percent))
        if not found:
            return None
        top = max(percent for _, percent in found)
        best = [p for p, percent in found if percent == top]
        return min(best, key=lambda c: certificates.seats_after(table, player, c))

    def presidency_may_pass(self, table, bundle, seller) -> bool:
        """The president's certificate, whole or in part, goes only to a player who then
        holds more than the seller, the seller keeping less than 20% (:meth:`heir` takes
        the presidency). An heir holding the 20% last certificate gives that certificate
        for the president's (:meth:`certificates_for_presidency`), so a seller keeping 10%
        of the president's certificate sold in part takes that 10% share from the market
        (:meth:`return_part`): only if the market has one.

        This is the rule as 18xx.games plays it, not as rule 9.5 reads: there an heir
        holding only the last certificate takes the presidency from a seller who sells out
        or keeps 10% of a larger holding, never half of a bare 20%. The 18xx.games page
        offers that half sale (and carries it out when the market has a 10% share), so
        real games contain it; without a 10% share in the market it fails there too."""
        if bundle.president_certificate is None:
            return True
        heir = self.heir(table, seller, bundle.corporation)
        if heir is None:
            return False
        corporation = bundle.corporation
        keeps = certificates.percent_of(seller, corporation) - bundle.percent
        if keeps >= 20 or certificates.percent_of(heir, corporation) <= keeps:
            return False
        if not bundle.in_part or not any(c.last for c in certificates.held(heir, corporation)):
            return True
        return any(not c.last and not c.president for c in itertools.chain(
            certificates.held(table.state.market, corporation), bundle.certificates))

    def issuable(self, table, corporation) -> list:
        """The bundles :meth:`issues` finds, smallest first."""
        return trading.smallest_first(self.issues(table, corporation))

    def issues(self, table, corporation) -> Iterator[Bundle]:
        """From its second operating turn a corporation may issue treasury shares,
        keeping at most five in the market (each bundle found when asked for)."""
        if len(corporation.history) <= 1:
            return
        room = 5 - operators.shares_in_market(table, corporation)
        for b in self.sale_candidates(table, corporation, corporation):
            if round(b.shares) <= room and trading.last_goes_last(table, b):
                yield b

    def redeemable(self, table, corporation) -> list:
        """The bundles :meth:`redemptions` finds, smallest first."""
        return trading.smallest_first(self.redemptions(table, corporation))

    def redemptions(self, table, corporation) -> Iterator[Bundle]:
        """From its second operating turn a corporation may buy back a share from
        the market, if it can pay (each bundle found when asked for)."""
        if len(corporation.history) <= 1:
            return
        for b in self.sale_candidates(table, table.state.market, corporation):
            if len(b.certificates) <= 1 and \
                    corporation.cash >= certificates.bundle_price(table, b) and \
                    trading.last_goes_last(table, b):
                yield b

    def close_corporation(self, table, corporation) -> None:
        """A bankrupt corporation closes and goes back, unstarted, to the end of the order
        (past a home-choosing corporation with no home free) (8.4). A presidency swap
        still to be chosen for it stays to be chosen, as on 18xx.games
        (:class:`~.steps.SwapChoice` offers only keeping the 20% certificate)."""
        rsa = table.company(self.RSA_CLOSES)
        for p in list(rsa.powers):
            cert = table.find("share", p.certificate) if p.spec.kind == "shares" else None
            if (cert is not None and cert.corporation is corporation) or \
                    (p.spec.kind == "close" and p.spec.corporation == corporation.name):
                powers.remove(p)
        operators.close_corporation(table, corporation)
        for c in list(corporation.companies):
            powers.close_company(table, c)
        fresh = setup.fresh_corporation(corporation.spec)
        table.forget_index()
        order, n = table.state.corporations, notes(table)
        if fresh.sym != self.CHOOSES_HOME:
            board.reserve(table, fresh.spec.home, fresh, 0)
        order.append(fresh)
        n.next_to_start[fresh.sym] = False
        n.slot_open[fresh.sym] = True
        n.closed_recently[fresh.sym] = True
        i = len(order) - 1
        before = order[i - 1]
        if not n.slot_open.get(before.sym, True):
            n.next_to_start[before.sym] = False
            order[i - 1], order[i] = fresh, before
        if operators.has_floated(table, order[i - 1]):
            n.next_to_start[fresh.sym] = True
        self.free_chooser(table)

    # -- track ----------------------------------------------------------------------------

    def hex_takes_upgrades(self, table, hex_id, old) -> bool:
        """Messina may be upgraded only from the first stock round on."""
        return hex_id != self.MESSINA or bool(notes(table).messina)

    def rotation_allowed(self, table, operator, hex_id, new, sides_reached,
                         facts=None) -> bool:
        """New track must meet the operator's track in a gauge it can run on (4.1), as
        well as the common rule (:func:`track.rotation_allows`, looked at first: it costs
        less)."""
        return track.rotation_allows(table, operator, hex_id, new, sides_reached) and \
            self.meets_in_gauge(table, operator, hex_id, new, facts)

    def meets_in_gauge(self, table, operator, hex_id, new, facts=None) -> bool:
        """Track laid away from its token cities must meet its track in a gauge
        the new track can join (or meet none of its track across a side). Asked once the
        common rule found the hex reached; the sides where new track meets other track are
        sorted into those joining in gauge and the others, and the network asked only
        whether it arrives at one of each (:func:`network.arrives_at`: walks that stop at
        the first found, when the whole network would record nothing new). What it asks
        of the hex alone is kept in ``facts`` (:class:`GaugeMeeting`), if given, for the
        other tiles asked about there."""
        meeting = self.gauge_meeting(table, operator, hex_id, facts)
        if meeting.free:
            return True
        joining, apart = meeting.sides(new)
        if joining and meeting.arrives_at_one(joining):
            return True
        return not (apart and meeting.arrives_at_one(apart))

    def gauge_meeting(self, table, operator, hex_id, facts=None) -> GaugeMeeting:
        """What the gauge rule asks of the hex alone for the operator (:class:`GaugeMeeting`:
        waived on it, after closing SMS or on a hex of its token cities), kept in
        ``facts``, if given."""
        meeting = facts.get("gauge") if facts is not None else None
        if meeting is None:
            meeting = GaugeMeeting(table, operator, hex_id, bool(sms_hexes(table, operator)) or
                                   any(c.holds(operator)
                                       for c in board.view(table, hex_id).cities))
            if facts is not None:
                facts["gauge"] = meeting
        return meeting

    def rotation_key(self, table, operator, hex_id, sides_reached, facts) -> tuple:
        """The common rule reads the tile there as it lies, the sides open there and those
        reached; the gauge rule whether it is waived on the hex and, if not, the gauges
        facing its sides (whether the network arrives at the sides where new track meets
        them is read of the sides reached)."""
        meeting = self.gauge_meeting(table, operator, hex_id, facts)
        return (board.view(table, hex_id).layout, table.state.hexes[hex_id].open_sides,
                frozenset(sides_reached) if sides_reached else None, meeting.free,
                None if meeting.free else meeting.facing())

    def terrain_after_lay(self, table, hex_state, tile) -> None:
        """Terrain stays on the hex: every upgrade pays it again (4.2)."""

    def tile_terrain_cost(self, table, operator, hex_id, tile, rotation) -> int:
        """Terrain costs in full for dual gauge, a quarter for narrow; SIGI halves it for
        broad gauge (4.2). (The gauge a tile adds is its tracks', whichever way it is
        turned: the cost is the same in every rotation.)"""
        terrain = table.state.hexes[hex_id].terrain
        if not terrain:
            return 0
        cost = terrain[0].cost
        added = added_gauge(board.view(table, hex_id).layout, tile.layout(rotation))
        if added == "dual":
            return cost
        if added == "narrow":
            return cost // 4
        discount = any(p.spec.kind == "tile_discount" for p in powers.all_powers(operator))
        return cost - (cost // 2 if discount else 0)

    # -- routes ---------------------------------------------------------------------------

    def check_reach(self, table, route, visited) -> None:
        """A train runs as many hex sides as its number (narrow gauge counts
        double; broad for the R6H) (7.1)."""
        train, distance = route.train, 0
        for leg in route.legs:
            distance += hex_cost(leg.chain.rails, train)
        if distance > route.train.variant.distance:
            raise RouteError(f"{distance} hex sides is too far for a {route.train.name} train")

    def route_problem(self, table, route) -> None:
        """An E-train runs on no narrow gauge; a route to a port includes two other
        stops (7.1)."""
        if route.train.name == "E" and any(r.gauge == "narrow" for r in route.rails):
            raise RouteError("an E-train cannot run on narrow gauge")
        problem = self.route_stop_rules(table).problem(route)
        if problem:
            raise RouteError(problem)

    def route_stop_rules(self, table) -> StopRules:
        """A route of two stops stops at no port (7.1). (The E-train's gauge, the other
        rule of :meth:`route_problem`, is :meth:`train_may_use`'s, which the finder
        applies.) The ports are the title's: the rules are made once."""
        return self._port_rules

    @functools.cached_property
    def _port_rules(self) -> StopRules:
        return StopRules(not_in_two=frozenset(self.PORTS),
                         two_problem="a route to a port must include two non-port stops")

    def route_bonus_parts(self, table, train) -> Optional[BonusParts]:
        """For the finder: a corporation without CNM's port token earns no bonus (with it,
        None: the engine scores its routes, see :meth:`route_bonus`)."""
        if "CNM" in train.owner.assignments:
            return None
        return BonusParts(lambda node: 0, {})

    def stop_value(self, table, node, train) -> int:
        """Some gray locations pay by the phase; an E-train scores some hexes twice."""
        by_phase = self.GRAY_REVENUE.get(node.hex)
        value = by_phase[table.phase.name] if by_phase is not None else \
            super().stop_value(table, node, train)
        return value * 2 if train.name == "E" and node.hex in self.E_DOUBLES else value

    def route_bonus(self, table, route, stops) -> int:
        """CNM's port token: 20 more for a route of its corporation to that port."""
        if "CNM" in route.operator.assignments and \
                any("CNM" in table.state.hexes[s.hex].assignments for s in stops):
            return 20
        return 0

    def reach_limits(self, table, train) -> dict:
        """For the finder: the hex sides a train may run."""
        return {"hexes": train.variant.distance}

    def stop_reach_cost(self, table, train, node) -> dict:
        """For the finder: stopping costs no hex sides."""
        return {}

    def chain_reach_cost(self, table, train, rails):
        """For the finder: the hex sides a chain costs (None if its gauge changes
        between stops)."""
        try:
            return {"hexes": hex_cost(list(rails), train)}
        except RouteError:
            return None

    def train_may_use(self, table, train, rail) -> bool:
        """An E-train never runs on narrow gauge."""
        return super().train_may_use(table, train, rail) and \
            not (train.name == "E" and rail.gauge == "narrow")

    def route_bonus_bound(self, table, operator, train) -> int:
        """For the finder: CNM's port token adds at most 20."""
        return 20 if "CNM" in operator.assignments else 0

    # -- the end --------------------------------------------------------------------------

    def ends_after_round(self, table, timing) -> bool:
        """The end after a corporation reaches the top comes as it finishes operating;
        a broken bank ends the game after the set (as 18xx.games: any round numbered
        as the set's last)."""
        if timing is EndTiming.AFTER_IT_OPERATES:
            return False
        return table.round.number == table.state.operating_rounds
