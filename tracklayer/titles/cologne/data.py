"""1893: Cologne — the map, tiles, market, trains, phases and companies (the facts of the
published game, as 18xx.games implements it)."""

from __future__ import annotations

from typing import Tuple

from ...spec.data import (CompanySpec, CorporationSpec, MapSpec, MarketSpec, MinorSpec,
                          OptionalRule, PhaseSpec, Power, StopAllowance, TileSupply,
                          TitleData, Timing, TrainEvent, TrainSpec)

BANK_CASH = 7200
CERT_LIMIT = {2: 18, 3: 12, 4: 9}
STARTING_CASH = {2: 900, 3: 600, 4: 450}

LOCATION_NAMES = {'B5': 'Düsseldorf & Neuss',
 'D5': 'Benrath',
 'D7': 'Solingen',
 'B9': 'Wuppertal',
 'E2': 'Grevenbroich',
 'E4': 'Dormagen',
 'G6': 'Leverkusen',
 'I2': 'Bergheim',
 'I8': 'Bergisch-Gladbach',
 'L3': 'Frechen',
 'L5': 'Köln',
 'L9': 'Gummersbach',
 'N1': 'Aachen',
 'O2': 'Düren',
 'O4': 'Brühl',
 'O6': 'Porz',
 'P7': 'Troisdorf',
 'P9': 'Siegen',
 'R7': 'Bonn-Beuel',
 'S6': 'Bonn',
 'T3': 'Euskirchen',
 'U6': 'Andernach',
 'U8': 'Neuwied'}

# Standard tiles by count; the title's own tiles as (count, colour, tile notation).
TILES = {'3': 2,
 '4': 4,
 '5': 2,
 '6': 4,
 '7': 3,
 '8': 10,
 '9': 7,
 '14': 4,
 '15': 5,
 '16': 1,
 '19': 1,
 '20': 2,
 '23': 3,
 '24': 3,
 '25': 1,
 '26': 1,
 '27': 1,
 '28': 1,
 '29': 1,
 '39': 1,
 '40': 2,
 '41': 1,
 '42': 1,
 '43': 1,
 '44': 1,
 '45': 1,
 '46': 1,
 '47': 1,
 '57': 3,
 '58': 4,
 '70': 1,
 '141': 2,
 '142': 2,
 '143': 2,
 '144': 2,
 '145': 1,
 '146': 1,
 '147': 1,
 '611': 4,
 '619': 3,
 'K1': (1,
        'yellow',
        'town 10 ; town 10 ; path 1 N0 ; path N0 3 ; path 0 N1 ; path N1 4 ; label L'),
 'K5': (2, 'yellow', 'city 20 ; path 0 N0 ; path 1 N0 ; label BX'),
 'K6': (2, 'yellow', 'city 20 ; path 0 N0 ; path 2 N0 ; label BX'),
 'K14': (2,
         'green',
         'city 30 slots=2 ; path 0 N0 ; path 1 N0 ; path 3 N0 ; path 4 N0 ; label BX'),
 'K15': (2,
         'green',
         'city 30 slots=2 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; label BX'),
 'K57': (2, 'yellow', 'city 20 ; path 0 N0 ; path N0 3 ; label BX'),
 'K55': (1,
         'yellow',
         'town 10 ; town 10 ; path 0 N0 ; path N0 3 ; path 1 N1 ; path N1 4 ; label L'),
 'K170': (1,
          'brown',
          'city 50 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 3 N0 ; path 4 N0 ; path '
          '5 N0 ; label L'),
 'K201': (1, 'yellow', 'city 30 ; path 0 N0 ; path 1 N0 ; label K'),
 'K255': (1,
          'brown',
          'city 70 slots=3 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; label '
          'K'),
 'K269': (1,
          'green',
          'city 50 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; label K'),
 'K314': (1, 'green', 'city 30 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 5 N0 ; label L'),
 'KV63': (1,
          'brown',
          'city 40 slots=2 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; path '
          '5 N0 ; label S'),
 'KV201': (1, 'yellow', 'city 30 ; path 1 N0 ; path 2 N0 ; upgrade 40 water ; label K'),
 'KV255': (1,
           'brown',
           'city 70 slots=3 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; '
           'upgrade 60 water ; label K'),
 'KV259': (1,
           'gray',
           'city 50 slots=3 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; path '
           '5 N0'),
 'KV269': (1,
           'green',
           'city 50 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; upgrade 40 water '
           '; label K'),
 'KV333': (1,
           'gray',
           'city 80 slots=4 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; '
           'label K'),
 'KV619': (1,
           'green',
           'city 30 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; label S')}

# Tiles that exist only with (or only without) an optional rule.
TILES_GREY_PHASE = ('KV201', 'KV269', 'KV255', 'KV333', 'KV259')
TILES_NOT_GREY_PHASE = ('K201', 'K269', 'K255')
TILES_EXISTING_TRACK = ('KV619', 'KV63')

LEVERKUSEN = 'G6'
LEVERKUSEN_GREEN_TILE = 'K314'
RHINE_PASSAGE = ('L5', 'S6')
TILE_BLOCK = ('N5', 'P5')

def hexes(existing_track: bool) -> dict:
    """The map by colour; within a colour, the order of the hexes matters (tile ids)."""
    simple_city = ["I2", "I8", "L3", "O2", "O4", "T3"] + ([] if existing_track else ["D7", "E2"])
    white = {
        ("B3", "C2", "C6", "D3", "E6", "F3", "F7", "G2", "G4", "I6", "J3", "J7", "K2", "K4", "K8",
         "L7", "M2", "N3", "N7", "O8", "Q2", "R5", "S8", "T5"): "",
        ("B7", "H3", "I4", "M4", "M8", "Q4", "Q8", "S2"): "town 0",
        ("K6",): "town 0 ; border 1 water 0",
        tuple(simple_city): "city 0",
        ("R7",): "city 0 ; border 1 water 0",
        ("C8", "E8", "G8", "H7", "P3", "R3", "S4"): "upgrade 40 mountain",
        (LEVERKUSEN,): "town 0 ; town 0 ; label L",
        ("C4",): "border 5 impassable",
        ("D5",): "city 0 ; border 1 impassable ; border 2 impassable ; label BX",
        ("E4",): "city 0 ; border 4 impassable",
        ("L5",): "city 0 ; border 5 impassable ; upgrade 40 water ; label K ; border 4 water 0",
        ("M6",): "upgrade 40 water ; border 2 impassable",
        ("O6",): "city 0 ; border 1 impassable ; border 2 impassable",
        ("Q6",): "border 0 impassable ; border 1 impassable ; border 2 impassable",
        ("S6",): "city 0 ; upgrade 40 water ; border 3 impassable ; border 4 water 0 ; label BX",
        ("N5",): "stub 4 ; border 5 impassable ; icon 1893/green_hex",
        ("P5",): "town 0 ; border 4 impassable ; border 5 impassable ; icon 1893/green_hex",
    }
    yellow = {("P7",): "city 20 ; path 1 N0 ; path 5 N0"}
    if existing_track:
        yellow[("D7",)] = "city 20 ; path 1 N0 ; path 4 N0 ; label S"
        yellow[("E2",)] = "city 20 ; path 0 N0 ; path 3 N0"
    return {
        "red": {
            ("A4",): "town yellow:20,green:30,brown:50 ; path 0 N0 ; path 1 N0 ; path 5 N0",
            ("B5",): "path 2 0 ; path 2 5",
            ("B9",): "offboard yellow:20,green:30,brown:40 group=Wuppertal hide ; "
                     "path 1 N0 terminal",
            # As played on 18xx.games: a missing separator there leaves D9 with a single
            # track (edge 2) and its group spelled "Wuppertalpath".
            ("D9",): "offboard yellow:20,green:30,brown:40 group=Wuppertalpath ; "
                     "path 2 N0 terminal",
            ("L9",): "offboard yellow:20,green:20,brown:20 ; path 1 N0 terminal ; "
                     "path 2 N0 terminal",
            ("N1",): "offboard yellow:20,green:30,brown:50 group=Aachen hide ; "
                     "path 5 N0 terminal",
            ("P1",): "offboard yellow:20,green:30,brown:50 group=Aachen ; path 4 N0 terminal",
            ("P9",): "offboard yellow:20,green:20,brown:30 ; path 1 N0 terminal",
            ("U6",): "offboard yellow:10,green:20,brown:30 ; path 4 N0 terminal",
            ("U8",): "offboard yellow:20,green:30,brown:40 ; path 2 N0 terminal",
        },
        "gray": {
            ("F1",): "town 10 ; path 4 N0 ; path 5 N0",
            ("F5",): "path 1 2 ; path 3 5",
            ("T7",): "path 1 2 ; path 3 5",
            ("F9",): "path 2 0",
            ("H5",): "city 20 ; path 0 N0",
            ("H9",): "path 3 1",
            ("J5",): "city 20 ; path 1 N0 ; path 0 N0 ; path 3 N0",
            ("J9",): "",
            ("U4",): "town 10 ; path 2 N0 ; path 4 N0",
        },
        "white": white,
        "yellow": yellow,
    }


MARKET = MarketSpec(tuple(tuple(row) for row in [
    ['', '', '100', '110', '120', '135', '150', '165', '180', '195', '210', '230', '250', '270', '300', '330'],
    ['', '80', '90', '100p', '110', '120x', '135', '150', '165', '180', '195', '210', '230', '250'],
    ['70', '75', '80', '90p', '100', '110', '120z', '135', '150', '165', '180'],
    ['65', '70', '75', '80p', '90', '100', '110', '120'],
    ['60', '65', '70p', '75', '80', '90'],
    ['55', '60p', '65', '70', '75'],
    ['50', '55', '60', '65'],
]))

PHASES = (
    PhaseSpec('2', on=('2',), train_limit=(('minor', 2), ('corporation', 3)), tiles=('yellow',),
              operating_rounds=2, status=frozenset(['rhine_impassable']),
              trains_between_companies=False),
    PhaseSpec('3', on=('3',), train_limit=(('minor', 2), ('corporation', 3)), tiles=('yellow', 'green'),
              operating_rounds=2, status=frozenset(['can_buy_trains'])),
    PhaseSpec('4', on=('4',), train_limit=(('minor', 2), ('corporation', 3)), tiles=('yellow', 'green'),
              operating_rounds=2, status=frozenset(['can_buy_trains', 'may_found_agv'])),
    PhaseSpec('5', on=('5',), train_limit=(('minor', 1), ('corporation', 2)), tiles=('yellow', 'green', 'brown'),
              operating_rounds=2, status=frozenset(['can_buy_trains', 'may_found_hgk'])),
    PhaseSpec('6', on=('6',), train_limit=(('minor', 1), ('corporation', 2)), tiles=('yellow', 'green', 'brown'),
              operating_rounds=2, status=frozenset(['can_buy_trains'])),
    PhaseSpec('8+x', on=('8+x',), train_limit=(('minor', 1), ('corporation', 2)), tiles=('yellow', 'green', 'brown', 'gray'),
              operating_rounds=2, status=frozenset(['can_buy_trains'])),
)


def trains(two_trains: int) -> Tuple[TrainSpec, ...]:
    """The trains (an optional rule adds an eighth 2-train)."""
    return (
        TrainSpec('2', 2, 80, count=two_trains, rusts_on=('4',)),
        TrainSpec('3', 3, 180, count=4, rusts_on=('6',), discount=(('2', 40),), events=(TrainEvent('remove_tile_block'),)),
        TrainSpec('4', 4, 300, count=4, rusts_on=('8+x',), discount=(('2', 40), ('3', 90)), events=(TrainEvent('agv_buyable'),)),
        TrainSpec('5', 5, 450, count=2, discount=(('3', 90), ('4', 150)), events=(TrainEvent('agv_founded'), TrainEvent('hgk_buyable'), TrainEvent('fdsd_closed'),)),
        TrainSpec('6', 6, 630, count=3, discount=(('3', 90), ('4', 150), ('5', 225)), events=(TrainEvent('hgk_founded'), TrainEvent('eva_closed'),)),
        TrainSpec('8+x', (StopAllowance(('city', 'offboard'), 8, 8), StopAllowance(('town',), 99, 99)), 800, count=3, available_on='6', discount=(('4', 150), ('5', 225), ('6', 315))),
    )


def _corporation(sym, name, color, tokens=(0, 40, 100), shares=None, **kw) -> CorporationSpec:
    return CorporationSpec(sym, name, tokens=tokens, float_percent=50, float_excludes_market=True,
                           market_price_as_par=True, kind="corporation", color=color,
                           **({"shares": shares} if shares else {}), **kw)


MERGED_SHARES = (20, 10, 20, 10, 10, 10, 10, 10)

CORPORATIONS = (
    _corporation('DE', 'Dürener Eisenbahn', 'blue', home='O2'),
    _corporation('RSE', 'Rhein-Sieg Eisenbahn', 'pink', home='R7'),
    _corporation('RAG', 'Rheinbahn AG', '#B3B3B3', home='D5'),
    # Formed from minors (see FORMATIONS); their shares are sold from phase 4 and 5 on.
    _corporation('AGV', 'AG für Verkehrswesen', 'green', floatable=False, tokens=(0, 0, 0, 100, 100), shares=MERGED_SHARES),
    _corporation('HGK', 'Häfen und Güterverkehr Köln AG', 'red', floatable=False, tokens=(0, 0, 0, 100, 100), shares=MERGED_SHARES),
)

# AGV and HGK form from these companies, each owner receiving the certificate (by index)
# reserved for the company; and the order in which their owners vote on it.
FORMATIONS = {"AGV": (("EKB", 0), ("KSZ", 1), ("BKB", 2)),
              "HGK": (("KBE", 0), ("HdSK", 1), ("KFBE", 2))}
VOTERS = {"AGV": ("EKB", "KSZ", "BKB"), "HGK": ("KFBE", "KBE", "HdSK")}
FORMATION_TREASURY = 400

def _minor(sym, name, home, color) -> MinorSpec:
    return MinorSpec(sym, name, kind="minor", home=home, home_city=0, color=color,
                     least_treasury=100)


MINORS = (
    _minor('EKB', '1 Euskirchener Kreisbahn', 'T3', 'green'),
    _minor('KFBE', '2 Köln-Frechen-Benzelrather E', 'L3', 'red'),
    _minor('KSZ', '3 Kleinbahn Siegburg-Zündorf', 'P7', 'green'),
    _minor('KBE', '4 Köln-Bonner Eisenbahn', 'O4', 'red'),
    _minor('BKB', '5 Bergheimer Kreisbahn', 'I2', 'green'),
)

NOT_SOLD = (Power("no_buy", owner="player"),)

COMPANIES = (
    CompanySpec('FdSD', 'Fond der Stadt Düsseldorf', 180, 20,
                "May be exchanged for 20% of RAG (or its president's certificate when parring RAG) in a stock round after the first; closes after the first SR of phase 5.",
                powers=(Power("no_buy", owner="player"), Power("exchange", owner="player", when=(Timing.OWNING_PLAYER_STOCK_TURN,), corporations=("RAG",), sources=("market",)))),
    CompanySpec('EVA', 'EVA (Eisenbahnverkehrsmittel Aktiengesellschaft)', 150, 30,
                'Closes when the first 6-train is bought; may be sold to players.',
                powers=NOT_SOLD + (Power("player_trade"),)),
    CompanySpec('HdSK', 'Häfen der Stadt Köln', 100, 10,
                'Exchanged for a 10% certificate of HGK.',
                powers=NOT_SOLD),
    CompanySpec('EKB', 'Minor 1 Euskirchener Kreisbahn', 210, 0,
                "Controls minor 1; becomes the president's certificate of AGV.",
                powers=NOT_SOLD, minor='EKB'),
    CompanySpec('KFBE', 'Minor 2 Köln-Frechen-Benzelrather Eisenbahn', 200, 0,
                'Controls minor 2; becomes a 20% certificate of HGK.',
                powers=NOT_SOLD, minor='KFBE'),
    CompanySpec('KSZ', 'Minor 3 Kleinbahn Siegburg-Zündorf', 100, 0,
                'Controls minor 3; becomes a 10% certificate of AGV.',
                powers=NOT_SOLD, minor='KSZ'),
    CompanySpec('KBE', 'Minor 4 Köln-Bonner Eisenbahn', 220, 0,
                "Controls minor 4; becomes the president's certificate of HGK.",
                powers=NOT_SOLD, minor='KBE'),
    CompanySpec('BKB', 'Minor 5 Bergheimer Kreisbahn', 180, 0,
                'Controls minor 5; becomes a 20% certificate of AGV.',
                powers=NOT_SOLD, minor='BKB'),
) + tuple(
    CompanySpec(f"AdSK-{n}", "Anleihen der Stadt Köln", 100, 10,
                "A bond of the City of Cologne: bought and sold in stock rounds like a share.",
                color="orange", stack="AdSK", bank_buys=True)
    for n in range(1, 11))

# The minors stand on their homes; a neutral token keeps Köln-Deutz (H5) open; HGK's home
# J5 is taken from the start (1.2).
TOKENS_AT_START = tuple((m.sym, m.home) for m in MINORS) + ((None, "H5"), ("HGK", "J5"))

OPTIONAL_RULES = (
    OptionalRule('optional_2_train', 'Optional 2-Train', 'Add an 8th 2-train'),
    OptionalRule('optional_grey_phase', 'Gray Phase', 'Changed Köln tiles. Extra gray KV259.'),
    OptionalRule('optional_existing_track', 'Existing Track', 'E2 and D7 start as yellow. New S upgrades.'),
)


def title_data(players: int, options: Tuple[str, ...]) -> TitleData:
    """The data of a game for ``players`` players with the optional rules ``options``."""
    left_out = TILES_NOT_GREY_PHASE if "optional_grey_phase" in options else TILES_GREY_PHASE
    if "optional_existing_track" not in options:
        left_out = left_out + TILES_EXISTING_TRACK
    tiles = {name: count for name, count in TILES.items() if name not in left_out}
    return TitleData(
        map=MapSpec(hexes("optional_existing_track" in options), layout="flat",
                    letters_on_x=False, names=LOCATION_NAMES),
        tiles=TileSupply(tiles), market=MARKET, phases=PHASES,
        trains=trains(8 if "optional_2_train" in options else 7),
        corporations=CORPORATIONS, minors=MINORS, companies=COMPANIES,
        bank_cash=BANK_CASH, starting_cash=STARTING_CASH[players],
        cert_limit=CERT_LIMIT[players], tokens_at_start=TOKENS_AT_START)
