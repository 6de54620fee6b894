"""Each player's value over the game (cash, shares at market, companies, as the title
scores it) at the start of every round, as the server recorded it (see values), drawn as an
SVG line chart."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from html import escape
from typing import Dict, List, Tuple

from .service import Live

PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
KEPT = 32                       # charts kept, by game and log length
_drawn: "OrderedDict[Tuple[int, int], tuple]" = OrderedDict()  # -> (the game, chart)
_lock = threading.Lock()


def values(live: Live) -> Tuple[List[str], Dict[int, List[int]]]:
    """Round labels and, per player id, the value at the start of each round and now."""
    return live.values.series(live.game)


def draw(live: Live, width: int = 640, height: int = 240) -> str:
    labels, series = values(live)
    names = {s.player_id: s.name for s in live.seats}
    top = max([max(v) for v in series.values() if v] + [1])
    n = max(len(labels) - 1, 1)
    left, bottom = 50, height - 30

    def xy(i: int, v: int) -> str:
        return f"{left + i * (width - left - 10) / n:.1f},{bottom - v * (bottom - 10) / top:.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" '
           f'height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" '
           'font-size="10">',
           f'<line x1="{left}" y1="{bottom}" x2="{width - 10}" y2="{bottom}" stroke="#999"/>',
           f'<line x1="{left}" y1="10" x2="{left}" y2="{bottom}" stroke="#999"/>',
           f'<text x="{left - 4}" y="14" text-anchor="end">{top}</text>',
           f'<text x="{left - 4}" y="{bottom}" text-anchor="end">0</text>']
    step = max(1, len(labels) // 12)
    for i in range(0, len(labels), step):
        out.append(f'<text x="{xy(i, 0).split(",")[0]}" y="{bottom + 14}" '
                   f'text-anchor="middle">{escape(labels[i])}</text>')
    for k, (pid, vals) in enumerate(series.items()):
        color = PALETTE[k % len(PALETTE)]
        points = " ".join(xy(i, v) for i, v in enumerate(vals))
        out.append(f'<polyline class="player-value" data-player="{pid}" points="{points}" '
                   f'fill="none" stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{left + 8 + 90 * k}" y="{height - 2}" fill="{color}">'
                   f'{escape(names.get(pid, str(pid)))} {vals[-1] if vals else ""}</text>')
    out.append("</svg>")
    return "".join(out)


def draw_once(live: Live) -> str:
    """The chart of the game as its log stands, drawn once and kept while the log does
    not grow: a finished game's page asks for it often."""
    key = (id(live), live.number)
    with _lock:
        found = _drawn.get(key)
        if found is not None and found[0]() is live:
            _drawn.move_to_end(key)
            return found[1]
    svg = draw(live)
    with _lock:
        _drawn[key] = (weakref.ref(live), svg)
        while len(_drawn) > KEPT:
            _drawn.popitem(last=False)
    return svg
