"""1849: Kingdom of the Two Sicilies (the 1849 rules on a map of southern Italy).

Differences from 1849 itself: 4-6 players; SFR chooses its home among ten cities; the
Avezzano earthquake (12H) cuts Avezzano's line to Rome; R6H trains cost 600; shares must be
sold in blocks (one sale per corporation per turn)."""

from __future__ import annotations

from ...map.tiles import Tile
from ..g1849.game import G1849
from . import data


class G1849K2S(G1849):
    TITLE = "1849: Kingdom of the Two Sicilies"
    PLAYER_RANGE = (4, 6)
    BANK_CASH = data.BANK_CASH
    CERT_LIMIT = data.CERT_LIMIT
    STARTING_CASH = data.STARTING_CASH
    MUST_SELL_IN_BLOCKS = True
    MARKET = data.MARKET
    PHASES = data.PHASES
    TRAINS = data.TRAINS
    TILES = data.TILES
    HEXES = data.HEXES
    LOCATION_NAMES = data.LOCATION_NAMES
    COMPANIES = data.COMPANIES
    CORPORATIONS = data.CORPORATIONS
    CORP_CHOOSES_HOME = data.CORP_CHOOSES_HOME
    CORP_CHOOSES_HOME_HEXES = data.CORP_CHOOSES_HOME_HEXES
    PORT_HEXES = data.PORT_HEXES
    SMS_HEXES = data.SMS_HEXES
    GRAY_REVENUE_CENTERS = data.GRAY_REVENUE_CENTERS

    def num_trains(self, spec: dict) -> int:
        if spec.get("num"):
            return spec["num"]
        fewer = len(self.players) < 5
        return {"8H": 3 if fewer else 4, "10H": 2 if fewer else 3, "16H": 6}[spec["name"]]

    def event_earthquake(self) -> None:
        """Avezzano loses its track to Rome; its revenue drops to 10."""
        self.log("-- Event: Avezzano Earthquake --")
        h = self.hex_by_id(data.AVEZZANO)
        tile = Tile(data.AVEZZANO, "gray", data.AVEZZANO_AFTER_EARTHQUAKE, preprinted=True)
        tile.location_name = h.location_name
        tile.hex = h
        h.tile = h.original_tile = tile
        for x in [h] + list(h.all_neighbors.values()):
            x.invalidate_paths()
