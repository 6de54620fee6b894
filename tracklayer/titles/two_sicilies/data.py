"""1849: Kingdom of the Two Sicilies — the map, tiles, market, trains, phases and companies
(the facts of the published game, as 18xx.games implements it)."""

from __future__ import annotations

from typing import Tuple

from ...spec.data import (CompanySpec, CorporationSpec, MapSpec, MarketSpec, PhaseSpec, Power,
                          TileSupply, TitleData, Timing, TrainEvent, TrainSpec)

BANK_CASH = 7760
CERT_LIMIT = {4: 14, 5: 12, 6: 10}
STARTING_CASH = {4: 375, 5: 330, 6: 300}

MARKET = MarketSpec(tuple(tuple(row) for row in [
    ['72', '83', '95', '107', '120', '133', '147', '164', '182', '202', '224', '248', '276', '306u', '340u', '377e'],
    ['63', '72', '82', '93', '104', '116', '128', '142', '158', '175', '195', '216z', '240', '266u', '295u', '328u'],
    ['57', '66', '75', '84', '95', '105', '117', '129', '144x', '159', '177', '196', '218', '242u', '269u', '298u'],
    ['54', '62', '71', '80', '90', '100p', '111', '123', '137', '152', '169', '187', '208', '230'],
    ['52', '59', '68p', '77', '86', '95', '106', '117', '130', '145', '160', '178', '198'],
    ['47', '54', '62', '70', '78', '87', '96', '107', '118', '131', '146', '162'],
    ['41', '47', '54', '61', '68', '75', '84', '93', '103', '114', '127'],
    ['34', '39', '45', '50', '57', '63', '70', '77', '86', '95'],
    ['27', '31', '36', '40', '45', '50', '56'],
    ['0c', '24', '27', '31'],
]), no_right_at=(218, 240, 276), no_up_at=(230,), freed_by="blue_zone")

PHASES = (
    PhaseSpec('4H', on=(), train_limit=4, tiles=('yellow',),
              operating_rounds=1, status=frozenset(['gray_uses_white'])),
    PhaseSpec('6H', on=('6H',), train_limit=4, tiles=('yellow', 'green'),
              operating_rounds=2, status=frozenset(['gray_uses_white', 'can_buy_companies'])),
    PhaseSpec('8H', on=('8H',), train_limit=3, tiles=('yellow', 'green'),
              operating_rounds=2, status=frozenset(['gray_uses_gray', 'can_buy_companies'])),
    PhaseSpec('10H', on=('10H',), train_limit=2, tiles=('yellow', 'green', 'brown'),
              operating_rounds=3, status=frozenset(['gray_uses_gray', 'can_buy_companies'])),
    PhaseSpec('12H', on=('12H',), train_limit=2, tiles=('yellow', 'green', 'brown'),
              operating_rounds=3, status=frozenset(['gray_uses_black'])),
    PhaseSpec('16H', on=('16H',), train_limit=2, tiles=('yellow', 'green', 'brown'),
              operating_rounds=3, status=frozenset(['gray_uses_black', 'blue_zone'])),
)


def trains(players: int) -> Tuple[TrainSpec, ...]:
    """The trains; fewer 8H and 10H with four players."""
    fewer = players < 5
    counts = {"8H": 3 if fewer else 4, "10H": 2 if fewer else 3, "16H": 6}
    return (
        TrainSpec('4H', 4, 100, count=4, rusts_on=('8H',)),
        TrainSpec('6H', 6, 200, count=4, rusts_on=('10H',), events=(TrainEvent('green_par'),)),
        TrainSpec('8H', 8, 350, count=counts['8H'], rusts_on=('16H',)),
        TrainSpec('10H', 10, 550, count=counts['10H'], events=(TrainEvent('brown_par'),)),
        TrainSpec('12H', 12, 800, count=1, events=(TrainEvent('close_companies'), TrainEvent('earthquake'),)),
        TrainSpec('16H', 16, 1100, count=counts['16H']),
        TrainSpec('R6H', 6, 600, count=2, available_on='16H'),
    )

CORP_CHOOSES_HOME = 'SFR'
CORP_CHOOSES_HOME_HEXES = ('E11', 'H8', 'I13', 'I17', 'J18', 'K19', 'L12', 'L20', 'O9', 'P2')
PORT_HEXES = ('B16', 'G5', 'J20', 'L16')
SMS_HEXES = ('B14', 'G7', 'H8', 'J18', 'L12', 'L18', 'L20', 'N20', 'O9', 'P2')

_LOW = {"4H": 20, "6H": 20, "8H": 30, "10H": 30, "12H": 40, "16H": 40}
# Gray locations whose revenue follows the phase.
GRAY_REVENUE_CENTERS = {
    "A7": {"4H": 10, "6H": 10, "8H": 40, "10H": 40, "12H": 60, "16H": 60},
    "N2": {"4H": 30, "6H": 30, "8H": 50, "10H": 50, "12H": 80, "16H": 80},
    "C5": {"4H": 60, "6H": 60, "8H": 90, "10H": 90, "12H": 120, "16H": 120},
    "J18": _LOW, "B14": _LOW, "I13": _LOW, "N20": _LOW,
}

# After the earthquake Avezzano loses its track towards Rome.
AVEZZANO = "C7"
AVEZZANO_AFTER_EARTHQUAKE = "town 10 ; path 4 N0 track=narrow"


COMPANIES = (
    CompanySpec("SCE", "Società Corriere", 20, 5, "Blocks Caserta (F8) while owned by a player.",
                powers=(Power("blocks_hexes", owner="player", hexes=("F8",)),), min_price=1),
    CompanySpec("SIGI", "Studio di Ingegneria Giuseppe Incorpora", 45, 10,
                "The owning corporation lays broad gauge track on mountains at half cost.",
                powers=(Power("tile_discount", owner="corporation", discount="half",
                              terrain="mountain"),), min_price=1),
    CompanySpec("CNM", "Compagnia Navale Mediterranea", 75, 15,
                "The owning corporation may close it to put a +L.20 token on a port.",
                powers=(Power("assign_hexes", owner="corporation",
                              when=(Timing.OWNING_CORPORATION_TURN,), count=1, hexes=PORT_HEXES),
                        Power("assign_corporation", owner="corporation", when=(Timing.SOLD,),
                              count=1)), min_price=1),
    CompanySpec("SMS", "Società Marittima Siciliana", 110, 20,
                "The owning corporation may close it instead of its track and token steps to "
                "lay track and/or a token on any coastal city.",
                powers=(Power("description", text="Lay/upgrade and/or teleport on any coastal "
                                                  "city"),), min_price=1),
    CompanySpec("RSA", "Reale Società d'Affari", 150, 25,
                "Comes with the president's certificate of the first corporation; closes when "
                "that corporation buys its first train.",
                powers=(Power("shares", certificate="first_president"), Power("no_buy")),
                min_price=1),
)


def _corporation(sym, name, fee, color, home=None) -> CorporationSpec:
    return CorporationSpec(sym, name, tokens=(0, 0, 0), shares=(20, 10, 10, 10, 10, 10, 10, 20),
                           float_percent=20, market_price_as_par=True, home=home, color=color,
                           token_fee=fee, last_certificate_last=True)


CORPORATIONS = (
    _corporation('SFR', 'Società per le Strade Ferrate Romane', 40, '#ff0000'),
    _corporation('SFCS', 'Società per le Strade Ferrate Calabro-Sicule', 30, 'green', home='O9'),
    _corporation('AL', 'Società Adami e Lemmi', 40, '#f9b231', home='N20'),
    _corporation('SFM', 'Società Italiana per le Strade Ferrate Meridionali', 90, '#0189d1', home='B14'),
    _corporation('IFP', 'Impresa Ferroviaria di Pietrarsa', 130, '#f48221', home='G7'),
    _corporation('PL', 'Società Anonima Pia Latina', 40, 'pink', home='G15'),
    _corporation('FCU', 'Ferrovia Centrale Umbra', 40, '#7b352a', home='A9'),
    _corporation('M&C', 'Società in Commandita E. Melisurgo & C.', 90, '#000', home='L18'),
)

TILES = {'3': 4,
 '4': 4,
 '7': 4,
 '8': 10,
 '9': 8,
 '58': 4,
 '73': 4,
 '74': 3,
 '77': 4,
 '78': 10,
 '79': 7,
 '644': 2,
 '645': 2,
 '657': 2,
 '658': 2,
 '659': 2,
 '679': 2,
 '23': 3,
 '24': 3,
 '25': 2,
 '26': 1,
 '27': 1,
 '28': 1,
 '29': 1,
 '30': 1,
 '31': 1,
 '624': 1,
 '650': 1,
 '660': 1,
 '661': 1,
 '662': 1,
 '663': 1,
 '664': 1,
 '665': 1,
 '666': 1,
 '667': 1,
 '668': 1,
 '669': 1,
 '670': 1,
 '671': 1,
 '677': 3,
 '678': 3,
 '680': 1,
 '681': 1,
 '682': 1,
 '683': 1,
 '684': 1,
 '685': 1,
 '686': 1,
 '687': 1,
 '688': 1,
 '689': 1,
 '690': 1,
 '691': 1,
 '692': 1,
 '693': 1,
 '694': 1,
 '695': 1,
 '699': 2,
 '700': 1,
 '701': 1,
 '702': 1,
 '703': 1,
 '704': 1,
 '705': 1,
 '706': 1,
 '707': 1,
 '708': 1,
 '709': 1,
 '710': 1,
 '711': 1,
 '712': 1,
 '713': 1,
 '714': 1,
 '715': 1,
 '39': 1,
 '40': 1,
 '41': 1,
 '42': 1,
 '646': 1,
 '647': 1,
 '648': 1,
 '649': 1,
 '672': 1,
 '673': 2,
 '674': 2,
 '696': 3,
 '697': 2,
 '698': 2,
 'X1': (1,
        'green',
        'label A ; city 60 slots=2 ; path 1 N0 track=dual ; path 4 N0 ; path 0 N0 track=narrow '
        '; path 5 N0 track=narrow'),
 'X2': (1,
        'green',
        'label N ; city 50 slots=1 ; path 4 N0 track=narrow ; path 5 N0 ; path 1 N0 '
        'track=dual'),
 'X3': (1,
        'green',
        'label R ; city 30 slots=2 ; path 3 N0 track=dual ; path 4 N0 ; path 2 N0 track=dual'),
 'X4': (1,
        'green',
        'label T ; city 30 slots=2 ; path 2 N0 track=dual ; path 1 N0 track=dual ; path 5 N0'),
 'X5': (1,
        'brown',
        'label A ; city 90 slots=2 ; path 1 N0 track=dual ; path 4 N0 ; path 0 N0 track=dual ; '
        'path 5 N0 track=dual'),
 'X6': (1,
        'brown',
        'label N ; city 90 slots=3 ; path 4 N0 track=dual ; path 5 N0 ; path 1 N0 track=dual ; '
        'path 3 N0'),
 'X7': (1,
        'brown',
        'label R ; city 90 slots=2 ; path 3 N0 track=dual ; path 4 N0 ; path 2 N0 track=dual'),
 'X8': (1,
        'brown',
        'label T ; city 60 slots=2 ; path 2 N0 track=dual ; path 1 N0 track=dual ; path 5 N0 ; '
        'path 4 N0')}

LOCATION_NAMES = {
    "A7": "Terni", "A9": "L'Aquila", "B14": "Pescara", "C5": "Roma", "C7": "Avezzano",
    "D10": "Isernia", "D14": "Vasto", "E11": "Campobasso", "F10": "Benevento", "F14": "Lucera",
    "F8": "Caserta", "G15": "Foggia", "G17": "Vieste", "G7": "Napoli", "G9": "Avellino",
    "H8": "Salerno", "I13": "Potenza", "J10": "Rofrano", "J16": "Matera", "J18": "Bari",
    "K9": "Scalea", "K13": "Metaponto", "L12": "Sibari", "L18": "Taranto", "L20": "Brindisi",
    "M9": "Cosenza", "N20": "Lecce", "N2": "Messina", "O11": "Crotone", "O19": "Ugento",
    "O5": "Vibo Valentia", "O9": "Catanzaro", "P2": "Reggio Calabria", "P6": "Siderno",
}

_GRAY_CITY = "city white:20,gray:30,black:40"

HEXES = {
    "white": {
        ("A11", "A13", "B12", "D6", "D8", "E7", "E15", "F16", "H14", "I17", "J8", "K19", "K15",
         "M19", "M21", "L10", "O7"): "",
        ("H16",): "border 3 impassable",
        ("E9", "E13", "G13", "H10", "I9", "N8"): "upgrade 40 mountain",
        ("C13", "F12", "G11", "I15", "J14", "K17", "M11", "O3"): "upgrade 80 mountain",
        ("B8", "B10", "C11", "D12", "J12", "K11", "N10", "P4", "H12", "I11", "C9"):
            "upgrade 160 mountain",
        ("L20", "O9", "G15", "L12"): "city 0",
        ("E11",): "city 0 ; upgrade 40 mountain",
        ("F8", "F10", "O5", "M9"): "town 0",
        ("G17",): "town 0 ; border 0 impassable",
        ("D14", "F14", "J10", "J16"): "town 0 ; upgrade 40 mountain",
        ("K13",): "town 0 ; upgrade 80 mountain",
        ("D10", "G9"): "town 0 ; upgrade 160 mountain",
    },
    "blue": {
        ("B16",): "offboard 30 route=optional ; path 1 N0 track=dual",
        ("J20",): "offboard 40 route=optional ; path 1 N0 track=dual",
        ("L16", "G5"): "offboard 40 route=optional ; path 4 N0 track=dual",
    },
    "gray": {
        ("A7",): "offboard white:10,gray:40,black:60 ; path 4 N0 track=dual",
        ("N2",): "offboard white:30,gray:50,black:80 ; path 0 N0 track=dual",
        ("C5",): "offboard white:60,gray:90,black:120 ; path 5 N0 track=dual ; "
                 "path 4 N0 track=dual",
        ("O1",): "path 3 5 track=dual",
        ("N12",): "path 0 2 track=dual",
        ("C7",): "town 30 ; path 1 N0 track=narrow ; path 4 N0 track=narrow",
        ("O11",): "town 20 ; path 3 N0 track=dual ; path 1 N0 track=dual",
        ("O19",): "town 20 ; path 3 N0 track=dual",
        ("P6",): "town 20 ; path 3 N0 track=dual ; path 2 N0 track=dual ; "
                 "path 1 N0 track=dual",
        ("K9",): "town 20 ; path 3 N0 track=dual ; path 2 N0 track=dual ; "
                 "path 4 N0 track=dual ; path 5 N0 track=dual",
        ("J18",): f"{_GRAY_CITY} slots=2 ; path 4 N0 track=dual ; path 2 N0 ; "
                  "path 1 N0 track=narrow ; path 5 N0",
        ("B14",): f"{_GRAY_CITY} slots=2 ; path 0 N0 track=dual ; path 1 N0 track=dual ; "
                  "path 2 N0 track=dual ; path 4 N0 track=dual",
        ("I13",): f"{_GRAY_CITY} slots=2 ; path 4 N0 track=dual ; path 2 N0 track=dual ; "
                  "path 3 N0 track=dual ; path 1 N0 track=dual ; path 5 N0 track=dual ; "
                  "path 0 N0 track=dual ; path 5 N0 track=dual",
        ("N20",): f"{_GRAY_CITY} slots=1 ; path 0 N0 track=dual ; path 3 N0 track=dual ; "
                  "path 2 N0 track=dual",
    },
    "yellow": {
        ("A9",): "label A ; city 30 ; upgrade 80 mountain ; path 0 N0 track=narrow ; "
                 "path 1 N0 track=narrow ; path 5 N0 track=narrow ; path 4 N0",
        ("P2",): "label R ; city 10 ; path 3 N0 track=narrow ; path 4 N0",
        ("L18",): "label T ; city 20 ; path 2 N0 track=dual",
        ("G7",): "label N ; city 20 ; path 4 N0 track=narrow ; path 5 N0",
        ("H8",): "city 10 ; path 2 N0",
    },
}


def title_data(players: int, options: Tuple[str, ...]) -> TitleData:
    """The data of a game for ``players`` players."""
    return TitleData(
        map=MapSpec(HEXES, layout="pointy", letters_on_x=False, names=LOCATION_NAMES),
        tiles=TileSupply(TILES), market=MARKET, phases=PHASES, trains=trains(players),
        corporations=CORPORATIONS, companies=COMPANIES, bank_cash=BANK_CASH,
        starting_cash=STARTING_CASH[players], cert_limit=CERT_LIMIT[players])
