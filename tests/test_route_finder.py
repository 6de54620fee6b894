"""The optimal route finder: never worse than the players, always legal, and exact.

* Real games (``../shared/fixtures``): at every ``run_routes`` entry the finder earns at
  least what was recorded, and the engine accepts its routes as that action.
* Generated positions (random track around a spot of the 1893 map, random tokens, trains
  and phase): the finder's revenue equals that of an exhaustive search built only on the
  engine's own route functions (``node_chains``, ``Route.check``, ``Route.revenue``) —
  for the standard rules, for a reach measured in hex sides (as in 1849), and for a title
  with its own revenue bonus and route check.
"""

from __future__ import annotations

import itertools
import json
import random
from typing import Sequence

import pytest

from conftest import fixture_files, load_json
from tracklayer.engine.errors import GameError, RouteError
from tracklayer.routes.finder import (Found, SearchTimeout, _Clock, combine, find_best_routes,
                                      recorded_revenue, run_routes_positions,
                                      standard_distance_limits, standard_stop_distance)
from tracklayer.map.tiles import Tile
from tracklayer.routes.route import Route, Segment, build_routes, node_chains
from tracklayer.cli import main
from tracklayer.titles import supported_titles, title_class

TITLE_DIRS = {"1893": "1893", "1849: Kingdom of the Two Sicilies": "1849KingdomoftheTwoSicilies",
              "1817NA": "1817NA", "The Old Prince 1871": "1871"}


def _fixtures() -> list:
    out = []
    for title in supported_titles():
        out.extend(fixture_files(TITLE_DIRS.get(title, title)))
    return out


# ---------------------------------------------------------------------------------------------
# Real games


@pytest.mark.parametrize("path", _fixtures())
def test_real_positions_at_least_recorded_and_accepted(path):
    data = load_json(path)
    seen = 0
    for index, entry, game, entity in run_routes_positions(data):
        result = find_best_routes(game, entity)
        recorded = recorded_revenue(entry)
        assert result.revenue >= recorded, \
            f"entry {index} ({entity.name}): {result.revenue} < recorded {recorded}"
        mark = len(game.actions)
        action = dict(entry, routes=result.routes)
        game.process_action(action)  # raises if the engine refuses the routes
        game.restore(mark)
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

G1893 = title_class("1893")
TRAINS = ["2", "3", "4", "5", "6", "8+x"]


class HexReach1893(G1893):
    """1893's map with 1849's rule of reach: a train counts the hex sides it crosses."""

    def hex_sides(self, paths) -> int:
        return sum(1 for a, b in zip(paths, paths[1:]) if a.tile.hex is not b.tile.hex)

    def check_distance(self, route, visits) -> None:
        used = sum(self.hex_sides(s.chain.paths) for s in route.segments)
        if used > route.train.distance:
            raise RouteError(f"{used} hex sides is too far for a {route.train.name} train")

    def route_distance_limits(self, train):
        return {"hexes": train.distance}

    def route_stop_distance(self, train, stop):
        return {}

    def route_chain_distance(self, train, paths):
        return {"hexes": self.hex_sides(paths)}


class Bonus1893(G1893):
    """1893 with a title's own revenue and checks: a route to an off-board earns 30 more
    and needs at least three stops; no route visits more than one town; only one of a
    company's routes may run to an off-board."""

    BONUS = 30

    def revenue_for(self, route, stops) -> int:
        bonus = self.BONUS if any(s.is_offboard for s in stops) else 0
        return super().revenue_for(route, stops) + bonus

    def route_revenue_bonus_bound(self, entity, train) -> int:
        return self.BONUS

    def check_other(self, route) -> None:
        stops = route.visited_stops()
        if any(s.is_offboard for s in stops) and len(stops) < 3:
            raise RouteError("a route to an off-board needs three stops")
        if sum(1 for s in stops if s.is_town) > 1:
            raise RouteError("a route may visit one town at most")

    def check_route_combination(self, routes) -> None:
        if sum(1 for r in routes if any(s.is_offboard for s in r.visited_stops())) > 1:
            raise RouteError("only one route may run to an off-board")


def _fits(h, tile) -> bool:
    """Does every exit of ``tile`` (as turned) lead to a hex that may be entered from ``h``
    (no impassable border, on either side, as the rules for laying track require)?"""
    for e in tile.exits:
        n = h.neighbors.get(e)
        if n is None or n.neighbors.get((e + 3) % 6) is not h:
            return False
    return True


def _joins(h, tile) -> int:
    """How many exits of ``tile`` (as turned) meet track of the neighbouring tiles."""
    return sum(1 for e in tile.exits if (e + 3) % 6 in h.neighbors[e].tile.exits)


def make_position(seed: int, cls=G1893, trains=TRAINS, radius: int = 3, fill: float = 0.9,
                  extra_tiles: Sequence[str] = ()):
    """A random position: on most plain hexes within ``radius`` of a random hex, in random
    order, whichever of a few random tiles (the title's, plus three of each of
    ``extra_tiles``, in tile notation) and turns joins the most track already there;
    1-2 tokens of DE, some cities filled by others' tokens; 1-3 trains (maybe alike) for
    DE; a random phase. Returns (game, DE)."""
    rng = random.Random(seed)
    while True:
        game = cls([(1, "A"), (2, "B"), (3, "C")], seed=1, log=False)
        corp = game.corporation_by_id("DE")
        plain = [h for h in game.hexes if h.tile.color == "white"
                 and not any(c.tokened() for c in h.tile.cities)]
        center = rng.choice(plain)
        region = [h for h in game.hexes if h.distance(center) <= radius]
        rng.shuffle(region)
        pool = [t for t in game.tiles if t.hex is None]
        pool += [Tile(f"X{i}", "yellow", code, index=k)
                 for i, code in enumerate(extra_tiles) for k in range(3)]
        for h in region:
            if h not in plain or rng.random() > fill:
                continue
            tries = []
            for tile in rng.sample(pool, 6):
                for rotation in rng.sample(range(6), 3):
                    tile.rotate(rotation)
                    if _fits(h, tile):
                        tries.append((_joins(h, tile), rng.random(), tile, rotation))
            if not tries:
                continue
            _, _, tile, rotation = max(tries, key=lambda t: t[:2])
            pool.remove(tile)
            h.lay(tile.rotate(rotation))
        for h in game.hexes:
            h.invalidate_paths()
        cities = [c for h in region for c in h.tile.cities if c.paths and c.available_slots()]
        if not cities:
            continue
        rng.shuffle(cities)
        for city in cities[:rng.choice([1, 1, 2])]:
            city.place_token(corp, corp.next_token(), check_tokenable=False)
        others = [game.corporation_by_id(c) for c in ("RSE", "RAG", "AGV", "HGK")]
        for city in cities[2:]:
            if rng.random() < 0.3:
                free = [o for o in others if o.next_token() is not None]
                for other in free[:city.available_slots()]:
                    city.place_token(other, other.next_token(), check_tokenable=False)
        for name in [rng.choice(trains) for _ in range(rng.choice([1, 2, 2, 3]))]:
            train = next(t for t in game.depot.trains if t.name == name and t.owner is not corp)
            train.owner = corp
            corp.trains.append(train)
        game.phase.tiles = list(rng.choice(game.phase.phases)["tiles"])
        return game, corp


def _prefix_ok(game, route: Route, corp) -> bool:
    """The engine's checks that no longer route can pass once this one fails (all but the
    token and the number of stops)."""
    try:
        visited = route.visited_stops()
        game.check_distance(route, visited)
        game.check_overlap([route])
        route.check_terminals()
        route.check_connected(corp)
    except GameError:
        return False
    groups = [g for s in visited for g in s.groups]
    return len(groups) == len(set(groups))


def brute_force_routes(game, corp, train) -> list:
    """Every route the engine accepts for ``train`` alone: all simple sequences of stops
    joined by ``node_chains``, checked by ``Route.check``."""
    skip = game.skip_route_track_type(train)
    nodes = [n for h in game.hexes for n in h.tile.nodes if n.paths]
    adjacent: dict = {}

    def adj(a) -> list:
        if a not in adjacent:
            adjacent[a] = [(b, c) for b in nodes if b is not a
                           for c in node_chains(a, b, skip)]
        return adjacent[a]

    found: dict = {}

    def grow(segments: list, visited: set) -> None:
        route = Route(game, train, segments)
        if not _prefix_ok(game, route, corp):
            return
        try:
            route.check([route])
        except GameError:
            pass
        else:
            key = (frozenset(map(id, route.paths)), frozenset(map(id, visited)))
            found.setdefault(key, route)
        last = segments[-1].right
        for b, chain in adj(last):
            if b not in visited:
                grow(segments + [Segment(last, b, chain)], visited | {b})

    for a in nodes:
        for b, chain in adj(a):
            grow([Segment(a, b, chain)], {a, b})
    return list(found.values())


MAX_COMBINATIONS = 400_000


def brute_force_best(game, corp) -> int:
    """The most revenue any set of routes (one or none per train) earns that the engine
    accepts, by trying every combination, richest first."""
    trains = game.route_trains(corp)
    by_name: dict = {}
    options = []
    for train in trains:
        if train.name not in by_name:
            by_name[train.name] = brute_force_routes(game, corp, train)
        options.append([None] + [Route(game, train, r.segments) for r in by_name[train.name]])
    size = 1
    for o in options:
        size *= len(o)
    if size > MAX_COMBINATIONS:
        pytest.skip(f"{size} combinations: too many for the exhaustive search")
    combos = sorted(itertools.product(*options),
                    key=lambda c: -sum(r.revenue for r in c if r is not None))
    for combo in combos:
        routes = [r for r in combo if r is not None]
        try:
            for r in routes:
                r.check(routes)
            game.check_routes(corp, routes)
        except GameError:
            continue
        return sum(r.revenue for r in routes)
    return 0


def engine_accepts(game, corp, route_dicts: list) -> None:
    """Raise unless the engine would accept ``route_dicts`` as a ``run_routes`` action (the
    checks of ``RouteStep.process_run_routes``, without changing the game)."""
    routes = build_routes(game, corp, route_dicts)
    assert len({r.train for r in routes}) == len(routes)
    for route in routes:
        assert route.segments, f"route of {route.train.id} not rebuilt"
        assert game.train_owner(route.train) is corp
    for route in routes:
        route.check(routes)
    game.check_routes(corp, routes)
    for route, d in zip(routes, route_dicts):
        assert route.revenue == d["revenue"]


def _check_exact(seed: int, cls, trains=TRAINS, extra_tiles: Sequence[str] = ()):
    game, corp = make_position(seed, cls, trains, extra_tiles=extra_tiles)
    result = find_best_routes(game, corp)
    engine_accepts(game, corp, result.routes)
    assert result.revenue == sum(d["revenue"] for d in result.routes)
    assert not result.stats.get("strict_retry"), "the engine refused the finder's first answer"
    best = brute_force_best(game, corp)
    assert result.proven
    assert result.revenue == best, f"seed {seed}: finder {result.revenue}, exhaustive {best}"
    return result


@pytest.mark.parametrize("seed", range(60))
def test_exact_on_generated_positions(seed):
    _check_exact(seed, G1893)


@pytest.mark.parametrize("seed", range(100, 115))
def test_exact_with_reach_in_hex_sides(seed):
    result = _check_exact(seed, HexReach1893, ["3", "4", "5", "6"])
    # the hooks describe the title's reach exactly: checking every candidate with the
    # engine refuses none and changes nothing
    game, corp = make_position(seed, HexReach1893, ["3", "4", "5", "6"])
    strict = find_best_routes(game, corp, strict=True)
    assert strict.stats.get("engine_refused", 0) == 0
    assert strict.revenue == result.revenue


TERMINAL_TILES = ("city 40 ; path 0 N0 terminal ; path N0 3",
                  "town 20 ; path 0 N0 ; path N0 2 terminal",
                  "path 0 3 terminal ; path 1 4",
                  "city 30 ; town 10 ; path 0 N0 ; path N0 N1 terminal ; path N1 3")


@pytest.mark.parametrize("seed", range(300, 325))
def test_exact_with_terminal_track(seed):
    """Terminal track (not only into off-boards) may only begin or end a route."""
    _check_exact(seed, G1893, extra_tiles=TERMINAL_TILES)


@pytest.mark.parametrize("seed", range(200, 230))
def test_exact_with_title_revenue_and_checks(seed):
    _check_exact(seed, Bonus1893)


def test_generated_positions_have_routes():
    """The generated positions are not trivial: most have some revenue."""
    earning = sum(1 for seed in range(40)
                  if find_best_routes(*make_position(seed)).revenue > 0)
    assert earning >= 30


def test_out_of_time_returns_unproven_legal_routes():
    game, corp = make_position(3)
    result = find_best_routes(game, corp, budget_s=0)
    assert not result.proven
    engine_accepts(game, corp, result.routes)


@pytest.mark.parametrize("seed", [26, 28, 42, 51])
def test_cut_short_returns_the_best_found_so_far(seed, monkeypatch):
    """Stopped after N steps of search, for growing N: the answer is legal, unproven until
    the search completes, never worse for a longer search, and finally the optimum."""
    game, corp = make_position(seed)
    optimum = find_best_routes(game, corp).revenue
    limit = [0]

    def tick(clock) -> None:
        clock.ticks += 1
        if clock.ticks > limit[0]:
            raise SearchTimeout()

    monkeypatch.setattr(_Clock, "tick", tick)
    revenues = []
    for n in range(1, 5000):
        limit[0] = n
        result = find_best_routes(game, corp)
        engine_accepts(game, corp, result.routes)
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
        self.distance = distance
        self.name = "t"


def test_reach_of_8_plus_x():
    train = _Train([{"nodes": ["city", "offboard"], "pay": 8, "visit": 8},
                    {"nodes": ["town"], "pay": 99, "visit": 99}])
    assert standard_distance_limits(train) == {"city+offboard": 8, "town": 99, "other": 0}
    assert standard_stop_distance(train, "city", 1) == {"city+offboard": 1}
    assert standard_stop_distance(train, "town", 1) == {"town": 1}
    assert standard_stop_distance(train, "halt", 1) == {"other": 1}


def test_reach_of_2_plus_2_lets_towns_fill_city_places():
    """A 2+2 visits two stops of any kind plus two more towns: cities and off-boards at
    most 2, all stops at most 4."""
    train = _Train([{"nodes": ["city", "offboard", "town"], "pay": 2, "visit": 2},
                    {"nodes": ["town"], "pay": 2, "visit": 2}])
    assert standard_distance_limits(train) == {"city+offboard": 2, "city+offboard+town": 4,
                                               "other": 0}
    assert standard_stop_distance(train, "town", 1) == {"city+offboard+town": 1}
