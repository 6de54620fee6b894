"""1893: Cologne.

What differs from the base rules:

* A *starting package* of three privates and five minors is drafted at face value; only the
  two lowest-numbered minors are on offer at a time. If everyone passes, the rest is sold in
  a forced auction (price falling by 10 each time all pass) before a later stock round.
* Minors pay half their revenue to their owner and need not own a train.
* Corporations float at 50% sold, receive ten times their price, and shares sold go to the
  market; shares in the market pay nothing to the corporation.
* AGV (minors 1, 3, 5) and HGK (minors 2, 4 and the HdSK private) form in *merger rounds*
  by shareholder vote, or automatically a phase later; they start with 400.
* City bonds (AdSK) are bought and sold in stock rounds and pay 10 each.
* The Rhine can be crossed only at Köln (L5) and Bonn (S6) until the 3-train, and N5/P5 are
  blocked until then; Leverkusen's two towns become one city in green.
"""

from __future__ import annotations

from ...engine.actions import Item
from ...engine.errors import GameError
from ...engine.game import Game
from ...engine.round import DraftRound, OperatingRound, StockRound
from ...engine.shares import move_share
from ...engine.step import Step
from ...engine.steps.operate import Dividend, MinorHalfPay, RouteStep
from ...engine.steps.shares import BuySellParShares
from ...engine.steps.token import HomeToken, Token
from ...engine.steps.track import Track
from ...engine.steps.trains import Bankrupt, BuyCompany, BuyTrain, DiscardTrain
from . import data


class G1893(Game):
    TITLE = "1893"
    PLAYER_RANGE = (2, 4)
    OPTIONAL_RULES = data.OPTIONAL_RULES
    CURRENCY_FORMAT = "{}M"
    BANK_CASH = data.BANK_CASH
    CERT_LIMIT = data.CERT_LIMIT
    STARTING_CASH = data.STARTING_CASH
    CAPITALIZATION = "full"
    MUST_SELL_IN_BLOCKS = False
    GAME_END_CHECK = {"bankrupt": "immediate", "bank": "full_or"}
    SELL_MOVEMENT = "down_block"
    SELL_AFTER = "operate"
    SELL_BUY_ORDER = "sell_buy"
    TRACK_RESTRICTION = "semi_restrictive"
    ALL_COMPANIES_ASSIGNABLE = True
    LAYOUT = "flat"
    AXES = {"x": "number", "y": "letter"}
    LOCATION_NAMES = data.LOCATION_NAMES
    TILES = data.TILES
    MARKET = data.MARKET
    PHASES = data.PHASES
    TRAINS = data.TRAINS
    CORPORATIONS = data.CORPORATIONS
    MINORS = data.MINORS
    COMPANIES = data.COMPANIES

    # ------------------------------------------------------------------------------------------
    # set-up

    def game_hexes(self) -> dict:
        return data.hexes("optional_existing_track" in self.optional_rules)

    def num_trains(self, spec: dict) -> int:
        if spec["name"] == "2":
            return 8 if "optional_2_train" in self.optional_rules else 7
        return super().num_trains(spec)

    def optional_tiles(self) -> None:
        grey = "optional_grey_phase" in self.optional_rules
        self.remove_tiles(data.TILES_NOT_GREY_PHASE if grey else data.TILES_GREY_PHASE)
        if "optional_existing_track" not in self.optional_rules:
            self.remove_tiles(data.TILES_EXISTING_TRACK)

    def setup(self) -> None:
        self.agv = self.corporation_by_id("AGV")
        self.hgk = self.corporation_by_id("HGK")
        self.rag = self.corporation_by_id("RAG")
        self.fdsd = self.company_by_id("FdSD")
        self.eva = self.company_by_id("EVA")
        self.hdsk = self.company_by_id("HdSK")
        for info in self.all_reserved_shares():
            info["share"].buyable = False
        self.reserved_share("KFBE")["share"].double_cert = True
        self.reserved_share("BKB")["share"].double_cert = True
        for c in self.companies:
            c.owner = self.bank
            self.bank.companies.append(c)
        for minor in self.minors:
            city = self.hex_by_id(minor.coordinates).tile.cities[0]
            city.place_token(minor, minor.next_token())
        # A neutral token makes Köln-Deutz (H5) passable but never blocked.
        from ...engine.entities import Corporation
        self.neutral = Corporation("N", "Neutral", tokens=[0])
        self.neutral.owner = self.bank
        for t in self.neutral.tokens:
            t.type = "neutral"
        self.city_by_id("H5-0-0").place_token(self.neutral, self.neutral.next_token())
        # The HGK home in J5 is occupied from the start.
        self.city_by_id("J5-0-0").place_token(self.hgk, self.hgk.next_token())
        self.passers_first_stock_round: list = []
        self.after_merger_round = None
        self.agv_mergable = self.hgk_mergable = False
        self.agv_auto_found = self.hgk_auto_found = False
        self.fdsd_to_close = False
        self.potential_discard_trains: list = []
        self.merger_count = 0

    # -- starting package ----------------------------------------------------------------------

    def bond(self, company) -> bool:
        return company.is_company and company.sym.startswith("AdSK")

    def private(self, company) -> bool:
        return company.is_company and company.sym in data.PRIVATES

    def minor_proxy(self, company) -> bool:
        return company.is_company and company.sym in data.MINOR_PROXIES

    def buyable_bank_owned_companies(self) -> list:
        """Bank-owned privates and minors, and the lowest-numbered bond left."""
        owned, bonds = [], []
        bank = self.bank
        for c in self.companies:
            if c.owner is bank and not c.closed:
                (bonds if self.bond(c) else owned).append(c)
        return owned + bonds[:1]

    def draftables(self) -> list:
        """Privates always; of the minors, only the two lowest numbered."""
        items = [c for c in self.buyable_bank_owned_companies() if not self.bond(c)]
        privates = [c for c in items if self.private(c)]
        minors = [c for c in items if not self.private(c)]
        return privates + minors[:2]

    def draft_object(self, company, player, price: int, forced: bool = False) -> None:
        """``player`` buys a starting-package certificate; a minor floats with the price
        (at least 100) as its treasury."""
        player.spend(price, self.bank)
        self.log(f"{player.name} {'is forced to buy' if forced else 'buys'} {company.name} for "
                 f"{self.format_currency(price)}")
        owner = company.owner
        if owner is not None and company in getattr(owner, "companies", []):
            owner.companies.remove(company)
        company.owner = player
        player.companies.append(company)
        if self.minor_proxy(company):
            minor = self.minor_by_id(company.sym)
            minor.owner = player
            minor.float()
            self.bank.spend(max(price, 100), minor)

    def purchasable_companies(self, entity=None) -> list:
        """Only EVA changes hands between players."""
        eva = self.eva
        if eva.closed or eva.owner is self.bank or eva.owner is entity:
            return []
        return [eva]

    def all_corporations(self) -> list:
        return self.minors + self.corporations

    # -- reserved shares of the merged corporations ---------------------------------------

    def reserved_share(self, sym: str) -> dict:
        """What a minor (or HdSK) is exchanged for when AGV/HGK forms."""
        agv, hgk = self.agv, self.hgk
        table = {
            "HdSK": (hgk.all_shares[1], None, self.hdsk),
            "EKB": (agv.all_shares[0], "EKB", "EKB"),
            "KFBE": (hgk.all_shares[2], "KFBE", "KFBE"),
            "KSZ": (agv.all_shares[1], "KSZ", "KSZ"),
            "KBE": (hgk.all_shares[0], "KBE", "KBE"),
            "BKB": (agv.all_shares[2], "BKB", "BKB"),
        }
        share, minor, company = table[sym]
        minor = self.minor_by_id(minor) if minor else None
        company = company if not isinstance(company, str) else self.company_by_id(company)
        return {"share": share, "minor": minor, "company": company,
                "name": minor.full_name if minor else company.name}

    def all_reserved_shares(self) -> list:
        return [self.reserved_share(s) for s in ("HdSK", "EKB", "KFBE", "KSZ", "KBE", "BKB")]

    def mergers_agv(self) -> list:
        return [self.reserved_share(s) for s in ("EKB", "KSZ", "BKB")]

    def mergers_hgk(self) -> list:
        return [self.reserved_share(s) for s in ("KBE", "HdSK", "KFBE")]

    def mergers(self, target) -> list:
        infos = self.mergers_agv() if target is self.agv else self.mergers_hgk()
        return [i["minor"] or i["company"] for i in infos]

    def move_buyable_shares_to_market(self, corporation) -> None:
        for s in list(corporation.all_shares):
            if s.buyable and s.owner is corporation:
                self.share_pool.transfer_shares(s.to_bundle(), self.share_pool, price=0,
                                                allow_president_change=False)

    def found_agv(self) -> None:
        self.agv_mergable = False
        self.agv_auto_found = False
        self.form_mergable(self.agv, self.mergers_agv())

    def found_hgk(self) -> None:
        self.hgk_mergable = False
        self.hgk_auto_found = False
        self.form_mergable(self.hgk, self.mergers_hgk())

    def form_mergable(self, target, exchange_info: list) -> None:
        """AGV or HGK forms: 400 from the bank; each minor's owner gets its reserved
        certificate; the minors' cash, trains and tokens pass to the new corporation."""
        self.log(f"{target.name} receives {self.format_currency(400)} from the bank")
        self.bank.spend(400, target)
        target.floatable = True
        priority = []
        president_share = None
        for info in exchange_info:
            share, company, minor = info["share"], info["company"], info["minor"]
            player = company.owner
            if share.president:
                president_share = share
            share.buyable = True
            self.share_pool.transfer_shares(share.to_bundle(), player,
                                            allow_president_change=False, price=0)
            priority.append(player)
            company.close()
            if minor is None:
                continue
            if minor.cash > 0:
                minor.spend(minor.cash, target)
            if minor.trains:
                self.transfer_trains(minor, target)
            token = minor.tokens[0]
            city = token.city
            city.remove_reservation(minor)
            token.remove()
            city.place_token(target, target.next_token(), free=True)
            minor.close()
        holders = target.player_share_holders()
        top = max(holders.values())
        majority = [h for h, p in holders.items() if p == top]
        if president_share.owner in majority:
            target.owner = president_share.owner
        else:
            majority.sort(key=lambda p: priority.index(p) if p in priority else 10 ** 9)
            new_president = majority[0]
            target.owner = new_president
            for s in self.shares_for_presidency_swap(list(new_president.shares_of(target)), 2):
                move_share(s, president_share.owner)
            move_share(president_share, new_president)
        target.ipoed = True
        self.log(f"-- {target.name} is founded and floats")
        if target.trains:
            self.potential_discard_trains.append(target)

    def shares_for_presidency_swap(self, shares: list, num_shares: int) -> list:
        """A 20% certificate counts as two shares when the presidency changes hands."""
        double = next((s for s in shares if s.double_cert), None)
        if double is None:
            return super().shares_for_presidency_swap(shares, num_shares)
        if len(shares) <= num_shares:
            return [double]
        return super().shares_for_presidency_swap([s for s in shares if s is not double],
                                                  num_shares)

    def close_fdsd(self) -> None:
        self.fdsd.close()
        self.log(f"{self.fdsd.name} closed")
        self.fdsd_to_close = False

    # -- events ------------------------------------------------------------------------------

    def event_remove_tile_block(self) -> None:
        self.log("The tile block in N5 and P5 is now removed")
        for h in self.hexes:
            if h.id in data.TILE_BLOCK:
                h.tile.icons = []

    def event_agv_buyable(self) -> None:
        price = next(p for p in self.stock_market.par_prices if p.price == 120)
        self.stock_market.set_par(self.agv, price)
        self.move_buyable_shares_to_market(self.agv)
        self.agv_mergable = True
        self.remove_ability(self.agv, "no_buy")
        self.agv.ipoed = True

    def event_agv_founded(self) -> None:
        self.agv_mergable = False
        if self.agv.presidents_share.buyable:
            return
        self.agv_auto_found = True

    def event_hgk_buyable(self) -> None:
        price = next(p for p in reversed(self.stock_market.par_prices) if p.price == 120)
        self.stock_market.set_par(self.hgk, price)
        self.move_buyable_shares_to_market(self.hgk)
        self.hgk_mergable = True
        self.remove_ability(self.hgk, "no_buy")
        self.hgk.ipoed = True

    def event_hgk_founded(self) -> None:
        self.hgk_mergable = False
        if self.hgk.presidents_share.buyable:
            return
        self.hgk_auto_found = True

    def event_fdsd_closed(self) -> None:
        if self.fdsd.closed:
            return
        self.fdsd_to_close = True

    def event_eva_closed(self) -> None:
        self.log(f"{self.eva.name} closed")
        self.eva.close()

    def remove_ability(self, entity, type_: str) -> None:
        for a in self.abilities(entity, type_):
            entity.remove_ability(a)

    # -- rules ---------------------------------------------------------------------------------

    def buyable(self, corporation) -> bool:
        """Shares of AGV/HGK cannot be bought before their phase."""
        if not corporation.is_corporation:
            return True
        return not any(a.type == "no_buy" for a in corporation.all_abilities)

    def can_par(self, corporation, parrer) -> bool:
        if corporation is self.rag and parrer is self.fdsd.owner and not corporation.ipoed:
            return True  # FdSD can pay for starting RAG
        if parrer.cash < 120:
            return False
        return super().can_par(corporation, parrer)

    def liquidity(self, player, emergency: bool = False) -> int:
        value = super().liquidity(player, emergency)
        if not self.sellable_turn():
            return value
        return value + 100 * sum(1 for c in player.companies if self.bond(c))

    def must_buy_train(self, entity) -> bool:
        if entity.is_minor:
            return False
        return super().must_buy_train(entity)

    def president_assisted_buy(self, entity, train, price) -> tuple:
        """The owner of a trainless minor pays what it lacks for its first train."""
        if entity.is_corporation or entity.trains or price <= entity.cash or \
                entity.player.cash + entity.cash < price:
            return super().president_assisted_buy(entity, train, price)
        return (price - entity.cash, 0)

    def legal_tile_rotation(self, entity, hex, tile) -> bool:
        if hex.id == data.LEVERKUSEN and tile.name == data.LEVERKUSEN_GREEN_TILE:
            return True
        if hex.tile.stubs and not all(s.edge in tile.exits for s in hex.tile.stubs):
            return False
        if self.phase.name != "2" or hex.id not in data.RHINE_PASSAGE:
            return True
        water = [b.edge for b in hex.tile.borders if b.type == "water"]
        return not any(e in tile.exits for e in water)

    def upgrades_to(self, old, new, special=False, selected_company=None) -> bool:
        if old.color == "yellow" and old.hex is not None and old.hex.id == data.LEVERKUSEN:
            return new.name == data.LEVERKUSEN_GREEN_TILE
        if old.hex is not None and old.hex.id in data.TILE_BLOCK and old.icons:
            raise GameError(f"cannot place a tile in {old.hex.id} until the green phase")
        return super().upgrades_to(old, new, special, selected_company)

    # ------------------------------------------------------------------------------------------
    # rounds

    def init_round(self):
        return DraftRound(self, [StartingPackageInitialAuction])

    def new_auction_round(self):
        return DraftRound(self, [StartingPackageForcedAuction])

    def stock_round(self):
        return StockRound(self, [DiscardTrain, G1893BuySellParShares])

    def new_operating_round(self, round_num: int = 1):
        self.passers_first_stock_round = []
        return super().new_operating_round(round_num)

    def operating_round(self, round_num: int):
        return OperatingRound(self, [Bankrupt, DiscardTrain, HomeToken, G1893BuyCompany, G1893Track,
                                     Token, RouteStep, G1893Dividend, G1893BuyTrain],
                              round_num=round_num)

    def new_merger_round(self, count: int):
        self.merger_count = count
        return MergerRound(self, [PotentialDiscardTrainsAfterMerge, MergerVote])

    def next_round(self) -> None:
        r = self.round
        if isinstance(r, MergerRound):
            after = self.after_merger_round
            if after == "operating_round_first":
                self.round = self.new_operating_round()
            elif after == "operating_round_second":
                self.round = self.new_operating_round(r.round_num + 1)
            elif after == "stock_round":
                self.turn += 1
                self.round = self.new_stock_round()
            else:
                self.turn += 1
                self.round = self.new_auction_round()
        elif r.is_stock:
            self.operating_rounds = self.phase.operating_rounds
            self.reorder_players()
            if self.hgk.floated():
                self.round = self.new_operating_round()
            else:
                self.after_merger_round = "operating_round_first"
                self.round = self.new_merger_round(1)
        elif r.is_operating:
            self.or_round_finished()
            if self.hgk.floated() and r.round_num < self.operating_rounds:
                self.round = self.new_operating_round(r.round_num + 1)
            elif r.round_num < self.operating_rounds:
                self.after_merger_round = "operating_round_second"
                self.round = self.new_merger_round(2)
            elif self.hgk.floated():
                self.turn += 1
                self.round = self.new_stock_round()
            else:
                self.or_set_finished()
                self.after_merger_round = "stock_round" if not self.draftables() \
                    else "auction_round"
                self.round = self.new_merger_round(3)
        else:
            self.reorder_player_pass_order()
            left = sum(1 for c in self.buyable_bank_owned_companies() if not self.bond(c))
            self.round = self.new_stock_round() if left <= 1 else self.new_operating_round()

    def reorder_player_pass_order(self) -> None:
        """After the draft the last to buy is followed; if all passed, the first to pass
        gets the priority deal."""
        if len(self.passers_first_stock_round) < len(self.players):
            return self.reorder_players()
        first = self.passers_first_stock_round[0]
        i = self.players.index(first)
        self.players[:] = self.players[i:] + self.players[:i]
        self.log(f"{first.name} has priority deal due to being first to pass")


# ----------------------------------------------------------------------------------------------
# Starting package


class StartingPackageInitialAuction(Step):
    """Players in turn buy a private or one of the two lowest minors at face value, or pass
    for the rest of this draft."""

    def setup(self) -> None:
        pass

    def description(self) -> str:
        return "Draft"

    def finished(self) -> bool:
        game = self.game
        return len(game.draftables()) == 1 or \
            len(game.passers_first_stock_round) == len(game.players)

    def actions(self, entity):
        if self.finished():
            return []
        return ["bid", "pass"] if entity is self.current_entity() else []

    def process_bid(self, action) -> None:
        game = self.game
        company = action.target
        if company not in game.draftables():
            raise GameError(f"{company.name if company else '?'} cannot be bought now")
        if action.price != company.value:
            raise GameError(f"{company.name} costs {game.format_currency(company.value)}")
        game.draft_object(company, action.entity, action.price)
        self.action_finalized()

    def process_pass(self, action) -> None:
        self.game.log(f"{action.entity.name} passes")
        self.game.passers_first_stock_round.append(action.entity)
        self.action_finalized()

    def action_finalized(self) -> None:
        self.round.next_entity_index()
        if self.finished():
            return
        entity = self.round.entities[self.round.entity_index]
        if entity in self.game.passers_first_stock_round:
            self.action_finalized()


class StartingPackageForcedAuction(Step):
    """What is left of the starting package is auctioned: a player picks an item; each
    player in turn buys it at the current price or passes; when all pass the price drops by
    10, down to half its value, when the one who picked it must buy it."""

    REDUCTION = 10

    def setup(self) -> None:
        self.auction_triggerer = None
        self.auctioning = None
        self.green_train_holder = self.game.players[0]

    def description(self) -> str:
        return "Auction of the rest of the starting package"

    def available(self) -> list:
        return [self.auctioning] if self.auctioning is not None else self.game.draftables()

    def actions(self, entity):
        if not self.available() or entity is not self.current_entity():
            return []
        if self.auctioning is None:
            return ["bid"]
        if self.auctioning.min_bid > entity.cash:
            return []
        return ["bid", "pass"]

    def process_bid(self, action) -> None:
        target = action.target
        if self.auctioning is not None:
            return self.purchase(action.entity, target, action.price)
        if target not in self.game.draftables():
            raise GameError(f"{target.name if target else '?'} cannot be auctioned")
        self.auction_triggerer = action.entity
        self.game.log(f"{action.entity.name} selects {target.name} for auction")
        self.auctioning = target
        self.next_entity()

    def process_pass(self, action) -> None:
        if self.auctioning is None:
            return
        target = self.auctioning
        action.entity.pass_()
        self.game.log(f"{action.entity.name} passes on {target.name}")
        if self.all_passed(target):
            return
        self.next_entity()

    def all_passed(self, target) -> bool:
        if target is None:
            return True
        if not all(e.passed for e in self.round.entities):
            return False
        if target.value // 2 >= target.min_bid:
            self.force_purchase(self.auction_triggerer, target)
        else:
            target.discount += self.REDUCTION
            self.game.log(f"Price of {target.name} is now lowered to "
                          f"{self.game.format_currency(target.min_bid)}")
            for e in self.round.entities:
                e.unpass()
            self.next_entity()
        return True

    def next_entity(self) -> None:
        self.round.next_entity_index()
        entities = self.round.entities
        entity = entities[self.round.entity_index]
        if entity is None:
            return
        if self.all_passed(self.auctioning) or not (entity.passed or not self.actions(entity)):
            return
        entity.pass_()
        self.game.log(f"{entity.name} is forced to pass on {self.auctioning.name}: it costs "
                      f"more than their cash")
        self.next_entity()

    def purchase(self, bidder, target, price: int) -> None:
        game = self.game
        if target is not self.auctioning or target not in game.buyable_bank_owned_companies():
            raise GameError(f"{target.name if target else '?'} is not being auctioned")
        if price != target.min_bid:
            raise GameError(f"{target.name} costs {game.format_currency(target.min_bid)} now")
        game.draft_object(target, bidder, price)
        self.reset_auction(bidder, target)

    def force_purchase(self, bidder, target) -> None:
        price = target.min_bid
        buyer, price = self.forced_purchaser(target, bidder, price, bidder)
        self.game.draft_object(target, buyer, price, forced=True)
        self.reset_auction(buyer, target)

    def forced_purchaser(self, target, candidate, price, first):
        """The one who picked the item buys it; if they cannot afford it, the next player
        who can; if nobody can, the picker pays all their cash."""
        if price <= candidate.cash:
            return candidate, price
        entities = self.round.entities
        nxt = entities[(entities.index(candidate) + 1) % len(entities)]
        if nxt is first:
            return first, first.cash
        if price <= nxt.cash:
            return nxt, price
        return self.forced_purchaser(target, nxt, price, first)

    def reset_auction(self, winner, target) -> None:
        self.auctioning = None
        for e in self.round.entities:
            e.unpass()
        if not self.available():
            players = self.game.players
            i = players.index(self.green_train_holder)
            players[:] = players[i:] + players[:i]
            self.round.reset_entity_index()
        else:
            self.round.goto_entity(self.auction_triggerer)
            self.auction_triggerer = None
            self.next_entity()


# ----------------------------------------------------------------------------------------------
# Stock round


class G1893BuySellParShares(BuySellParShares):
    """1893's stock round: bonds and starting-package items are bought like certificates;
    FdSD can be exchanged for RAG shares; nobody sells in the first stock round."""

    def setup(self) -> None:
        super().setup()
        self.par_rag = None

    def actions(self, entity):
        game = self.game
        if entity is game.fdsd and game.rag.ipoed:
            return ["buy_shares", "pass"]
        if entity is None or not entity.is_player:
            return []
        if self.available_subsidiaries(entity):
            return ["assign", "pass"]
        if self.first_sr_passed(entity):
            return []
        result = super().actions(entity)
        if result == ["buy_company", "pass"]:
            result = []
        can_buy_company = self.can_buy_company(entity)
        if can_buy_company:
            result += ["buy_company", "pass"]
        if self.can_exchange(entity):
            result += ["buy_shares", "pass"]
        if self.can_sell_any_companies(entity):
            result += ["sell_company", "pass"]
        if can_buy_company:
            result += ["buy_corporation", "pass"]
        return result

    def first_sr_passed(self, entity) -> bool:
        return self.game.turn == 1 and entity in self.game.passers_first_stock_round

    def can_buy_company(self, player, company=None) -> bool:
        game = self.game
        if self.first_sr_passed(player) or game.num_certs(player) >= game.cert_limit():
            return False
        if company is not None:
            return self.buyable_company(player, company)
        return any(self.buyable_company(player, c) for c in game.buyable_bank_owned_companies())

    def buyable_company(self, player, company) -> bool:
        if self.first_sr_passed(player) or self.bought():
            return False
        if self.game.bond(company) and self.sold_map(player).get("bond"):
            return False
        return player.cash >= company.value

    def can_sell_any_companies(self, entity) -> bool:
        if self.first_sr_passed(entity):
            return False
        return bool(self.sellable_companies(entity)) and not self.bought()

    def sellable_companies(self, entity) -> list:
        if self.game.turn <= 1 or not entity.is_player:
            return []
        return [c for c in entity.companies if self.game.bond(c)]

    def can_buy(self, entity, bundle) -> bool:
        if self.first_sr_passed(entity) or bundle is None:
            return False
        if not self.game.buyable(bundle.corporation):
            return False
        if self.rag_exchangable(entity, bundle.corporation) and not self.bought():
            return True
        return super().can_buy(entity, bundle)

    def can_sell(self, entity, bundle) -> bool:
        if self.first_sr_passed(entity) or bundle is None or self.game.turn == 1:
            return False
        return super().can_sell(entity, bundle) and self.game.buyable(bundle.corporation)

    def can_gain(self, entity, bundle, exchange: bool = False) -> bool:
        if self.first_sr_passed(entity) or bundle is None:
            return False
        if exchange and not self.rag_exchangable(entity, bundle.corporation):
            return False
        return super().can_gain(entity, bundle, exchange) and \
            self.game.buyable(bundle.corporation)

    def can_exchange(self, entity) -> bool:
        if self.first_sr_passed(entity):
            return False
        return not self.bought() and self.exchange_ability(entity) is not None and \
            self.game.rag.num_market_shares() > 0

    def exchange_ability(self, player):
        fdsd = self.game.fdsd
        if fdsd.closed or fdsd.owner is not player:
            return None
        return fdsd

    def rag_exchangable(self, player, corporation) -> bool:
        return corporation is self.game.rag and self.exchange_ability(player) is not None

    def available_subsidiaries(self, entity) -> list:
        if self.par_rag is None or self.par_rag.entity is not entity:
            return []
        fdsd = self.exchange_ability(entity)
        return [fdsd] if fdsd else []

    def get_par_prices(self, entity, corporation) -> list:
        if self.rag_exchangable(entity, corporation):
            prices = self.game.stock_market.par_prices
        else:
            prices = super().get_par_prices(entity, corporation)
        return [p for p in prices if p.price != 120]

    # -- processing ----------------------------------------------------------------------

    def process_pass(self, action) -> None:
        if self.game.turn == 1:
            self.game.passers_first_stock_round.append(action.entity)
        super().process_pass(action)

    def pass_(self) -> None:
        if self.par_rag is not None:
            self.game.log(f"{self.par_rag.entity.name} declines to exchange "
                          f"{self.game.fdsd.name}")
            return self.par_corporation(self.par_rag)
        super().pass_()

    def handle_buy_company(self, company, player, price: int) -> None:
        game = self.game
        if company not in game.buyable_bank_owned_companies():
            raise GameError(f"{company.name} is not for sale")
        if not self.can_buy_company(player, company):
            raise GameError(f"{player.name} cannot buy {company.name} now")
        if price != company.value:
            raise GameError(f"{company.name} costs {game.format_currency(company.value)}")
        game.draft_object(company, player, price)

    def process_buy_company(self, action) -> None:
        self.handle_buy_company(action.company, action.entity, action.price)
        self.round.last_to_act = action.entity
        self.round.current_actions.append(action)

    def process_buy_corporation(self, action) -> None:
        company = action.h.get("minor") and self.game.company_by_id(action.h["minor"])
        if company is None:
            raise GameError("buy_corporation needs a minor")
        self.handle_buy_company(company, action.entity, action.h.get("price"))
        self.round.last_to_act = action.entity
        self.round.current_actions.append(action)

    def process_sell_shares(self, action) -> None:
        bundle = action.bundle
        if not self.can_sell(action.entity, bundle):
            raise GameError(f"{action.entity.name} cannot sell {bundle.percent}% of "
                            f"{bundle.corporation.name} now")
        corporation = bundle.corporation
        self.game.sell_shares_and_change_price(
            bundle, allow_president_change=corporation.presidents_share.buyable, swap=action.swap)
        self.track_action(action, corporation)
        self.sold_map(action.entity)[corporation] = "now"

    def process_sell_company(self, action) -> None:
        game = self.game
        company, player, price = action.company, action.entity, action.price
        if not game.bond(company):
            raise GameError(f"cannot sell {company.id}")
        if company.owner is not player or not self.can_sell_any_companies(player):
            raise GameError(f"{player.name} cannot sell {company.name} now")
        if price != company.value:
            raise GameError(f"{company.name} sells for {game.format_currency(company.value)}")
        game.bank.spend(price, player)
        company.owner = game.bank
        player.companies.remove(company)
        self.sold_map(player)["bond"] = "now"
        self.round.last_to_act = player
        self.round.current_actions.append(action)

    def process_par(self, action) -> None:
        corporation = action.corporation
        player = action.entity
        self.par_rag = action if self.rag_exchangable(player, corporation) else None
        if not self.available_subsidiaries(self.current_entity()):
            return self.par_corporation(action)
        if player.cash < action.share_price.price * 2:
            return self.process_assign(None)
        self.game.log(f"{player.name} may pay for par by exchanging {self.game.fdsd.name}")

    def process_assign(self, action) -> None:
        if self.par_rag is None:
            raise GameError("nothing to assign")
        game = self.game
        player = self.par_rag.entity
        game.close_fdsd()
        game.bank.spend(self.par_rag.share_price.price * 2, player)
        self.par_corporation(self.par_rag)
        self.par_rag = None

    def par_corporation(self, action) -> None:
        game = self.game
        corporation, entity = action.corporation, action.entity
        self.check_par(entity, corporation, action.share_price)
        game.stock_market.set_par(corporation, action.share_price)
        share = corporation.ipo_shares()[0]
        self.buy_shares(entity, share.to_bundle())
        game.after_par(corporation)
        self.track_action(action, corporation)
        game.move_buyable_shares_to_market(corporation)
        self.par_rag = None

    def check_par(self, entity, corporation, share_price) -> None:
        if not self.game.can_par(corporation, entity):
            raise GameError(f"{corporation.name} cannot be parred")
        if share_price not in self.get_par_prices(entity, corporation) and \
                not self.rag_exchangable(entity, corporation):
            raise GameError(f"{corporation.name} cannot be parred at "
                            f"{self.game.format_currency(share_price.price)}")

    def process_buy_shares(self, action) -> None:
        entity = action.entity
        if entity.is_company:
            return self.exchange_for_rag(action, entity)
        corporation = action.bundle.corporation
        self.check_purchase(action.bundle)
        self.buy_shares(entity, action.bundle, swap=action.swap,
                        allow_president_change=corporation.presidents_share.buyable)
        self.track_action(action, corporation)
        game = self.game
        if game.fdsd_to_close and game.fdsd.player is entity:
            game.close_fdsd()

    def exchange_for_rag(self, action, company) -> None:
        """FdSD is exchanged for two 10% RAG shares from the market (or the last one)."""
        game = self.game
        if company is not game.fdsd or not self.can_exchange(company.player):
            raise GameError(f"{company.name} cannot be exchanged now")
        player = company.player
        bundle = action.bundle
        corporation = bundle.corporation
        if corporation is not game.rag or bundle.owner is not game.share_pool:
            raise GameError("FdSD is exchanged for RAG shares from the market")
        if corporation.num_market_shares() > 1:
            two = next((b for b in game.bundles_for_corporation(game.share_pool, corporation)
                        if b.num_shares() == 2), None)
            if two is not None:
                bundle = two
        game.close_fdsd()
        game.share_pool.buy_shares(player, bundle, exchange=True, exchange_price=0,
                                   allow_president_change=True)
        self.track_action(action, corporation)

    def from_market(self, program) -> bool:
        """Programmed buying always buys from the market (there is no IPO after parring)."""
        return True


# ----------------------------------------------------------------------------------------------
# Operating round


class G1893BuyCompany(BuyCompany):
    """During an operating round a player may buy EVA from another player."""

    def actions(self, entity):
        return ["buy_company"] if self.purchasable(entity) else []

    def spender(self, entity):
        if entity is None:
            return None
        return entity if entity.is_player else entity.player

    def purchasable(self, entity=None) -> list:
        entity = entity or self.game.current_entity()
        return self.game.purchasable_companies(self.spender(entity))

    def process_buy_company(self, action) -> None:
        buyer = self.spender(action.entity)
        company = action.company
        if company not in self.purchasable(action.entity):
            raise GameError(f"{company.name} cannot be bought now")
        company.min_price = 1
        company.max_price_ = buyer.cash
        self.buy_company(buyer, company, action.price, company.owner)


class G1893Track(Track):
    def legal_tile_rotation(self, entity, hex, tile) -> bool:
        if hex.id == data.LEVERKUSEN and tile.name == data.LEVERKUSEN_GREEN_TILE:
            return True
        return super().legal_tile_rotation(entity, hex, tile)


class G1893Dividend(MinorHalfPay, Dividend):
    """Minors without a route do nothing; market shares pay nothing to the corporation."""

    def routeless_minor(self, entity) -> bool:
        return entity.is_minor and not self.routes()

    def actions(self, entity):
        if self.routeless_minor(entity):
            return []
        return super().actions(entity)

    def skip(self) -> None:
        if self.routeless_minor(self.current_entity()):
            return
        super().skip()

    def dividends_for_entity(self, entity, holder, per_share) -> int:
        if entity.is_corporation and holder is self.game.share_pool:
            return 0
        return super().dividends_for_entity(entity, holder, per_share)


class G1893BuyTrain(BuyTrain):
    """Minors buy trains too; no two trade-ins in one turn; trains change hands between
    companies only from phase 3, and a corporation never buys a minor's train."""

    def can_entity_buy_train(self, entity) -> bool:
        return True

    def round_state(self) -> dict:
        return {"discountable_trains_bought": []}

    def discountable_trains_allowed(self, entity) -> bool:
        return entity not in self.round.discountable_trains_bought

    def buyable_trains(self, entity) -> list:
        trains = [t for t in super().buyable_trains(entity)
                  if not (entity.is_corporation and t.owner.is_minor)]
        if "can_buy_trains" not in self.game.phase.status:
            trains = [t for t in trains if t.from_depot()]
        return trains

    def process_buy_train(self, action) -> None:
        game = self.game
        entity = action.entity
        if action.exchange is not None and not self.discountable_trains_allowed(entity):
            raise GameError(f"{entity.name} already traded in a train this turn")
        assist, _ = game.president_assisted_buy(entity, action.train, action.price)
        if assist > 0:
            player = entity.player
            player.spend(assist, game.bank)
            game.bank.spend(assist, entity)
            game.log(f"{player.name} pays {game.format_currency(assist)} to assist buying a "
                     f"{action.variant or action.train.name} train")
        super().process_buy_train(action)
        if action.exchange is not None:
            self.round.discountable_trains_bought.append(entity)


# ----------------------------------------------------------------------------------------------
# Merger rounds


class MergerRound(StockRound):
    """Before operating rounds: holders of the minors (and of bought shares) vote on forming
    AGV or HGK; a formation forced by the phase happens without a vote."""

    is_merger = True
    short_name = "MR"

    def select_entities(self) -> list:
        game = self.game
        self.offering: list = []
        self.voters: list = []
        self.votes: dict = {}
        self.yes = 0
        self.no = 0
        self.done = None
        if game.agv_auto_found:
            game.log(f"-- {game.agv.name} is founded as phase 5 has been reached")
            game.found_agv()
        elif game.agv_mergable:
            self.add_merge_info(game.agv, ("EKB", "KSZ", "BKB"))
        if game.hgk_auto_found:
            game.log(f"-- {game.hgk.name} is founded as phase 6 has been reached")
            game.found_hgk()
        elif game.hgk_mergable:
            self.add_merge_info(game.hgk, ("KFBE", "KBE", "HdSK"))
        if not self.offering:
            return game.players
        self.no = 100 - sum(self.votes.values())
        return self.voters

    def add_merge_info(self, target, syms) -> None:
        game = self.game
        self.offering.append(target)
        for sym in syms:
            info = game.reserved_share(sym)
            owner = info["minor"].owner if info["minor"] else info["company"].owner
            self.add_vote(owner, info["share"].percent)
        for player in game.players:
            percent = int(10 * player.num_shares_of(target, ceil=False))
            if percent > 0:
                self.add_vote(player, percent)

    def add_vote(self, player, percent: int) -> None:
        if player in self.voters:
            self.votes[player] += percent
        else:
            self.voters.append(player)
            self.votes[player] = percent

    def setup(self) -> None:
        super().setup()
        self.skip_steps()
        entity = self.current_entity()
        if not self.offering or not self.merger_candidates_for(entity):
            self.next_entity()

    def finish_round(self) -> None:
        pass

    def finished(self) -> bool:
        return not self.offering and not self.game.potential_discard_trains

    def merge_target(self):
        return self.offering[0] if self.offering else None

    def current_entity(self):
        if self.entity_index < len(self.voters):
            return self.voters[self.entity_index]
        return None

    def merger_candidates(self, target=None) -> list:
        target = target or self.merge_target()
        return self.game.mergers(target) if target is not None else []

    def merger_candidates_for(self, player) -> list:
        return [c for c in self.merger_candidates() if c is not None and c.owner is player]

    def handle_vote(self, choice: str) -> None:
        game = self.game
        voter = self.current_entity()
        percent = self.votes[voter]
        if choice == "yes":
            self.yes += percent
            self.done = self.yes >= 50
            if not self.done:
                return
            target = self.merge_target()
            game.log(f"-- {target.name} is founded by a 50%+ yes vote")
            game.found_agv() if target is game.agv else game.found_hgk()
            self.offering.pop(0)
        elif choice == "no":
            self.no += percent
            self.done = self.no > 50
            if not self.done:
                return
            self.offering.pop(0)
        else:
            raise GameError(f"vote yes or no, not {choice!r}")


class PotentialDiscardTrainsAfterMerge(DiscardTrain):
    """The president of a newly formed AGV/HGK may discard any of the trains it received."""

    def actions(self, entity):
        game = self.game
        if entity not in game.potential_discard_trains:
            return []
        if game.train_limit(entity) < len(entity.trains):
            return ["discard_train"]
        return ["discard_train", "pass"]

    def description(self) -> str:
        return "Optional Discard of Any Trains"

    def crowded_corps(self) -> list:
        return self.game.potential_discard_trains[:1]

    def active(self) -> bool:
        return bool(self.crowded_corps())

    def blocking(self) -> bool:
        return self.active()

    def process_discard_train(self, action) -> None:
        super().process_discard_train(action)
        if not action.entity.trains:
            self.game.potential_discard_trains.pop(0)

    def process_pass(self, action) -> None:
        entity = action.entity
        if len(entity.trains) > self.game.train_limit(entity):
            raise GameError(f"{entity.name} exceeds its train limit")
        self.game.potential_discard_trains.pop(0)
        super().process_pass(action)


class MergerVote(Step):
    """Each voter says yes or no (a ``special_buy`` of the item "yes" or "no")."""

    def round_state(self) -> dict:
        return {"choice_done": False}

    def description(self) -> str:
        target = self.round.merge_target()
        return f"Merge of {target.name if target else ''}"

    def choice_available(self) -> bool:
        return bool(self.round.offering) or not self.round.done

    def actions(self, entity):
        if entity.is_company or not self.choice_available():
            return []
        r = self.round
        voter = r.current_entity()
        owned = r.merger_candidates_for(voter)
        target = r.merge_target()
        has_shares = voter is not None and any(s.corporation is target for s in voter.shares)
        if not owned and not has_shares:
            return []
        return ["special_buy"]

    def active_entities(self) -> list:
        return [self.round.current_entity()]

    def active(self) -> bool:
        return self.choice_available()

    def blocking(self) -> bool:
        return self.choice_available()

    def buyable_items(self, entity) -> list:
        if not self.choice_available():
            return []
        return [Item("yes", 0), Item("no", 0)]

    def process_special_buy(self, action) -> None:
        if action.entity is not self.round.current_entity():
            raise GameError(f"it is not {action.entity.name}'s turn to vote")
        self.round.choice_done = True
        self.round.handle_vote(action.item.description)
        self.round.next_entity()
