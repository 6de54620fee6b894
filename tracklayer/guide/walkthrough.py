"""A walkthrough of a real game: entries A to B of an 18xx.games export told in plain
English ("Player 2 buys a 10% share of IFP for L.90"), each headed by the round in which
it was taken and followed by a state panel (the followed players' cash and holdings, the
followed companies' treasury, share price, trains and loans).

Every number comes from replaying the game: the narration is the engine's log of each
action (completed where the log is silent: votes, bond sales, minors paying half), the
panel its state in the trace format (``tracklayer/trace.py``). An entry later taken back
by an ``undo`` says so in its heading, once; the undo itself names what it takes back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..errors import GameError
from ..io.export import open_game
from ..snapshot import collector_paused
from ..spec.settings import MinorDividend
from ..state.model import MinorState
from ..trace import snapshot
from .document import Bullets, Para, Section, Table

OPERATING = "Operating Round"


def round_label(table) -> str:
    """The round being played, as a player names it: "Stock Round 2", "Operating Round
    1.2", "Merger Round 3" (1893's vote on AGV and HGK), "Acquisition Round 1.1"."""
    r = table.state.round
    name = r.NAME
    if r.is_merger and r.is_stock:
        name = "Merger Round"
    number = f"{table.state.turn}.{r.number}" if r.NUMBERED_IN_SET else f"{table.state.turn}"
    return f"{name} {number}"


@dataclass
class Step:
    """One log entry: what it was, where it was taken, what happened, the state after."""
    index: int
    entry: dict
    actor: str
    lines: List[str]
    state: dict                       # the trace line after the entry
    taken_in: str = ""                # the round in which the entry was taken
    phase: str = ""                   # the phase in which it was taken
    undone_by: List[int] = field(default_factory=list)    # undo entries taking it back
    redone_by: List[int] = field(default_factory=list)    # redo entries putting it back

    @property
    def heading(self) -> str:
        where = self.taken_in or f"{self.state['round']} {self.state['turn']}"
        phase = self.phase or self.state["phase"]
        text = f"{self.index}. {where}, phase {phase}: {self.actor}"
        if self.undone_by:
            text += f" (taken back by entry {self.undone_by[0]}"
            text += f", put back by entry {self.redone_by[0]})" if self.redone_by else ")"
        return text

    @property
    def kept(self) -> bool:
        """Whether the entry is a move that stood (not taken back, not undo or redo)."""
        return not self.undone_by and self.entry.get("type") not in ("undo", "redo")


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
            out.append((f"Holdings {self.players.get(pid, pid)}", None if p is None else tuple(
                [f"{sym} {pct}%" for sym, pct in sorted(p["shares"].items())]
                + list(p["companies"]))))
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

    def shown(self, value, joint: str = " + ") -> str:
        if value is None:
            return "—"
        if isinstance(value, tuple):
            return joint.join(value) or "—"
        return str(value)

    def panel_text(self, step: Step) -> List[Tuple[str, str]]:
        out = []
        for label, value in self.panel(step):
            money = label.startswith(("Cash", "Treasury", "Share price"))
            out.append((label, self.money(value) if money and value is not None
                        else self.shown(value, ", " if label.startswith("Holdings") else " + ")))
        return out


def _actor(entry: dict, players: Dict[str, str]) -> str:
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
    if kind == "program_disable":
        return "cancels their standing orders"
    if kind and kind.startswith("program_"):
        return "changes a standing order"
    return None


def _before(table, entry: dict) -> Dict[str, object]:
    """What the narration needs of the position before the entry: for a vote, what is
    voted on and the voter's weight; for a company sold, its name and kind."""
    out: Dict[str, object] = {}
    r = table.state.round
    kind = entry.get("type")
    if kind == "special_buy" and r.is_merger and r.is_stock and r.target() is not None:
        voter = r.acting()
        out["vote"] = (r.target().name, r.votes.get(voter, 0) if voter is not None else 0)
    if kind in ("sell_company", "buy_company") and entry.get("company"):
        try:
            company = table.company(entry["company"])
        except (KeyError, GameError):
            company = None
        if company is not None:
            out["company"] = company.name + (" (a bond)" if company.spec.stack else "")
    return out


def _silent(entry: dict, actor: str, before: Dict[str, object], money) -> Optional[str]:
    """An action the engine's log says nothing of, in words."""
    kind = entry.get("type")
    if kind == "special_buy" and "vote" in before:
        target, weight = before["vote"]
        return f"{actor} votes {entry.get('description')} on forming {target} ({weight}% of " \
               "the votes)"
    if kind == "sell_company":
        what = before.get("company", entry.get("company"))
        return f"{actor} sells {what} to the bank for {money(entry.get('price', 0))}"
    if kind == "choose":
        return f"{actor} chooses \"{entry.get('choice')}\""
    if kind == "pass":
        return f"{actor} passes"
    return None


def _half_payouts(lines: List[str], halves: Dict[str, Tuple[str, int]], money) -> List[str]:
    """A minor paying half its revenue is logged as "withholds" then "receives": said as
    one payout of half to its owner, half kept."""
    out: List[str] = []
    skip = set()
    for i, line in enumerate(lines):
        if i in skip:
            continue
        for sym, (owner, revenue) in halves.items():
            if line.startswith(f"{sym} withholds ") and i + 1 < len(lines) and \
                    lines[i + 1].startswith(f"{owner} receives "):
                kept = line[len(f"{sym} withholds "):]
                paid = lines[i + 1][len(f"{owner} receives "):]
                line = (f"{sym} pays half its {money(revenue)}: {paid} to {owner}, {kept} "
                        "kept in its treasury")
                skip.add(i + 1)
        out.append(line)
    return out


def _minors_paying_half(table, operated: Dict[str, int]) -> Dict[str, Tuple[str, int]]:
    """The minors (paying half, as the title says) that operated during the entry: their
    owner's name and the revenue they shared."""
    if table.settings.minor_dividend is not MinorDividend.HALF:
        return {}
    out = {}
    for m in table.state.minors:
        if isinstance(m, MinorState) and len(m.history) > operated.get(m.sym, 0) and \
                m.owner is not None:
            out[m.sym] = (m.owner.name, m.history[-1].revenue)
    return out


def _narrate(entry: dict, actor: str, new: List[str], before: Dict[str, object],
             money) -> List[str]:
    kind = entry.get("type")
    if kind == "message":
        return [f"{actor} says: {entry.get('message', '')}"]
    lines = [m.strip("- ").strip() if m.startswith("--") else m for m in new]
    program = _program(entry)
    if program:
        lines.insert(0, f"{actor} {program}.")
    silent = _silent(entry, actor, before, money)
    if silent and (kind not in ("pass", "choose") or not lines):
        lines.insert(0, silent)
    return [line for line in lines if line] or [f"{actor}: {str(kind).replace('_', ' ')}."]


def _summary(step: Optional[Step], index: int) -> str:
    if step is None:
        return f"entry {index}"
    return f"entry {index} ({step.lines[0].rstrip('.')})"


def _takes_back(entry: dict, actor: str, indices: List[int], steps: Dict[int, Step]) -> str:
    verb = "takes back" if entry.get("type") == "undo" else "puts back"
    if not indices:
        return f"{actor} {verb} nothing."
    if len(indices) == 1:
        return f"{actor} {verb} {_summary(steps.get(indices[0]), indices[0])}."
    return f"{actor} {verb} entries {indices[0]}-{indices[-1]}, from " \
           f"{_summary(steps.get(indices[0]), indices[0])} to " \
           f"{_summary(steps.get(indices[-1]), indices[-1])}."


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
    everything: Dict[int, Step] = {}
    with collector_paused():
        game = open_game(data, keep_log=True)
        out = Walk(str(data.get("title")), game.table.money, players,
                   loans=game.table.spec.data.loans is not None)
        for index, entry in enumerate(entries[:end + 1]):
            table = game.table
            taken_in, phase = round_label(table), table.phase.name
            before = _before(table, entry)
            operated = {m.sym: len(m.history) for m in table.state.minors}
            redoing = [i for _, i in game.history.redo_groups[-1]] \
                if entry.get("type") == "redo" and game.history.redo_groups else []
            count = len(table.messages)
            try:
                game.apply(entry)
            except GameError as e:
                raise type(e)(f"log entry {index}: {e}") from e
            actor = _actor(entry, players)
            state = snapshot(game, index, entry)
            kind = entry.get("type")
            if kind in ("undo", "redo"):
                indices = sorted(i for _, i in game.history.redo_groups[-1]) \
                    if kind == "undo" else sorted(redoing)
                for i in indices:
                    if i in everything:
                        (everything[i].undone_by if kind == "undo"
                         else everything[i].redone_by).append(index)
                lines = [_takes_back(entry, actor, indices, everything)]
            else:
                new = game.table.messages[count:] if game.table is table else []
                new = _half_payouts(new, _minors_paying_half(game.table, operated),
                                    game.table.money)
                lines = _narrate(entry, actor, new, before, game.table.money)
            step = Step(index, entry, actor, lines, state, taken_in, phase)
            everything[index] = step
            if index < start:
                continue
            if operating_rounds is not None and _past(out.steps, state, operating_rounds):
                break
            out.steps.append(step)
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
    """The steps a reader following the walk needs: the first, and of the moves that
    stood (nothing taken back, no undo or redo) those a followed player or company takes
    and those that change the panel."""
    out: List[Step] = []
    followed = {w.players.get(p, p) for p in w.follow} | set(w.companies)
    last = None
    for step in w.steps:
        panel = w.panel(step)
        if not out or (step.kept and (step.actor in followed or panel != last)):
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
                        + ". Each entry is headed by the round in which it was taken; the "
                        "state panel after it is the replay's"
                        + (" (only the moves that stood and concern them)." if short else "."))])
    for step in brief(w) if short else w.steps:
        panel = w.panel_text(step)
        doc.add(Section(step.heading, [Bullets(step.lines),
                                       Table([k for k, _ in panel], [[v for _, v in panel]])
                                       if panel else None]))
    return doc
