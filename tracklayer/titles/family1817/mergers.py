"""The rounds after each 1817 operating round: the merger and conversion round, then the
acquisition round.

Merger and conversion: each corporation in the white zone of the market (floated, not in
the acquisition or liquidation zone), by price, may convert (2 → 5 or 5 → 10 shares)
or pass. After a conversion the players, from its president on, may buy its new treasury
shares (the president as many as they like, the others one) or sell theirs; then it may
take loans; then it buys the tokens its new size needs (one as 5 shares, up to two more
as 10, eight at most) or is liquidated.

Acquisition (``acquisition``): corporations are offered in turn, cheapest first.
"""

from __future__ import annotations

from typing import Iterator

from ...actions import new_action
from ...errors import GameError
from ...rules import board, certificates, money, network, operators, trading
from ...rules.certificates import Bundle
from ...state.model import TokenState
from ...turns.round import Round
from ...turns.step import Kinds, Step, handles
from ...state.model import PlayerState
from ...turns import programs
from ...turns.stock import BuyingShares
from ...turns.trains import DiscardStep
from . import loans, merging, shares
from .stock import in_zone


class MergerRound(Round):
    NAME = "Merger and Conversion Round"
    is_merger = True
    NUMBERED_IN_SET = True

    def choose_entities(self) -> list:
        table = self.table
        corps = [c for c in table.state.corporations
                 if not c.closed and operators.has_floated(table, c) and not in_zone(table, c)]
        return operators.by_price(table, corps)

    def begin(self) -> None:
        self.lapse_idle_steps()
        if self.active_step() is None:
            self.advance()

    def __init__(self, table, steps: list, number: int = 1) -> None:
        self.converted = None          # the corporation that just converted
        self.converts: list = []       # those that converted or merged this round
        self.reducing = None           # merging.TokensToReduce, while tokens must go
        self.converted_price = None
        self.tokens_due = 0
        self.loans_done = False
        super().__init__(table, steps, number)

    def after_action(self, action) -> None:
        if self.active_step() is None:
            self.conversion_done()
            self.forget()          # the conversion's tokens and loans are settled
            self.advance()

    def conversion_done(self) -> None:
        corporation = self.converted
        if corporation is None:
            return
        table = self.table
        need, cost = self.tokens_due, self.tokens_due * 50
        if need and cost > corporation.cash:
            loans.liquidate(table, corporation)
            table.log(f"{corporation.name} cannot purchase required tokens and liquidates")
        elif need:
            money.pay(table, corporation, table.state.bank, cost)
            corporation.tokens.extend(TokenState(corporation) for _ in range(need))
            table.log(f"{corporation.name} pays {table.money(cost)} for {need} "
                      f"token{'s' if need > 1 else ''}")
        self.converted = None
        self.tokens_due = 0
        self.loans_done = False
        for p in table.state.players:
            p.passed = False

    def advance(self) -> None:
        while self.index < len(self.entities) - 1:
            self.index += 1
            self.reopen_steps()
            self.forget()
            self.lapse_idle_steps()
            if self.active_step() is not None:
                return
        self.index = len(self.entities)

    def over(self) -> bool:
        # a corporation over its train limit discards before the round ends, even when
        # no corporation is left to convert or merge (one in liquidation still discards)
        step = self.active_step()
        return step is None or (self.index >= len(self.entities)
                                and not isinstance(step, DiscardStep))


class ConversionStep(Step):
    """A corporation converts or passes."""

    NAME = "Convert or Merge"
    BARE_KINDS = ("convert",)

    def kinds(self, entity):
        if entity is not self.actor():
            return ()
        return Kinds(self.turn_kinds(entity), rules={"pass": lambda: self.may_pass(entity)})

    def may_pass(self, entity) -> bool:
        """Passing comes with converting or merging (:meth:`turn_kinds`): a corporation
        that may convert is not asked for partners."""
        return self.may_convert(entity) or \
            bool(merging.partners(self.table, entity, self.round.converts))

    def turn_kinds(self, entity) -> Iterator[str]:
        """Converting (a 2- or 5-share corporation), merging (with some partner: sought
        only when asked, a corporation that may convert having its turn already), then
        passing with either."""
        found = False
        if self.may_convert(entity):
            found = True
            yield "convert"
        if merging.partners(self.table, entity, self.round.converts):
            found = True
            yield "merge"
        if found:
            yield "pass"

    def candidates(self, entity, kind, offer) -> list:
        if kind == "merge":
            return [new_action("merge", entity, corporation=c.sym)
                    for c in merging.partners(self.table, entity, self.round.converts)]
        return super().candidates(entity, kind, offer)

    def auto_moves(self, entity):
        """A merger-pass program of its president passes for the corporation."""
        owner = entity.owner
        if isinstance(owner, PlayerState) and "pass" in self.kinds(entity) and \
                entity.sym in programs.merger_passes(self.table, owner, "MR"):
            return [new_action("pass", entity)]
        return None

    @handles("merge")
    def merge(self, action):
        corporation, other = action.entity, action.corporation
        if other not in merging.partners(self.table, corporation, self.round.converts):
            raise GameError(f"Choose a corporation to merge with {corporation.name}")

        def commit() -> None:
            r = self.round
            r.reducing = merging.merge(self.table, corporation, other)
            if other in r.entities:
                at = r.entities.index(other)
                r.entities.remove(other)
                if at < r.index:
                    r.index -= 1
            self.changed_size(corporation)
        return commit

    def changed_size(self, corporation) -> None:
        """A corporation grew (by a merger or a conversion): the shares it offers are sold
        next, every player taking part again, and the step is over."""
        r = self.round
        r.converted = corporation
        r.converted_price = corporation.price
        r.converts.append(corporation)
        for p in self.table.state.players:
            p.passed = False
        self.mark_done()

    def may_convert(self, corporation) -> bool:
        return shares.size_of(corporation) in (2, 5)

    @handles("convert")
    def convert(self, action):
        corporation = action.entity
        if not self.may_convert(corporation):
            raise GameError(f"{corporation.name} cannot convert now")

        def commit() -> None:
            before = shares.size_of(corporation)
            shares.convert(self.table, corporation)
            after = shares.size_of(corporation)
            self.table.log(f"{corporation.name} converts from {before} to {after} shares")
            held = len(corporation.tokens)
            r = self.round
            r.tokens_due = (1 if held < 8 else 0) if after == 5 else min(max(8 - held, 0), 2)
            self.changed_size(corporation)
        return commit


class AfterConversionShares(BuyingShares, Step):
    """After a conversion, the players from its president on buy its new treasury shares
    or sell theirs (see the module docstring)."""

    NAME = "Buy/Sell Shares Post Conversion"

    def live(self) -> bool:
        return self.round.converted is not None

    def treasury_share(self):
        corporation = self.round.converted
        found = [c for c in certificates.treasury(corporation) if c.percent > 0]
        return Bundle.of([found[0]]) if found else None

    def may_buy(self, player) -> bool:
        bundle = self.treasury_share()
        if bundle is None:
            return False
        corporation = bundle.corporation
        if player.cash < operators.par_value(self.table, corporation):
            return False
        return bool(shares.holder_shorts(player, corporation)) or \
            self.may_take(player, bundle)

    def may_sell_any(self, player) -> bool:
        corporation = self.round.converted
        return corporation.owner is not player and \
            certificates.percent_of(player, corporation) > 0

    def actors(self) -> list:
        """The first player, from the converted corporation's president on, who may buy
        its share or sell theirs (remembered while the position stands: its kinds, and
        whether it holds the turn, each ask it)."""
        return self.remember("actors", self.next_to_act)

    def next_to_act(self) -> list:
        r = self.round
        corporation = r.converted
        if corporation is None or corporation.price != r.converted_price:
            return []
        players = self.table.state.players
        start = players.index(corporation.owner)
        for p in players[start:] + players[:start]:
            if not p.passed and not p.bankrupt and (self.may_buy(p) or self.may_sell_any(p)):
                return [p]
        return []

    def kinds(self, entity):
        if entity is not self.actor():
            return ()
        out = [k for k, ok in (("buy_shares", self.may_buy(entity)),
                               ("sell_shares", self.may_sell_any(entity))) if ok]
        return tuple(out + ["pass"]) if out else ()

    def candidates(self, entity, kind, offer) -> list:
        if kind == "buy_shares":
            b = self.treasury_share()
            return [new_action("buy_shares", entity, shares=b.ids(), percent=b.percent)]
        return super().candidates(entity, kind, offer)

    @handles("buy_shares")
    def buy(self, action):
        player, bundle = action.entity, action.bundle
        if bundle.owner is not self.round.converted or not self.may_buy(player):
            raise GameError(f"{player.name} cannot buy that share now")

        def commit() -> None:
            corporation = bundle.corporation
            short = certificates.percent_of(player, corporation) < 0
            self.take_shares(player, bundle)
            if short:
                shares.close_short(self.table, player, bundle.certificates[0])
            if corporation.owner is not player or not self.may_buy(player):
                player.passed = True
        return commit

    @handles("sell_shares")
    def sell(self, action):
        if action.bundle.corporation is not self.round.converted or \
                not self.may_sell_any(action.entity):
            raise GameError(f"{action.entity.name} cannot sell that now")

        def commit() -> None:
            trading.sell(self.table, action.bundle)
            action.entity.passed = True
        return commit

    @handles("pass")
    def decline(self, action):
        def commit() -> None:
            self.tell_pass(action.entity)
            action.entity.passed = True
        return commit


class AfterConversionLoans(Step):
    """Then the converted corporation may take loans, until it passes."""

    NAME = "Taking Loans"

    def live(self) -> bool:
        r = self.round
        return r.converted is not None and not r.loans_done

    def actors(self) -> list:
        r = self.round
        return [r.converted] if r.converted is not None and \
            loans.may_borrow(self.table, r.converted) else []

    def kinds(self, entity):
        return ("take_loan", "pass") if entity is self.actor() else ()

    def candidates(self, entity, kind, offer) -> list:
        if kind == "take_loan":
            return [new_action("take_loan", entity, loan=0)]
        return super().candidates(entity, kind, offer)

    @handles("take_loan")
    def borrow(self, action):
        return lambda: loans.take(self.table, action.entity)

    @handles("pass")
    def decline(self, action):
        def commit() -> None:
            self.round.loans_done = True
        return commit


class ReduceTokens(Step):
    """A survivor over the token limit (or with two tokens in a hex) takes tokens off the
    map, its own or the other's, then takes the other's."""

    NAME = "Remove Tokens"

    def live(self) -> bool:
        return self.round.reducing is not None

    def actors(self) -> list:
        pending = self.round.reducing
        return [pending.survivor] if pending is not None else []

    def kinds(self, entity):
        return ("remove_token",) if entity is self.actor() else ()

    def may_remove_in(self, hex_id: str) -> bool:
        pending = self.round.reducing
        mine = hex_id in merging.hexes_of(pending.survivor.tokens)
        theirs = hex_id in merging.hexes_of(pending.theirs)
        shared = set(merging.hexes_of(pending.survivor.tokens)) & \
            set(merging.hexes_of(pending.theirs))
        return (mine and theirs) if shared else (mine or theirs)

    def candidates(self, entity, kind, offer) -> list:
        if kind != "remove_token":
            return super().candidates(entity, kind, offer)
        pending = self.round.reducing
        out = []
        for token in pending.survivor.tokens + pending.theirs:
            if token.where is None or not self.may_remove_in(token.where[0]):
                continue
            hex_id, index = token.where
            node = board.view(self.table, hex_id).cities[index]
            slots = node.city.slots + node.city.extra
            out.append(new_action("remove_token", entity, city=node.id,
                                  slot=slots.index(token)))
        return out

    @handles("remove_token")
    def remove(self, action):
        pending = self.round.reducing
        node = action.city
        slots = node.city.slots + node.city.extra if node.city is not None else []
        token = slots[action.slot] if isinstance(action.slot, int) and \
            0 <= action.slot < len(slots) else None
        if token is None or not (token in pending.survivor.tokens or token in pending.theirs) \
                or not self.may_remove_in(node.hex):
            raise GameError(f"Cannot remove that token from {node.hex}")

        def commit() -> None:
            table = self.table
            board.lift_token(table, token)
            network.forget(table)
            table.log(f"{pending.survivor.name} removes token from {node.hex}")
            if merging.too_many_tokens(pending.survivor, pending.theirs):
                return
            for holder in table.state.corporations:
                if holder is not pending.survivor:
                    holder.tokens = [t for t in holder.tokens if t not in pending.theirs]
            merging.join_tokens(table, pending.survivor, pending.theirs)
            self.round.reducing = None
        return commit


def merger_round(table, number: int):
    table.log(f"-- Merger and Conversion Round {table.state.turn}.{number} --")
    table.state.round_count += 1
    return MergerRound(table, [ReduceTokens, DiscardStep, AfterConversionShares, AfterConversionLoans,
                              ConversionStep],
                       number)


def is_acquisition(r) -> bool:
    return r.NAME == "Acquisition Round"
