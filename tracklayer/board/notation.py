"""Tile notation: how tracklayer writes a tile.

A tile is a list of parts separated by ``;``. A part is a kind, then positional arguments
and ``key=value`` options::

    city 20 ; path 0 N0 ; path N0 3                     # tile 57: a city on a straight
    town 10 ; town 10 ; path 1 N0 ; path N0 3 ; label L
    offboard yellow:20,green:30,brown:50 group=Aachen hide ; path 5 N0 terminal
    city 0 ; upgrade 40 water ; border 4 water 0 ; label K

=============  =====================================================================
``city R``     a city with revenue R; options ``slots=N``, ``group=A/B``, ``hide``,
               ``visit_cost=N``, ``route=optional``, ``loc=X``, ``boom``
``town R``     a town; options as for a city plus ``style=rect``, ``to_city``
``offboard R`` an off-board revenue location
``junction``   a track junction (Lawson tiles)
``path A B``   track between A and B: a hex side 0-5 or ``Nk``, the k-th node part
               (city, town, off-board or junction) of the tile; options ``terminal[=N]``,
               ``track=broad|narrow|dual``, ``lanes=N``, ``a_lane=W.I``, ``b_lane=W.I``,
               ``ignore``
``label L``    a tile label (``K``, ``BX``, ``OO`` …)
``upgrade C T`` terrain costing C to build on; T is ``mountain``, ``water`` … (``/``-separated)
``border E T C`` a hex side E that is ``impassable`` or costs C to cross (``water`` …)
``icon I``     an icon; options ``name=``, ``sticky``, ``blocks_lay``, ``large``, ``loc=``
``stub E``     a stub of track on side E that new track must connect to
``partition A B T``  a line across the hex (drawn only)
=============  =====================================================================

A revenue R is a number, or one per phase colour: ``yellow:20,green:30,brown:50``.

The position of a part in the list is part of its identity: a city is called
``<tile id>-<part index>``, as in the 18xx.games action format.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Optional, Tuple, Union

SIDES = (0, 1, 2, 3, 4, 5)

# The phase colours a revenue written as a single number applies to.
REVENUE_COLORS = ("yellow", "green", "brown", "gray", "diesel")

FLAG_WORDS = ("hide", "terminal", "boom", "sticky", "blocks_lay", "ignore", "large", "to_city")


class NotationError(ValueError):
    """A tile written in tile notation cannot be read."""


# -- parts ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StopPart:
    """A city, town or off-board: somewhere a train can stop."""

    kind: str                      # "city", "town" or "offboard"
    index: int                     # position in the tile's list of parts
    revenue: Tuple[Tuple[str, int], ...]
    slots: int = 1
    groups: Tuple[str, ...] = ()
    hidden: bool = False
    visit_cost: int = 1
    optional: bool = False         # route=optional: a stop a route need not count
    loc: Optional[str] = None
    boom: bool = False
    style: Optional[str] = None
    to_city: bool = False          # a town that a city may replace on upgrade

    @property
    def is_city(self) -> bool:
        return self.kind == "city"

    @property
    def is_town(self) -> bool:
        return self.kind == "town"

    @property
    def is_offboard(self) -> bool:
        return self.kind == "offboard"

    def revenue_table(self) -> dict:
        return dict(self.revenue)

    @property
    def best_revenue(self) -> int:
        return max(v for _, v in self.revenue)


@dataclass(frozen=True)
class JunctionPart:
    index: int
    kind: str = "junction"


# A track end: a hex side (its number and lane), or a node part (by its part index).
@dataclass(frozen=True)
class SideEnd:
    side: int
    lane: Tuple[int, int] = (1, 0)   # (lanes on this side, which one)


@dataclass(frozen=True)
class NodeEnd:
    part: int                      # index of the stop or junction part


End = Union[SideEnd, NodeEnd]


@dataclass(frozen=True)
class TrackPart:
    """A piece of track between two ends."""

    index: int
    a: End
    b: End
    terminal: Optional[str] = None
    gauge: str = "broad"
    ignore: bool = False


@dataclass(frozen=True)
class LabelPart:
    index: int
    text: str


@dataclass(frozen=True)
class TerrainPart:
    """Terrain on the hex: building there costs ``cost``."""

    index: int
    cost: int
    terrains: Tuple[str, ...] = ()
    size: Optional[int] = None
    loc: Optional[str] = None


@dataclass(frozen=True)
class BorderPart:
    """A hex side that cannot be crossed (``impassable``) or costs to cross."""

    index: int
    side: int
    kind: Optional[str] = None
    cost: Optional[int] = None
    color: Optional[str] = None


@dataclass(frozen=True)
class IconPart:
    index: int
    image: str
    name: str
    sticky: bool = False
    blocks_lay: bool = False
    large: bool = False
    loc: Optional[str] = None


@dataclass(frozen=True)
class StubPart:
    index: int
    side: int


@dataclass(frozen=True)
class DrawingPart:
    """Partitions, frames, stripes and future labels: drawn, no effect on play."""

    index: int
    what: str
    args: Tuple[str, ...] = field(default=())


Part = Union[StopPart, JunctionPart, TrackPart, LabelPart, TerrainPart, BorderPart, IconPart,
             StubPart, DrawingPart]


# -- reading ----------------------------------------------------------------------------------


def read_revenue(text: str) -> Tuple[Tuple[str, int], ...]:
    """``20`` → 20 in every phase colour; ``yellow:20,green:30`` → per colour."""
    if ":" in text:
        pairs = []
        for item in text.split(","):
            color, value = item.split(":")
            pairs.append((color, int(value)))
        return tuple(pairs)
    value = int(text)
    return tuple((color, value) for color in REVENUE_COLORS)


def _words(text: str):
    """A part's kind, positional arguments and options."""
    words = text.split()
    args, opts = [], {}
    for w in words[1:]:
        if "=" in w:
            key, value = w.split("=", 1)
            opts[key] = value
        elif w in FLAG_WORDS:
            opts[w] = "1"
        else:
            args.append(w)
    return words[0], args, opts


def _lane(text: Optional[str]) -> Tuple[int, int]:
    if text is None:
        return (1, 0)
    width, _, which = text.partition(".")
    return (int(width), int(which or 0))


def _stop(kind: str, index: int, args: list, opts: dict) -> StopPart:
    return StopPart(
        kind=kind, index=index, revenue=read_revenue(args[0] if args else "0"),
        slots=int(opts.get("slots", 1)),
        groups=tuple(opts["group"].split("/")) if "group" in opts else (),
        hidden="hide" in opts, visit_cost=int(opts.get("visit_cost", 1)),
        optional=opts.get("route") == "optional", loc=opts.get("loc"), boom="boom" in opts,
        style=opts.get("style"), to_city="to_city" in opts)


def _end(word: str, node_parts: list, lane) -> End:
    if word.startswith("N"):
        k = int(word[1:])
        if not 0 <= k < len(node_parts):
            raise NotationError(f"{word} is not a node declared before the path")
        return NodeEnd(node_parts[k])
    side = int(word)
    if side not in SIDES:
        raise NotationError(f"edge {side} is not a hex side 0-5")
    return SideEnd(side, lane)


def _tracks(index: int, args: list, opts: dict, node_parts: list) -> list:
    """One track part, or several side by side (``lanes=N``)."""
    terminal = opts.get("terminal")
    gauge = opts.get("track", "broad")
    ignore = "ignore" in opts
    words = args[:2]
    if len(words) < 2:
        raise NotationError("a path needs two ends")
    if "lanes" in opts:
        n = int(opts["lanes"])
        both_sides = not any(w.startswith("N") for w in words)
        out = []
        for i in range(n):
            far = (n, n - i - 1) if both_sides else (n, i)
            out.append(TrackPart(index + i, _end(words[0], node_parts, (n, i)),
                                 _end(words[1], node_parts, far), terminal, gauge, ignore))
        return out
    a = _end(words[0], node_parts, _lane(opts.get("a_lane")))
    b = _end(words[1], node_parts, _lane(opts.get("b_lane")))
    return [TrackPart(index, a, b, terminal, gauge, ignore)]


@lru_cache(maxsize=None)
def read_tile(code: str) -> Tuple[Part, ...]:
    """The parts of a tile written in tile notation (see the module docstring)."""
    parts: list = []
    node_parts: list = []  # part indexes of cities, towns, off-boards and junctions
    for raw in code.split(";"):
        raw = raw.strip()
        if not raw:
            continue
        index = len(parts)
        try:
            kind, args, opts = _words(raw)
            if kind in ("city", "town", "offboard"):
                node_parts.append(index)
                parts.append(_stop(kind, index, args, opts))
            elif kind == "junction":
                node_parts.append(index)
                parts.append(JunctionPart(index))
            elif kind == "path":
                # Lanes side by side are parts of their own, one after the other.
                parts.extend(_tracks(index, args, opts, node_parts))
            elif kind == "label":
                parts.append(LabelPart(index, " ".join(args)))
            elif kind == "upgrade":
                parts.append(TerrainPart(
                    index, int(args[0]), tuple(args[1].split("/")) if len(args) > 1 else (),
                    int(opts["size"]) if "size" in opts else None, opts.get("loc")))
            elif kind == "border":
                kind_ = args[1] if len(args) > 1 and args[1] != "-" else None
                parts.append(BorderPart(index, int(args[0]), kind_,
                                        int(args[2]) if len(args) > 2 else None,
                                        opts.get("color")))
            elif kind == "icon":
                image = args[0]
                parts.append(IconPart(index, image,
                                      opts.get("name") or image.rsplit("/", 1)[-1].split(".")[0],
                                      "sticky" in opts, "blocks_lay" in opts, "large" in opts,
                                      opts.get("loc")))
            elif kind == "stub":
                parts.append(StubPart(index, int(args[0])))
            elif kind in ("partition", "frame", "stripes", "future_label"):
                parts.append(DrawingPart(index, kind, tuple(args)))
            else:
                raise NotationError(f"unknown part kind {kind!r}")
        except (IndexError, ValueError) as e:
            if isinstance(e, NotationError):
                raise
            raise NotationError(f"cannot read tile part {raw!r}: {e}") from e
    return tuple(parts)
