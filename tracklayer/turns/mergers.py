"""A round in which shareholders vote on forming a corporation from minor companies
(1893's merger rounds).

Each holder of a minor (or company) that would be exchanged, and each holder of shares
of the new corporation, votes yes or no in turn with their percentage; 50% yes forms it,
more than 50% no does not. A corporation formed may give back any trains it received.
The title says what is offered (:meth:`VoteRound.offer`) and how a corporation forms.
"""

from __future__ import annotations

from ..errors import GameError
from ..rules import certificates, trains
from ..state.model import CompanyState
from .round import StockRound
from ..actions import new_action
from .step import Step, handles
from .trains import DiscardStep


class VoteRound(StockRound):
    """See the module docstring. Titles supply :meth:`offer`, :meth:`exchanged` (what
    each target's voters bring) and :meth:`form`."""

    is_merger = True

    def offer(self) -> None:
        """Fill ``self.offering`` (calling :meth:`add_vote`), forming what must form."""
        raise NotImplementedError

    def exchanged(self, target) -> list:
        """The minors and companies exchanged when ``target`` forms."""
        raise NotImplementedError

    def form(self, target) -> None:
        raise NotImplementedError

    def discards_due(self) -> list:
        raise NotImplementedError

    def choose_entities(self) -> list:
        self.offering: list = []
        self.voters: list = []
        self.votes: dict = {}
        self.yes = self.no = 0
        self.decided = None
        self.offer()
        if not self.offering:
            return self.table.state.players
        self.no = 100 - sum(self.votes.values())
        return self.voters

    def add_vote(self, player, percent: int) -> None:
        if player in self.voters:
            self.votes[player] += percent
        else:
            self.voters.append(player)
            self.votes[player] = percent

    def add_holder_votes(self, corporation) -> None:
        """Each player votes with the shares of ``corporation`` they hold (10 a share)."""
        for player in self.table.state.players:
            percent = int(10 * certificates.shares_of(player, corporation))
            if percent > 0:
                self.add_vote(player, percent)

    def begin(self) -> None:
        super().begin()
        self.lapse_idle_steps()
        if not self.offering or not self.own_candidates(self.acting()):
            self.advance()

    def at_end(self) -> None:
        pass

    def over(self) -> bool:
        return not self.offering and not self.discards_due()

    def target(self):
        return self.offering[0] if self.offering else None

    def acting(self):
        return self.voters[self.index] if self.index < len(self.voters) else None

    def own_candidates(self, player) -> list:
        target = self.target()
        found = self.exchanged(target) if target is not None else []
        return [c for c in found if c is not None and c.owner is player]

    def count_vote(self, choice: str) -> None:
        voter = self.acting()
        percent = self.votes[voter]
        if choice == "yes":
            self.yes += percent
            self.decided = self.yes >= 50
            if not self.decided:
                return
            target = self.target()
            self.table.log(f"-- {target.name} is founded by a 50%+ yes vote")
            self.form(target)
            self.offering.pop(0)
        elif choice == "no":
            self.no += percent
            self.decided = self.no > 50
            if not self.decided:
                return
            self.offering.pop(0)
        else:
            raise GameError(f"vote yes or no, not {choice!r}")


class OptionalDiscard(DiscardStep):
    """The president of a newly formed corporation may give back any of its trains."""

    NAME = "Optional Discard of Any Trains"
    PASSES = True     # unlike a discard over the limit

    def crowded(self) -> list:
        return self.round.discards_due()[:1]

    def kinds(self, entity):
        if entity not in self.round.discards_due():
            return ()
        if trains.limit(self.table, entity) < len(entity.trains):
            return ("discard_train",)
        return ("discard_train", "pass")

    def has_turn(self) -> bool:
        return self.live()

    @handles("discard_train")
    def discard(self, action):
        commit = super().discard(action)

        def then() -> None:
            commit()
            if not action.entity.trains:
                self.round.discards_due().pop(0)
        return then

    @handles("pass")
    def decline(self, action):
        entity = action.entity
        if len(entity.trains) > trains.limit(self.table, entity):
            raise GameError(f"{entity.name} exceeds its train limit")

        def commit() -> None:
            self.round.discards_due().pop(0)
            self.tell_pass(entity)
            self.mark_done()
        return commit


class Vote(Step):
    """Each voter says yes or no (a ``special_buy`` of the item "yes" or "no")."""

    def describe(self) -> str:
        target = self.round.target()
        return f"Merge of {target.name if target else ''}"

    def open(self) -> bool:
        return bool(self.round.offering) or not self.round.decided

    def kinds(self, entity):
        if isinstance(entity, CompanyState) or not self.open():
            return ()
        r = self.round
        voter = r.acting()
        target = r.target()
        has_shares = voter is not None and target is not None and \
            bool(certificates.held(voter, target))
        if not r.own_candidates(voter) and not has_shares:
            return ()
        return ("special_buy",)

    def actors(self) -> list:
        return [self.round.acting()]

    def live(self) -> bool:
        return self.open()

    def has_turn(self) -> bool:
        return self.open()

    def choices(self) -> list:
        return ["yes", "no"] if self.open() else []

    def candidates(self, entity, kind, offer) -> list:
        if kind != "special_buy":
            return super().candidates(entity, kind, offer)
        return [new_action("special_buy", entity, description=c, cost=0) for c in self.choices()]

    @handles("special_buy")
    def vote(self, action):
        if action.entity is not self.round.acting():
            raise GameError(f"it is not {action.entity.name}'s turn to vote")
        if action.item not in ("yes", "no"):
            raise GameError(f"vote yes or no, not {action.item!r}")

        def commit() -> None:
            self.round.count_vote(action.item)
            self.round.advance()
        return commit
