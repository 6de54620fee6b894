"""The basics of 18xx, written once for every title: the aim, how a game flows, starting
and floating a corporation, the stock round, the operating round, routes and what they
earn, share prices and why they move, trains and phases. Each paragraph states the
common rule and then the title's own numbers, read from its data and settings; where a
title plays a rule otherwise, the title's notes say how (``Notes.dividend_moves``,
``Notes.train_unit``) and its differences follow in their own section."""

from __future__ import annotations

from collections import Counter
from typing import List, Optional, Tuple

from ..spec.settings import Capitalization, SaleTiming
from .document import Bullets, Para, Section
from .facts import Facts, listing, plural, top_price
from .notes import Notes, par_by_phase
from .texts import POOL_DROP, SALE_MOVEMENT, tile_lays


def _floats(f: Facts) -> List[int]:
    return sorted({c.float_percent for c in f.data.corporations
                   if c.floatable and c.float_percent})


def _stop_values(f: Facts, kind: str) -> List[int]:
    """The values of the printed stops of a kind in the first phase, most common first."""
    first = f.data.phases[0].tiles
    values: Counter = Counter()
    for printed in f.spec.hexes.values():
        if printed.tile is None:
            continue
        for stop in printed.tile.stops:
            if stop.kind == kind:
                table = dict(stop.revenue)
                value = next((table[c] for c in reversed(first) if c in table), 0)
                if value:
                    values[value] += 1
    return [v for v, _ in values.most_common()]


def _example_run(f: Facts) -> Optional[Tuple[str, str]]:
    """A route for the first train, from the map's own values: (what it visits, the sum)."""
    cities, towns, offboards = (_stop_values(f, k) for k in ("city", "town", "offboard"))
    if not cities:
        return None
    stops = [("a city", cities[0])]
    if offboards:
        stops.append(("an off-board area", offboards[0]))
    elif towns:
        stops.append(("a town", towns[0]))
    else:
        stops.append(("another city", cities[0]))
    m = f.money
    return (" and ".join(f"{what} worth {m(v)}" for what, v in stops),
            " + ".join(m(v) for _, v in stops) + f" = {m(sum(v for _, v in stops))}")


def _aim(f: Facts, n: Notes) -> Section:
    return Section("The aim", [Para(
        "You are an investor. You buy shares of railway corporations; the corporations build "
        "track, place stations and run trains, and pay their revenue to their shareholders as "
        "dividends. The biggest shareholder of a corporation is its president and takes its "
        "decisions, with the corporation's money, never their own (except to save it when it "
        "must buy a train). "
        + (n.score or "At the end the richest player wins: cash plus shares at their market "
           "price.")
        + " Your money and a corporation's treasury are kept apart: a corporation that "
        "withholds gets richer, its shareholders do not.")])


def _flow(f: Facts, n: Notes) -> Section:
    ors = sorted({p.operating_rounds for p in f.data.phases})
    sets = f"{ors[0]}" if len(ors) == 1 else f"{ors[0]} to {ors[-1]}"
    first = f.data.phases[0]
    lines = [
        f"{n.opening[0]}: the private companies (and anything else the title sells "
        "first) find their owners." if f.data.companies or f.data.minors else
        "The game starts with a stock round.",
        "Stock round: the players, in turn, buy and sell shares and start corporations. It "
        "ends when every player has passed in a row.",
        f"Operating rounds: {sets} of them after each stock round (the phase says how many; "
        f"phase {first.name} gives {first.operating_rounds}). In each, every corporation "
        "(and minor) that has floated takes one turn: track, station, trains run, revenue, "
        "trains bought.",
        "Then the next stock round, and so on until one of the end triggers."]
    if n.rounds:
        lines.append("Also: " + listing([name.lower() for name, _ in n.rounds])
                     + " (see the rounds below).")
    return Section("How a game flows", [Bullets(lines, numbered=True), Para(
        f"The game moves through {plural(len(f.data.phases), 'phase')} "
        f"({', '.join(p.name for p in f.data.phases)}). A phase begins when the first train "
        "of a new kind is bought: it brings new tile colours, sometimes more operating rounds "
        "per set and a lower train limit, and it may make older trains rust (leave the "
        "game). The trains are the game's clock.")])


def _starting(f: Facts, n: Notes) -> Section:
    m = f.money
    pars = par_by_phase(f, n)[0]
    floats = _floats(f)
    out = [n.starting or (
        f"A player starts a corporation by buying its president's certificate "
        f"({f.data.corporations[0].shares[0]}%) and choosing its starting (par) price"
        + (f": {listing([m(p) for p in pars], 'or')} in phase {f.data.phases[0].name}."
           if pars else ".") + " The par price is also the price of the shares bought after it.")]
    if floats:
        out.append(f"A corporation floats (may operate) once {listing([f'{p}%' for p in floats], 'or')}"
                   " of its shares have been bought. Until then it does nothing.")
    if f.settings.capitalization is Capitalization.FULL:
        times = sorted({sum(c.shares) // min(c.shares) for c in f.data.corporations
                        if c.floatable and c.float_percent})
        example = f" (at {m(pars[0])}: {times[0]} × {m(pars[0])} = {m(times[0] * pars[0])})" \
            if pars and times else ""
        out.append("Full capitalisation: what players pay for shares goes to the bank; "
                   f"when the corporation floats the bank pays it {listing(times, 'or')} times "
                   f"its par price{example}.")
    else:
        out.append("Incremental capitalisation: what players pay for shares bought from the "
                   "corporation goes into its treasury, share by share.")
    out.append("The president is whoever holds the most; if another player comes to hold "
               "more, the president's certificate changes hands.")
    return Section("Starting and floating a corporation", [Bullets(out)])


def _stock(f: Facts, n: Notes) -> Section:
    s = f.settings
    held = Counter(c.max_ownership for c in f.data.corporations if c.floatable)
    usual = held.most_common(1)[0][0]
    others = [c.sym for c in f.data.corporations if c.floatable and c.max_ownership != usual]
    most = f"{usual}% of one corporation" + (
        f" ({listing(others)}: {listing(sorted({f'{c.max_ownership}%' for c in f.data.corporations if c.sym in others}), 'or')})"
        if others else "")
    out = ["On your turn you may sell shares and buy one certificate (a share, or a "
           "president's certificate to start a corporation), or pass.",
           f"Limits: no more than {most}, and no more certificates than the certificate limit "
           f"({', '.join(f'{d.cert_limit} with {c} players' for c, d in sorted(f.by_players.items()))}).",
           SALE_MOVEMENT[s.sale_movement] + " Selling is how you raise cash, and it costs "
           "every holder of that corporation money.",
           {SaleTiming.AFTER_FIRST_STOCK_ROUND: "Nobody may sell in the first stock round.",
            SaleTiming.AFTER_IT_OPERATED: "Shares of a corporation that has not operated "
                                          "cannot be sold.",
            SaleTiming.OPERATED_OR_IN_OPERATING_ROUND: "Shares of a corporation that has "
                                                       "not operated cannot be sold in a "
                                                       "stock round.",
            SaleTiming.ANY_TIME: "Shares may be sold from the start."}[s.sale_timing],
           "The round ends when all players pass in a row; "
           + ("a corporation whose shares are all held by players (sold out) then rises."
              if s.sold_out_rises else "prices then stay as they are.")]
    drop = POOL_DROP[s.pool_drop]
    if drop:
        out.append(drop)
    return Section("The stock round", [Bullets(out)])


def _operating(f: Facts, n: Notes) -> Section:
    order = ("Minors operate first, then corporations from the highest share price down."
             if f.data.minors else "Corporations operate from the highest share price down.")
    out = [tile_lays(f) + " A yellow tile goes on an empty hex; an upgrade replaces a tile "
           "by one of the next colour that keeps all its track. New track must connect to "
           "the corporation's network (its stations).",
           "Station: a token in a city the network reaches (if a free slot is left). A full "
           "city blocks the routes of every corporation without a station there.",
           "Run trains (see routes below) and work out the revenue.",
           n.dividend_moves or "Pay the revenue out to the shareholders (the price moves "
           "right) or withhold it in the treasury (the price moves left).",
           "Buy trains, from the bank or (where the phase allows) from another corporation."]
    return Section("The operating round", [Para(order + " A corporation's turn, in order:"),
                                           Bullets(out, numbered=True)])


def _routes(f: Facts, n: Notes) -> Section:
    first = f.data.trains[0]
    if first.hex_distance:
        reach = (f"A {first.name} train crosses at most {first.distance} hex sides, so "
                 f"runs through {first.distance + 1} hexes, and earns every stop on them.")
    elif n.train_unit:
        reach = (f"A {first.name} train runs through at most {first.distance} {n.train_unit} "
                 "and earns the stops on them.")
    elif isinstance(first.distance, int):
        reach = f"A {first.name} train visits at most {first.distance} stops."
    else:
        reach = f"A {first.name} train counts its stops by kind (see the trains table)."
    out = ["A route is one unbroken line of track between stops: cities, towns and "
           "off-board areas. It must include a station of the corporation running it.",
           reach,
           "A route may not visit a stop twice, may not pass through a city whose slots are "
           "all taken by other corporations, and may end at an off-board area but not go "
           "through it. Two trains of one corporation may not share any piece of track.",
           "A route earns the sum of the values of its stops; off-board values rise with the "
           "phases."]
    run = _example_run(f)
    if run:
        out.append(f"For example, a route between {run[0]} earns {run[1]}.")
    return Section("Routes and what they earn", [Bullets(out)])


def _prices(f: Facts, n: Notes) -> Section:
    s = f.settings
    grid = "one row: left is down, right is up" if f.spec.one_row_market else \
        "a grid: right and up are higher, left and down lower"
    out = [f"Each corporation's share price is a marker on the stock market, {grid}.",
           "Why it matters: a player's worth is counted at the share price, shares are "
           "bought and sold at it, and corporations operate in price order.",
           n.dividend_moves or "Paying out moves the price right; withholding, or earning "
           "nothing, moves it left.",
           SALE_MOVEMENT[s.sale_movement]]
    if s.sold_out_rises:
        out.append("At the end of a stock round a sold-out corporation rises.")
    drop = POOL_DROP[s.pool_drop]
    if drop:
        out.append(drop)
    out.append(f"The highest price on the market is {f.money(top_price(f))}.")
    return Section("Share prices and why they move", [Bullets(out)])


def _trains(f: Facts, n: Notes) -> Section:
    rusting = [t for t in f.data.trains if t.rusts_on]
    out = ["Trains are sold by the bank in order, cheapest first; the next kind goes on sale "
           "when the one before is sold out.",
           "A corporation may hold only so many trains (the train limit of the phase); one "
           "that must own a train and has none has to buy one, with the president's help "
           "if its treasury is short (see emergency money)."]
    if rusting:
        t = rusting[0]
        out.append(f"Trains rust: when the first {listing(t.rusts_on, 'or')} is bought, "
                   f"every {t.name} train leaves the game. A corporation can be left with no "
                   "train at all: plan for it.")
    return Section("Trains, phases and rusting", [Bullets(out)])


def basics(f: Facts, n: Notes) -> Section:
    """The basics, with the title's numbers (see the module docstring)."""
    return Section("How an 18xx game works", [
        Para("What every 18xx game shares, with this title's numbers. The title's own rules "
             "follow in the next section."),
        _aim(f, n), _flow(f, n), _starting(f, n), _stock(f, n), _operating(f, n),
        _routes(f, n), _prices(f, n), _trains(f, n)])
