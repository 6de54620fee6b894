"""The greedy bot: a heuristic player, cheap enough that whole games take seconds.

In stock rounds it values private companies by their income (one that others may take
at their price, 1893's EVA, at two incomes, and it takes that one as late in its turns as
it can); it never raises its own leading bid, and bids on a private company only with the
money left to start a company at its best price (unless the company sells for two incomes
or less); another player's company that others may take at their price it leaves where
it is (at its face value, the fair price, it would only change hands). It starts one or
two companies (the homes with most revenue near them, at the highest par its cash
floats, never one it could not equip with a train once its token fee is paid), buys a
share of its own company beside the president's certificate before starting another, and
more until it holds 40% (none of one whose last run earned nothing), then those paying the
best dividend for their price; a bond (1893's, bought back by the bank at face value)
only with most certificate slots free, and it sells one back to free a slot; nothing else
it sells unless it must. For its companies it runs the route finder's best routes, lays the tile
and places the token that raise their best revenue most (``greedy_track``: a few likely
lays, those whose track leads towards a paying stop first, tried on a copy of the game
with the route finder; only those few are judged legal at all; none that spends the price
of a train it needs), proposes buying a rival's train
(at a fair price: ``dealing``) when it needs one, else buys a depot train when it has room
and none left that the next train would not rust, and withholds only when a train it
needs (none left that the next would not rust) is out of reach, or its loans' interest
calls for it: a company with a train that runs on pays its shareholders; a treasury
holding twice a depot train's price buys one more. Where no train has been bought for a
long while (every company content, the game ended by a train never bought), a company
with room withholds for the next train and buys it. A player with ten times a
share's price buys into another's company stuck short of floating (1871's tranches open
only once every company of the last one runs). Founding by auction, loans, conversions,
mergers and shorts (1817's family) are ``greedy_finance``. A move of a kind it has no
rule for is taken at random, rarely.
"""

from __future__ import annotations

from collections import Counter
from typing import Dict, List, Optional

from ..errors import GameError
from ..game import Game
from ..rules import board, market, track, trading, trains
from ..spec.settings import TrainDuty
from ..state.model import CorporationState, MinorState, OperatorState, PlayerState
from ..turns.listing import concrete, price_at_most
from . import greedy_finance as finance
from .asking import moves_asked
from .bots import Bot, controller, player_at
from .greedy_track import ASKED_LAYS, TrackSense, runner

OWN_HOLDING = 40        # percent of its own company it buys up to: the president's
#                         certificate and a share or two; more only puts its cash where
#                         others' sales and one missed train can close the company
MIN_YIELD = 0.08        # the dividend per price below which others' shares are not bought
LOCK_SHARE = 0.6        # a company others may take at their price is sold to one's own
#                         operator for at least this share of its value
SPARE_TRAINS = 2        # a company with room buys one more depot train when its treasury
#                         holds this many times its price
IDLE_CASH = 10          # a player with this many times a share's price buys into another's
#                         company that has not floated
BARGAIN_INCOMES = 2     # a private company at most this many incomes is bought even with
#                         the money kept to start a company
SECOND_SHARE = 260.0    # a share of its own company beyond the president's certificate is
#                         bought before another company is started (above any par)
BOND = 15.0             # a company the bank buys back at face value (1893's city bonds):
#                         below any share worth buying, above passing
SLOTS_FOR_SHARES = 6    # certificate slots a bond never takes
UNSTALL = 50.0          # added to a purchase's score when the game stands still: one is
#                         made (the least bad), where every seat would pass for ever
STEALABLE_INCOMES = 2   # a company others may take at their price is bought from the bank
#                         for at most this many of its incomes
STILL_TRAINS = 400      # actions without a train bought after which the trains stand still


class GreedyBot(TrackSense, Bot):
    """See the module docstring."""

    NAME = "greedy"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.homes: Dict[str, int] = {}
        self.paying: Optional[List[str]] = None
        self.still_at: Optional[tuple] = None
        self.still = False

    def listing(self, game: Game) -> List[dict]:
        """The moves it weighs: tile lays only on the likeliest hexes (the others if
        none is legal there) and of those only the best guessed (``asking``)."""
        return self.lays_listed(game, lambda hexes: moves_asked(
            game, lambda lays: self.rank_lays(game, lays), ASKED_LAYS, lay_hexes=hexes))

    def decide(self, game: Game, seat: int) -> dict:
        moves = self.options(game, seat)
        if not moves:
            raise ValueError("no legal move")
        return self.pick(game, seat, moves, self.scores(game, player_at(game, seat), moves))

    def pick(self, game: Game, seat: int, moves: List[dict], scored: List[float]) -> dict:
        """The best scored move (at random among equals), priced; a company others may
        take at their price as late as it can be taken (``grab_last``)."""
        best = max(scored)
        if best <= 0 and stalled(game):
            scored = [s + UNSTALL if h["type"] in ("bid", "buy_company", "par", "buy_shares")
                      else s for s, h in zip(scored, moves)]
            best = max(scored)
        top = [h for s, h in zip(scored, moves) if s == best]
        choice = self.rng.choice(top)
        grabs = [(s, h) for s, h in zip(scored, moves) if s > 0 and self.is_grab(game, h)]
        if grabs:
            choice = self.grab_last(game, seat, moves, scored,
                                    max(grabs, key=lambda pair: pair[0])[1])
        return self.priced(game, choice)

    def is_grab(self, game: Game, h: dict) -> bool:
        """Is ``h`` a purchase of a company others may buy at their price (1893's EVA)
        from another player?"""
        if h["type"] != "buy_company":
            return False
        company = game.table.find("company", h.get("company"))
        return company is not None and stealable(company) and \
            isinstance(company.owner, PlayerState)

    def grab_last(self, game: Game, seat: int, moves: List[dict], scored: List[float],
                  grab: dict) -> dict:
        """Take a company others may buy at their price (``grab``) as late in the turn as
        it can be taken: whoever holds it when the game ends scores its face value, and
        the next operator may take it away. Any other move worth making (not a pass)
        comes first; the company stays to be had while the turn goes on."""
        others = [(s, i) for i, s in enumerate(scored)
                  if s > 0 and moves[i]["type"] != "pass" and not self.is_grab(game, moves[i])]
        return moves[max(others)[1]] if others else grab

    # -- scoring ----------------------------------------------------------------------------

    def scores(self, game: Game, player, moves: List[dict]) -> List[float]:
        out = [self.score(game, player, h) for h in moves]
        groups: Dict[tuple, List[int]] = {}
        for i, h in enumerate(moves):
            if h["type"] in ("lay_tile", "place_token"):
                groups.setdefault((h["type"], h.get("entity_type"), h.get("entity")),
                                  []).append(i)
        for tried in groups.values():
            for i, value in self.by_revenue(game, [moves[i] for i in tried]).items():
                out[tried[i]] = value
            first = moves[tried[0]]
            operator = runner(game.table.find(first.get("entity_type"), first.get("entity")))
            budget = self.track_budget(game, operator)
            for i in tried if budget is not None else ():
                if self.move_cost(game, operator, moves[i]) > budget:
                    out[i] = -10.0
        return out

    def track_budget(self, game: Game, operator) -> Optional[int]:
        """What a company that needs a train may spend on track and tokens: what leaves
        it the train's price (its president paying what the treasury lacks, where the
        treasury alone cannot); None for one that needs no train. A company left without
        a train goes bankrupt, and track does not run."""
        if operator is None or not self.needs_train(game, operator):
            return None
        spare = operator.cash - trains.cheapest_price(game.table)
        president = controller(operator)
        if spare < 0 and president is not None:
            spare += president.cash
        return max(0, spare)

    def move_cost(self, game: Game, operator, h: dict) -> int:
        """What a lay (its terrain and borders) or a token costs the operator."""
        table = game.table
        if h["type"] == "place_token":
            return next((t.price for t in operator.tokens if t.where is None), 0)
        if h.get("hex") in table.state.hexes and isinstance(h.get("rotation"), int):
            try:
                tile = board.supply_tile(table, h.get("tile"))
            except GameError:
                return 0
            return track.lay_cost(table, operator, h["hex"], tile, h["rotation"])
        return 0

    def score(self, game: Game, player, h: dict) -> float:
        table = game.table
        kind = h["type"]
        entity = table.find(h.get("entity_type"), h.get("entity"))
        if kind == "run_routes":
            return 1000.0
        if kind == "pass":
            return 0.0
        if kind == "bankrupt":
            return -1000.0
        if kind == "dividend":
            return self.dividend(game, entity, h.get("kind"))
        if kind == "buy_train":
            return self.train(game, entity, h)
        if kind in FINANCE:
            return FINANCE[kind](self, game, entity, h)
        if kind == "bid" and finance.is_founding(game, h):
            return finance.founding_bid(self, game, player, h)
        if kind == "par":
            return self.par(game, player, h)
        if kind == "buy_shares":
            return self.share(game, player, entity, h)
        if kind in ("buy_company", "bid"):
            return self.company(game, player, entity, h)
        if kind == "sell_shares":
            # only when it must: the smaller the sale the better
            return -5.0 - (h.get("percent") or 0) / 10
        if kind == "sell_company":
            return self.bond_sale(game, entity, h)
        if kind == "choose":
            return 1.0 + self.rng.random()
        if kind == "discard_train":
            return 1.0 - self.distance(table.find("train", h.get("train"))) / 100
        return 0.1 * self.rng.random()

    def priced(self, game: Game, h: dict) -> dict:
        """The price for a ranged move: the most when a company buys from its own
        president (the money stays with the player), else the least."""
        if "price_range" in h and h["type"] == "buy_company":
            table = game.table
            entity = table.find(h.get("entity_type"), h.get("entity"))
            company = table.find("company", h.get("company"))
            if isinstance(entity, OperatorState) and company is not None and \
                    company.owner is controller(entity):
                low, high = h["price_range"]
                if stealable(company):
                    return concrete(h, price_at_most(h, entity.cash))
                spare = self.spare_for(game, entity, (low, high))
                return concrete(h, price_at_most(h, spare))
        if finance.is_founding(game, h):
            return finance.founding_price(game, game.table.find("player", h["entity"]), h)
        return concrete(h)

    def spare_for(self, game: Game, entity, price_range) -> int:
        """The most a company pays its president, keeping the price of a train it needs."""
        low, high = price_range
        keep = trains.cheapest_price(game.table) if self.needs_train(game, entity) else 0
        return max(low, min(high, entity.cash - keep))

    # -- operating ------------------------------------------------------------------------

    def trains_still(self, game: Game) -> bool:
        """:func:`trains_still`, worked out once a position: it is asked for every train
        and dividend weighed. A position is told by the game, the actions in force and the
        last of them (an undo takes only the last away)."""
        played = game.actions
        at = (id(game), len(played), played[-1] if len(played) else None)
        if at != self.still_at:
            self.still_at, self.still = at, trains_still(game)
        return self.still

    def distance(self, train) -> int:
        if train is None:
            return 0
        d = train.spec.distance
        return d if isinstance(d, int) else sum(a.visit for a in d) if d else 0

    def at_risk(self, game: Game, train) -> bool:
        """Would the next train for sale rust (or make obsolete) ``train``?"""
        coming = trains.cheapest_for_sale(game.table)
        if coming is None:
            return False
        return coming.name in train.spec.rusts_on or coming.name in train.spec.obsolete_on

    def lasting(self, game: Game, entity) -> List:
        return [t for t in entity.trains if not self.at_risk(game, t)]

    def needs_train(self, game: Game, entity) -> bool:
        return isinstance(entity, OperatorState) and not self.lasting(game, entity) and \
            trains.has_room(game.table, entity)

    def dividend(self, game: Game, entity, kind: Optional[str]) -> float:
        if kind == "payout":
            return 10.0
        if kind == "withhold":
            wanted = self.needs_train(game, entity)
            price = trains.cheapest_price(game.table) if wanted else 0
            interest = finance.interest_due(game, entity)
            if interest and interest + price > entity.cash:
                return 25.0     # its loans' interest first
            if wanted and entity.cash < price:
                return 20.0     # a train it must have, out of reach
            if self.trains_still(game) and trains.has_room(game.table, entity) and \
                    entity.cash < trains.cheapest_price(game.table):
                return 20.0     # the next train, for the game to move on
            return 5.0          # a train that runs on: the shareholders are paid
        return 8.0

    def train(self, game: Game, entity, h: dict) -> float:
        table = game.table
        train = table.find("train", h.get("train"))
        if train is None or not isinstance(entity, OperatorState):
            return -1.0
        price = h.get("price") or 0
        from_depot = trains.in_depot(train) or train.owner is None or \
            not isinstance(train.owner, OperatorState)
        length = self.distance(train)
        if not from_depot and strips_owner(game, entity, train, price):
            return -50.0
        if not from_depot and controller(train.owner) is not controller(entity):
            return self.rivals_train(game, entity, train, price)
        if not entity.trains:
            base = 500.0
        elif finance.overstretched(game, entity, price):
            return -3.0       # its interest unpaid, it would be liquidated
        elif self.needs_train(game, entity) and trains.has_room(table, entity):
            base = 300.0
        elif len(entity.trains) < 2 and trains.has_room(table, entity) and \
                price <= finance.spare_cash(game, entity):
            base = 60.0
        elif trains.has_room(table, entity) and from_depot and \
                (SPARE_TRAINS if not self.trains_still(game) else 1) * price <= \
                finance.spare_cash(game, entity):
            base = 40.0       # idle money: another train runs, and the game moves on
        else:
            return -3.0
        if not from_depot:
            own = controller(train.owner) is controller(entity)
            if own and any(t is not train for t in self.lasting(game, train.owner)):
                base -= 50.0      # a spare train of its president's other company
            elif not entity.trains and not self.depot_affordable(game, entity):
                base -= 450.0     # the one way to a train: still above passing
            else:
                return -50.0
        if price > entity.cash:
            base -= 100.0    # the president pays the rest
        return base + length - price / 100

    def rivals_train(self, game: Game, entity, train, price: int) -> float:
        """A train of a company another player controls, at the least price (which its
        owner must take), in place of the depot train it needs: for a company without
        trains, or without one that lasts (then a lasting one); never a rival's last
        train, nor as a spare. Trains going round between companies for nothing (each
        left without one taking another's) leave the depot full and the game stalled."""
        table = game.table
        if not entity.trains and trains.has_room(table, entity) and finance.overstretched(
                game, entity, trains.cheapest_price(table)) and price <= entity.cash:
            return 450.0 - price / 100    # the one train it can buy and still pay interest
        if not trains.has_room(table, entity) or len(train.owner.trains) < 2:
            return -3.0
        bargain = trains.cheapest_form(train) - price
        if bargain <= 0 or price > entity.cash:
            return -50.0
        length = self.distance(train)
        if not entity.trains:
            return 520.0 + length + bargain / 100
        if self.needs_train(game, entity) and not self.at_risk(game, train):
            return 320.0 + length + bargain / 100
        return -3.0

    def depot_affordable(self, game: Game, entity) -> bool:
        return trains.cheapest_price(game.table) <= entity.cash

    # -- stock rounds -----------------------------------------------------------------------

    def home_worth(self, game: Game, corporation: CorporationState) -> int:
        """The revenue of the stops within ``NEAR`` hexes of its home."""
        found = self.homes.get(corporation.sym)
        if found is None:
            home = corporation.spec.home
            homes = [home] if isinstance(home, str) else list(home or ())
            found = self.homes[corporation.sym] = self.worth_near(game, homes)
        return found

    def presidencies(self, game: Game, player) -> List[CorporationState]:
        return [c for c in game.state.corporations if c.owner is player and not c.closed]

    def par(self, game: Game, player, h: dict) -> float:
        table = game.table
        corporation = table.find("corporation", h.get("corporation"))
        mine = self.presidencies(game, player)
        if corporation is None or len(mine) >= 2:
            return -1.0
        if mine and not all(c.floated and c.trains for c in mine):
            return -1.0
        cell = h.get("share_price")
        try:
            price = int(str(cell).split(",")[0])
        except ValueError:
            return 1.0
        president = corporation.certificates[0].percent if corporation.certificates else 20
        to_float = max(corporation.spec.float_percent, president)
        if price * president // 10 * (2 if mine else 1) > player.cash:
            return -1.0
        floats_alone = price * to_float // 10 <= player.cash
        if not self.equips(game, player, corporation,
                           price * (to_float if floats_alone else president)):
            return -1.0
        return 150.0 + (40.0 if floats_alone else 0.0) + price / 10 + \
            self.home_worth(game, corporation) / 20 - (30.0 if mine else 0.0)

    def bids_on(self, game: Game, player, company, price: int) -> bool:
        """Does it bid ``price`` on ``company``? Never to raise its own leading bid (that
        only costs more); on a private company (not a minor, nor one that comes with a
        president's certificate) only with the money to start a company at its best price
        left over, unless it sells for at most ``BARGAIN_INCOMES`` incomes."""
        step = game.table.round.active_step()
        if step is None:
            return True
        if step.leading_bidder(company) is player:
            return False
        if company.spec.minor or has_power(company, "shares") or \
                price <= BARGAIN_INCOMES * (company.revenue or 0):
            return True
        free = player.cash - step.leading_bids(player)
        return free - price >= self.founding_money(game, player)

    def founding_money(self, game: Game, player) -> int:
        """What a player without a presidency keeps to start a company: the president's
        certificate at the highest price a company not yet started may start at."""
        if self.presidencies(game, player):
            return 0
        table = game.table
        best = 0
        for c in game.state.corporations:
            if c.owner is None and not c.closed and c.certificates:
                cells = table.variant.start_cells(table, c, player)
                top = max((cell.price for cell in cells), default=0)
                best = max(best, top * c.certificates[0].percent // 10)
        return best

    def equips(self, game: Game, player, corporation: CorporationState, paid: int) -> bool:
        """Can a company its president starts by paying ``paid`` (price times percent)
        into it buy the cheapest train, with what the president has left, once it has
        paid for its tokens (1849's fee)? A company without a train goes bankrupt and
        takes its president's worth with it."""
        treasury = paid // 10
        left = treasury - corporation.spec.token_fee + max(0, player.cash - treasury)
        return left >= trains.cheapest_price(game.table)

    def reserve(self, game: Game, player) -> int:
        """Cash a president keeps back: what one of its floated companies lacks of the
        cheapest train, should it be left without one (other companies may buy its
        trains); nothing for a company whose treasury buys one."""
        price = trains.cheapest_price(game.table)
        return max([0] + [price - c.cash for c in self.presidencies(game, player)
                          if c.floated])

    def expected_dividend(self, game: Game, corporation: CorporationState) -> float:
        """What one 10% share may pay: the last revenue, or a guess from its trains."""
        if corporation.history:
            return corporation.history[-1].revenue / 10
        return 4.0 * len(corporation.trains) + (2.0 if corporation.floated else 0.0)

    def share(self, game: Game, player, entity, h: dict) -> float:
        table = game.table
        ids = h.get("shares") or []
        cert = table.find("share", ids[0]) if ids else None
        if cert is None or not isinstance(entity, PlayerState):
            return -1.0
        corporation = cert.corporation
        price = market.price(table, corporation) or 0
        held = sum(c.percent for c in entity.shares.get(corporation.sym, []))
        if finance.closes_short(game, entity, corporation):
            return 90.0
        if corporation.owner is entity and not corporation.floated:
            return 120.0
        if entity.cash - price < self.reserve(game, entity):
            return -1.0     # kept for a train one of its companies may have to buy
        if corporation.owner is entity:
            if corporation.history and not corporation.history[-1].revenue:
                return -1.0     # no more money into a company that ran for nothing
            if held <= presidents_percent(corporation) < OWN_HOLDING:
                return SECOND_SHARE     # before another company is started
            return 80.0 if held < OWN_HOLDING else -1.0
        if corporation.owner is None and held == 0 and not corporation.floated:
            return 5.0
        if not corporation.floated and entity.cash >= IDLE_CASH * price:
            return 10.0     # another's company started and stuck short of floating
        if not corporation.trains or not corporation.history:
            return -1.0     # others' companies only once they run and pay
        rate = self.expected_dividend(game, corporation) / max(price, 1)
        return 20.0 + 400.0 * rate if rate >= MIN_YIELD else -1.0

    def free_slots(self, game: Game, player) -> int:
        table = game.table
        return trading.certificate_limit(table, player) - trading.certificate_count(table, player)

    def bond_sale(self, game: Game, player, h: dict) -> float:
        """A bond (a company the bank buys back at face value) is sold back when its
        holder is at the certificate limit with money to spare: the slot is for a share.
        Nothing else is sold."""
        company = game.table.find("company", h.get("company"))
        if company is None or not company.spec.bank_buys or \
                not isinstance(player, PlayerState) or self.free_slots(game, player) > 0:
            return -2.0
        return 3.0 if player.cash >= (company.spec.value or 0) else -2.0

    def company(self, game: Game, player, entity, h: dict) -> float:
        table = game.table
        company = table.find("company", h.get("company"))
        if company is None:
            return -1.0
        price = h.get("price") or 0
        value = company.spec.value if company.spec.value else price
        if isinstance(entity, OperatorState):
            # its president's company, bought by the corporation for what it can spare
            if company.owner is not controller(entity):
                return -1.0
            low, high = h.get("price_range") or (price, price)
            if stealable(company) and min(high, entity.cash) >= value * LOCK_SHARE:
                return 160.0     # out of other players' reach, at little loss
            top = self.spare_for(game, entity, (low, high))
            return 150.0 + (top - value) / 10 if top > value else -1.0
        if not isinstance(entity, PlayerState) or price > entity.cash:
            return -1.0
        if h["type"] == "bid" and not self.bids_on(game, entity, company, price):
            return -1.0
        income = company.revenue or 0
        worth = value + 4 * income + (100 if company.spec.minor else 0)
        if isinstance(company.owner, PlayerState) and company.owner is not entity:
            if stealable(company):
                return -1.0     # at its face value (a fair deal) it only changes hands
            # from another player, at the least price: worth more than it costs
            return 200.0 + (value - price) / 10 if price < value else -1.0
        if price > worth or entity.cash - price < entity.cash / 4 and income == 0:
            return -1.0
        if company.spec.bank_buys:
            # a bond: money parked, where shares would grow; never in the certificate
            # slots kept for shares
            return BOND if self.free_slots(game, entity) > SLOTS_FOR_SHARES else -1.0
        if stealable(company):
            # others take it for next to nothing at their first chance: it is worth
            # what it earns before then
            worth = STEALABLE_INCOMES * income
            if price > worth:
                return -1.0
        return 100.0 + (worth - price) / 5


FINANCE = {"take_loan": finance.take_loan, "payoff_loan": finance.payoff_loan,
           "convert": finance.convert, "merge": finance.merge, "short": finance.short,
           "assign": finance.assign}


def stalled(game: Game) -> bool:
    """Has every seat passed twice running, the game standing still (an auction none
    will bid in goes round for ever)?"""
    last = game.actions[-2 * len(game.player_specs):]
    return len(last) == 2 * len(game.player_specs) and \
        all(h.get("type") == "pass" for h in last)


def trains_still(game: Game) -> bool:
    """Have ``STILL_TRAINS`` actions gone by without a train bought, but for trains going
    round (each bought more than once in that while)? Where every company keeps a train
    that the next does not rust and pays its money out, or two companies of one president
    pass a spare train to and fro each round (1871, planner vs greedy seed 1016), the
    depot never moves and the game (ended by a train bought, 1871's D) never ends: then a
    company with room withholds for the next train and buys it."""
    last = game.actions[-STILL_TRAINS:]
    if len(last) < STILL_TRAINS:
        return False
    bought = Counter(h.get("train") for h in last if h.get("type") == "buy_train")
    return all(times > 1 for times in bought.values())


def strips_owner(game: Game, buyer, train, price: int) -> bool:
    """Would buying ``train`` take the last train of a company that must own one, where
    that hurts: a company its buyer's president also presides over (the president pays
    for the next one, or goes bankrupt), or anyone's company that, paid ``price``, cannot
    buy the cheapest train with its president's money too? A sound player never strips a
    company of its only train."""
    owner = train.owner
    if not isinstance(owner, OperatorState) or owner is buyer or \
            any(t is not train for t in owner.trains) or not must_own_train(game, owner):
        return False
    president = controller(owner)
    if president is not None and president is controller(buyer):
        return True
    funds = owner.cash + price + (president.cash if isinstance(president, PlayerState) else 0)
    return funds < trains.cheapest_price(game.table)


def must_own_train(game: Game, operator) -> bool:
    """Must ``operator`` own a train (in this title, a corporation; a minor never must)?
    Where a route is the condition, it is taken to have one."""
    return not isinstance(operator, MinorState) and \
        game.table.settings.train_duty is not TrainDuty.NEVER


def presidents_percent(corporation: CorporationState) -> int:
    """The percent of the president's certificate (20 where it is not known)."""
    certs = corporation.certificates
    return certs[0].percent if certs else 20


def stealable(company) -> bool:
    """May other players buy ``company`` from its owner at a price they choose (1893's
    EVA)?"""
    return has_power(company, "player_trade")


def has_power(company, kind: str) -> bool:
    """Has ``company`` a power of ``kind`` (working now or not)?"""
    return any(p.spec.kind == kind for p in company.powers)
