"""1817NA — the map, tiles, market, trains, phases, corporations and private companies (the
facts of the published game, as 18xx.games implements it in ``lib/engine/game/g_1817_na``,
with what it takes unchanged from ``g_1817``).

1817NA is 1817 on a map of North America: 2–6 players, fewer trains, eight privates of
its own, 15 of 1817's corporations, an unlimited bank and 56 loans of $100.
"""

from __future__ import annotations

from typing import Tuple

from ...spec.data import (CompanySpec, CorporationSpec, LoanSpec, MapSpec, MarketSpec,
                          OptionalRule, PhaseSpec, Power, TileSupply, TitleData, Timing,
                          TrainEvent, TrainSpec)

BANK_CASH = None                                   # game.rb BANK_CASH = :unlimited
CERT_LIMIT = {2: 21, 3: 16, 4: 13, 5: 11, 6: 9}
STARTING_CASH = {2: 420, 3: 315, 4: 252, 5: 210, 6: 180}
SEED_MONEY = 150                                   # 1817: 200
# The Bank of New York: rates 5 … 70 in steps of 5, four loans at each (1817: five).
LOANS = LoanSpec(value=100, min_rate=5, max_rate=70, rate_step=5, per_step=4)

LOCATION_NAMES = {
    'A7': 'Dawson City', 'B2': 'Anchorage', 'B6': 'The Klondike', 'B18': 'Arctic',
    'C3': 'Asia', 'C9': 'Hazelton', 'D12': 'Edmonton', 'D16': 'Winnipeg', 'D22': 'Quebec',
    'D26': 'Europe', 'E9': 'Seattle', 'F14': 'Denver', 'F20': 'Toronto', 'F22': 'New York',
    'H8': 'Hawaii', 'H10': 'Los Angeles', 'H18': 'New Orleans', 'I13': 'Guadalajara',
    'I15': 'Mexico City', 'I21': 'Miami', 'J18': 'Belize', 'K21': 'South America',
}

MOUNTAINS = ('A3', 'B4', 'B8', 'B10', 'D10', 'E11', 'E13', 'F12', 'G13', 'G19', 'H12', 'J14')
DENVER = 'F14'
BRIDGE_CITIES = ('D16', 'H18')                     # Winnipeg, New Orleans

# The map by colour (map.rb HEXES). Within a group the order of the hexes gives the printed
# tiles' ids (``<hex>-<index>``, as in ``H10-6-0``), so it is the reference's order.
# Pointy hexes, letters down the side.
_SEA = "offboard yellow:0 visit_cost=99"
HEXES = {
    "white": {
        MOUNTAINS: "upgrade 15 mountain",
        ('A5', 'A9', 'B12', 'C7', 'C11', 'C13', 'C15', 'C17', 'C23', 'D18', 'D20', 'D24',
         'E21', 'E23', 'F10', 'G9', 'G11', 'G15', 'G21', 'H14', 'H16', 'H20', 'J16', 'K17',
         'K19'): "",
        ('E19',): "border 0 impassable ; border 1 impassable",
        ('E17',): "border 4 impassable",
        ('F18',): "border 3 impassable",
        ('A7',): "city 0 ; upgrade 15 mountain",
        ('B2', 'C9', 'D22', 'E9', 'F14', 'F20', 'H10', 'I13'): "city 0",
        ('J18',): "city 0 ; border 3 impassable",
        ('D8', 'E25', 'J20'): "upgrade 20 lake",
        ('I19',): "upgrade 20 lake ; border 0 impassable",
        ('D14', 'E15', 'F16', 'G17'): "upgrade 10 water",
        ('H18', 'D16'): "city 0 ; upgrade 10 water",
    },
    "gray": {
        ('B6',): "town yellow:50,green:20,brown:40 ; path 1 N0 ; path 2 N0 ; path 3 N0",
        ('B14', 'C19'): "path 1 4",
        ('B16', 'C21'): "path 1 5",
        ('I21',): "city yellow:20,green:30,brown:50,gray:60 ; path 1 N0 ; path N0 2 ; "
                  "path 0 N0 ; path N0 1",
    },
    "red": {
        ('B18',): "offboard yellow:20,green:30,brown:50,gray:60 ; path 0 N0",
        ('C3',): "offboard yellow:30,green:50,brown:60,gray:80 ; path 2 N0 ; path 3 N0",
        ('D26',): "offboard yellow:30,green:50,brown:60,gray:80 ; path 1 N0 ; path 0 N0",
        ('H8',): "offboard yellow:20,green:30,brown:50,gray:60 ; path 3 N0 ; path 4 N0",
        ('K21',): "offboard yellow:20,green:30,brown:50,gray:60 ; path 1 N0 ; path 2 N0",
    },
    "yellow": {
        ('D12',): "city 30 ; path 2 N0 ; path N0 4 ; label B",
        ('F22',): "city 40 ; city 40 ; path 3 N1 ; path 0 N0 ; label NY ; upgrade 20 lake",
        ('I15',): "city 30 ; path 1 N0 ; path N0 5 ; label B ; upgrade 20 lake",
    },
    # The sea: off-boards no train may visit (visit cost 99), drawn as coast.
    "blue": {
        ('I17', 'C1', 'F8'): f"{_SEA} ; path 3 N0",
        ('I9',): f"{_SEA} ; path 3 N0 ; border 4",
        ('J12',): f"{_SEA} ; path 3 N0 ; border 2",
        ('I11',): f"{_SEA} ; path 2 N0 ; {_SEA} ; path 4 N1 ; border 1 ; border 5",
        ('A1',): f"{_SEA} ; path 5 N0",
    },
}

# Tiles (map.rb TILES): every one without limit; X00 is Denver's (DTC), X30 New York's gray.
_STANDARD = ('5', '6', '7', '8', '9', '14', '15', '54', '57', '62', '63', '80', '81', '82',
             '83', '448', '544', '545', '546', '592', '593', '597', '611', '619')
TILES = {**{name: "unlimited" for name in _STANDARD},
         'X00': ("unlimited", 'yellow', "city 30 ; path 1 N0 ; path 3 N0 ; path 5 N0 ; label B"),
         'X30': ("unlimited", 'gray',
                 "city 100 slots=4 ; path 2 N0 ; path 3 N0 ; path 4 N0 ; path 5 N0 ; label NY")}

# One row (game.rb MARKET): 0 is the liquidation cell (l), the three cells after it and 40
# … are the acquisition zone (a: 0 0 0; 40 45 are below the first par), p the prices a
# corporation may start at, s the "safe" pars (55, 70, 120).
MARKET = MarketSpec((('0l', '0a', '0a', '0a', '40', '45', '50p', '55s', '60p', '65p', '70s',
                      '80p', '90p', '100p', '110p', '120s', '135p', '150p', '165p', '180p',
                      '200p', '220', '245', '270', '300', '330', '360', '400', '440', '490',
                      '540', '600'),))

PHASES = (
    PhaseSpec('2', train_limit=4, tiles=('yellow',), operating_rounds=2,
              corporation_sizes=(2,)),
    PhaseSpec('2+', on=('2+',), train_limit=4, tiles=('yellow',), operating_rounds=2,
              corporation_sizes=(2,)),
    PhaseSpec('3', on=('3',), train_limit=4, tiles=('yellow', 'green'), operating_rounds=2,
              corporation_sizes=(2, 5)),
    PhaseSpec('4', on=('4',), train_limit=3, tiles=('yellow', 'green'), operating_rounds=2,
              corporation_sizes=(5,)),
    PhaseSpec('5', on=('5',), train_limit=3, tiles=('yellow', 'green', 'brown'),
              operating_rounds=2, corporation_sizes=(5, 10)),
    PhaseSpec('6', on=('6',), train_limit=2, tiles=('yellow', 'green', 'brown'),
              operating_rounds=2, corporation_sizes=(10,)),
    PhaseSpec('7', on=('7',), train_limit=2, tiles=('yellow', 'green', 'brown', 'gray'),
              operating_rounds=2, corporation_sizes=(10,)),
    PhaseSpec('8', on=('8',), train_limit=2, tiles=('yellow', 'green', 'brown', 'gray'),
              operating_rounds=2, status=frozenset(['no_new_shorts']),
              corporation_sizes=(10,)),
)

TRAINS = (
    TrainSpec('2', 2, 100, count=31, rusts_on=('4',)),
    TrainSpec('2+', 2, 100, count=3, obsolete_on=('4',)),
    TrainSpec('3', 3, 250, count=8, rusts_on=('6',)),
    TrainSpec('4', 4, 400, count=6, rusts_on=('8',)),
    TrainSpec('5', 5, 600, count=4),
    TrainSpec('6', 6, 750, count=3),
    TrainSpec('7', 7, 900, count=2),
    TrainSpec('8', 8, 1100, count=1, unlimited=True, events=(TrainEvent('signal_end_game'),)),
)

_CORPORATE = "corporation"
_MINE = Power("tile_lay", owner=_CORPORATE, when=(Timing.OWNING_CORPORATION_TURN,),
              hexes=MOUNTAINS, discount=15, text="7 8 9")
COMPANIES = (
    CompanySpec('DTC', 'Denver Telecommunications', 40, 0,
                "Owning corp may place special Denver yellow tile during tile-laying, "
                "regardless of connectivity. The hex is not reserved, and the power is lost "
                "if another company builds there first.",
                powers=(Power("tile_lay", owner=_CORPORATE, when=(Timing.OWNING_CORPORATION_TURN,),
                              count=1, hexes=(DENVER,), text="X00"),)),
    CompanySpec('ME', 'Mountain Engineers', 40, 0,
                "Owning company receives $20 after laying a yellow tile in a mountain hex. "
                "Any fees must be paid first.",
                powers=(Power("tile_income", owner=_CORPORATE, terrain="mountain",
                              discount=20),)),
    CompanySpec('UBC', 'Union Bridge Company', 80, 0,
                "Comes with two $10 bridge token that may be placed by the owning corp in "
                "Winnipeg or New Orleans, max one token per city, regardless of connectivity. "
                "Allows owning corp to skip $10 river fee when placing yellow tiles.",
                powers=(Power("tile_discount", owner=_CORPORATE, discount=10, terrain="water"),
                        Power("assign_hexes", owner=_CORPORATE,
                              when=(Timing.OWNING_CORPORATION_TURN,), count=2,
                              hexes=BRIDGE_CITIES))),
    CompanySpec('TS', 'Train Station', 80, 0,
                "Provides an additional station marker for the owning corp, awarded at time "
                "of purchase",
                powers=(Power("additional_token", owner=_CORPORATE, count=1),)),
    CompanySpec('MINC', 'Minor Coal Mine', 30, 0,
                "Comes with one coal mine marker. When placing a yellow tile in a mountain "
                "hex next to a revenue location, can place token to avoid $15 terrain fee. "
                "Marked yellow hexes cannot be upgraded. Hexes pay $10 extra revenue and do "
                "not count as a stop. May not start or end a route at a coal mine.",
                powers=(Power(_MINE.kind, owner=_CORPORATE, when=_MINE.when, count=1,
                              hexes=MOUNTAINS, discount=15, text=_MINE.text),)),
    CompanySpec('MAJC', 'Major Coal Mine', 90, 0,
                "Comes with three coal mine markers. When placing a yellow tile in a mountain "
                "hex next to a revenue location, can place token to avoid $15 terrain fee. "
                "Marked yellow hexes cannot be upgraded. Hexes pay $10 extra revenue and do "
                "not count as a stop. May not start or end a route at a coal mine.",
                powers=(Power(_MINE.kind, owner=_CORPORATE, when=_MINE.when, count=3,
                              hexes=MOUNTAINS, discount=15, text=_MINE.text),)),
    CompanySpec('MINM', 'Minor Mail Contract', 60, 0,
                "Pays owning corp $10 at the start of each operating round, as long as the "
                "company has at least one train.",
                powers=(Power("mail", owner=_CORPORATE, discount=10),)),
    CompanySpec('MAJM', 'Major Mail Contract', 120, 0,
                "Pays owning corp $20 at the start of each operating round, as long as the "
                "company has at least one train.",
                powers=(Power("mail", owner=_CORPORATE, discount=20),)),
)
MINE_COMPANIES = ('MINC', 'MAJC')

# entities.rb CORPORATIONS: one certificate of 100% (two shares) until a size is chosen;
# one station token, more bought when it starts; float at 20%; no home (a city chosen when
# it starts); treasury shares sell at the market price.
_CORPORATIONS = (
    ('DL&W', 'Delaware, Lackawanna and Western Railroad', '#984573'),
    ('J', 'Elgin, Joliet and Eastern Railway', '#bedb86'),
    ('GT', 'Grand Trunk Western Railroad', '#e48329'),
    ('H', 'Housatonic Railroad', '#bedef3'),
    ('ME', 'Morristown and Erie Railway', '#ffdea8'),
    ('NYOW', 'New York, Ontario and Western Railway', '#0095da'),
    ('NYSW', 'New York, Susquehanna and Western Railway', '#fff36b'),
    ('PSNR', 'Pittsburgh, Shawmut and Northern Railroad', '#0a884b'),
    ('PLE', 'Pittsburgh and Lake Erie Railroad', '#00afad'),
    ('PW', 'Providence and Worcester Railroad', '#bec8cc'),
    ('R', 'Rutland Railroad', '#165633'),
    ('SR', 'Strasburg Railroad', '#e31f21'),
    ('UR', 'Union Railroad', '#003d84'),
    ('WT', 'Warren & Trumbull Railroad', '#e96f2c'),
    ('WC', 'West Chester Railroad', '#984d2d'),
)
CORPORATIONS = tuple(
    CorporationSpec(sym, name, tokens=(0,), shares=(100,), float_percent=20,
                    max_ownership=100, market_price_as_par=True, color=color)
    for sym, name, color in _CORPORATIONS)

OPTIONAL_RULES = (
    OptionalRule('short_squeeze', 'Short Squeeze',
                 'Corporations with > 100% player ownership move a second time at end of SR'),
    OptionalRule('five_shorts', '5 Shorts', 'Only allow 5 shorts on 10 share corporations'),
    OptionalRule('modern_trains', 'Modern Trains',
                 '7 & 8 trains earn $10 & $20 respectively for each station marker of the '
                 'corporation'),
)


def title_data(players: int, options: Tuple[str, ...]) -> TitleData:
    """The data of a game for ``players`` players (2 to 6)."""
    return TitleData(
        map=MapSpec(HEXES, layout="pointy", letters_on_x=False, names=LOCATION_NAMES),
        tiles=TileSupply(TILES), market=MARKET, phases=PHASES, trains=TRAINS,
        corporations=CORPORATIONS, companies=COMPANIES, bank_cash=BANK_CASH,
        starting_cash=STARTING_CASH[players], cert_limit=CERT_LIMIT[players],
        loans=LOANS, seed_money=SEED_MONEY)
