"""The 1817 stock round: a player's turn and the round's end.

In turn a player sells shares (not of 2-share corporations, nor of those in the
acquisition or liquidation zone), then may short one share, then buy one share or found a
corporation (``founding``). Between those, they may act for one corporation they preside:
take loans, or buy back its shares from the market. Before the round the market buys
what it is short of from the treasuries (the bank paying for it) and closes those shorts;
at its end, sold-out 5- and 10-share corporations rise, each share in the market moves
the price left, a corporation that could not buy its tokens is liquidated, and a Train
Station owned by a corporation closes.
"""

from __future__ import annotations

from typing import Iterator

from ...actions import new_action
from ...errors import GameError
from ...rules import certificates, market, operators, powers
from ...rules.certificates import Bundle
from ...state.model import CorporationState, PlayerState
from ...turns.round import StockRound
from ...turns.stock import StockTurn
from ...turns.step import Kinds, handles
from . import loans, shares
from .founding import Founding, FoundingTurn, buy_tokens, tokens_needed

ZONES = ("acquisition", "liquidation")


def in_zone(table, corporation) -> bool:
    """In the acquisition or liquidation zone of the market."""
    cell = table.cell(corporation.price)
    return cell is not None and cell.kind in ZONES


class StockTurn1817(FoundingTurn, StockTurn):
    """See the module docstring."""

    NAME = "Sell then Buy Shares"

    def __init__(self, round, **options) -> None:
        super().__init__(round, **options)
        self.founding = Founding()
        self.acting_for = None

    def describe(self) -> str:
        return self.NAME

    def actors(self) -> list:
        found = self.founding_actor()
        return [found] if found is not None else super().actors()

    def actor(self):
        """The first of :meth:`actors` (asked again and again: no list made): the one
        acting in a founding, else the player whose turn it is."""
        found = self.founding_actor()
        if found is not None:
            return found
        r = self.round
        return r.entities[r.index] if r.index < len(r.entities) else None

    def prepare(self) -> None:
        super().prepare()
        self.acting_for = None
        self.corporate_action = None
        self.bought_back = False
        self.shorted = False

    def kinds(self, entity):
        f = self.founding
        if f.winner is not None or f.auction is not None:
            return self.founding_kinds(entity)
        if isinstance(entity, CorporationState):
            return self.corporate_kinds(entity)
        if entity is not self.actor():
            return ()
        if self.acting_for is not None:
            return ("pass",) if self.any_corporate(entity) else ()
        # (Shorting and opening an auction asked by the rules :meth:`player_kinds` lists
        # them by, without working out the trades before them.)
        return Kinds(self.player_kinds(entity), some=lambda: self.turn_has_any(entity),
                     rules={"pass": lambda: self.may_pass(entity),
                            "sell_shares": lambda: self.may_sell_some(entity),
                            "short": lambda: self.may_short_now(entity),
                            "bid": lambda: self.may_open_now(entity)})

    def player_kinds(self, entity) -> Iterator[str]:
        """The kinds of a player's own turn (:meth:`StockTurn.turn_kinds`), then, before a
        purchase, shorting and opening a founding auction, each worked out when asked for;
        passing with any of them, or when the player may act for a corporation, unless the
        player must sell (:meth:`may_pass`)."""
        must_sell = self.must_sell(entity)
        found = passing = False
        for kind in self.turn_kinds(entity, must_sell):
            found = True
            passing = passing or kind == "pass"
            yield kind
        if self.may_short_now(entity):
            found = True
            yield "short"
        if self.may_open_now(entity):
            found = True
            yield "bid"
        if not passing and not must_sell and (found or self.any_corporate(entity)):
            yield "pass"

    def may_short_now(self, entity) -> bool:
        """Before a purchase, some corporation the player may short (remembered while the
        position stands)."""
        return self.remember(("short", id(entity)),
                             lambda: not self.bought() and self.may_short_any(entity))

    def may_open_now(self, entity) -> bool:
        """Before a purchase, a founding auction the player may open (remembered)."""
        return self.remember(("open", id(entity)),
                             lambda: not self.bought() and self.may_open(entity))

    def turn_has_any(self, entity) -> bool:
        """Has the player's turn anything: a trade, a short, an auction to open, or acting
        for a corporation (:meth:`player_kinds`)?"""
        return self.some_trade(entity) or self.may_short_now(entity) or \
            self.may_open_now(entity) or self.any_corporate(entity)

    def may_pass(self, entity) -> bool:
        """Passing comes with anything the turn has, except for a player over the
        certificate limit who may sell: they must (as 18xx.games has it; their
        corporations do nothing meanwhile, :meth:`corporate_kinds`)."""
        return not self.must_sell(entity) and self.turn_has_any(entity)

    def passes_plainly(self, entity) -> bool:
        """A pass in a founding (its auction, its winner's choices) is no ordinary pass:
        passing programs wait (a buying program whose target is met still ends there, as
        on 18xx.games)."""
        f = self.founding
        return f.auction is None and f.winner is None

    def candidates(self, entity, kind, offer) -> list:
        if kind in ("bid", "assign", "choose"):
            return self.founding_candidates(entity, kind, offer)
        if kind == "short":
            return [new_action("short", entity, corporation=c.sym)
                    for c in self.table.state.corporations
                    if c.started and not c.closed and self.may_short(entity, c)]
        if kind == "take_loan":
            return [new_action("take_loan", entity, loan=0)]
        if kind == "buy_shares" and isinstance(entity, CorporationState):
            return [new_action("buy_shares", entity, shares=b.ids(), percent=b.percent)
                    for b in self.buy_back_bundles(entity)]
        return super().candidates(entity, kind, offer)

    # -- acting for a corporation ----------------------------------------------------------

    def corporate_kinds(self, corporation) -> tuple:
        """A corporation acts in its president's turn (taking loans, buying its shares
        back), not while the president must sell."""
        player = self.actor()
        if player is None or corporation.owner is not player or corporation.closed or \
                (self.acting_for is not None and self.acting_for is not corporation) or \
                self.round.notes.turn_actions or self.must_sell(player):
            return ()
        kinds = []
        if loans.may_borrow(self.table, corporation) and not self.bought_back:
            kinds.append("take_loan")
        if self.buy_back_bundles(corporation):
            kinds.append("buy_shares")
        return tuple(kinds)

    def any_corporate(self, player) -> bool:
        return any(self.corporate_kinds(c) for c in self.table.state.corporations
                   if c.owner is player)

    def buy_back_bundles(self, corporation) -> list:
        """Any number of its shares in the market that it can pay for."""
        if in_zone(self.table, corporation):
            return []
        market = self.table.state.market
        price = operators.par_value(self.table, corporation)
        held = [c for c in certificates.held(market, corporation)
                if c.percent > 0 and c.buyable and not c.president]
        return [Bundle.of(held[:n]) for n in range(1, len(held) + 1)
                if corporation.cash >= price * n]

    def may_buy_back(self, corporation, bundle) -> bool:
        return any(sorted(b.ids()) == sorted(bundle.ids())
                   for b in self.buy_back_bundles(corporation))

    def mark_done(self) -> None:
        """Acting for a corporation counts as acting in the turn."""
        if self.acting_for is not None and not self.round.notes.turn_actions:
            self.round.notes.turn_actions.append(self.corporate_action)
        super().mark_done()

    @handles("take_loan")
    def borrow(self, action):
        corporation = action.entity
        if "take_loan" not in self.corporate_kinds(corporation):
            raise GameError(f"{corporation.name} cannot take a loan now")

        def commit() -> None:
            self.acting_for = corporation
            self.corporate_action = action
            self.note(action, corporation, counts=False)
            loans.take(self.table, corporation, in_stock_round=True)
            buy_tokens(self.table, corporation)
        return commit

    # -- buying and shorting -------------------------------------------------------------

    @handles("buy_shares")
    def buy(self, action):
        entity = action.entity
        if isinstance(entity, CorporationState):
            return self.buy_back(action)
        commit = super().buy(action)
        corporation = action.bundle.corporation

        def then() -> None:
            was_short = certificates.percent_of(entity, corporation) < 0
            commit()
            if was_short:
                shares.close_short(self.table, entity, action.bundle.certificates[0])
            buy_tokens(self.table, corporation)
        return then

    def buy_back(self, action):
        corporation = action.entity
        bundle = action.bundle
        if "buy_shares" not in self.corporate_kinds(corporation) or \
                bundle.corporation is not corporation or \
                not self.may_buy_back(corporation, bundle):
            raise GameError(f"{corporation.name} cannot buy back that share now")

        def commit() -> None:
            self.acting_for = corporation
            self.corporate_action = action
            self.bought_back = True
            self.take_shares(corporation, bundle)
            self.note(action, corporation, counts=False)
        return commit

    def may_short(self, player, corporation) -> bool:
        table = self.table
        return (not table.phase_has("no_new_shorts") and not self.shorted
                and shares.size_of(corporation) > 2 and operators.has_floated(table, corporation)
                and len(shares.shorts_of(corporation)) < shares.size_of(corporation)
                and not ("five_shorts" in table.spec.options
                         and len(shares.shorts_of(corporation)) >= 5)
                and certificates.percent_of(player, corporation) <= 0
                and not in_zone(table, corporation) and corporation.operated
                and self.sold_in_round(player).get(corporation) != "short")

    def may_short_any(self, player) -> bool:
        return any(self.may_short(player, c) for c in self.table.state.corporations
                   if c.started and not c.closed)

    @handles("short")
    def short(self, action):
        corporation = action.corporation
        if corporation is None or not self.may_short(action.entity, corporation):
            raise GameError(f"cannot short {corporation.name if corporation else '?'}")

        def commit() -> None:
            table = self.table
            price = operators.par_value(table, corporation)
            table.log(f"{action.entity.name} shorts a "
                      f"{certificates.share_percent(corporation)}% share of "
                      f"{corporation.name} for {table.money(price)}")
            self.sold_in_round(action.entity)[corporation] = "short"
            self.shorted = True
            shares.open_short(table, action.entity, corporation)
            loans.bank_pays(table, action.entity, price)
            self.note(action, corporation)
        return commit

    # -- selling ---------------------------------------------------------------------------

    def may_sell_bundle(self, entity, bundle) -> bool:
        """Not while acting for a corporation."""
        return self.acting_for is None and super().may_sell_bundle(entity, bundle)

    def sell_bundle(self, action) -> None:
        super().sell_bundle(action)
        close_market_shorts(self.table, action.bundle.corporation)

    # -- founding --------------------------------------------------------------------------

    @handles("bid")
    def bid(self, action):
        if not isinstance(action.entity, PlayerState):
            raise GameError("only players bid")
        if self.founding.auction is None and action.entity is not self.actor():
            raise GameError(f"it is not {action.entity.name}'s turn")
        self.check_founding_bid(action)
        return lambda: self.commit_founding_bid(action)

    @handles("choose")
    def choose_size(self, action):
        if self.founding.winner is not action.entity or self.founding.size is not None:
            raise GameError("no size to choose now")
        size = self.check_choice_of_size(action)

        def commit() -> None:
            self.size_chosen(size)
            self.finish_founding_if_done()
        return commit

    @handles("assign")
    def assign(self, action):
        if self.founding.winner is not action.entity or self.founding.size is None:
            raise GameError(f"{action.entity.name} is not forming a corporation")
        self.check_assign(action)
        return lambda: self.commit_assign(action)

    @handles("pass")
    def decline(self, action):
        f = self.founding
        if f.winner is not None:
            if action.entity is not f.winner or f.size is None or action.entity.cash < 0:
                raise GameError(f"{action.entity.name} must pay the bid in full first")
            return self.finish_founding
        if f.auction is not None:
            return lambda: self.drop_from_founding(action)
        if isinstance(action.entity, CorporationState):
            raise GameError("corporations do not pass")
        if self.acting_for is not None:
            def stop_acting() -> None:
                self.table.log(f"{action.entity.name} finishes acting for "
                               f"{self.acting_for.name}")
                self.round.notes.turn_actions.append(action)
                self.mark_done()
            return stop_acting
        return super().decline(action)


def close_market_shorts(table, corporation) -> None:
    """The market closes its shorts with the shares it holds (not the president's)."""
    market = table.state.market
    count = 0
    while shares.holder_shorts(market, corporation):
        held = [c for c in certificates.held(market, corporation)
                if c.percent > 0 and not c.president]
        if not held:
            break
        shares.close_short(table, market, held[0])
        count += 1
    if count:
        table.log(f"Market closes {count} shorts for {corporation.name}")


def close_bank_shorts(table) -> None:
    """Before a stock round: the market buys what it is short of from the treasuries, the
    bank paying each corporation its share's price, and closes those shorts."""
    market = table.state.market
    for corporation in table.state.corporations:
        if corporation.price is None or in_zone(table, corporation):
            continue
        count = 0
        while shares.holder_shorts(market, corporation) and certificates.treasury(corporation):
            share = certificates.treasury(corporation)[0]
            bundle = Bundle.of([share])
            table.log(f"Market buys a {share.percent}% share of {corporation.name} from the "
                      f"Treasury for {table.money(certificates.bundle_price(table, bundle))}")
            certificates.change_hands(table, bundle, market, payer=table.state.bank,
                                      payee=corporation, presidency_may_change=False)
            shares.close_short(table, market, share)
            count += 1
        if count:
            table.log(f"Market closes {count} shorts for {corporation.name}")


class StockRound1817(StockRound):
    """The family's stock round (see the module docstring)."""

    def at_end(self) -> None:
        table = self.table
        corps = [c for c in table.state.corporations
                 if not c.closed and c.price is not None and operators.has_floated(table, c)]
        for corp in operators.by_price(table, corps):
            old = corp.price
            held = sum(p for p in certificates.player_holders(corp).values() if p > 0)
            if shares.size_of(corp) > 2 and held >= 100:
                market.move_price(table, corp, market.Direction.UP)
                if "short_squeeze" in table.spec.options and held > 100:
                    market.move_price(table, corp, market.Direction.UP)
            market.pool_drop(table, corp, operators.shares_in_market(table, corp))
            market.report_move(table, corp, old)
        for corporation in table.state.corporations:
            if operators.has_floated(table, corporation) and not corporation.operated \
                    and not corporation.closed and tokens_needed(corporation) > 0:
                table.log(f"{corporation.name} did not purchase tokens and liquidates")
                loans.liquidate(table, corporation)
        for company in table.state.companies:
            if company.sym == "TS" and not company.closed and \
                    isinstance(company.owner, CorporationState):
                powers.close_company(table, company)
                table.log(f"{company.name} closes")
