"""An id may name entities of different kinds: 1893's minors share theirs with the
private cards that bring them, 1871's SB is the Shipbuilding company and the Stratford
Branch, 1817NA's ME the Mountain Engineers and the Morristown and Erie. An action names
its entity by (entity_type, id), and every lookup goes by both."""

from __future__ import annotations

import pytest

from tracklayer.actions import entity_kind, new_action, read
from tracklayer.errors import ActionError
from tracklayer.game import Game
from tracklayer.titles import TITLES

KINDS = ("corporation", "minor", "company")


def shared_ids(data) -> dict:
    """id -> the kinds of entity it names, for ids naming more than one."""
    kinds: dict = {}
    for kind, specs in (("corporation", data.corporations), ("minor", data.minors),
                        ("company", data.companies)):
        for spec in specs:
            kinds.setdefault(spec.sym, []).append(kind)
    return {sym: found for sym, found in kinds.items() if len(found) > 1}


def every_setup():
    for name, t in TITLES.items():
        low, high = t.player_range
        options = tuple(r.sym for r in t.optional_rules)
        for players in range(low, high + 1):
            for chosen in {(), options}:
                yield name, players, chosen


def test_the_shared_ids_of_the_four_titles():
    """Every title's data checked, at every player count, with and without its optional
    rules: the ids shared between kinds are the minors' cards (1893), SB (1871) and ME
    (1817NA); none is shared by two entities of one kind."""
    found: dict = {}
    for name, players, options in every_setup():
        data = TITLES[name].data(players, options)
        for kind, specs in (("corporation", data.corporations), ("minor", data.minors),
                            ("company", data.companies)):
            syms = [s.sym for s in specs]
            assert len(syms) == len(set(syms)), f"{name}: two {kind}s share an id"
        for sym, kinds in shared_ids(data).items():
            found.setdefault(name, {})[sym] = tuple(kinds)
    assert found["The Old Prince 1871"] == {"SB": ("corporation", "company")}
    assert found["1817NA"] == {"ME": ("corporation", "company")}
    assert set(found["1893"].values()) == {("minor", "company")}
    assert "1849: Kingdom of the Two Sicilies" not in found


@pytest.mark.parametrize("name", sorted(TITLES))
def test_an_action_is_read_by_its_entity_type(name):
    """In a game of each title, each entity with a shared id is found by its own kind,
    an action is made naming it by its kind, and reading the action back finds it
    again; a kind it is not is refused as an unknown entity."""
    t = TITLES[name]
    players = t.player_range[1]
    game = Game(t, [(i, f"P{i}") for i in range(1, players + 1)], seed=1)
    table = game.table
    shared = shared_ids(t.data(players, ()))
    for sym, kinds in shared.items():
        entities = [table.find(kind, sym) for kind in kinds]
        for kind, entity in zip(kinds, entities):
            if entity is None:          # not in this game (1871's draws drop some)
                continue
            assert entity_kind(entity) == kind
            h = new_action("pass", entity)
            assert (h["entity"], h["entity_type"]) == (sym, kind)
            assert read(table, h).entity is entity
        for kind in KINDS:
            if kind not in kinds:
                with pytest.raises(ActionError):
                    read(table, {"type": "pass", "entity": sym, "entity_type": kind})
    if name != "1849: Kingdom of the Two Sicilies":
        assert shared
