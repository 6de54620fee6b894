"""1849: Kingdom of the Two Sicilies — map, tiles, market, trains, phases, companies (facts
from the published game as implemented by 18xx.games)."""

BANK_CASH = 7760
CERT_LIMIT = {4: 14, 5: 12, 6: 10}
STARTING_CASH = {4: 375, 5: 330, 6: 300}

MARKET = [
    "72 83 95 107 120 133 147 164 182 202 224 248 276 306u 340u 377e".split(),
    "63 72 82 93 104 116 128 142 158 175 195 216z 240 266u 295u 328u".split(),
    "57 66 75 84 95 105 117 129 144x 159 177 196 218 242u 269u 298u".split(),
    "54 62 71 80 90 100p 111 123 137 152 169 187 208 230".split(),
    "52 59 68p 77 86 95 106 117 130 145 160 178 198".split(),
    "47 54 62 70 78 87 96 107 118 131 146 162".split(),
    "41 47 54 61 68 75 84 93 103 114 127".split(),
    "34 39 45 50 57 63 70 77 86 95".split(),
    "27 31 36 40 45 50 56".split(),
    "0c 24 27 31".split(),
]

PHASES = [
    {"name": "4H", "train_limit": 4, "tiles": ["yellow"], "operating_rounds": 1,
     "status": ["gray_uses_white"]},
    {"name": "6H", "on": "6H", "train_limit": 4, "tiles": ["yellow", "green"],
     "operating_rounds": 2, "status": ["gray_uses_white", "can_buy_companies"]},
    {"name": "8H", "on": "8H", "train_limit": 3, "tiles": ["yellow", "green"],
     "operating_rounds": 2, "status": ["gray_uses_gray", "can_buy_companies"]},
    {"name": "10H", "on": "10H", "train_limit": 2, "tiles": ["yellow", "green", "brown"],
     "operating_rounds": 3, "status": ["gray_uses_gray", "can_buy_companies"]},
    {"name": "12H", "on": "12H", "train_limit": 2, "tiles": ["yellow", "green", "brown"],
     "operating_rounds": 3, "status": ["gray_uses_black"]},
    {"name": "16H", "on": "16H", "train_limit": 2, "tiles": ["yellow", "green", "brown"],
     "operating_rounds": 3, "status": ["gray_uses_black", "blue_zone"]},
]

# Counts of 8H, 10H and 16H depend on the number of players (see the game class).
TRAINS = [
    {"name": "4H", "num": 4, "distance": 4, "price": 100, "rusts_on": "8H"},
    {"name": "6H", "num": 4, "distance": 6, "price": 200, "rusts_on": "10H",
     "events": [{"type": "green_par"}]},
    {"name": "8H", "distance": 8, "price": 350, "rusts_on": "16H"},
    {"name": "10H", "distance": 10, "price": 550, "events": [{"type": "brown_par"}]},
    {"name": "12H", "num": 1, "distance": 12, "price": 800,
     "events": [{"type": "close_companies"}, {"type": "earthquake"}]},
    {"name": "16H", "distance": 16, "price": 1100},
    {"name": "R6H", "num": 2, "available_on": "16H", "distance": 6, "price": 600},
]

CORP_CHOOSES_HOME = "SFR"
CORP_CHOOSES_HOME_HEXES = ("E11", "H8", "I13", "I17", "J18", "K19", "L12", "L20", "O9", "P2")
PORT_HEXES = ("B16", "G5", "J20", "L16")
SMS_HEXES = ("B14", "G7", "H8", "J18", "L12", "L18", "L20", "N20", "O9", "P2")

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

COMPANIES = [
    {"sym": "SCE", "name": "Società Corriere", "value": 20, "revenue": 5,
     "desc": "Blocks Caserta (F8) while owned by a player.",
     "abilities": [{"type": "blocks_hexes", "owner_type": "player", "hexes": ["F8"]}]},
    {"sym": "SIGI", "name": "Studio di Ingegneria Giuseppe Incorpora", "value": 45,
     "revenue": 10,
     "desc": "The owning corporation lays broad gauge track on mountains at half cost.",
     "abilities": [{"type": "tile_discount", "discount": "half", "terrain": "mountain",
                    "owner_type": "corporation"}]},
    {"sym": "CNM", "name": "Compagnia Navale Mediterranea", "value": 75, "revenue": 15,
     "desc": "The owning corporation may close it to put a +L.20 token on a port.",
     "abilities": [{"type": "assign_hexes", "when": "owning_corp_or_turn",
                    "hexes": ["B16", "G5", "J20", "L16"], "count": 1,
                    "owner_type": "corporation"},
                   {"type": "assign_corporation", "when": "sold", "count": 1,
                    "owner_type": "corporation"}]},
    {"sym": "SMS", "name": "Società Marittima Siciliana", "value": 110, "revenue": 20,
     "desc": "The owning corporation may close it instead of its track and token steps to "
             "lay track and/or a token on any coastal city.",
     "abilities": [{"type": "description",
                    "description": "Lay/upgrade and/or teleport on any coastal city"}]},
    {"sym": "RSA", "name": "Reale Società d'Affari", "value": 150, "revenue": 25,
     "desc": "Comes with the president's certificate of the first corporation; closes when "
             "that corporation buys its first train.",
     "abilities": [{"type": "shares", "shares": "first_president"}, {"type": "no_buy"}]},
]

_CORP = {"float_percent": 20, "tokens": [0, 0, 0], "shares": [20, 10, 10, 10, 10, 10, 10, 20],
         "always_market_price": True}

CORPORATIONS = [
    dict(_CORP, sym="SFR", name="Società per le Strade Ferrate Romane", token_fee=40,
         color="#ff0000"),
    dict(_CORP, sym="SFCS", name="Società per le Strade Ferrate Calabro-Sicule", token_fee=30,
         coordinates="O9", color="green"),
    dict(_CORP, sym="AL", name="Società Adami e Lemmi", token_fee=40, coordinates="N20",
         color="#f9b231"),
    dict(_CORP, sym="SFM", name="Società Italiana per le Strade Ferrate Meridionali",
         token_fee=90, coordinates="B14", color="#0189d1"),
    dict(_CORP, sym="IFP", name="Impresa Ferroviaria di Pietrarsa", token_fee=130,
         coordinates="G7", color="#f48221"),
    dict(_CORP, sym="PL", name="Società Anonima Pia Latina", token_fee=40, coordinates="G15",
         color="pink"),
    dict(_CORP, sym="FCU", name="Ferrovia Centrale Umbra", token_fee=40, coordinates="A9",
         color="#7b352a"),
    dict(_CORP, sym="M&C", name="Società in Commandita E. Melisurgo & C.", token_fee=90,
         coordinates="L18", color="#000"),
]

TILES = {
    "3": 4, "4": 4, "7": 4, "8": 10, "9": 8, "58": 4, "73": 4, "74": 3, "77": 4, "78": 10,
    "79": 7, "644": 2, "645": 2, "657": 2, "658": 2, "659": 2, "679": 2, "23": 3, "24": 3,
    "25": 2, "26": 1, "27": 1, "28": 1, "29": 1, "30": 1, "31": 1, "624": 1, "650": 1,
    "660": 1, "661": 1, "662": 1, "663": 1, "664": 1, "665": 1, "666": 1, "667": 1, "668": 1,
    "669": 1, "670": 1, "671": 1, "677": 3, "678": 3, "680": 1, "681": 1, "682": 1, "683": 1,
    "684": 1, "685": 1, "686": 1, "687": 1, "688": 1, "689": 1, "690": 1, "691": 1, "692": 1,
    "693": 1, "694": 1, "695": 1, "699": 2, "700": 1, "701": 1, "702": 1, "703": 1, "704": 1,
    "705": 1, "706": 1, "707": 1, "708": 1, "709": 1, "710": 1, "711": 1, "712": 1, "713": 1,
    "714": 1, "715": 1, "39": 1, "40": 1, "41": 1, "42": 1, "646": 1, "647": 1, "648": 1,
    "649": 1, "672": 1, "673": 2, "674": 2, "696": 3, "697": 2, "698": 2,
    "X1": {"count": 1, "color": "green",
           "code": "label A ; city 60 slots=2 ; path 1 N0 track=dual ; path 4 N0 ; "
                   "path 0 N0 track=narrow ; path 5 N0 track=narrow"},
    "X2": {"count": 1, "color": "green",
           "code": "label N ; city 50 slots=1 ; path 4 N0 track=narrow ; path 5 N0 ; "
                   "path 1 N0 track=dual"},
    "X3": {"count": 1, "color": "green",
           "code": "label R ; city 30 slots=2 ; path 3 N0 track=dual ; path 4 N0 ; "
                   "path 2 N0 track=dual"},
    "X4": {"count": 1, "color": "green",
           "code": "label T ; city 30 slots=2 ; path 2 N0 track=dual ; path 1 N0 track=dual ; "
                   "path 5 N0"},
    "X5": {"count": 1, "color": "brown",
           "code": "label A ; city 90 slots=2 ; path 1 N0 track=dual ; path 4 N0 ; "
                   "path 0 N0 track=dual ; path 5 N0 track=dual"},
    "X6": {"count": 1, "color": "brown",
           "code": "label N ; city 90 slots=3 ; path 4 N0 track=dual ; path 5 N0 ; "
                   "path 1 N0 track=dual ; path 3 N0"},
    "X7": {"count": 1, "color": "brown",
           "code": "label R ; city 90 slots=2 ; path 3 N0 track=dual ; path 4 N0 ; "
                   "path 2 N0 track=dual"},
    "X8": {"count": 1, "color": "brown",
           "code": "label T ; city 60 slots=2 ; path 2 N0 track=dual ; path 1 N0 track=dual ; "
                   "path 5 N0 ; path 4 N0"},
}

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
