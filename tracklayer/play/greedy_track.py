"""The greedy bot's track and stations: which tile lay or station token serves its company
best, and which lays are worth judging at all.

A lay is first guessed at without the route finder (:meth:`TrackSense.guess`): on a stop,
near home, its track leading towards a paying stop the company has no station on (a
company whose track leads nowhere earns nothing, whatever it lays next to home). The few
best guesses are then tried on a copy of the game and scored by how much they raise the
company's best revenue (:meth:`TrackSense.by_revenue`). Only the best guessed candidates
are ever judged legal (``asking``): on 1817's dense map a company is offered a thousand
lays, and the bot plays one of the first few.
"""

from __future__ import annotations

from array import array
from typing import Dict, FrozenSet, List, Optional

from .. import snapshot
from ..board.tiles import COLOR_ORDER
from ..errors import GameError
from ..finder import find_best_routes
from ..game import Game
from ..rules import board, network, trains
from ..state.model import CompanyState, OperatorState
from ..turns.listing import concrete

LAY_HEXES = 16          # hexes an operator's tile lays are listed on, the likeliest first
TRIED_LAYS = 2          # tile lays tried on a copy with the route finder, per decision
ASKED_LAYS = 4          # legal lays looked for, best guessed first, per decision
FINDER_STEPS = 2000      # search steps the route finder may take per trial (about 0.01 s):
#                          counted, not timed, so that the bot chooses the same under load
FINDER_SAFETY_S = 5.0    # a time cap only against the pathological
NEAR = 2                # hexes from home counted in a home's worth
TOWARD = 3              # a lay leading within this many hexes of a paying stop gains
REACHED = 100.0         # a lay meeting the operator's network is judged before any other
COLOURS = ("yellow", "green", "brown", "gray")


class TrackSense:
    """What the greedy bot knows of track (see the module docstring). Expects ``rng``
    and ``needs_train`` of the bot."""

    paying: Optional[List[str]] = None
    goal_distances: Optional[Dict[FrozenSet[str], Dict[str, int]]] = None

    def rank_lays(self, game: Game, candidates: List[dict]) -> List[float]:
        """A guess per candidate lay (all of one entity), unjudged: which to judge first.
        Those meeting the operator's network first (most legal lays do), then by
        :meth:`guess`, worked out hex by hex (a thousand candidates lie on a few dozen
        hexes)."""
        table = game.table
        first = candidates[0]
        operator = runner(table.find(first.get("entity_type"), first.get("entity")))
        reached = network.hexes_reached(table, operator) if operator is not None else {}
        distances = self.distances_to_goals(game, stations(operator))
        home = self.home_of(game, operator)
        per_hex: Dict[str, float] = {}
        out = []
        for h in candidates:
            hex_id, exits = h.get("hex"), self.exits(table, h)
            if hex_id not in table.state.hexes or exits is None:
                out.append(0.5)
                continue
            base = per_hex.get(hex_id)
            if base is None:
                base = per_hex[hex_id] = self.hex_worth(table, home, hex_id)
            meets = any(side in exits for side in reached.get(hex_id) or ())
            out.append(base + self.toward_from(table, hex_id, exits, distances) +
                       (REACHED if meets else 0.0) + self.rng.random() * 0.1)
        return out

    def lay_hexes(self, game: Game, entity, hexes: list) -> list:
        """The ``LAY_HEXES`` hexes (of ``hexes``, those the operator's network reaches, in
        their order) where its lays are likeliest worth most, by :meth:`hex_worth` and
        nearness to a paying stop it has no station on: on 1817's dense track a company
        reaches dozens of hexes, and every tile each way round on each is judged before
        the best guessed few are chosen."""
        operator = runner(entity)
        if len(hexes) <= LAY_HEXES or operator is None:
            return hexes
        table = game.table
        home = self.home_of(game, operator)
        distances = self.distances_to_goals(game, stations(operator))
        worth = {x: self.hex_worth(table, home, x) + 1.5 * max(
            0.0, TOWARD - max(0, distances.get(x, TOWARD + 1) - 1))
            for x in hexes if x in table.state.hexes and upgradable_now(table, x)}
        best = set(sorted(worth, key=lambda x: -worth[x])[:LAY_HEXES])
        self.left_out[operator.id] = [x for x in hexes if x not in best]
        return [x for x in hexes if x in best]

    def lays_listed(self, game: Game, asked) -> List[dict]:
        """The moves ``asked`` lists (given a choice of hexes for lays), lays on the
        likeliest hexes (:meth:`lay_hexes`); if none is legal there, on the others."""
        self.left_out: Dict[str, List[str]] = {}
        moves = asked(lambda entity, hexes: self.lay_hexes(game, entity, hexes))
        if not self.left_out or any(h["type"] == "lay_tile" for h in moves):
            return moves
        left = self.left_out

        def the_others(entity, hexes: list) -> list:
            operator = runner(entity)
            others = set(left.get(operator.id, ())) if operator is not None else set()
            return [x for x in hexes if x in others]
        return asked(the_others)

    def exits(self, table, h: dict) -> Optional[tuple]:
        """The sides the lay's tile leaves by, as laid (None if it names no tile)."""
        tile_id, rotation = h.get("tile"), h.get("rotation")
        if not isinstance(tile_id, str) or not isinstance(rotation, int):
            return None
        try:
            return tuple(board.supply_tile(table, tile_id).layout(rotation).exits)
        except GameError:
            return None

    def hex_worth(self, table, home: Optional[str], hex_id: str) -> float:
        """A hex's worth for track: its stops, and its nearness to home."""
        stops = sum(1 for n in board.view(table, hex_id).nodes.values()
                    if n.is_city or n.is_town or n.is_offboard)
        near = 0.0
        if home is not None:
            near = max(0.0, 2.0 - table.spec.grid.distance(home, hex_id) / 3)
        return 1.0 + stops + near

    def by_revenue(self, game: Game, moves: List[dict]) -> Dict[int, float]:
        """Scores of tile lays (or tokens) by the best revenue after them, for a few of
        them tried on a copy; the others by a guess."""
        table = game.table
        entity = table.find(moves[0].get("entity_type"), moves[0].get("entity"))
        operator = runner(entity)
        guesses = [(self.guess(game, operator, h), i) for i, h in enumerate(moves)]
        guesses.sort(reverse=True)
        out = {i: g for g, i in guesses}
        if operator is None or not operator.trains or \
                (len(moves) == 1 and moves[0]["type"] == "lay_tile"):
            return out      # nothing runs yet, or a single lay (a lay beats no lay)
        with snapshot.collector_paused():     # copies made and dropped: nothing to collect
            self.tried(game, operator, moves, guesses, out)
        return out

    def tried(self, game: Game, operator, moves: List[dict], guesses: List[tuple],
              out: Dict[int, float]) -> None:
        """The best guessed moves tried on a copy, scored by the operator's best revenue
        after them (what it earns before is the same for every move tried, so the finder
        is not asked for it)."""
        trial = game.clone()
        start = snapshot.take(trial.table)
        for g, i in guesses[:TRIED_LAYS]:
            try:
                trial.apply(dict(concrete(moves[i]), id=len(game.actions) + 1))
                found = runner(trial.table.find(moves[i]["entity_type"], moves[i]["entity"]))
                after = find_best_routes(trial.table, found, budget_s=FINDER_SAFETY_S,
                                         max_steps=FINDER_STEPS).revenue \
                    if found is not None else 0
                out[i] = g + after + (2.0 if after > 0 else 0.0)
            except GameError:
                out[i] = -10.0
            snapshot.restore(trial.table, start)
            trial.played = array("l", game.played)

    def guess(self, game: Game, entity, h: dict) -> float:
        """A lay or token worth without the finder: on a stop, near home, cheap."""
        table = game.table
        if h["type"] == "place_token":
            if not isinstance(entity, OperatorState):
                return 1.0
            if all(t.where is None for t in entity.tokens):
                return 3.0 + self.worth_near(game, [h.get("city", "").split("-")[0]]) / 10
            price = next((t.price for t in entity.tokens if t.where is None), 0)
            reserve = trains.cheapest_price(table) if self.needs_train(game, entity) else 0
            return 3.0 if entity.cash - price >= reserve else -1.0
        hex_id = h.get("hex")
        if hex_id not in table.state.hexes:
            return 0.5
        return self.hex_worth(table, self.home_of(game, entity), hex_id) + \
            self.toward(game, entity, h) + self.rng.random() * 0.1

    def toward(self, game: Game, entity, h: dict) -> float:
        """How much nearer a stop the lay's track leads: the fewest hexes from a hex its
        track points into to a hex with a paying stop the operator has no station on (a
        company whose track leads nowhere earns nothing, whatever it lays next to home)."""
        table = game.table
        exits = self.exits(table, h)
        if exits is None:
            return 0.0
        distances = self.distances_to_goals(game, stations(entity))
        return self.toward_from(table, h["hex"], exits, distances)

    def toward_from(self, table, hex_id: str, exits: tuple,
                    distances: Dict[str, int]) -> float:
        across = table.spec.grid.across.get(hex_id, {})
        ends = [across[s] for s in exits if s in across]
        if not distances or not ends:
            return 0.0
        nearest = min(distances.get(e, TOWARD) for e in ends)
        return max(0.0, TOWARD - nearest) * 1.5

    def distances_to_goals(self, game: Game, own: FrozenSet[str]) -> Dict[str, int]:
        """Per hex of the map, the fewest hexes to one with a paying stop not in ``own``
        (worked out once per set of stations: stops stay put); empty without goals."""
        if self.goal_distances is None:
            self.goal_distances = {}
        found = self.goal_distances.get(own)
        if found is None:
            table = game.table
            grid = table.spec.grid
            goals = [x for x in self.paying_hexes(game) if x not in own]
            found = {x: min(grid.distance(x, g) for g in goals)
                     for x in table.state.hexes} if goals else {}
            self.goal_distances[own] = found
        return found

    def paying_hexes(self, game: Game) -> List[str]:
        """The hexes with a stop that pays (worked out once a game: stops stay put)."""
        if self.paying is None:
            table = game.table
            self.paying = [x for x in table.state.hexes if any(
                n.revenue_in(COLOURS) for n in board.view(table, x).nodes.values())]
        return self.paying

    def home_of(self, game: Game, entity) -> Optional[str]:
        if not isinstance(entity, OperatorState):
            return None
        for t in entity.tokens:
            if t.where is not None:
                return t.where[0]
        home = entity.spec.home
        return home if isinstance(home, str) else (home[0] if home else None)

    def worth_near(self, game: Game, homes: List[str]) -> int:
        """The revenue of the stops within ``NEAR`` hexes of ``homes``."""
        table = game.table
        grid = table.spec.grid
        homes = [x for x in homes if x in table.state.hexes]
        return sum(n.revenue_in(COLOURS) for hex_id in table.state.hexes
                   if homes and min(grid.distance(hex_id, x) for x in homes) <= NEAR
                   for n in board.view(table, hex_id).nodes.values())


def upgradable_now(table, hex_id: str) -> bool:
    """May a tile be laid on the hex in this phase: is the colour after its tile's one
    the phase allows (a tile replaces one of the colour before its own)?"""
    colour = board.view(table, hex_id).layout.tile.color
    at = COLOR_ORDER.index(colour) + 1 if colour in COLOR_ORDER else len(COLOR_ORDER)
    return at < len(COLOR_ORDER) and COLOR_ORDER[at] in table.variant.tile_colors(table,
                                                                                   hex_id)


def stations(entity) -> FrozenSet[str]:
    """The hexes of the operator's station tokens on the map."""
    tokens = entity.tokens if isinstance(entity, OperatorState) else ()
    return frozenset(t.where[0] for t in tokens if t.where is not None)


def runner(entity) -> Optional[OperatorState]:
    """The operator whose routes a move of ``entity`` serves: the operator itself, or the
    operator owning a private company that acts (1817's mines and Denver lay tiles)."""
    if isinstance(entity, OperatorState):
        return entity
    if isinstance(entity, CompanyState) and isinstance(entity.owner, OperatorState):
        return entity.owner
    return None
