"""Tiles and their parts: edges, cities, towns, off-boards, paths, labels, terrain, borders.

Tiles are written in tracklayer's *tile notation*: a tile is a list of parts separated by
``;``; a part is a kind followed by positional arguments and ``key=value`` options::

    city 20 ; path 0 N0 ; path N0 3                     # tile 57: a city on a straight
    town 10 ; town 10 ; path 1 N0 ; path N0 3 ; label L
    offboard yellow:20,green:30,brown:50 group=Aachen hide ; path 5 N0 terminal
    city 0 ; upgrade 40 water ; border 4 water 0 ; label K

Kinds and their arguments:

=============  =====================================================================
``city R``     a city with revenue R; options ``slots=N``, ``group=A/B``, ``hide``,
               ``visit_cost=N``, ``route=optional``, ``loc=X``, ``boom``
``town R``     a town (dit); options as for a city plus ``style=rect``
``offboard R`` an off-board revenue location
``junction``   a track junction (Lawson tiles)
``path A B``   track between A and B: an edge number 0-5 or ``Nk``, the k-th node part
               (city/town/off-board/junction) of the tile; options ``terminal[=N]``,
               ``track=broad|narrow|dual``, ``lanes=N``, ``a_lane=W.I``, ``b_lane=W.I``
``label L``    a tile label (``K``, ``BX``, ``OO`` …)
``upgrade C T`` terrain costing C to build on; T is ``mountain``, ``water``… (``/``-separated)
``border E T C`` a hex side E that is ``impassable`` or costs C (``water``, …)
``icon I``     an icon; options ``name=``, ``sticky``, ``blocks_lay``
``stub E``     a stub of track on edge E that new track must connect to
=============  =====================================================================

R, a revenue, is a number or per phase colour: ``yellow:20,green:30,brown:50``.

The index of a part (its position in the list) is part of its identity: a city is called
``<tile id>-<part index>``, as in the 18xx.games action format.
"""

from __future__ import annotations

import re
from typing import Optional

ALL_EDGES = (0, 1, 2, 3, 4, 5)

# Order of tile colours: an upgrade goes to the next colour in this list.
COLORS = ("white", "yellow", "green", "brown", "gray", "blue", "sepia", "greenbrown", "browngray",
          "brownsepia", "none", "pink", "red", "purple", "orange")

REVENUE_PHASES = ("yellow", "green", "brown", "gray", "diesel")


class TileError(ValueError):
    """A tile written in tile notation cannot be read."""


class Part:
    """One element of a tile."""

    __slots__ = ("index", "tile")
    kind = "part"
    is_edge = is_node = is_city = is_town = is_offboard = is_junction = is_path = False

    def __init__(self) -> None:
        self.index = 0
        self.tile: Optional[Tile] = None

    @property
    def id(self) -> str:
        return f"{self.tile.id}-{self.index}"

    @property
    def hex(self):
        return self.tile.hex if self.tile else None

    def matches(self, other: "Part") -> bool:
        """True if this end of a path is honoured by ``other`` (used for upgrades)."""
        return type(self) is type(other)


class Edge(Part):
    __slots__ = ("num", "lanes")
    is_edge = True

    def __init__(self, num: int, lanes=(1, 0)) -> None:
        super().__init__()
        self.num = num
        self.lanes = lanes

    def matches(self, other: Part) -> bool:
        return other.is_edge and other.num == self.num

    def rotated(self, ticks: int) -> "Edge":
        edge = Edge((self.num + ticks) % 6, self.lanes)
        edge.index = self.index
        edge.tile = self.tile
        return edge

    def __repr__(self) -> str:
        return f"<Edge {self.num}>"


class Node(Part):
    """A place a route can stop at or pass through: city, town or off-board."""

    __slots__ = ("revenue", "groups", "hide", "visit_cost", "route", "loc", "boom", "_paths",
                 "format")
    is_node = True

    def __init__(self, revenue: dict, groups=(), hide=False, visit_cost=1, route="mandatory",
                 loc=None, boom=False, format=None) -> None:
        super().__init__()
        self.revenue = revenue
        self.groups = list(groups)
        self.hide = hide
        self.visit_cost = visit_cost
        self.route = route
        self.loc = loc
        self.boom = boom
        self.format = format
        self._paths = None

    @property
    def paths(self) -> list:
        """The tile's paths (at its current rotation) that touch this node."""
        if self._paths is None:
            self._paths = [p for p in self.tile.paths if self in p.nodes]
        return self._paths

    @property
    def exits(self) -> list:
        return [e for p in self.paths for e in p.exits]

    def clear(self) -> None:
        self._paths = None

    @property
    def max_revenue(self) -> int:
        return max(self.revenue.values())

    def revenue_in(self, phase_colors) -> int:
        """Revenue in a phase whose tile colours are ``phase_colors``: the latest colour listed."""
        for color in reversed(phase_colors):
            if color in self.revenue:
                return self.revenue[color]
        return 0

    def blocks(self, corporation) -> bool:
        """True if ``corporation`` cannot run through this node."""
        return False

    def tokened_by(self, corporation) -> bool:
        return False

    @property
    def signature(self) -> str:
        return f"{self.hex.id if self.hex else None}-{self.index}"

    @property
    def type(self) -> str:
        return self.kind


class City(Node):
    __slots__ = ("slots", "tokens", "extra_tokens", "reservations")
    kind = "city"
    is_city = True

    def __init__(self, revenue: dict, slots: int = 1, **opts) -> None:
        super().__init__(revenue, **opts)
        self.slots = slots
        self.tokens: list = [None] * slots
        self.extra_tokens: list = []
        self.reservations: list = []

    def blocks(self, corporation) -> bool:
        if corporation is None or self.tokened_by(corporation):
            return False
        for token in self.tokens:
            if token is None or token.type == "neutral":
                return False
        return True

    def tokened(self) -> bool:
        return any(t is not None for t in self.tokens)

    def tokened_by(self, corporation) -> bool:
        for t in self.tokens:
            if t is not None and t.corporation is corporation:
                return True
        for t in self.extra_tokens:
            if t.corporation is corporation:
                return True
        return False

    def find_reservation(self, corporation) -> Optional[int]:
        for i, r in enumerate(self.reservations):
            if r is not None and (r is corporation or getattr(r, "owner", None) is corporation):
                return i
        return None

    def reserved_by(self, corporation) -> bool:
        return self.find_reservation(corporation) is not None

    def add_reservation(self, entity, slot: Optional[int] = None) -> None:
        if slot is not None:
            self.reservations.insert(slot, entity)
        else:
            self.reservations.append(entity)

    def remove_reservation(self, entity) -> None:
        for i, r in enumerate(self.reservations):
            if r is entity:
                self.reservations[i] = None
                return

    def available_slots(self) -> int:
        return sum(1 for i, t in enumerate(self.tokens)
                   if t is None and (i >= len(self.reservations) or self.reservations[i] is None))

    def get_slot(self, corporation, cheater: bool = False) -> Optional[int]:
        """The slot a token of ``corporation`` would take: its reservation, else the first free one."""
        reservation = self.find_reservation(corporation)
        open_slot = None
        for i, t in enumerate(self.tokens):
            if t is None and (i >= len(self.reservations) or self.reservations[i] is None):
                open_slot = i
                break
        if cheater:
            return open_slot if open_slot is not None else len(self.tokens)
        return reservation if reservation is not None else open_slot

    def tokenable_error(self, corporation, tokens, free=False, cheater=False, extra_slot=False,
                        spender=None, same_hex_allowed=False) -> Optional[str]:
        """Why none of ``tokens`` can be placed here, or None if one can."""
        if not extra_slot and not tokens:
            return f"{corporation.name} has no tokens left"
        error = "cannot token here"
        for t in tokens:
            if not extra_slot and self.get_slot(t.corporation, cheater) is None:
                error = f"no token slot available in {self.hex.id if self.hex else self.id}"
                continue
            payer = spender or corporation
            if not free and t.price > payer.cash:
                error = f"{corporation.name} cannot afford a token for {t.price}"
                continue
            if not same_hex_allowed and any(c.tokened_by(t.corporation) for c in self.tile.cities):
                error = f"{corporation.name} already has a token on {self.hex.id if self.hex else ''}"
                continue
            if self.reserved_by(corporation):
                return None
            if self.tile.token_blocked_by_reservation(corporation) and not cheater:
                error = f"the remaining token slots on {self.hex.id if self.hex else ''} are reserved"
                continue
            return None
        return error

    def tokenable(self, corporation, tokens, **kw) -> bool:
        return self.tokenable_error(corporation, tokens, **kw) is None

    def place_token(self, corporation, token, free=False, check_tokenable=True, cheater=False,
                    extra_slot=False, spender=None, same_hex_allowed=False) -> None:
        """Put ``token`` in this city (raises if the rules forbid it)."""
        from ..engine.errors import GameError

        if check_tokenable:
            error = self.tokenable_error(corporation, [token], free=free, cheater=cheater,
                                         extra_slot=extra_slot, spender=spender,
                                         same_hex_allowed=same_hex_allowed)
            if error:
                raise GameError(f"{corporation.name} cannot lay token: {error}")
        self.exchange_token(token, cheater=cheater, extra_slot=extra_slot)
        if corporation in self.tile.reservations:
            self.tile.reservations.remove(corporation)
        self.remove_reservation(corporation)

    def exchange_token(self, token, cheater=False, extra_slot=False) -> None:
        token.place(self, extra=extra_slot, cheater=cheater)
        if extra_slot:
            self.extra_tokens.append(token)
            return
        slot = self.get_slot(token.corporation, cheater=cheater)
        if slot == 1 and self.slots == 1 and sum(1 for r in self.reservations if r is not None) == 2:
            slot = 0
            self.reservations.reverse()
        if slot >= len(self.tokens):
            self.tokens.extend([None] * (slot + 1 - len(self.tokens)))
        self.tokens[slot] = token

    def reset(self) -> None:
        self.tokens = [None] * self.slots
        self.extra_tokens = []

    def __repr__(self) -> str:
        return f"<City {self.id}>"


class Town(Node):
    __slots__ = ("style", "to_city")
    kind = "town"
    is_town = True

    def __init__(self, revenue: dict, style=None, to_city=False, **opts) -> None:
        super().__init__(revenue, **opts)
        self.style = style
        self.to_city = to_city

    def matches(self, other: Part) -> bool:
        if self.to_city and other.is_city:
            return True
        return type(self) is type(other)

    def __repr__(self) -> str:
        return f"<Town {self.id}>"


class Offboard(Node):
    __slots__ = ()
    kind = "offboard"
    is_offboard = True

    def blocks(self, corporation) -> bool:
        return True

    def __repr__(self) -> str:
        return f"<Offboard {self.id}>"


class Junction(Part):
    __slots__ = ("_paths",)
    is_junction = True

    def __init__(self) -> None:
        super().__init__()
        self._paths = None

    @property
    def paths(self) -> list:
        if self._paths is None:
            self._paths = [p for p in self.tile.paths if p.junction is self]
        return self._paths

    def clear(self) -> None:
        self._paths = None


class Path(Part):
    """Track between two ends (edges, nodes or a junction)."""

    __slots__ = ("a", "b", "terminal", "track", "lanes", "ignore", "edges", "nodes", "city",
                 "town", "offboard", "junction", "exit_lanes", "exits", "_ends")
    is_path = True

    def __init__(self, a: Part, b: Part, terminal=None, track="broad", lanes=((1, 0), (1, 0)),
                 ignore=False) -> None:
        super().__init__()
        self.a = a
        self.b = b
        self.terminal = terminal
        self.track = track
        self.lanes = lanes
        self.ignore = ignore
        self.edges: list = []
        self.nodes: list = []
        self.city = self.town = self.offboard = self.junction = None
        self.exit_lanes: dict = {}
        self._ends = None
        for i, part in enumerate((a, b)):
            if part.is_edge:
                self.edges.append(part)
                self.exit_lanes[part.num] = lanes[i]
            elif part.is_junction:
                self.junction = part
            elif part.is_node:
                self.nodes.append(part)
                if part.is_city:
                    self.city = part
                elif part.is_town:
                    self.town = part
                else:
                    self.offboard = part
        self.exits = [e.num for e in self.edges]

    @property
    def stops(self) -> list:
        return self.nodes

    def rotated(self, ticks: int) -> "Path":
        a = self.a.rotated(ticks) if self.a.is_edge else self.a
        b = self.b.rotated(ticks) if self.b.is_edge else self.b
        path = Path(a, b, self.terminal, self.track, self.lanes, self.ignore)
        path.index = self.index
        path.tile = self.tile
        return path

    @property
    def ends(self) -> list:
        """Both ends, with a junction replaced by the far ends of its other paths."""
        if self._ends is None:
            ends = []
            for part in (self.a, self.b):
                if part.is_junction:
                    for p in part.paths:
                        if p is not self:
                            ends.extend(x for x in (p.a, p.b) if not x.is_junction)
                else:
                    ends.append(part)
            self._ends = ends
        return self._ends

    def tracks_match(self, other: "Path", dual_ok: bool = False) -> bool:
        """Can this path's gauge continue onto (or be replaced by) ``other``?"""
        if self.track == "broad":
            return other.track in ("broad", "dual")
        if self.track == "narrow":
            return other.track in ("narrow", "dual")
        return dual_ok or other.track == "dual"

    def is_subset_of(self, other: "Path") -> bool:
        """True if ``other`` keeps this path's connections (the reference's ``path <= other``)."""
        other_ends = other.ends
        return (all(any(t.matches(o) for o in other_ends) for t in self.ends)
                and self.tracks_match(other))

    @property
    def is_terminal(self) -> bool:
        return bool(self.terminal)

    def __repr__(self) -> str:
        hex_id = self.hex.id if self.hex else None
        return f"<Path {hex_id} {self.exits} {[n.index for n in self.nodes]}>"


class Label(Part):
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def __eq__(self, other) -> bool:
        return isinstance(other, Label) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)

    def __repr__(self) -> str:
        return self.text


class Upgrade(Part):
    """Terrain: the cost of building on the hex."""

    __slots__ = ("cost", "terrains", "size", "loc")

    def __init__(self, cost: int, terrains=(), size=None, loc=None) -> None:
        super().__init__()
        self.cost = cost
        self.terrains = list(terrains)
        self.size = size
        self.loc = loc


class Border(Part):
    __slots__ = ("edge", "type", "cost", "color")

    def __init__(self, edge: int, type=None, cost=None, color=None) -> None:
        super().__init__()
        self.edge = edge
        self.type = type
        self.cost = cost
        self.color = color


class Icon(Part):
    __slots__ = ("image", "name", "sticky", "blocks_lay", "preprinted", "large", "loc")

    def __init__(self, image: str, name=None, sticky=False, blocks_lay=False, preprinted=True,
                 large=False, loc=None) -> None:
        super().__init__()
        self.image = image
        self.name = name or image.rsplit("/", 1)[-1].split(".")[0]
        self.sticky = sticky
        self.blocks_lay = blocks_lay
        self.preprinted = preprinted
        self.large = large
        self.loc = loc


class Stub(Part):
    __slots__ = ("edge",)

    def __init__(self, edge: int) -> None:
        super().__init__()
        self.edge = edge


class Partition(Part):
    __slots__ = ("a", "b", "type", "restrict")

    def __init__(self, a, b, type=None, restrict=None) -> None:
        super().__init__()
        self.a, self.b, self.type, self.restrict = a, b, type, restrict


class Decoration(Part):
    """Frames, stripes and future labels: shown on a tile, no effect on play."""

    __slots__ = ("what", "args")

    def __init__(self, what: str, args: list) -> None:
        super().__init__()
        self.what = what
        self.args = args


# ---------------------------------------------------------------------------------------------
# Tile notation


def parse_revenue(text: str) -> dict:
    """``20`` → 20 in every phase; ``yellow:20,green:30`` → per phase colour."""
    if ":" in text:
        revenue = {}
        for item in text.split(","):
            color, value = item.split(":")
            revenue[color] = int(value)
        return revenue
    value = int(text)
    return {color: value for color in REVENUE_PHASES}


def _split_part(text: str):
    words = text.split()
    kind, rest = words[0], words[1:]
    args, opts = [], {}
    for w in rest:
        if "=" in w:
            k, v = w.split("=", 1)
            opts[k] = v
        elif w in ("hide", "terminal", "boom", "sticky", "blocks_lay", "ignore", "large"):
            opts[w] = "1"
        else:
            args.append(w)
    return kind, args, opts


def _node_opts(opts: dict) -> dict:
    out = {}
    if "group" in opts:
        out["groups"] = opts["group"].split("/")
    if "hide" in opts:
        out["hide"] = True
    if "visit_cost" in opts:
        out["visit_cost"] = int(opts["visit_cost"])
    if "route" in opts:
        out["route"] = opts["route"]
    if "loc" in opts:
        out["loc"] = opts["loc"]
    if "boom" in opts:
        out["boom"] = True
    if "format" in opts:
        out["format"] = opts["format"]
    return out


def _lane(spec: Optional[str]):
    if spec is None:
        return (1, 0)
    width, _, index = spec.partition(".")
    return (int(width), int(index or 0))


def parse_parts(code: str) -> list:
    """Read a tile written in tile notation into a list of parts (see the module docstring)."""
    parts: list = []
    nodes: list = []
    for kind, spec in compile_parts(code):
        if kind == "node":
            cls, revenue, kw = spec
            part = cls(dict(revenue), **kw)
            nodes.append(part)
            parts.append(part)
        elif kind == "junction":
            part = Junction()
            nodes.append(part)
            parts.append(part)
        elif kind == "path":
            a_spec, b_spec, terminal, track, lanes, ignore = spec
            ends = []
            for end_spec, lane in zip((a_spec, b_spec), lanes):
                if isinstance(end_spec, str):
                    ends.append(nodes[int(end_spec[1:])])
                else:
                    ends.append(Edge(end_spec, lane))
            parts.append(Path(ends[0], ends[1], terminal, track, lanes, ignore))
        else:
            cls, args, kw = spec
            parts.append(cls(*args, **kw))
    return parts


_COMPILED: dict = {}


def compile_parts(code: str) -> list:
    """The parts of a tile in tile notation, read once: ``(kind, spec)`` pairs from which
    :func:`parse_parts` builds fresh part objects."""
    found = _COMPILED.get(code)
    if found is not None:
        return found
    out: list = []
    num_nodes = 0
    for raw in code.split(";"):
        raw = raw.strip()
        if not raw:
            continue
        try:
            kind, args, opts = _split_part(raw)
            if kind in ("city", "town", "offboard", "junction"):
                num_nodes += 1
            if kind in ("city", "town", "offboard"):
                revenue = parse_revenue(args[0] if args else "0")
                kw = _node_opts(opts)
                if kind == "city":
                    kw["slots"] = int(opts.get("slots", 1))
                    out.append(("node", (City, revenue, kw)))
                elif kind == "town":
                    kw["style"] = opts.get("style")
                    kw["to_city"] = "to_city" in opts
                    out.append(("node", (Town, revenue, kw)))
                else:
                    out.append(("node", (Offboard, revenue, kw)))
            elif kind == "junction":
                out.append(("junction", None))
            elif kind == "path":
                ends = [a if a[0] == "N" else int(a) for a in args[:2]]
                for end in ends:
                    if isinstance(end, str) and not 0 <= int(end[1:]) < num_nodes:
                        raise TileError(f"{end} is not a node declared before the path")
                    if isinstance(end, int) and end not in ALL_EDGES:
                        raise TileError(f"edge {end} is not a hex side 0-5")
                terminal = opts.get("terminal")
                track = opts.get("track", "broad")
                ignore = "ignore" in opts
                if "lanes" in opts:
                    n = int(opts["lanes"])
                    both_edges = all(not isinstance(e, str) for e in ends)
                    for i in range(n):
                        a_l = (n, i)
                        b_l = (n, n - i - 1) if both_edges else a_l
                        out.append(("path", (ends[0], ends[1], terminal, track, (a_l, b_l),
                                             ignore)))
                    continue
                lanes = (_lane(opts.get("a_lane")), _lane(opts.get("b_lane")))
                out.append(("path", (ends[0], ends[1], terminal, track, lanes, ignore)))
            elif kind == "label":
                out.append(("part", (Label, (" ".join(args),), {})))
            elif kind == "upgrade":
                terrains = args[1].split("/") if len(args) > 1 else []
                size = int(opts["size"]) if "size" in opts else None
                out.append(("part", (Upgrade, (int(args[0]), terrains, size, opts.get("loc")),
                                     {})))
            elif kind == "border":
                cost = int(args[2]) if len(args) > 2 else None
                btype = args[1] if len(args) > 1 and args[1] != "-" else None
                out.append(("part", (Border, (int(args[0]), btype, cost, opts.get("color")),
                                     {})))
            elif kind == "icon":
                out.append(("part", (Icon, (args[0], opts.get("name"), "sticky" in opts,
                                            "blocks_lay" in opts),
                                     {"large": "large" in opts, "loc": opts.get("loc")})))
            elif kind == "stub":
                out.append(("part", (Stub, (int(args[0]),), {})))
            elif kind == "partition":
                out.append(("part", (Partition, (args[0], args[1],
                                                 args[2] if len(args) > 2 else None,
                                                 opts.get("restrict")), {})))
            elif kind in ("frame", "stripes", "future_label"):
                out.append(("part", (Decoration, (kind, args), {})))
            else:
                raise TileError(f"unknown part kind {kind!r}")
        except (IndexError, ValueError) as e:
            raise TileError(f"cannot read tile part {raw!r}: {e}") from e
    _COMPILED[code] = out
    return out


# ---------------------------------------------------------------------------------------------


class Tile:
    """A tile: a printed hex of the map or a track tile that can be laid on one."""

    def __init__(self, name: str, color: str, code: str, index: int = 0, preprinted: bool = False,
                 unlimited: bool = False, reservation_blocks: str = "never",
                 hidden: bool = False) -> None:
        self.name = name
        self.color = color
        self.code = code
        self.index = index
        self.id = f"{name}-{index}"
        self.preprinted = preprinted
        self.unlimited = unlimited
        self.hidden = hidden
        self.reservation_blocks = reservation_blocks
        self.rotation = 0
        self.hex = None
        self.location_name = None
        self.legal_rotations: list = []
        self.reservations: list = []
        self.blockers: list = []
        self.parts = parse_parts(code)
        self.cities: list = []
        self.towns: list = []
        self.offboards: list = []
        self.city_towns: list = []
        self.labels: list = []
        self.upgrades: list = []
        self.borders: list = []
        self.icons: list = []
        self.stubs: list = []
        self.partitions: list = []
        self.junction = None
        self._base_paths: list = []
        for i, part in enumerate(self.parts):
            part.index = i
            part.tile = self
            if part.is_city:
                self.cities.append(part)
                self.city_towns.append(part)
            elif part.is_town:
                self.towns.append(part)
                self.city_towns.append(part)
            elif part.is_offboard:
                self.offboards.append(part)
            elif part.is_junction:
                self.junction = part
            elif part.is_path:
                self._base_paths.append(part)
                for e in part.edges:
                    e.tile = self
            elif isinstance(part, Label):
                self.labels.append(part)
            elif isinstance(part, Upgrade):
                self.upgrades.append(part)
            elif isinstance(part, Border):
                self.borders.append(part)
            elif isinstance(part, Icon):
                self.icons.append(part)
            elif isinstance(part, Stub):
                self.stubs.append(part)
            elif isinstance(part, Partition):
                self.partitions.append(part)
        self.original_borders = list(self.borders)
        seen = []
        for p in self._base_paths:
            for n in p.nodes:
                if n not in seen:
                    seen.append(n)
        self.nodes = seen  # nodes that have track, in the order their paths list them
        self.stops = list(seen)
        self.blocks_lay = any(isinstance(p, Icon) and p.blocks_lay for p in self.parts)
        self._paths: Optional[list] = None
        self._exits: Optional[list] = None
        self._exit_count: Optional[dict] = None
        self._preferred_ct_edges = None

    def copy(self, index: int) -> "Tile":
        return Tile(self.name, self.color, self.code, index=index, preprinted=self.preprinted,
                    unlimited=self.unlimited, reservation_blocks=self.reservation_blocks,
                    hidden=self.hidden)

    # -- rotation --------------------------------------------------------------------------

    def rotate(self, rotation: int) -> "Tile":
        """Turn the tile to an absolute rotation 0-5."""
        if rotation != self.rotation or self._paths is None:
            self.rotation = rotation
            self._paths = None
            self._exits = None
            self._exit_count = None
            self._preferred_ct_edges = None
            for n in self.city_towns:
                n.clear()
            for n in self.offboards:
                n.clear()
            if self.junction:
                self.junction.clear()
        return self

    @property
    def paths(self) -> list:
        """The tile's paths at its current rotation."""
        if self._paths is None:
            if self.rotation == 0:
                self._paths = list(self._base_paths)
            else:
                self._paths = [p.rotated(self.rotation) for p in self._base_paths]
        return self._paths

    @property
    def exits(self) -> list:
        if self._exits is None:
            exits = []
            for p in self._base_paths:
                for e in p.edges:
                    num = (e.num + self.rotation) % 6
                    if num not in exits:
                        exits.append(num)
            self._exits = exits
        return self._exits

    def exit_count(self, num: int) -> int:
        if self._exit_count is None:
            counts: dict = {}
            for p in self._base_paths:
                for e in p.edges:
                    n = (e.num + self.rotation) % 6
                    counts[n] = counts.get(n, 0) + 1
            self._exit_count = counts
        return self._exit_count.get(num, 0)

    @property
    def edges(self) -> list:
        return [e for p in self._base_paths for e in p.edges]

    # -- description -----------------------------------------------------------------------

    def ambiguous_connection(self) -> bool:
        """More than one path joins two nodes: a hex name alone cannot say which is meant."""
        return sum(1 for p in self._base_paths if len(p.nodes) > 1) > 1

    @property
    def label(self) -> Optional[Label]:
        return self.labels[-1] if self.labels else None

    @property
    def terrain(self) -> list:
        out = []
        for u in self.upgrades:
            for t in u.terrains:
                if t not in out:
                    out.append(t)
        return out

    def city_town_edges(self) -> list:
        """For each city or town with track, the edges its track leads to (reference order)."""
        ct_edges: dict = {}
        for path in self.paths:
            ct = path.city or path.town
            if ct is None:
                continue
            ct_edges.setdefault(id(ct), []).extend(path.exits)
        return list(ct_edges.values())

    def city_town_edges_are_subset_of(self, other_cte: list) -> bool:
        cte = self.city_town_edges()
        for rotation in ALL_EDGES:
            if all(any(all((e + rotation) % 6 in other for e in city) for other in other_cte)
                   for city in cte):
                return True
        return False

    def paths_are_subset_of(self, other_paths: list) -> bool:
        """Does some turn of this tile's track fit inside ``other_paths`` (an upgrade keeps track)?"""
        if self.junction and any(p.junction for p in other_paths):
            other_exits = {e for p in other_paths for e in p.exits}
            return any(all(e in {(x + t) % 6 for x in other_exits} for e in self.exits)
                       for t in ALL_EDGES)
        for ticks in ALL_EDGES:
            rotated = [p.rotated(ticks) for p in self._base_paths]
            if all(any(p.is_subset_of(o) for o in other_paths) for p in rotated):
                return True
        return False

    def token_blocked_by_reservation(self, corporation) -> bool:
        if not self.reservations:
            return False
        if self.reservation_blocks == "always" or (
                self.reservation_blocks == "single_slot_cities"
                and any(c.slots == 1 for c in self.cities)):
            return corporation not in self.reservations
        others = sum(1 for r in self.reservations if r is not corporation)
        return others >= sum(c.available_slots() for c in self.cities)

    def reserved_by(self, corporation) -> bool:
        return any(r is corporation or getattr(r, "owner", None) is corporation
                   for r in self.reservations)

    def add_reservation(self, entity, city: Optional[int], slot: Optional[int] = None) -> None:
        if len(self.cities) == 1:
            city = 0
        if city is not None and slot is None:
            slot = self.cities[city].get_slot(entity)
        if city is not None and slot is not None:
            self.cities[city].add_reservation(entity, slot)
        else:
            self.reservations.append(entity)

    def remove_reservation(self, entity) -> None:
        for city in self.cities:
            if city.reserved_by(entity):
                city.remove_reservation(entity)
                return
        if entity in self.reservations:
            self.reservations.remove(entity)

    def preferred_city_town_edges(self) -> dict:
        """Where a city or town is drawn: the edge it sits next to (None when in the centre).

        Drawing position matters to the rules in one place: track between an edge and a town
        that is drawn next to another edge counts as separate track for overlapping routes.
        """
        if self._preferred_ct_edges is None:
            self._preferred_ct_edges = self._compute_ct_edges()
        return self._preferred_ct_edges

    def _compute_loc(self, loc):
        if loc is None or loc == "center":
            return None
        return (float(loc) + self.rotation) % 6

    def _compute_ct_edges(self) -> dict:
        out: dict = {}
        paths = self.paths
        if not paths and len(self.cities) == 2 and len(self.towns) == 2:
            for i, x in enumerate(self.cities):
                out[x] = i * 3
            for i, x in enumerate(self.towns):
                out[x] = i * 3
            return out
        if not paths and len(self.cities) >= 2:
            div = 6 // len(self.cities)
            for i, x in enumerate(self.cities):
                out[x] = i * div
            return out
        if len(self.cities) == 1 and not self.towns and self._compute_loc(self.cities[0].loc) is None:
            out[self.cities[0]] = None
            return out
        if (not self.cities and len(self.towns) == 1 and len(self.towns[0].exits) != 2
                and self._compute_loc(self.towns[0].loc) is None):
            out[self.towns[0]] = None
            return out
        edge_count: dict = {0: 0.1}
        ct_edges: dict = {}
        order: list = []
        for path in paths:
            ct = path.city or path.town
            if ct is None:
                continue
            if ct not in ct_edges:
                ct_edges[ct] = []
                order.append(ct)
            for edge in path.exits:
                ct_edges[ct].append(edge)
                edge_count[edge] = edge_count.get(edge, 0) + 1
                edge_count[(edge + 1) % 6] = edge_count.get((edge + 1) % 6, 0) + 0.1
                edge_count[(edge - 1) % 6] = edge_count.get((edge - 1) % 6, 0) + 0.1
        items = sorted(((ct, sorted(ct_edges[ct])) for ct in order), key=lambda x: x[1])
        for ct, edges in items:
            if ct.loc is not None:
                edge = self._compute_loc(ct.loc)
            else:
                edge = min(edges, key=lambda e: edge_count.get(e, 0)) if edges else None
                if edge is not None:
                    edge_count[edge] = edge_count.get(edge, 0) + 1
                    edge_count[(edge + 1) % 6] = edge_count.get((edge + 1) % 6, 0) + 0.1
                    edge_count[(edge - 1) % 6] = edge_count.get((edge - 1) % 6, 0) + 0.1
            out[ct] = edge
        pathless = [ct for ct in self.city_towns if not ct.paths]
        if len(pathless) == 1 and len(self.city_towns) == 2:
            first = next(iter(out.values()), None)
            if first is not None:
                out[pathless[0]] = (first + 3) % 6
        for ct in self.city_towns:
            if not ct.exits and ct.loc is not None:
                out[ct] = self._compute_loc(ct.loc)
        return out

    def __repr__(self) -> str:
        return f"<Tile {self.id} {self.color} r{self.rotation}>"


def leading_int(text: str) -> int:
    """The number a name starts with, 0 if none (``"14a"`` → 14, ``"K14"`` → 0)."""
    m = re.match(r"\s*(-?\d+)", text)
    return int(m.group(1)) if m else 0
