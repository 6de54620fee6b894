"""The rounds and steps of the 1849 family (see ``rules.py`` for the rules they apply)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

from ...actions import OffMap
from ...errors import GameError
from ...rules import board, certificates, endgame, finance, money, operators, powers, tokens, \
    trading
from ...rules.certificates import Bundle, move_certificate
from ...rules.trading import last_goes_last
from ...rules.market import Direction
from ...state.model import CorporationState, OperatorState
from ...turns import programs
from ...turns.choices import PlayerChoice
from ...turns.companies import AssignStep, BuyCompanyStep, IssueSharesStep
from ...turns.operating import DividendStep, HomeTokenStep, RouteStep, TokenStep, TrackStep
from ...turns.round import OperatingRound, StockRound
from ...turns.step import handles
from ...turns.stock import StockTurn
from ...turns.trains import BankruptcyStep, BuyTrainStep, DiscardStep


@dataclass(eq=False)
class Notes1849:
    """What 1849 keeps beyond the common state (per corporation by symbol)."""
    next_to_start: Dict[str, bool] = field(default_factory=dict)
    slot_open: Dict[str, bool] = field(default_factory=dict)
    closed_recently: Dict[str, bool] = field(default_factory=dict)
    sms_hexes: Dict[str, Optional[List[str]]] = field(default_factory=dict)
    swap: Optional[tuple] = None      # (old president, where the 20% went, new president, corp)
    loan_player: object = None
    old_order: Optional[list] = None  # the order sales keep (None: as it stands now)
    moved: list = field(default_factory=list)
    messina: Optional[bool] = None
    par_groups: List[str] = field(default_factory=lambda: ["par"])


def notes(table) -> Notes1849:
    return table.state.title


def sms_hexes(table, corporation) -> Optional[list]:
    """The hexes a corporation that closed SMS this turn lays and places on (None: it
    did not). (Read from the notes, :func:`notes`, without asking for them: each tile lay
    judged asks it.)"""
    return table.state.title.sms_hexes.get(corporation.sym) \
        if isinstance(corporation, CorporationState) else None


def reorder_on_cells(table, before: Optional[list] = None) -> None:
    """Corporations pushed onto the same price by this turn's sales keep the operating
    order they had before the sales (``before``: that order, if not the one kept since
    the first sale, :func:`order_before_sale`)."""
    n = notes(table)
    before = before if before is not None else n.old_order
    moved = list(dict.fromkeys(n.moved))
    if len(moved) <= 1:
        return
    groups: dict = {}
    for c in table.state.corporations:
        if operators.has_floated(table, c):
            groups.setdefault(c.price, []).append(c)
    for at, corps in groups.items():
        if len(corps) <= 1:
            continue
        current = operators.by_price(table, corps)
        here = [c for c in current if c in moved]
        still = [c for c in current if c not in moved]
        wanted = still + sorted(here, key=lambda c: before.index(c))
        if current != wanted:
            table.state.cells[at][:] = wanted


def remember_order(table) -> None:
    """From here on, sales keep the operating order as it stands now. It is read only once
    a sale moves a price, so it is worked out just before the first sale
    (:func:`order_before_sale`): until then nothing moves a price (in a stock turn sales
    come before any purchase; in an operating turn, after the dividend)."""
    notes(table).old_order = None


def order_before_sale(table) -> list:
    """Before a sale: the operating order :func:`remember_order` keeps, worked out if it
    was not yet (and returned)."""
    n = notes(table)
    if n.old_order is None:
        n.old_order = operators.by_price(table, table.state.corporations)
    return n.old_order


def moved_by_sale(table, bundle, before: int) -> None:
    """A sale that moved the price: keep the operating order among equal prices (as
    before the sales, :func:`order_before_sale`)."""
    if before != certificates.share_value(table, bundle.certificates[0]):
        notes(table).moved.append(bundle.corporation)
        reorder_on_cells(table)


# -- rounds -------------------------------------------------------------------------------------


class Stock1849(StockRound):
    def begin(self) -> None:
        """Floated corporations whose home token is not down yet place it."""
        for c in self.table.state.corporations:
            if operators.has_floated(self.table, c) and \
                    len([t for t in c.tokens if t.where is None]) == 3:
                operators.place_home_token(self.table, c)
        super().begin()

    def start_turn(self) -> None:
        """Each turn remembers which sales moved prices afresh."""
        notes(self.table).moved = []
        super().start_turn()


def stock_round(table):
    return Stock1849(table, [DiscardStep, HomeTokenStep, SwapChoice, StockTurn1849])


class Operating1849(OperatingRound):
    def advance(self) -> None:
        """A corporation at the top of the market ends the game when it has operated."""
        if self.entities[self.index].reached_top:
            endgame.finish(self.table, "stock_market")
            return
        super().advance()


def operating_round(table, number: int):
    return Operating1849(table, [
        LoanChoice, Bankruptcy1849, SwapChoice, BuyCompanyStep, SmsTeleport, Assign1849,
        Track1849, Token1849, RouteStep, Dividend1849, DiscardStep, BuyTrain1849,
        Issue1849, (BuyCompanyStep, {"holds": True})], number)


# -- choices --------------------------------------------------------------------------------------


class SwapChoice(PlayerChoice):
    """After a presidency change that handed over the 20% last certificate, the old
    president may take two 10% certificates instead."""

    NAME = "Presidency Swap Choice"
    CHOICES = ("Two 10% certs", "One 20% cert")
    KEEPS = "One 20% cert"

    def chooser(self):
        """The old president who handed over the 20% last certificate."""
        swap = notes(self.table).swap
        return swap[0] if swap else None

    def choices(self) -> list:
        """Both, while the corporation is open. A sale that closes the corporation leaves
        the choice still to be made, as on 18xx.games, whose page asks for it (so real
        games hold it there); its certificates are gone, so only keeping the 20%
        certificate, which changes nothing, can be carried out (18xx.games fails on
        the other)."""
        if notes(self.table).swap[3].closed:
            return [self.KEEPS]
        return list(self.CHOICES)

    def check_choice(self, action) -> None:
        """The other choice is refused once the corporation has closed."""
        corporation = notes(self.table).swap[3]
        if corporation.closed and action.choice == "Two 10% certs":
            raise GameError(f"{corporation.name} has closed: its certificates are gone, "
                            f"so only {self.KEEPS} may be chosen")
        super().check_choice(action)

    def make(self, choice: str) -> None:
        """Two 10% certificates: the 20% goes to the new president instead."""
        _, location, other, corporation = notes(self.table).swap
        if choice == "Two 10% certs":
            double = next(c for c in certificates.held(location, corporation) if c.last)
            move_certificate(double, other)
            for c in [c for c in certificates.held(other, corporation) if c.percent == 10][:2]:
                move_certificate(c, location)
        notes(self.table).swap = None


class LoanChoice(PlayerChoice):
    """A player bankrupted with no shares left may take a loan of 500 (750 off the final
    score) instead of leaving the game."""

    NAME = "Bankruptcy Choice"

    def chooser(self):
        """The bankrupt player left with no shares."""
        return notes(self.table).loan_player

    def choices(self) -> list:
        """The loan, or leaving the game; one who has left already (and is bankrupted
        again, as president of a corporation they kept) may only take the loan, as on
        18xx.games, where leaving again is refused ('already bankrupt')."""
        v = self.table.variant
        loan = f"Take {self.table.money(v.LOAN)} loan"
        return [loan] if self.chooser().bankrupt else [loan, "Leave game"]

    def make(self, choice: str) -> None:
        """Leaving, the player is bankrupt; with the loan, they get the cash and
        the penalty is taken off their final score."""
        table, player = self.table, self.chooser()
        if choice == "Leave game":
            finance.declare_bankrupt(table, player)
        else:
            money.pay(table, table.state.bank, player, table.variant.LOAN)
            player.penalty += table.variant.LOAN_PENALTY
        notes(table).loan_player = None


# -- the stock round ------------------------------------------------------------------------------


class StockTurn1849(StockTurn):
    """Sales keep the operating order among equal prices. (That the president may buy two
    more shares right after starting is the setting ``buys_after_start``; that the last
    certificate goes last, ``trading.last_goes_last``.)"""

    def prepare(self) -> None:
        """The operating order before this turn's sales."""
        super().prepare()
        remember_order(self.table)

    def sell_bundle(self, action) -> None:
        """A sale that moves the price keeps the operating order among equal
        prices."""
        order_before_sale(self.table)
        before = certificates.share_value(self.table, action.bundle.certificates[0])
        super().sell_bundle(action)
        moved_by_sale(self.table, action.bundle, before)

    def mark_done(self) -> None:
        """Ending the turn; a turn without an action counts as a pass."""
        self.done = True
        entity, n = self.actor(), self.round.notes
        if not n.turn_actions:
            if entity not in n.pass_order:
                n.pass_order.append(entity)
            entity.passed = True
        else:
            if entity in n.pass_order:
                n.pass_order.remove(entity)
            entity.passed = False
        remember_order(self.table)

    def program_stop_reason(self, entity, program, buying) -> Optional[str]:
        """Also stop when a 20% last certificate can be had (unless that is bought)."""
        table = self.table
        if buying is None or not buying.last:
            for c in table.state.corporations:
                cert = next((x for x in certificates.treasury(c) if x.last), None)
                if cert is not None and last_goes_last(table, Bundle.of([cert])) and \
                        trading.holding_allowed(table, entity, c, cert.percent) and \
                        not self.sold_in_round(entity).get(c):
                    return f"20% double cert for {c.name} is currently available from the treasury"
                if cert is None:
                    cert = next((x for x in certificates.held(table.state.market, c) if x.last),
                                None)
                if cert is not None and last_goes_last(table, Bundle.of([cert])) and \
                        trading.holding_allowed(table, entity, c, cert.percent):
                    return f"20% double cert for {c.name} is currently available from the bank pool"
        return programs.stop_reason(self, entity, program, buying)


# -- the operating round -------------------------------------------------------------------------


class Bankruptcy1849(BankruptcyStep):
    """The president sells what they may, gives their cash to the corporation, and the
    corporation closes; left with no shares, they choose between a loan and leaving (one
    who has left the game already may only take the loan).

    A corporation whose price those sales drive into the closing cell closes as they
    end, before the bankrupt corporation: the sales come before the bankrupt one's
    closing. A closed corporation goes to the end of the order when it closes, so those
    closed by the sales come back in line, and may start again, before the bankrupt one
    (as on 18xx.games)."""

    def go_bankrupt(self, player, corporation, rule) -> None:
        """See the class docstring."""
        table = self.table
        held = [certs[0].corporation for certs in player.shares.values() if certs]
        order = order_before_sale(table)   # (kept: closing the corporation ends its turn)
        for c in operators.by_price(table, held):
            bundles = [b for b in trading.sale_bundles(table, player, c) if rule(player, b)]
            if not bundles:
                continue
            bundle = max(bundles, key=lambda b: certificates.bundle_price(table, b))
            before = certificates.share_value(table, bundle.certificates[0])
            trading.sell(table, bundle)
            if before != certificates.share_value(table, bundle.certificates[0]):
                notes(table).moved.append(bundle.corporation)
        if player.cash > 0:
            money.pay(table, player, corporation, player.cash)
        operators.close_in_closing_cells(table, but=corporation)   # (see the docstring)
        table.variant.close_corporation(table, corporation)
        reorder_on_cells(table, order)
        if not any(player.shares.values()):
            notes(table).loan_player = player   # (one who has left too: see LoanChoice)


class SmsTeleport(PlayerChoice):
    """The owner of SMS may close it, instead of its normal track and token, to lay
    track and place a token on any coastal city."""

    NAME = "SMS Teleport"
    CHOICES = ("Close SMS", "Pass")

    def sms(self, entity):
        """SMS, if the operator owns it."""
        if not isinstance(entity, OperatorState):
            return None
        for c in entity.companies:
            if c.sym == "SMS":
                return c
        return None

    def kinds(self, entity):
        """Before the operator lays track or places a token."""
        if entity is not self.actor() or self.sms(entity) is None:
            return ()
        track = next(s for s in self.round.steps if isinstance(s, Track1849))
        token = next(s for s in self.round.steps if isinstance(s, Token1849))
        if track.acted or token.acted or self.done:
            return ()
        return ("choose",)

    def actors(self) -> list:
        """The operator whose turn it is (not a player choosing)."""
        return super(PlayerChoice, self).actors()

    def live(self) -> bool:
        """Only while it can be used: by an operator owning SMS (asked first, where play
        stands after every action: most operators own none)."""
        entity = self.actor()
        return entity is not None and self.sms(entity) is not None and \
            bool(self.current_kinds())

    @handles("choose")
    def choose(self, action):
        """Closing SMS opens the coastal cities to this turn's track and token."""
        self.check_choice(action)

        def commit() -> None:
            if action.choice == "Close SMS":
                powers.close_company(self.table, self.sms(action.entity))
                notes(self.table).sms_hexes[action.entity.sym] = list(self.table.variant.SMS_HEXES)
            self.done = True
        return commit


class Assign1849(AssignStep):
    """CNM closes once it has marked its port."""

    def used(self, company, power, where) -> None:
        """CNM closes once used."""
        super().used(company, power, where)
        powers.close_company(self.table, company)


class Track1849(TrackStep):
    """One tile per turn; after closing SMS, on a coastal city."""

    @handles("lay_tile")
    def lay(self, action):
        """After closing SMS, the tile goes on a coastal city."""
        entity = action.entity
        hexes = sms_hexes(self.table, entity)
        if hexes and action.hex not in hexes:
            raise GameError(f"after closing SMS, track goes on a coastal city, not "
                            f"{action.hex}")
        return self.judge_lay(action, entity)

    def after_lay(self, action, entity) -> None:
        """One tile a turn; a tile laid after closing SMS fixes the hex of the
        token; the home-choosing corporation may find a home free again."""
        if sms_hexes(self.table, entity):
            notes(self.table).sms_hexes[entity.sym] = [action.hex]
        self.table.variant.free_chooser(self.table)
        self.mark_done()

    def hexes_to_try(self, entity) -> list:
        """After closing SMS, the coastal cities."""
        return list(sms_hexes(self.table, entity) or super().hexes_to_try(entity))

    def sides_reached(self, entity, hex_id):
        """After closing SMS, a coastal city may take track on every side."""
        hexes = sms_hexes(self.table, entity)
        if hexes:
            return list(range(6)) if hex_id in hexes else None
        return super().sides_reached(entity, hex_id)

    def sides_met(self, entity, hex_id, exits):
        """After closing SMS, every side of a coastal city; otherwise as the common rule
        asks (the gauge rule, ``meets_in_gauge``, asks the network of its own sides)."""
        if sms_hexes(self.table, entity):
            return self.sides_reached(entity, hex_id)
        return super().sides_met(entity, hex_id, exits)

    def check_restriction(self, entity, *args) -> None:
        """After closing SMS, no need to reach the track laid."""
        if not sms_hexes(self.table, entity):
            super().check_restriction(entity, *args)

    def networks_kept(self, entity, *args) -> None:
        """None, as :meth:`check_restriction` keeps: the networks are walked anew once a
        tile is laid."""
        return None


class Token1849(TokenStep):
    """Tokens are paid for when the corporation starts; after closing SMS one may go on
    the coastal city laid."""

    def may_place(self, entity) -> bool:
        """A token left, and somewhere to place it (anywhere on the SMS hex)."""
        return bool(tokens.unplaced(entity)) and \
            (bool(sms_hexes(self.table, entity)) or self.somewhere_to_place(entity))

    def cities_to_try(self, entity) -> list:
        """After closing SMS, the cities of its hex."""
        hexes = sms_hexes(self.table, entity)
        if not hexes:
            return super().cities_to_try(entity)
        return [n for h in hexes for n in board.view(self.table, h).cities]

    @handles("place_token")
    def place(self, action):
        """After closing SMS, the token goes on its hex without a connection."""
        entity, node = action.entity, action.city
        hexes = sms_hexes(self.table, entity)
        if hexes and (isinstance(node, OffMap) or node.hex not in hexes):
            raise GameError("the token must go on the SMS hex")
        self.check_token(entity, node, action.token, connected=not hexes)

        def commit() -> None:
            self.put_token(entity, node, action.token)
            self.home_choices_gone()
            self.mark_done()
        return commit

    def home_choices_gone(self) -> None:
        """With every home city of the home-choosing corporation taken, it goes to the
        end of the order and the next may start."""
        table = self.table
        v = table.variant
        chooser, n = v.chooser(table), notes(table)
        if chooser is None or operators.has_floated(table, chooser) or \
                v.home_choices(table, chooser):
            return
        order = table.state.corporations
        if n.next_to_start.get(chooser.sym) and chooser is not order[-1]:
            n.next_to_start[order[order.index(chooser) + 1].sym] = True
            n.next_to_start[chooser.sym] = False
        n.slot_open[chooser.sym] = False
        order.remove(chooser)
        order.append(chooser)


class Dividend1849(DividendStep):
    """The price rises only if the dividend reaches it; none moves it left (7.2)."""

    def price_moves(self, entity, paid):
        """See the class docstring."""
        if paid == 0:
            return [(Direction.LEFT, 1)]
        if paid < self.table.spec.cells[entity.price].price:
            return []
        return [(Direction.RIGHT, 1)]

    def mark_done(self) -> None:
        """The operating order to keep among equal prices."""
        super().mark_done()
        remember_order(self.table)


class BuyTrain1849(BuyTrainStep):
    """Shares of a corporation cannot be sold for a train before it has operated twice
    (the operating one) or at all before it operated; E-trains are bought otherwise."""

    def sell_for_train(self, bundle) -> None:
        """A sale that moves the price keeps the operating order among equal
        prices."""
        order_before_sale(self.table)
        before = certificates.share_value(self.table, bundle.certificates[0])
        super().sell_for_train(bundle)
        moved_by_sale(self.table, bundle, before)

    def may_sell(self, seller, bundle) -> bool:
        """See the class docstring."""
        corporation = bundle.corporation
        if not corporation.operated:
            return False
        if self.round.operator is corporation and len(corporation.history) < 2:
            return False
        if self.table.settings.sell_in_blocks and corporation in self.sold_for:
            return False
        return super().may_sell(seller, bundle)

    def on_offer(self, entity) -> list:
        """No E-train is bought as a train in this step."""
        return list(dict.fromkeys(t for t in super().on_offer(entity) if t.name != "E"))


class Issue1849(IssueSharesStep):
    def issuable(self, entity) -> list:
        """From its second operating turn (see ``Family1849.issuable``)."""
        return self.table.variant.issuable(self.table, entity)

    def redeemable(self, entity) -> list:
        """From its second operating turn (see ``Family1849.redeemable``)."""
        return self.table.variant.redeemable(self.table, entity)

    def may_issue(self, entity) -> bool:
        """Some bundle ``Family1849.issues`` finds (the first ends the search)."""
        return any(True for _ in self.table.variant.issues(self.table, entity))

    def may_redeem(self, entity) -> bool:
        """Some bundle ``Family1849.redemptions`` finds (the first ends the search)."""
        return any(True for _ in self.table.variant.redemptions(self.table, entity))
