"""Errors raised by the engine."""


class GameError(Exception):
    """An action breaks a rule of the game; the game state is unchanged."""


class ActionError(GameError):
    """An action is malformed: unknown type, missing field, unknown entity."""


class RouteError(GameError):
    """A route is not legal for its train."""
