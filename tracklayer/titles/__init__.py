"""The titles tracklayer plays, by the names 18xx.games gives them."""

from __future__ import annotations

from typing import Dict, List

from ..errors import GameError
from ..title import Title
from .cologne.rules import TITLE as COLOGNE
from .north_america.rules import TITLE as NORTH_AMERICA
from .old_prince.rules import TITLE as OLD_PRINCE
from .two_sicilies.rules import TITLE as TWO_SICILIES

TITLES: Dict[str, Title] = {t.name: t for t in (COLOGNE, TWO_SICILIES, OLD_PRINCE, NORTH_AMERICA)}


def title(name: str) -> Title:
    """The title called ``name`` on 18xx.games (GameError if tracklayer does not play it)."""
    found = TITLES.get(name)
    if found is None:
        raise GameError(f"unsupported title {name!r}; supported: {', '.join(sorted(TITLES))}")
    return found


def _plain(name: str) -> str:
    """A name without case, spaces or punctuation ("1849KingdomoftheTwoSicilies")."""
    return "".join(c for c in name.lower() if c.isalnum())


def title_like(name: str) -> Title:
    """A title by its 18xx.games name, or by a part of it that names only one ("1871"),
    ignoring case, spaces and punctuation ("1849KingdomoftheTwoSicilies", "1849")."""
    if name in TITLES:
        return TITLES[name]
    plain = _plain(name)
    found = [t for n, t in TITLES.items() if plain and plain in _plain(n)]
    if len(found) == 1:
        return found[0]
    raise GameError(f"no single title called {name!r}; titles: {', '.join(sorted(TITLES))}")


def supported_titles() -> List[str]:
    return sorted(TITLES)
