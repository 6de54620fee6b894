"""The titles tracklayer implements, by the names 18xx.games uses for them."""

from __future__ import annotations

from typing import Dict, Type


def _registry() -> Dict[str, Type]:
    from .g1849_k2s.game import G1849K2S
    from .g1893.game import G1893
    return {G1893.TITLE: G1893, G1849K2S.TITLE: G1849K2S}


def title_class(title: str):
    """The game class for an 18xx.games title name (raises GameError if unsupported)."""
    from ..engine.errors import GameError

    registry = _registry()
    if title not in registry:
        raise GameError(f"unsupported title {title!r}; supported: {', '.join(sorted(registry))}")
    return registry[title]


def supported_titles() -> list:
    return sorted(_registry())
