"""Auctions of private companies at the start of a game."""

from __future__ import annotations

from ..errors import GameError
from ..step import Step


class Bid:
    """A standing bid: ``entity`` offers ``price`` for ``target``."""

    __slots__ = ("entity", "target", "price")

    def __init__(self, entity, target, price: int) -> None:
        self.entity = entity
        self.target = target
        self.price = price


class Auctioner:
    """Bookkeeping of bids on several items."""

    def setup_auction(self) -> None:
        self.bids: dict = {}

    def bids_for(self, target) -> list:
        return self.bids.setdefault(target, [])

    def highest_bid(self, target):
        bids = self.bids.get(target) or []
        return max(bids, key=lambda b: b.price) if bids else None

    def current_bid_amount(self, player, target) -> int:
        for b in self.bids.get(target) or []:
            if b.entity is player:
                return b.price
        return 0

    def bids_for_player(self, player) -> list:
        out = []
        for bids in self.bids.values():
            if self.game.ONLY_HIGHEST_BID_COMMITTED:
                top = max(bids, key=lambda b: b.price) if bids else None
                if top is not None and top.entity is player:
                    out.append(top)
            else:
                out.extend(b for b in bids if b.entity is player)
        return out

    def min_increment(self) -> int:
        return self.game.MIN_BID_INCREMENT

    def add_bid(self, bid: Bid) -> None:
        game = self.game
        target = bid.target
        low = self.min_bid(target)
        if bid.price < low:
            raise GameError(f"the minimum bid for {target.name} is {game.format_currency(low)}")
        if game.MUST_BID_INCREMENT_MULTIPLE and (bid.price - low) % game.MIN_BID_INCREMENT:
            raise GameError(f"bids must rise by multiples of {game.MIN_BID_INCREMENT}")
        high = self.max_bid(bid.entity, target)
        if bid.price > high:
            raise GameError(f"{bid.entity.name} can bid at most {game.format_currency(high)}")
        bids = self.bids_for(target)
        bids[:] = [b for b in bids if b.entity is not bid.entity]
        bids.append(bid)


class WaterfallAuction(Auctioner, Step):
    """Players in turn buy the cheapest company at its price or bid on a dearer one; when
    the cheapest is bought, a company with one bid goes to that bidder and one with several
    bids is auctioned among them. If everyone passes, the cheapest company's price drops."""

    type = "waterfall_auction"

    def description(self) -> str:
        return "Bid on Companies"

    def round_state(self) -> dict:
        return {"companies_pending_par": []}

    def setup(self) -> None:
        self.setup_auction()
        self.auctioning = None
        self.companies = sorted(self.game.initial_auction_companies(), key=lambda c: c.value)
        self.cheapest = self.companies[0] if self.companies else None
        self.bidders: dict = {}

    def active_auction(self):
        """(company, bids) of the auction in progress, if any."""
        company = self.auctioning
        bids = self.bids.get(company) or []
        if len(bids) > 1:
            return company, bids
        return None

    def active_entities(self) -> list:
        auction = self.active_auction()
        if auction:
            return [min(auction[1], key=lambda b: b.price).entity]
        return super().active_entities()

    def actions(self, entity):
        if not self.companies:
            return []
        auction = self.active_auction()
        if auction:
            lowest = min(auction[1], key=lambda b: b.price)
            return ["bid", "pass"] if lowest.entity is entity else []
        return ["bid", "pass"] if entity is self.current_entity() else []

    def may_purchase(self, company) -> bool:
        if self.active_auction():
            return False
        return company is not None and self.companies and company is self.companies[0]

    def min_bid(self, company) -> int:
        if self.may_purchase(company):
            return company.min_bid
        high = self.highest_bid(company)
        return (high.price if high else company.min_bid) + self.min_increment()

    def committed_cash(self, player) -> int:
        return sum(b.price for b in self.bids_for_player(player))

    def max_bid(self, player, company) -> int:
        return player.cash - self.committed_cash(player) + self.current_bid_amount(player, company)

    def process_pass(self, action) -> None:
        entity = action.entity
        if self.active_auction():
            self.game.log(f"{entity.name} passes on {self.auctioning.name}")
            self.remove_from_auction(entity)
            return
        self.game.log(f"{entity.name} passes bidding")
        entity.pass_()
        if all(e.passed for e in self.round.entities):
            self.all_passed()
        self.round.next_entity_index()

    def process_bid(self, action) -> None:
        entity = action.entity
        company = action.company
        if company is None or company not in self.companies:
            raise GameError(f"{action.target.name if action.target else '?'} is not for auction")
        entity.unpass()
        bid = Bid(entity, company, action.price)
        if self.active_auction():
            if company is not self.auctioning:
                raise GameError(f"the auction of {self.auctioning.name} is in progress")
            self.add_bid_logged(bid)
        else:
            self.placement_bid(bid)
            self.round.next_entity_index()

    def remove_from_auction(self, entity) -> None:
        bids = self.bids.get(self.auctioning)
        if bids is not None:
            bids[:] = [b for b in bids if b.entity is not entity]
        self.resolve_bids()

    def placement_bid(self, bid: Bid) -> None:
        if self.may_purchase(bid.target):
            self.round.last_to_act = bid.entity
            self.accept_bid(bid)
            self.resolve_bids()
        else:
            self.add_bid_logged(bid)

    def add_bid_logged(self, bid: Bid) -> None:
        self.add_bid(bid)
        bidders = self.bidders.setdefault(bid.target, [])
        if bid.entity not in bidders:
            bidders.append(bid.entity)
        self.game.log(f"{bid.entity.name} bids {self.game.format_currency(bid.price)} for "
                      f"{bid.target.name}")

    def resolve_bids(self) -> None:
        while self.companies:
            if not self.resolve_bids_for_company(self.companies[0]):
                break

    def resolve_bids_for_company(self, company) -> bool:
        self.auctioning = None
        bids = self.bids.get(company) or []
        if len(bids) == 1:
            self.accept_bid(bids[0])
            return True
        if company is self.companies[0] and len(bids) > 1:
            self.auctioning = company
        return False

    def accept_bid(self, bid: Bid) -> None:
        self.bids.pop(bid.target, None)
        self.buy_company(bid.entity, bid.target, bid.price)

    def buy_company(self, player, company, price: int) -> None:
        game = self.game
        available = self.max_bid(player, company)
        if available < price:
            raise GameError(f"{player.name} has {game.format_currency(available)} available "
                            f"and cannot spend {game.format_currency(price)}")
        company.owner = player
        player.companies.append(company)
        if price > 0:
            player.spend(price, game.bank)
        self.companies.remove(company)
        game.log(f"{player.name} buys {company.name} for {game.format_currency(price)}")
        game.after_buy_company(player, company, price)

    def all_passed(self) -> None:
        """Everyone passed: the cheapest company gets cheaper, or (if it was sold) the
        privates pay out as in an operating round."""
        game = self.game
        if self.cheapest in self.companies:
            self.increase_discount(self.cheapest, 5)
        else:
            game.payout_companies()
            game.or_set_finished()
        for e in self.round.entities:
            e.unpass()

    def increase_discount(self, company, discount: int) -> None:
        company.discount += discount
        if company.min_bid > 0:
            return
        self.round.next_entity_index()
        self.buy_company(self.current_entity(), company, 0)
        self.resolve_bids()


class CompanyPendingPar(Step):
    """The buyer of a company that comes with a president's certificate sets its par price."""

    type = "company_pending_par"

    def description(self) -> str:
        return "Choose Corporation Par Value"

    def round_state(self) -> dict:
        return {"companies_pending_par": []}

    def actions(self, entity):
        return ["par"] if entity is self.current_entity() else []

    def active(self) -> bool:
        return bool(self.round.companies_pending_par)

    def active_entities(self) -> list:
        pending = self.round.companies_pending_par
        return [pending[0].owner] if pending and pending[0].owner is not None else []

    def get_par_prices(self, entity, corporation) -> list:
        return self.game.stock_market.par_prices

    def process_par(self, action) -> None:
        game = self.game
        corporation = action.corporation
        company = self.round.companies_pending_par[0]
        expected = next((s.corporation for a in game.abilities(company, "shares")
                         for s in a.shares if s.president), None)
        if corporation is not expected:
            raise GameError(f"{company.name} comes with the presidency of "
                            f"{expected.name if expected else '?'}, not {corporation.name}")
        if action.share_price not in self.get_par_prices(action.entity, corporation):
            raise GameError(f"{corporation.name} cannot be parred at "
                            f"{game.format_currency(action.share_price.price)}")
        game.stock_market.set_par(corporation, action.share_price)
        game.share_pool.buy_shares(action.entity, corporation.presidents_share.to_bundle(),
                                   exchange="free")
        game.after_par(corporation)
        self.round.companies_pending_par.pop(0)
