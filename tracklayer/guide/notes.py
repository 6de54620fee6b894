"""What a guide says of each title's own rules: its set-up, extra rounds, special
mechanics, where the money goes, emergency money and how it differs from 1830. The words
are the title's; every number in them is read from its data, its settings or the
constants of its rules modules."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Tuple

from ..titles.cologne import data as cologne
from ..titles.family1817 import acquisition as acquisition1817
from ..titles.family1817 import founding as founding1817
from ..titles.family1817 import shares as shares1817
from ..titles.old_prince import data as prince
from ..titles.two_sicilies import data as sicilies
from ..turns.draft import FallingPriceAuction
from .facts import Facts, listing, par_prices, per_players, phase_of_train, shares

Lines = List[str]


@dataclass
class Notes:
    """A title's own words, each list made from its facts."""
    setup: Lines = field(default_factory=list)
    opening: Tuple[str, Lines] = ("Opening round", [])
    rounds: List[Tuple[str, Lines]] = field(default_factory=list)   # after the OR
    components: List[Tuple[str, Lines]] = field(default_factory=list)
    stock: Lines = field(default_factory=list)          # added to the stock round's
    operating: Lines = field(default_factory=list)      # ... and the operating round's
    corporations: Lines = field(default_factory=list)   # said before their table
    score: str = ""                                     # how the winner is found
    dividend_moves: str = ""                            # how revenue moves the price
    starting: str = ""                                  # how a corporation is started
    floating: Lines = field(default_factory=list)       # added to the floating rules
    variants: Lines = field(default_factory=list)       # rule choices tracklayer plays
    rules: Dict[str, str] = field(default_factory=dict)  # a step's rule, by the step's name
    train_unit: Optional[str] = None                    # what trains count, if not stops
    money: Lines = field(default_factory=list)
    special: Lines = field(default_factory=list)
    emergency: Lines = field(default_factory=list)
    comparison: Lines = field(default_factory=list)
    events: Dict[str, str] = field(default_factory=dict)
    statuses: Dict[str, str] = field(default_factory=dict)
    # Starting prices: each par kind and the train event making it available (None: from
    # the start); and the events that withdraw a cell (row, column).
    par_from: Dict[str, Optional[str]] = field(default_factory=lambda: {"par": None})
    par_withdrawn: Dict[str, Tuple[int, int]] = field(default_factory=dict)


COMMON_EVENTS = {"close_companies": "the private companies close"}
COMMON_STATUSES = {"can_buy_companies": "corporations may buy private companies"}


def _price_at(f: Facts, at: Tuple[int, int]) -> int:
    return f.spec.cells[at].price


def _first(f: Facts, event: str) -> str:
    """The train whose first purchase brings ``event``."""
    for t in f.data.trains:
        if any(e.kind == event for e in t.events):
            return t.name
    return "?"


def _company(f: Facts, sym: str):
    return next(c for c in f.data.companies if c.sym == sym)


# -- 1893 -------------------------------------------------------------------------------


def _cologne(f: Facts) -> Notes:
    m = f.money
    minors = f.data.minors
    companies = [c for c in f.data.companies if c.minor is None and c.stack is None]
    bonds = [c for c in f.data.companies if c.stack]
    merged = {sym: [s for s, _ in parts if any(mi.sym == s for mi in minors)]
              for sym, parts in cologne.FORMATIONS.items()}
    x120 = par_prices(f, ("par_1",))
    agv_price = m(x120[0]) if x120 else "?"
    pars = listing([str(p) for p in par_prices(f, ("par",))])
    corps = [c for c in f.data.corporations if c.floatable]
    formed = [c for c in f.data.corporations if not c.floatable]
    return Notes(
        setup=[f"Starting package: {len(companies)} private companies and {len(minors)} "
               "minors, sold at face value.",
               "In turn, a player buys a private company or one of the two lowest minors, or "
               "passes; a player who passes is out of the draft and of the first stock round.",
               "A minor's price becomes its starting treasury.",
               "Once one item of the package is left, shares of "
               f"{listing([c.sym for c in corps])} and the bonds may be bought."],
        opening=("Starting package", [
            "Private companies and minors are bought at their printed price: "
            + ", ".join(f"{c.sym} {m(c.value)}" for c in f.data.companies
                        if c.stack is None) + ".",
            "What is left when the draft ends is auctioned before the second stock round: "
            "the player to pick an item offers it to the others at its price; when all have "
            f"passed its price falls by {m(FallingPriceAuction.REDUCTION)}, and once it is at "
            "half its value or less the player who picked it must buy it."]),
        rounds=[("Merger round", [
            f"From the first {_first(f, 'agv_buyable')} train until {listing([c.sym for c in formed])} "
            "exist, a merger round follows every round.",
            "The owners of the minors (and HdSK) vote with their percentages; a corporation "
            "forms when those for it hold half the votes.",
            f"The minors are exchanged for certificates; the new corporation receives "
            f"{m(cologne.FORMATION_TREASURY)} and the minors' cash and trains.",
            f"{formed[0].sym} forms compulsorily with the first {_first(f, 'agv_founded')}, "
            f"{formed[1].sym} with the first {_first(f, 'hgk_founded')}."])],
        components=[
            ("Minor companies", [
                f"{len(minors)} single-owner minors: " + ", ".join(
                    f"{mi.name} (home {mi.home})" for mi in minors) + ".",
                "One station, the home; a minor need not own a train.",
                *(f"{listing(v)} become {k}." for k, v in merged.items())]),
            ("Bonds", [f"{len(bonds)} bonds ({bonds[0].name}), {m(bonds[0].value)} each, "
                       f"paying {m(bonds[0].revenue)}: bought and sold in stock rounds like "
                       "shares."] if bonds else [])],
        money=["Players → minors: a minor's price is its treasury.",
               "Players → bank: private companies, shares and bonds.",
               "Bank → players: dividends, half of the minors' revenue, private and bond income.",
               f"Bank → corporations: ten times the starting price on floating; "
               f"{m(cologne.FORMATION_TREASURY)} at a merger.",
               "Corporations → bank: trains, terrain and stations.",
               "Players → corporations: a president pays what a forced train purchase lacks.",
               "Corporations never buy trains from minors."],
        special=[
            "The starting package (private companies and minors) is sold at fixed prices "
            "instead of an ascending auction.",
            "Almost no private company changes hands between players: only EVA; the others "
            "are exchanged for shares when their corporation forms.",
            f"The {len(minors)} minors always pay half their revenue and keep half, until "
            f"a shareholders' vote merges them into {listing([c.sym for c in formed])}.",
            "Irregular certificates: " + "; ".join(
                f"{c.sym} {len(c.shares)} certificates" for c in f.data.corporations) + ".",
            "No pool: sold shares go back to the market display, at the price before the "
            "sale.",
            f"The Rhine may be crossed on only a few hexes; {listing(cologne.TILE_BLOCK)} "
            f"stay closed until the first {_first(f, 'remove_tile_block')} train.",
            f"Starting prices {pars}; {agv_price} is kept for "
            f"{listing([c.sym for c in formed])}."],
        emergency=["For corporations this is the 1830 order exactly: treasury, then the "
                   "president's cash, then the president's shares; minors have no shares "
                   "to sell."],
        comparison=[
            f"Setting: the Rhine valley around Cologne, for {f.title.player_range[0]}-"
            f"{f.title.player_range[1]} players (1830: the north-east USA, 2-6).",
            "The starting package is bought at face value in turn, not auctioned.",
            f"Minors that merge by a shareholders' vote into {listing([c.sym for c in formed])}; "
            "1830 has no mergers.",
            "Irregular certificate structures (" + "; ".join(dict.fromkeys(
                shares(c) for c in f.data.corporations)) + "); in 1830 every corporation "
            "has a president's 20% and eight 10% shares.",
            f"Corporations float at {corps[0].float_percent}% (1830: 60%) and there is no "
            "pool.",
            f"The Rhine can be crossed only at "
            f"{len(cologne.RHINE_PASSAGE) + len(cologne.TILE_BLOCK)} places, "
            f"{len(cologne.TILE_BLOCK)} of them closed at first.",
            "A train may be traded in at a discount; 1830 has no trade-in.",
            "One player's bankruptcy ends the game at once."],
        events={"remove_tile_block": "the closed Rhine crossings open",
                "agv_buyable": f"AGV shares go on sale at {agv_price}",
                "agv_founded": "AGV forms (compulsorily)",
                "hgk_buyable": f"HGK shares go on sale at {agv_price}",
                "fdsd_closed": "FdSD is to close",
                "hgk_founded": "HGK forms (compulsorily)",
                "eva_closed": "EVA closes"},
        statuses={"rhine_impassable": "the Rhine may be crossed only at the open passages",
                  "can_buy_trains": "trains may be bought from other corporations",
                  "may_found_agv": "AGV may be formed", "may_found_hgk": "HGK may be formed"},
        par_from={"par": None},
        rules={"Draft": "in turn, a player buys a private company or one of the two lowest "
                        "minors left at its face value, or passes (and is out of the draft); "
                        "once one item is left, shares may be bought."},
        variants=[f"When everybody passes on an item of the starting package its price falls "
                  f"by {m(FallingPriceAuction.REDUCTION)}, as on 18xx.games; the seed's "
                  "comparison with 1830 says 5 marks."])


# -- 1849: Kingdom of the Two Sicilies --------------------------------------------------


def _sicilies(f: Facts) -> Notes:
    m = f.money
    variant = f.title.rules
    quake = re.search(r"town (\d+)", sicilies.AVEZZANO_AFTER_EARTHQUAKE)
    quake_value = quake.group(1) if quake else "?"
    chooser = sicilies.CORP_CHOOSES_HOME
    first = [p for p in par_prices(f, ("par",))]
    later = [(par_prices(f, (k,)), _first(f, e)) for k, e in
             (("par_1", "green_par"), ("par_2", "brown_par"))]
    rsa = _company(f, "RSA")
    return Notes(
        setup=["The 1849 rules on a map of southern Italy.",
               f"All {len(f.data.corporations)} corporations play; their order of starting "
               "is drawn.",
               "Opening stock round: buy the cheapest private company or bid on a dearer one.",
               f"{rsa.sym} brings the president's certificate of the first corporation."],
        opening=("Opening auction", [
            "The cheapest private company is bought at its price; bids on the others are "
            f"kept until it is their turn (at least {m(f.settings.min_bid_step)} above the "
            "value or the last bid)."]),
        operating=["A corporation may sell shares from its treasury to the pool or buy one "
                   "back (not in its first operating round).",
                   "A total dividend at least the share price moves the price right."],
        starting=f"A player starts the next corporation of the drawn order by buying its "
                 f"president's certificate (20%) at one of the starting prices the phase "
                 f"allows ({listing([m(p) for p in first], 'or')} at first); the corporation "
                 "pays for all its stations at once.",
        dividend_moves="Paying out moves the price one column right only if the total paid "
                       "is at least the share price; withholding, or earning nothing, moves "
                       "it one column left.",
        corporations=["Each pays for all its stations when it starts: " + ", ".join(
            f"{c.sym} {m(c.token_fee)}" for c in f.data.corporations) + ".",
            f"{chooser} chooses its home when it starts."],
        train_unit="hexes",
        score=f"The winner has the most cash and shares at their price; a player who took "
              f"the emergency loan loses {m(variant.LOAN_PENALTY)}.",
        components=[("Map", ["Broad, narrow and dual gauge track.",
                             "Trains count hexes, not stops.",
                             f"Avezzano ({sicilies.AVEZZANO}) is cut off from Rome by the "
                             f"earthquake and is then worth {quake_value}."])],
        money=["Players → corporations: shares bought from the treasury, at the share price.",
               "Players → bank: private companies and shares from the pool.",
               "Bank → players: dividends, private income, share sales.",
               "Bank → corporations: withheld revenue, dividends on its own shares, treasury "
               "share sales.",
               "Corporations → bank: trains, terrain and stations.",
               "Corporations → players: private companies bought (while the phase allows)."],
        special=[
            "No free choice of starting price: " + listing([m(p) for p in first])
            + " from the start, " + "; ".join(f"{listing([m(p) for p in ps])} from the first "
                                              f"{t}" for ps, t in later) + ".",
            "The order in which corporations may start is drawn: nobody chooses which "
            "corporation to start.",
            f"{chooser} chooses its home among {listing(sicilies.CORP_CHOOSES_HOME_HEXES)}.",
            "Broad and narrow gauge, with different building costs.",
            "The train limit falls: " + " → ".join(
                dict.fromkeys(str(p.train_limit) for p in f.data.phases)) + ".",
            "A corporation that cannot buy a train closes, its shareholders get nothing.",
            f"A bankrupt president may take a loan of {m(variant.LOAN)} from the bank, "
            f"{m(variant.LOAN_PENALTY)} off the final score.",
            f"The Avezzano earthquake with the first {_first(f, 'earthquake')}."],
        emergency=["As in 1849: treasury, then the president's cash, then the president's "
                   "shares — a corporation's own shares cannot fund it before it has operated.",
                   f"A president who still cannot pay may take the {m(variant.LOAN)} loan."],
        comparison=[
            f"Setting: the Kingdom of the Two Sicilies, for {f.title.player_range[0]}-"
            f"{f.title.player_range[1]} players, with {len(f.data.corporations)} corporations.",
            "No free starting price: a small fixed set that grows with the phases.",
            "A drawn, compulsory order of starting corporations.",
            f"Dual gauge track; only {f.data.trains[-1].name} runs on both gauges.",
            "A corporation that cannot buy its train closes, with nothing for its "
            "shareholders.",
            f"A personal loan of {m(variant.LOAN)} ({m(variant.LOAN_PENALTY)} off the score).",
            "An earthquake made for this map."],
        events={"green_par": "starting price " + listing([m(p) for p in later[0][0]])
                             + " becomes available",
                "brown_par": "starting price " + listing([m(p) for p in later[1][0]])
                             + " becomes available",
                "earthquake": f"the Avezzano earthquake: Avezzano becomes a town worth "
                              f"{quake_value}, without its track to Rome"},
        statuses={"gray_uses_white": "gray locations pay their first value",
                  "gray_uses_gray": "gray locations pay their second value",
                  "gray_uses_black": "gray locations pay their third value",
                  "blue_zone": "share prices may enter the blue zone"},
        par_from={"par": None, "par_1": "green_par", "par_2": "brown_par"})


# -- The Old Prince 1871 ----------------------------------------------------------------


def _prince(f: Facts) -> Notes:
    m = f.money
    mainline = _price_at(f, prince.MAINLINE_PAR)
    shortline = _price_at(f, prince.SHORTLINE_PAR)
    peir = next(c for c in f.data.corporations if c.sym == "PEIR")
    numbered = prince.NUMBERED
    branches = prince.BRANCHES
    lay2 = f.settings.tile_lays[-1].cost
    return Notes(
        setup=[f"The Mainline and the Shortline are drawn among the {len(numbered)} numbered "
               f"corporations, each with its home station: the Mainline starts at "
               f"{m(mainline)} and floats once {prince.MAINLINE_FLOAT_PERCENT}% of it is out "
               f"of the bank (receiving 10 × {m(mainline)} = {m(10 * mainline)}); the "
               f"Shortline starts at {m(shortline)}.",
               f"The PEIR starts with {m(prince.PEIR_STARTING_CASH)}, the King's Mail and "
               f"{len(peir.shares)} PEIR shares.",
               "PEIR shares and private companies are dealt out to the auction.",
               "Auction: each player offers their lots; only the two players to their left "
               "may bid.",
               "The bank never runs out."],
        opening=("Opening auction", [
            "Lots are offered in turn; if both bidders pass, the next player must buy the "
            "lot at its value."]),
        stock=[f"A turn: sell (at most {prince.TURN_SALE_LIMIT}% of a corporation), then one "
               "action: buy a share, start a corporation, buy a PEIR share, or split a "
               "corporation."],
        operating=["The PEIR operates last and need not own a train.",
                   "Corporations may buy the Hunslet while the phase allows it."],
        score=f"The winner has the most cash, shares at their price and private companies; "
              f"each PEIR share counts {m(_company(f, 'P1').value)}.",
        components=[
            ("PEIR", ["Runs last; has no share price.",
                      "May pay out, pay half or withhold.",
                      "Every numbered corporation that floats takes back its station and "
                      "share from the PEIR.",
                      f"A PEIR share is worth {m(_company(f, 'P1').value)} at the end."]),
            ("Branches", [f"{len(branches)} branches ({listing([b.name for b in branches])}), "
                          "made only by splitting a corporation."])],
        money=["Players → bank: auction lots and shares bought from the bank.",
               "Players → corporations: shares bought from a corporation's treasury.",
               "Bank → corporations: capital on floating and dividends on bank shares.",
               "Corporations → players: dividends.",
               f"Corporations → bank: trains, the second yellow tile ({m(lay2)}), terrain "
               "and stations.",
               "Bank → players: private income and share sales."],
        special=[
            "Tranches: corporations open in tranches of " + listing(
                [str(t) for t in prince.TRANCHES]) + " places; a tranche opens once every "
            "corporation of the one before has operated or sold out.",
            "The PEIR is a shadow network: a numbered corporation's station shows as a PEIR "
            "token until it floats.",
            f"The Mainline starts at {m(mainline)} and floats at "
            f"{prince.MAINLINE_FLOAT_PERCENT}% (its concession's 20% and the 10% shares of RA, "
            f"RF and the Union Bank make {prince.MAINLINE_FLOAT_PERCENT}%); the Shortline "
            f"starts at {m(shortline)}, with its president's certificate for sale.",
            "Branches: the president of a large enough corporation with stations to spare "
            "may split it.",
            "Two families of trains: H trains count hex sides, + trains count cities and "
            "off-boards and pass towns for free.",
            f"Two tile lays a turn: one yellow free, a second for {m(lay2)}.",
            f"Sales: at most {prince.TURN_SALE_LIMIT}% of a corporation in one turn; shares of "
            "a corporation that never operated cannot be sold.",
            "The Union Bank: its owner may buy one share a stock round for the bank, "
            f"outside the {numbered[0].max_ownership}% limit.",
            "Stock round order by cash, the poorest first."],
        emergency=["Treasury shares are issued before anyone's cash is used; the player "
                   "acting for the corporation pays.",
                   "The PEIR never has to buy a train."],
        comparison=[
            f"Setting: Prince Edward Island, for {f.title.player_range[0]}-"
            f"{f.title.player_range[1]} players, starting with "
            + listing([m(d.starting_cash) for d in f.by_players.values()], "or") + ".",
            f"Full capitalisation; the Mainline floats at {prince.MAINLINE_FLOAT_PERCENT}%, "
            "the others at 60%.",
            "The PEIR meta-company has no counterpart in 1830.",
            "Corporations open in tranches, not freely.",
            "Branches split off corporations.",
            "The Union Bank, an extra partner.",
            "An unlimited bank; the game ends after the first diesel."],
        events={"remove_smv_80": f"the starting price "
                                 f"{m(_price_at(f, prince.PAR_REMOVED_BY['remove_smv_80']))} "
                                 "is withdrawn",
                "remove_smv_74": f"the starting price "
                                 f"{m(_price_at(f, prince.PAR_REMOVED_BY['remove_smv_74']))} "
                                 "is withdrawn",
                "remove_smv_65": f"the starting price "
                                 f"{m(_price_at(f, prince.PAR_REMOVED_BY['remove_smv_65']))} "
                                 "is withdrawn"},
        statuses={"can_buy_companies": "corporations may buy the Hunslet"},
        dividend_moves="Paying out the whole revenue moves the price one column right; "
                       "paying half leaves it where it is; withholding, or earning nothing, "
                       "moves it one column left.",
        floating=[f"The corporation drawn as the Mainline floats at "
                  f"{prince.MAINLINE_FLOAT_PERCENT}%, not 60%."],
        variants=[f"The seed says the Mainline starts floated with {m(10 * mainline)}; "
                  f"tracklayer (as 18xx.games) floats it once {prince.MAINLINE_FLOAT_PERCENT}% "
                  "is out of the bank, which happens during the opening auction, as the "
                  "seed's own summary says."],
        par_from={"par": None, "par_1": None, "par_2": None, "par_3": None},
        par_withdrawn=dict(prince.PAR_REMOVED_BY))


# -- 1817NA -----------------------------------------------------------------------------


def _north_america(f: Facts) -> Notes:
    m = f.money
    loans = f.data.loans
    sizes = [p.corporation_sizes for p in f.data.phases]
    zones = {k: sum(1 for c in f.spec.cells.values() if c.kind == k)
             for k in ("liquidation", "acquisition")}
    return Notes(
        setup=["The 1817 rules on a map of all North America.",
               f"{len(f.data.corporations)} corporations, none with a fixed home.",
               f"The Bank of New York lends {loans.count} loans of {m(loans.value)}; interest "
               f"starts at {loans.min_rate}% and rises {loans.rate_step}% every "
               f"{loans.per_step} loans, up to {loans.max_rate}%.",
               f"An auction of {len(f.data.companies)} private companies, with "
               f"{m(f.data.seed_money)} of seed money."],
        opening=("Opening auction", [
            f"The bank adds seed money (up to {m(f.data.seed_money)}) to winning bids up to "
            "a company's value."]),
        rounds=[("Mergers and acquisitions", [
            "After each operating round: merger and conversion, then acquisition.",
            f"Convert ({' → '.join(str(n) for n in shares1817.SIZES)} shares) or merge two "
            "corporations of one president.",
            f"Corporations on the liquidation cell ({zones['liquidation']} of the market) "
            "are liquidated.",
            f"Corporations in the acquisition zone ({zones['acquisition']} cells) "
            "are offered for sale to other corporations, bids in steps of "
            f"{m(acquisition1817.BID_STEP)}."])],
        stock=[f"A turn, in this order: sell shares (not of {shares1817.SIZES[0]}-share "
               "corporations), sell one share "
               "short, then buy one share or found a corporation; or act for a corporation "
               "(loans, buying back shares)."],
        operating=["Mail contracts pay at the start of the round if the corporation has a "
                   "train.",
                   f"Loans of {m(loans.value)} may be taken in a turn (as many as the "
                   "corporation has shares); each moves the price down.",
                   "Pay out, pay half or withhold.",
                   "After buying trains: pay interest at the round's rate and repay loans.",
                   "At the end of the round the bank exports the next train."],
        corporations=[f"{listing([str(n) for n in shares1817.SIZES], 'or')} shares (the sizes "
                      "each phase allows are in the phases "
                      "table); no fixed home: a city is chosen at founding.",
                      "The president is the winner of the founding auction."],
        score="Worth is cash plus shares at their price, less short positions; corporations' "
              "assets and private companies do not count.",
        components=[
            ("Bank and market", [
                "An unlimited bank.",
                f"The Bank of New York: {loans.count} loans in rows of {loans.per_step}.",
                "The market holds pool shares and shares sold short."])],
        money=["Players → corporations: the winning bid at founding (cash or private "
               "companies) and shares bought from the treasury.",
               "Players → bank: pool shares, private companies, and a dividend for each "
               "share sold short.",
               "Bank → players: dividends, sales and short sales.",
               f"Bank → corporations: loans of {m(loans.value)}, withheld revenue, mail "
               "contracts.",
               "Corporations → bank: trains, terrain, interest, loan repayments, stations.",
               "Corporations → corporations: buying another corporation or its trains.",
               "Players → corporations: a president never pays for a train."],
        special=[
            f"Loans with a rising interest rate: up {loans.rate_step}% every "
            f"{loans.per_step} loans out.",
            f"The opening auction is funded with {m(f.data.seed_money)} of seed money.",
            "Short selling: players may sell shares they do not own.",
            "Merger and acquisition rounds, friendly or hostile.",
            "Corporation sizes by phase: " + "; ".join(
                f"{p.name}: {'/'.join(str(s) for s in p.corporation_sizes)} shares"
                for p, _ in zip(f.data.phases, sizes)) + ".",
            "Private companies never close and are never resold.",
            "A player who cannot pay their debts is out of the game.",
            f"Founding: the president's certificate is auctioned from "
            f"{m(founding1817.LEAST_BID)} to {m(founding1817.MOST_BID)}; the share price is "
            "half the bid."],
        emergency=["As in 1817: no train is ever bought in an emergency; a cash crisis "
                   "(unpaid interest, short positions) makes a player sell only what is "
                   "needed."],
        comparison=[
            f"Setting: North America on a small map, for {f.title.player_range[0]}-"
            f"{f.title.player_range[1]} players (as 1830).",
            f"{shares1817.SIZES[0]}-share corporations that convert to "
            f"{listing([str(n) for n in shares1817.SIZES[1:]])} shares.",
            "Corporate loans with a variable interest rate.",
            "Short selling.",
            "Mergers, hostile takeovers and liquidation.",
            f"{len(f.data.companies)} private companies that never close.",
            "Players can be eliminated by debt."],
        starting=f"A player founds a corporation by auctioning its president's certificate "
                 f"(at first the whole of a {shares1817.SIZES[0]}-share corporation): bids run "
                 f"from {m(founding1817.LEAST_BID)} to {m(founding1817.MOST_BID)}, the share "
                 "price is half the winning bid, and the whole bid goes into the treasury, in "
                 "cash or private companies at their value. The corporation chooses its home "
                 "city and floats at once.",
        dividend_moves="Paying nothing moves the price one cell left; paying out at least "
                       "the share price moves it one cell right, at least twice the price "
                       "two cells; paying less than the price (or half) leaves it.",
        variants=["The seed's recommended variants are how tracklayer plays: no price cap in "
                  "the private auction (a bid may go as high as the bidder's cash) and up to "
                  "10 short positions on a 10-share corporation (the 5 Shorts option allows "
                  "only 5)."],
        events={"signal_end_game": "the end of the game is signalled"},
        statuses={"no_new_shorts": "no new short sales"},
        par_from={"par": None, "safe_par": None})


NOTES: Dict[str, Callable[[Facts], Notes]] = {
    "1893": _cologne, "1849: Kingdom of the Two Sicilies": _sicilies,
    "The Old Prince 1871": _prince, "1817NA": _north_america}


def notes(f: Facts) -> Notes:
    """The title's own words (a title without any: the common rules' only)."""
    made = NOTES.get(f.title.name, lambda _: Notes())(f)
    made.events = {**COMMON_EVENTS, **made.events}
    made.statuses = {**COMMON_STATUSES, **made.statuses}
    return made


def par_by_phase(f: Facts, n: Notes) -> List[List[int]]:
    """The starting prices in each phase, from the market cells and the trains' events."""
    events: List[str] = []
    out = []
    for phase in f.data.phases:
        for name in phase.on:
            t = next((t for t in f.data.trains if t.name == name), None)
            events.extend(e.kind for e in (t.events if t else ()))
        kinds = [k for k, e in n.par_from.items() if e is None or e in events]
        gone = {at for e, at in n.par_withdrawn.items() if e in events}
        out.append(sorted({c.price for c in f.spec.cells.values()
                           if c.kind in kinds and c.at not in gone}))
    return out


def event_text(n: Notes, kind: str) -> str:
    return n.events.get(kind, kind.replace("_", " "))


def train_phase_text(f: Facts, name: str) -> str:
    p = phase_of_train(f, name)
    return f"phase {p.name}" if p else "-"


__all__ = ["Notes", "notes", "par_by_phase", "event_text", "per_players"]
