"""A walkthrough of a real game: entries A to B of an 18xx.games export told in plain
English ("Player 2 buys a 10% share of IFP for L.90"), each followed by a state panel (the
followed player's cash, the followed company's treasury, share price, trains and loans).
Every number comes from replaying the game: the narration is the engine's log of each
action, the panel its state in the trace format (``tracklayer/trace.py``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..errors import GameError
from ..io.export import open_game
from ..snapshot import collector_paused
from ..trace import snapshot
from .document import Bullets, Para, Section, Table

UNDONE = {"undo": "takes back the last action", "redo": "puts back what was taken back"}


@dataclass
class Step:
    """One log entry: what it was, what happened, and the state after it."""
    index: int
    entry: dict
    actor: str
    lines: List[str]
    state: dict                       # the trace line after the entry

    @property
    def heading(self) -> str:
        s = self.state
        return f"{self.index}. {s['round']} {s['turn']}, phase {s['phase']}: {self.actor}"


@dataclass
class Walk:
    """The steps of a walkthrough and what its panels show."""
    title: str
    money: object                     # formats an amount in the title's currency
    players: Dict[str, str]           # id -> name
    steps: List[Step] = field(default_factory=list)
    follow: List[str] = field(default_factory=list)           # player ids
    companies: List[str] = field(default_factory=list)        # corporation or minor symbols
    loans: bool = False               # whether the title lends (the panel shows loans)

    def panel(self, step: Step) -> List[Tuple[str, object]]:
        """(label, value) pairs: the raw values, as in the trace (None: no value yet)."""
        out: List[Tuple[str, object]] = []
        s = step.state
        for pid in self.follow:
            p = s["players"].get(pid)
            out.append((f"Cash {self.players.get(pid, pid)}", None if p is None else p["cash"]))
        for sym in self.companies:
            c = s["corporations"].get(sym)
            if c is not None:
                out.append((f"Treasury {sym}", c["cash"]))
                out.append((f"Share price {sym}", c["price"]))
                out.append((f"Trains {sym}", tuple(c["trains"])))
                if self.loans:
                    out.append((f"Loans {sym}", c["loans"]))
                continue
            m = s["minors"].get(sym)
            out.append((f"Treasury {sym}", None if m is None else m["cash"]))
            out.append((f"Trains {sym}", None if m is None else tuple(m["trains"])))
        return out

    def shown(self, value) -> str:
        if value is None:
            return "—"
        if isinstance(value, tuple):
            return " + ".join(value) or "—"
        return str(value)

    def panel_text(self, step: Step) -> List[Tuple[str, str]]:
        out = []
        for label, value in self.panel(step):
            money = label.startswith(("Cash", "Treasury", "Share price"))
            out.append((label, self.money(value) if money and value is not None
                        else self.shown(value)))
        return out


def _actor(data: dict, entry: dict, players: Dict[str, str]) -> str:
    entity = entry.get("entity")
    if entry.get("entity_type") == "player" or isinstance(entity, int):
        return players.get(str(entity), str(entity))
    return str(entity) if entity is not None else "—"


def _program(entry: dict) -> Optional[str]:
    """A standing order a player gives (``program_*`` entries), in words."""
    kind = entry.get("type")
    if kind == "program_share_pass":
        return "sets a standing order to pass in this stock round"
    if kind == "program_buy_shares":
        until = entry.get("until_condition")
        until = "it floats" if until == "float" else f"they hold {until}%"
        return f"sets a standing order to buy shares of {entry.get('corporation')} until {until}"
    if kind and kind.startswith("program_"):
        return "changes a standing order"
    return None


def _narrate(entry: dict, actor: str, new: List[str]) -> List[str]:
    kind = entry.get("type")
    if kind in UNDONE:
        return [f"{actor} {UNDONE[kind]}."]
    if kind == "message":
        return [f"{actor} says: {entry.get('message', '')}"]
    lines = [m.strip("- ").strip() if m.startswith("--") else m for m in new]
    program = _program(entry)
    if program:
        lines.insert(0, f"{actor} {program}.")
    return [line for line in lines if line] or [f"{actor}: {str(kind).replace('_', ' ')}."]


def walk(data: dict, start: int = 0, end: Optional[int] = None,
         follow: Sequence = (), companies: Sequence[str] = (),
         operating_rounds: Optional[int] = None) -> Walk:
    """Entries ``start`` to ``end`` (both included; log positions from 0) of an export,
    or (``operating_rounds``) up to the end of that many operating rounds.
    ``follow``: player ids or names (default: the first player); ``companies``: symbols
    (default: the first corporation the first followed player presides in the walk)."""
    entries = data.get("actions") or []
    end = len(entries) - 1 if end is None else min(end, len(entries) - 1)
    if not 0 <= start <= end:
        raise GameError(f"--from {start} --to {end}: the game has entries 0 to "
                        f"{len(entries) - 1}")
    players = {str(p["id"]): str(p["name"]) for p in data.get("players") or []}
    with collector_paused():
        game = open_game(data, keep_log=True)
        out = Walk(str(data.get("title")), game.table.money, players,
                   loans=game.table.spec.data.loans is not None)
        for index, entry in enumerate(entries[:end + 1]):
            table = game.table
            before = len(table.messages)
            try:
                game.apply(entry)
            except GameError as e:
                raise type(e)(f"log entry {index}: {e}") from e
            if index < start:
                continue
            new = game.table.messages[before:] if game.table is table else []
            actor = _actor(data, entry, players)
            state = snapshot(game, index, entry)
            if operating_rounds is not None and _past(out.steps, state, operating_rounds):
                break
            out.steps.append(Step(index, entry, actor, _narrate(entry, actor, new), state))
    out.follow = [_player_id(players, p) for p in follow] or list(players)[:1]
    out.companies = list(companies) or _presided(out)
    return out


def _player_id(players: Dict[str, str], who) -> str:
    who = str(who)
    if who in players:
        return who
    for pid, name in players.items():
        if name == who:
            return pid
    raise GameError(f"no player {who!r} in the game: {', '.join(players.values())}")


def _presided(w: Walk) -> List[str]:
    """The first corporation (or minor) a followed player owns during the walk."""
    for step in w.steps:
        for pid in w.follow:
            for sym, c in step.state["corporations"].items():
                if c["president"] == pid:
                    return [sym]
            for sym, m in step.state["minors"].items():
                if m["owner"] == pid:
                    return [sym]
    return []


def _past(steps: List[Step], state: dict, count: int) -> bool:
    """Whether ``state`` lies after the ``count``-th operating round of the game so far."""
    seen = list(dict.fromkeys(s.state["turn"] for s in steps
                              if s.state["round"] == OPERATING))
    if len(seen) < count:
        return False
    return state["round"] != OPERATING or state["turn"] not in seen


OPERATING = "Operating Round"


def operating_round_end(states: Iterable[dict], count: int = 2) -> int:
    """The last position of the ``count``-th operating round, in trace lines (or the
    last line if the game has fewer)."""
    seen: List[str] = []
    last = 0
    for line in states:
        if len(seen) >= count and (line["round"] != OPERATING or line["turn"] not in seen):
            break
        if line["round"] == OPERATING and line["turn"] not in seen:
            seen.append(line["turn"])
        last = line["i"]
    return last


def brief(w: Walk) -> List[Step]:
    """The steps a reader following the walk needs: the first, those a followed player or
    company takes, and those that change the panel."""
    out: List[Step] = []
    followed = {w.players.get(p, p) for p in w.follow} | set(w.companies)
    last = None
    for step in w.steps:
        panel = w.panel(step)
        if not out or step.actor in followed or panel != last:
            out.append(step)
        last = panel
    return out


def document(w: Walk, title: Optional[str] = None, short: bool = False) -> Section:
    """The walkthrough as a document (see ``guide.document``); ``short``: only the
    :func:`brief` steps."""
    who = ", ".join(w.players.get(p, p) for p in w.follow)
    doc = Section(title or f"{w.title}: entries {w.steps[0].index}-{w.steps[-1].index}",
                  [Para(f"Following {who}" + (f" and {', '.join(w.companies)}"
                                              if w.companies else "")
                        + ". The state panel after each step is the replay's"
                        + (" (only the steps that concern them)." if short else "."))])
    for step in brief(w) if short else w.steps:
        panel = w.panel_text(step)
        doc.add(Section(step.heading, [Bullets(step.lines),
                                       Table([k for k, _ in panel], [[v for _, v in panel]])
                                       if panel else None]))
    return doc
