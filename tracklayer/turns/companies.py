"""Corporations and private companies in the operating round: corporations buying
companies from players (in the phases that allow it), private powers that mark a hex or
a corporation, and corporations issuing or redeeming their own shares."""

from __future__ import annotations

from ..errors import GameError
from ..rules import money, operators, powers, trading
from ..rules.certificates import Bundle
from ..spec.data import Timing
from ..state.model import CompanyState, CorporationState, MinorState, PlayerState
from ..actions import new_action
from .step import Step, handles


class BuyCompanyStep(Step):
    """An operator buys a private company from a player, for between half and twice its
    value (as the phase allows). Without ``holds``, it may do so at any point of its
    turn."""

    NAME = "Buy Companies"

    def __init__(self, round, **options) -> None:
        super().__init__(round, **options)
        self.HOLDS = bool(options.get("holds"))     # (as the round's make-up says)

    def kinds(self, entity):
        if isinstance(entity, MinorState):
            return ()
        if self.may_buy(entity):
            return ("buy_company", "pass") if self.holds() else ("buy_company",)
        if self.holds() and isinstance(entity, CorporationState) and \
                powers.powers(self.table, entity, timed_only=True):
            return ("pass",)
        return ()

    def may_buy(self, entity) -> bool:
        """In its own turn, in a phase that allows it, the operator may buy a company
        players sell (``powers.buyable_from_players``) that it has the cash for (the
        companies looked for last)."""
        table = self.table
        if entity is not self.actor() or not table.phase_has("can_buy_companies"):
            return False
        companies = powers.buyable_from_players(table, entity)
        return bool(companies) and min(c.min_price for c in companies) <= entity.cash

    def candidates(self, entity, kind, offer) -> list:
        if kind != "buy_company":
            return super().candidates(entity, kind, offer)
        return [new_action("buy_company", entity, company=c.sym, price=p)
                for c in self.for_sale_to(entity)
                for p in offer.prices(*self.price_limits(entity, c))]

    def for_sale_to(self, entity) -> list:
        return powers.buyable_from_players(self.table, entity)

    def price_limits(self, entity, company) -> tuple:
        return company.min_price, min(company.max_price, entity.cash)

    @handles("buy_company")
    def buy(self, action):
        entity, company, price = action.entity, action.company, action.price
        owner = company.owner
        if isinstance(owner, CorporationState):
            raise GameError(f"cannot buy {company.name} from {owner.name}")
        if company not in powers.buyable_from_players(self.table, entity):
            raise GameError(f"{company.name} cannot be bought now")
        self.check_price(company, price, company.min_price, company.max_price)
        if not isinstance(price, int) or price > entity.cash:
            raise GameError(f"{entity.name} has {entity.cash} and cannot spend {price}")
        return lambda: self.company_changes_hands(entity, company, price, owner)

    def check_price(self, company, price, low, high) -> None:
        if not isinstance(price, int) or not low <= price <= high:
            raise GameError(f"price must be between {self.table.money(low)} and "
                            f"{self.table.money(high)}")

    def company_changes_hands(self, buyer, company, price, seller) -> None:
        """The company passes to ``buyer``, who pays ``seller`` (the bank, if none); its
        powers that act when it is sold act; the round remembers the sale."""
        table = self.table
        powers.give(table, company, buyer)
        self.assign_on_sale(buyer, company)
        self.round.notes.sold_company = company
        self.round.notes.company_sellers[company] = seller
        money.pay(table, buyer, seller if seller is not None else table.state.bank, price)
        table.log(f"{buyer.name} buys {company.name} from "
                  f"{seller.name if seller else 'the market'} for {table.money(price)}")

    def assign_on_sale(self, buyer, company) -> None:
        """A company assigned to the corporation owning it is assigned to its buyer (and
        no other corporation) when sold."""
        table = self.table
        for p in powers.powers(table, company, "assign_corporation", event=Timing.SOLD):
            for c in table.state.corporations:
                c.assignments.pop(company.sym, None)
            buyer.assignments[company.sym] = True
            powers.use(table, p)


class PlayerCompanyTrade(BuyCompanyStep):
    """A company with the ``player_trade`` power (1893's EVA) may be bought from the
    player owning it by another player at any time of an operating round, for any price
    the buyer can pay; the owner of the operator in turn buys through it."""

    def buyer(self, entity):
        return entity if isinstance(entity, PlayerState) else entity.owner

    def kinds(self, entity):
        return ("buy_company",) if self.for_sale_to(entity) else ()

    def price_limits(self, entity, company) -> tuple:
        return 1, self.buyer(entity).cash

    def for_sale_to(self, entity) -> list:
        """Open companies of another player with the ``player_trade`` power."""
        buyer = self.buyer(entity)
        out = []
        for c in self.table.state.companies:
            owner = c.owner
            if c.closed or owner is buyer or not isinstance(owner, PlayerState):
                continue
            for p in c.powers:
                if p.spec.kind == "player_trade":
                    out.append(c)
                    break
        return out

    @handles("buy_company")
    def buy(self, action):
        buyer = self.buyer(action.entity)
        company, price = action.company, action.price
        if company not in self.for_sale_to(action.entity):
            raise GameError(f"{company.name} cannot be bought now")
        self.check_price(company, price, 1, buyer.cash)

        def commit() -> None:
            company.min_price, company.max_price = 1, buyer.cash
            self.company_changes_hands(buyer, company, price, company.owner)
        return commit


class AssignStep(Step):
    """A private company's power marks a hex (a port bonus) or a corporation."""

    NAME = "Assign"
    PASSES = False
    HOLDS = False

    def kinds(self, entity):
        if not isinstance(entity, CompanyState):
            return ()
        table = self.table
        if powers.powers(table, entity, "assign_hexes") or \
                powers.powers(table, entity, "assign_corporation"):
            return ("assign",)
        return ()

    def candidates(self, entity, kind, offer) -> list:
        if kind != "assign":
            return super().candidates(entity, kind, offer)
        table = self.table
        out = [new_action("assign", entity, target=h, target_type="hex")
               for p in powers.powers(table, entity, "assign_hexes") for h in p.spec.hexes]
        if powers.powers(table, entity, "assign_corporation"):
            out.extend(new_action("assign", entity, target=c.sym, target_type="corporation")
                       for c in table.state.corporations)
        return out

    @handles("assign")
    def assign(self, action):
        table = self.table
        company, target = action.entity, action.target
        if target is None:
            raise GameError(f"say what to assign {company.name} to")
        if isinstance(target, str):
            found = powers.powers(table, company, "assign_hexes")
            if not found:
                raise GameError(f"{company.name} cannot be assigned to a hex now")
            power = found[0]
            if target not in power.spec.hexes:
                raise GameError(f"{company.name} cannot be assigned to {target}")
            if company.sym in table.state.hexes[target].assignments:
                raise GameError(f"{company.name} is already assigned to {target}")

            def commit() -> None:
                for h in power.spec.hexes:
                    if h in table.state.hexes:
                        table.state.hexes[h].assignments.pop(company.sym, None)
                table.state.hexes[target].assignments[company.sym] = True
                self.used(company, power, target)
            return commit
        found = powers.powers(table, company, "assign_corporation")
        floated = [c for c in table.state.corporations if operators.has_floated(table, c)]
        if not found or target not in [c for c in floated if company.sym not in c.assignments]:
            raise GameError(f"{company.name} cannot be assigned to {target.name}")

        def assign_corporation() -> None:
            for c in floated:
                c.assignments.pop(company.sym, None)
            target.assignments[company.sym] = True
            self.used(company, found[0], target.name)
        return assign_corporation

    def used(self, company, power, where) -> None:
        powers.use(self.table, power)
        self.table.log(f"{company.name} is assigned to {where}")


class IssueSharesStep(Step):
    """A corporation issues treasury shares to the market (``sell_shares``) or redeems
    shares from it (``buy_shares``), as the title allows."""

    NAME = "Issue or Redeem Shares"

    def kinds(self, entity):
        if not isinstance(entity, CorporationState) or entity is not self.actor():
            return ()
        out = []
        if self.may_redeem(entity):
            out.append("buy_shares")
        if self.may_issue(entity):
            out.append("sell_shares")
        if self.holds() and out:
            out.append("pass")
        return tuple(out)

    def issuable(self, entity) -> list:
        return []

    def may_issue(self, entity) -> bool:
        """Some bundle :meth:`issuable` lists."""
        return bool(self.issuable(entity))

    def may_redeem(self, entity) -> bool:
        """Some bundle :meth:`redeemable` lists."""
        return bool(self.redeemable(entity))

    def redeemable(self, entity) -> list:
        return []

    def candidates(self, entity, kind, offer) -> list:
        found = {"sell_shares": self.issuable, "buy_shares": self.redeemable}.get(kind)
        if found is None:
            return super().candidates(entity, kind, offer)
        return [new_action(kind, entity, shares=b.ids(), percent=b.percent)
                for b in found(entity)]

    @staticmethod
    def among(bundle: Bundle, options) -> bool:
        ids = sorted(bundle.ids())
        return any(sorted(b.ids()) == ids and b.percent == bundle.percent for b in options)

    @handles("sell_shares")
    def issue(self, action):
        if not self.among(action.bundle, self.issuable(action.entity)):
            raise GameError(f"{action.entity.name} cannot issue those shares")

        def commit() -> None:
            trading.sell(self.table, action.bundle)
            self.mark_done()
        return commit

    @handles("buy_shares")
    def redeem(self, action):
        if not self.among(action.bundle, self.redeemable(action.entity)):
            raise GameError(f"{action.entity.name} cannot redeem those shares")

        def commit() -> None:
            trading.buy(self.table, action.entity, action.bundle)
            self.mark_done()
        return commit
