"""The walk of an operator's network from one of its token cities: the trails a train
could follow, as a depth-first walk reaches their rails (:func:`trails`). The network
(:mod:`.network`) and what a lay reaches (:mod:`.reaching`) are worked out of such walks.
"""

from __future__ import annotations

from operator import itemgetter
from typing import Dict, Iterator, List, Optional

from .board import Node, Rail, links
from .table import Table

_RAIL_OF_MOVE = itemgetter(0)


def walk_links(table: Table, rail: Rail) -> tuple:
    """:func:`board.links` as walks read them: ``(side, its key in rail.side_keys, next
    rail, its side, shared)`` where ``shared`` tells that several rails of ``rail``'s tile
    use that side; rails no walk enters (:attr:`Rail.blind`) left out. Kept on the rail as
    long as its links are (:func:`board.forget_track_near` drops them, the rail noted by
    its hex in the table's derived data)."""
    found = rail.walk
    if found is None:
        side_count = rail.view.layout.side_count
        keys = dict(zip(rail.sides, rail.side_keys))
        found = rail.walk = tuple([
            (side, keys[side], nxt, back, side_count.get(side, 0) > 1)
            for side, lane, nxt, back in links(table, rail) if not nxt.blind])
        table.derived.linked.setdefault(rail.hex, []).append(rail)
    return found


def track_end(rail: Rail, side: int) -> tuple:
    """Where ``rail`` ends at ``side`` of its hex, as walks entering it there meet it:
    ``(side, lane, gauge)``."""
    return side, rail.lanes.get(side), rail.gauge


def follow(table: Table, start: Node, tokens: List[Node], operator,
           closed: Optional[Dict[Node, bool]] = None) -> List[Rail]:
    """Every rail reachable from ``start`` (see :func:`trails`), each once, in the order
    first reached."""
    return list(dict.fromkeys(trails(table, start, tokens, operator, closed)))


def first_reached(table: Table, start: Node, tokens: List[Node], operator,
                  closed: Dict[Node, bool], goal: frozenset) -> Optional[Rail]:
    """The first rail of ``goal`` the trails from ``start`` reach (None: none); the
    walk goes no further."""
    for rail in trails(table, start, tokens, operator, closed):
        if rail in goal:
            return rail
    return None


def trails(table: Table, start: Node, tokens: List[Node], operator,
           closed: Optional[Dict[Node, bool]] = None) -> Iterator[Rail]:
    """The rails a train of ``operator`` setting out from its token city ``start`` could
    run along, as a depth-first walk of its trails reaches them (a rail again each time
    another trail reaches it).

    A trail is track a train could follow: along a rail, then through one of its stops
    (not over terminal track, not a stop closed to the operator, not a stop the trail
    passed already; other token cities are left to their own walks), through its junction
    (at most twice), or across one of its hex sides to the rail beyond (never back over
    the side it came by, never into a rail using a side the trail left by). A rail
    reached once need not be walked again, so the walk goes on from each rail once,
    except beyond a hex side several rails of a tile share: there trails fork, and rails
    and stops passed on a fork are walked again along the others.

    The walk keeps its trail on a stack of the rails it is on, each with the moves still
    to try from it (:class:`_Trail`); ``closed`` keeps which stops are closed to the
    operator, for walks on the same position."""
    return map(_RAIL_OF_MOVE, moves(table, start, tokens, operator, closed))


def moves(table: Table, start: Node, tokens: List[Node], operator,
          closed: Optional[Dict[Node, bool]] = None,
          trail: Optional["_Trail"] = None) -> Iterator[tuple]:
    """The walk of :func:`trails` as the moves onto its rails: ``(rail, the side of its
    hex it came in over or None, the junction it came through or None, forked)``.
    ``trail``: the walk's state (:func:`new_trail`), for a caller reading it as it goes."""
    if trail is None:
        trail = _Trail(table, start, tokens, operator, closed if closed is not None else {})
    onward = trail.onward
    on_trail, crossed, junctions = trail.on_trail, trail.crossed, trail.junctions
    # One generator for each rail on the trail (:meth:`_Trail.onward`). An explicit stack
    # of steps, worked out per rail and kept, measured no cheaper: a few percent less on
    # repeated walks, more in replays, where the board changes before steps are reused.
    stack = []              # the generators of the rails below, on the trail
    steps = trail.setting_out()
    while True:
        # The next move from the rail on top (a for loop resumes the generator more
        # cheaply than next()); none left: the trail steps back.
        for move in steps:
            # The trail steps onto the rail unless it passed its junction twice already
            # or left its hex by one of its sides (the walk's hottest test: written out).
            rail = move[0]
            junction = rail.junction
            if junction is not None and junctions.get(junction, 0) > 1:
                continue
            if crossed and not crossed.isdisjoint(rail.side_keys):
                continue
            on_trail.add(rail)
            if junction is not None:
                junctions[junction] = junctions.get(junction, 0) + 1
            yield move
            stack.append(steps)
            steps = onward(move)
            break
        else:
            if not stack:
                return
            steps = stack.pop()


def new_trail(table: Table, start: Node, tokens: List[Node], operator,
              closed: Dict[Node, bool]) -> "_Trail":
    """The state of a walk of :func:`moves` about to set out (read-only to the caller: the
    hex sides the trail has left by, ``crossed``, as its moves are yielded)."""
    return _Trail(table, start, tokens, operator, closed)


class _Trail:
    """The state of a walk of :func:`trails`: the rails on the trail, the stops passed,
    the hex sides left by (by lane) and the times through each junction."""

    __slots__ = ("table", "start", "operator", "closed", "seen_nodes", "on_trail", "crossed",
                 "junctions")

    def __init__(self, table: Table, start: Node, tokens: List[Node], operator,
                 closed: Dict[Node, bool]) -> None:
        self.table = table
        self.start = start
        self.operator = operator
        self.closed = closed
        self.seen_nodes = {t for t in tokens if t is not start}
        self.seen_nodes.add(start)
        self.on_trail: set = set()
        self.crossed: set = set()
        self.junctions: Dict[object, int] = {}

    def setting_out(self) -> Iterator[tuple]:
        """The first moves: along each rail leaving the token city."""
        for rail in self.start.entries:
            if rail not in self.on_trail:
                yield rail, None, None, False

    def onward(self, move: tuple) -> Iterator[tuple]:
        """The moves from the rail of ``move`` (:func:`moves`), in turn: through its
        stops, through its junction, across its hex sides; then the trail steps back off
        it (on a fork, giving up the rail and the stops passed, which other trails may
        reach again)."""
        rail, came_over, via_junction, forked = move
        on_trail = self.on_trail
        if rail.nodes and not rail.terminal:
            seen, closed = self.seen_nodes, self.closed
            for node in rail.nodes:
                # The trail goes through a stop not passed yet, not closed to the operator
                # (asked once for the walks at a position).
                if node in seen:
                    continue
                shut = closed.get(node)
                if shut is None:
                    shut = closed[node] = node.closed_to(self.operator)
                if shut:
                    continue
                seen.add(node)
                for nxt in node.entries:
                    if nxt not in on_trail:
                        yield nxt, None, None, forked
                if forked:
                    seen.discard(node)
        junction = rail.junction
        if junction is not None and junction is not via_junction:
            for other in rail.others:
                if other not in on_trail:
                    yield other, None, junction, forked
        leads = rail.walk
        if leads is None:
            leads = walk_links(self.table, rail)
        crossed = self.crossed
        for side, key, nxt, back, shared in leads:
            if side == came_over or nxt in on_trail:
                continue
            crossed.add(key)
            yield nxt, back, None, forked or shared
            crossed.discard(key)
        if forked:
            on_trail.discard(rail)
        if junction is not None:
            self.junctions[junction] -= 1
