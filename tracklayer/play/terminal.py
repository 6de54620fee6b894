"""A game at the terminal: people at one screen (hotseat) and bots.

A game file is an 18xx.games export; players named ``bot:KIND`` (``bot:greedy``,
``bot:random``) are bots, their kinds and seed also kept under ``settings`` as
``tracklayer_bots`` and ``tracklayer_bot_seed``. The game is saved after every action, so
``tracklayer verify`` accepts it and ``tracklayer play`` goes on where it stopped.

Every move, a bot's or a person's, is printed in words (``describe``) with the lines the
engine wrote for it: incomes, floats, phase changes, trains rusting, forced purchases.
Each round is headed as the game names it ("Operating Round 2.1", 1893's "Merger Round").

At a person's turn the legal moves of the entities they decide for are listed in words,
numbered and grouped by kind (``menu``): type a number to take one (a price is asked for
where a range is allowed); a kind with many moves is chosen by hex, corporation or holder
first; a few letters narrow the list to the moves answering to them. Commands: ``map``
(``map köln`` for one place), ``market``, ``companies``, ``players``, ``trains``, ``log``,
``s`` (all of these but the map), ``u`` to undo, ``b`` back to all moves, ``help``, ``q``
to stop (the game stays saved). Anything else is answered in a sentence.

A move taking what another seat holds (``consent``) is proposed to that seat: a person is
asked "accept? [y/n]", a bot answers by its own judgement; declined, the proposer goes on
with their turn.
"""

from __future__ import annotations

import json
import re
from typing import Dict, List, Optional, Sequence, Set, TextIO, Tuple

from rich.console import Console
from rich.markup import escape

from ..errors import GameError
from ..game import Game
from ..guide.walkthrough import round_label
from ..io.export import load_export, open_game
from ..turns.listing import concrete, value_range
from . import boardtext, consent, menu, panels
from .bots import Bot
from .consent import Negotiation
from .describe import Words
from .names import name_of
from .roster import BOTS, bot
from .seats import moves_of, player_at, seat_to_act
from .standing import auction_standing

BOT_PREFIX = "bot:"
# The log's line starting a round: "-- Operating Round 2.1 --".
ROUND_STARTS = re.compile(r"^-- (.+ Round [0-9.]+) --$")


def new_export(title_name: str, players: Sequence[str], seed: int,
               optional_rules: Sequence[str] = (), bot_seed: Optional[int] = None) -> dict:
    """A new game as an export: no action yet."""
    names: List[str] = []
    kinds: Dict[str, str] = {}
    for i, raw in enumerate(players):
        name = raw.strip()
        if not name:
            raise ValueError("a player needs a name")
        if name.startswith(BOT_PREFIX):
            kind = name[len(BOT_PREFIX):]
            if kind not in BOTS:
                raise ValueError(f"unknown bot {kind!r}: one of {', '.join(sorted(BOTS))}")
            kinds[str(i + 1)] = kind
        while name in names:
            name = f"{name}+"
        names.append(name)
    game = Game(_title(title_name), [(i + 1, n) for i, n in enumerate(names)], seed=seed,
                optional_rules=optional_rules)
    data = game.export()
    data["settings"]["tracklayer_bots"] = kinds
    data["settings"]["tracklayer_bot_seed"] = seed if bot_seed is None else bot_seed
    return data


def _title(name: str):
    from ..titles import title_like
    return title_like(name)


def bots_of(data: dict, game: Game) -> Dict[int, Bot]:
    """The bots of a game file, by seat."""
    settings = data.get("settings") or {}
    kinds = settings.get("tracklayer_bots") or {}
    seed = int(settings.get("tracklayer_bot_seed") or 0)
    out = {}
    for seat, (pid, name) in enumerate(game.player_specs):
        kind = kinds.get(str(pid)) or (name[len(BOT_PREFIX):].rstrip("+")
                                        if str(name).startswith(BOT_PREFIX) else None)
        if kind:
            out[seat] = bot(kind, seed * 100 + seat)
    return out


def save(path: str, data: dict, game: Game) -> None:
    out = game.export()
    out["settings"].update({k: v for k, v in (data.get("settings") or {}).items()
                            if k.startswith("tracklayer_")})
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f)


class Back(Exception):
    """The person went back from a prompt to the moves."""


def ask_price(console: Console, h: dict, read) -> Optional[dict]:
    """The value of a ranged move (its price, or the amount chosen), typed in; asked
    again, with what is wrong in a sentence, until it is one the move allows (``b`` goes
    back to the moves: :class:`Back`)."""
    while True:
        console.print(escape(menu.price_prompt(h)) + ", or b to go back> ", end="")
        line = read()
        if line is None:
            return None
        if line.strip().lower() in ("b", "back"):
            raise Back()
        value, wrong = menu.read_value(h, line)
        if value is not None:
            try:
                return concrete(h, value)
            except ValueError as e:
                field, low, high, _step = value_range(h)
                wrong = f"The {e}: type a number from {low} to {high}."
        console.print(f"[red]{escape(wrong)}[/red]")


def undo(game: Game, bots: Dict[int, Bot]) -> None:
    """Take back the last action, and the bots' since the last person's (so that it is a
    person's turn again)."""
    if game.actions:
        game.undo()
    while game.actions and seat_to_act(game) in bots:
        game.undo()


def yes_or_no(console: Console, read) -> bool:
    """A person's answer to a proposal: asked again until it is yes or no (no when the
    input ends)."""
    while True:
        line = read()
        if line is None:
            return False
        answer = line.strip().lower()
        if answer in ("y", "yes", "n", "no"):
            return answer.startswith("y")
        console.print(f"[red]{escape(repr(line.strip()))} is neither yes nor no: type y to "
                      f"accept or n to decline.[/red] \\[y/n] ", end="")


def negotiate(console: Console, game: Game, talks: Negotiation, seat: int, h: dict,
              bots: Dict[int, Bot], read) -> Optional[dict]:
    """``h`` as it is to be applied: as it is if it needs nobody's consent; else proposed
    to the seat holding what it takes, and the action if that seat accepts, None if it
    declines (or the input ends)."""
    if consent.deal_of(game, h) is None:
        return h
    proposal = talks.propose(game, seat, h)
    responder = proposal.responder
    if responder in bots:
        yes = bots[responder].answer(game, responder, proposal)
    else:
        deal = consent.deal_of(game, proposal.action)
        name = escape(player_at(game, responder).name)
        console.print(f"[bold yellow]{name}[/bold yellow]: "
                      f"{escape(consent.describe(game, deal, to=responder))} — accept? \\[y/n] ",
                      end="")
        yes = yes_or_no(console, read)
    if yes:
        talks.accept(responder)
        console.print(escape(f"{player_at(game, responder).name} accepts: {proposal.text}"))
        return dict(proposal.action)
    talks.decline(responder)
    console.print(escape(f"{player_at(game, responder).name} declines: {proposal.text}"))
    return None


HELP = """Type the number of a move to take it (a price is asked for where there is a choice).
A line ending in "…" opens a group of moves: a hex's lays (then a tile's rotations), a
corporation's or a holder's moves.
Type the start of a name (a city, a hex, a company, a word of the move) to see only the
moves answering to it; b goes back to all moves.
  map [place]  the board: a grid of the map and every city, town and track, by row
  market       the stock market, each corporation under its share price
  companies    the corporations and minors: president, price, cash, trains, stations
  players      cash, shares, private companies and worth
  trains       the bank and the trains to come
  log [N]      the last N lines of the game's log (20)
  s            players, companies and trains
  m            the moves again
  u            undo your last move (and the bots' since)
  q            stop; the game stays saved"""


class Session:
    """A game being played at one terminal: the game, its file, the bots, what the screen
    shows now (the person's moves, narrowed by a group opened or letters typed)."""

    def __init__(self, path: str, console: Console, read) -> None:
        self.path, self.console, self.read = path, console, read
        self.data = load_export(path)
        self.game = open_game(self.data)
        for h in self.data.get("actions") or []:
            self.game.apply(h)
        self.bots = bots_of(self.data, self.game)
        self.talks = Negotiation()
        self.narrowed: Optional[List[dict]] = None     # the moves shown, if not all
        self.narrowed_by = ""
        self.round = ""
        self.listed: Optional[tuple] = None           # the position and narrowing listed

    # -- what the screen shows ------------------------------------------------------------

    def rule(self) -> None:
        """The heading, once for each round (and when asked)."""
        label = round_label(self.game.table)
        if label != self.round:
            self.round = label
            self.console.rule(escape(panels.heading(self.game)))

    def show_map(self, words: str = "") -> None:
        table = self.game.table
        if not words:
            for line in boardtext.grid_lines(table):
                self.console.print(line, highlight=False)
            self.console.print(escape(boardtext.legend()), style="dim")
        lines = boardtext.map_lines(table, words)
        if not lines:
            self.console.print(f"No hex answers to {words!r}: type map and the start of a "
                               f"city's name or a coordinate, or map alone for the board.")
        for line in lines:
            self.console.print(escape(line), highlight=False,
                               style="bold" if line.startswith("Row") else None)

    def show_market(self) -> None:
        self.console.print("[bold]Stock market[/bold] (share prices; corporations in bold "
                           "on their price)")
        for line in panels.market_lines(self.game.table, self.console.width):
            self.console.print(line, highlight=False)
        legend = panels.market_legend(self.game.table)
        if legend:
            self.console.print(escape(legend), style="dim")

    def show_log(self, count: int = 20) -> None:
        for line in self.game.table.messages[-count:]:
            self.console.print(escape(f"  {line}"), highlight=False)

    def summary(self) -> None:
        self.round = ""
        self.rule()
        self.console.print(panels.players_table(self.game, self.viewers()))
        self.console.print(panels.companies_table(self.game))
        self.console.print(escape(panels.trains_line(self.game)))

    def viewers(self) -> Set[int]:
        """The players whose cash the screen shows where the title keeps it secret (1893):
        the person to act, who alone is looking; while bots move, the one person of a game
        against bots (nobody's when several people share the screen)."""
        game = self.game
        people = [seat for seat in range(len(game.player_specs)) if seat not in self.bots]
        seat = seat_to_act(game)
        looking = [seat] if seat in people else people if len(people) == 1 else []
        return {game.player_specs[s][0] for s in looking}

    def auction(self) -> None:
        """How an auction stands, when one runs."""
        for s in auction_standing(self.game.table):
            if not s.bids and not s.note:
                continue                   # an item at its price: the moves say it
            bids = ", ".join(f"{p.name} {self.game.table.money(v)}" for p, v in s.bids)
            price = f" at {self.game.table.money(s.price)}" if s.price is not None else ""
            parts = [f"{name_of(s.item)}{price}", f"bids: {bids}" if bids else "", s.note]
            self.console.print(escape("  " + "; ".join(p for p in parts if p)))

    # -- moves ----------------------------------------------------------------------------

    def apply(self, seat: int, h: dict) -> None:
        """Apply a move, save, and print it in words with the lines the engine wrote (a
        new round's heading where the log starts it)."""
        game = self.game
        said = menu.sentence(Words(game.table), h)
        before = len(game.table.messages)
        game.apply(dict(h, id=len(game.actions) + 1), auto=True)
        save(self.path, self.data, game)
        who = player_at(game, seat).name
        color = "cyan" if seat in self.bots else "green"
        if said.startswith(who + " "):
            said = said[len(who):]
            self.console.print(f"[{color}]{escape(who)}[/{color}]{escape(said)}",
                               highlight=False)
        else:
            self.console.print(f"[{color}]{escape(who)}[/{color}]: {escape(said)}",
                               highlight=False)
        for line in game.table.messages[before:]:
            line = str(line)
            started = ROUND_STARTS.match(line)
            if started:
                self.round = started.group(1)
                self.console.rule(escape(f"{game.title.name}: {self.round} — phase "
                                         f"{game.table.phase.name}"))
            elif line.startswith("-- "):       # a phase, trains rusting, the game's end
                self.console.print(escape(f"    {line.strip('- ')}"), style="bold yellow",
                                   highlight=False)
            else:
                self.console.print(escape(f"    {line}"), style="dim", highlight=False)
        self.rule()

    def bot_turn(self, seat: int) -> bool:
        """The bot in ``seat`` moves; False if it has nothing it may do."""
        game = self.game
        try:
            chosen = self.bots[seat].choose(game, seat, self.talks.declined_keys(game, seat))
        except GameError as e:         # nothing left to it but deals declined here
            self.console.print(f"[red]{escape(str(e))}[/red]")
            return False
        h = negotiate(self.console, game, self.talks, seat, chosen, self.bots, self.read)
        if h is not None:
            self.apply(seat, h)
        return True

    def command(self, line: str) -> bool:
        """A command typed at a person's turn; False if ``line`` is none."""
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("help", "h", "?"):
            self.console.print(escape(HELP), highlight=False)
        elif word == "map":
            self.show_map(rest.strip())
        elif word == "market":
            self.show_market()
        elif word in ("companies", "c"):
            self.console.print(panels.companies_table(self.game))
        elif word in ("players", "p"):
            self.console.print(panels.players_table(self.game, self.viewers()))
        elif word == "trains":
            self.console.print(escape(panels.trains_line(self.game)))
        elif word == "log":
            count = rest.strip()
            self.show_log(int(count) if count.isdigit() else 20)
        elif word in ("s", "summary"):
            self.summary()
        elif word in ("b", "back"):
            self.narrowed, self.narrowed_by = None, ""
        elif word in ("m", "moves"):
            self.listed = None
        else:
            return False
        return True

    def person_turn(self, seat: int) -> Optional[bool]:
        """One line from the person in ``seat``: True when something was done, None to stop
        (``q`` or the end of the input)."""
        game = self.game
        moves = self.open_moves(seat)
        shown = [h for h in self.narrowed if h in moves] if self.narrowed is not None \
            else moves
        if not shown:
            self.narrowed, self.narrowed_by, shown = None, "", moves
        sections = menu.sections(game, shown)
        lines = [c for _, choices in sections for c in choices]
        name = escape(player_at(game, seat).name)
        listing = (len(game.actions), self.narrowed_by)
        if listing == self.listed:
            self.console.print(f"[bold green]{name}[/bold green] to move: a number from 1 to "
                               f"{len(lines)} (m lists the moves again, help):")
        else:
            self.listed = listing
            self.list_moves(name, game, sections)
        self.console.print(f"{name}> ", end="")
        line = self.read()
        if line is None or line.strip().lower() in ("q", "quit"):
            self.console.print(f"saved in {self.path}")
            return None
        line = line.strip()
        if line in ("u", "undo"):
            undo(game, self.bots)
            save(self.path, self.data, game)
            self.narrowed, self.narrowed_by, self.listed = None, "", None
            self.console.print("undone")
            return True
        if line.isdigit():
            return self.choose(seat, lines, int(line))
        if not line or self.command(line):
            return True
        found = menu.answering(game, shown, line)
        if not found:
            self.console.print(f"[red]Nothing here answers to {escape(repr(line))}: type a "
                               f"number from 1 to {len(lines)}, the start of a name to "
                               f"narrow the moves, or help.[/red]")
            return True
        self.narrowed, self.narrowed_by = found, f"answering to {line!r}"
        return True

    def open_moves(self, seat: int) -> List[dict]:
        """The moves of ``seat`` but the deals it proposed and had declined here (asked
        again, the answer would be the same)."""
        game = self.game
        moves = moves_of(game, seat) or game.legal_actions()
        declined = set(self.talks.declined_keys(game, seat))
        if not declined:
            return moves
        kept = []
        for h in moves:
            deal = consent.deal_of(game, h)
            if deal is None or deal.key not in declined:
                kept.append(h)
        return kept

    def list_moves(self, name: str, game: Game,
                   sections: List[Tuple[str, List[menu.Choice]]]) -> None:
        """The moves shown, numbered under their headings, a group's line ending "…"."""
        self.auction()
        acting = panels.acting_line(game)
        if acting:
            self.console.print(escape(acting), style="italic", highlight=False)
        where = f" — {self.narrowed_by}" if self.narrowed_by else ""
        self.console.print(f"[bold green]{name}[/bold green] to move{escape(where)} (number, "
                           f"letters to narrow, help, map, market, u undo, q quit):")
        number = 0
        for title, choices in sections:
            self.console.print(f"[bold]{escape(title)}[/bold]")
            for c in choices:
                number += 1
                more = " …" if c.is_group else ""
                self.console.print(f"  {number:>3}. {escape(c.label)}{more}", highlight=False)

    def choose(self, seat: int, lines: List[menu.Choice], number: int) -> Optional[bool]:
        if not 1 <= number <= len(lines):
            self.console.print(f"[red]There is no move {number}: type a number from 1 to "
                               f"{len(lines)}, or help.[/red]")
            return True
        choice = lines[number - 1]
        if choice.is_group:
            self.narrowed, self.narrowed_by = choice.moves, choice.label.split(":")[0]
            return True
        h = choice.moves[0]
        try:
            h = ask_price(self.console, h, self.read) if value_range(h) else concrete(h)
        except Back:
            self.listed = None
            return True
        if h is None:
            return None
        try:
            h = negotiate(self.console, self.game, self.talks, seat, h, self.bots, self.read)
            if h is not None:
                self.apply(seat, h)
                self.narrowed, self.narrowed_by = None, ""
        except GameError as e:
            self.console.print(f"[red]{escape(str(e))}[/red]")
        return True

    def end(self) -> None:
        game = self.game
        self.summary()
        self.console.print(f"Game over ({game.end_reason}): " + ", ".join(
            f"{name} {game.result().get(pid)}" for pid, name in game.player_specs))


def play(path: str, stdin: TextIO, console: Optional[Console] = None,
         max_bot_moves: int = 100000) -> int:
    """Play the game in ``path`` until it ends, the input ends or ``q``."""
    console = console or Console()

    def read() -> Optional[str]:
        line = stdin.readline()
        return None if line == "" else line

    session = Session(path, console, read)
    game = session.game
    session.rule()
    moved = 0
    while not game.is_over:
        seat = seat_to_act(game)
        seat = 0 if seat is None else seat
        if seat in session.bots:
            if moved >= max_bot_moves or not session.bot_turn(seat):
                break
            moved += 1
            continue
        if session.person_turn(seat) is None:
            return 0
    if game.is_over:
        session.end()
    return 0
