"""The facts a guide states, read from a title's data and settings: by player count, the
phases, the trains, the companies, the market and how the game ends. Every number a guide
prints comes from here (or from a replay)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from ..spec.data import CorporationSpec, PhaseSpec, StopAllowance, TitleData, TrainSpec
from ..spec.resolved import GameSpec
from ..spec.settings import EndTiming, EndTrigger, Settings
from ..title import Title


@dataclass
class Facts:
    """A title's data for each player count, and what is read from it."""
    title: Title
    by_players: Dict[int, TitleData]
    spec: GameSpec                    # the game for the most players (map, market)

    @property
    def settings(self) -> Settings:
        return self.title.settings

    @property
    def data(self) -> TitleData:
        """The data for the most players (what does not depend on the count)."""
        return self.by_players[max(self.by_players)]

    def money(self, amount: Optional[int]) -> str:
        return "unlimited" if amount is None else self.settings.format_money(amount)

    @property
    def counts(self) -> List[int]:
        return sorted(self.by_players)


def slug(title: Title) -> str:
    """The title's name for file names: "1893", "the-old-prince-1871"."""
    return re.sub(r"[^a-z0-9]+", "-", title.name.lower()).strip("-")


def facts(title: Title) -> Facts:
    low, high = title.player_range
    by_players = {n: title.data(n, ()) for n in range(low, high + 1)}
    return Facts(title, by_players, title.game_spec(high, ()))


def per_players(f: Facts, value) -> str:
    """``value(data)`` for each player count: one value, or each count's ("3 (4 players),
    4 (5-6 players)")."""
    values = [(n, value(f.by_players[n])) for n in f.counts]
    if len({v for _, v in values}) == 1:
        return str(values[0][1])
    groups: List[Tuple[List[int], object]] = []
    for n, v in values:
        if groups and groups[-1][1] == v:
            groups[-1][0].append(n)
        else:
            groups.append(([n], v))
    return ", ".join(f"{v} ({g[0]}{'-' + str(g[-1]) if len(g) > 1 else ''} players)"
                     for g, v in groups)


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def listing(items: Sequence[str], last: str = "and") -> str:
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


# -- trains -----------------------------------------------------------------------------


def distance(train: TrainSpec, unit: Optional[str] = None) -> str:
    """How far a train runs (``unit``: what a title's trains count, if not stops)."""
    if isinstance(train.distance, int):
        if train.distance >= 99:
            return "any number of stops"
        unit = "hex sides" if train.hex_distance else (unit or "stops")
        return f"{train.distance} {unit}"
    parts = []
    for a in train.distance:
        kinds = "/".join(a.kinds)
        parts.append(f"all {kinds}s" if a.pay >= 99 else f"{a.pay} {kinds}s")
    return " + ".join(parts)


def train_count(f: Facts, name: str) -> str:
    def count(d: TitleData) -> str:
        t = next((t for t in d.trains if t.name == name), None)
        if t is None:
            return "0"
        return f"{t.count}, then unlimited" if t.unlimited else str(t.count)
    return per_players(f, count)


def phase_of_train(f: Facts, name: str) -> Optional[PhaseSpec]:
    return next((p for p in f.data.phases if name in p.on), None)


def train_price(f: Facts, name: str) -> Optional[int]:
    t = next((t for t in f.data.trains if t.name == name), None)
    return None if t is None else t.price


def rusting_in(f: Facts, phase: PhaseSpec) -> Tuple[List[str], List[str]]:
    """The trains that rust, and those made obsolete, when ``phase`` begins."""
    rust = [t.name for t in f.data.trains if set(t.rusts_on) & set(phase.on)]
    obsolete = [t.name for t in f.data.trains if set(t.obsolete_on) & set(phase.on)]
    return rust, obsolete


def train_rows(f: Facts, event_text, unit: Optional[str] = None) -> List[List[str]]:
    rows = []
    for t in f.data.trains:
        discounts = ", ".join(f"{name} for {f.money(d)} off" for name, d in t.discount)
        rows.append([t.name, distance(t, unit), f.money(t.price), train_count(f, t.name),
                     listing([f"first {n}" for n in t.rusts_on], "or") or "never",
                     listing([f"first {n}" for n in t.obsolete_on], "or") or "-",
                     f"phase {t.available_on}" if t.available_on else "-",
                     discounts or "-",
                     "; ".join(event_text(e.kind) for e in t.events) or "-"])
    return rows


TRAIN_HEADER = ["Train", "Runs", "Price", "Number", "Rusts with", "Obsolete with",
                "Also sold from", "Trade-in", "Its first purchase"]


# -- phases -----------------------------------------------------------------------------


def train_limit(phase: PhaseSpec) -> str:
    if isinstance(phase.train_limit, int):
        return str(phase.train_limit)
    return ", ".join(f"{kind} {n}" for kind, n in phase.train_limit)


def phase_start(f: Facts, phase: PhaseSpec) -> str:
    if not phase.on:
        return "the start"
    return listing([f"first {n} ({f.money(train_price(f, n))})" for n in phase.on], "or")


# -- market -----------------------------------------------------------------------------


def par_prices(f: Facts, kinds: Sequence[str]) -> List[int]:
    """Prices of the market cells of these kinds, lowest first, once each."""
    return sorted({c.price for c in f.spec.cells.values() if c.kind in kinds})


def market_rows(f: Facts) -> List[List[str]]:
    out = []
    for row in f.spec.rows:
        out.append(["" if c is None else str(c.price) + "".join(
            MARK.get(k, "") for k in c.kinds) for c in row])
    return out


# What the marks after a price mean in the market grid.
MARK = {"par": "p", "par_1": "p1", "par_2": "p2", "par_3": "p3", "endgame": "e",
        "close": "c", "safe_par": "s", "liquidation": "l", "acquisition": "a",
        "phase_limited": "u", "pays_bonus": "B", "par_overlap": "P"}
MARK_TEXT = {"p": "a starting (par) price",
             "p1": "a starting price of its own (see the phases and special mechanics)",
             "p2": "a starting price of its own (see the phases and special mechanics)",
             "p3": "a starting price of its own (see the phases and special mechanics)",
             "e": "the game ends when a price gets here", "c": "a corporation here closes",
             "s": "a safe starting price", "l": "liquidation zone", "a": "acquisition zone",
             "u": "entered only once the phase allows", "B": "pays a bonus per share"}


def top_price(f: Facts) -> int:
    ends = [c.price for c in f.spec.cells.values() if c.kind == "endgame"]
    return max(ends) if ends else max(c.price for c in f.spec.cells.values())


# -- companies --------------------------------------------------------------------------


def shares(c: CorporationSpec) -> str:
    """A corporation's certificates: "president's 20% + 8 × 10%"."""
    first, rest = c.shares[0], c.shares[1:]
    counts: Dict[int, int] = {}
    for s in rest:
        counts[s] = counts.get(s, 0) + 1
    text = [f"president's {first}%"] + [f"{n} × {p}%" for p, n in counts.items()]
    return " + ".join(text) + f" ({plural(len(c.shares), 'certificate')})"


def home(c, at_start: Sequence[Tuple[Optional[str], str]] = ()) -> str:
    if c.home is None:
        placed = [h for sym, h in at_start if sym == c.sym]
        return f"{listing(placed)} (a token from the start)" if placed else "none"
    if isinstance(c.home, tuple):
        return "one of " + listing(c.home, "or")
    return c.home


def tokens(f: Facts, prices: Sequence[int]) -> str:
    return f"{len(prices)}: " + ", ".join(f.money(p) for p in prices)


# -- the end ----------------------------------------------------------------------------

TIMING_TEXT = {
    EndTiming.IMMEDIATELY: "the game ends at once",
    EndTiming.END_OF_ROUND: "the game ends with the current round",
    EndTiming.END_OF_OPERATING_ROUND: "the game ends with the current operating round",
    EndTiming.END_OF_SET: "the current set of operating rounds is finished",
    EndTiming.ONE_MORE_SET: "one more full set (stock round and operating rounds) is played",
    EndTiming.AFTER_IT_OPERATES: "the game ends once that corporation has operated",
}


def end_triggers(f: Facts) -> List[str]:
    s = f.settings
    out = []
    for trigger, timing in s.end_triggers:
        if trigger is EndTrigger.BANKRUPTCY:
            who = "a player" if s.bankruptcy_ends.value == "one" else \
                "all players but one"
            what = f"{who} going bankrupt"
        elif trigger is EndTrigger.BANK_BROKEN:
            if f.data.bank_cash is None:
                continue
            what = f"the bank ({f.money(f.data.bank_cash)}) running out of money"
        elif trigger is EndTrigger.MARKET_TOP:
            what = f"a share price reaching {f.money(top_price(f))}"
        elif trigger is EndTrigger.FINAL_PHASE:
            last = f.data.phases[-1]
            what = f"the last phase, {last.name}, beginning ({phase_start(f, last)})"
        elif trigger is EndTrigger.FINAL_TRAIN:
            what = f"the last train ({f.data.trains[-1].name}) being bought"
        else:
            what = "every corporation closing"
        out.append(f"{what[0].upper()}{what[1:]}: {TIMING_TEXT[timing]}.")
    return out


def stops_note(train: TrainSpec) -> Optional[StopAllowance]:
    return None if isinstance(train.distance, int) else train.distance[0]
