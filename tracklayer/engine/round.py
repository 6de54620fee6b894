"""Rounds: stock rounds, operating rounds, auctions and drafts.

A round owns a list of steps and an ordered list of entities whose turns it runs. An action
goes to the first active step that either is blocking (it is where play stands) or accepts
the action type (non-blocking steps such as messages and programs).
"""

from __future__ import annotations

from typing import List

from .errors import GameError
from .step import EndGameStep, MessageStep, ProgramStep


class Round:
    name = "Round"
    short_name = "R"
    DEFAULT_STEPS = (EndGameStep, MessageStep, ProgramStep)
    is_stock = is_operating = is_merger = is_auction = False

    def __init__(self, game, steps: list, round_num: int = 1, **opts) -> None:
        self.game = game
        self.entity_index = 0
        self.round_num = round_num
        self.opts = opts
        self.entities = self.select_entities()
        self.last_to_act = None
        self.pass_order: list = []
        self.at_start = False
        self._active_step = None
        self.steps = []
        for spec in list(self.DEFAULT_STEPS) + list(steps):
            cls, step_opts = (spec if isinstance(spec, tuple) else (spec, {}))
            step = cls(game, self, **step_opts)
            for key, value in step.round_state().items():
                setattr(self, key, value)
            game.next_turn()
            step.setup()
            self.steps.append(step)

    def select_entities(self) -> list:
        raise NotImplementedError

    def setup(self) -> None:
        pass

    # -- where play stands -----------------------------------------------------------------

    def active_step(self, entity=None):
        """The first active blocking step (for a company: the first step it can act in)."""
        if entity is not None:
            for step in self.steps:
                if step.active() and (entity.is_company or step.blocking()) and step.actions(entity):
                    return step
            return None
        if self._active_step is None:
            for step in self.steps:
                if step.active() and step.blocking():
                    self._active_step = step
                    break
        return self._active_step

    def active_entities(self) -> list:
        step = self.active_step()
        return step.active_entities() if step else []

    def current_entity(self):
        entities = self.active_entities()
        return entities[0] if entities else None

    def clear_cache(self) -> None:
        """Forget what was worked out about the current position (call after any change)."""
        self._active_step = None
        for step in self.steps:
            if step.memo:
                step.memo.clear()

    def finished(self) -> bool:
        return self.active_step() is None

    def description(self) -> str:
        step = self.active_step()
        return step.description() if step else ""

    def actions_for(self, entity) -> List[str]:
        """Every action type ``entity`` may take now."""
        out: List[str] = []
        if entity is None:
            return out
        for step in self.steps:
            if not step.active():
                continue
            for a in step.actions(entity):
                if a not in out:
                    out.append(a)
            if step.blocking():
                break
        return out

    def step_for(self, entity, action_type: str):
        for step in self.steps:
            if not step.active():
                continue
            if action_type in step.actions(entity):
                return step
            if step.blocking():
                break
        return None

    # -- processing ------------------------------------------------------------------------

    def process_action(self, action) -> None:
        # What was worked out after the last action still holds: nothing changes the game
        # between actions without clearing it (see Game.action_processed).
        if self.game.finished and action.type != "message":
            raise GameError(f"the game is over: cannot process {action.type}")
        self.before_process(action)
        chosen = None
        for step in self.steps:
            if not step.active():
                continue
            can = action.type in step.cached_actions(action.entity)
            blocking = step.blocking()
            if blocking and not can:
                current = step.current_entity()
                who = "" if current is action.entity else \
                    f"it is {getattr(current, 'name', None)}'s turn, "
                raise GameError(
                    f"{action.entity.name} cannot {action.type} now: {who}at "
                    f"'{step.description()}' ({', '.join(step.current_actions()) or 'no actions'})")
            if blocking or can:
                chosen = step
                break
        if chosen is None:
            raise GameError(f"no step can process {action.type} by {action.entity.name}")
        chosen.acted = True
        handler = getattr(chosen, f"process_{action.type}", None)
        if handler is None:
            raise GameError(f"{action.type} is not supported in {chosen.description()}")
        handler(action)
        self.clear_cache()
        self.at_start = False
        self.after_process_before_skip(action)
        self.skip_steps()
        self.after_process(action)

    def before_process(self, action) -> None:
        pass

    def after_process_before_skip(self, action) -> None:
        pass

    def after_process(self, action) -> None:
        pass

    def skip_steps(self) -> None:
        """Pass over steps that have nothing for the current entity, up to the first blocking one."""
        for step in self.steps:
            if not step.active() or not step.blocks():
                continue
            entity = self.entities[self.entity_index] if self.entity_index < len(self.entities) \
                else None
            if entity is not None and entity.closed:
                continue
            if step.blocking():
                break
            step.skip()
            self.clear_cache()

    def goto_entity(self, entity) -> None:
        self.game.next_turn()
        self.entity_index = self.entities.index(entity)

    def next_entity_index(self) -> None:
        self.game.next_turn()
        self.entity_index = (self.entity_index + 1) % len(self.entities)

    def reset_entity_index(self) -> None:
        self.game.next_turn()
        self.entity_index = 0

    def auto_actions(self):
        entity = self.current_entity()
        step = self.active_step(entity) if entity is not None else None
        return step.auto_actions(entity) if step else None


class StockRound(Round):
    name = "Stock Round"
    short_name = "SR"
    is_stock = True

    def select_entities(self) -> list:
        return [p for p in self.game.players if not p.bankrupt]

    def setup(self) -> None:
        self.skip_steps()
        if self.active_step() is None:
            self.next_entity()

    def after_process(self, action) -> None:
        if self.active_step() is not None:
            return
        self.next_entity()

    def next_entity(self) -> None:
        if self.finished():
            self.next_entity_index()
            self.finish_round()
            return
        self.next_entity_index()
        self.start_entity()

    def start_entity(self) -> None:
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup()
        self.clear_cache()
        self.skip_steps()
        if self.active_step() is None:
            self.next_entity()

    def finished(self) -> bool:
        return self.game.finished or all(e.passed for e in self.entities)

    def finish_round(self) -> None:
        """Sold-out corporations rise; shares left in the market may push prices down."""
        game = self.game
        corps = [c for c in game.corporations if c.floated() and c.type != "minor"]
        for corp in sorted(corps, key=game.corporation_sort_key):
            if corp.share_price is None:
                continue
            old = corp.share_price
            if game.sold_out(corp) and game.sold_out_increase(corp):
                game.sold_out_stock_movement(corp)
            drop = game.POOL_SHARE_DROP
            if drop != "none" and corp.num_market_shares() > 0:
                if drop == "down_block":
                    game.stock_market.move_down(corp)
                elif drop == "down_share":
                    for _ in range(corp.num_market_shares()):
                        game.stock_market.move_down(corp)
                elif drop == "left_block":
                    game.stock_market.move_left(corp)
            game.log_share_price(corp, old)


class OperatingRound(Round):
    name = "Operating Round"
    short_name = "OR"
    is_operating = True

    def select_entities(self) -> list:
        return self.game.operating_order()

    def setup(self) -> None:
        self.current_operator = None
        self.current_operator_acted = False
        game = self.game
        game.payout_companies()
        if game.HOME_TOKEN_TIMING == "operating_round":
            for entity in self.entities:
                game.place_home_token(entity)
        for entity in self.entities:
            for train in entity.trains:
                train.set_operated(False)
        self.after_setup()

    def after_setup(self) -> None:
        if self.any_to_act():
            self.start_operating()

    def any_to_act(self) -> bool:
        return any(not self.skip_entity(e) for e in self.entities)

    def skip_entity(self, entity) -> bool:
        return entity.closed

    def after_process(self, action) -> None:
        if action.type == "message":
            return
        operator = self.current_operator
        if action.entity is operator or getattr(action.entity, "corporation_of", None) is operator:
            self.current_operator_acted = True
        if self.active_step() is not None:
            entity = self.entities[self.entity_index]
            if (entity.owner is not None and entity.owner.is_player) or \
                    (entity.is_corporation and entity.receivership()):
                return
        self.game.after_end_of_operating_turn(self.current_operator)
        if not self.game.finished:
            self.next_entity()

    def force_next_entity(self) -> None:
        for step in self.steps:
            step.pass_()
        self.next_entity()
        self.clear_cache()

    def next_entity(self) -> None:
        if self.entity_index == len(self.entities) - 1:
            return
        self.next_entity_index()
        if self.skip_entity(self.entities[self.entity_index]):
            return self.next_entity()
        for step in self.steps:
            step.unpass()
        for step in self.steps:
            step.setup()
        self.clear_cache()
        self.start_operating()

    def start_operating(self) -> None:
        entity = self.entities[self.entity_index]
        if self.skip_entity(entity):
            return self.next_entity()
        self.current_operator = entity
        self.current_operator_acted = False
        game = self.game
        if not self.finished():
            owner = game.acting_for_entity(entity)
            game.log(f"{owner.name if owner else 'Nobody'} operates {entity.name}")
        if game.HOME_TOKEN_TIMING == "operate":
            game.place_home_token(entity)
        self.clear_cache()
        self.skip_steps()
        if not self.finished():
            return
        game.after_end_of_operating_turn(entity)
        self.next_entity()

    def recalculate_order(self) -> None:
        rest = self.entities[self.entity_index + 1:]
        del self.entities[self.entity_index + 1:]
        self.entities.extend(e for e in self.game.operating_order() if e in rest)

    def finished(self) -> bool:
        done = self.active_step() is None or not self.any_to_act()
        if done:
            self.current_operator = None
        return done


class DraftRound(Round):
    name = "Draft Round"
    short_name = "DR"

    def select_entities(self) -> list:
        players = self.game.players
        # The same list as the game's: reordering players reorders the draft.
        return list(reversed(players)) if self.opts.get("reverse_order") else players

    def next_entity_index(self) -> None:
        if self.opts.get("rotating_order") and self.entity_index == len(self.entities) - 1:
            self.entities = self.entities[1:] + self.entities[:1]
        if not self.opts.get("snake_order"):
            return super().next_entity_index()
        up = getattr(self, "_snaking_up", True)
        if (up and self.entity_index == len(self.entities) - 1) or \
                (not up and self.entity_index == 0):
            self._snaking_up = not up
        else:
            self.game.next_turn()
            self.entity_index = (self.entity_index + (1 if up else -1)) % len(self.entities)


class AuctionRound(Round):
    """An opening auction of private companies."""

    name = "Auction Round"
    short_name = "ISR"
    is_auction = True

    def select_entities(self) -> list:
        return self.game.players
