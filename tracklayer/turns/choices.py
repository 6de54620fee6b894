"""A choice one player must make now, from a list (``choose`` actions)."""

from __future__ import annotations

from .step import Step, handles


class PlayerChoice(Step):
    """Live while :meth:`chooser` names a player; that player picks one of
    :meth:`choices`, and :meth:`make` carries it out."""

    PASSES = False

    def chooser(self):
        raise NotImplementedError

    def make(self, choice: str) -> None:
        raise NotImplementedError

    def kinds(self, entity):
        return ("choose",) if entity is not None and entity is self.actor() else ()

    def actors(self) -> list:
        player = self.chooser()
        return [player] if player is not None else []

    def live(self) -> bool:
        """While :meth:`chooser` names a player (asked where play stands after every
        action: the chooser itself, not the list of actors made from it)."""
        return self.chooser() is not None

    @handles("choose")
    def choose(self, action):
        self.check_choice(action)
        return lambda: self.make(action.choice)
