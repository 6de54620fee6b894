"""1893: Cologne — map, tiles, market, trains, phases and companies (facts from the
published game as implemented by 18xx.games)."""

BANK_CASH = 7200
CERT_LIMIT = {2: 18, 3: 12, 4: 9}
STARTING_CASH = {2: 900, 3: 600, 4: 450}

LOCATION_NAMES = {
    "B5": "Düsseldorf & Neuss", "D5": "Benrath", "D7": "Solingen", "B9": "Wuppertal",
    "E2": "Grevenbroich", "E4": "Dormagen", "G6": "Leverkusen", "I2": "Bergheim",
    "I8": "Bergisch-Gladbach", "L3": "Frechen", "L5": "Köln", "L9": "Gummersbach",
    "N1": "Aachen", "O2": "Düren", "O4": "Brühl", "O6": "Porz", "P7": "Troisdorf",
    "P9": "Siegen", "R7": "Bonn-Beuel", "S6": "Bonn", "T3": "Euskirchen", "U6": "Andernach",
    "U8": "Neuwied",
}

# Standard tiles available, by name → count; title-specific tiles are written out.
TILES = {
    "3": 2, "4": 4, "5": 2, "6": 4, "7": 3, "8": 10, "9": 7, "14": 4, "15": 5, "16": 1,
    "19": 1, "20": 2, "23": 3, "24": 3, "25": 1, "26": 1, "27": 1, "28": 1, "29": 1,
    "39": 1, "40": 2, "41": 1, "42": 1, "43": 1, "44": 1, "45": 1, "46": 1, "47": 1,
    "57": 3, "58": 4, "70": 1, "141": 2, "142": 2, "143": 2, "144": 2, "145": 1, "146": 1,
    "147": 1, "611": 4, "619": 3,
    "K1": {"count": 1, "color": "yellow",
           "code": "town 10 ; town 10 ; path 1 N0 ; path N0 3 ; path 0 N1 ; path N1 4 ; label L"},
    "K5": {"count": 2, "color": "yellow", "code": "city 20 ; path 0 N0 ; path 1 N0 ; label BX"},
    "K6": {"count": 2, "color": "yellow", "code": "city 20 ; path 0 N0 ; path 2 N0 ; label BX"},
    "K14": {"count": 2, "color": "green",
            "code": "city 30 slots=2 ; path 0 N0 ; path 1 N0 ; path 3 N0 ; path 4 N0 ; label BX"},
    "K15": {"count": 2, "color": "green",
            "code": "city 30 slots=2 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; label BX"},
    "K57": {"count": 2, "color": "yellow", "code": "city 20 ; path 0 N0 ; path N0 3 ; label BX"},
    "K55": {"count": 1, "color": "yellow",
            "code": "town 10 ; town 10 ; path 0 N0 ; path N0 3 ; path 1 N1 ; path N1 4 ; label L"},
    "K170": {"count": 1, "color": "brown",
             "code": "city 50 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 3 N0 ; "
                     "path 4 N0 ; path 5 N0 ; label L"},
    "K201": {"count": 1, "color": "yellow", "code": "city 30 ; path 0 N0 ; path 1 N0 ; label K"},
    "K255": {"count": 1, "color": "brown",
             "code": "city 70 slots=3 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; "
                     "path 4 N0 ; label K"},
    "K269": {"count": 1, "color": "green",
             "code": "city 50 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; label K"},
    "K314": {"count": 1, "color": "green",
             "code": "city 30 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 5 N0 ; label L"},
    "KV63": {"count": 1, "color": "brown",
             "code": "city 40 slots=2 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; "
                     "path 4 N0 ; path 5 N0 ; label S"},
    "KV201": {"count": 1, "color": "yellow",
              "code": "city 30 ; path 1 N0 ; path 2 N0 ; upgrade 40 water ; label K"},
    "KV255": {"count": 1, "color": "brown",
              "code": "city 70 slots=3 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; "
                      "path 4 N0 ; upgrade 60 water ; label K"},
    "KV259": {"count": 1, "color": "gray",
              "code": "city 50 slots=3 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; "
                      "path 4 N0 ; path 5 N0"},
    "KV269": {"count": 1, "color": "green",
              "code": "city 50 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; "
                      "upgrade 40 water ; label K"},
    "KV333": {"count": 1, "color": "gray",
              "code": "city 80 slots=4 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; "
                      "path 4 N0 ; label K"},
    "KV619": {"count": 1, "color": "green",
              "code": "city 30 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; label S"},
}

# Tiles that exist only with an optional rule.
TILES_GREY_PHASE = ("KV201-0", "KV269-0", "KV255-0", "KV333-0", "KV259-0")
TILES_NOT_GREY_PHASE = ("K201-0", "K269-0", "K255-0")
TILES_EXISTING_TRACK = ("KV619-0", "KV63-0")

LEVERKUSEN = "G6"
LEVERKUSEN_YELLOW_TILES = ("K1", "K55")
LEVERKUSEN_GREEN_TILE = "K314"
RHINE_PASSAGE = ("L5", "S6")
TILE_BLOCK = ("N5", "P5")


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


MARKET = [
    ["", "", "100", "110", "120", "135", "150", "165", "180", "195", "210", "230", "250", "270",
     "300", "330"],
    ["", "80", "90", "100p", "110", "120x", "135", "150", "165", "180", "195", "210", "230",
     "250"],
    ["70", "75", "80", "90p", "100", "110", "120z", "135", "150", "165", "180"],
    ["65", "70", "75", "80p", "90", "100", "110", "120"],
    ["60", "65", "70p", "75", "80", "90"],
    ["55", "60p", "65", "70", "75"],
    ["50", "55", "60", "65"],
]

PHASES = [
    {"name": "2", "on": "2", "train_limit": {"minor": 2, "corporation": 3}, "tiles": ["yellow"],
     "status": ["rhine_impassable"], "operating_rounds": 2},
    {"name": "3", "on": "3", "train_limit": {"minor": 2, "corporation": 3},
     "tiles": ["yellow", "green"], "status": ["can_buy_trains"], "operating_rounds": 2},
    {"name": "4", "on": "4", "train_limit": {"minor": 2, "corporation": 3},
     "tiles": ["yellow", "green"], "status": ["can_buy_trains", "may_found_agv"],
     "operating_rounds": 2},
    {"name": "5", "on": "5", "train_limit": {"minor": 1, "corporation": 2},
     "tiles": ["yellow", "green", "brown"], "status": ["can_buy_trains", "may_found_hgk"],
     "operating_rounds": 2},
    {"name": "6", "on": "6", "train_limit": {"minor": 1, "corporation": 2},
     "tiles": ["yellow", "green", "brown"], "status": ["can_buy_trains"], "operating_rounds": 2},
    {"name": "8+x", "on": "8+x", "train_limit": {"minor": 1, "corporation": 2},
     "tiles": ["yellow", "green", "brown", "gray"], "status": ["can_buy_trains"],
     "operating_rounds": 2},
]

TRAINS = [
    {"name": "2", "distance": 2, "price": 80, "rusts_on": "4", "num": 7},
    {"name": "3", "distance": 3, "num": 4, "price": 180, "rusts_on": "6",
     "discount": {"2": 40}, "events": [{"type": "remove_tile_block"}]},
    {"name": "4", "distance": 4, "num": 4, "price": 300, "rusts_on": "8+x",
     "discount": {"2": 40, "3": 90}, "events": [{"type": "agv_buyable"}]},
    {"name": "5", "distance": 5, "num": 2, "price": 450, "discount": {"3": 90, "4": 150},
     "events": [{"type": "agv_founded"}, {"type": "hgk_buyable"}, {"type": "fdsd_closed"}]},
    {"name": "6", "distance": 6, "num": 3, "price": 630,
     "discount": {"3": 90, "4": 150, "5": 225},
     "events": [{"type": "hgk_founded"}, {"type": "eva_closed"}]},
    {"name": "8+x", "num": 3, "price": 800, "available_on": "6",
     "distance": [{"nodes": ["city", "offboard"], "pay": 8, "visit": 8},
                  {"nodes": ["town"], "pay": 99, "visit": 99}],
     "discount": {"4": 150, "5": 225, "6": 315}},
]

_CORP = {"float_percent": 50, "float_excludes_market": True, "always_market_price": True,
         "type": "corporation"}
_MERGED_SHARES = [20, 10, 20, 10, 10, 10, 10, 10]

CORPORATIONS = [
    dict(_CORP, sym="DE", name="Dürener Eisenbahn", tokens=[0, 40, 100], color="blue",
         coordinates="O2"),
    dict(_CORP, sym="RSE", name="Rhein-Sieg Eisenbahn", tokens=[0, 40, 100], color="pink",
         coordinates="R7"),
    dict(_CORP, sym="RAG", name="Rheinbahn AG", tokens=[0, 40, 100], color="#B3B3B3",
         coordinates="D5"),
    dict(_CORP, sym="AGV", name="AG für Verkehrswesen", floatable=False,
         tokens=[0, 0, 0, 100, 100], shares=_MERGED_SHARES, color="green",
         abilities=[{"type": "no_buy", "description": "Unavailable in SR before phase 4"}]),
    dict(_CORP, sym="HGK", name="Häfen und Güterverkehr Köln AG", floatable=False,
         tokens=[0, 0, 0, 100, 100], shares=_MERGED_SHARES, color="red",
         abilities=[{"type": "no_buy", "description": "Unavailable in SR before phase 5"}]),
]

MINORS = [
    {"sym": "EKB", "name": "1 Euskirchener Kreisbahn", "type": "minor", "tokens": [0],
     "coordinates": "T3", "city": 0, "color": "green"},
    {"sym": "KFBE", "name": "2 Köln-Frechen-Benzelrather E", "type": "minor", "tokens": [0],
     "coordinates": "L3", "city": 0, "color": "red"},
    {"sym": "KSZ", "name": "3 Kleinbahn Siegburg-Zündorf", "type": "minor", "tokens": [0],
     "coordinates": "P7", "city": 0, "color": "green"},
    {"sym": "KBE", "name": "4 Köln-Bonner Eisenbahn", "type": "minor", "tokens": [0],
     "coordinates": "O4", "city": 0, "color": "red"},
    {"sym": "BKB", "name": "5 Bergheimer Kreisbahn", "type": "minor", "tokens": [0],
     "coordinates": "I2", "city": 0, "color": "green"},
]

_NOT_SOLD = [{"type": "no_buy", "owner_type": "player"}]

COMPANIES = [
    {"sym": "FdSD", "name": "Fond der Stadt Düsseldorf", "value": 180, "revenue": 20,
     "desc": "May be exchanged for 20% of RAG (or its president's certificate when parring "
             "RAG) in a stock round after the first; closes after the first SR of phase 5.",
     "abilities": [{"type": "no_buy", "owner_type": "player"},
                   {"type": "exchange", "corporations": ["RAG"], "owner_type": "player",
                    "when": "owning_player_sr_turn", "from": ["market"]}]},
    {"sym": "EVA", "name": "EVA (Eisenbahnverkehrsmittel Aktiengesellschaft)", "value": 150,
     "revenue": 30, "desc": "Closes when the first 6-train is bought; may be sold to players.",
     "abilities": _NOT_SOLD},
    {"sym": "HdSK", "name": "Häfen der Stadt Köln", "value": 100, "revenue": 10,
     "desc": "Exchanged for a 10% certificate of HGK.", "abilities": _NOT_SOLD},
    {"sym": "EKB", "name": "Minor 1 Euskirchener Kreisbahn", "value": 210, "revenue": 0,
     "desc": "Controls minor 1; becomes the president's certificate of AGV.",
     "abilities": _NOT_SOLD},
    {"sym": "KFBE", "name": "Minor 2 Köln-Frechen-Benzelrather Eisenbahn", "value": 200,
     "desc": "Controls minor 2; becomes a 20% certificate of HGK.", "abilities": _NOT_SOLD},
    {"sym": "KSZ", "name": "Minor 3 Kleinbahn Siegburg-Zündorf", "value": 100,
     "desc": "Controls minor 3; becomes a 10% certificate of AGV.", "abilities": _NOT_SOLD},
    {"sym": "KBE", "name": "Minor 4 Köln-Bonner Eisenbahn", "value": 220,
     "desc": "Controls minor 4; becomes the president's certificate of HGK.",
     "abilities": _NOT_SOLD},
    {"sym": "BKB", "name": "Minor 5 Bergheimer Kreisbahn", "value": 180,
     "desc": "Controls minor 5; becomes a 20% certificate of AGV.", "abilities": _NOT_SOLD},
] + [
    {"sym": f"AdSK-{n}", "name": "Anleihen der Stadt Köln", "value": 100, "revenue": 10,
     "desc": "A bond of the City of Cologne: bought and sold in stock rounds like a share.",
     "color": "orange"}
    for n in range(1, 11)
]

PRIVATES = ("FdSD", "EVA", "HdSK")
MINOR_PROXIES = ("EKB", "KFBE", "KSZ", "KBE", "BKB")
MERGED_CORPORATIONS = ("AGV", "HGK")

OPTIONAL_RULES = [
    {"sym": "optional_2_train", "short_name": "Optional 2-Train", "desc": "Add an 8th 2-train"},
    {"sym": "optional_grey_phase", "short_name": "Gray Phase",
     "desc": "Changed Köln tiles. Extra gray KV259."},
    {"sym": "optional_existing_track", "short_name": "Existing Track",
     "desc": "E2 and D7 start as yellow. New S upgrades."},
]
