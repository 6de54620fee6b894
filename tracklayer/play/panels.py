"""What the terminal shows of a game besides the map: the heading (the round as the game
names it, the step, the phase), the stock market grid with each corporation's marker on
its price, the companies (president, share price and par, treasury, trains, stations left,
shares in the IPO and the market), the players (cash, shares, private companies, worth),
the trains to come and the bank.

Pure functions of the game: the terminal prints them, the tests read them.
"""

from __future__ import annotations

from typing import Dict, List, Optional, Set, Tuple

from rich.table import Table as RichTable
from rich.text import Text

from ..game import Game
from ..guide.walkthrough import round_label
from ..rules import endgame, trains
from ..rules.table import Table
from ..spec.resolved import PAR_KINDS
from ..state.model import CorporationState, OperatorState, PlayerState
from .names import card_name, name_of, short_name

# A market cell's kinds, as a letter after its price and the words of the legend.
CELL_MARKS: Tuple[Tuple[Tuple[str, ...], str, str], ...] = (
    (PAR_KINDS, "p", "a starting price"),
    (("close",), "x", "the corporation closes"),
    (("endgame",), "e", "the game ends"),
    (("acquisition",), "a", "may be acquired"),
    (("liquidation",), "l", "liquidation"),
)
MAX_WIDTH = 120


def heading(game: Game) -> str:
    """ "1893: Operating Round 2.1 — Lay Track — phase 3": the round as the game names it
    (a set's operating rounds numbered, 1893's merger round, 1817's acquisition round)."""
    table = game.table
    step = table.round.describe()
    doing = f" — {step}" if step else ""
    return f"{game.title.name}: {round_label(table)}{doing} — phase {table.phase.name}"


def _cell_mark(kinds: Tuple[str, ...]) -> str:
    return "".join(mark for names, mark, _ in CELL_MARKS if set(kinds) & set(names))


def market_lines(table: Table, width: int = MAX_WIDTH) -> List[Text]:
    """The market grid: a line of prices per row (a letter after a price for what the
    cell means, see :func:`market_legend`), and under it, in bold, the corporations
    standing on those prices; a grid wider than ``width`` is shown in parts of columns,
    each part with every row, so that the columns stay aligned."""
    standing: Dict[tuple, List[str]] = {}
    for c in table.state.corporations:
        if c.price is not None and not c.closed:
            standing.setdefault(tuple(c.price), []).append(c.sym)
    rows = [[None if cell is None else
             (f"{cell.price}{_cell_mark(cell.kinds)}", ",".join(standing.get(cell.at, ())))
             for cell in row] for row in table.spec.rows]
    columns = max((len(row) for row in rows), default=0)
    wide = [max((max(len(row[i][0]), len(row[i][1])) for row in rows
                 if i < len(row) and row[i] is not None), default=3) + 1
            for i in range(columns)]
    parts: List[Tuple[int, int]] = []
    start = 0
    while start < columns:
        end, used = start, 0
        while end < columns and (end == start or used + wide[end] <= width):
            used += wide[end]
            end += 1
        parts.append((start, end))
        start = end
    out: List[Text] = []
    for first, last in parts:
        if len(parts) > 1 and out:
            out.append(Text(""))
        for row in rows:
            prices, corporations = Text(), Text()
            for i in range(first, min(last, len(row))):
                price, here = row[i] if row[i] is not None else ("", "")
                prices.append(price.ljust(wide[i]), style="dim" if not here else "")
                corporations.append(here.ljust(wide[i]), style="bold")
            if prices.plain.strip():
                out.append(prices.rstrip() or prices)
                if corporations.plain.strip():
                    out.append(corporations.rstrip() or corporations)
    return out


def market_legend(table: Table) -> str:
    """What the letters after the prices in the market mean (those the market has)."""
    present = {k for row in table.spec.rows for cell in row if cell is not None
               for k in cell.kinds}
    words = [f"{mark}: {what}" for names, mark, what in CELL_MARKS if present & set(names)]
    return "; ".join(words)


def _percent(certs) -> int:
    return sum(c.percent for c in certs or ())


def companies_table(game: Game) -> RichTable:
    """The corporations and minors in play: president, share price (and par), treasury,
    trains, stations left, the shares in the IPO and in the market, the private companies
    they own, and their loans where any company has one."""
    table = game.table
    state = game.state
    shown_ones = [c for c in list(state.corporations) + list(state.minors)
                  if not c.closed and (c.owner is not None or c.floated)]
    loans = any(c.loans for c in shown_ones)
    out = RichTable("company", "name", "president", "price (par)", "cash", "trains",
                    "stations left", "IPO", "market", "privates", title="Companies")
    if loans:
        out.add_column("loans")
    for c in shown_ones:
        corporation = isinstance(c, CorporationState)
        price = table.spec.cell(c.price).price if corporation and c.price else None
        par = table.spec.cell(c.par).price if corporation and c.par else None
        shown = "-" if price is None else f"{price}" + (f" ({par})" if par else "")
        if corporation and not c.floated:
            shown += ", not floated"
        out.add_row(c.sym, c.spec.name or "", short_name(c.owner) if c.owner is not None else "-", shown,
                    table.money(c.cash), " ".join(t.name for t in c.trains) or "-",
                    str(sum(1 for t in c.tokens if t.where is None)),
                    f"{_percent(c.shares.get(c.sym))}%" if corporation else "",
                    f"{_percent(state.market.shares.get(c.sym))}%" if corporation else "",
                    ", ".join(x.sym for x in c.companies),
                    *([str(c.loans)] if loans else []))
    return out


def players_table(game: Game, viewers: Optional[Set[int]] = None) -> RichTable:
    """The players in the order of play: cash, shares, private companies, worth. Where
    the title keeps a player's cash secret (``cash_secret``, 1893) and the game goes on,
    the cash and worth (which counts the cash) of players other than ``viewers`` (player
    ids; None: all are shown) read "hidden"."""
    table = game.table
    out = RichTable("player", "cash", "shares", "privates", "worth", title="Players")
    secret = table.settings.cash_secret and not game.is_over and viewers is not None
    for p in game.state.players:
        shares = ", ".join(f"{sym} {_percent(certs)}%" for sym, certs in p.shares.items()
                           if certs)
        hidden = secret and p.id not in viewers
        out.add_row(p.name + (" (passed)" if p.passed else ""),
                    "hidden" if hidden else table.money(p.cash), shares,
                    ", ".join(c.sym for c in p.companies),
                    "hidden" if hidden else table.money(endgame.worth(table, p)))
    return out


def trains_line(game: Game) -> str:
    """The bank, and the trains to come: "Bank 5400M; trains to come: 2-train 80M (5
    left), …; next for sale: a 2-train"."""
    table = game.table
    counts: Dict[Tuple[str, int], int] = {}
    for t in game.state.depot.upcoming:
        key = (t.name, t.spec.price)
        counts[key] = counts.get(key, 0) + 1
    coming = ", ".join(f"{card_name(name).split(' ', 1)[1]} {table.money(price)} ({n} left)"
                       for (name, price), n in list(counts.items())[:4])
    cheapest = trains.cheapest_for_sale(table)
    used = ", ".join(t.name for t in game.state.depot.given_back)
    return (f"Bank {table.money(game.state.bank.cash)}; trains to come: {coming or 'none'}"
            + (f"; given back to the bank: {used}" if used else "")
            + (f"; next for sale: {card_name(cheapest.name)}" if cheapest is not None else ""))


def acting_line(game: Game) -> str:
    """Who is to act and what they have to act with: a player's cash and holdings; a
    company's president, treasury, trains, stations left and loans."""
    table = game.table
    acting = game.acting
    if isinstance(acting, PlayerState):
        shares = ", ".join(f"{sym} {_percent(certs)}%" for sym, certs in acting.shares.items()
                           if certs)
        held = ", ".join(c.sym for c in acting.companies)
        return (f"{acting.name}: {table.money(acting.cash)} in cash"
                + (f"; shares {shares}" if shares else "")
                + (f"; companies {held}" if held else ""))
    if isinstance(acting, OperatorState):
        trains_held = ", ".join(card_name(t.name) for t in acting.trains) or "no train"
        president = f" (president {name_of(acting.owner)})" if acting.owner is not None else ""
        loans = f"; {acting.loans} loans" if acting.loans else ""
        return (f"{name_of(acting)}{president}: {table.money(acting.cash)} in its treasury; "
                f"{trains_held}; {sum(1 for t in acting.tokens if t.where is None)} stations "
                f"left{loans}")
    return ""
