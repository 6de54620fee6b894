"""The track restriction on upgrades (``rules/track.py``): which new tracks of an upgrade
meet it once the operator reaches one, and what is wrong when it reaches none.

Semi-restrictive (1893, 1849: the default): the operator must reach new track, or track
whose stop the upgrade makes worth more. Restrictive: new track only. City-permissive: any
city tile, otherwise new track.
"""

from __future__ import annotations

from types import SimpleNamespace

from tracklayer.board.catalogue import standard_tiles
from tracklayer.board.tiles import TileDef
from tracklayer.rules import track
from tracklayer.spec.settings import TrackRestriction

CATALOGUE = standard_tiles()


def layout(name: str, rotation: int = 0):
    color, code = CATALOGUE[name]
    return TileDef(name, color, code).layout(rotation)


def table(restriction: TrackRestriction):
    """Only the title's setting is read."""
    return SimpleNamespace(settings=SimpleNamespace(track_restriction=restriction))


SEMI = table(TrackRestriction.SEMI_RESTRICTIVE)


def test_a_kept_straight_does_not_count_the_new_branch_does():
    """9 (straight 0-3) to 23 (straight 0-3 and curve 0-4): only the curve is new."""
    old, new = layout("9"), layout("23")
    tracks, problem = track.restriction_demand(SEMI, old, new)
    assert [t.sides for t in tracks] == [(0, 4)]
    straight = next(t for t in new.tracks if t.sides == (0, 3))
    assert track.restriction_problem(SEMI, old, new, lambda t: t is straight) == problem
    assert problem == "must use new track or change city value"
    assert track.restriction_problem(SEMI, old, new, lambda t: True) is None


def test_a_city_worth_more_counts_on_every_track_into_it():
    """57 (city 20) to 14 (city 30): every track reaches the dearer city."""
    old, new = layout("57"), layout("14")
    tracks, _ = track.restriction_demand(SEMI, old, new)
    assert len(tracks) == len(new.tracks) == 4
    kept = next(t for t in new.tracks if 0 in t.sides)
    assert track.restriction_problem(SEMI, old, new, lambda t: t is kept) is None


def test_restrictive_asks_for_new_track():
    old, new = layout("57"), layout("14")
    restrictive = table(TrackRestriction.RESTRICTIVE)
    tracks, problem = track.restriction_demand(restrictive, old, new)
    assert sorted(s for t in tracks for s in t.sides if isinstance(s, int)) == [1, 4]
    kept = next(t for t in new.tracks if 0 in t.sides)
    assert track.restriction_problem(restrictive, old, new, lambda t: t is kept) == problem


def test_a_city_tile_meets_the_city_permissive_restriction_without_a_walk():
    permissive = table(TrackRestriction.CITY_PERMISSIVE)
    assert track.restriction_demand(permissive, layout("57"), layout("14")) is None
    assert track.restriction_problem(permissive, layout("57"), layout("14"),
                                     lambda t: False) is None
    tracks, _ = track.restriction_demand(permissive, layout("9"), layout("23"))
    assert [t.sides for t in tracks] == [(0, 4)]


def test_an_upgrade_no_track_of_which_counts_is_refused_whatever_is_reached():
    """9 to 9 (the same straight again) brings nothing new."""
    tracks, problem = track.restriction_demand(SEMI, layout("9"), layout("9"))
    assert tracks == ()
    assert track.restriction_problem(SEMI, layout("9"), layout("9"), lambda t: True) == problem
