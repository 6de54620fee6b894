"""The route finder's graph of an operator's network: the stops its trains can reach and
the legs of track between them, each with the track it holds as bits (see
``tracklayer.finder`` for the method)."""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Dict, List, Optional

from ..rules import network, routes
from ..rules.table import Table


@dataclass(eq=False, slots=True)
class Leg:
    """Track from stop ``a`` to stop ``b`` (network indexes), ``paths`` in that order."""

    a: int
    b: int
    paths: tuple
    chain: int          # index of the undirected chain (both orientations share it)
    mask: int           # bits of the track keys it holds
    t_first: bool       # its first / last piece of track is terminal
    t_last: bool
    terminals: int      # how many of its pieces of track are terminal

    @property
    def npaths(self) -> int:
        return len(self.paths)


@dataclass
class Network:
    """The stops an operator's trains can reach and the legs between them."""

    nodes: list
    tokens: List[int]            # token cities of the operator, in map order
    passable: List[bool]         # a route may pass through the stop
    groups: List[int]            # bit mask of the stop's groups
    legs_from: List[List[Leg]]
    chains: List[tuple]          # undirected chains: (a, b, paths)
    not_in_two: int = 0          # stops a route of two stops may not stop at (bits)
    passed_once: Dict[str, bool] = field(default_factory=dict)  # see model._passed_once
    # each chain's share of a bonus by hexes, and the hexes with a part, by the parts (see
    # model.TrainModel._prepare_bonus_parts): worked out once for the trains of one search
    bonus_shares: Dict[tuple, tuple] = field(default_factory=dict)


_TERMINAL = attrgetter("terminal")


def _trails_from(table: Table, start) -> List[tuple]:
    """Every chain of track from stop ``start`` to another stop, passing no other stop, as
    ``(end stop, rails)``."""
    found: List[tuple] = []

    def visit(rail, trail, k):
        for n in rail.nodes:
            if n is not start:
                found.append((n, tuple(trail)))

    routes.trails(table, start, visit)
    return found


def network_of(table: Table, entity, one_per_hex: bool = False) -> Network:
    """:func:`build_network`, worked out once until the board changes: it reads the tiles
    and tokens alone (the trails between stops, the track they hold, the stops closed to
    ``entity``), so it is kept with the walks of the operators' networks in the table's
    derived data (``rules.network``: dropped when a tile is laid or a token placed or
    lifted, ``network.position_changed``). The finder's own notes on it (``not_in_two``
    set by each search, the bonus shares and hexes passed once, which read the board) are
    the same at every search until then."""
    key = ("graph", entity, one_per_hex)
    found = table.derived.network.get(key)
    if found is None:
        found = table.derived.network[key] = build_network(table, entity, one_per_hex)
    return found


def forget_network_of(table: Table, entity) -> None:
    """Drop ``entity``'s kept graphs (:func:`network_of`), as a change of the board does:
    the next search builds them afresh (what ``benchmarks/routes.py`` times at each run)."""
    for one_per_hex in (False, True):
        table.derived.network.pop(("graph", entity, one_per_hex), None)


def build_network(table: Table, entity, one_per_hex: bool = False) -> Network:
    """Walk the track from ``entity``'s token cities, through every stop it may pass, and
    collect the stops reached and the legs between them (legs whose track would claim a
    piece twice are left out: the engine refuses them). With ``one_per_hex`` (a route
    stops once in a hex), the stops of one hex share a group."""
    tokens = network.token_nodes(table, entity)
    nodes: list = []
    index: Dict[int, int] = {}      # a stop's place in ``nodes``, by identity
    for t in tokens:
        if id(t) not in index:
            index[id(t)] = len(nodes)
            nodes.append(t)
    key_bits: Dict[object, int] = {}
    rail_bits: Dict[int, Optional[int]] = {}
    chains: List[tuple] = []
    seen_chains: set = set()
    queue = list(range(len(nodes)))
    judged = set(queue)     # stops queued to be walked from, or found closed to the entity
    head = 0
    while head < len(queue):
        u = queue[head]
        head += 1
        for end, paths in _trails_from(table, nodes[u]):
            v = index.get(id(end))
            if v is None:
                v = index[id(end)] = len(nodes)
                nodes.append(end)
            # rails are compared by identity
            ident = (u, v, frozenset(paths)) if u < v else (v, u, frozenset(paths))
            if ident not in seen_chains:
                seen_chains.add(ident)
                mask = _track_mask(table, paths, key_bits, rail_bits)
                if mask is not None:
                    chains.append((u, v, paths, mask))
            if v not in judged:
                judged.add(v)
                if not end.closed_to(entity):
                    queue.append(v)
    n = len(nodes)
    legs_from: List[List[Leg]] = [[] for _ in range(n)]
    group_bits: Dict[str, int] = {}
    groups = []
    per_hex: Dict[str, int] = {}
    for node in nodes:
        per_hex[node.hex] = per_hex.get(node.hex, 0) + 1
    for node in nodes:
        bits = 0
        for g in node.groups:
            bits |= group_bits.setdefault(g, 1 << len(group_bits))
        if one_per_hex and per_hex[node.hex] > 1:
            bits |= group_bits.setdefault(("hex", node.hex), 1 << len(group_bits))
        groups.append(bits)
    chains = _compress_masks(chains)
    out_chains = []
    for ci, (u, v, paths, mask) in enumerate(chains):
        out_chains.append((u, v, paths))
        terminals = sum(map(bool, map(_TERMINAL, paths)))
        for a, b, ps in ((u, v, paths), (v, u, paths[::-1])):
            legs_from[a].append(Leg(a, b, ps, ci, mask, bool(ps[0].terminal),
                                    bool(ps[-1].terminal), terminals))
    token_idx = list(range(len(tokens)))
    passable = [not node.closed_to(entity) for node in nodes]
    return Network(nodes, token_idx, passable, groups, legs_from, out_chains)


def _compress_masks(chains: List[tuple]) -> List[tuple]:
    """The same chains with track keys that belong to the same chains merged into one bit:
    two chains still share a bit exactly when they share a key, with fewer bits to test.
    (The masks are read as rows of bytes: a key's holders are a column, one byte per
    chain; each distinct column becomes a bit, and a chain's new mask is its row in the
    table of those columns.)"""
    n = len(chains)
    width = (max((c[3].bit_length() for c in chains), default=0) + 7) >> 3
    rows = b"".join(c[3].to_bytes(width, "little") for c in chains)
    nobody = bytes(n)
    classes: Dict[bytes, None] = {}
    for byte in range(width):
        column = rows[byte::width]
        for bit in range(8):
            held = column.translate(BIT_OF[bit])
            if held != nobody:
                classes.setdefault(held, None)
    table = b"".join(classes)
    return [(u, v, paths, flags_to_bits(table[ci::n]))
            for ci, (u, v, paths, _) in enumerate(chains)]


def flags_to_bits(flags: bytes) -> int:
    """The positions whose byte in ``flags`` (each 0 or 1) is 1, as the bits of an integer
    (read as binary digits, the last position first)."""
    return int(flags.translate(_DIGITS)[::-1] or b"0", 2)


# BIT_OF[k] maps a byte to its bit k (0 or 1); _DIGITS maps 0 and 1 to their digits
BIT_OF = [bytes((value >> bit) & 1 for value in range(256)) for bit in range(8)]
_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def _track_mask(table: Table, paths, key_bits: dict, rails: dict) -> Optional[int]:
    """Bit mask of the track pieces of ``paths``, or None if the chain claims one twice
    (each rail's pieces worked out once per network, kept in ``rails``)."""
    mask = 0
    for p in paths:
        bits = rails.get(id(p), 0)
        if bits == 0:
            bits = rails[id(p)] = _rail_mask(table, p, key_bits)
        if bits is None or mask & bits:
            return None
        mask |= bits
    return mask


def _rail_mask(table: Table, rail, key_bits: dict) -> Optional[int]:
    """Bit mask of one rail's track pieces (None if it holds one twice)."""
    mask = 0
    for k in routes.track_pieces(table, rail):
        bit = key_bits.get(k)
        if bit is None:
            bit = key_bits[k] = 1 << len(key_bits)
        if mask & bit:
            return None
        mask |= bit
    return mask
