"""A title's worked example: a short game shipped with tracklayer
(``guide/examples/<title>.json``, an 18xx.games export of its opening rounds, played by the
project's bots with a few moves scripted), replayed from the first round to the end of the
first set of operating rounds and told move by move, as the seed documents' "round by
round" does: each move with the rule that allows it and the arithmetic behind every
number, and a state panel (the followed player's cash, the followed companies' treasury,
share price and trains) after each step.

Every number is worked out from the engine's state as the game replays
(:mod:`tracklayer.guide.explain`); each calc says which value of the game its result is,
and ``tests/test_worked_example.py`` checks them all against a replay of its own."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ..errors import GameError
from ..io.export import open_game
from ..snapshot import collector_paused
from ..title import Title
from ..trace import snapshot
from .arith import Calc, Line
from .document import Bullets, Para, Section, Table
from .moments import Context, Moment, prepare, runs
from .consequences import look_ahead
from .tell import explain
from .facts import facts, listing, slug
from .notes import notes
from .walkthrough import round_label

EXAMPLES = Path(__file__).resolve().with_name("examples")


def example_path(title: Title) -> Path:
    """Where the title's example game is shipped."""
    return EXAMPLES / f"{slug(title)}.json"


def _cells(table) -> Dict[str, Tuple[int, int]]:
    return {c.sym: c.price for c in table.state.corporations if c.price is not None}


def replay(data: dict) -> Tuple[List[Moment], object, List[str]]:
    """The example game's entries, each with the position before and after it; the game
    after them; what it logged as it was set up."""
    moments: List[Moment] = []
    with collector_paused():
        game = open_game(data, keep_log=True)
        said = list(game.table.messages)
        before = snapshot(game, -1, {})
        for index, entry in enumerate(data.get("actions") or []):
            if entry.get("type") in ("undo", "redo", "message"):
                raise GameError(f"entry {index}: an example game has moves only, not "
                                f"{entry.get('type')}")
            table = game.table
            taken_in, phase = round_label(table), table.phase.name
            cells = _cells(table)
            pre = prepare(table, entry)
            operated = {o.sym: len(o.history) for o in
                        list(table.state.corporations) + list(table.state.minors)}
            count = len(table.messages)
            try:
                game.apply(entry)
            except GameError as e:
                raise type(e)(f"example entry {index}: {e}") from e
            table = game.table
            after = snapshot(game, index, entry)
            done = {o.sym: o.history[-1] for o in
                    list(table.state.corporations) + list(table.state.minors)
                    if len(o.history) > operated.get(o.sym, 0)}
            moments.append(Moment(index, entry, taken_in, phase, before, after, cells,
                                  _cells(table), table.messages[count:], pre, done,
                                  round_label(table), table.phase.name))
            before = after
    return moments, game, said


@dataclass
class Step:
    """One step of the example: one move of the followed player or companies, or the
    moves of the others in between; the state after it."""
    number: int
    taken_in: str
    phase: str
    title: str
    lines: List[Line]
    moments: List[Moment]

    @property
    def state(self) -> dict:
        return self.moments[-1].after

    @property
    def index(self) -> int:
        return self.moments[-1].index

    def calcs(self) -> List[Calc]:
        return [c for ln in self.lines for c in ln.calcs()]


@dataclass
class Worked:
    """A worked example: its game, whom it follows, its steps."""
    title: Title
    data: dict
    ctx: Context
    steps: List[Step] = field(default_factory=list)
    intro: List[Line] = field(default_factory=list)
    ahead: List[Line] = field(default_factory=list)

    def panel(self, state: dict) -> List[Tuple[str, object]]:
        """(label, raw value) after a step: the followed player's cash, each followed
        company's treasury, share price, trains (and loans, where the title lends)."""
        ctx = self.ctx
        p = state["players"].get(ctx.player)
        out: List[Tuple[str, object]] = [(f"Cash {ctx.name(ctx.player)}",
                                          None if p is None else p["cash"])]
        for sym in ctx.companies:
            c = state["corporations"].get(sym)
            m = state["minors"].get(sym)
            held = c or m
            if c is not None and c["price"] is None and not c["cash"]:
                held = None              # not started yet
            out.append((f"Treasury {sym}", None if held is None else held["cash"]))
            if sym in ctx.corporations:
                out.append((f"Share price {sym}", None if c is None else c["price"]))
            out.append((f"Trains {sym}", None if held is None else tuple(held["trains"])))
            if ctx.loans and sym in ctx.corporations:
                out.append((f"Loans {sym}", None if c is None else c["loans"]))
        return out

    def panel_text(self, state: dict) -> List[Tuple[str, str]]:
        out = []
        for label, value in self.panel(state):
            if value is None:
                shown = "—"
            elif isinstance(value, tuple):
                shown = " + ".join(value) or "—"
            elif label.startswith(("Cash", "Treasury", "Share price")):
                shown = self.ctx.money(value)
            else:
                shown = str(value)
            out.append((label, shown))
        return out

    def calcs(self) -> List[Calc]:
        return [c for s in self.steps for c in s.calcs()] + \
            [c for ln in self.intro + self.ahead for c in ln.calcs()]


def _followed(ctx: Context, moves: List[Moment]) -> bool:
    """Whether the followed player or a followed company takes part in the moves."""
    return any(m.actor_id == ctx.player or m.actor_id in ctx.companies for m in moves)


def group(moments: List[Moment], ctx: Context) -> List[List[Moment]]:
    """The moves in steps: each run (:func:`runs`) the followed player or companies take
    part in on its own (a pass joining the followed move before it, in the same round),
    the others' runs in between together (within one round)."""
    out: List[List[Moment]] = []
    for run in runs(moments):
        last = out[-1] if out else None
        same_round = last is not None and last[-1].taken_in == run[0].taken_in
        if _followed(ctx, run):
            joins = len(run) == 1 and run[0].kind in ("pass", last[-1].kind if last else "") \
                and run[0].kind != "bid"
            if same_round and joins and last[-1].actor_id == run[0].actor_id and \
                    _followed(ctx, last):
                last.extend(run)
            else:
                out.append(list(run))
        elif same_round and not _followed(ctx, last):
            last.extend(run)
        else:
            out.append(list(run))
    return out


def build(title: Title, data: dict) -> Worked:
    """The worked example of ``data`` (an example game of ``title``)."""
    f = facts(title)
    moments, game, said = replay(data)
    follow = data.get("follow") or {}
    ctx = Context.make(f, notes(f), game, str(follow.get("player", data["players"][0]["id"])),
                       list(follow.get("companies") or ()))
    worked = Worked(title, data, ctx)
    for number, moves in enumerate(group(moments, ctx), 1):
        heading, lines = explain(moves, ctx)
        worked.steps.append(Step(number, moves[0].taken_in, moves[0].phase, heading, lines,
                                 moves))
    worked.intro = ctx.intro(moments[0].before, data, said)
    worked.ahead = look_ahead(game.table, ctx)
    return worked


@lru_cache(maxsize=None)
def _worked(name: str) -> Optional[Worked]:
    from ..titles import TITLES
    title = TITLES[name]
    path = example_path(title)
    if not path.is_file():
        return None
    with open(path, encoding="utf-8") as f:
        return build(title, json.load(f))


def worked(title: Title) -> Optional[Worked]:
    """The title's worked example, if one is shipped (worked out once per title)."""
    from ..titles import TITLES
    if TITLES.get(title.name) is not title:
        return None
    return _worked(title.name)


def section(w: Worked) -> Section:
    """The worked example as the guide's "Round by round" section."""
    fmt = w.ctx.money
    players = len(w.data["players"])
    follow = [w.ctx.name(w.ctx.player)] + w.ctx.companies
    doc = Section("Round by round", [
        Para(f"A worked example: a game of {players} players, from its first round to the "
             f"end of its second operating round. We follow {listing(follow)}. "
             + str(w.data.get("made_by", "")) + " Every number below is the engine's, worked "
             "out as the game replays; a test checks each one."),
        Bullets([ln.text(fmt) for ln in w.intro])])
    for step in w.steps:
        panel = w.panel_text(step.state)
        doc.add(Section(f"{step.number}. {step.taken_in}, phase {step.phase}: {step.title}", [
            Bullets([ln.text(fmt) for ln in step.lines]),
            Table([k for k, _ in panel], [[v for _, v in panel]])]))
    doc.add(Section("What next", [Bullets([ln.text(fmt) for ln in w.ahead])]))
    return doc


def worked_example(title: Title) -> Optional[Section]:
    """The guide's worked example of ``title`` (None if none is shipped)."""
    w = worked(title)
    return None if w is None else copy.deepcopy(section(w))

