"""A title's guide, put together from its facts and its own words: the basics of 18xx
with the title's numbers, how the title differs (from 1830, and the rule choices and
optional rules tracklayer plays), its rounds, components, where the money goes, phases
(with a picture of the train roster), a worked example replayed from a shipped game, the
summary (capitalisation, limits, cash, the end, trains, special mechanics), emergency
money, and pictures of the map, the stock market and the tiles."""

from __future__ import annotations

from typing import Optional

from ..title import Title
from . import texts
from .basics import basics
from .charts import train_roster_svg
from .document import Bullets, Para, Picture, Section, Table, render
from .drawing import TILE_COLOURS, map_svg, market_svg, supply, tiles_svg
from .example import worked_example
from .facts import (MARK_TEXT, TRAIN_HEADER, Facts, end_triggers, facts, home, listing, slug,
                    market_rows, per_players, phase_start, plural, rusting_in, shares,
                    tokens, train_limit, train_rows)
from .notes import Notes, event_text, notes, par_by_phase


def _setup_table(f: Facts) -> Table:
    rows = []
    for n, d in sorted(f.by_players.items()):
        privates = sum(1 for c in d.companies if n >= c.min_players and c.stack is None
                       and c.minor is None)
        rows.append([str(n), f.money(d.starting_cash), str(d.cert_limit),
                     f.money(d.bank_cash), str(privates)])
    return Table(["Players", "Cash each", "Certificate limit", "Bank", "Company cards"],
                 rows)


def _phase_table(f: Facts, n: Notes) -> Table:
    rows = []
    pars = par_by_phase(f, n)
    for phase, par in zip(f.data.phases, pars):
        rust, obsolete = rusting_in(f, phase)
        events = []
        for name in phase.on:
            t = next(t for t in f.data.trains if t.name == name)
            events.extend(event_text(n, e.kind) for e in t.events)
        statuses = [n.statuses.get(s, s.replace("_", " ")) for s in sorted(phase.status)]
        if phase.corporation_sizes:
            statuses.append("corporations of " + "/".join(
                str(s) for s in phase.corporation_sizes) + " shares")
        if not phase.trains_between_companies:
            statuses.append("trains only from the bank")
        rows.append([phase.name, phase_start(f, phase), ", ".join(phase.tiles),
                     str(phase.operating_rounds), train_limit(phase),
                     listing(rust) or "-", listing(obsolete) or "-",
                     ", ".join(f.money(p) for p in par) or "-",
                     "; ".join(events + statuses) or "-"])
    return Table(["Phase", "Starts with", "Tiles", "Operating rounds", "Train limit",
                  "Rust", "Obsolete", "Starting prices", "Also"], rows)


def _companies_table(f: Facts) -> Optional[Table]:
    rows = []
    seen_stacks = set()
    for c in f.data.companies:
        if c.stack:
            if c.stack in seen_stacks:
                continue
            seen_stacks.add(c.stack)
            count = sum(1 for o in f.data.companies if o.stack == c.stack)
            name = f"{c.name} ({count} bonds)"
            sym = c.stack
        else:
            name, sym = c.name, c.sym
        price = f.money(c.value)
        if c.min_price is not None and c.max_price is not None:
            price += f" (a corporation pays {f.money(c.min_price)}-{f.money(c.max_price)})"
        only = f" Only with {c.min_players}+ players." if c.min_players else ""
        rows.append([sym, name, price, f.money(c.revenue) if c.revenue else "-",
                     (c.text or "-") + only])
    if not rows:
        return None
    return Table(["Company", "Name", "Value", "Revenue", "Powers"], rows)


def _corporation_table(f: Facts) -> Table:
    rows = [[c.sym, c.name, home(c, f.data.tokens_at_start), shares(c), f"{c.float_percent}%" if c.floatable
             else "formed", f"{c.max_ownership}%", tokens(f, c.tokens)]
            for c in f.data.corporations]
    return Table(["Corporation", "Name", "Home", "Certificates", "Floats at",
                  "Most a player may hold", "Station tokens"], rows)


def _minor_table(f: Facts) -> Optional[Table]:
    if not f.data.minors:
        return None
    rows = [[m.sym, m.name, m.home or "-", tokens(f, m.tokens)] for m in f.data.minors]
    return Table(["Minor", "Name", "Home", "Station tokens"], rows)


def _rounds(f: Facts, n: Notes) -> Section:
    ors = sorted({p.operating_rounds for p in f.data.phases})
    opening = f"{n.opening[0]}, then stock rounds" if n.opening[1] or f.data.companies \
        else "Stock rounds"
    structure = [f"{opening}, each followed by a set of "
                 f"{'-'.join(str(x) for x in (ors[0], ors[-1]) if True) if len(ors) > 1 else ors[0]}"
                 " operating rounds (as many as the phase gives when the set begins)"
                 + (", with " + listing([r[0].lower() for r in n.rounds]) if n.rounds else "")
                 + "; this repeats until the end."]
    s = Section("Rounds", [Para(structure[0])])
    s.add(Section("Set-up", [_setup_table(f), Bullets(n.setup) if n.setup else None]))
    s.add(Section(n.opening[0], [Bullets(n.opening[1])]) if n.opening[1] else None)
    stock = texts.stock_round(f)      # the first line is the turn: the title's own, if it has one
    s.add(Section("Stock round", [Bullets(n.stock + stock[1:] if n.stock else stock)]))
    s.add(Section("Operating round", [Bullets(texts.operating_round(f, n.dividend_moves)
                                              + n.operating, numbered=True)]))
    for title, lines in n.rounds:
        s.add(Section(title, [Bullets(lines)]))
    score = [n.score or "The winner has the most money: cash plus shares at their price"
             + (" plus private companies." if f.data.companies else ".")]
    s.add(Section("End of the game", [Bullets(end_triggers(f) + score)]))
    return s


def _components(f: Facts, n: Notes) -> Section:
    s = Section("Components")
    d = f.data
    players = ["Cash (" + per_players(f, lambda x: f.money(x.starting_cash)) + ").",
               "Certificate limit: " + per_players(f, lambda x: x.cert_limit) + "."]
    s.add(Section("Players", [Bullets(players)]))
    s.add(Section("Private companies", [_companies_table(f)]) if d.companies else None)
    for title, lines in n.components:
        if lines:
            block = [Bullets(lines)]
            if title == "Minor companies":
                block.append(_minor_table(f))
            s.add(Section(title, block))
    s.add(Section("Corporations", [Bullets(n.corporations) if n.corporations else None,
                                   _corporation_table(f)]))
    bank = [f"Bank: {per_players(f, lambda x: f.money(x.bank_cash))}.",
            "Trains: " + ", ".join(t.name for t in d.trains) + "."]
    if d.loans:
        bank.append(f"Loans: {d.loans.count} of {f.money(d.loans.value)}.")
    s.add(Section("Bank", [Bullets(bank)]))
    return s


def _summary(f: Facts, n: Notes) -> Section:
    s = Section("Summary")
    s.add(Section("Capitalisation", [Bullets(texts.capitalization(f))]))
    s.add(Section("Floating and holding limits", [Bullets(texts.floating_and_limits(f)
                                                          + n.floating)]))
    s.add(Section("Starting cash", [Bullets(texts.starting_cash(f))]))
    s.add(Section("Game end triggers", [Bullets(end_triggers(f))]))
    names = [p.name for p in f.data.phases]
    s.add(Section("Number of phases", [Para(
        f"{plural(len(names), 'phase')} ({', '.join(names)}), each begun by the first train "
        "of its kind.")]))
    s.add(Section("Trains", [Table(TRAIN_HEADER,
                                   train_rows(f, lambda kind: event_text(n, kind),
                                              n.train_unit))]))
    if f.data.companies:
        s.add(Section("Private company list", [Para(
            f"{len(f.data.companies)} company cards: "
            + ", ".join(f"{c.sym}" for c in f.data.companies)
            + " (their values, revenues and powers: Components, Private companies).")]))
    s.add(Section("Corporation list", [Para(
        ", ".join(f"{c.sym} ({home(c, f.data.tokens_at_start)})" for c in f.data.corporations)
        + (", and the minors " + ", ".join(f"{m.sym} ({m.home or '-'})" for m in f.data.minors)
           if f.data.minors else "")
        + " (home in brackets; their certificates and tokens: Components, Corporations).")]))
    s.add(Section("Special mechanics", [Bullets(n.special)]))
    return s


def _market(f: Facts) -> Section:
    rows = market_rows(f)
    width = max(len(r) for r in rows)
    marks = sorted({m for r in rows for c in r for m in MARK_TEXT if c.endswith(m)
                    and c[:-len(m)].isdigit()})
    legend = [f"{m}: {MARK_TEXT[m]}" for m in marks]
    if f.spec.one_row_market:
        table = Table(["Cell", "Price"], [[str(i + 1), c] for i, c in enumerate(rows[0])])
    else:
        table = Table([str(i + 1) for i in range(width)],
                      [r + [""] * (width - len(r)) for r in rows])
    return Section("Stock market", [Picture(market_svg(f.spec), "The stock market grid",
                                            f"{slug(f.title)}-market.svg"),
                                    table, Bullets(legend)])


def _map(f: Facts) -> Section:
    named = [f"{h}: {name}" for h, name in sorted(f.data.map.names.items())]
    return Section("Map", [Picture(map_svg(f.spec), f"The map of {f.title.name} as printed",
                                   f"{slug(f.title)}-map.svg"),
                           Para(f"{len(f.spec.hexes)} hexes; named places: "
                                + "; ".join(named) + ".")])


def _tiles(f: Facts) -> Section:
    by_colour = supply(f.spec)
    s = Section("Tiles", [Para(
        "The tiles of the supply by colour, each with its number and how many there are. "
        "A colour may be laid once the phases table lists it; an upgrade replaces a tile by "
        "one of the next colour that keeps all its track.")])
    for colour in TILE_COLOURS:
        tiles = by_colour.get(colour)
        if tiles:
            total = sum(c for _, c in tiles if isinstance(c, int))
            s.add(Section(f"{colour.capitalize()} tiles", [Picture(
                tiles_svg(f.spec, colour), f"{colour.capitalize()} tiles: {len(tiles)} kinds, "
                f"{total} tiles", f"{slug(f.title)}-tiles-{colour}.svg")]))
    return s


def _variants(f: Facts, n: Notes) -> Section:
    options = [f"{o.short_name} ({o.sym}): {o.text}" + (
        f" Only with {listing([str(p) for p in o.players], 'or')} players." if o.players else "")
        for o in f.title.optional_rules]
    return Section("Variants and optional rules", [
        Bullets(n.variants) if n.variants else None,
        Para("Optional rules tracklayer offers (choose them when creating a game, or with "
             "--rules in random play):" if options else
             "tracklayer offers no optional rules for this title."),
        Bullets(options) if options else None])


def guide(title: Title, example: Optional[Section] = None) -> Section:
    """The guide to ``title`` (``example``: a worked example to include, such as a
    walkthrough of a real game's first rounds)."""
    f = facts(title)
    n = notes(f)
    doc = Section(f"{title.name}: a guide", [Para(
        f"{title.name} for {title.player_range[0]}-{title.player_range[1]} players. "
        "Every number below is read from tracklayer's data for the title, and the worked "
        "example's from replaying its game.")])
    doc.add(basics(f, n))
    doc.add(Section("Compared with 1830", [Para(
        f"What {title.name} does differently, point by point (the details are in the "
        "sections after)."), Bullets(n.comparison, numbered=True)]))
    doc.add(_variants(f, n))
    doc.add(_rounds(f, n), _components(f, n))
    doc.add(Section("Where the money goes", [Bullets(n.money)]))
    doc.add(Section("Phases", [_phase_table(f, n), Picture(
        train_roster_svg(f, n.train_unit), "The trains: each bar runs from the phase in which "
        "the train can first be bought to the phase whose first train rusts it (a red cross); "
        "hatched: obsolete", f"{slug(title)}-trains.svg")]))
    doc.add(example or worked_example(title) or Section("Round by round", [Para(
        "No worked example is shipped for this title: `tracklayer walkthrough GAME.json "
        "--from 0 --to N` narrates a game's first rounds with the state after each step.")]))
    doc.add(_summary(f, n))
    doc.add(Section("Emergency money", [Bullets(texts.emergency(f) + n.emergency)]))
    doc.add(_map(f), _market(f), _tiles(f))
    return doc


def page(title: Title, fmt: str = "html", example: Optional[Section] = None) -> str:
    """The guide as a page (``html``) or as Markdown (``md``), e.g. for the web app."""
    return render(guide(title, example), fmt)
