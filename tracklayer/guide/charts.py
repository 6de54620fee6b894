"""The train roster as a picture: one row per kind of train, one column per phase. A
train's bar starts in the phase in which it can first be bought and ends where it rusts
(a red cross, with the train whose first purchase rusts it); a train made obsolete runs
on hatched until it leaves; a train that never rusts runs to the end of the game. The
columns' heads give each phase's tile colours, operating rounds and train limit."""

from __future__ import annotations

import html
from typing import List, Optional

from .drawing import FILL, svg
from .facts import Facts, distance

LABEL = 170          # width of the trains' names
COLUMN = 64          # width of a phase
ROW = 24             # height of a train
HEAD = 72            # height of the phases' heads


def _limit(phase) -> str:
    """The train limit, short: "3", or "3 (minor 2)" where kinds differ."""
    if isinstance(phase.train_limit, int):
        return str(phase.train_limit)
    by_kind = sorted(phase.train_limit, key=lambda kv: -kv[1])
    return f"{by_kind[0][1]} (" + ", ".join(f"{k} {n}" for k, n in by_kind[1:]) + ")"


def _phase_index(f: Facts, trains) -> Optional[int]:
    """The first phase begun by one of ``trains`` (names)."""
    for i, phase in enumerate(f.data.phases):
        if set(phase.on) & set(trains):
            return i
    return None


def _start(f: Facts, index: int) -> int:
    """The phase in which the ``index``-th kind of train can first be bought: the one it
    begins, or the one after the kinds before it have begun (trains are sold in order),
    or the phase from which it is also sold."""
    t = f.data.trains[index]
    own = _phase_index(f, (t.name,))
    if own is None:
        own = max([_start(f, i) for i in range(index)], default=0)
    if t.available_on is not None:
        names = [p.name for p in f.data.phases]
        if t.available_on in names:
            own = min(own, names.index(t.available_on))
    return own


def train_roster_svg(f: Facts, unit: Optional[str] = None) -> str:
    """See the module docstring (``unit``: what the title's trains count, if not stops)."""
    e = html.escape
    phases, trains = f.data.phases, f.data.trains
    width = LABEL + COLUMN * len(phases) + 70
    height = HEAD + ROW * len(trains) + 8
    out: List[str] = []
    for i, phase in enumerate(phases):
        x = LABEL + i * COLUMN
        out.append(f'<rect x="{x}" y="0" width="{COLUMN}" height="{height}" '
                   f'fill="{"#f6f6f6" if i % 2 else "#fff"}"/>')
        out.append(f'<text x="{x + COLUMN / 2}" y="14" font-size="12" font-weight="bold" '
                   f'text-anchor="middle">{e(phase.name)}</text>')
        for k, colour in enumerate(phase.tiles):
            out.append(f'<rect x="{x + 6 + k * 13}" y="20" width="11" height="11" '
                       f'fill="{FILL.get(colour, "#fff")}" stroke="#555"/>')
        out.append(f'<text x="{x + COLUMN / 2}" y="44" font-size="9" text-anchor="middle">'
                   f'{phase.operating_rounds} OR{"s" if phase.operating_rounds > 1 else ""}'
                   f'</text>')
        limit, _, others = _limit(phase).partition(" ")
        out.append(f'<text x="{x + COLUMN / 2}" y="56" font-size="9" text-anchor="middle">'
                   f'limit {e(limit)}</text>')
        if others:
            out.append(f'<text x="{x + COLUMN / 2}" y="67" font-size="8" '
                       f'text-anchor="middle">{e(others)}</text>')
    out.append('<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
               'patternTransform="rotate(45)"><rect width="6" height="6" fill="#ddd"/>'
               '<line x1="0" y1="0" x2="0" y2="6" stroke="#888" stroke-width="3"/>'
               '</pattern></defs>')
    for row, t in enumerate(trains):
        y = HEAD + row * ROW
        count = "∞" if t.unlimited or t.count == "unlimited" else f"×{t.count}"
        out.append(f'<g><title>{e(t.name)}: {e(distance(t, unit))}</title>')
        out.append(f'<text x="4" y="{y + 15}" font-size="11"><tspan font-weight="bold">'
                   f'{e(t.name)}</tspan> {e(f.money(t.price))} {count}</text>')
        start = _start(f, row)
        rust = _phase_index(f, t.rusts_on)
        obsolete = _phase_index(f, t.obsolete_on)
        end = rust if rust is not None else len(phases)
        solid_end = obsolete if obsolete is not None and obsolete < end else end
        x0 = LABEL + start * COLUMN + 4
        out.append(f'<rect x="{x0}" y="{y + 4}" width="{max(LABEL + solid_end * COLUMN - x0 - 4, 8)}" '
                   f'height="{ROW - 8}" rx="3" fill="#4a78b5"/>')
        if solid_end < end:
            xo = LABEL + solid_end * COLUMN
            out.append(f'<rect x="{xo}" y="{y + 4}" width="{(end - solid_end) * COLUMN - 4}" '
                       f'height="{ROW - 8}" rx="3" fill="url(#hatch)" stroke="#888"/>')
            out.append(f'<text x="{xo + 4}" y="{y + 15}" font-size="9">obsolete</text>')
        if rust is not None:
            xr = LABEL + rust * COLUMN + COLUMN / 2
            out.append(f'<path d="M{xr - 6},{y + 6} l12,12 M{xr + 6},{y + 6} l-12,12" '
                       f'stroke="#c00" stroke-width="3"/>')
            out.append(f'<text x="{xr + 10}" y="{y + 16}" font-size="9" fill="#c00">rusts</text>')
        else:
            xe = LABEL + len(phases) * COLUMN
            out.append(f'<text x="{xe + 4}" y="{y + 16}" font-size="9">never rusts</text>')
        out.append('</g>')
    return svg(width, height, out)
