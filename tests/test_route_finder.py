"""The optimal route finder: never worse than the players, always legal, and exact.

* Real games (``../shared/fixtures``): at every ``run_routes`` entry the finder earns at
  least what was recorded, and the engine accepts its routes as that action.
* Generated positions (random track around a spot of the 1893 map, random tokens, trains
  and phase): the finder's revenue equals that of an exhaustive search built only on the
  engine's own route functions (``routes.trails``, ``Route.check``, ``Route.revenue``) —
  for the standard rules, for a reach measured in hex sides (as in 1849), and for a title
  with its own revenue bonus and route checks.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import random
from typing import Sequence

import pytest

from conftest import fixture_files, load_json
from tracklayer.board.tiles import TileDef
from tracklayer.cli import main
from tracklayer.errors import GameError, RouteError
from tracklayer.finder import find_best_routes
from tracklayer.finder.combination import combine
from tracklayer.finder.search import Found, SearchTimeout, _Clock
from tracklayer.game import Game
from tracklayer.io.export import recorded_revenue, route_positions
from tracklayer.rules import board, network, tokens, trains as train_rules
from tracklayer.rules.revenue import standard_limits, standard_stop_cost
from tracklayer.rules.route_reading import read_routes
from tracklayer.rules.routes import (Chain, Leg, Route, check_no_shared_track, check_run,
                                     continues, trails)
from tracklayer.spec.data import StopAllowance, TrainVariant
from tracklayer.titles import supported_titles, title
from tracklayer.titles.cologne.rules import Cologne

TITLE_DIRS = {"1893": "1893", "1849: Kingdom of the Two Sicilies": "1849KingdomoftheTwoSicilies",
              "1817NA": "1817NA", "The Old Prince 1871": "1871"}


def _fixtures() -> list:
    out = []
    for name in supported_titles():
        out.extend(fixture_files(TITLE_DIRS.get(name, name)))
    return out


# ---------------------------------------------------------------------------------------------
# Real games


@pytest.mark.parametrize("path", _fixtures())
def test_real_positions_at_least_recorded_and_accepted(path):
    data = load_json(path)
    seen = 0
    for index, entry, game, entity in route_positions(data):
        result = find_best_routes(game.table, entity)
        recorded = recorded_revenue(entry)
        assert result.revenue >= recorded, \
            f"entry {index} ({entity.name}): {result.revenue} < recorded {recorded}"
        trial = game.clone()
        trial.apply(dict(entry, routes=result.routes))  # raises if the engine refuses them
        seen += 1
    assert seen > 0


@pytest.mark.parametrize("path", fixture_files("1893"))
def test_cli_routes(path, capsys):
    data = load_json(path)
    entries = [i for i, h in enumerate(data["actions"]) if h["type"] == "run_routes"]
    assert main(["routes", str(path), "--all", "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [x["action"] for x in lines] == entries
    for x in lines:
        assert set(x) == {"action", "id", "entity", "recorded", "revenue", "proven", "ms",
                          "routes"}
        assert x["id"] == data["actions"][x["action"]]["id"]
        assert x["revenue"] == sum(r["revenue"] for r in x["routes"]) >= x["recorded"]
        assert x["proven"]
    last = lines[-1]
    assert main(["routes", str(path), "--action", str(last["action"])]) == 0
    out = capsys.readouterr().out
    assert f"earns {last['revenue']} (recorded {last['recorded']}), optimal (proven)" in out
    assert all(r["revenue_str"] in out for r in last["routes"])


# ---------------------------------------------------------------------------------------------
# Generated positions

TITLE_1893 = title("1893")
TRAINS = ["2", "3", "4", "5", "6", "8+x"]


class HexReach1893(Cologne):
    """1893's map with 1849's rule of reach: a train counts the hex sides it crosses."""

    @staticmethod
    def hex_sides(rails) -> int:
        return sum(1 for a, b in zip(rails, rails[1:]) if a.hex != b.hex)

    def check_reach(self, table, route, visited) -> None:
        used = sum(self.hex_sides(leg.chain.rails) for leg in route.legs)
        if used > route.train.variant.distance:
            raise RouteError(f"{used} hex sides is too far for a {route.train.name} train")

    def reach_limits(self, table, train) -> dict:
        return {"hexes": train.variant.distance}

    def stop_reach_cost(self, table, train, node) -> dict:
        return {}

    def chain_reach_cost(self, table, train, rails):
        return {"hexes": self.hex_sides(list(rails))}


class BonusChecks1893(Cologne):
    """1893 with a title's own revenue and route checks: a route to an off-board earns 30
    more and needs at least three stops; no route visits more than one town."""

    BONUS = 30

    def route_bonus(self, table, route, stops) -> int:
        bonus = self.BONUS if any(s.is_offboard for s in stops) else 0
        return super().route_bonus(table, route, stops) + bonus

    def route_bonus_bound(self, table, operator, train) -> int:
        return self.BONUS

    def route_problem(self, table, route) -> None:
        super().route_problem(table, route)
        stops = route.visited()
        if any(s.is_offboard for s in stops) and len(stops) < 3:
            raise RouteError("a route to an off-board needs three stops")
        if sum(1 for s in stops if s.is_town) > 1:
            raise RouteError("a route may visit one town at most")


class Bonus1893(BonusChecks1893):
    """The rules above, and a rule on the set of routes: only one of a company's routes
    may run to an off-board."""

    def routes_problem(self, table, routes) -> None:
        super().routes_problem(table, routes)
        if sum(1 for r in routes if any(s.is_offboard for s in r.visited())) > 1:
            raise RouteError("only one route may run to an off-board")


def _exits(table, hex_id: str, tile_id: str, rotation: int) -> list:
    return board.supply_tile(table, tile_id).layout(rotation).exits


def _fits(table, hex_id: str, exits) -> bool:
    """Does every exit of a tile (as turned) lead to a hex that may be entered from
    ``hex_id`` (no impassable border, on either side, as the rules for laying track
    require)?"""
    for e in exits:
        n = board.neighbour(table, hex_id, e)
        if n is None or board.neighbour(table, n, (e + 3) % 6) != hex_id:
            return False
    return True


def _joins(table, hex_id: str, exits) -> int:
    """How many exits of a tile (as turned) meet track of the neighbouring tiles."""
    return sum(1 for e in exits
               if (e + 3) % 6 in board.view(table, board.neighbour(table, hex_id, e)).layout.exits)


def make_position(seed: int, rules=Cologne, trains=TRAINS, radius: int = 3, fill: float = 0.9,
                  extra_tiles: Sequence[str] = ()):
    """A random position: on most plain hexes within ``radius`` of a random hex, in random
    order, whichever of a few random tiles (the title's, plus three of each of
    ``extra_tiles``, in tile notation) and turns joins the most track already there;
    1-2 tokens of DE, some cities filled by others' tokens; 1-3 trains (maybe alike) for
    DE; a random phase. Returns (table, DE)."""
    rng = random.Random(seed)
    the_title = dataclasses.replace(TITLE_1893, rules=rules)
    while True:
        game = Game(the_title, [(1, "A"), (2, "B"), (3, "C")], seed=1, keep_log=False,
                    snapshot_every=None)
        table = game.table
        if extra_tiles:
            # the game's own copy of the static data, with the extra tiles' shapes
            spec = copy.copy(table.spec)
            spec.tile_defs = dict(spec.tile_defs)
            for i, code in enumerate(extra_tiles):
                spec.tile_defs[f"X{i}"] = TileDef(f"X{i}", "yellow", code)
            table.spec = spec
        state = table.state
        corp = table.corporation("DE")
        grid = table.spec.grid
        plain = [h for h in state.hexes if board.view(table, h).tile.color == "white"
                 and not any(t is not None for c in state.hexes[h].cities for t in c.slots)]
        center = rng.choice(plain)
        region = [h for h in state.hexes if grid.distance(h, center) <= radius]
        rng.shuffle(region)
        pool = list(state.tiles)
        pool += [f"X{i}-{k}" for i in range(len(extra_tiles)) for k in range(3)]
        for h in region:
            if h not in plain or rng.random() > fill:
                continue
            tries = []
            for tile_id in rng.sample(pool, 6):
                for rotation in rng.sample(range(6), 3):
                    exits = _exits(table, h, tile_id, rotation)
                    if _fits(table, h, exits):
                        tries.append((_joins(table, h, exits), rng.random(), tile_id, rotation))
            if not tries:
                continue
            _, _, tile_id, rotation = max(tries, key=lambda t: t[:2])
            pool.remove(tile_id)
            if tile_id in state.tiles:
                state.tiles.remove(tile_id)
            board.lay(table, h, tile_id, rotation, board.supply_tile(table, tile_id))
        network.forget(table)
        cities = [n for h in region for n in board.view(table, h).cities
                  if n.rails and tokens.free_slots(n.city)]
        if not cities:
            continue
        rng.shuffle(cities)
        for city in cities[:rng.choice([1, 1, 2])]:
            tokens.place(table, corp, city, tokens.next_token(corp))
        others = [table.corporation(c) for c in ("RSE", "RAG", "AGV", "HGK")]
        for city in cities[2:]:
            if rng.random() < 0.3:
                free = [o for o in others if tokens.next_token(o) is not None]
                for other in free[:tokens.free_slots(city.city)]:
                    tokens.place(table, other, city, tokens.next_token(other))
        for name in [rng.choice(trains) for _ in range(rng.choice([1, 2, 2, 3]))]:
            train = next((t for t in state.depot.every
                          if t.name == name and train_rules.in_depot(t)), None)
            if train is not None:
                train_rules.hand_over(table, train, corp, None)
        state.phase = rng.randrange(len(table.spec.phases))
        network.forget(table)
        return table, corp


def _prefix_ok(table, route: Route, corp) -> bool:
    """The engine's checks that no longer route can pass once this one fails (all but the
    token and the number of stops)."""
    try:
        visited = route.visited()
        table.variant.check_reach(table, route, visited)
        check_no_shared_track(table, [route])
    except GameError:
        return False
    ordered = route.rails_in_order()
    if len(route.rails) >= 3 and any(r.terminal for r in ordered[1:-1]):
        return False
    if not all(continues(table, a, b, corp) for a, b in zip(ordered, ordered[1:])):
        return False
    groups = [g for s in visited for g in s.groups]
    return len(groups) == len(set(groups))


def brute_force_routes(table, corp, train) -> list:
    """Every route the engine accepts for ``train`` alone: all simple sequences of stops
    joined by chains of track (``routes.trails``), checked by ``Route.check``."""
    skip = table.variant.gauge_a_train_cannot_use(train)
    nodes = [n for h in table.state.hexes for n in board.view(table, h).nodes.values()
             if n.rails]
    adjacent: dict = {}

    def adj(a) -> list:
        if a not in adjacent:
            ends: dict = {}

            def visit(rail, trail, k):
                for n in rail.nodes:
                    if n is not a:
                        ends.setdefault(n, []).append(list(trail))

            trails(table, a, visit, skip)
            adjacent[a] = [(b, Chain((a, b), rails, None)) for b in nodes if b in ends
                           for rails in sorted(ends[b], key=len)]
        return adjacent[a]

    found: dict = {}

    def grow(legs: list, visited: set) -> None:
        route = Route(table, train, legs)
        if not _prefix_ok(table, route, corp):
            return
        try:
            route.check([route])
        except GameError:
            pass
        else:
            key = (frozenset(map(id, route.rails)), frozenset(map(id, visited)))
            found.setdefault(key, route)
        last = legs[-1].end
        for b, chain in adj(last):
            if b not in visited:
                grow(legs + [Leg(last, b, chain)], visited | {b})

    for a in nodes:
        for b, chain in adj(a):
            grow([Leg(a, b, chain)], {a, b})
    return list(found.values())


MAX_COMBINATIONS = 400_000


def brute_force_best(table, corp) -> int:
    """The most revenue any set of routes (one or none per train) earns that the engine
    accepts, by trying every combination, richest first."""
    runnable = [t for t in corp.trains if not t.operated]
    by_name: dict = {}
    options = []
    for train in runnable:
        if train.name not in by_name:
            by_name[train.name] = brute_force_routes(table, corp, train)
        options.append([None] + [Route(table, train, r.legs) for r in by_name[train.name]])
    size = 1
    for o in options:
        size *= len(o)
    if size > MAX_COMBINATIONS:
        pytest.skip(f"{size} combinations: too many for the exhaustive search")
    combos = sorted(itertools.product(*options),
                    key=lambda c: -sum(r.revenue for r in c if r is not None))
    for combo in combos:
        chosen = [r for r in combo if r is not None]
        try:
            check_run(table, chosen)
        except GameError:
            continue
        return sum(r.revenue for r in chosen)
    return 0


def engine_accepts(table, corp, route_dicts: list) -> None:
    """Raise unless the engine would accept ``route_dicts`` as a ``run_routes`` action (the
    checks of ``RouteStep.run``, without changing the game)."""
    found = read_routes(table, route_dicts)
    assert len({id(r.train) for r in found}) == len(found)
    for route in found:
        assert route.legs, f"route of {route.train.id} not rebuilt"
        assert route.train.owner is corp and not route.train.operated
    check_run(table, found)
    for route, d in zip(found, route_dicts):
        assert route.revenue == d["revenue"]


def _check_exact(seed: int, rules, trains=TRAINS, extra_tiles: Sequence[str] = ()):
    table, corp = make_position(seed, rules, trains, extra_tiles=extra_tiles)
    result = find_best_routes(table, corp)
    engine_accepts(table, corp, result.routes)
    assert result.revenue == sum(d["revenue"] for d in result.routes)
    assert not result.stats.get("strict_retry"), "the engine refused the finder's first answer"
    best = brute_force_best(table, corp)
    assert result.proven
    assert result.revenue == best, f"seed {seed}: finder {result.revenue}, exhaustive {best}"
    return result


@pytest.mark.parametrize("seed", range(60))
def test_exact_on_generated_positions(seed):
    _check_exact(seed, Cologne)


@pytest.mark.parametrize("seed", range(100, 115))
def test_exact_with_reach_in_hex_sides(seed):
    result = _check_exact(seed, HexReach1893, ["3", "4", "5", "6"])
    # the hooks describe the title's reach exactly: checking every candidate with the
    # engine refuses none and changes nothing
    table, corp = make_position(seed, HexReach1893, ["3", "4", "5", "6"])
    strict = find_best_routes(table, corp, strict=True)
    assert strict.stats.get("engine_refused", 0) == 0
    assert strict.revenue == result.revenue


TERMINAL_TILES = ("city 40 ; path 0 N0 terminal ; path N0 3",
                  "town 20 ; path 0 N0 ; path N0 2 terminal",
                  "path 0 3 terminal ; path 1 4",
                  "city 30 ; town 10 ; path 0 N0 ; path N0 N1 terminal ; path N1 3")


@pytest.mark.parametrize("seed", range(300, 325))
def test_exact_with_terminal_track(seed):
    """Terminal track (not only into off-boards) may only begin or end a route."""
    _check_exact(seed, Cologne, extra_tiles=TERMINAL_TILES)


@pytest.mark.parametrize("seed", range(200, 230))
def test_exact_with_title_revenue_and_checks(seed):
    """A title's revenue bonus, its checks of single routes, and its rule on the set of
    routes."""
    _check_exact(seed, Bonus1893)


@pytest.mark.parametrize("seed", range(200, 230))
def test_exact_with_title_revenue_and_route_checks(seed):
    """A title's revenue bonus and its checks of single routes, without a rule on the
    set."""
    _check_exact(seed, BonusChecks1893)


def test_generated_positions_have_routes():
    """The generated positions are not trivial: most have some revenue."""
    earning = sum(1 for seed in range(40)
                  if find_best_routes(*make_position(seed)).revenue > 0)
    assert earning >= 30


def test_out_of_time_returns_unproven_legal_routes():
    table, corp = make_position(3)
    result = find_best_routes(table, corp, budget_s=0)
    assert not result.proven
    engine_accepts(table, corp, result.routes)


@pytest.mark.parametrize("seed", [26, 28, 42, 51])
def test_cut_short_returns_the_best_found_so_far(seed):
    """Stopped after N steps of search (a budget of N steps), for growing N: the answer is
    legal, unproven until the search completes, never worse for a longer search, and
    finally the optimum."""
    table, corp = make_position(seed)
    optimum = find_best_routes(table, corp).revenue
    revenues = []
    for n in range(1, 5000):
        result = find_best_routes(table, corp, max_steps=n)
        engine_accepts(table, corp, result.routes)
        revenues.append(result.revenue)
        if result.proven:
            break
    assert revenues == sorted(revenues)
    assert revenues[1] > 0, "a route is kept as soon as one is found"
    assert revenues[-1] == optimum
    assert optimum in revenues[:-1], "the best set is kept before it is proven best"
    assert len(set(revenues)) > 2, "the search was not cut at interesting points"


@pytest.mark.parametrize("seed", range(300))
def test_combination_matches_exhaustive_assignment(seed):
    """Combining the trains' candidate routes: one or none per train, no shared track, the
    most revenue — identical trains sharing one list — equals trying every assignment."""
    rng = random.Random(seed)
    lists, same = [], []
    for _ in range(rng.randint(1, 4)):
        if lists and rng.random() < 0.5:
            lists.append(lists[-1])
            same.append(True)
            continue
        found = [Found(rng.randrange(10, 100, 10), rng.randrange(1, 1 << 8))
                 for _ in range(rng.randint(0, 9))]
        lists.append(sorted(found, key=lambda f: -f.revenue))
        same.append(False)
    best = 0
    for combo in itertools.product(*[[None] + x for x in lists]):
        chosen = [f for f in combo if f is not None]
        if len({id(f) for f in chosen}) < len(chosen):
            continue
        masks = [f.mask for f in chosen]
        if all(a & b == 0 for a, b in itertools.combinations(masks, 2)):
            best = max(best, sum(f.revenue for f in chosen))
    total, choice = combine(lists, same, 0, _Clock(float("inf")))
    assert (total if choice is not None else 0) == best


# ---------------------------------------------------------------------------------------------
# The standard reach of trains with rows


class _Train:
    def __init__(self, distance) -> None:
        self.variant = TrainVariant("t", distance, 0)
        self.name = "t"


def test_reach_of_8_plus_x():
    train = _Train((StopAllowance(("city", "offboard"), 8, 8),
                    StopAllowance(("town",), 99, 99)))
    assert standard_limits(train) == {"city+offboard": 8, "town": 99, "other": 0}
    assert standard_stop_cost(train, "city", 1) == {"city+offboard": 1}
    assert standard_stop_cost(train, "town", 1) == {"town": 1}
    assert standard_stop_cost(train, "halt", 1) == {"other": 1}


def test_reach_of_2_plus_2_lets_towns_fill_city_places():
    """A 2+2 visits two stops of any kind plus two more towns: cities and off-boards at
    most 2, all stops at most 4."""
    train = _Train((StopAllowance(("city", "offboard", "town"), 2, 2),
                    StopAllowance(("town",), 2, 2)))
    assert standard_limits(train) == {"city+offboard": 2, "city+offboard+town": 4,
                                      "other": 0}
    assert standard_stop_cost(train, "town", 1) == {"city+offboard+town": 1}


def test_a_step_budget_stops_the_search_whatever_the_clock(monkeypatch):
    """``max_steps`` bounds the search by its steps: with a time budget it cannot reach,
    and a clock running fast or slow, the search stops after the same steps with the same
    answer (the greedy bot uses it, so that its choices do not depend on the machine)."""
    import time as clock_module
    from tracklayer.finder import search
    clock = _Clock(float("inf"), max_steps=600)
    with pytest.raises(SearchTimeout):
        for _ in range(10_000):
            clock.tick()
    assert 600 < clock.ticks <= 600 + 256
    fast = _Clock(clock_module.perf_counter() + 1e9, max_steps=600)
    steps = itertools.count()
    monkeypatch.setattr(search.time, "perf_counter", lambda: next(steps) * 1000.0)
    with pytest.raises(SearchTimeout):
        for _ in range(10_000):
            fast.tick()
    assert fast.ticks == clock.ticks


def _graphs(table) -> list:
    return [v for k, v in table.derived.network.items()
            if isinstance(k, tuple) and k[0] == "graph"]


@pytest.mark.parametrize("seed", range(5))
def test_graph_kept_until_the_board_changes(seed):
    """The finder's graph is worked out once until the board changes (kept with the
    networks' walks): an action that leaves the board as it was keeps it, a token placed
    drops it, and the answers are those of a table that derived nothing."""
    table, corp = make_position(seed, Cologne)
    first = find_best_routes(table, corp)
    kept = _graphs(table)
    assert len(kept) == 1
    network.position_changed(table)       # an action that lays nothing
    assert _graphs(table) == kept
    assert find_best_routes(table, corp).routes == first.routes
    other = table.corporation("HGK")
    city = next((n for n in table.derived.network[("graph", corp, False)].nodes
                 if n.city is not None and tokens.free_slots(n.city)), None)
    if city is None:
        return
    tokens.place(table, other, city, tokens.next_token(other))
    assert not _graphs(table)
    after = find_best_routes(table, corp)
    table.forget()
    assert find_best_routes(table, corp).routes == after.routes
