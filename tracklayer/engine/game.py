"""The game: a title, its players, a seed, optional rules and a list of actions.

State is derived by applying the actions in order to a freshly set-up game. A title is a
subclass of :class:`Game` that supplies its data (map, tiles, companies, market, trains,
phases) as class attributes and overrides only the rules that differ.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Dict, Iterable, List, Optional

from ..map.graph import Graph
from ..map.hexes import Hex, connect_hexes
from ..map.tiles import COLORS, Tile
from . import actions as actions_mod
from .entities import Bank, Company, Corporation, Minor, Player, ShareBundle
from .errors import ActionError, GameError, RouteError
from ..routes.route import best_stops
from .market import CERT_LIMIT_TYPES, StockMarket
from .rng import Random
from .shares import SharePool
from .trains import Depot, Phase, Train

sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))

_TILE_CATALOGUE: Optional[dict] = None


def tile_catalogue() -> dict:
    """The standard tiles: name → (colour, tile notation)."""
    global _TILE_CATALOGUE
    if _TILE_CATALOGUE is None:
        path = os.path.join(os.path.dirname(__file__), "..", "map", "data", "tiles.json")
        with open(path, encoding="utf-8") as f:
            _TILE_CATALOGUE = json.load(f)
    return _TILE_CATALOGUE


class Game:
    """Base rules shared by all titles. Class attributes are the title's data and options."""

    # --- identity ---------------------------------------------------------------------------
    TITLE = ""
    PLAYER_RANGE = (2, 6)
    OPTIONAL_RULES: list = []

    # --- money and limits -------------------------------------------------------------------
    BANK_CASH = 12000
    STARTING_CASH: dict = {}
    CERT_LIMIT: dict = {}
    CURRENCY_FORMAT = "${}"
    CAPITALIZATION = "full"
    MARKET_SHARE_LIMIT = 50
    CERT_LIMIT_INCLUDES_PRIVATES = True
    CERT_LIMIT_CHANGE_ON_BANKRUPTCY = False

    # --- stock round ------------------------------------------------------------------------
    MUST_SELL_IN_BLOCKS = False
    TURN_SELL_LIMIT = None
    SELL_AFTER = "first"
    SELL_MOVEMENT = "down_share"
    SELL_BUY_ORDER = "sell_buy_or_buy_sell"
    POOL_SHARE_DROP = "none"
    SOLD_OUT_INCREASE = True
    NEXT_SR_PLAYER_ORDER = "after_last_to_act"
    PRESIDENT_SALES_TO_MARKET = False
    SOLD_SHARES_DESTINATION = "bank"
    MULTIPLE_BUY_ONLY_FROM_MARKET = False
    BUY_SHARE_FROM_OTHER_PLAYER = False
    # Share trades whose price or swap the action itself names (none of the titles so far).
    ACTION_SHARE_PRICES = False
    ACTION_SHARE_SWAPS = False
    CORPORATE_BUY_SHARE_ALLOW_BUY_FROM_PRESIDENT = False
    MIN_BID_INCREMENT = 5
    MUST_BID_INCREMENT_MULTIPLE = False
    ONLY_HIGHEST_BID_COMMITTED = False
    ALLOW_MULTIPLE_PROGRAMS = False
    ALL_COMPANIES_ASSIGNABLE = False

    # --- operating round --------------------------------------------------------------------
    HOME_TOKEN_TIMING = "operate"
    TRACK_RESTRICTION = "semi_restrictive"
    TILE_LAYS = ({"lay": True, "upgrade": True, "cost": 0},)
    TILE_RESERVATION_BLOCKS_OTHERS = "never"
    IMPASSABLE_HEX_COLORS = ("blue", "gray", "red")
    ALLOW_REMOVING_TOWNS = False
    TILE_UPGRADES_MUST_USE_MAX_EXITS: tuple = ()
    MUST_BUY_TRAIN = "route"
    ALLOW_TRAIN_BUY_FROM_OTHERS = True
    ALLOW_TRAIN_BUY_FROM_OTHER_PLAYERS = True
    ALLOW_OBSOLETE_TRAIN_BUY = False
    ALWAYS_BUY_TRAINS_AT_FACE_VALUE = False
    OBSOLETE_TRAINS_COUNT_FOR_LIMIT = False
    DISCARDED_TRAINS = "discard"
    DISCARDED_TRAIN_DISCOUNT = 0
    CLOSED_CORP_TRAINS_REMOVED = True
    CLOSED_CORP_TOKENS_REMOVED = True
    CLOSED_CORP_RESERVATIONS_REMOVED = True
    EBUY_PRES_SWAP = True
    EBUY_FROM_OTHERS = "value"
    EBUY_DEPOT_TRAIN_MUST_BE_CHEAPEST = True
    MUST_EMERGENCY_ISSUE_BEFORE_EBUY = False
    EBUY_SELL_MORE_THAN_NEEDED = False
    EBUY_CAN_SELL_SHARES = True
    EBUY_SELL_MORE_THAN_NEEDED_SETS_PURCHASE_MIN = False
    EBUY_CAN_TAKE_PLAYER_LOAN = False
    PLAYER_LOAN_INTEREST_RATE = 50
    PLAYER_LOAN_ENDGAME_PENALTY = 0
    MINORS_CAN_OWN_SHARES = False

    # --- game end ---------------------------------------------------------------------------
    GAME_END_CHECK = {"bankrupt": "immediate", "bank": "full_or"}
    GAME_END_TIMING_PRIORITY = ("immediate", "current_round", "current_or", "full_or",
                                "one_more_full_or_set")
    GAME_END_LOCK_FIRST_TRIGGER = False
    BANKRUPTCY_ALLOWED = True
    BANKRUPTCY_ENDS_GAME_AFTER = "one"

    # --- data -------------------------------------------------------------------------------
    LAYOUT = "flat"
    AXES: Optional[dict] = None
    HEXES: dict = {}
    TILES: dict = {}
    LOCATION_NAMES: dict = {}
    MARKET: list = []
    PHASES: list = []
    TRAINS: list = []
    CORPORATIONS: list = []
    MINORS: list = []
    COMPANIES: list = []

    CORPORATION_CLASS = Corporation
    MINOR_CLASS = Minor
    COMPANY_CLASS = Company

    def __init__(self, players: Iterable, seed: int = 0, optional_rules: Iterable = (),
                 strict: bool = True, log: bool = True) -> None:
        players = list(players)
        if not self.PLAYER_RANGE[0] <= len(players) <= self.PLAYER_RANGE[1]:
            raise GameError(f"{self.TITLE} is for {self.PLAYER_RANGE[0]}-{self.PLAYER_RANGE[1]} "
                            f"players, not {len(players)}")
        self.player_specs = players
        self.strict = strict
        self.loading = False
        self.keep_log = log
        self.messages: List[str] = []
        self.turn = 1
        self.finished = False
        self.game_end_reason = None
        self.game_end_trigger = None
        self.final_turn = None
        self.actions: List[dict] = []          # the effective action list, in order
        self.programs: Dict = {}
        # Route connections already resolved into chains of track, with the tiles they read
        # (see tracklayer.routes.route.matching_chains).
        self.chain_cache: Dict = {}
        self.players: List[Player] = [self.make_player(pid, name) for pid, name in players]
        self.seed = seed
        self.rand = Random(seed or 0)
        self.optional_rules = self.init_optional_rules(optional_rules)
        self.round_counter = 0
        self.crowded_corps_cache = None

        self.companies = self.init_companies()
        self.stock_market = self.init_stock_market()
        self.minors = self.init_minors()
        self.loans = self.init_loans()
        self.total_loans = len(self.loans)
        self.corporations = self.init_corporations()
        self.bank = self.init_bank()
        self.all_tiles = self.init_tiles()
        self.tiles = list(self.all_tiles)
        self.optional_tiles()
        self.cert_limit_ = self.init_cert_limit()
        self.depot = self.init_depot()
        self.init_starting_cash()
        self.share_pool = self.init_share_pool()
        self.hexes = self.init_hexes()
        self.hex_index = {h.id: h for h in self.hexes}
        self.graph = self.init_graph()
        self.phase = self.init_phase()
        self.operating_rounds = self.phase.operating_rounds
        self.round = self.init_round()
        self.index_objects()
        connect_hexes(self.hexes, self.IMPASSABLE_HEX_COLORS)
        self.init_company_abilities()
        self.setup()
        self.round.setup()
        self.starting_money = self.total_money()

    # ------------------------------------------------------------------------------------------
    # set-up

    def init_share_pool(self) -> SharePool:
        return SharePool(self, allow_president_sale=self.PRESIDENT_SALES_TO_MARKET)

    def make_player(self, pid, name) -> Player:
        return Player(pid, name)

    def init_optional_rules(self, rules) -> list:
        known = {r["sym"]: r for r in self.OPTIONAL_RULES}
        out = []
        for r in rules or ():
            r = str(r)
            if not r:
                continue
            if r not in known:
                raise GameError(f"unknown optional rule {r!r} for {self.TITLE}")
            players = known[r].get("players")
            if players and len(self.players) not in players:
                continue
            out.append(r)
        return out

    def init_companies(self) -> List[Company]:
        out = []
        for spec in self.game_companies():
            spec = dict(spec)
            if len(self.players) < spec.pop("min_players", 0):
                continue
            out.append(self.COMPANY_CLASS(**spec))
        return out

    def game_companies(self) -> list:
        return self.COMPANIES

    def init_stock_market(self) -> StockMarket:
        return StockMarket(self.MARKET, CERT_LIMIT_TYPES)

    def init_minors(self) -> List[Minor]:
        return [self.MINOR_CLASS(**dict(m)) for m in self.MINORS]

    def init_loans(self) -> list:
        return []

    def init_corporations(self) -> List[Corporation]:
        min_price = min((p.price for p in self.stock_market.par_prices), default=None)
        out = []
        for spec in self.CORPORATIONS:
            spec = dict(spec)
            spec.setdefault("min_price", min_price)
            spec.setdefault("capitalization", self.CAPITALIZATION)
            out.append(self.CORPORATION_CLASS(**spec))
        return out

    def init_bank(self) -> Bank:
        if self.BANK_CASH == "unlimited":
            return Bank(0, check=False, unlimited=True)
        cash = self.BANK_CASH
        if isinstance(cash, dict):
            cash = cash[len(self.players)]
        return Bank(cash, check="bank" in self.GAME_END_CHECK)

    def init_tiles(self) -> List[Tile]:
        catalogue = tile_catalogue()
        out = []
        for name, spec in self.TILES.items():
            if isinstance(spec, dict):
                count, color, code = spec["count"], spec["color"], spec["code"]
                hidden = spec.get("hidden", False)
            else:
                count, hidden = spec, False
                if name not in catalogue:
                    raise GameError(f"tile {name} is not in the tile catalogue")
                color, code = catalogue[name]
            unlimited = count == "unlimited"
            for i in range(1 if unlimited else count):
                out.append(Tile(name, color, code, index=i, unlimited=unlimited, hidden=hidden,
                                reservation_blocks=self.TILE_RESERVATION_BLOCKS_OTHERS))
        return out

    def optional_tiles(self) -> None:
        """Hook: remove or add tiles for optional rules."""

    def remove_tiles(self, ids: Iterable[str]) -> None:
        ids = set(ids)
        self.tiles = [t for t in self.tiles if t.id not in ids]
        self.all_tiles = [t for t in self.all_tiles if t.id not in ids]

    def init_cert_limit(self) -> int:
        limit = self.CERT_LIMIT
        if isinstance(limit, dict):
            players = [p for p in self.players if not p.bankrupt] \
                if self.CERT_LIMIT_CHANGE_ON_BANKRUPTCY else self.players
            limit = limit.get(len(players))
        if isinstance(limit, dict):
            options = sorted((int(k), v) for k, v in limit.items()
                             if int(k) >= len(self.corporations))
            limit = options[0][1] if options else next(iter(limit.values()))
        return limit

    def num_trains(self, spec: dict) -> int:
        num = spec.get("num")
        if num == "unlimited":
            whens = [e.get("when") for e in spec.get("events", []) if e.get("when")]
            return max(whens) if whens else 1
        return num

    def init_depot(self) -> Depot:
        trains = []
        for spec in self.TRAINS:
            spec = dict(spec)
            n = self.num_trains(spec)
            for index in range(n):
                s = dict(spec)
                trains.append(Train(s.pop("name"), s.pop("distance"), s.pop("price"),
                                    index=index, **s))
        return Depot(trains, self)

    def init_starting_cash(self) -> None:
        cash = self.STARTING_CASH
        if isinstance(cash, dict):
            cash = cash[len(self.players)]
        for p in self.players:
            self.bank.spend(cash, p)

    def game_hexes(self) -> dict:
        return self.HEXES

    def location_name(self, coord: str) -> Optional[str]:
        return self.LOCATION_NAMES.get(coord)

    @property
    def axes(self) -> dict:
        if self.AXES:
            return self.AXES
        if self.LAYOUT == "flat":
            return {"x": "letter", "y": "number"}
        return {"x": "number", "y": "letter"}

    def reservation_corporations(self) -> list:
        return self.corporations

    def init_hexes(self) -> List[Hex]:
        catalogue = tile_catalogue()
        reservations: Dict[str, list] = {}
        for c in self.reservation_corporations():
            coords = c.coordinates
            if coords is None:
                continue
            coords = coords if isinstance(coords, list) else [coords]
            for idx, coord in enumerate(coords):
                city = c.city[idx] if isinstance(c.city, list) else c.city
                reservations.setdefault(coord, []).append((c, city, None))
        for c in self.corporations + self.companies:
            for a in c.abilities:
                if a.type == "reservation":
                    reservations.setdefault(a.hex, []).append((c, int(a.city or 0),
                                                               int(a.slot or 0)))
        hexes = []
        for color, group in self.game_hexes().items():
            for coords, code in group.items():
                if isinstance(coords, str):
                    coords = (coords,)
                for index, coord in enumerate(coords):
                    if color == "empty":
                        hexes.append(Hex(coord, self.LAYOUT, self.axes, None, empty=True))
                        continue
                    if code in catalogue and code:
                        t_color, t_code = catalogue[code]
                        tile = Tile(code, t_color, t_code, index=index, preprinted=True)
                    else:
                        tile = Tile(coord, color, code, index=index, preprinted=True)
                    h = Hex(coord, self.LAYOUT, self.axes, tile, self.location_name(coord))
                    for entity, city, slot in reservations.get(coord, ()):
                        tile.add_reservation(entity, city, slot)
                    hexes.append(h)
        return hexes

    def init_graph(self) -> Graph:
        return Graph(self)

    def init_phase(self) -> Phase:
        return Phase(self.PHASES, self)

    def index_objects(self) -> None:
        """Id → object tables for resolving actions."""
        self.index = {
            "player": {p.id: p for p in self.players},
            "corporation": {c.id: c for c in self.corporations},
            "minor": {m.id: m for m in self.minors},
            "company": {c.id: c for c in self.companies},
            "hex": self.hex_index,
            "tile": {t.id: t for t in self.tiles},
            "share": {s.id: s for c in self.corporations for s in c.all_shares},
        }
        # Preprinted tiles are named after their hex; a tile of the supply with the same id
        # (1893's K6 and hex K6) is the one actions mean.
        for h in self.hexes:
            if h.tile:
                self.index["tile"].setdefault(h.tile.id, h.tile)
        cities = {}
        for t in [h.tile for h in self.hexes if h.tile] + self.tiles:
            for c in t.cities:
                cities[c.id] = c
        self.index["city"] = cities
        self.index_trains()

    def index_trains(self) -> None:
        self.index["train"] = {t.id: t for t in self.depot.trains}

    def setup(self) -> None:
        """Hook: title-specific set-up after everything exists."""

    def init_company_abilities(self) -> None:
        """Companies that come with a certificate: find the certificate (``first_president``:
        the president's certificate of the first corporation; ``random_president`` /
        ``random_share``: chosen with the game's random numbers; or a share id)."""
        for company in self.companies:
            for ability in [a for a in company.abilities if a.type == "shares"]:
                specs = ability.shares if isinstance(ability.shares, list) else [ability.shares]
                real = []
                for spec in specs:
                    if spec in ("first_president", "random_president"):
                        idx = 0 if spec == "first_president" else \
                            self.rand.next() % len(self.corporations)
                        real.append(self.corporations[idx].presidents_share)
                    elif spec == "random_share":
                        names = ability.opts.get("corporations")
                        corps = [self.corporation_by_id(c) for c in names] if names \
                            else self.corporations
                        corp = corps[self.rand.next() % len(corps)]
                        real.append(next(s for s in corp.all_shares if not s.president))
                    else:
                        real.append(self.lookup("share", spec))
                ability.opts["shares"] = real

    def initial_auction_companies(self) -> list:
        return list(self.companies)

    def lookup(self, kind: Optional[str], key):
        """The entity of ``kind`` (player, corporation, minor, company, hex, tile, city, share,
        train) called ``key``, or None."""
        if kind is None or key is None:
            return None
        table = self.index.get(kind)
        if table is None:
            return None
        obj = table.get(key)
        if obj is None and kind == "player" and isinstance(key, str) and key.lstrip("-").isdigit():
            obj = table.get(int(key))
        return obj

    def player_by_id(self, pid):
        return self.lookup("player", pid)

    def corporation_by_id(self, cid):
        return self.lookup("corporation", cid)

    def minor_by_id(self, mid):
        return self.lookup("minor", mid)

    def company_by_id(self, cid):
        return self.lookup("company", cid)

    def hex_by_id(self, hid):
        return self.hex_index.get(hid)

    def city_by_id(self, cid):
        return self.lookup("city", cid)

    # ------------------------------------------------------------------------------------------
    # logging and formatting

    def log(self, message: str) -> None:
        if self.keep_log:
            self.messages.append(message)

    def format_currency(self, value) -> str:
        return self.CURRENCY_FORMAT.format(value)

    # ------------------------------------------------------------------------------------------
    # processing actions

    def process_action(self, h: dict, auto: bool = False) -> "Game":
        """Apply one action dict; raise GameError if it is illegal, leaving the game exactly
        as it was.

        The ``auto_actions`` recorded in the action are applied after it. With ``auto``, the
        engine instead works them out from the players' programmed actions (as a server
        does for a new action) and records them in the action's ``auto_actions``.
        """
        t = h.get("type") if isinstance(h, dict) else None
        mark = len(self.actions)
        where = f"action {mark} (id {h.get('id') if isinstance(h, dict) else None}, {t})"
        if t in ("undo", "redo"):
            raise GameError(f"{where}: undo and redo change the action list: use "
                            f"ActionLog.process")
        try:
            action = actions_mod.resolve(self, h)
            self.process_single(action)
            if auto:
                generated = self.run_auto_actions()
                h = dict(h)
                if generated:
                    h["auto_actions"] = generated
                else:
                    h.pop("auto_actions", None)
            else:
                for recorded in h.get("auto_actions") or ():
                    self.process_single(actions_mod.resolve(self, recorded))
        except GameError as e:
            if self.restore_on_error:
                self.restore(mark)
            raise type(e)(f"{where}: {e}") from e
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
            if self.restore_on_error:
                self.restore(mark)
            raise ActionError(f"{where}: malformed action: {e!r}") from e
        self.actions.append(h)
        return self

    MAX_AUTO_ACTIONS = 1000
    # A refused action leaves the game as it was (by rebuilding it); a throwaway copy that
    # only asks whether an action is accepted can skip that.
    restore_on_error = True

    def run_auto_actions(self) -> list:
        """Apply what the players' programs do now, until they have nothing more to do."""
        generated: list = []
        while not self.finished:
            batch = self.round.auto_actions() or []
            if not batch:
                break
            for h in batch:
                self.process_single(actions_mod.resolve(self, h))
                generated.append(h)
            if len(generated) > self.MAX_AUTO_ACTIONS:
                raise GameError("programmed actions do not come to an end")
        return generated

    def restore(self, count: int) -> None:
        """Rebuild this game from its first ``count`` actions (after a failed action)."""
        fresh = type(self)(self.player_specs, seed=self.seed,
                           optional_rules=self.optional_rules, strict=self.strict,
                           log=self.keep_log)
        fresh.loading = True
        for h in self.actions[:count]:
            fresh.process_action(h)
        fresh.loading = False
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        self.rebind()

    def rebind(self) -> None:
        """After adopting another instance's state, point back-references at ``self``."""
        for obj in self.back_referencing_objects():
            obj.game = self
        for step in self.round.steps:
            step.game = self
        self.round.game = self

    def back_referencing_objects(self) -> list:
        return [self.share_pool, self.depot, self.phase, self.graph]

    def process_single(self, action) -> None:
        """Apply one action and move through rounds that finish as a result."""
        self.preprocess_action(action)
        self.round.process_action(action)
        self.action_processed(action)
        reason, timing = self.game_end_check() or (None, None)
        if timing == "immediate":
            self.end_game(reason)
        while self.round.finished() and not self.finished:
            for e in self.round.entities:
                e.unpass()
            if self.end_now(timing):
                self.end_game(reason)
            elif self.turn >= 100:
                self.end_game("dnf")
            else:
                self.transition_to_next_round()

    def preprocess_action(self, action) -> None:
        pass

    def action_processed(self, action) -> None:
        if self.close_corporations_in_close_cell():
            step = self.round.active_step()
            entity = self.current_entity()
            if step is not None and entity is not None and not step.actions(entity):
                self.round.skip_steps()
                self.round.next_entity()
            self.round.clear_cache()

    def current_entity(self):
        return self.round.current_entity()

    def acting_for_entity(self, entity):
        return entity.owner if entity is not None else None

    def acting_for_player(self, player):
        return player

    def next_turn(self) -> None:
        """Hook kept for rounds: marks the start of a player's turn (for undo-to-turn)."""

    def transition_to_next_round(self) -> None:
        self.next_round()
        if self.finished:
            return
        self.check_programmed_actions()
        self.round.at_start = True
        self.round.setup()

    def check_programmed_actions(self) -> None:
        for entity, programs in self.programs.items():
            programs[:] = [p for p in programs if not self.program_disabled(p)]

    def program_disabled(self, program) -> bool:
        """Programs end when the round changes, except passing in stock rounds (and any
        program set to last indefinitely) while stock rounds go on."""
        if program.type == "program_share_pass":
            return not self.round.is_stock and not program.get("indefinite")
        if program.type == "program_buy_shares":
            return not self.round.is_stock
        return True

    # ------------------------------------------------------------------------------------------
    # rounds

    def init_round(self):
        return self.new_auction_round()

    def new_auction_round(self):
        raise NotImplementedError

    def next_round(self) -> None:
        r = self.round
        if r.is_stock:
            self.operating_rounds = self.phase.operating_rounds
            self.reorder_players()
            self.round = self.new_operating_round()
        elif r.is_operating:
            if r.round_num < self.operating_rounds:
                self.or_round_finished()
                self.round = self.new_operating_round(r.round_num + 1)
            else:
                self.turn += 1
                self.or_round_finished()
                self.or_set_finished()
                self.round = self.new_stock_round()
        else:
            self.init_round_finished()
            self.reorder_players()
            self.round = self.new_stock_round()

    def init_round_finished(self) -> None:
        pass

    def or_round_finished(self) -> None:
        pass

    def or_set_finished(self) -> None:
        pass

    def new_stock_round(self):
        self.log(f"-- Stock Round {self.turn} --")
        self.round_counter += 1
        return self.stock_round()

    def stock_round(self):
        raise NotImplementedError

    def new_operating_round(self, round_num: int = 1):
        self.log(f"-- Operating Round {self.turn}.{round_num} --")
        self.round_counter += 1
        return self.operating_round(round_num)

    def operating_round(self, round_num: int):
        raise NotImplementedError

    def total_rounds(self, name: str) -> Optional[int]:
        return self.operating_rounds if name == "Operating" else None

    def operating_order(self) -> list:
        minors = [m for m in self.minors if m.floated()]
        corps = [c for c in self.corporations if c.floated()]
        return minors + sorted(corps, key=self.corporation_sort_key)

    @staticmethod
    def corporation_sort_key(corp):
        key = corp.sort_key()
        return (0, key) if key is not None else (1, ())

    def reorder_players(self, order: Optional[str] = None, silent: bool = False) -> None:
        """Set the seating order for the next round (the priority deal goes first)."""
        order = order or self.NEXT_SR_PLAYER_ORDER
        players = self.players
        if order == "after_last_to_act":
            active = [p for p in players if not p.bankrupt]
            player = active[self.round.entity_index % len(active)] if active else players[0]
            i = players.index(player)
            players[:] = players[i:] + players[:i]
        elif order == "first_to_pass":
            if self.round.pass_order:
                players[:] = list(self.round.pass_order)
        elif order == "most_cash":
            current = list(reversed(players))
            players.sort(key=lambda p: (p.cash, current.index(p)), reverse=True)
        elif order == "least_cash":
            current = list(players)
            players.sort(key=lambda p: (p.cash, current.index(p)))
        elif order == "next_clockwise":
            players[:] = players[1:] + players[:1]
        elif order == "most_cash_keep_order":
            richest = max(players, key=lambda p: p.cash)
            i = players.index(richest)
            players[:] = players[i:] + players[:i]
        if not silent:
            self.log(f"{players[0].name} has priority deal")

    # ------------------------------------------------------------------------------------------
    # game end

    def game_end_check(self):
        if self.GAME_END_LOCK_FIRST_TRIGGER and self.game_end_trigger:
            return self.game_end_trigger
        priority = self.GAME_END_TIMING_PRIORITY
        for reason, after in self.GAME_END_CHECK.items():
            if not getattr(self, f"game_end_check_{reason}")():
                continue
            if self.game_end_trigger and \
                    priority.index(after) >= priority.index(self.game_end_trigger[1]):
                continue
            self.game_end_trigger = (reason, after)
            if self.GAME_END_LOCK_FIRST_TRIGGER:
                break
        if self.game_end_trigger and self.game_end_trigger[1] == "one_more_full_or_set":
            if self.final_turn is None:
                self.final_turn = self.turn + 1
        return self.game_end_trigger

    def game_end_check_bankrupt(self) -> bool:
        if self.BANKRUPTCY_ENDS_GAME_AFTER == "one":
            return any(p.bankrupt for p in self.players)
        return sum(1 for p in self.players if not p.bankrupt) == 1

    def game_end_check_bank(self) -> bool:
        return self.bank.broken

    def game_end_check_stock_market(self) -> bool:
        return self.stock_market.max_reached

    def game_end_check_final_train(self) -> bool:
        return self.depot.empty()

    def game_end_check_final_phase(self) -> bool:
        return self.phase.index == len(self.phase.phases) - 1

    def game_end_check_all_closed(self) -> bool:
        return all(e.closed for e in self.corporations + self.companies)

    def game_end_check_custom(self) -> bool:
        return False

    def end_now(self, after: Optional[str]) -> bool:
        if not after:
            return False
        if after in ("immediate", "current_round"):
            return True
        if not self.round.is_operating:
            return False
        if after == "current_or":
            return True
        final_or = self.final_or_in_set(self.round)
        if final_or and after == "one_more_full_or_set":
            return self.turn == self.final_turn
        return final_or

    def final_or_in_set(self, round) -> bool:
        return round.round_num == self.operating_rounds

    def end_game(self, reason: str) -> None:
        if self.finished:
            return
        self.finished = True
        self.game_end_reason = reason
        self.round_counter += 1
        scores = ", ".join(f"{p.name} ({self.format_currency(v)})"
                           for p, v in ((self.player_by_id(k), v) for k, v in self.result().items()))
        self.log(f"-- Game over: {scores} --")

    def result(self) -> dict:
        """Final score per player id, best first."""
        scores = [(p.id, self.player_value(p)) for p in self.players]
        scores.sort(key=lambda x: x[1], reverse=True)
        return dict(scores)

    def player_value(self, player: Player) -> int:
        return player.value()

    def total_money(self) -> int:
        """All cash: bank, players, corporations and minors (constant through the game)."""
        total = self.bank.cash
        total += sum(p.cash for p in self.players)
        total += sum(c.cash for c in self.corporations)
        total += sum(m.cash for m in self.minors)
        return total + self.extra_money()

    def extra_money(self) -> int:
        """Hook: cash held by entities outside the lists above."""
        return 0

    # ------------------------------------------------------------------------------------------
    # phases, events, companies

    def on_phase_setup(self, phase: Phase) -> None:
        """A new phase starts: companies close or change revenue as their abilities say."""
        if not hasattr(self, "companies"):
            return
        for company in self.companies:
            if company.owner is None:
                continue
            for a in self.abilities(company, "revenue_change", on_phase=phase.name):
                company.revenue = a.revenue
            for a in self.abilities(company, "close", on_phase=phase.name):
                self.log(f"Company {company.name} closes")
                company.close()
        for e in self.companies + self.corporations:
            self.remove_ability_when(e, phase.name)
        self.after_phase_change(phase.name)

    def after_phase_change(self, name: str) -> None:
        pass

    def remove_ability_when(self, entity, when: str) -> None:
        entity.remove_ability_when(when)

    def run_event(self, event: str, train) -> None:
        handler = getattr(self, f"event_{event}", None)
        if handler is None:
            raise GameError(f"{self.TITLE} has no event {event}")
        handler()

    def event_close_companies(self) -> None:
        self.log("-- Event: Private companies close --")
        for company in list(self.companies):
            keep = False
            for a in self.abilities(company, "close", on_phase="any"):
                if a.on_phase == "never" or any(p["name"] == a.on_phase
                                                for p in self.phase.future):
                    keep = True
            if not keep:
                company.close()

    def abilities(self, entity, type: Optional[str] = None, time=None, on_phase=None,
                  passive_ok: bool = True, strict_time: bool = True) -> list:
        """The abilities of ``entity`` (of ``type``) usable now: right owner, right time,
        uses left this operating round."""
        if entity is None:
            return []
        out = []
        for a in entity.all_abilities:
            if type is not None and a.type != type:
                continue
            if not self.ability_right_owner(a.owner, a):
                continue
            if a.count_per_or and a.count_this_or >= a.count_per_or:
                continue
            if not self.ability_right_time(a, time, on_phase, passive_ok, strict_time):
                continue
            if not self.ability_usable(a):
                continue
            out.append(a)
        return out

    def ability_usable(self, ability) -> bool:
        return True

    def ability_right_owner(self, owner, ability) -> bool:
        """An ability restricted to player- or corporation-owned companies."""
        holder = getattr(owner, "owner", None)
        if ability.owner_type == "player":
            return holder is None or holder.is_player
        if ability.owner_type == "corporation":
            return holder is not None and holder.is_corporation
        return True

    def ability_blocking_step(self):
        from .steps.operate import Dividend, RouteStep
        from .steps.token import Token
        from .steps.track import Tracker
        from .steps.trains import BuyTrain
        kinds = (Tracker, Token, RouteStep, Dividend, BuyTrain)
        for step in self.round.steps:
            if isinstance(step, kinds) and not step.passed and step.active() and step.blocks():
                return step
        return None

    def ability_right_time(self, ability, time, on_phase, passive_ok, strict_time) -> bool:
        """Can ``ability`` be used at ``time`` (a step name, or a moment such as
        ``owning_corp_or_turn``)?"""
        round = getattr(self, "round", None)
        if round is None:
            return True
        if ability.on_phase and on_phase not in ("any", ability.on_phase):
            return False
        if ability.after_phase and ability.after_phase not in \
                [p["name"] for p in self.phase.phases[:self.phase.index]]:
            return False
        if time == "any" or "any" in ability.when:
            return True
        if ability.passive and not passive_ok:
            return False
        if ability.passive and not ability.when:
            return True
        step = self.ability_blocking_step()
        step_name = step.type if step is not None else None
        if time is None:
            times, to_check, default = [], list(ability.when), False
        else:
            times = [step_name if t == "%current_step%" else str(t)
                     for t in (time if isinstance(time, (list, tuple)) else [time])]
            to_check = [w for w in ability.when if w in times]
            default = True
            if to_check and not strict_time:
                return True
        owner = ability.owner
        owner_player = owner.player if owner is not None else None
        owner_corp = owner if owner is not None and owner.is_corporation else \
            (owner.owner if owner is not None and owner.is_company and owner.owner is not None
             and owner.owner.is_corporation else None)
        for w in to_check:
            if w == step_name:
                if (round.is_operating and round.current_operator is owner_corp) or \
                        (round.is_stock and round.current_entity() is owner_player):
                    return True
            elif w == "owning_corp_or_turn":
                if round.is_operating and owner_corp is not None and \
                        round.current_operator is owner_corp:
                    return True
            elif w == "owning_player_or_turn":
                if round.is_operating and owner_player is not None and \
                        round.current_operator is not None and \
                        round.current_operator.player is owner_player:
                    return True
            elif w in ("owning_player_track", "owning_player_token"):
                from .steps.token import Token
                from .steps.track import Track
                kind = Track if w == "owning_player_track" else Token
                if round.is_operating and owner_player is not None and \
                        round.current_operator is not None and \
                        round.current_operator.player is owner_player and \
                        isinstance(step, kind):
                    return True
            elif w == "owning_player_sr_turn":
                if round.is_stock and owner_player is not None and \
                        round.current_entity() is owner_player:
                    return True
            elif w == "or_between_turns":
                if round.is_operating and not round.current_operator_acted:
                    return True
            elif w == "or_start":
                if round.is_operating and round.at_start:
                    return True
            elif w == "stock_round":
                if round.is_stock:
                    return True
            elif default:
                return True
        return False

    def close_companies_on_event(self, entity, event: str) -> None:
        for company in list(self.companies):
            if company.closed:
                continue
            for a in self.abilities(company, "close", time=event):
                if entity is None or a.opts.get("corporation") != entity.name:
                    continue
                company.close()
                if not a.opts.get("silent"):
                    self.log(f"{company.name} closes")

    def payout_companies(self) -> None:
        """Private companies pay their revenue to their owners."""
        companies = [c for c in self.companies if c.owner is not None and c.revenue > 0]

        def key(c):
            if c.owner.is_player:
                owner_key = (0, self.players.index(c.owner), "")
            else:
                owner_key = (1, 0, str(getattr(c.owner, "name", "")))
            return (owner_key, c.revenue, c.name)

        for company in sorted(companies, key=key):
            owner = company.owner
            if owner is self.bank:
                continue
            self.bank.spend(company.revenue, owner)
            self.log(f"{owner.name} collects {self.format_currency(company.revenue)} "
                     f"from {company.name}")

    def purchasable_companies(self, entity=None) -> list:
        return [c for c in self.companies
                if c.owner is not None and c.owner.is_player and c.owner is not entity
                and not self.abilities(c, "no_buy")]

    def buyable_bank_owned_companies(self) -> list:
        return [c for c in self.companies if not c.closed and c.owner is self.bank]

    def company_sellable(self, company) -> bool:
        return not (company.owner is not None and company.owner.is_corporation)

    def after_buy_company(self, player, company, price) -> None:
        """A company bought that comes with certificates: a president's certificate waits
        for its buyer to set the par price; other shares are handed over at once."""
        for ability in self.abilities(company, "shares"):
            for share in ability.shares:
                if share.president:
                    self.round.companies_pending_par.append(company)
                else:
                    self.share_pool.buy_shares(player, share.to_bundle(), exchange="free")

    def after_sell_company(self, buyer, company, price, seller) -> None:
        pass

    def company_bought(self, company, buyer) -> None:
        pass

    # ------------------------------------------------------------------------------------------
    # shares and the stock market

    def can_hold_above_corp_limit(self, entity) -> bool:
        return False

    def hex_blocked_by_ability(self, entity, ability, hex) -> bool:
        return hex.id in (ability.opts.get("hexes") or [])

    def check_routes(self, entity, routes) -> None:
        """Title hook: rules on the set of routes as a whole."""

    def market_share_limit(self, corporation=None) -> int:
        return self.MARKET_SHARE_LIMIT

    def cert_limit(self, player=None) -> int:
        return self.cert_limit_

    def num_certs(self, entity) -> int:
        certs = sum(s.cert_size for s in entity.shares
                    if s.corporation.counts_for_limit() and s.counts_for_limit)
        if self.CERT_LIMIT_INCLUDES_PRIVATES:
            certs += len(entity.companies)
        return certs

    def sold_shares_destination(self, corporation) -> str:
        return self.SOLD_SHARES_DESTINATION

    def can_gain_from_player(self, entity, bundle) -> bool:
        return (self.BUY_SHARE_FROM_OTHER_PLAYER and entity.is_player) or (
            self.CORPORATE_BUY_SHARE_ALLOW_BUY_FROM_PRESIDENT and entity.is_corporation
            and bundle.owner is entity.owner)

    def can_swap_for_presidents_share_directly_from_corporation(self) -> bool:
        return True

    def shares_for_presidency_swap(self, shares: list, num_shares: int) -> list:
        return shares[:num_shares]

    def possible_presidents(self) -> list:
        return [p for p in self.players if not p.bankrupt]

    def can_par(self, corporation, parrer) -> bool:
        if corporation.par_via_exchange and corporation.par_via_exchange.owner is not parrer:
            return False
        if corporation.needs_token_to_par and not corporation.tokens:
            return False
        if any(a.type == "unparrable" for a in corporation.all_abilities):
            return False
        return not corporation.ipoed

    def float_corporation(self, corporation) -> None:
        self.log(f"{corporation.name} floats")
        if corporation.capitalization in ("incremental", "none"):
            return
        self.bank.spend(corporation.par_price.price * corporation.total_shares, corporation)
        self.log(f"{corporation.name} receives {self.format_currency(corporation.cash)}")

    def after_par(self, corporation) -> None:
        if corporation.capitalization == "incremental":
            for company in self.companies:
                for a in self.abilities(company, "shares"):
                    if a.shares and a.shares[0].corporation is corporation:
                        amount = sum(corporation.par_price.price * s.num_shares()
                                     for s in a.shares)
                        self.bank.spend(amount, corporation)
        self.close_companies_on_event(corporation, "par")
        if self.HOME_TOKEN_TIMING == "par":
            self.place_home_token(corporation)

    def sell_movement(self, corporation=None) -> str:
        return self.SELL_MOVEMENT

    def sell_shares_and_change_price(self, bundle, allow_president_change: bool = True,
                                     swap=None, movement: Optional[str] = None) -> None:
        """Sell ``bundle`` to the market and move the share price down as the title says."""
        corporation = bundle.corporation
        old_price = corporation.share_price
        was_president = corporation.president_of(bundle.owner)
        self.share_pool.sell_shares(bundle, allow_president_change=allow_president_change,
                                    swap=swap)
        market = self.stock_market
        mv = movement or self.sell_movement(corporation)
        if mv == "down_share":
            for _ in range(bundle.num_shares()):
                market.move_down(corporation)
        elif mv == "down_per_10":
            percent = bundle.percent - (swap.percent if swap else 0)
            for _ in range(percent // 10):
                market.move_down(corporation)
        elif mv == "down_block":
            market.move_down(corporation)
        elif mv == "left_share":
            for _ in range(bundle.num_shares()):
                market.move_left(corporation)
        elif mv == "left_share_pres":
            if was_president:
                for _ in range(bundle.num_shares()):
                    market.move_left(corporation)
        elif mv == "left_block":
            market.move_left(corporation)
        elif mv == "down_block_pres":
            if was_president:
                market.move_down(corporation)
        elif mv == "left_block_pres":
            if was_president:
                market.move_left(corporation)
        elif mv == "none":
            pass
        else:
            raise NotImplementedError(mv)
        if mv != "none":
            self.log_share_price(corporation, old_price)

    def log_share_price(self, corporation, old, steps=None) -> None:
        new = corporation.share_price
        if new is not old and new is not None and old is not None:
            self.log(f"{corporation.name}'s share price moves from "
                     f"{self.format_currency(old.price)} to {self.format_currency(new.price)}")

    def sold_out_increase(self, corporation) -> bool:
        return self.SOLD_OUT_INCREASE

    def sold_out(self, corporation) -> bool:
        return sum(corporation.player_share_holders().values()) == 100

    def sold_out_stock_movement(self, corporation) -> None:
        self.stock_market.move_up(corporation)

    def bundles_for_corporation(self, holder, corporation, shares=None) -> List[ShareBundle]:
        """Every bundle ``holder`` could sell of ``corporation``, smallest first."""
        if not corporation.ipoed:
            return []
        shares = list(shares if shares is not None else holder.shares_of(corporation))
        if not shares:
            return []
        shares.sort(key=lambda s: (1 if s.president else 0, s.percent))
        bundles, chosen, percent = [], [], 0
        for share in shares:
            chosen.append(share)
            percent += share.percent
            bundles.append(ShareBundle(list(chosen), percent))
        if shares[-1].president:
            normal = corporation.share_percent
            difference = corporation.presidents_percent - normal
            for n in range(1, difference // normal + 1):
                bundles.append(ShareBundle(list(chosen), percent - normal * n))
        bundles.sort(key=lambda b: b.percent)
        return bundles

    def sellable_turn(self) -> bool:
        if self.SELL_AFTER == "first":
            return self.turn > 1 or not self.round.is_stock
        return True

    def check_sale_timing(self, entity, bundle) -> bool:
        corporation = bundle.corporation
        rule = self.SELL_AFTER
        if rule == "first":
            return self.turn > 1 or self.round.is_operating
        if rule == "after_sr_floated":
            return corporation.operated() or self.round.is_operating
        if rule == "operate":
            return corporation.operated()
        if rule == "p_any_operate":
            return corporation.operated() or corporation.president_of(entity)
        if rule == "full_or_turn":
            if self.round.is_operating and corporation is self.round.current_operator:
                return len(corporation.operating_history) > 1
            return corporation.operated()
        if rule == "any_time":
            return True
        if rule == "round":
            bought = self.round.players_bought.get(entity, {}).get(corporation, 0)
            return (self.round.is_stock and corporation.share_holders.get(entity, 0) - bought
                    >= bundle.percent) or self.round.is_operating
        raise NotImplementedError(rule)

    def sellable_bundles(self, player, corporation) -> list:
        step = self.round.active_step()
        if step is None or not hasattr(step, "can_sell"):
            return []
        return [b for b in self.bundles_for_corporation(player, corporation)
                if step.can_sell(player, b)]

    def value_for_sellable(self, player, corporation) -> int:
        bundles = self.sellable_bundles(player, corporation)
        return max((b.price for b in bundles), default=0)

    def value_for_dumpable(self, player, corporation) -> int:
        if self.PRESIDENT_SALES_TO_MARKET:
            return self.value_for_sellable(player, corporation)
        bundles = [b for b in self.bundles_for_corporation(player, corporation)
                   if b.can_dump(player) and self.share_pool.fit_in_bank(b)]
        return max((b.price for b in bundles), default=0)

    def liquidity(self, player, emergency: bool = False) -> int:
        """Cash plus what the player could raise selling shares now."""
        if not self.sellable_turn():
            return player.cash
        value = player.cash
        if emergency:
            for corporation, shares in list(player.shares_by_corporation.items()):
                if shares:
                    value += self.value_for_sellable(player, corporation)
            return value
        for corporation, shares in list(player.shares_by_corporation.items()):
            if not shares:
                continue
            if self.SELL_AFTER == "operate" and not corporation.operated():
                continue
            if self.SELL_AFTER == "p_any_operate" and not corporation.operated() and \
                    not corporation.president_of(player):
                continue
            value += self.value_for_dumpable(player, corporation)
        return value

    def buying_power(self, entity, **kw) -> int:
        return entity.cash

    def issuable_shares(self, entity) -> list:
        return []

    def redeemable_shares(self, entity) -> list:
        return []

    def emergency_issuable_bundles(self, corporation) -> list:
        return []

    def emergency_issuable_cash(self, corporation) -> int:
        bundles = self.emergency_issuable_bundles(corporation)
        if not bundles:
            return 0
        return max(bundles, key=lambda b: b.num_shares()).price

    # ------------------------------------------------------------------------------------------
    # corporations closing

    def close_corporations_in_close_cell(self) -> bool:
        if not self.stock_market.has_close_cell:
            return False
        closing = [c for c in self.corporations if not c.closed and c.share_price is not None
                   and c.share_price.type == "close"]
        for c in closing:
            self.close_corporation(c)
        return bool(closing)

    def close_corporation(self, corporation, quiet: bool = False) -> None:
        """A corporation leaves the game: tokens, reservations, trains and shares go."""
        if not quiet:
            self.log(f"{corporation.name} closes")
        for h in self.hexes:
            for city in h.tile.cities:
                if self.CLOSED_CORP_TOKENS_REMOVED:
                    for t in [t for t in city.tokens if t is not None and t.corporation is corporation]:
                        t.remove()
                if self.CLOSED_CORP_RESERVATIONS_REMOVED and city.reserved_by(corporation):
                    city.reservations = [r for r in city.reservations if r is not corporation]
            if self.CLOSED_CORP_RESERVATIONS_REMOVED and corporation in h.tile.reservations:
                h.tile.reservations.remove(corporation)
        corporation.set_cash(0, self.bank)
        if self.CLOSED_CORP_TRAINS_REMOVED:
            for t in corporation.trains:
                t.buyable_ = False
        else:
            for t in list(corporation.trains):
                self.depot.reclaim_train(t)
        for c in list(corporation.companies):
            c.close()
        if self.round.current_entity() is corporation and hasattr(self.round, "force_next_entity"):
            self.round.force_next_entity()
        if corporation.is_corporation:
            for holder in list(corporation.share_holders):
                holder.shares_by_corporation.pop(corporation, None)
            self.share_pool.shares_by_corporation.pop(corporation, None)
            if corporation.share_price and corporation in corporation.share_price.corporations:
                corporation.share_price.corporations.remove(corporation)
            self.corporations.remove(corporation)
        else:
            self.minors.remove(corporation)
        corporation.close()
        self.cert_limit_ = self.init_cert_limit()

    # ------------------------------------------------------------------------------------------
    # bankruptcy

    def can_go_bankrupt(self, player, corporation) -> bool:
        if not self.BANKRUPTCY_ALLOWED:
            return False
        return self.total_emr_buying_power(player, corporation) < self.depot.min_depot_price()

    def total_emr_buying_power(self, player, corporation) -> int:
        power = self.liquidity(player, emergency=True)
        if corporation is not None:
            power += corporation.cash + self.emergency_issuable_cash(corporation)
        return power

    def declare_bankrupt(self, player) -> None:
        if player.bankrupt:
            raise GameError(f"{player.name} is already bankrupt")
        player.bankrupt = True
        if self.CERT_LIMIT_CHANGE_ON_BANKRUPTCY:
            self.cert_limit_ = self.init_cert_limit()

    # ------------------------------------------------------------------------------------------
    # track

    def tile_lays(self, entity) -> tuple:
        return self.TILE_LAYS

    def tile_valid_for_phase(self, tile, hex=None, colors=None) -> bool:
        return tile.color in (colors if colors is not None else self.phase.tiles)

    def upgrades_to(self, old: Tile, new: Tile, special: bool = False,
                    selected_company=None) -> bool:
        """Can ``new`` replace ``old`` (colour, kept track, label, cities and towns)?"""
        if not self.upgrades_to_correct_color(old, new):
            return False
        if not old.paths_are_subset_of(new.paths):
            return False
        if special:
            return True
        if not self.upgrades_to_correct_label(old, new):
            return False
        return self.upgrades_to_correct_city_town(old, new)

    def upgrades_to_correct_color(self, old: Tile, new: Tile) -> bool:
        return COLORS.index(new.color) == COLORS.index(old.color) + 1

    def upgrades_to_correct_label(self, old: Tile, new: Tile) -> bool:
        return old.label == new.label

    def upgrade_ignore_num_cities(self, old: Tile) -> bool:
        return False

    def upgrades_to_correct_city_town(self, old: Tile, new: Tile) -> bool:
        if len(old.towns) != len(new.towns):
            return False
        if not old.label and len(old.cities) != len(new.cities) and \
                not self.upgrade_ignore_num_cities(old):
            return False
        if len(old.cities) > 1 and len(new.cities) > 1 and \
                not old.city_town_edges_are_subset_of(new.city_town_edges()):
            return False
        if old.label and old.cities and not new.cities:
            return False
        if old.color == "white" and old.label and old.label.text == "OO" and \
                len(old.cities) != len(new.cities):
            return False
        return True

    def legal_tile_rotation(self, entity, hex: Hex, tile: Tile) -> bool:
        """Title hook: extra conditions on a tile's orientation."""
        return True

    def upgrade_cost(self, old_tile: Tile, hex: Hex, entity, spender, new_tile: Tile) -> int:
        """Terrain cost of replacing ``old_tile`` on ``hex`` by ``new_tile``, less discounts
        from abilities."""
        if not entity.is_corporation and entity.owner is not None and entity.owner.is_corporation:
            entity = entity.owner
        discounts = [a for a in entity.all_abilities if a.type == "tile_discount"
                     and (not a.opts.get("hexes") or hex.id in a.hexes)]
        discount = sum(a.discount for a in discounts if self.discounts_tile(a, old_tile))
        total = sum(u.cost for u in old_tile.upgrades)
        return total - min(total, discount)

    def discounts_tile(self, ability, tile) -> bool:
        terrain = ability.opts.get("terrain")
        return terrain is None or any(terrain in u.terrains for u in tile.upgrades)

    def tile_cost_with_discount(self, tile, hex, entity, spender, cost: int) -> int:
        return cost

    def update_tile_lists(self, tile: Tile, old_tile: Tile) -> None:
        if tile.unlimited:
            self.add_extra_tile(tile)
        if tile.hex is not None and self.hex_index.get(tile.hex.id) is tile.hex:
            raise GameError(f"cannot lay tile {tile.id}; it is already on hex {tile.hex.id}")
        if tile in self.tiles:
            self.tiles.remove(tile)
        if not old_tile.preprinted:
            self.tiles.append(old_tile)

    def add_extra_tile(self, tile: Tile) -> Tile:
        same = [t for t in self.index["tile"].values() if t.name == tile.name]
        new = max(same, key=lambda t: t.index).copy(max(t.index for t in same) + 1)
        self.tiles.append(new)
        self.index["tile"][new.id] = new
        for c in new.cities:
            self.index["city"][c.id] = c
        return new

    def hex_neighbor_exists(self, entity, hex: Hex, edge: int) -> bool:
        return edge in hex.neighbors

    def clear_graph_for_entity(self, entity) -> None:
        self.graph.clear()

    def graph_for_entity(self, entity) -> Graph:
        return self.graph

    def token_graph_for_entity(self, entity) -> Graph:
        return self.graph

    def city_tokened_by(self, city, entity) -> bool:
        return city.tokened_by(entity)

    # ------------------------------------------------------------------------------------------
    # tokens

    def home_token_locations(self, corporation) -> list:
        raise NotImplementedError

    def place_home_token(self, corporation) -> None:
        """Put the corporation's first token on its home city (if not yet placed)."""
        if corporation.next_token() is None:
            return
        if corporation.tokens and corporation.tokens[0].used:
            return
        hex = self.hex_by_id(corporation.coordinates) if corporation.coordinates else None
        tile = hex.tile if hex else None
        if tile is None or (tile.reserved_by(corporation) and tile.paths):
            pending = getattr(self.round, "pending_tokens", None)
            if pending is None:
                return
            if any(p["entity"] is corporation for p in pending):
                self.round.clear_cache()
                return
            hexes = [hex] if hex else self.home_token_locations(corporation)
            if not hexes:
                return
            self.log(f"{corporation.name} must choose city for home token")
            pending.append({"entity": corporation, "hexes": hexes,
                            "token": corporation.find_token_by_type()})
            self.round.clear_cache()
            return
        city = next((c for c in tile.cities if c.reserved_by(corporation)), None) or tile.cities[0]
        token = corporation.find_token_by_type()
        if city.tokenable(corporation, [token], same_hex_allowed=False):
            self.log(f"{corporation.name} places a token on {hex.id}")
            city.place_token(corporation, token)
        elif self.home_token_can_be_cheater():
            self.log(f"{corporation.name} places a token on {hex.id}")
            city.place_token(corporation, token, cheater=True)

    def home_token_can_be_cheater(self) -> bool:
        return False

    # ------------------------------------------------------------------------------------------
    # trains

    def train_limit(self, entity) -> int:
        extra = sum(a.increase for a in self.abilities(entity, "train_limit"))
        return self.phase.train_limit(entity) + extra

    def num_corp_trains(self, entity) -> int:
        if self.OBSOLETE_TRAINS_COUNT_FOR_LIMIT:
            return len(entity.trains)
        return sum(1 for t in entity.trains if not t.obsolete)

    def crowded_corps(self) -> list:
        if self.crowded_corps_cache is None:
            self.crowded_corps_cache = [c for c in self.minors + self.corporations
                                        if self.num_corp_trains(c) > self.train_limit(c)]
        return self.crowded_corps_cache

    def buy_train(self, operator, train: Train, price=None) -> None:
        """``operator`` takes ``train``, paying ``price`` (face value if None) to its owner."""
        if price != "free":
            amount = price if price is not None else train.price
            operator.spend(amount, train.owner)
        self.remove_train(train)
        train.owner = operator
        operator.trains.append(train)
        self.crowded_corps_cache = None
        self.close_companies_on_event(operator, "bought_train")

    def remove_train(self, train: Train) -> None:
        owner = train.owner
        if owner is None:
            return
        if train.from_depot():
            self.depot.remove_train(train)
            return
        if train in owner.trains:
            owner.trains.remove(train)
        self.crowded_corps_cache = None

    def rust(self, train: Train) -> None:
        train.rusted = True
        self.remove_train(train)
        train.owner = None

    def rust_check(self, train: Train, purchased: Train) -> bool:
        rusts_on = train.rusts_on
        rusts = rusts_on == purchased.sym if isinstance(rusts_on, str) else \
            bool(rusts_on) and purchased.sym in rusts_on
        return rusts or (train.obsolete_on == purchased.sym and train in self.depot.discarded)

    def obsolete_check(self, train: Train, purchased: Train) -> bool:
        return train.obsolete_on == purchased.sym

    def rust_trains(self, purchased: Train, entity) -> None:
        """Trains that rust or become obsolete when ``purchased`` is bought."""
        trains = self.depot.trains
        for t in trains:
            if not t.obsolete and self.obsolete_check(t, purchased):
                t.obsolete = True
        rusted = []
        for t in list(trains):
            if t.rusted or not self.rust_check(t, purchased):
                continue
            rusted.append(t.name)
            self.rust(t)
        self.crowded_corps_cache = None
        if rusted:
            self.log(f"-- Event: {', '.join(dict.fromkeys(rusted))} trains rust --")

    def after_buying_train(self, train, source) -> None:
        pass

    def transfer_trains(self, source, target) -> list:
        moved = list(source.trains)
        for t in moved:
            t.owner = target
            target.trains.append(t)
        source.trains.clear()
        self.crowded_corps_cache = None
        return moved

    def discountable_trains_for(self, corporation) -> list:
        """(owned train, depot train, variant name, price) for every trade-in on offer."""
        candidates = [t for t in self.depot.depot_trains()
                      if t.discount or any(v.get("discount") for v in t.variants.values())]
        out = []
        for train in corporation.trains:
            for dt in candidates:
                price = dt.price_for(train)
                if dt.price > price:
                    out.append((train, dt, dt.name, price))
                for vname, v in dt.variants.items():
                    if vname == dt.name:
                        continue
                    vprice = dt.price_for(train, v)
                    if v["price"] > vprice:
                        out.append((train, dt, vname, vprice))
        return out

    def must_buy_train(self, entity) -> bool:
        if entity.trains or not self.depot.depot_trains():
            return False
        if self.MUST_BUY_TRAIN == "always":
            return True
        if self.MUST_BUY_TRAIN == "route":
            info = self.graph.route_info(entity)
            return bool(info and info.get("route_train_purchase"))
        return False

    def can_run_route(self, entity) -> bool:
        info = self.graph_for_entity(entity).route_info(entity)
        return bool(info and info.get("route_available"))

    def route_trains(self, entity) -> list:
        return entity.runnable_trains()

    def train_owner(self, train):
        return train.owner

    def president_assisted_buy(self, entity, train, price) -> tuple:
        return (0, 0)

    def after_end_of_operating_turn(self, operator) -> None:
        pass

    # ------------------------------------------------------------------------------------------
    # revenue

    def routes_revenue(self, routes) -> int:
        return sum(r.revenue for r in routes)

    def routes_subsidy(self, routes) -> int:
        return 0

    def extra_revenue(self, entity, routes) -> int:
        return 0

    def revenue_for(self, route, stops) -> int:
        """Revenue of ``stops`` for the route's train in the current phase."""
        colors = route.phase.tiles
        train = route.train
        return sum(self.stop_revenue(stop, colors, train) for stop in stops)

    def stop_revenue(self, stop, colors, train) -> int:
        multiplier = train.multiplier or 1
        distance = train.distance
        if not isinstance(distance, int):
            row = next((h for h in distance if stop.type in h["nodes"]), None)
            if row is not None:
                multiplier = row.get("multiplier", multiplier)
        if train.name.upper() == "D" and "diesel" in stop.revenue:
            return multiplier * stop.revenue["diesel"]
        return multiplier * stop.revenue_in(colors)

    def compute_stops(self, route) -> list:
        return best_stops(route, self.revenue_stops(route))

    def revenue_stops(self, route) -> list:
        return route.visited_stops()

    def stop_type(self, stop, train) -> str:
        return stop.type

    def route_distance(self, route) -> int:
        return sum(s.visit_cost for s in route.visited_stops())

    def revenue_str(self, route) -> str:
        return "-".join(h.id for h in route.hexes())

    def check_route_token(self, route, token) -> None:
        if token is None:
            raise RouteError("route must contain a token of the company")

    def check_other(self, route) -> None:
        pass

    def check_route_combination(self, routes) -> None:
        pass

    def skip_route_track_type(self, train):
        return None

    def check_distance(self, route, visits) -> None:
        """Raise unless the train reaches every stop of the route."""
        train = route.train
        distance = train.distance
        if isinstance(distance, int):
            used = sum(v.visit_cost for v in visits)
            if used > distance:
                raise RouteError(f"{used} is too many stops for a {distance} train")
            return
        info: dict = {}
        rows = []
        for h in distance:
            row = {"pay": h["pay"], "visit": h.get("visit", h["pay"])}
            rows.append(row)
            for t in h["nodes"]:
                info.setdefault(t, []).append(row)
        grouped: dict = {}
        for v in visits:
            grouped.setdefault(self.stop_type(v, train), []).append(v)
        for t, group in sorted(grouped.items(), key=lambda kv: len(info.get(kv[0], []))):
            num = sum(v.visit_cost for v in group)
            for row in info.get(t, []):
                if row["visit"] <= 0:
                    continue
                if num <= row["visit"]:
                    row["visit"] -= num
                    num = 0
                else:
                    num -= row["visit"]
                    row["visit"] = 0
                if num <= 0:
                    break
            if num > 0:
                raise RouteError("route has too many stops")

    def check_overlap(self, routes) -> None:
        """No two routes of a company may share track (the pieces ``route_track_keys``
        names)."""
        used = set()
        for route in routes:
            for path in route.paths:
                for key in self.route_track_keys(path):
                    if key in used:
                        raise RouteError(f"route cannot reuse track on {key[0]}")
                    used.add(key)

    # -- the route finder (tracklayer.routes.finder) asks these; titles whose routes follow
    # -- other rules override them together with the checks above, so the two agree

    def route_path_allowed(self, train, path) -> bool:
        """May ``train`` run on track ``path``? (Default: unless its gauge is the one
        ``skip_route_track_type`` excludes.)"""
        skip = self.skip_route_track_type(train)
        return skip is None or path.track != skip

    def route_distance_limits(self, train) -> Dict[str, int]:
        """How far ``train`` may run, as limits on named measures; must agree with
        ``check_distance``. Default: stops counted by ``visit_cost`` against the train's
        distance (per kind of stop for trains like 8+x)."""
        from ..routes.finder import standard_distance_limits
        return standard_distance_limits(train)

    def route_stop_distance(self, train, stop) -> Dict[str, int]:
        """What stopping at ``stop`` uses of each measure of ``route_distance_limits``."""
        from ..routes.finder import standard_stop_distance
        return standard_stop_distance(train, self.stop_type(stop, train), stop.visit_cost)

    def route_chain_distance(self, train, paths) -> Optional[Dict[str, int]]:
        """What running along ``paths`` (track between two stops, in either direction) uses
        of each measure, or None if ``train`` may not run along it. Default: nothing."""
        return {}

    def route_track_keys(self, path) -> list:
        """The pieces of track ``path`` occupies: its hex sides (by lane), a town it leaves
        by other than the town's preferred side, and the path itself when it joins two
        stops. No two paths of a company's routes may hold the same key."""
        hid = path.tile.hex.id
        a, b = path.a, path.b
        keys: list = []
        if a.is_edge:
            keys.append((hid, a.num, path.lanes[0][1]))
        if b.is_edge:
            keys.append((hid, b.num, path.lanes[1][1]))
        for town, edge, lane in ((a, b, path.lanes[0][1]), (b, a, path.lanes[1][1])):
            if edge.is_edge and town.is_node and town.is_town:
                pref = path.tile.preferred_city_town_edges().get(town)
                if pref is not None and pref != edge.num:
                    keys.append((hid, id(town), lane))
        if len(path.nodes) > 1:
            keys.append((hid, id(path)))
        return keys

    def route_revenue_bonus_bound(self, entity, train) -> int:
        """An upper bound of what ``revenue_for`` adds to a route of ``train`` beyond the sum
        of its stops' ``stop_revenue`` (titles with route bonuses override this)."""
        return 0

    def graph_extra_start_nodes(self, entity) -> list:
        return []

    def graph_skip_paths(self, entity):
        return None

    # ------------------------------------------------------------------------------------------
    # inspection

    @property
    def bank_cash(self) -> int:
        return self.bank.cash

    def all_corporations(self) -> list:
        return self.corporations
