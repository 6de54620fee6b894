"""1817NA: the 1817 rules (``titles.family1817``) on a map of North America. Its own
facts are data (``data``): 2-6 players, fewer trains and loans, $150 seed money, its eight
private companies."""

from __future__ import annotations

from ...title import Title
from ..family1817.rules import SETTINGS, Family1817
from . import data


class NorthAmerica(Family1817):
    """1817NA plays by the family's rules."""


TITLE = Title("1817NA", (2, 6), SETTINGS, data.title_data, NorthAmerica,
              optional_rules=data.OPTIONAL_RULES)
