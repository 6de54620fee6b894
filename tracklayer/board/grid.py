"""The hex grid: reading hex names, which hex lies across each side, distances.

Hexes are named by a letter and a number (``L3``). On a map with flat-topped hexes
(``flat``) or pointy-topped ones (``pointy``), the name gives doubled coordinates; the
sides of a hex are numbered 0-5 clockwise, and the hex across side ``s`` is found by a
fixed offset.
"""

from __future__ import annotations

import re
from typing import Dict, Optional, Tuple

LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + \
          ["A" + chr(c) for c in range(ord("A"), ord("Z") + 1)]

# The doubled-coordinate offset of the hex across each side.
SIDE_OFFSETS: Dict[str, Dict[int, Tuple[int, int]]] = {
    "flat": {0: (0, 2), 1: (-1, 1), 2: (-1, -1), 3: (0, -2), 4: (1, -1), 5: (1, 1)},
    "pointy": {0: (-1, 1), 1: (-2, 0), 2: (-1, -1), 3: (1, -1), 4: (2, 0), 5: (1, 1)},
}

_NAME = re.compile(r"^([A-Za-z]+)(-?\d+)$")


def hex_xy(name: str, letters_on_x: bool) -> Tuple[int, int]:
    """Doubled (x, y) coordinates of a hex name such as ``"L3"``."""
    m = _NAME.match(name)
    if not m:
        raise ValueError(f"not a hex coordinate: {name!r}")
    letter, number = LETTERS.index(m.group(1)), int(m.group(2)) - 1
    return (letter, number) if letters_on_x else (number, letter)


class Grid:
    """The shape of a map: its hexes and which is next to which."""

    def __init__(self, names, layout: str, letters_on_x: bool) -> None:
        if layout not in SIDE_OFFSETS:
            raise ValueError(f"unknown map layout {layout!r}")
        self.layout = layout
        self.xy = {n: hex_xy(n, letters_on_x) for n in names}
        by_xy = {xy: n for n, xy in self.xy.items()}
        self.across: Dict[str, Dict[int, str]] = {}
        for n, (x, y) in self.xy.items():
            sides = {}
            for side, (dx, dy) in SIDE_OFFSETS[layout].items():
                other = by_xy.get((x + dx, y + dy))
                if other is not None:
                    sides[side] = other
            self.across[n] = sides
        # For each hex, each neighbour with its side facing the hex.
        self.facing_sides: Dict[str, Dict[str, int]] = {
            n: {other: (side + 3) % 6 for side, other in sides.items()}
            for n, sides in self.across.items()}

    def neighbour(self, name: str, side: int) -> Optional[str]:
        return self.across[name].get(side)

    def side_towards(self, name: str, other: str) -> Optional[int]:
        """The side of hex ``name`` that faces hex ``other``, if they touch."""
        x, y = self.xy[name]
        ox, oy = self.xy[other]
        for side, (dx, dy) in SIDE_OFFSETS[self.layout].items():
            if (x + dx, y + dy) == (ox, oy):
                return side
        return None

    def distance(self, a: str, b: str) -> int:
        """Hexes between ``a`` and ``b`` as the crow flies."""
        (ax, ay), (bx, by) = self.xy[a], self.xy[b]
        dx, dy = abs(bx - ax), abs(by - ay)
        if self.layout == "pointy":
            return dy + max(0, (dx - dy) // 2)
        return dx + max(0, (dy - dx) // 2)
