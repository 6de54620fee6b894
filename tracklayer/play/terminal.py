"""A game at the terminal: people at one screen (hotseat) and bots.

A game file is an 18xx.games export; players named ``bot:KIND`` (``bot:greedy``,
``bot:random``) are bots, their kinds and seed also kept under ``settings`` as
``tracklayer_bots`` and ``tracklayer_bot_seed``. The game is saved after every action, so
``tracklayer verify`` accepts it and ``tracklayer play`` goes on where it stopped.

At a person's turn the state is summed up (players, companies, market, trains, phase) and
the legal moves of the entities they decide for are listed, numbered and grouped by kind:
type a number to take one (a price is asked for where a range is allowed), ``u`` to undo
the last action, ``s`` for the summary again, ``q`` to stop (the game stays saved).

A move taking what another seat holds (``consent``) is proposed to that seat: a person is
asked "accept? [y/n]", a bot answers by its own judgement; declined, the proposer goes on
with their turn.
"""

from __future__ import annotations

import json
from typing import Dict, List, Optional, Sequence, TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table as RichTable

from ..errors import GameError
from ..game import Game
from ..io.export import load_export, open_game
from ..rules import endgame, market, trains
from ..turns.listing import RANGE_KEYS, concrete, value_range
from . import consent
from .bots import Bot, by_kind
from .consent import Negotiation
from .roster import BOTS, bot
from .seats import moves_of, player_at, seat_to_act

BOT_PREFIX = "bot:"


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


def describe(game: Game, h: dict) -> str:
    """A move in a few words."""
    found = value_range(h)
    skip = ("type", "entity", "entity_type", "routes", "extra_revenue", "subsidy") + \
        RANGE_KEYS + ((found[0],) if found else ())
    entity = game.table.find(h.get("entity_type"), h.get("entity"))
    parts = [entity.name if entity is not None else str(h.get("entity"))] + \
        [f"{k}={v}" for k, v in h.items() if k not in skip]
    if found:
        field, low, high, step = found
        parts.append(f"{field} {low}..{high}" + (f" in steps of {step}" if step > 1 else ""))
    if h["type"] == "run_routes":
        parts.append(" + ".join(f"{r.get('train')}: {r.get('revenue_str', '')} "
                                f"({r.get('revenue')})" for r in h.get("routes") or []))
    return " ".join(parts)


def summary(console: Console, game: Game) -> None:
    table = game.table
    state = game.state
    console.rule(f"{game.title.name}: {table.round.NAME} {state.turn} — "
                 f"{table.round.describe()} — phase {table.phase.name}")
    players = RichTable("player", "cash", "shares", "companies", "worth")
    for p in state.players:
        shares = ", ".join(f"{sym} {sum(c.percent for c in certs)}%"
                           for sym, certs in p.shares.items() if certs)
        players.add_row(p.name, str(p.cash), shares, ", ".join(c.sym for c in p.companies),
                        str(endgame.worth(table, p)))
    console.print(players)
    operators = RichTable("company", "president", "price", "cash", "trains", "tokens left")
    for c in list(state.corporations) + list(state.minors):
        if c.closed or (c.owner is None and not c.floated):
            continue
        price = market.price(table, c) if c in state.corporations else None
        operators.add_row(c.sym, c.owner.name if c.owner is not None else "-",
                          str(price or "-"), str(c.cash),
                          " ".join(t.name for t in c.trains),
                          str(sum(1 for t in c.tokens if t.where is None)))
    console.print(operators)
    coming = trains.cheapest_for_sale(table)
    console.print(f"bank {state.bank.cash}; next train {coming.name if coming else '-'} "
                  f"at {trains.cheapest_price(table) if coming else '-'}")


def numbered(console: Console, game: Game, moves: List[dict]) -> List[dict]:
    """Print the moves, numbered and grouped by kind; return them in that order."""
    order: List[dict] = []
    for kind, group in by_kind(moves).items():
        console.print(f"[bold]{kind}[/bold]")
        for h in group:
            order.append(h)
            console.print(f"  {len(order):>3}. {describe(game, h)}")
    return order


def ask_price(console: Console, h: dict, read) -> Optional[dict]:
    """The value of a ranged move (its price, or the amount chosen), typed in."""
    field, low, high, _step = value_range(h)
    console.print(f"{field} ({low}..{high}, Enter for {low}):")
    line = read()
    if line is None:
        return None
    line = line.strip()
    try:
        return concrete(h, int(line) if line else low)
    except ValueError as e:
        console.print(f"[red]{e}[/red]")
        return ask_price(console, h, read)


def undo(game: Game, bots: Dict[int, Bot]) -> None:
    """Take back the last action, and the bots' since the last person's (so that it is a
    person's turn again)."""
    if game.actions:
        game.undo()
    while game.actions and seat_to_act(game) in bots:
        game.undo()


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
                      f"{escape(consent.describe(game, deal, to=responder))} — accept? \\[y/n]")
        line = read()
        yes = line is not None and line.strip().lower() in ("y", "yes")
    if yes:
        talks.accept(responder)
        console.print(f"{player_at(game, responder).name} accepts: {proposal.text}")
        return dict(proposal.action)
    talks.decline(responder)
    console.print(f"{player_at(game, responder).name} declines: {proposal.text}")
    return None


def play(path: str, stdin: TextIO, console: Optional[Console] = None,
         max_bot_moves: int = 100000) -> int:
    """Play the game in ``path`` until it ends, the input ends or ``q``."""
    console = console or Console()
    data = load_export(path)
    game = open_game(data)
    for h in data.get("actions") or []:
        game.apply(h)
    bots = bots_of(data, game)

    def read() -> Optional[str]:
        line = stdin.readline()
        return None if line == "" else line

    shown = None
    moved = 0
    talks = Negotiation()
    while not game.is_over:
        seat = seat_to_act(game)
        seat = 0 if seat is None else seat
        if seat in bots:
            if moved >= max_bot_moves:
                break
            try:
                chosen = bots[seat].choose(game, seat, talks.declined_keys(game, seat))
            except GameError as e:         # nothing left to it but deals declined here
                console.print(f"[red]{escape(str(e))}[/red]")
                break
            h = negotiate(console, game, talks, seat, chosen, bots, read)
            moved += 1
            if h is None:
                continue
            h["id"] = len(game.actions) + 1
            game.apply(h, auto=True)
            save(path, data, game)
            console.print(f"[cyan]{player_at(game, seat).name}[/cyan]: {h['type']} "
                          f"{describe(game, h)}")
            continue
        if shown != len(game.actions):
            summary(console, game)
            shown = len(game.actions)
        moves = moves_of(game, seat) or game.legal_actions()
        console.print(f"[bold green]{player_at(game, seat).name}[/bold green] to move "
                      f"(u undo, s summary, q quit):")
        order = numbered(console, game, moves)
        line = read()
        if line is None or line.strip() == "q":
            console.print(f"saved in {path}")
            return 0
        line = line.strip()
        if line == "s":
            shown = None
            continue
        if line == "u":
            undo(game, bots)
            save(path, data, game)
            console.print("undone")
            shown = None
            continue
        if not line.isdigit() or not 1 <= int(line) <= len(order):
            console.print(f"[red]type a number from 1 to {len(order)}, u, s or q[/red]")
            continue
        h = order[int(line) - 1]
        h = ask_price(console, h, read) if value_range(h) else concrete(h)
        if h is None:
            return 0
        try:
            h = negotiate(console, game, talks, seat, h, bots, read)
            if h is None:
                continue
            game.apply(dict(h, id=len(game.actions) + 1), auto=True)
        except GameError as e:
            console.print(f"[red]{e}[/red]")
            continue
        save(path, data, game)
    if game.is_over:
        summary(console, game)
        console.print(f"game over ({game.end_reason}): " + ", ".join(
            f"{name} {game.result().get(pid)}" for pid, name in game.player_specs))
    return 0
