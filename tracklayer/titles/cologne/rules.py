"""1893: Cologne — the rules in which it differs (rulebook sections in brackets).

* The starting package (privates, five minors, ten bonds) is drafted at face value, only
  the two lowest minors on offer at a time; what is left is auctioned at falling prices
  before a later stock round. Nobody sells in the first stock round.
* Minors pay half their revenue to their owner and need not own a train; the owner of a
  trainless minor pays what it lacks for its first train.
* Corporations float at 50% sold (shares in the market count as unsold) and receive ten
  times their price; all their shares but the president's go to the market; shares in
  the market pay nothing.
* AGV (minors 1, 3, 5) and HGK (minors 2, 4 and HdSK) form in merger rounds by
  shareholder vote, or by themselves a phase later.
* Bonds (AdSK) are bought and sold in stock rounds at 100 and pay 10.
* FdSD may be exchanged for 20% of RAG, or pay for parring it.
* The Rhine is crossed only at Köln and Bonn until the 3-train; N5 and P5 open then;
  Leverkusen's two towns become one city in green.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional

from ...errors import GameError
from ...rules import board, certificates, market, money, operators, powers, tokens, trading, \
    trains
from ...rules.certificates import Bundle, move_certificate
from ...rules.variant import Variant
from ...spec.settings import SaleMovement, SaleTiming, Settings, TradeOrder
from ...title import Title
from ...state.model import MinorState, TokenState
from ...turns import sequence
from ...turns.companies import BuyCompanyStep
from ...turns.draft import FaceValueDraft, FallingPriceAuction
from ...turns.mergers import OptionalDiscard, Vote, VoteRound
from ...turns.operating import DividendStep, HomeTokenStep, RouteStep, TokenStep, TrackStep
from ...turns.round import DraftRound, OperatingRound, StockRound
from ...actions import new_action
from ...turns.stock import StockTurn, one_of_each_size
from ...turns.step import handles
from ...turns.trains import BankruptcyStep, BuyTrainStep, DiscardStep
from . import data

# Who gets which reserved certificate when AGV or HGK forms: (corporation, certificate).
RESERVED = {"HdSK": ("HGK", 1), "EKB": ("AGV", 0), "KFBE": ("HGK", 2), "KSZ": ("AGV", 1),
            "KBE": ("HGK", 0), "BKB": ("AGV", 2)}
FORMS = {"AGV": ("EKB", "KSZ", "BKB"), "HGK": ("KBE", "HdSK", "KFBE")}
VOTERS = {"AGV": ("EKB", "KSZ", "BKB"), "HGK": ("KFBE", "KBE", "HdSK")}   # who votes first


@dataclass(eq=False)
class CologneNotes:
    """What 1893 keeps beyond the common state."""
    neutral: Optional[MinorState] = None
    passers: list = field(default_factory=list)       # passed in the draft / first SR
    after_merger: Optional[str] = None
    mergeable: dict = field(default_factory=dict)     # "AGV"/"HGK" → may form by vote
    due: dict = field(default_factory=dict)           # "AGV"/"HGK" → forms by itself
    fdsd_to_close: bool = False
    discards: list = field(default_factory=list)      # formed with trains to give back


def notes(table) -> CologneNotes:
    return table.state.title


def is_bond(company) -> bool:
    return company.sym.startswith("AdSK")


def bank_items(table) -> list:
    """Bank-owned privates and minors, and the lowest bond left (1.3)."""
    owned, bonds = [], []
    for c in table.state.companies:
        if c.owner is table.state.bank and not c.closed:
            (bonds if is_bond(c) else owned).append(c)
    return owned + bonds[:1]


def draftable(table) -> list:
    """Privates always; of the minors only the two lowest numbered (1.3)."""
    items = [c for c in bank_items(table) if not is_bond(c)]
    return [c for c in items if c.sym in data.PRIVATES] + \
        [c for c in items if c.sym not in data.PRIVATES][:2]


def sell_item(table, player, company, price: int, forced: bool = False) -> None:
    """A starting-package item is bought; a minor floats with the price (at least 100)."""
    money.pay(table, player, table.state.bank, price)
    table.log(f"{player.name} {'is forced to buy' if forced else 'buys'} {company.name} for "
              f"{table.money(price)}")
    powers.give(table, company, player)
    if company.sym in data.MINOR_PROXIES:
        minor = table.minor(company.sym)
        minor.owner = player
        minor.floated = True
        money.pay(table, table.state.bank, minor, max(price, 100))


def reserved(table, sym: str):
    corp, index = RESERVED[sym]
    return table.corporation(corp).certificates[index]


def shares_to_market(table, corporation) -> None:
    for c in list(corporation.certificates):
        if c.buyable and c.owner is corporation:
            certificates.transfer(table, Bundle.of([c]), table.state.market, price=0,
                                  presidency_may_change=False)


def form(table, target) -> None:
    """AGV or HGK forms (5): 400 from the bank; each minor's (and HdSK's) owner gets its
    reserved certificate; the minors' cash, trains and tokens pass to it; the president is
    the holder of most, ties going to the earlier minor."""
    n = notes(table)
    n.mergeable[target.sym] = n.due[target.sym] = False
    table.log(f"{target.name} receives {table.money(400)} from the bank")
    money.pay(table, table.state.bank, target, 400)
    target.floatable = True
    order, president_cert = [], None
    for sym in FORMS[target.sym]:
        cert, company = reserved(table, sym), table.company(sym)
        minor = table.minor(sym) if sym in data.MINOR_PROXIES else None
        player = company.owner
        if cert.president:
            president_cert = cert
        cert.buyable = True
        certificates.transfer(table, Bundle.of([cert]), player, price=0,
                              presidency_may_change=False)
        order.append(player)
        powers.close_company(table, company)
        if minor is None:
            continue
        if minor.cash > 0:
            money.pay(table, minor, target, minor.cash)
        if minor.trains:
            trains.move_all(table, minor, target)
        token = minor.tokens[0]
        hex_id, city = token.where
        board.unreserve(table, hex_id, minor)
        board.lift_token(table, token)
        board.put_token(table, hex_id, city, next(t for t in target.tokens if t.where is None))
        minor.closed, minor.floated, minor.owner = True, False, None
    holdings = certificates.player_holders(target)
    top = max(holdings.values())
    leaders = [h for h, p in holdings.items() if p == top]
    if president_cert.owner in leaders:
        target.owner = president_cert.owner
    else:
        leaders.sort(key=lambda p: order.index(p) if p in order else 10 ** 9)
        new = leaders[0]
        target.owner = new
        for c in table.variant.certificates_for_presidency(table, target, new, 2, None, None):
            move_certificate(c, president_cert.owner)
        move_certificate(president_cert, new)
    target.started = True
    table.log(f"-- {target.name} is founded and floats")
    if target.trains:
        n.discards.append(target)


# -- the starting package ------------------------------------------------------------------


class PackageDraft(FaceValueDraft):
    def offer(self) -> list:
        return draftable(self.table)

    def passers(self) -> list:
        return notes(self.table).passers

    def sell_item(self, player, item, price, forced=False) -> None:
        sell_item(self.table, player, item, price, forced)


class PackageAuction(FallingPriceAuction):
    def offer(self) -> list:
        return draftable(self.table)

    def sell_item(self, player, item, price, forced=False) -> None:
        sell_item(self.table, player, item, price, forced)


# -- stock rounds ---------------------------------------------------------------------------


class CologneStockTurn(StockTurn):
    """Bonds and package items are bought like certificates (one per turn); FdSD may be
    exchanged for RAG shares or pay for parring RAG; nobody sells in the first stock
    round, and a player who passed in it is out of it (6)."""

    def prepare(self) -> None:
        super().prepare()
        self.rag_par = None

    def kinds(self, entity):
        table = self.table
        fdsd, rag = table.company("FdSD"), table.corporation("RAG")
        if entity is fdsd and rag.started:
            return ("buy_shares", "pass")
        if entity is None or not hasattr(entity, "bankrupt"):
            return ()
        if self.fdsd_to_pay(entity):
            return ("assign", "pass")
        if self.out_of_first_round(entity):
            return ()
        result = list(super().kinds(entity))
        if result == ["buy_company", "pass"]:
            result = []
        may_buy_item = self.may_buy_item(entity)
        if may_buy_item:
            result += ["buy_company", "pass"]
        if self.may_exchange(entity):
            result += ["buy_shares", "pass"]
        if self.may_sell_bonds(entity):
            result += ["sell_company", "pass"]
        if may_buy_item:
            result += ["buy_corporation", "pass"]
        return tuple(result)

    def out_of_first_round(self, player) -> bool:
        return self.table.turn == 1 and player in notes(self.table).passers

    def bank_offer(self) -> list:
        return bank_items(self.table)

    def may_buy_from_bank(self, entity, company) -> bool:
        return self.may_buy_item(entity, company)

    def may_buy_item(self, player, item=None) -> bool:
        table = self.table
        if self.out_of_first_round(player) or \
                trading.certificate_count(table, player) >= trading.certificate_limit(table):
            return False
        items = [item] if item is not None else bank_items(table)
        return any(self.item_for_sale(player, c) for c in items)

    def item_for_sale(self, player, company) -> bool:
        if self.out_of_first_round(player) or self.bought():
            return False
        if is_bond(company) and self.sold_in_round(player).get("bond"):
            return False
        return player.cash >= company.value

    def may_sell_bonds(self, player) -> bool:
        return not self.out_of_first_round(player) and bool(self.bonds_of(player)) \
            and not self.bought()

    def bonds_of(self, player) -> list:
        if self.table.turn <= 1 or not hasattr(player, "bankrupt"):
            return []
        return [c for c in player.companies if is_bond(c)]

    def fdsd(self, player):
        fdsd = self.table.company("FdSD")
        return fdsd if not fdsd.closed and fdsd.owner is player else None

    def rag_by_fdsd(self, player, corporation) -> bool:
        return corporation is self.table.corporation("RAG") and self.fdsd(player) is not None

    def may_exchange(self, player) -> bool:
        return not self.out_of_first_round(player) and not self.bought() and \
            self.fdsd(player) is not None and \
            operators.shares_in_market(self.table, self.table.corporation("RAG")) > 0

    def fdsd_to_pay(self, player) -> list:
        if self.rag_par is None or self.rag_par.entity is not player:
            return []
        return [self.fdsd(player)] if self.fdsd(player) else []

    def may_buy(self, entity, bundle) -> bool:
        if self.out_of_first_round(entity) or bundle is None:
            return False
        if powers.powers(self.table, bundle.corporation, "no_buy"):
            return False
        if self.rag_by_fdsd(entity, bundle.corporation) and not self.bought():
            return True
        return super().may_buy(entity, bundle)

    def may_sell(self, entity, bundle) -> bool:
        if self.out_of_first_round(entity) or bundle is None or self.table.turn == 1:
            return False
        return super().may_sell(entity, bundle) and \
            not powers.powers(self.table, bundle.corporation, "no_buy")

    def may_take(self, entity, bundle, exchange=False) -> bool:
        if self.out_of_first_round(entity) or bundle is None:
            return False
        if exchange and not self.rag_by_fdsd(entity, bundle.corporation):
            return False
        return super().may_take(entity, bundle, exchange) and \
            not powers.powers(self.table, bundle.corporation, "no_buy")

    def start_prices(self, entity, corporation) -> list:
        if self.rag_by_fdsd(entity, corporation):
            cells = self.table.spec.starting_cells()
        else:
            cells = super().start_prices(entity, corporation)
        return [c for c in cells if c.price != 120]

    def presidency_may_change(self, corporation) -> bool:
        return corporation.certificates[0].buyable

    # -- actions --------------------------------------------------------------------------

    def mark_done(self) -> None:
        if self.rag_par is not None:
            self.table.log(f"{self.rag_par.entity.name} declines to exchange FdSD")
            return self.start_rag(self.rag_par)
        super().mark_done()

    def decline(self, action):
        commit = super().decline(action)

        def then() -> None:
            if self.table.turn == 1:
                notes(self.table).passers.append(action.entity)
            commit()
        return then

    def check_start(self, entity, corporation, cell) -> None:
        if not self.may_start(corporation, entity):
            raise GameError(f"{corporation.name} cannot be parred")
        if cell not in self.start_prices(entity, corporation) and \
                not self.rag_by_fdsd(entity, corporation):
            raise GameError(f"{corporation.name} cannot be parred at "
                            f"{self.table.money(cell.price)}")

    def start(self, action):
        self.check_start(action.entity, action.corporation, action.cell)
        if not self.rag_by_fdsd(action.entity, action.corporation):
            first = Bundle.of([certificates.treasury(action.corporation)[0]])
            if not self.may_buy(action.entity, first):
                raise GameError(f"{action.entity.name} cannot buy a share of "
                                f"{action.corporation.name}")

        def commit() -> None:
            player = action.entity
            self.rag_par = action if self.rag_by_fdsd(player, action.corporation) else None
            if not self.fdsd_to_pay(self.actor()):
                return self.start_rag(action)
            if player.cash < action.cell.price * 2:
                return self.pay_with_fdsd()
            self.table.log(f"{player.name} may pay for par by exchanging FdSD")
        return commit

    @handles("assign")
    def assign(self, action):
        if self.rag_par is None:
            raise GameError("nothing to assign")
        return self.pay_with_fdsd

    def pay_with_fdsd(self) -> None:
        table = self.table
        player = self.rag_par.entity
        close_fdsd(table)
        money.pay(table, table.state.bank, player, self.rag_par.cell.price * 2)
        self.start_rag(self.rag_par)

    def start_rag(self, action) -> None:
        self.check_start(action.entity, action.corporation, action.cell)
        self.begin_corporation(action, action.entity, action.corporation, action.cell)
        shares_to_market(self.table, action.corporation)
        self.rag_par = None

    def buy(self, action):
        entity = action.entity
        if not hasattr(entity, "bankrupt"):
            return self.exchange_fdsd(action)
        commit = super().buy(action)

        def then() -> None:
            commit()
            if notes(self.table).fdsd_to_close and self.table.company("FdSD").owner is entity:
                close_fdsd(self.table)
        return then

    def exchange_fdsd(self, action):
        """FdSD is exchanged for two 10% RAG shares from the market (or the one left)."""
        table = self.table
        company = action.entity
        if company is not table.company("FdSD") or not self.may_exchange(company.owner):
            raise GameError(f"{company.name} cannot be exchanged now")
        bundle = action.bundle
        rag = table.corporation("RAG")
        if bundle.corporation is not rag or bundle.owner is not table.state.market:
            raise GameError("FdSD is exchanged for RAG shares from the market")

        def commit() -> None:
            taken = bundle
            if operators.shares_in_market(table, rag) > 1:
                two = next((b for b in trading.growing_bundles(table, table.state.market, rag)
                            if round(b.shares) == 2), None)
                taken = two or bundle
            player = company.owner
            close_fdsd(table)
            trading.buy(table, player, taken, exchange=True)
            self.note(action, rag)
        return commit

    def buy_company(self, action):
        return self.buy_item(action, action.company, action.price)

    def buy_item(self, action, company, price):
        table = self.table
        player = action.entity
        if company is None or company not in bank_items(table):
            raise GameError(f"{company.name if company else '?'} is not for sale")
        if not self.may_buy_item(player, company):
            raise GameError(f"{player.name} cannot buy {company.name} now")
        if price != company.value:
            raise GameError(f"{company.name} costs {table.money(company.value)}")

        def commit() -> None:
            sell_item(table, player, company, price)
            self.round.notes.last_to_act = player
            self.round.notes.turn_actions.append(action)
        return commit

    @handles("buy_corporation")
    def buy_corporation(self, action):
        company = action.get("minor") and self.table.company(action.get("minor"))
        if company is None:
            raise GameError("buy_corporation needs a minor")
        return self.buy_item(action, company, action.get("price"))

    def sell_bundle(self, action) -> None:
        trading.sell(self.table, action.bundle,
                     presidency_may_change=action.bundle.corporation.certificates[0].buyable)

    @handles("sell_company")
    def sell_company(self, action):
        table = self.table
        company, player, price = action.company, action.entity, action.price
        if not is_bond(company):
            raise GameError(f"cannot sell {company.id}")
        if company.owner is not player or not self.may_sell_bonds(player):
            raise GameError(f"{player.name} cannot sell {company.name} now")
        if price != company.value:
            raise GameError(f"{company.name} sells for {table.money(company.value)}")

        def commit() -> None:
            money.pay(table, table.state.bank, player, price)
            company.owner = table.state.bank
            player.companies.remove(company)
            self.sold_in_round(player)["bond"] = "now"
            self.round.notes.last_to_act = player
            self.round.notes.turn_actions.append(action)
        return commit

    def candidates(self, entity, kind, offer) -> list:
        table = self.table
        if kind == "buy_shares" and not hasattr(entity, "bankrupt"):
            rag = table.corporation("RAG")
            return [new_action("buy_shares", entity, shares=[c.id], percent=c.percent)
                    for c in one_of_each_size(certificates.held(table.state.market, rag))]
        if kind == "assign":
            return [new_action("assign", entity, target=c.sym, target_type="company")
                    for c in self.fdsd_to_pay(entity)]
        if kind == "sell_company":
            return [new_action("sell_company", entity, company=c.sym, price=c.value)
                    for c in self.bonds_of(entity)]
        return super().candidates(entity, kind, offer)

    def program_buys_from_market(self, program) -> bool:
        """Programmed buying buys from the market (after its start a corporation's shares
        are all there)."""
        return True


def close_fdsd(table) -> None:
    powers.close_company(table, table.company("FdSD"))
    table.log("Fond der Stadt Düsseldorf closed")
    notes(table).fdsd_to_close = False


# -- operating rounds -----------------------------------------------------------------------


class EvaPurchase(BuyCompanyStep):
    """A player may buy EVA from another player at any time in an operating round, for
    any price they can pay (8.3)."""

    def buyer(self, entity):
        return entity if hasattr(entity, "bankrupt") else getattr(entity, "owner", None)

    def kinds(self, entity):
        return ("buy_company",) if self.for_sale_to(entity) else ()

    def price_limits(self, entity, company) -> tuple:
        return 1, self.buyer(entity).cash

    def for_sale_to(self, entity) -> list:
        eva = self.table.company("EVA")
        buyer = self.buyer(entity)
        if eva.closed or eva.owner is self.table.state.bank or eva.owner is buyer:
            return []
        return [eva]

    def buy(self, action):
        buyer = self.buyer(action.entity)
        company, price = action.company, action.price
        if company not in self.for_sale_to(action.entity):
            raise GameError(f"{company.name} cannot be bought now")
        self.check_price(company, price, 1, buyer.cash)

        def commit() -> None:
            company.min_price, company.max_price = 1, buyer.cash
            self.transfer(buyer, company, price, company.owner)
        return commit


class CologneTrack(TrackStep):
    def rotation_ok(self, entity, hex_id, new) -> bool:
        """Leverkusen's green city may lie any way that keeps its track (4.2)."""
        if hex_id == data.LEVERKUSEN and new.tile.name == data.LEVERKUSEN_GREEN_TILE:
            return True
        return super().rotation_ok(entity, hex_id, new)


class CologneDividend(DividendStep):
    """Minors pay half to their owner and keep half, by themselves, and do nothing without
    a route; shares in the market pay nothing (7.4)."""

    def routeless_minor(self, entity) -> bool:
        return isinstance(entity, MinorState) and not self.round.notes.routes

    def kinds(self, entity):
        if isinstance(entity, MinorState) or self.routeless_minor(entity):
            return ()
        return super().kinds(entity)

    def lapse(self) -> None:
        entity = self.actor()
        if self.routeless_minor(entity):
            return
        if not isinstance(entity, MinorState):
            return super().lapse()
        revenue = sum(r.revenue for r in self.round.notes.routes)
        self.pay(entity, "payout" if revenue > 0 else "withhold")

    def split(self, entity, kind, revenue):
        if isinstance(entity, MinorState) and kind == "payout":
            half = revenue // 2
            return half, (revenue - half if half > 0 else 0)
        return super().split(entity, kind, revenue)

    def price_moves(self, entity, paid):
        return [] if isinstance(entity, MinorState) else super().price_moves(entity, paid)

    def pay_holders(self, entity, paid) -> None:
        if not isinstance(entity, MinorState):
            return super().pay_holders(entity, paid)
        self.table.log(f"{entity.owner.name} receives {self.table.money(paid)}")
        money.pay(self.table, self.table.state.bank, entity.owner, paid)

    def treasury_share(self, entity, per_share) -> int:
        return 0


class CologneTrains(BuyTrainStep):
    """Minors buy trains too; one trade-in per turn; trains change hands between
    companies only from phase 3, and never from a minor to a corporation; the owner of a
    trainless minor pays what it lacks for its first train (7.5)."""

    def may_own_trains(self, entity) -> bool:
        return True

    def must_buy(self, entity) -> bool:
        return not isinstance(entity, MinorState) and super().must_buy(entity)

    def may_trade_in(self, entity) -> bool:
        return entity not in self.round.notes.traded_in

    def on_offer(self, entity) -> list:
        found = [t for t in super().on_offer(entity)
                 if not (not isinstance(entity, MinorState) and isinstance(t.owner, MinorState))]
        if not self.table.phase_has("can_buy_trains"):
            found = [t for t in found if trains.in_depot(t)]
        return found

    def owner_help(self, entity, price: int) -> int:
        if not isinstance(entity, MinorState) or entity.trains or price <= entity.cash or \
                entity.owner.cash + entity.cash < price:
            return 0
        return price - entity.cash

    def buy(self, action):
        entity = action.entity
        if action.exchange is not None and not self.may_trade_in(entity):
            raise GameError(f"{entity.name} already traded in a train this turn")
        help_ = self.owner_help(entity, action.price)
        return self.judge_purchase(action, extra=help_)

    def before_purchase(self, action) -> None:
        entity = action.entity
        help_ = self.owner_help(entity, action.price)
        if help_ > 0:
            table = self.table
            money.pay(table, entity.owner, table.state.bank, help_)
            money.pay(table, table.state.bank, entity, help_)
            table.log(f"{entity.owner.name} pays {table.money(help_)} to assist buying a "
                      f"{action.variant or action.train.name} train")

    def after_purchase(self, action) -> None:
        if action.exchange is not None:
            self.round.notes.traded_in.append(action.entity)


# -- merger rounds --------------------------------------------------------------------------


class MergerRound(VoteRound):
    """Before operating rounds: the holders vote on forming AGV (from phase 4) or HGK
    (from phase 5); a phase later it forms without a vote (5)."""

    def offer(self) -> None:
        table = self.table
        n = notes(table)
        for sym, phase in (("AGV", 5), ("HGK", 6)):
            corporation = table.corporation(sym)
            if n.due.get(sym):
                table.log(f"-- {sym} is founded as phase {phase} has been reached")
                form(table, corporation)
            elif n.mergeable.get(sym):
                self.offering.append(corporation)
                for item in VOTERS[sym]:
                    owner = (table.minor(item) if item in data.MINOR_PROXIES
                             else table.company(item)).owner
                    self.add_vote(owner, reserved(table, item).percent)
                for player in table.state.players:
                    percent = int(10 * certificates.shares_of(player, corporation))
                    if percent > 0:
                        self.add_vote(player, percent)

    def exchanged(self, target) -> list:
        table = self.table
        return [table.minor(s) if s in data.MINOR_PROXIES else table.company(s)
                for s in FORMS[target.sym]]

    def form(self, target) -> None:
        form(self.table, target)

    def discards_due(self) -> list:
        return notes(self.table).discards


def _stock_round(table):
    return StockRound(table, [DiscardStep, CologneStockTurn])


def _operating_round(table, number: int):
    notes(table).passers = []
    return OperatingRound(table, [BankruptcyStep, DiscardStep, HomeTokenStep, EvaPurchase,
                                  CologneTrack, TokenStep, RouteStep, CologneDividend,
                                  CologneTrains], number)


def _merger_round(table, after: str):
    notes(table).after_merger = after
    return MergerRound(table, [OptionalDiscard, Vote])


# -- the variant -------------------------------------------------------------------------------


def _par_at_120(table, corporation, dearest_first: bool) -> None:
    """AGV or HGK opens for sale at 120 (its shares go to the market) (5.1)."""
    cells = [c for c in table.spec.starting_cells() if c.price == 120]
    cell = cells[0] if dearest_first else cells[-1]
    market.start_at(table, corporation, cell.at)
    shares_to_market(table, corporation)
    notes(table).mergeable[corporation.sym] = True
    for p in powers.powers(table, corporation, "no_buy"):
        powers.remove(p)
    corporation.started = True


def _formed_next(table, sym: str) -> None:
    """A phase after it could be voted on, AGV or HGK forms by itself (5.2)."""
    n = notes(table)
    n.mergeable[sym] = False
    if table.corporation(sym).certificates[0].buyable:
        return
    n.due[sym] = True


def _remove_tile_block(table) -> None:
    """N5 and P5 may be built on from the 3-train on (4.3)."""
    table.log("The tile block in N5 and P5 is now removed")
    for hex_id in data.TILE_BLOCK:
        table.state.hexes[hex_id].icons = []


def _fdsd_closes(table) -> None:
    """FdSD closes after the first stock round of phase 5 (its owner may still use it)."""
    if not table.company("FdSD").closed:
        notes(table).fdsd_to_close = True


def _eva_closes(table) -> None:
    """EVA closes when the first 6-train is bought."""
    table.log("EVA (Eisenbahnverkehrsmittel Aktiengesellschaft) closed")
    powers.close_company(table, table.company("EVA"))


class Cologne(Variant):
    events = {
        "remove_tile_block": _remove_tile_block,
        "agv_buyable": lambda table: _par_at_120(table, table.corporation("AGV"), True),
        "agv_founded": lambda table: _formed_next(table, "AGV"),
        "hgk_buyable": lambda table: _par_at_120(table, table.corporation("HGK"), False),
        "hgk_founded": lambda table: _formed_next(table, "HGK"),
        "fdsd_closed": _fdsd_closes,
        "eva_closed": _eva_closes,
    }

    def set_up(self, table) -> None:
        """The bank holds the package; the minors stand on their homes; a neutral token
        keeps Köln-Deutz (H5) open; HGK's home J5 is taken from the start (1.2)."""
        state = table.state
        state.title = n = CologneNotes()
        for sym in RESERVED:
            reserved(table, sym).buyable = False
        reserved(table, "KFBE").double = reserved(table, "BKB").double = True
        for c in state.companies:
            c.owner = state.bank
            state.bank.companies.append(c)
        for minor in state.minors:
            node = board.view(table, minor.spec.home).cities[0]
            tokens.place(table, minor, node, tokens.next_token(minor))
        n.neutral = MinorState(sym="N")
        neutral = TokenState(n.neutral, kind="neutral")
        n.neutral.tokens = [neutral]
        tokens.place(table, n.neutral, board.view(table, "H5").cities[0], neutral)
        hgk = table.corporation("HGK")
        tokens.place(table, hgk, board.view(table, "J5").cities[0], tokens.next_token(hgk))

    def first_round(self, table):
        return DraftRound(table, [PackageDraft])

    def next_round(self, table):
        """Merger rounds come before each operating round while HGK has not formed; after
        the last set, the starting package's rest is auctioned before the stock round."""
        r, state, n = table.round, table.state, notes(table)
        hgk_floated = operators.has_floated(table, table.corporation("HGK"))
        if isinstance(r, MergerRound):
            if n.after_merger == "operating_round_first":
                return sequence.operating_round(table, _operating_round)
            if n.after_merger == "operating_round_second":
                return sequence.operating_round(table, _operating_round, r.number + 1)
            state.turn += 1
            if n.after_merger == "stock_round":
                return sequence.stock_round(table, _stock_round)
            return DraftRound(table, [PackageAuction])
        if r.is_stock:
            state.operating_rounds = table.phase.operating_rounds
            sequence.reorder_players(table)
            if hgk_floated:
                return sequence.operating_round(table, _operating_round)
            return _merger_round(table, "operating_round_first")
        if r.is_operating:
            if hgk_floated and r.number < state.operating_rounds:
                return sequence.operating_round(table, _operating_round, r.number + 1)
            if r.number < state.operating_rounds:
                return _merger_round(table, "operating_round_second")
            if hgk_floated:
                state.turn += 1
                return sequence.stock_round(table, _stock_round)
            return _merger_round(table, "stock_round" if not draftable(table) else
                                 "auction_round")
        self.priority_after_draft(table)
        left = sum(1 for c in bank_items(table) if not is_bond(c))
        if left <= 1:
            return sequence.stock_round(table, _stock_round)
        return sequence.operating_round(table, _operating_round)

    def priority_after_draft(self, table) -> None:
        """After the draft the priority goes to the player after the last buyer; if all
        passed, to the first to pass (1.3)."""
        passers = notes(table).passers
        if len(passers) < len(table.state.players):
            return sequence.reorder_players(table)
        sequence.rotate_to(table, passers[0])
        table.log(f"{passers[0].name} has priority deal due to being first to pass")

    def may_start(self, table, corporation, player) -> bool:
        """FdSD may pay for starting RAG; otherwise a player needs 120 to start one."""
        fdsd = table.company("FdSD")
        if corporation is table.corporation("RAG") and player is fdsd.owner and \
                not corporation.started:
            return True
        if player.cash < 120:
            return False
        return super().may_start(table, corporation, player)

    def extra_liquidity(self, table, player) -> int:
        """Bonds can be sold for 100 each."""
        return 100 * sum(1 for c in player.companies if is_bond(c))

    def certificates_for_presidency(self, table, corporation, president, count, swap_to,
                                    old_president) -> list:
        """A 20% certificate counts as two shares when the presidency changes hands."""
        held = list(certificates.held(president, corporation))
        double = next((c for c in held if c.double), None)
        if double is None:
            return held[:count]
        if len(held) <= count:
            return [double]
        return [c for c in held if c is not double][:count]

    def may_upgrade(self, table, hex_id, old, new, special=False) -> bool:
        """Leverkusen's yellow tile becomes only the green city; N5 and P5 take no tile
        before the 3-train (4.2, 4.3)."""
        if old.tile.color == "yellow" and hex_id == data.LEVERKUSEN:
            return new.name == data.LEVERKUSEN_GREEN_TILE
        if hex_id in data.TILE_BLOCK and table.state.hexes[hex_id].icons:
            raise GameError(f"cannot place a tile in {hex_id} until the green phase")
        return super().may_upgrade(table, hex_id, old, new, special)

    def rotation_allowed(self, table, operator, hex_id, new) -> bool:
        """Track must meet a stub; in phase 2 no track crosses the Rhine at Köln and Bonn
        (4.2, 4.4)."""
        if hex_id == data.LEVERKUSEN and new.tile.name == data.LEVERKUSEN_GREEN_TILE:
            return True
        h = table.state.hexes[hex_id]
        stubs = board.tile_of(table, hex_id).stubs
        if stubs and not all(s in new.exits for s in stubs):
            return False
        if table.phase.name != "2" or hex_id not in data.RHINE_PASSAGE:
            return True
        return not any(b.side in new.exits for b in h.borders if b.kind == "water")


SETTINGS = Settings(currency="{}M", sale_movement=SaleMovement.DOWN_PER_SALE,
                    sale_timing=SaleTiming.AFTER_IT_OPERATED,
                    trade_order=TradeOrder.SELL_THEN_BUY)

TITLE = Title("1893", (2, 4), SETTINGS, data.title_data, Cologne, data.OPTIONAL_RULES)
