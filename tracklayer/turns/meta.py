"""Steps every round has: ending the game by agreement, chat, and programmed actions."""

from __future__ import annotations

from ..actions import PROGRAM_KINDS
from ..rules import endgame
from ..state.model import CompanyState, PlayerState
from .step import Step, handles


class EndByAgreement(Step):
    """A player may end the game."""

    NAME = "End the game"
    PASSES = False
    HOLDS = False

    def kinds(self, entity):
        return () if isinstance(entity, CompanyState) else ("end_game",)

    @handles("end_game")
    def end(self, action):
        def commit() -> None:
            self.table.log(f"Game ended manually by {action.entity.name}")
            endgame.finish(self.table, "manually_ended")
        return commit


class Chat(Step):
    """Chat messages: at any time, changing nothing."""

    NAME = "Chat"
    PASSES = False
    CHANGES_POSITION = False
    IN_PLAY = False
    HOLDS_ONCE_OVER = True

    def kinds(self, entity):
        return ("message",) if isinstance(entity, PlayerState) else ()

    def holds(self) -> bool:
        """Only once the game is over (``HOLDS_ONCE_OVER``)."""
        return self.table.state.end.finished

    def lapse(self) -> None:
        pass

    def mark_done(self) -> None:
        pass

    def reopen(self) -> None:
        pass

    @handles("message")
    def chat(self, action):
        return lambda: None


class Programs(Step):
    """Programmed actions: a player asks the engine to act for them (pass, buy until a
    corporation floats …); the engine records what they do as ``auto_actions``."""

    NAME = "Programs"
    PASSES = False
    HOLDS = False
    CHANGES_POSITION = False     # (programs are read only for the actions they take)

    def kinds(self, entity):
        return PROGRAM_KINDS if isinstance(entity, PlayerState) else ()

    def lapse(self) -> None:
        pass

    @handles("program_share_pass", "program_auction_bid", "program_merger_pass",
             "program_independent_mines", "program_harzbahn_draft_pass", "program_close_pass",
             "program_buy_shares")
    def enable(self, action):
        """The player's program, kept with the place its action took among those carried
        out (``set_at``: what happened before it does not stop it)."""
        def commit() -> None:
            self.withdraw(action.entity)
            self.table.state.programs.setdefault(action.entity, []).append(
                dict(action.h, set_at=action.order))
        return commit

    @handles("program_disable")
    def disable(self, action):
        return lambda: self.withdraw(action.entity)

    def withdraw(self, player) -> None:
        """A player has one program at a time: setting or ending one ends the last."""
        programs = self.table.state.programs.setdefault(player, [])
        if programs:
            programs.pop()


ENDING, MESSAGES, PROGRAMS = EndByAgreement, Chat, Programs
