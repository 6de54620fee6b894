"""Steps: the parts of a round (lay track, place a token, run trains …).

A step answers :meth:`Step.actions` — which action types an entity may take now — and
processes those actions. A round asks its steps in order; the first *blocking* step (one that
has actions for the entity whose turn it is) is where play stands. Steps that have nothing to
offer are skipped, which can have effects (withholding when no route can be run).
"""

from __future__ import annotations

from typing import List, Optional

from .errors import GameError


class Step:
    """Base step."""

    ACTIONS: tuple = ()
    type = "step"

    def __init__(self, game, round, **opts) -> None:
        self.game = game
        self.round = round
        self.opts = opts
        self.acted = False
        self.passed = False
        self.memo: dict = {}

    # -- what can be done ------------------------------------------------------------------

    def actions(self, entity) -> List[str]:
        """Action types ``entity`` may take in this step now."""
        return []

    def description(self) -> str:
        return type(self).__name__

    def round_state(self) -> dict:
        """Attributes this step keeps on its round, with their starting values."""
        return {}

    def setup(self) -> None:
        """Called when the round starts and at every new entity's turn."""

    def blocks(self) -> bool:
        return True

    def blocking(self) -> bool:
        return self.blocks() and bool(self.current_actions())

    def active(self) -> bool:
        return not self.passed

    def cached_actions(self, entity) -> List[str]:
        """:meth:`actions`, remembered until the round clears its cache (state changed)."""
        key = id(entity)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = self.actions(entity)
        return found

    def current_actions(self) -> List[str]:
        entity = self.current_entity()
        if entity is None or entity.closed:
            return []
        return self.cached_actions(entity)

    def active_entities(self) -> list:
        entities = self.round.entities
        i = self.round.entity_index
        return [entities[i]] if i < len(entities) else [None]

    def current_entity(self):
        entities = self.active_entities()
        return entities[0] if entities else None

    def auto_actions(self, entity) -> Optional[list]:
        return None

    # -- passing ---------------------------------------------------------------------------

    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        self.passed = False
        self.acted = False

    def skip(self) -> None:
        """Nothing to do here: move on (logging that the entity skips)."""
        entity = self.current_entity()
        if not self.acted and entity is not None:
            self.log_skip(entity)
        self.pass_()

    def process_pass(self, action) -> None:
        self.log_pass(action.entity)
        self.pass_()

    def log_pass(self, entity) -> None:
        self.game.log(f"{entity.name} passes {self.description().lower()}")

    def log_skip(self, entity) -> None:
        self.game.log(f"{entity.name} skips {self.description().lower()}")

    def buying_power(self, entity) -> int:
        return self.game.buying_power(entity)

    # -- choices (``choose`` actions) ------------------------------------------------------

    CHOICES: tuple = ()

    def choices(self) -> list:
        """What a ``choose`` action may pick in this step."""
        return list(self.CHOICES)

    def check_choice(self, action) -> None:
        choices = self.choices()
        if action.choice not in choices:
            raise GameError(f"choose one of {', '.join(choices)}")


class EndGameStep(Step):
    """A player may end the game manually."""

    ACTIONS = ("end_game",)

    def actions(self, entity):
        return [] if entity.is_company else ["end_game"]

    def blocks(self) -> bool:
        return False

    def process_end_game(self, action) -> None:
        self.game.log(f"Game ended manually by {action.entity.name}")
        self.game.end_game("manually_ended")


class MessageStep(Step):
    """Chat messages: allowed at any time, change nothing."""

    def actions(self, entity):
        return ["message"] if entity.is_player else []

    def process_message(self, action) -> None:
        pass

    def skip(self) -> None:
        pass

    def pass_(self) -> None:
        pass

    def unpass(self) -> None:
        pass

    def blocks(self) -> bool:
        return self.game.finished


PROGRAM_ACTIONS = ("program_auction_bid", "program_buy_shares", "program_independent_mines",
                   "program_merger_pass", "program_harzbahn_draft_pass", "program_share_pass",
                   "program_close_pass", "program_disable")


class ProgramStep(Step):
    """Programmed actions: a player asks the engine to act for them (auto-pass, buy until
    floated…). The engine then adds the resulting actions as ``auto_actions``."""

    def actions(self, entity):
        return list(PROGRAM_ACTIONS) if entity.is_player else []

    def blocks(self) -> bool:
        return False

    def skip(self) -> None:
        pass

    def process_program_enable(self, action) -> None:
        self.remove_program(action.entity, action.type)
        self.game.programs.setdefault(action.entity, []).append(action)
        hook = getattr(self.round, "player_enabled_program", None)
        if hook:
            hook(action.entity)

    def process_program_buy_shares(self, action) -> None:
        if action.h.get("until_condition") is None and not self.game.loading:
            raise GameError("until condition is unset")
        self.process_program_enable(action)

    process_program_share_pass = process_program_enable
    process_program_auction_bid = process_program_enable
    process_program_merger_pass = process_program_enable
    process_program_independent_mines = process_program_enable
    process_program_harzbahn_draft_pass = process_program_enable
    process_program_close_pass = process_program_enable

    def process_program_disable(self, action) -> None:
        self.remove_program(action.entity, action.h.get("original_type"))

    def remove_program(self, entity, type_):
        programs = self.game.programs.setdefault(entity, [])
        existing = None
        if type_ and self.game.ALLOW_MULTIPLE_PROGRAMS:
            existing = next((p for p in programs if p.type == type_), None)
        elif programs:
            existing = programs[-1]
        if existing is not None:
            programs.remove(existing)
        return existing
