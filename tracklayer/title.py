"""What a title is to the engine: its name, its settings, its data for a game, and its
rules (a :class:`~tracklayer.rules.variant.Variant`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence, Tuple

from .errors import GameError
from .rules.variant import Variant
from .spec.data import OptionalRule, TitleData
from .spec.resolved import GameSpec
from .spec.settings import Settings


@dataclass(frozen=True)
class Title:
    """A title's declaration (see ``tracklayer/titles``)."""

    name: str                                             # as 18xx.games calls it
    player_range: Tuple[int, int]
    settings: Settings
    data: Callable[[int, Tuple[str, ...]], TitleData]     # for a player count and options
    rules: Callable[[], Variant]
    optional_rules: Tuple[OptionalRule, ...] = ()
    _specs: dict = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.settings, Settings):
            raise TypeError(f"{self.name}: settings must be a Settings")
        low, high = self.player_range
        if not 1 <= low <= high:
            raise ValueError(f"{self.name}: bad player range {self.player_range}")

    def options_for(self, rules: Sequence, players: int) -> Tuple[str, ...]:
        """The optional rules asked for that apply with this many players (an unknown one
        is refused)."""
        known = {r.sym: r for r in self.optional_rules}
        out = []
        for r in rules or ():
            r = str(r)
            if not r:
                continue
            if r not in known:
                raise GameError(f"unknown optional rule {r!r} for {self.name}")
            if known[r].players and players not in known[r].players:
                continue
            out.append(r)
        return tuple(out)

    def game_spec(self, players: int, options: Tuple[str, ...]) -> GameSpec:
        """The title's static data for a game (made once per player count and options)."""
        key = (players, options)
        found = self._specs.get(key)
        if found is None:
            found = self._specs[key] = GameSpec(self.name, self.data(players, options),
                                                self.settings, players, options,
                                                self.player_range)
        return found
