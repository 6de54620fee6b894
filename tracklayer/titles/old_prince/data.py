"""The Old Prince 1871 — the map, tiles, market, trains, phases and companies (the facts of
the published prototype, as 18xx.games implements it in ``lib/engine/game/g_1871``).

Much of 1871 is drawn at the start of each game: two of the seven numbered corporations
become the Mainline and the Shortline, a third the Union Bank's "random" share, and the
other five are held by the PEIR (their homes under PEIR tokens, their PEIR cards sold in
the auction). This module gives the facts those draws work on; the draws, and every rule
written below as "rules module", belong to ``titles/old_prince/rules.py``.
"""

from __future__ import annotations

from typing import Tuple

from ...spec.data import (CompanySpec, CorporationSpec, MapSpec, MarketSpec, PhaseSpec, Power,
                          StopAllowance, TileSupply, TitleData, Timing, TrainEvent, TrainSpec)

BANK_CASH = None                       # game.rb BANK_CASH = :unlimited
CERT_LIMIT = {3: 20, 4: 16}
STARTING_CASH = {3: 580, 4: 480}

# Facts the rules module's Settings take (game.rb): at most 80% of a corporation in the
# market; at most 30% of one corporation sold in a stock turn; a second yellow lay costs 20
# and is not allowed after an upgrade (TILE_LAYS); stations cost 80 (the tokens below).
MARKET_LIMIT = 80
TURN_SALE_LIMIT = 30
SECOND_LAY_COST = 20

LOCATION_NAMES = {
    'A1': 'Miramichi', 'M11': 'Blooming Point', 'P10': 'Saint Peters Harbour',
    'U13': 'Red Point', 'M13': 'Mount Stewart', 'S17': 'Cardigan Point', 'H6': 'England',
    'H14': 'New London & Kensington', 'K15': 'Royalty Jct & York', 'M17': 'Stratford',
    'M21': 'Pinette Harbour', 'R22': 'Murray Harbour', 'K19': 'Cornwall',
    'K21': 'North River', 'P16': 'Cardigan Head & Lorne Valley',
    'R12': 'Bear River & Selkirk', 'R16': 'Georgetown', 'R18': 'Georgetown Harbour',
    'P22': 'Hopefield & Woods Islands', 'P26': 'Pictou Landing', 'L12': 'Oyster Bed Bridge',
    'I13': 'Stanley Bridge', 'I17': 'Emerald Jct', 'I19': 'Kinkora', 'H20': 'Cape Traverse',
    'O19': 'Iona & Eldon', 'E7': 'Northport', 'E11': 'Ellerslie & Richmond',
    'C5': 'Profits Corner & Saint Louis', 'D8': 'Freeland & Portage', 'C13': 'Cape Egmont',
    'A7': 'West Cape', 'T12': 'Souris', 'T14': 'Souris Harbour', 'R20': 'Beach Point',
    'N20': 'Belfast', 'J14': 'Hunter River', 'J20': 'Eliot River', 'O15': 'Peakes',
    'N14': 'Pisquid & Scotchfort', 'G17': 'Borden', 'D14': 'Wellington', 'D2': 'Tignish',
    'V12': 'Elmira', 'V16': 'Îles de la Madeleine', 'Q17': 'Montague', 'Q15': 'Cardigan',
    'Q21': 'Murray River', 'F14': 'Summerside', 'L16': 'Charlottetown',
    'S21': 'Port Hawkesbury', 'D6': 'Alberton', 'F20': 'Cape Tormentine',
    'G11': 'Malpeque Shipyard', 'B8': "O'Leary",
}

# The map by colour (map.rb HEXES); within a group the order of the hexes gives the printed
# tiles' ids (``<hex>-<index>``), so it is the reference's order. Flat hexes, letters on x.
HEXES = {
    "red": {
        ("A1",): "offboard yellow:20,brown:80 ; path 5 N0",
        ("H6",): "offboard yellow:60,brown:70 ; path 0 N0",
        ("P26",): "offboard yellow:30,brown:60 ; path 2 N0",
        ("V16",): "offboard yellow:40,brown:60 ; path 1 N0",
        ("S21",): "offboard yellow:0,green:10,brown:60 ; path 2 N0",
        ("F20",): "offboard yellow:30,brown:80 ; path 3 N0",
    },
    # Ferry crossings: track printed on the sea.
    "blue": {
        ("B2", "U15"): "path 0 2",
        ("U17",): "path 3 4",
        ("H8", "P24"): "path 1 3",
        ("H10",): "path 1 2",
        ("F18",): "path 0 4",
        ("O25", "G9"): "path 4 5",
    },
    "white": {
        ("B4", "C3", "B6", "D4", "E9", "H12", "H18", "I15", "J12", "J18", "K13", "K17", "L14",
         "N12", "O11", "O13", "O17", "O21", "P20", "Q11", "Q13", "Q19", "R14", "S11", "S13",
         "N18", "D12", "C7", "P18", "G15", "E15"): "",
        ("U13", "L12", "J20", "Q17", "Q15"): "town 0",
        ("M13", "Q21", "D6"): "city 0 ; future_label X green",
        ("H14", "K15", "P16", "P22", "O19", "E11", "C5"): "town 0 ; town 0",
        ("N16", "J16", "H16", "P14"): "upgrade 80 mountain",
        ("K19", "N20", "J14"): "city 0",
        ("R12", "N14"): "town 0 ; town 0 ; upgrade 60 water",
        ("R16",): "city 0 ; future_label X green ; upgrade 60 water",
        ("I13",): "town 0 ; upgrade 60 water",
        ("C9", "D10", "E13", "F10"): "upgrade 60 water",
        ("D8",): "town 0 ; town 0 ; upgrade 80 water",
        ("T12",): "city 20 ; path 3 N0 ; future_label X green ; upgrade 60 water",
        ("G13", "F12"): "upgrade 120 water",
        ("G17",): "city 0 ; upgrade 60 water",
        ("V12",): "city 0 ; future_label T green",
    },
    "gray": {
        ("M11", "C13", "A7"): "town 20 ; path 5 N0",
        ("P10",): "town 20 ; path 0 N0",
        ("S17", "R22", "E7"): "town 10 ; path 2 N0",
        ("H20",): "town 40 ; path 4 N0",
        ("T10",): "path 0 1 ; path 0 5 ; path 1 5",
        ("U11",): "path 2 5",
        ("M17",): "town 10 ; path 2 N0 ; path N0 5",
        ("M21",): "town 20 ; path 4 N0",
        ("K21",): "town 10 ; path 2 N0 ; path N0 3",
        ("R18",): "town 10 ; path 3 N0",
        ("I17",): "city 10 slots=2 ; path 0 N0 ; path 2 N0 ; path 4 N0",
        ("I19",): "town 10 ; path 1 N0 ; path N0 3",
        ("O23",): "path 3 4",
        ("T14",): "town 20 ; path 3 N0 ; path N0 5",
        ("R20",): "town 20 ; path 1 N0 ; path N0 5",
        # Malpeque Shipyard: a neutral token fills its one slot (TOKENS_AT_START).
        ("G11",): "city yellow:20,brown:60 ; path 0 N0 ; path 4 N0 ; path 5 N0",
        ("B8",): "town 20 ; path 4 N0 ; path 3 N0 ; path 2 N0 ; path 5 N0",
    },
    "yellow": {
        ("O15",): "city 30 ; path 0 N0 ; path 2 N0 ; path 4 N0",
        ("D14",): "city 20 ; path 5 N0 ; path 3 N0",
        ("D2",): "city 20 ; path 0 N0 ; path 1 N0 ; label T",
        ("F14",): "city 20 ; path 5 N0 ; path 1 N0 ; label X",
        ("L16",): "city 20 ; path 1 N0 ; path 5 N0 ; label X ; future_label CX gray",
    },
    "green": {
        ("M15",): "path 2 3 ; path 1 5",
        ("P12",): "city 30 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0",
    },
}

# Standard tiles by count; the title's own (PEI*) as (count, colour, tile notation), in the
# reference's order (tiles.rb).
TILES = {
    '1': 2, '3': 8, '5': 7, '6': 7, '7': 12, '8': 25,
    '9': 1,          # the one straight: only the owner of SBC may lay it (rules module)
    '16': 3, '17': 3, '21': 2, '22': 2, '25': 4, '28': 4, '29': 4, '30': 3, '31': 3,
    '39': 1, '40': 1, '41': 1, '42': 1, '43': 1, '44': 1, '45': 1, '46': 1, '47': 1,
    '56': 2, '58': 6, '70': 1, '143': 2, '144': 2,
    '624': 2, '625': 2, '626': 2, '627': 1, '628': 1, '629': 1,
    '630': 2, '631': 2, '632': 2, '633': 2, '767': 1, '769': 1,
    'PEI1': (3, 'green', 'city 20 slots=2 ; path 0 N0 ; path 1 N0 ; path 3 N0 ; path 4 N0'),
    'PEI2': (3, 'green', 'city 20 slots=2 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0'),
    'PEI3': (3, 'green', 'city 20 slots=2 ; path 0 N0 ; path 2 N0 ; path 3 N0 ; path 4 N0'),
    'PEI4': (2, 'green', 'city 30 ; path 5 N0 ; path 0 N0 ; label T'),
    'PEI5': (2, 'green', 'city 30 slots=2 ; path 3 N0 ; path 1 N0 ; path 5 N0 ; label X'),
    'PEI6': (2, 'green', 'city 30 slots=2 ; path 2 N0 ; path 1 N0 ; path 5 N0 ; label X'),
    'PEI7': (2, 'green', 'city 30 slots=2 ; path 2 N0 ; path 1 N0 ; path 0 N0 ; label X'),
    'PEI8': (2, 'green', 'city 30 slots=2 ; path 2 N0 ; path 5 N0 ; path 0 N0 ; label X'),
    'PEI9': (2, 'brown', 'city 40 slots=2 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; '
                         'path 4 N0'),
    'PEI10': (2, 'brown', 'city 60 ; path 0 N0 ; path 1 N0 ; label T'),
    'PEI11': (2, 'brown', 'city 60 slots=2 ; path 0 N0 ; path 1 N0 ; path 2 N0 ; path 3 N0 ; '
                          'label X'),
    'PEI12': (2, 'brown', 'city 60 slots=2 ; path 0 N0 ; path 1 N0 ; path 5 N0 ; path 3 N0 ; '
                          'label X'),
    'PEI13': (2, 'brown', 'city 60 slots=2 ; path 0 N0 ; path 1 N0 ; path 4 N0 ; path 3 N0 ; '
                          'label X'),
    'PEI14': (2, 'brown', 'city 50 slots=3 ; path 0 N0 ; path 1 N0 ; path 4 N0 ; path 5 N0 ; '
                          'path 3 N0 ; label X'),
    'PEI15': (1, 'gray', 'city 80 slots=3 ; path 1 N0 ; path 5 N0 ; path 4 N0 ; path 3 N0 ; '
                         'path 2 N0 ; label CX'),
    'PEI16': (1, 'gray', 'city 70 slots=3 ; path 1 N0 ; path 5 N0 ; path 4 N0 ; path 3 N0 ; '
                         'path 2 N0 ; label X'),
}
SBC_TILE = '9'

# The stock market (market.rb). Starting prices: p until the 5H (80), x until the 3+ (74),
# z until the 7 (65), w always (58); the events remove_smv_* take them away (rules module).
# B (400): a corporation there pays 40 more per share (its Dividend step, rules module).
MARKET = MarketSpec(tuple(tuple(row) for row in [
    ['', '', '111', '122', '136', '152', '170', '190', '215', '240', '270', '300', '330', '360', '400B'],
    ['88', '92', '100', '110', '121', '133', '146', '160', '180', '200', '225', '250', '280'],
    ['82', '86', '93', '101', '111', '123', '137', '152', '167', '185', '203'],
    ['78', '80p', '86', '94', '102', '112', '122'],
    ['71', '74x', '79', '84', '89', '94'],
    ['60', '65z', '69', '73', '78'],
    ['55', '58w', '61', '65'],
]))
# The cells the remove_smv_* events take off the starting prices, by event (game.rb).
PAR_REMOVED_BY = {'remove_smv_80': (3, 1), 'remove_smv_74': (4, 1), 'remove_smv_65': (5, 1)}
# Where the Mainline (92) and the Shortline (86) start, set before the game (game.rb).
MAINLINE_PAR = (1, 1)
SHORTLINE_PAR = (2, 1)
BONUS_PER_SHARE = 40                   # paid on top at the 400 cell

def _plus(n: int) -> tuple:
    """An n+ train: up to n cities and off-boards count; towns are passed for free."""
    return (StopAllowance(('city', 'offboard'), n, n), StopAllowance(('town',), 99, 99))


# The trains (trains.rb). H trains count the hex sides crossed; a 4+ that never operated is made
# obsolete, not rusted, by the D (game.rb ``rust``, rules module).
TRAINS = (
    TrainSpec('2H', 2, 80, count=4, rusts_on=('5H',), hex_distance=True),
    TrainSpec('3H', 3, 100, count=3, rusts_on=('6H',), hex_distance=True),
    TrainSpec('4H', 4, 120, count=3, rusts_on=('2+',), hex_distance=True),
    TrainSpec('5H', 5, 160, count=3, rusts_on=('3+',), events=(TrainEvent('remove_smv_80'),),
              hex_distance=True),
    TrainSpec('6H', 6, 180, count=2, rusts_on=('4+',), hex_distance=True),
    TrainSpec('2+', _plus(2), 220, count=4, rusts_on=('7',)),
    TrainSpec('3+', _plus(3), 240, count=3, rusts_on=('D',),
              events=(TrainEvent('remove_smv_74'),)),
    TrainSpec('4+', _plus(4), 200, count=2, rusts_on=('D',),
              events=(TrainEvent('close_companies'),)),
    TrainSpec('7', 7, 500, count=4, events=(TrainEvent('remove_smv_65'),)),
    TrainSpec('D', 999, 600, count=1, unlimited=True),
)

# Trains that, never operated (held by a corporation through the revenue of its turn), become
# obsolete instead of rusting (game.rb ``rust``).
SPARED_UNRUN = ('4+',)

_YG = ('yellow', 'green')
_HUNSLET = frozenset(['can_buy_companies'])    # corporations may buy the Hunslet
PHASES = (
    PhaseSpec('2H', on=(), train_limit=4, tiles=('yellow',), operating_rounds=1),
    PhaseSpec('3H', on=('3H',), train_limit=4, tiles=('yellow',), operating_rounds=1),
    PhaseSpec('4H', on=('4H',), train_limit=4, tiles=_YG, operating_rounds=2, status=_HUNSLET),
    PhaseSpec('5H', on=('5H',), train_limit=4, tiles=_YG, operating_rounds=2, status=_HUNSLET),
    PhaseSpec('6H', on=('6H',), train_limit=4, tiles=_YG, operating_rounds=2, status=_HUNSLET),
    PhaseSpec('2+', on=('2+',), train_limit=3, tiles=_YG, operating_rounds=2, status=_HUNSLET),
    PhaseSpec('3+', on=('3+',), train_limit=3, tiles=_YG, operating_rounds=2, status=_HUNSLET),
    PhaseSpec('4+', on=('4+',), train_limit=3, tiles=_YG + ('brown',), operating_rounds=3),
    PhaseSpec('7', on=('7',), train_limit=2, tiles=_YG + ('brown',), operating_rounds=3),
    PhaseSpec('D', on=('D',), train_limit=2, tiles=_YG + ('brown', 'gray'),
              operating_rounds=3),
)


def _corporation(sym, name, color, home=None, **kw) -> CorporationSpec:
    return CorporationSpec(sym, name, tokens=(0, 80, 80, 80), float_percent=60,
                           float_excludes_market=True, float_includes_reserved=True,
                           market_price_as_par=True, home=home, color=color, **kw)


# The seven numbered corporations, by number (NUMBERS in game.rb); the rules module draws
# the Mainline and Shortline from them (the Mainline floats at 50%) and puts PEIR tokens on
# the other five homes.
NUMBERED = (
    _corporation('So', 'Souris - 1', '#0a0a0a', 'T12'),
    _corporation('A', 'Alberton - 2', '#b58168', 'D6'),
    _corporation('MS', 'Mount Stewart - 3', '#fcea18', 'M13'),
    _corporation('MR', 'Murray River - 4', '#37b2e2', 'Q21'),
    _corporation('S', 'Summerside - 5', '#7bb137', 'F14'),
    _corporation('Gt', 'Georgetown - 6', '#9a9a9d', 'R16'),
    _corporation('C', 'Charlottetown - 7', '#a60a3d', 'L16'),
)
NUMBERS = {c.sym: n for n, c in enumerate(NUMBERED, 1)}
# The seed document has the Mainline floated (with $920) from the very start; the reference
# only lowers its float to 50% (setup_preround), which its concession, RA, RF and the Union
# Bank's share reach. Kept as the reference has it.
MAINLINE_FLOAT_PERCENT = 50

# The PEIR: no home, no price; five 20% shares (their percentage grows as numbered
# corporations float and take theirs back), five free tokens, floated from the start;
# pays out, half or withholds; runs last; need not own a train (rules module).
PEIR = CorporationSpec('PEIR', 'Prince Edward Island Railway', tokens=(0, 0, 0, 0, 0),
                       shares=(20, 20, 20, 20, 20), float_percent=0, max_ownership=100,
                       color='#ec767c')

# Branches: made only by splitting a corporation (split.rb); never started by a player;
# no capital at start ("none"): the split gives them the par value of their market shares.
BRANCHES = tuple(
    _corporation(sym, name, color, capitalization='none')
    for sym, name, color in (('CB', 'Cornwall Branch', '#baa4cb'),
                             ('SB', 'Stratford Branch', '#bf4da5'),
                             ('MB', 'Morel Branch', '#0a70b3'),
                             ('BB', 'Belfast Branch', '#eb6f0e'),
                             ('WB', 'Wellington Branch', '#bdbd00'),
                             ('HRB', 'Hunter River Branch', '#008f4f')))

CORPORATIONS = NUMBERED + (PEIR,) + BRANCHES

# Corporations start in four tranches of 2, 1, 2 and 3 places; the Mainline and the
# Shortline fill the first. A tranche opens once every corporation of the one before has
# operated or sold out (tranches.rb).
TRANCHES = (2, 1, 2, 3)
# The Shortline's last three 10% certificates are reserved for MC, VR and SB (not buyable
# until exchanged; the 4+ exchanges those still held before the privates close).
SHORTLINE_EXCHANGE_CERTIFICATES = (6, 7, 8)
SHORTLINE_EXCHANGERS = ('MC', 'VR', 'SB')
# The Union Bank (a seat of its own, played by the owner of UB) starts with certificate 8 of
# the Mainline and of the third corporation drawn ("random"); UB's value becomes 0 once sold.
UNION_BANK_CERTIFICATES = (('mainline', 8), ('random', 8))
PEIR_STARTING_CASH = 200               # given with the King's Mail

_NO_BUY = Power("no_buy")
_NEVER_CLOSES = Power("close", on_phase="never")


def _to_shortline(*powers) -> tuple:
    """May be exchanged for a reserved Shortline share in its owner's stock turn."""
    return powers + (Power("exchange", owner="player", when=(Timing.OWNING_PLAYER_STOCK_TURN,),
                           corporations=("shortline",), sources=("reserved",)), _NO_BUY)


# The private companies (companies.rb), in the reference's order. "mainline"/"shortline"
# stand for the corporations drawn; the rules module names them.
COMPANIES = (
    CompanySpec('MC', 'Merchants and Co.', 40, 5,
                'May be exchanged for an exchange share of the Shortline during the stock '
                'round. Player may still sell and buy stock on this turn.',
                powers=_to_shortline()),
    # Blocks N18 only as a confirmation in the 18xx.games client (blocks_hexes_consent):
    # the engine lets anyone lay there; no rule of ours reads this kind.
    CompanySpec('VR', 'Vernon River Bridge Company', 40, 5,
                'Blocks: N18 (player choice). Unblocks when exchanged. May be exchanged for an '
                'exchange share of the Shortline. Player may still sell and buy stock on this '
                'turn.',
                powers=_to_shortline(Power("blocks_hexes_consent", owner="player",
                                           hexes=("N18",)))),
    # Ice Boat: the reference adds its exchange in setup (4 players, the only games with
    # it): for a market share of any started corporation but the Mainline, the Shortline
    # and the PEIR ("ipoed", rules module).
    CompanySpec('IB', 'Ice Boat Shipping', 40, 5,
                "May be exchanged for a share from the market of any corporation that isn't "
                "Mainline or Shortline. Player may still sell and buy stock on this turn.",
                powers=(_NO_BUY, Power("exchange", owner="player",
                                       when=(Timing.OWNING_PLAYER_STOCK_TURN,),
                                       corporations=("ipoed",), sources=("market",))),
                min_players=4),
    CompanySpec('RA', 'Royal Agricultural Society', 110, 10, 'Comes with a Mainline share.',
                powers=(Power("shares", certificate="mainline_1"), _NO_BUY)),
    CompanySpec('RF', 'Railcar Ferry: the Prince Edward Island', 120, 15,
                'Comes with a Mainline Share.',
                powers=(Power("shares", certificate="mainline_2"), _NO_BUY)),
    CompanySpec('SB', 'Shipbuilding', 90, 15,
                'May be exchanged for an exchange share of the Shortline during the stock '
                'round. Player may still sell and buy stock on this turn.',
                powers=_to_shortline()),
    # Hunslet: the owning corporation may close it to buy a train from the depot at any time
    # in its turn (HunsletPurchaseTrain step, rules module); buyable by corporations from
    # 4H (can_buy_companies), never by the PEIR. No rule of ours reads purchase_train yet.
    CompanySpec('HSE', 'Hunslet Steam Engine', 110, 20,
                'May be sold to a corporation for $1 to $200. May not be sold to the PEIR. The '
                'owning corporation may close this to buy a train from the supply anytime '
                'during its operation.',
                powers=(Power("purchase_train", owner="corporation",
                              when=(Timing.OWNING_CORPORATION_TURN,)),),
                min_price=1, max_price=200),
    # Brings the Mainline's president's certificate; the Mainline may operate once sold.
    CompanySpec('ML', 'Mainline Concession', 160, 20,
                "Comes with the (20%) president's certificate of the Mainline corporation. "
                "Closes when the Mainline operates. The Mainline may operate as soon as this "
                "item is sold.",
                powers=(Power("shares", certificate="mainline_0"),
                        Power("close", when=(Timing.OPERATED,), corporation="mainline"),
                        _NO_BUY)),
    # SBC: its owner alone may lay tile 9 (SBC_TILE); laying it is the normal tile lay
    # (game.rb ``upgrades_to?``, rules module). The reference gives it no ability.
    CompanySpec('SBC', 'Schreiber and Burpee Construction', 100, 30,
                'Comes with yellow straight tile. Placement counts as normal tile lay. Must '
                'follow all normal track laying rules.',
                powers=(_NO_BUY,)),
    CompanySpec('SL', 'Short Line Concession', 160, 30,
                "Comes with the (20%) president's certificate of the Shortline. Closes when "
                "the Shortline operates.",
                powers=(Power("shares", certificate="shortline_0"),
                        Power("close", when=(Timing.OPERATED,), corporation="shortline"),
                        _NO_BUY)),
    # Union Bank: its owner buys one share a stock round for the bank's seat, with the
    # bank's and their own cash (UNION_BANK_CERTIFICATES; rules module).
    CompanySpec('UB', 'Union Bank', 120, 0,
                "Comes with one Mainline share and one Random share. Does not close. Owning "
                "player may buy 1 share per stock round for the Bank combining the bank's "
                "treasury with their own.",
                powers=(_NEVER_CLOSES, _NO_BUY)),
    # Always the PEIR's (rules module); closes with the other privates on the 4+.
    CompanySpec('KM', "The King's Mail", 0, 80,
                'Always assigned to the PEIR corporation. The PEIR starts with $200 in its '
                'treasury. Closes with other privates on the 4+.',
                powers=(_NO_BUY,)),
)

# The PEIR cards P1-P7, one per numbered corporation; a game uses the five of those not
# drawn as Mainline or Shortline, added after the companies above in number order. Each is a
# PEIR share until its corporation floats, when it closes and its owner takes that
# corporation's first market share (game.rb ``float_corporation``). They do not count
# towards the certificate limit (``num_certs``) and are worth 80 at the end.
PEIR_CARDS = tuple(
    CompanySpec(f"P{NUMBERS[c.sym]}", f"PEIR - {c.name}", 80, 0,
                f"Exchanges for a {c.sym} share from the bank if and when {c.sym} floats.",
                powers=(_NEVER_CLOSES, _NO_BUY))
    for c in NUMBERED)

PEIR_CARD_SYMS = frozenset(c.sym for c in PEIR_CARDS)

# A neutral token fills Malpeque Shipyard's slot: trains run through it, nobody stations
# there. The Mainline's, Shortline's and PEIR's tokens follow the draw (rules module).
TOKENS_AT_START = ((None, 'G11'),)


def title_data(players: int, options: Tuple[str, ...]) -> TitleData:
    """The data of a game for ``players`` players (3 or 4; no optional rules)."""
    return TitleData(
        map=MapSpec(HEXES, layout="flat", letters_on_x=True, names=LOCATION_NAMES),
        tiles=TileSupply(TILES), market=MARKET, phases=PHASES, trains=TRAINS,
        corporations=CORPORATIONS, companies=COMPANIES + PEIR_CARDS, bank_cash=BANK_CASH,
        starting_cash=STARTING_CASH[players], cert_limit=CERT_LIMIT[players],
        tokens_at_start=TOKENS_AT_START)
