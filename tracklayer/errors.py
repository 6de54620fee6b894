"""What the engine raises when it refuses something."""


class GameError(Exception):
    """An action breaks a rule of the game; the game is left as it was."""


class ActionError(GameError):
    """An action is malformed: unknown type, missing field, unknown entity."""


class RouteError(GameError):
    """A route is not legal for its train."""
