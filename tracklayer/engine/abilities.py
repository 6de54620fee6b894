"""Abilities: the special powers written on private companies and some corporations.

An ability has a ``type`` (``tile_lay``, ``no_buy``, ``exchange``, ``blocks_hexes`` …) and says
*when* it can be used (``when``: step names such as ``track``, or ``owning_corp_or_turn``,
``owning_player_sr_turn``, ``any`` …), by *whom* (``owner_type``), and how often (``count``).
"""

from __future__ import annotations

from typing import Optional


class Ability:
    """One ability; options not listed as attributes stay in ``opts`` and read as attributes."""

    def __init__(self, type: str, owner_type: Optional[str] = None, when=None, count=None,
                 count_per_or=None, remove=None, use_across_ors=None, passive=None,
                 on_phase=None, after_phase=None, remove_when_used_up=None, description=None,
                 desc_detail=None, **opts) -> None:
        self.type = type
        self.owner_type = owner_type
        self.when = [str(w) for w in (when if isinstance(when, (list, tuple)) else
                                      ([when] if when else []))]
        self.count = count
        self.start_count = count
        self.count_per_or = count_per_or
        self.count_this_or = 0
        self.remove = str(remove) if remove is not None else None
        self.use_across_ors = True if use_across_ors is None else use_across_ors
        self.passive = (not self.when) if passive is None else passive
        self.on_phase = on_phase
        self.after_phase = after_phase
        self.remove_when_used_up = True if remove_when_used_up is None else remove_when_used_up
        self.description = description
        self.opts = opts
        self.used = False
        self.owner = None

    def __getattr__(self, name):
        opts = self.__dict__.get("opts")
        if opts is not None and name in opts:
            return opts[name]
        raise AttributeError(name)

    def use(self) -> None:
        """Use the ability once; it disappears when its count runs out."""
        self.used = True
        if self.count_per_or:
            self.count_this_or += 1
        if self.count is None:
            return
        self.count -= 1
        if self.count <= 0 and self.remove_when_used_up and self.owner is not None:
            self.owner.remove_ability(self)

    def __repr__(self) -> str:
        return f"<Ability {self.type} of {getattr(self.owner, 'id', None)}>"


class AbilityHolder:
    """Mixin for entities with abilities."""

    def init_abilities(self, specs) -> None:
        self.abilities: list = []
        for spec in specs or []:
            self.add_ability(spec if isinstance(spec, Ability) else Ability(**spec))

    def add_ability(self, ability: Ability) -> None:
        ability.owner = self
        self.abilities.append(ability)

    @property
    def all_abilities(self) -> list:
        return self.abilities

    def remove_ability(self, ability: Ability) -> None:
        self.abilities = [a for a in self.abilities if a is not ability]

    def remove_ability_when(self, time: str) -> None:
        for a in list(self.abilities):
            if a.remove == str(time):
                self.remove_ability(a)
