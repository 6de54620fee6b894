"""The 1849 family of rules (1849 and 1849: Kingdom of the Two Sicilies).

What differs from the base rules:

* Corporations come in a random order fixed by the seed; only the next one in that order
  may be started. Par prices are offered by phase (68 and 100, then 144, then 216).
* Incremental capitalisation: shares bought from the treasury pay the corporation, shares
  from the market pay the bank. A corporation floats with its president's certificate and
  pays its three station tokens up front (the token fee). The last certificate of each
  corporation is a 20% one that must be bought or sold last.
* Trains count *hexes*, not stops; narrow-gauge track counts double (broad track for the
  R6H train), and a chain of track between two stops cannot change gauge.
* Dividends move the share price right only if they reach the share price; withholding
  moves it left. Shares sold move the price down one row per 10%.
* Corporations issue and redeem shares from their second operating turn.
* A president who cannot buy a required train goes bankrupt with the corporation, which
  closes and can be started again; a player left with no shares may take a loan of 500
  (750 off their final score) instead of leaving the game.
* The game ends when the bank breaks (after the set of operating rounds) or when a
  corporation reaches the top of the market (after it operates).
"""

from __future__ import annotations

from ...engine.abilities import Ability
from ...engine.entities import Corporation, ShareBundle
from ...engine.errors import GameError, RouteError
from ...engine.game import Game
from ...engine.market import StockMarket
from ...engine.round import AuctionRound, OperatingRound, StockRound
from ...engine.shares import SharePool, move_share
from ...engine.step import Step
from ...engine.steps.auction import CompanyPendingPar, WaterfallAuction
from ...engine.steps.corporate import Assign, IssueShares
from ...engine.steps.operate import Dividend, RouteStep
from ...engine.steps.shares import BuySellParShares
from ...engine.steps.token import HomeToken, Token
from ...engine.steps.track import Track
from ...engine.steps.trains import Bankrupt, BuyCompany, BuyTrain, DiscardTrain


class G1849Corporation(Corporation):
    """A corporation with a token fee, a place in the founding order and a last 20%
    certificate."""

    def __init__(self, sym: str, name: str, token_fee: int = 0, **opts) -> None:
        super().__init__(sym, name, **opts)
        self.token_fee = token_fee
        self.slot_open = True
        self.next_to_par = False
        self.closed_recently = False
        self.reached_max_value = False
        self.sms_hexes = None
        last = self.all_shares[-1]
        last.last_cert = True
        last.double_cert = True


class G1849StockMarket(StockMarket):
    """Prices 218, 240 and 276 do not move right, and 230 not up, until the 16H phase
    (the blue zone); reaching 377 ends the game after that corporation operates."""

    BLOCKED_RIGHT_PRICES = (218, 240, 276)
    BLOCKED_UP_PRICES = (230,)

    def __init__(self, game, rows) -> None:
        super().__init__(rows)
        self.game = game

    def blue_zone(self) -> bool:
        return "blue_zone" in self.game.phase.status

    def up(self, coords):
        cell = self.share_price(coords)
        if cell is not None and cell.price in self.BLOCKED_UP_PRICES and not self.blue_zone():
            return coords
        return super().up(coords)

    def right(self, coords):
        cell = self.share_price(coords)
        if cell is not None and cell.price in self.BLOCKED_RIGHT_PRICES and not self.blue_zone():
            return self.up(coords)
        return super().right(coords)

    def move(self, corporation, coords, force: bool = False) -> None:
        super().move(corporation, coords, force)
        if not corporation.reached_max_value and corporation.share_price.end_game_trigger():
            self.game.log(f"{corporation.name} reached the top of the market; the game will "
                          f"end after it operates")
            corporation.reached_max_value = True


class G1849SharePool(SharePool):
    """A change of president may hand over the 20% last certificate; the old president may
    then choose two 10% certificates instead."""

    def change_president(self, presidents_share, swap_to, president, previous_president=None):
        corporation = presidents_share.corporation
        incoming = president.shares_of(corporation)
        double = next((s for s in incoming if s.last_cert), None)
        if double is not None:
            if sum(s.percent for s in incoming) >= 40:
                game = self.game
                game.swap_choice_player = previous_president
                game.swap_location = swap_to
                game.swap_other_player = president
                game.swap_corporation = corporation
            shares = [double]
        else:
            shares = [s for s in incoming if not s.last_cert][:2]
        for s in shares:
            move_share(s, swap_to)
        move_share(presidents_share, president)

    def handle_partial(self, bundle, source, to) -> None:
        share = next(s for s in source.shares_of(bundle.corporation) if not s.last_cert)
        move_share(share, to)

    def swap_double_cert(self, holder, other, corporation) -> None:
        double = next(s for s in holder.shares_of(corporation) if s.last_cert)
        move_share(double, other)
        for s in [s for s in other.shares_of(corporation) if s.percent == 10][:2]:
            move_share(s, holder)


class G1849(Game):
    """Rules shared by the 1849 titles; a title supplies its map and companies."""

    CURRENCY_FORMAT = "L.{}"
    CAPITALIZATION = "incremental"
    BANKRUPTCY_ALLOWED = True
    BANKRUPTCY_ENDS_GAME_AFTER = "all_but_one"
    GAME_END_CHECK = {"bankrupt": "immediate", "stock_market": "after_max_operates",
                      "bank": "full_or"}
    GAME_END_TIMING_PRIORITY = ("immediate", "after_max_operates", "full_or")
    CLOSED_CORP_RESERVATIONS_REMOVED = False
    EBUY_FROM_OTHERS = "never"
    HOME_TOKEN_TIMING = "float"
    SELL_AFTER = "operate"
    SELL_BUY_ORDER = "sell_buy"
    SELL_MOVEMENT = "down_per_10"
    POOL_SHARE_DROP = "down_block"
    PLAYER_LOAN_INTEREST_RATE = 0
    LAYOUT = "pointy"
    CORPORATION_CLASS = G1849Corporation

    # Per title: the corporation that chooses its home, and where it may go; port hexes
    # (a route with a port needs two other stops); coastal cities for the SMS private;
    # gray locations whose revenue follows the phase.
    CORP_CHOOSES_HOME = ""
    CORP_CHOOSES_HOME_HEXES: tuple = ()
    PORT_HEXES: tuple = ()
    DOUBLE_FOR_E_TRAIN: tuple = ()  # hexes an E-train scores twice (1849 Sicily's ports)
    SMS_HEXES: tuple = ()
    GRAY_REVENUE_CENTERS: dict = {}
    PLAYER_LOAN = 500
    PLAYER_LOAN_PENALTY = 750

    # ------------------------------------------------------------------------------------------
    # set-up

    def init_stock_market(self) -> StockMarket:
        return G1849StockMarket(self, self.MARKET)

    def init_corporations(self) -> list:
        """The corporations in a random order drawn from the seed."""
        corps = super().init_corporations()
        keyed = [(self.rand.next(), i, c) for i, c in enumerate(corps)]
        keyed.sort(key=lambda k: (k[0], k[1]))
        return [c for _, _, c in keyed]

    def init_share_pool(self) -> SharePool:
        return G1849SharePool(self)

    def setup(self) -> None:
        self.swap_choice_player = self.swap_location = None
        self.swap_other_player = self.swap_corporation = None
        self.loan_choice_player = None
        self.old_operating_order: list = []
        self.moved_this_turn: list = []
        self.messina_upgradeable = None
        rsa = self.company_by_id("RSA")
        rsa_corp = rsa.abilities[0].shares[0].corporation
        rsa.add_ability(Ability("close", when="bought_train", corporation=rsa_corp.name))
        for c in self.companies:
            c.min_price = 1
        self.corporations[0].next_to_par = True
        self.available_par_groups = ["par"]

    def afg(self):
        """The corporation that chooses its home city."""
        return next((c for c in self.corporations if c.id == self.CORP_CHOOSES_HOME), None)

    # ------------------------------------------------------------------------------------------
    # rounds

    def init_round(self):
        return self.new_auction_round()

    def new_auction_round(self):
        return AuctionRound(self, [G1849CompanyPendingPar, WaterfallAuction])

    def new_stock_round(self):
        for c in self.corporations:
            c.closed_recently = False
        self.messina_upgradeable = True
        return super().new_stock_round()

    def stock_round(self):
        return G1849StockRound(self, [DiscardTrain, G1849HomeToken, SwapChoice,
                                      G1849BuySellParShares])

    def operating_round(self, round_num: int):
        return G1849OperatingRound(self, [
            LoanChoice, G1849Bankrupt, SwapChoice, BuyCompany, SMSTeleport, G1849Assign,
            G1849Track, G1849Token, RouteStep, G1849Dividend, DiscardTrain, G1849BuyTrain,
            G1849IssueShares, (BuyCompany, {"blocks": True}),
        ], round_num=round_num)

    def next_round(self) -> None:
        super().next_round()
        for c in self.corporations:
            c.sms_hexes = None

    def end_now(self, after) -> bool:
        if not after or after == "after_max_operates":
            return False
        return self.round.round_num == self.operating_rounds

    # ------------------------------------------------------------------------------------------
    # corporations

    def can_par(self, corporation, parrer) -> bool:
        return (not corporation.ipoed and corporation.next_to_par
                and not corporation.closed_recently and corporation.slot_open)

    def par_prices(self) -> list:
        return self.stock_market.share_prices_with_types(self.available_par_groups)

    def after_par(self, corporation) -> None:
        """The corporation pays for its three tokens; the next one in order may start."""
        super().after_par(corporation)
        corporation.spend(corporation.token_fee, self.bank)
        self.log(f"{corporation.name} spends {self.format_currency(corporation.token_fee)} "
                 f"for tokens")
        corporation.next_to_par = False
        index = self.corporations.index(corporation)
        if corporation is not self.corporations[-1]:
            self.corporations[index + 1].next_to_par = True
        if self.round.is_stock:
            self.place_home_token(corporation)

    def home_token_locations(self, corporation) -> list:
        if corporation.id != self.CORP_CHOOSES_HOME:
            raise GameError(f"{corporation.name} has a fixed home")
        out = []
        for coord in self.CORP_CHOOSES_HOME_HEXES:
            h = self.hex_by_id(coord)
            tokens = corporation.tokens_by_type()
            if any(c.tokenable(corporation, tokens, free=True) for c in h.tile.cities):
                out.append(h)
        return out

    def update_garibaldi(self) -> None:
        """The home-choosing corporation can start again once a home city is free."""
        afg = self.afg()
        if afg is None or afg.slot_open or not self.home_token_locations(afg):
            return
        afg.slot_open = True
        afg.closed_recently = True

    def remove_rsa_abilities(self, corporation) -> None:
        rsa = self.company_by_id("RSA")
        for a in list(rsa.abilities):
            if a.type == "shares" and a.shares and a.shares[0].corporation is corporation:
                rsa.remove_ability(a)
            elif a.type == "close" and a.opts.get("corporation") == corporation.name:
                rsa.remove_ability(a)

    def close_corporation(self, corporation, quiet: bool = False) -> None:
        """A bankrupt corporation closes and is put back, unstarted, at the end of the
        founding order (it may skip past a home-choosing corporation that is blocked)."""
        self.remove_rsa_abilities(corporation)
        super().close_corporation(corporation, quiet)
        corporation = self.reset_corporation(corporation)
        if corporation.id != self.CORP_CHOOSES_HOME:
            self.hex_by_id(corporation.coordinates).tile.add_reservation(corporation, 0)
        self.corporations.append(corporation)
        corporation.closed_recently = True
        index = len(self.corporations) - 1
        before = self.corporations[index - 1]
        if not before.slot_open:
            before.next_to_par = False
            self.corporations[index - 1], self.corporations[index] = corporation, before
        # As in the published implementation: after a swap this looks at the corporation
        # itself (never floated), so only an unswapped one can become next to start.
        if self.corporations[index - 1].floated():
            corporation.next_to_par = True
        self.update_garibaldi()

    def reset_corporation(self, corporation):
        """A fresh, unstarted copy of a closed corporation (its old certificates are gone)."""
        share_index = self.index["share"]
        for s in corporation.all_shares:
            share_index.pop(s.id, None)
            owner = s.owner
            if owner is not None:
                owner.shares_by_corporation.pop(corporation, None)
        for c in list(corporation.companies):
            c.close()
        if corporation.share_price and corporation in corporation.share_price.corporations:
            corporation.share_price.corporations.remove(corporation)
        fresh = next(c for c in self.init_corporations() if c.id == corporation.id)
        self.index["corporation"][fresh.id] = fresh
        for s in fresh.all_shares:
            share_index[s.id] = s
        return fresh

    # ------------------------------------------------------------------------------------------
    # shares

    def last_cert_last(self, bundle) -> bool:
        """The 20% last certificate only goes when it is the last one left where it is."""
        last = next((s for s in bundle.shares if s.last_cert), None)
        if last is None:
            return True
        corp = bundle.corporation
        where = self.share_pool.shares_of(corp) if bundle.owner.is_share_pool \
            else corp.ipo_shares()
        return len(where) == len(bundle.shares)

    def bundles_for_corporation(self, holder, corporation, shares=None) -> list:
        """Every distinct way to sell certificates (by how many 10%s, whether the
        president's, whether the last certificate), smallest first; a president may only
        sell the presidency where someone can take it over."""
        if not corporation.ipoed:
            return []
        shares = list(shares if shares is not None else holder.shares_of(corporation))
        bundles = [ShareBundle([shares[i] for i in combo])
                   for combo in distinct_combinations(shares)]
        if corporation.president_of(holder):
            bundles.append(ShareBundle([corporation.presidents_share], 10))
            would_be = self.find_would_be_pres(holder, corporation)
            bundles = [b for b in bundles if self.dumpable_on(b, would_be)]
        bundles.sort(key=lambda b: b.percent)
        return bundles

    def find_would_be_pres(self, player, corporation):
        candidates = [p for p in self.players
                      if p.id != player.id and p.percent_of(corporation) >= 20]
        if not candidates:
            return None
        top = max(p.percent_of(corporation) for p in candidates)
        best = [p for p in sorted(candidates, key=lambda p: p.percent_of(corporation),
                                  reverse=True) if p.percent_of(corporation) == top]
        return min(best, key=lambda c: self.share_pool.distance(player, c))

    def dumpable_on(self, bundle, would_be_pres) -> bool:
        if not bundle.presidents_share:
            return True
        if would_be_pres is None:
            return False
        corp = bundle.corporation
        owner_percent = bundle.owner.percent_of(corp)
        other_percent = would_be_pres.percent_of(corp)
        owner_after = owner_percent - bundle.percent
        if other_percent == 20 and len(would_be_pres.shares_of(corp)) == 1 and owner_after == 0:
            return True
        return owner_after < 20 and other_percent > owner_after

    def issuable_shares(self, entity) -> list:
        """From its second operating turn a corporation may issue treasury shares, keeping
        at most five in the market."""
        if len(entity.operating_history) <= 1:
            return []
        room = 5 - entity.num_market_shares()
        return [b for b in self.bundles_for_corporation(entity, entity)
                if b.num_shares() <= room and self.last_cert_last(b)]

    def redeemable_shares(self, entity) -> list:
        if len(entity.operating_history) <= 1:
            return []
        return [b for b in self.bundles_for_corporation(self.share_pool, entity)
                if len(b.shares) <= 1 and entity.cash >= b.price and self.last_cert_last(b)]

    def reorder_corps(self) -> None:
        """Corporations pushed onto the same price by sales keep the operating order they had
        before the sales."""
        moved = list(dict.fromkeys(self.moved_this_turn))
        if len(moved) <= 1:
            return
        groups: dict = {}
        for c in self.corporations:
            if c.floated():
                groups.setdefault(c.share_price, []).append(c)
        for sp, corps in groups.items():
            if len(corps) <= 1:
                continue
            current = sorted(corps, key=self.corporation_sort_key)
            moved_here = [c for c in current if c in moved]
            unmoved = [c for c in current if c not in moved]
            ordered = sorted(moved_here, key=lambda c: self.old_operating_order.index(c))
            new_order = unmoved + ordered
            if current == new_order:
                continue
            sp.corporations[:] = new_order

    def player_value(self, player) -> int:
        loans = sum(player.num_shares_of(c) * len(c.loans) * 100
                    for c, shares in player.shares_by_corporation.items() if shares)
        return player.value() - loans

    # ------------------------------------------------------------------------------------------
    # track and routes

    def upgrades_to(self, old, new, special=False, selected_company=None) -> bool:
        return super().upgrades_to(old, new, special, selected_company) and \
            (old.hex is None or old.hex.id != "B14" or bool(self.messina_upgradeable))

    def legal_tile_rotation(self, entity, hex, tile) -> bool:
        """New track must meet the operator's track in a gauge it can run on."""
        if entity.sms_hexes:
            return True
        if any(c.tokened_by(entity) for c in hex.tile.cities):
            return True
        directions = self.graph.connected_hexes(entity).get(hex)
        if directions is None:
            return False
        found_neighbour_track = False
        for d in directions:
            connecting = next((p for p in tile.paths if d in p.exits), None)
            if connecting is None:
                continue
            neighbor = hex.neighbors.get(d)
            if neighbor is None:
                continue
            facing = next((p for p in neighbor.tile.paths if (d + 3) % 6 in p.exits), None)
            if facing is not None:
                found_neighbour_track = True
                if connecting.tracks_match(facing, dual_ok=True):
                    return True
        return not found_neighbour_track

    def new_track(self, old_tile, new_tile) -> str:
        added = [p.track for p in new_tile.paths]
        for t in [p.track for p in old_tile.paths]:
            if t in added:
                added.remove(t)
        if "dual" in added:
            return "dual"
        return "broad" if "broad" in added else "narrow"

    def upgrade_cost(self, old_tile, hex, entity, spender, new_tile) -> int:
        """Terrain costs in full for dual gauge, a quarter for narrow gauge; the SIGI private
        halves it for broad gauge."""
        if not old_tile.upgrades:
            return 0
        cost = old_tile.upgrades[0].cost
        kind = self.new_track(old_tile, new_tile)
        if kind == "dual":
            return cost
        if kind == "narrow":
            return cost // 4
        discount = any(a.type == "tile_discount" for a in entity.all_abilities)
        return cost - (cost // 2 if discount else 0)

    def track_type(self, paths) -> str:
        kinds = {p.track for p in paths}
        if "broad" in kinds and "narrow" in kinds:
            raise RouteError("a route can change gauge only at a station")
        if "narrow" in kinds:
            return "narrow"
        return "broad" if "broad" in kinds else "dual"

    def hex_edge_cost(self, paths, train) -> int:
        """Hex sides crossed by a chain; narrow gauge (broad for the R6H) counts double."""
        track = self.track_type(paths)
        edges = sum(1 for a, b in zip(paths, paths[1:]) if a.tile.hex is not b.tile.hex)
        if train.name == "R6H":
            return edges * 2 if track == "broad" else edges
        return edges * 2 if track == "narrow" else edges

    def route_distance(self, route) -> int:
        return sum(self.hex_edge_cost(s.chain.paths, route.train) for s in route.segments)

    def check_distance(self, route, visits) -> None:
        distance = self.route_distance(route)
        if distance > route.train.distance:
            raise RouteError(f"{distance} hex sides is too far for a {route.train.name} train")

    def check_other(self, route) -> None:
        if route.train.name == "E" and any(p.track == "narrow" for s in route.segments
                                           for p in s.chain.paths):
            raise RouteError("an E-train cannot run on narrow gauge")
        stops = route.stops()
        if any(s.hex.id in self.PORT_HEXES for s in stops) and len(stops) <= 2:
            raise RouteError("a route to a port must include two non-port stops")

    def stop_revenue(self, stop, colors, train) -> int:
        table = self.GRAY_REVENUE_CENTERS.get(stop.hex.id)
        if table is not None:
            revenue = table[self.phase.name]
        else:
            revenue = super().stop_revenue(stop, colors, train)
        if train.name == "E" and stop.hex.id in self.DOUBLE_FOR_E_TRAIN:
            revenue *= 2
        return revenue

    def revenue_for(self, route, stops) -> int:
        total = super().revenue_for(route, stops)
        return total + self.cnm_bonus(route.corporation, stops)

    # What the route finder needs to know of these rules: reach in hex sides (narrow gauge,
    # or broad for the R6H, counting double), gauge changing only at a station, the E-train
    # off narrow gauge, and the CNM bonus.

    def route_distance_limits(self, train) -> dict:
        return {"hexes": train.distance}

    def route_stop_distance(self, train, stop) -> dict:
        return {}

    def route_chain_distance(self, train, paths):
        try:
            return {"hexes": self.hex_edge_cost(paths, train)}
        except RouteError:
            return None

    def route_path_allowed(self, train, path) -> bool:
        return super().route_path_allowed(train, path) and \
            not (train.name == "E" and path.track == "narrow")

    def route_revenue_bonus_bound(self, entity, train) -> int:
        return 20 if "CNM" in entity.assignments else 0

    def cnm_bonus(self, corporation, stops) -> int:
        if "CNM" in corporation.assignments and any("CNM" in s.hex.assignments for s in stops):
            return 20
        return 0

    # ------------------------------------------------------------------------------------------
    # events

    def event_green_par(self) -> None:
        self.available_par_groups.append("par_1")

    def event_brown_par(self) -> None:
        self.available_par_groups.append("par_2")

    def event_earthquake(self) -> None:
        raise NotImplementedError


def distinct_combinations(shares: list) -> list:
    """Index sets of ``shares`` giving every distinct kind of bundle — how many 10%
    certificates, whether the president's, whether the last — each as the first such set
    in order of size then position (as enumerating all combinations would find them)."""
    tens = [i for i, s in enumerate(shares) if s.percent == 10]
    pres = [i for i, s in enumerate(shares) if s.president]
    last = [i for i, s in enumerate(shares) if s.last_cert]
    found = []
    for k in range(len(tens) + 1):
        for p in range(min(1, len(pres)) + 1):
            for q in range(min(1, len(last)) + 1):
                if k + p + q == 0:
                    continue
                combo = sorted(tens[:k] + pres[:p] + last[:q])
                found.append((len(combo), combo))
    found.sort()
    return [combo for _, combo in found]


# ----------------------------------------------------------------------------------------------
# Rounds


class G1849StockRound(StockRound):
    def setup(self) -> None:
        for c in self.game.corporations:
            if c.floated() and len([t for t in c.tokens if t.city is None]) == 3:
                self.game.place_home_token(c)
        super().setup()

    def start_entity(self) -> None:
        self.game.moved_this_turn = []
        super().start_entity()


class G1849OperatingRound(OperatingRound):
    def next_entity(self) -> None:
        if self.entities[self.entity_index].reached_max_value:
            self.game.end_game("stock_market")
            return
        super().next_entity()


# ----------------------------------------------------------------------------------------------
# Steps


class G1849CompanyPendingPar(CompanyPendingPar):
    def get_par_prices(self, entity, corporation) -> list:
        return self.game.par_prices()


class G1849BuySellParShares(BuySellParShares):
    """The president may buy up to two more shares right after starting a corporation;
    the last certificate goes last; selling keeps operating order among equal prices."""

    def setup(self) -> None:
        super().setup()
        self.game.old_operating_order = sorted(self.game.corporations,
                                               key=self.game.corporation_sort_key)

    def process_sell_shares(self, action) -> None:
        before = action.bundle.shares[0].price
        super().process_sell_shares(action)
        if before != action.bundle.shares[0].price:
            self.game.moved_this_turn.append(action.bundle.corporation)
            self.game.reorder_corps()

    def pass_(self) -> None:
        self.passed = True
        entity = self.current_entity()
        r = self.round
        if not r.current_actions:
            if entity not in r.pass_order:
                r.pass_order.append(entity)
            entity.pass_()
        else:
            if entity in r.pass_order:
                r.pass_order.remove(entity)
            entity.unpass()
        self.game.old_operating_order = sorted(self.game.corporations,
                                               key=self.game.corporation_sort_key)

    def get_par_prices(self, entity, corporation) -> list:
        return [p for p in self.game.par_prices() if p.price * 2 <= entity.cash]

    def can_buy(self, entity, bundle) -> bool:
        return super().can_buy(entity, bundle) and self.game.last_cert_last(bundle)

    def can_buy_any_from_ipo(self, entity) -> bool:
        for c in self.game.corporations:
            if not c.ipoed:
                continue
            shares = c.ipo_owner.shares_of(c)
            smallest = min(shares, key=lambda s: s.percent) if shares else None
            if smallest is not None and self.can_buy(entity, smallest.to_bundle()):
                return True
        return False

    def should_stop_applying_program(self, entity, program, share_to_buy):
        """Also stop when a 20% last certificate can be had (unless that is what is bought)."""
        game = self.game
        if share_to_buy is None or not share_to_buy.last_cert:
            for corporation in game.corporations:
                share = next((s for s in corporation.ipo_shares() if s.last_cert), None)
                if share is not None and game.last_cert_last(share.to_bundle()) and \
                        corporation.holding_ok(entity, share.percent) and \
                        not self.sold_map(entity).get(corporation):
                    return (f"20% double cert for {corporation.name} is currently available "
                            "from the treasury")
                if share is None:
                    share = next((s for s in game.share_pool.shares_of(corporation)
                                  if s.last_cert), None)
                if share is not None and game.last_cert_last(share.to_bundle()) and \
                        corporation.holding_ok(entity, share.percent):
                    return (f"20% double cert for {corporation.name} is currently available "
                            "from the bank pool")
        return super().should_stop_applying_program(entity, program, share_to_buy)

    def can_buy_multiple(self, entity, corporation, owner) -> bool:
        if super().can_buy_multiple(entity, corporation, owner):
            return True
        actions = self.round.current_actions
        just_parred = any(a.type == "par" and a.corporation is corporation for a in actions)
        bought = sum(1 for a in actions
                     if a.type == "buy_shares" and a.bundle.corporation is corporation)
        return corporation.owner is entity and just_parred and bought < 2


class G1849HomeToken(HomeToken):
    pass


class PlayerChoice(Step):
    """A choice that one player, named by a game attribute (``CHOOSER``), must make now."""

    CHOOSER = ""

    def actions(self, entity):
        return ["choose"] if entity is not None and entity is self.current_entity() else []

    def active_entities(self) -> list:
        player = getattr(self.game, self.CHOOSER)
        return [player] if player is not None else []

    def active(self) -> bool:
        return bool(self.active_entities())


class SwapChoice(PlayerChoice):
    """After a change of president that handed over the 20% last certificate, the old
    president may take two 10% certificates instead."""

    type = "swap_choice"
    CHOOSER = "swap_choice_player"
    CHOICES = ("Two 10% certs", "One 20% cert")

    def description(self) -> str:
        return "Presidency Swap Choice"

    def process_choose(self, action) -> None:
        game = self.game
        self.check_choice(action)
        if action.choice == "Two 10% certs":
            game.share_pool.swap_double_cert(game.swap_location, game.swap_other_player,
                                             game.swap_corporation)
        game.swap_choice_player = game.swap_location = None
        game.swap_other_player = game.swap_corporation = None


class LoanChoice(PlayerChoice):
    """A player bankrupted with no shares left may take a loan of 500 (750 off the final
    score) instead of leaving the game."""

    type = "loan_choice"
    CHOOSER = "loan_choice_player"

    def description(self) -> str:
        return "Bankruptcy Choice"

    def choices(self) -> list:
        return [f"Take {self.game.format_currency(self.game.PLAYER_LOAN)} loan", "Leave game"]

    def process_choose(self, action) -> None:
        game = self.game
        player = action.entity
        self.check_choice(action)
        if action.choice == "Leave game":
            game.declare_bankrupt(player)
        else:
            game.bank.spend(game.PLAYER_LOAN, player)
            player.penalty += game.PLAYER_LOAN_PENALTY
        game.loan_choice_player = None


class G1849Bankrupt(Bankrupt):
    """The president sells what they may, gives their cash to the corporation, and the
    corporation closes."""

    def process_bankrupt(self, action) -> None:
        game = self.game
        corp = action.entity
        player = corp.owner
        if not game.can_go_bankrupt(player, corp):
            raise GameError(
                f"{player.name} cannot go bankrupt: {corp.name}'s cash plus "
                f"{player.name}'s cash and sellable shares total "
                f"{game.format_currency(game.total_emr_buying_power(player, corp))}, and the "
                f"cheapest train costs {game.format_currency(game.depot.min_depot_price())}")
        for c in sorted([c for c, s in player.shares_by_corporation.items()],
                        key=game.corporation_sort_key):
            bundles = game.sellable_bundles(player, c)
            if not bundles:
                continue
            bundle = max(bundles, key=lambda b: b.price)
            before = bundle.shares[0].price
            game.sell_shares_and_change_price(bundle)
            if before != bundle.shares[0].price:
                game.moved_this_turn.append(bundle.corporation)
        if player.cash > 0:
            player.spend(player.cash, corp)
        game.close_corporation(corp)
        game.reorder_corps()
        if not player.shares:
            game.loan_choice_player = player


class SMSTeleport(Step):
    """The owner of the SMS private may close it, instead of its normal track and token, to
    lay track and/or place a token on any coastal city."""

    type = "sms_teleport"
    CHOICES = ("Close SMS", "Pass")

    def sms(self, entity):
        return next((c for c in entity.companies if c.id == "SMS"), None) \
            if entity is not None and entity.is_operator else None

    def actions(self, entity):
        if entity is not self.current_entity() or self.sms(entity) is None:
            return []
        track = next(s for s in self.round.steps if isinstance(s, G1849Track))
        token = next(s for s in self.round.steps if isinstance(s, G1849Token))
        if track.acted or token.acted:
            return []
        return [] if self.passed else ["choose"]

    def active(self) -> bool:
        return bool(self.current_actions())

    def description(self) -> str:
        return "SMS Teleport"

    def process_choose(self, action) -> None:
        corp = action.entity
        self.check_choice(action)
        if action.choice == "Close SMS":
            self.sms(corp).close()
            corp.sms_hexes = list(self.game.SMS_HEXES)
        self.passed = True


class G1849Assign(Assign):
    def process_assign(self, action) -> None:
        super().process_assign(action)
        action.entity.close()


class G1849Track(Track):
    """One tile per turn; terrain stays on the hex (its cost is paid again on upgrades)."""

    def lay_tile(self, action, extra_cost: int = 0, entity=None, spender=None) -> None:
        old_tile = action.hex.tile
        action.tile.upgrades = old_tile.upgrades
        super().lay_tile(action, extra_cost, entity, spender)
        old_tile.upgrades = []

    def process_lay_tile(self, action) -> None:
        entity = action.entity
        if entity.sms_hexes and action.hex.id not in entity.sms_hexes:
            raise GameError(f"after closing SMS, track goes on a coastal city, not "
                            f"{action.hex.id}")
        self.lay_tile_action(action)
        if entity.sms_hexes:
            entity.sms_hexes = [action.hex.id]
        self.game.update_garibaldi()
        self.pass_()

    def hex_neighbors(self, entity, hex):
        if entity.sms_hexes:
            return list(range(6)) if hex.id in entity.sms_hexes else None
        return super().hex_neighbors(entity, hex)

    def check_track_restrictions(self, entity, old_tile, new_tile) -> None:
        if not entity.sms_hexes:
            super().check_track_restrictions(entity, old_tile, new_tile)


class G1849Token(Token):
    """Tokens are prepaid; with SMS closed this turn a token may go on a coastal city."""

    def can_place_token(self, entity) -> bool:
        return (self.current_entity() is entity and bool(self.available_tokens(entity))
                and (bool(entity.sms_hexes) or self.game.graph.can_token(entity)))

    def place_token(self, entity, city, token, connected=True, extra_action=False, **kw):
        if entity.sms_hexes:
            if city.hex is None or city.hex.id not in entity.sms_hexes:
                raise GameError("the token must go on the SMS hex")
            connected = False
        super().place_token(entity, city, token, connected=connected,
                            extra_action=extra_action, **kw)

    def process_place_token(self, action) -> None:
        game = self.game
        self.place_token(action.entity, action.city, action.token)
        afg = game.afg()
        if afg is not None and not afg.floated() and not game.home_token_locations(afg):
            index = game.corporations.index(afg)
            if afg.next_to_par and afg is not game.corporations[-1]:
                game.corporations[index + 1].next_to_par = True
                afg.next_to_par = False
            afg.slot_open = False
            game.corporations.remove(afg)
            game.corporations.append(afg)
        self.pass_()


class G1849Dividend(Dividend):
    """The share price rises only if the dividend reaches it; no dividend moves it left."""

    def share_price_change(self, entity, revenue: int = 0) -> dict:
        price = entity.share_price.price
        if revenue == 0:
            return {"share_direction": "left", "share_times": 1}
        if revenue < price:
            return {}
        return {"share_direction": "right", "share_times": 1}

    def pass_(self) -> None:
        super().pass_()
        self.game.old_operating_order = sorted(self.game.corporations,
                                               key=self.game.corporation_sort_key)


class G1849BuyTrain(BuyTrain):
    """Shares of a corporation cannot be sold for a train before it has operated twice."""

    def process_sell_shares(self, action) -> None:
        before = action.bundle.shares[0].price
        super().process_sell_shares(action)
        if before != action.bundle.shares[0].price:
            self.game.moved_this_turn.append(action.bundle.corporation)
            self.game.reorder_corps()

    def can_sell(self, entity, bundle) -> bool:
        corporation = bundle.corporation
        if not corporation.operated():
            return False
        if self.round.current_operator is corporation and len(corporation.operating_history) < 2:
            return False
        if self.game.MUST_SELL_IN_BLOCKS and corporation in self.corporations_sold:
            return False
        return super().can_sell(entity, bundle)

    def buyable_trains(self, entity) -> list:
        trains = [t for t in super().buyable_trains(entity) if t.name != "E"]
        return list(dict.fromkeys(trains))


class G1849IssueShares(IssueShares):
    def process_sell_shares(self, action) -> None:
        if not self._same(action.bundle, self.issuable_shares(action.entity)):
            raise GameError(f"{action.entity.name} cannot issue those shares")
        self.game.sell_shares_and_change_price(action.bundle)
        self.pass_()
