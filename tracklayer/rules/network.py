"""Connectivity: what an operator reaches from its station tokens.

From each city holding one of its tokens (in map order) the operator's track is followed
as a train would follow it: across hex sides where lanes and gauge meet, never back over
the side it came in by nor twice over a side in one trail, through towns and through
cities that are not closed to it (every slot taken by other companies), never through
off-boards or terminal track. What is reached:

* the hexes where it may lay track (those of its track and their neighbours across it,
  and every side of its token hexes);
* the stops it reaches (where it may place tokens);
* the track it can run trains on;
* whether it has a route: two stops, not both optional, reached from one token.

As on 18xx.games, what was worked out of a network holds until a tile is laid or a
station token placed in a turn (:func:`forget`): a token placed otherwise (a home token,
a merger) or removed (a company closing) changes it only from then on. So it is kept in
the state (``GameState.networks``, as plain hex and part numbers) and its live form
(stops, track) in the table's derived data. Once an operator has had a route for a train
it is treated as having one, even if others' tokens later cut it off. Whether a tile
being laid points at the network is found by walks that stop at the first track arriving
there, when the whole network would teach nothing that outlasts the lay
(:func:`arrives_at`).
"""

from __future__ import annotations

from copy import copy
from dataclasses import dataclass, field
from functools import partial
from itertools import islice, tee
from operator import itemgetter
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from ..board.tiles import facing
from ..state.model import OperatorState
from . import board
from .board import Node, Rail, view
from .table import Table
from .walk import moves, new_trail, track_end
from .walk import walk_links  # noqa: F401 (routes read walk_links here)

_RAIL = itemgetter(0)    # of a move of a walk (:func:`moves`)


@dataclass(eq=False)
class Network:
    """What was worked out of an operator's network (plain data, kept in the state)."""
    seeds: Dict[str, List[int]] = field(default_factory=dict)   # token hexes, all sides
    nodes: List[Tuple[str, int]] = field(default_factory=list)   # (hex, stop part), as reached
    rails: List[Tuple[str, int]] = field(default_factory=list)   # (hex, rail), as reached
    route: bool = False
    route_for_train: bool = False
    answers: Dict[str, bool] = field(default_factory=dict)
    pending: bool = False    # known only as "on the board as it is": walked when first read


class Live:
    """A network with its stops and track as the objects of the map."""

    __slots__ = ("memo", "nodes", "rails", "hexes")

    def __init__(self, table: Table, memo: Network, walked: Optional[tuple] = None) -> None:
        """``walked``: the stops and track of the walk that just worked ``memo`` out (the
        objects of the map as it lies), if it was."""
        self.memo = memo
        self.hexes: Optional[Dict[Optional[str], List[int]]] = None
        if walked is not None:
            self.nodes, self.rails = walked
            return
        views = table.derived.views
        self.nodes: Dict[Node, bool] = {}
        for hex_id, index in memo.nodes:
            tile = views.get(hex_id) or view(table, hex_id)
            node = tile.nodes.get(index)
            if node is not None:
                self.nodes[node] = True
        self.rails: Dict[Rail, bool] = {}
        for hex_id, index in memo.rails:
            rails = (views.get(hex_id) or view(table, hex_id)).rails
            if index < len(rails):
                self.rails[rails[index]] = True


def forget(table: Table) -> None:
    """A tile was laid or a token placed in a turn: networks are worked out anew."""
    table.state.networks.clear()
    table.derived.network.clear()


_BOARD_ONLY = frozenset(("tokens", "moves", "closed", "graph"))
"""What is kept in the table's derived data of the board alone, not of a position: the
operators' token cities (:func:`token_nodes`), the walks from them (:func:`walk_so_far`),
the stops closed to them those walks found, and the route finder's graph of their
networks (``finder.graph.network_of``)."""


def position_changed(table: Table, board_changed: bool = False) -> None:
    """An action was carried out: what was worked out at the position before it
    (:func:`_worked_out`) no longer holds, but for what reads the board alone
    (:data:`_BOARD_ONLY`), which holds until the board changes (a token placed or lifted, a
    tile laid: ``board_changed``). (Mostly nothing was: asked after every action.)"""
    derived = table.derived.network
    if not derived:
        return
    walked = [k for k in derived if isinstance(k, tuple)
              and (board_changed or k[0] not in _BOARD_ONLY)]
    for key in walked:
        del derived[key]


def checkpoint(table: Table) -> Callable[[], None]:
    """What was worked out of the networks now, and the route flags; the function returned
    puts them back, so that an action refused or moves only listed leave no trace. A
    network's answers are only ever added to (:func:`remember`), and a route flag only
    turned on (:func:`_worked_out`, which notes it in the table's derived data): what is
    kept is how many answers each network had, and how many flags had been turned on."""
    kept = dict(table.state.networks)
    opened = table.derived.opened
    return partial(_restore, table, kept,
                   [(memo, len(memo.answers)) for memo in kept.values()] if kept else (),
                   opened, len(opened))


def _restore(table: Table, kept: dict, sizes, opened: list, since: int) -> None:
    """Put back what :func:`checkpoint` kept: the networks, their answers (``sizes``: how
    many each had) and the route flags (``since``: how many had been turned on)."""
    if table.state.networks != kept:
        table.state.networks.clear()
        table.state.networks.update(kept)
    for memo, size in sizes:
        answers = memo.answers
        if len(answers) > size:
            for key in list(islice(answers, size, None)):
                del answers[key]
    if len(opened) > since:
        for operator in opened[since:]:
            operator.route_known = False
        del opened[since:]


def token_nodes(table: Table, operator) -> List[Node]:
    """The cities holding the operator's tokens, in map order (the hexes' order, then the
    cities' on the tile), each once. A token placed names its city (``where``: the hex and
    the city's place among the hex's cities in the state, which are those of its tile as
    laid). Worked out once until the board changes (kept in the table's derived data: a
    token placed or lifted, a tile laid drops it, :func:`before_board_change`); the list
    is not to be changed."""
    key = ("tokens", operator)
    found = table.derived.network.get(key)
    if found is None:
        found = table.derived.network[key] = _token_cities(table, operator)
    return found


def _token_cities(table: Table, operator) -> List[Node]:
    """:func:`token_nodes`, worked out."""
    places = {t.where for t in operator.tokens if t.where is not None}
    if not places:
        return []
    if len(places) > 1:
        order = table.spec.hex_order
        places = sorted(places, key=lambda place: (order[place[0]], place[1]))
    out = []
    for hex_id, i in places:
        nodes = view(table, hex_id).cities
        if i < len(nodes):
            out.append(nodes[i])
    return out


def _memo(table: Table, operator) -> Network:
    """The operator's network: as last worked out, or worked out now. Looking at it while
    playing records a route found, and keeps what was worked out (not while moves are only
    being listed)."""
    return _worked_out(table, operator)[0]


def _worked_out(table: Table, operator) -> tuple:
    """:func:`_memo`, and the stops and track of the walk if it was worked out just now
    (else None). A walk made at this position is made once (kept in the table's derived
    data until an action is carried out or the board changes), whether moves are being
    listed or an action applied: what it records in the state (the network, a route
    found) is put back after a listing or a refused action (:func:`checkpoint`)."""
    walked = None
    memo = table.state.networks.get(operator)
    if memo is None or memo.pending:
        waiting = memo
        memo = table.derived.network.get(("walked", operator))
        if memo is None:
            memo, walked = _explore(table, operator)
            table.derived.network[("walked", operator)] = memo
        _answers_kept(waiting, memo)
        table.state.networks[operator] = memo
    if memo.route_for_train and not operator.route_known:
        operator.route_known = True
        table.derived.opened.append(operator)     # put back by :func:`checkpoint`
    return memo, walked


def reach(table: Table, operator) -> Live:
    memo, walked = _worked_out(table, operator)
    return _live(table, memo, walked)


def _live(table: Table, memo: Network, walked: Optional[tuple]) -> Live:
    """``memo`` as the objects of the map (``walked``: as the walk just found them), kept
    in the table's derived data as long as ``memo`` is the network."""
    found = table.derived.network.get(id(memo))
    if found is None or found.memo is not memo:
        found = table.derived.network[id(memo)] = Live(table, memo, walked)
    return found


def _explore(table: Table, operator) -> tuple:
    """Work out the operator's network: the walk of :func:`.walk.follow` from each of its
    token cities in turn (read as far as it was made at this position, :func:`walk_so_far`,
    and made on from there). Nodes and rails are kept in the order first reached; a route
    is found from one token's walk, counting only the stops on track that no earlier walk
    reached. Returns the network and the stops and track reached (as objects of the map)."""
    result = Network()
    starts = token_nodes(table, operator)
    rails: Dict[Rail, bool] = {}
    nodes: Dict[Node, bool] = {}
    state_hexes = table.state.hexes
    for node in starts:
        sides = result.seeds.setdefault(node.hex, [])
        for side in state_hexes[node.hex].open_sides:
            if side not in sides:
                sides.append(side)
        nodes[node] = True
    known = operator.route_known
    for start in starts:
        local: Dict[Node, bool] = {}
        for rail in map(_RAIL, walk_so_far(table, operator, start, starts)):
            if rail in rails:
                continue
            rails[rail] = True
            for n in rail.nodes:
                nodes[n] = True
                local[n] = True
        if known:
            continue
        mandatory = sum(1 for n in local if not n.part.optional)
        optional = len(local) - mandatory
        if mandatory > 1:
            result.route = result.route_for_train = True
            known = True
        elif mandatory == 1 and optional > 0:
            result.route = True
    if known:
        result.route = result.route_for_train = True
    result.nodes = [(n.view.hex, n.index) for n in nodes]
    result.rails = [(r.hex, r.position) for r in rails]
    return result, (nodes, rails)


# -- what the network gives ----------------------------------------------------------------


def hexes_reached(table: Table, operator) -> Dict[Optional[str], List[int]]:
    """Hexes where the operator may lay track, with their sides: every side of its token
    hexes, then, as reached, the sides its track uses and the facing sides of the hexes
    across them."""
    live = reach(table, operator)
    if live.hexes is None:
        hexes: Dict[Optional[str], Dict[int, bool]] = {
            h: dict.fromkeys(s, True) for h, s in live.memo.seeds.items()}
        for rail in live.rails:
            sides = hexes.setdefault(rail.hex, {})
            if not rail.sides:
                continue
            for side, other, back in rail_across(table, rail):
                sides[side] = True
                facing = hexes.get(other)
                if facing is None:
                    facing = hexes[other] = {}
                facing[back] = True
        live.hexes = {h: list(s) for h, s in hexes.items()}
    return live.hexes


def arrives_at(table: Table, operator, hex_id: str, sides) -> Optional[List[int]]:
    """The hex's sides at which the operator's network arrives, as far as a tile with
    exits ``sides`` needs to know that it points at one: all of them
    (:func:`hexes_reached`) when the network is known or working it out could record
    something (moves listed, a route found); otherwise only the first of ``sides`` found,
    by walks that stop at the first track arriving there (None: none), and nothing is
    kept (what a lay works out is forgotten once it is laid)."""
    memo = table.state.networks.get(operator)
    if (memo is None or memo.pending) and may_wait(table, operator):
        return _first_arrival(table, operator, hex_id, sides)
    return hexes_reached(table, operator).get(hex_id)


def _first_arrival(table: Table, operator, hex_id: str, sides) -> Optional[List[int]]:
    """The first of ``sides`` of the hex found where the operator's network arrives (see
    :func:`hexes_reached`): a side of a token hex, a side its track uses there, or the
    side across which a neighbour's track it reaches faces the hex. The network arrives
    there if the walk from one of its token cities does: the nearest are walked first.
    A walk that arrived goes on until it first enters the hex's track, and notes where
    (:func:`entries_noted`: the upgrade's track restriction may be told by it)."""
    starts = token_nodes(table, operator)
    if any(node.hex == hex_id for node in starts):
        open_sides = table.state.hexes[hex_id].open_sides
        found = [s for s in sides if s in open_sides]
        if found:
            return found[:1]
    arrivals: Dict[Rail, int] = {}   # track arriving at one of the sides, and that side
    for rail in view(table, hex_id).rails:
        side = next((s for s in rail.sides if s in sides), None)
        if side is not None:
            arrivals[rail] = side
    across = table.spec.grid.across[hex_id]
    for side in sides:
        other = across.get(side)
        back = facing(side)
        if other is None or back not in table.state.hexes[other].open_sides:
            continue
        for rail in view(table, other).rails:
            if back in rail.sides:
                arrivals.setdefault(rail, side)
    if not arrivals:
        return None
    goal = frozenset(arrivals)
    distance = table.spec.grid.distance
    noted = table.derived.network.setdefault(("entered", operator, hex_id), {})
    for start in sorted(starts, key=lambda node: distance(node.hex, hex_id)):
        arrived = _arrival(table, start, starts, operator, goal, hex_id, noted)
        if arrived is not None:
            return [arrivals[arrived]]
    return None


def _arrival(table: Table, start: Node, tokens: List[Node], operator, goal: frozenset,
             hex_id: str, noted: Dict[Node, Optional[tuple]]) -> Optional[Rail]:
    """:func:`first_reached` for the walk from ``start`` to ``goal`` (track arriving at
    the hex), which goes on, if the hex has track and the walk has not entered it yet,
    until it does, noting in ``noted`` how it first entered (:func:`entries_noted`), or
    that it did not. The walk is read as far as it was made at this position
    (:func:`walk_so_far`), and made further only if the answer lies beyond."""
    walked = walk_so_far(table, operator, start, tokens)
    if start in noted or not view(table, hex_id).rails:     # nothing to note: the goal alone
        for rail in map(_RAIL, walked):
            if rail in goal:
                return rail
        return None
    entering = True
    arrived = None
    for rail, side, _junction, _forked in walked:
        if entering and rail.hex == hex_id:
            entering = False
            noted[start] = track_end(rail, side) if side is not None else None
        if arrived is None and rail in goal:
            arrived = rail
        if arrived is not None and not entering:
            return arrived
    if entering:
        noted[start] = None     # walked through without entering: the next walk stops sooner
    return arrived


def walk_so_far(table: Table, operator, start: Node, tokens: List[Node]) -> Iterator[tuple]:
    """The walk of :func:`moves` from ``start`` (``tokens``: the operator's token cities)
    on the board as it is, read from its first move. The walk from a city is the same
    whatever it looks for, and reads nothing but the board, so it is made once while the
    board stays as it is (kept in the table's derived data, with the stops closed to the
    operator its walks found, until the board changes: :func:`position_changed`), and
    only as far as it is read: walks that stop at different goals, as the lay's rotation
    check, 1849's gauge rule and the question after the lay (or after the next action)
    make, read again the moves made and walk on only beyond them. (A copy of an ``itertools.tee``
    kept at the first move reads the moves made, the walk beyond as it is made.)"""
    return copy(_walk_made(table, operator, start, tokens)[0])


def walk_unmade(table: Table, operator, start: Node, tokens: List[Node]) -> Optional[tuple]:
    """The walk of :func:`walk_so_far` from ``start`` and its trail (:func:`.walk.new_trail`)
    when none of it was made yet (None otherwise): its first reader sees the trail as each
    move is made (as :func:`.reaching.first_entries` reads it), and whatever reads the
    walk later reads those moves again."""
    if ("moves", operator, start) in table.derived.network:
        return None
    made, trail = _walk_made(table, operator, start, tokens)
    return copy(made), trail


def _walk_made(table: Table, operator, start: Node, tokens: List[Node]) -> tuple:
    """The walk of :func:`walk_so_far` as kept (its moves as made, and its trail)."""
    derived = table.derived.network
    key = ("moves", operator, start)
    made = derived.get(key)
    if made is None:
        closed = derived.setdefault(("closed", operator), {})
        trail = new_trail(table, start, tokens, operator, closed)
        made = derived[key] = (tee(moves(table, start, tokens, operator, closed, trail), 1)[0],
                               trail)
    return made


def entries_noted(table: Table, operator, hex_id: str) -> tuple:
    """Where the walks of :func:`_first_arrival` to the hex made at this position first
    entered it, each across a side: ``(side, lane, gauge)`` of the rail entered, for each
    token city whose walk did before it stopped."""
    noted = table.derived.network.get(("entered", operator, hex_id))
    return tuple(e for e in noted.values() if e is not None) if noted else ()


def rail_across(table: Table, rail: Rail) -> tuple:
    """``(side, hex across or None, its facing side)`` for each side of ``rail`` (None
    where track may not cross). Kept on the rail while its hex's open sides stay."""
    open_sides = table.state.hexes[rail.hex].open_sides
    found = rail.across
    if found is None or found[0] is not open_sides:
        grid = table.spec.grid.across[rail.hex]
        found = rail.across = (open_sides, tuple(
            (side, grid.get(side) if side in open_sides else None, facing(side))
            for side in rail.sides))
    return found[1]


def nodes_reached(table: Table, operator) -> Dict[Node, bool]:
    return reach(table, operator).nodes


def reaches_stop(table: Table, operator, node: Node) -> bool:
    """Is ``node`` among the stops the operator reaches (:func:`nodes_reached`)? When its
    network is not known and walking it would record nothing new (:func:`may_wait`), the
    walks stop at that stop, and nothing is kept."""
    memo = table.state.networks.get(operator)
    if (memo is None or memo.pending) and may_wait(table, operator) and \
            ("walked", operator) not in table.derived.network:
        return _any_reached(table, operator, lambda stop: stop is node)
    return node in nodes_reached(table, operator)


def rails_reached(table: Table, operator) -> Dict[Rail, bool]:
    return reach(table, operator).rails


def has_route(table: Table, operator) -> bool:
    """Could the operator run a train (two stops, not both optional, from one token)?
    Once it has had a route for a train, yes without looking."""
    return operator.route_known or _memo(table, operator).route


def forget_route(operator) -> None:
    """The operator's stations changed hands (a merger's survivor took another's): it may
    no longer have the route it once had, so whether it has one is worked out afresh from
    its network (18xx.games clears the survivor's route information then)."""
    operator.route_known = False


def has_route_for_train(table: Table, operator) -> bool:
    """Must it own a train: can it reach two stops that are not optional?"""
    return operator.route_known or _memo(table, operator).route_for_train


def remember(table: Table, operator, key: str, compute) -> bool:
    """A yes/no answer about the operator's network, kept as long as the network is
    (worked out from the stops and track of the walk, if it was made just now)."""
    memo, walked = _worked_out(table, operator)
    found = memo.answers.get(key)
    if found is None:
        if walked is not None:
            _live(table, memo, walked)
        found = memo.answers[key] = bool(compute())
    return found


def remember_any(table: Table, operator, key: str, test: Callable[[Node], bool]) -> bool:
    """:func:`remember` whether some stop the operator reaches passes ``test``. When its
    network is not known and walking it would record nothing new (:func:`may_wait`), the
    walks stop at the first stop that passes, and the network is kept as :func:`pending`
    with the answer (the order stops are reached in does not change whether one passes),
    which holds as long as the network does."""
    memo = table.state.networks.get(operator)
    if memo is not None and memo.pending and key in memo.answers:
        return memo.answers[key]
    if (memo is not None and not memo.pending) or not may_wait(table, operator) or \
            ("walked", operator) in table.derived.network:
        return remember(table, operator, key,
                        lambda: any(map(test, nodes_reached(table, operator))))
    if memo is None:
        memo = table.state.networks[operator] = pending()
    found = memo.answers.get(key)
    if found is None:
        found = memo.answers[key] = _any_reached(table, operator, test)
    return found


def _any_reached(table: Table, operator, test: Callable[[Node], bool]) -> bool:
    """Does a stop of the operator's network (as :func:`_explore` finds its stops: its
    token cities, and those of the track each walk reaches) pass ``test``? The stops the
    walks made at this position reached (kept in the table's derived data like the walks,
    :func:`_worked_out`) are asked first: a token placed right after the question whether
    one may be placed is mostly on a stop it reached. The walks are those made at this
    position as far as they were (:func:`walk_so_far`)."""
    tried: Dict[Node, bool] = table.derived.network.setdefault(("stops", operator), {})
    if any(map(test, tried)):
        return True
    starts = token_nodes(table, operator)
    for node in starts:
        if node not in tried:
            tried[node] = True
            if test(node):
                return True
    for start in starts:
        for rail in map(_RAIL, walk_so_far(table, operator, start, starts)):
            for node in rail.nodes:
                if node not in tried:
                    tried[node] = True
                    if test(node):
                        return True
    return False


def _answers_kept(waiting: Optional[Network], memo: Network) -> None:
    """A network known as :func:`pending` was walked: the answers found of it hold."""
    if waiting is not None and waiting.answers:
        for key, found in waiting.answers.items():
            memo.answers.setdefault(key, found)


def keep_found(table: Table, operator, memo: Network) -> None:
    """Keep ``memo`` as the operator's network (worked out for a tile just laid)."""
    table.state.networks[operator] = memo


# -- a network walked when first read ------------------------------------------------------


def may_wait(table: Table, operator) -> bool:
    """May the operator's network with a tile about to be laid be walked only when first
    read (:func:`pending`)? When walking it records nothing new: an operator that has had
    a route for a train."""
    return isinstance(operator, OperatorState) and operator.route_known


def pending() -> Network:
    """A network known only as the walk on the board as it is: kept as the operator's
    (:func:`keep_found`), it is walked when first read, or just before the board changes
    (:func:`before_board_change`), so that it is what a walk right away would find."""
    return Network(pending=True)


def before_board_change(table: Table) -> None:
    """The board is about to change: networks known only as :func:`pending` are walked."""
    networks = table.state.networks
    waiting = [operator for operator, memo in networks.items() if memo.pending]
    for operator in waiting:
        memo = _explore(table, operator)[0]
        _answers_kept(networks[operator], memo)
        networks[operator] = memo
    position_changed(table, board_changed=True)   # what was worked out of the board as it was


board.BEFORE_CHANGE.append(before_board_change)
