"""The Old Prince 1871 — splitting a corporation into a Branch ("Rozdělení").

A president holding 40% of a corporation with two stations on the map may, as the
action of a stock turn and while a tranche has room, split it. In order they choose:
the branch; the stations it takes over (at least one, never the home; with a single
candidate it is taken at once); its starting price (a single one left is taken at once);
the trains it takes (asked even when the corporation has none: "done" is then the only
choice, as on 18xx.games); the cash it takes (any amount up to all the corporation's,
listed as one range); whether it takes the Hunslet (only if the corporation owns it). At
the price chosen the shares are exchanged: the president gives two shares for the
branch's president's certificate, every holder (and the market) one branch share for
every two shares; the shares given go to the corporation's treasury, which is from then on
capitalised incrementally, and the bank pays the branch the price of each of its shares
left in the market. The split ends the president's turn.
"""

from __future__ import annotations

from dataclasses import replace

from ...actions import new_action
from ...errors import GameError
from ...rules import board, certificates, market, money, powers, trains
from ...rules.certificates import Bundle
from ...turns.step import Step, handles
from .notes import notes
from .tranches import enter_tranche

BRANCH, TOKENS, PAR, TRAINS, CASH, HUNSLET = range(6)


class Splitting:
    """A split under way."""

    def __init__(self, corporation) -> None:
        self.corporation = corporation
        self.branch = None
        self.stage = BRANCH


def _placed_away(corporation) -> list:
    """The corporation's stations on the map other than at its home, by token index."""
    home = corporation.spec.home
    if sum(1 for t in corporation.tokens if t.where is not None) < 2:
        return []
    return [i for i, t in enumerate(corporation.tokens)
            if t.where is not None and t.where[0] != home]


class SplitStep(Step):
    """See the module docstring."""

    NAME = "Split"

    def split(self):
        return notes(self.table).split

    def live(self) -> bool:
        return self.split() is not None

    def kinds(self, entity):
        return ("choose",) if self.split() is not None and entity is self.actor() else ()

    def begin(self, corporation) -> None:
        notes(self.table).split = Splitting(corporation)
        self.table.log(f"{self.actor().name} splits {corporation.spec.name}")

    def choices(self) -> list:
        s, table = self.split(), self.table
        if s.stage == BRANCH:
            return [c.sym for c in table.state.corporations
                    if c.spec.name.endswith("Branch") and not c.started]
        if s.stage == TOKENS:
            out = [str(i) for i in _placed_away(s.corporation)]
            return out + (["done"] if self.branch_stations() else [])
        if s.stage == PAR:
            return [c.id for c in table.variant.start_cells(table, s.branch, self.actor())]
        if s.stage == TRAINS:
            return [t.id for t in s.corporation.trains] + ["done"]
        if s.stage == HUNSLET:
            return ["yes", "no"]
        return []       # the cash: an amount (:meth:`candidates`)

    def candidates(self, entity, kind, offer) -> list:
        """In the cash stage, the amount the branch takes: any from nothing to all the
        corporation's cash, listed as one range."""
        s = self.split()
        if kind == "choose" and s is not None and s.stage == CASH:
            return [new_action("choose", entity, choice=a)
                    for a in offer.prices(0, s.corporation.cash, field="choice")]
        return super().candidates(entity, kind, offer)

    def branch_stations(self) -> int:
        return sum(1 for t in self.split().branch.tokens if t.where is not None)

    @handles("choose")
    def choose(self, action):
        s = self.split()
        choice = action.choice
        if s.stage == CASH:
            if isinstance(choice, bool) or not isinstance(choice, int) and \
                    not str(choice).isdigit():
                raise GameError(f"{choice!r} is not an amount")
            amount = int(choice)
            if not 0 <= amount <= s.corporation.cash:
                raise GameError(f"{s.corporation.name} does not have "
                                f"{self.table.money(amount)}")
            return lambda: self.take_cash(amount)
        if str(choice) not in self.choices():
            raise GameError(f"choose one of {', '.join(self.choices())}")
        return lambda: self.take(str(choice))

    def take(self, choice: str) -> None:
        s, table = self.split(), self.table
        if s.stage == BRANCH:
            s.branch = table.corporation(choice)
            table.log(f"{self.actor().name} picks {s.branch.spec.name} as the new company")
            s.stage = TOKENS
            return self.single_station()
        if s.stage == TOKENS:
            if choice == "done":
                s.stage = PAR
                return None
            self.swap_station(int(choice))
            if not _placed_away(s.corporation):
                s.stage = PAR
                cells = self.choices()
                if len(cells) == 1:     # a single starting price left is taken at once
                    self.take(cells[0])
            return None
        if s.stage == PAR:
            self.exchange(table.spec.cell_by_id(choice))
            s.stage = TRAINS    # asked even with no train to give: only "done" then
            return None
        if s.stage == TRAINS:
            if choice == "done":
                s.stage = CASH
                return None
            train = table.find("train", choice)
            trains.hand_over(table, train, s.branch, None)
            if not s.corporation.trains:
                s.stage = CASH
            return None
        if choice == "yes":
            powers.give(table, table.company("HSE"), s.branch)
        self.finish()

    def single_station(self) -> None:
        """With one station to take over, it is taken at once."""
        away = _placed_away(self.split().corporation)
        if len(away) == 1:
            self.take(str(away[0]))

    def swap_station(self, index: int) -> None:
        s, table = self.split(), self.table
        old = s.corporation.tokens[index]
        hex_id, city = old.where
        table.log(f"{s.corporation.name} token in {hex_id} is replaced with "
                  f"{s.branch.name} token")
        board.lift_token(table, old)
        s.corporation.tokens.remove(old)
        new = next(t for t in s.branch.tokens if t.where is None)
        board.put_token(table, hex_id, city, new)

    def take_cash(self, amount: int) -> None:
        s, table = self.split(), self.table
        if amount:
            money.pay(table, s.corporation, s.branch, amount)
        hunslet = table.company("HSE")
        if hunslet is not None and not hunslet.closed and hunslet.owner is s.corporation:
            s.stage = HUNSLET
            return
        self.finish()

    def finish(self) -> None:
        """The split is over, and so is the president's turn (the action's place in the
        order is noted: a stock round ending with it ends as :meth:`at_end` says)."""
        self.table.log("Split completed")
        notes(self.table).split = None
        notes(self.table).split_ended_at = self.table.state.carried_out
        for step in self.round.steps:
            if step is not self and step.holds() and step.live() and step.holding():
                step.mark_done()
                break

    def exchange(self, cell) -> None:
        """See the module docstring."""
        s, table = self.split(), self.table
        corp, branch, state = s.corporation, s.branch, table.state
        president = corp.owner
        table.log(f"Setting par of {branch.spec.name} to {table.money(cell.price)}")
        market.start_at(table, branch, cell.at)
        branch.started = True
        enter_tranche(table, branch)
        corp.spec = replace(corp.spec, capitalization="incremental")
        given = [c for c in certificates.held(president, corp) if not c.president][:2]
        _move(table, given, corp)
        _move(table, [branch.certificates[0]], president)
        branch.owner = president
        for holder in list(state.players) + [state.market]:
            held = [c for c in certificates.held(holder, corp) if not c.president]
            count = sum(c.percent for c in held) // 10 // 2
            if count <= 0:
                continue
            _move(table, held[:count], corp)
            # (The market's branch shares are its own already: those it takes go to the
            # back of its pile, as any it receives, the order in which it later gives them.)
            _move(table, certificates.held(state.market, branch)[:count], holder)
        left = len(certificates.held(state.market, branch))
        money.pay(table, state.bank, branch, cell.price * left)
        table.log(f"{branch.name} receives {table.money(branch.cash)} from {left} market "
                  f"shares")


def _move(table, certs, to) -> None:
    if certs:
        certificates.change_hands(table, Bundle.whole(certs), to, price=0,
                                  presidency_may_change=False)
