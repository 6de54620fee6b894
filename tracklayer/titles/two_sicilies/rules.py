"""1849: Kingdom of the Two Sicilies: the 1849 rules (``titles.family1849``) on a map of
southern Italy. Its own rules: four to six players; SFR chooses its home among ten
cities; the Avezzano earthquake (12H) cuts Avezzano's line to Rome; shares are sold in
blocks (one sale of a corporation per turn)."""

from __future__ import annotations

from dataclasses import replace

from ...rules import board
from ...title import Title
from ..family1849.rules import SETTINGS, Family1849
from . import data


class TwoSicilies(Family1849):
    CHOOSES_HOME = data.CORP_CHOOSES_HOME
    HOME_CHOICES = data.CORP_CHOOSES_HOME_HEXES
    PORTS = data.PORT_HEXES
    SMS_HEXES = data.SMS_HEXES
    GRAY_REVENUE = data.GRAY_REVENUE_CENTERS

    def __init__(self) -> None:
        super().__init__()
        self.events["earthquake"] = self.earthquake

    def earthquake(self, table) -> None:
        """The 12H train brings the Avezzano earthquake: its track to Rome is gone and its
        revenue drops to 10."""
        table.log("-- Event: Avezzano Earthquake --")
        shape = table.spec.printed_shape(data.AVEZZANO, "gray", data.AVEZZANO_AFTER_EARTHQUAKE)
        board.replace_printed_tile(table, data.AVEZZANO, shape)


TITLE = Title("1849: Kingdom of the Two Sicilies", (4, 6), replace(SETTINGS, sell_in_blocks=True),
              data.title_data, TwoSicilies)
