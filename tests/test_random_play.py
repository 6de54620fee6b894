"""Random legal games as a property test of the whole engine (no ../shared needed).

A game played move by move from the legal-move list must conserve money, and its export —
the action log with the engine's own auto_actions — must replay to exactly the same state:
a game is its action log."""

import os
import random

import pytest

from tracklayer.io.export import replay
from tracklayer.randomplay import play_random, sensible_weight, uniform_weight
from tracklayer.trace import snapshot

GAMES = [
    ("1893", 3, 2, uniform_weight, 250),
    ("1893", 4, 5, sensible_weight, 400),
    ("1849: Kingdom of the Two Sicilies", 4, 3, sensible_weight, 400),
    ("1849: Kingdom of the Two Sicilies", 5, 8, uniform_weight, 250),
    ("The Old Prince 1871", 3, 4, uniform_weight, 300),
    ("The Old Prince 1871", 4, 6, sensible_weight, 400),
    ("1817NA", 4, 8, sensible_weight, 300),
    ("1817NA", 3, 5, uniform_weight, 250),
]


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"{g[0][:4]}-{g[1]}p-seed{g[2]}-"
                f"{g[3].__name__.split('_')[0]}")
def played(request):
    title, players, seed, weight, n = request.param
    return play_random(title, players, seed, max_actions=n, weight=weight)


def test_random_game_conserves_money(played):
    """All cash of bank, players and companies is the starting total, whatever was played."""
    assert len(played.actions) > 50
    assert played.total_money() == played.starting_money


def test_random_game_replays_to_the_same_state(played):
    """Replaying the exported log (as 18xx.games would) gives the live game's state."""
    data = played.export()
    again = replay(data)
    n = len(played.actions) - 1
    assert snapshot(again, n, data["actions"][-1]) == snapshot(played, n, played.actions[-1])
    assert again.is_over == played.is_over
    if played.is_over:
        assert again.result() == played.result()


def test_actions_are_numbered_once_each_in_order(played):
    """The log holds each action once, numbered in order (no action recorded twice)."""
    assert [a["id"] for a in played.actions] == list(range(1, len(played.actions) + 1))


def _offered(table, planner) -> list:
    """Every action the steps offer as candidates now, before the listing judges them
    (``listing.offered``, which ``listing.legal_moves`` filters)."""
    from tracklayer.turns.listing import Offer, offered

    out = []
    for h in offered(table, Offer(random.Random(0), planner)):
        if h not in out:
            out.append(h)
    return out


def test_listing_keeps_only_accepted_tile_lays():
    """(Replaces the old engine's ``exact=True`` listing, whose trial of doubtful tile lays
    on a copy is what the new listing always does through each step's own check.) Of the
    tile lays the steps offer, upgrades whose new track may be unreached included, the
    ones listed are all accepted and the ones dropped are all refused when played on a
    copy, and the game itself is untouched by the listing."""
    from tracklayer.errors import GameError
    from tracklayer.io.export import open_game
    from tracklayer.rules import board
    from tracklayer.turns.listing import legal_moves

    data = play_random("1893", 4, 7, max_actions=60).export()
    game = open_game(data, keep_log=False)

    def upgrade(h) -> bool:
        return h["type"] == "lay_tile" and \
            board.view(game.table, h["hex"]).tile.color != "white"

    for h in data["actions"]:
        offered = _offered(game.table, None)
        listed = legal_moves(game.table, None, random.Random(0))
        if any(upgrade(x) and x not in listed for x in offered) and \
                any(upgrade(x) for x in listed):
            break
        game.apply(h)
    else:
        pytest.fail("no position where the listing drops an upgrade the steps offered")
    before = snapshot(game, len(game.actions) - 1, game.actions[-1])

    def accepted(h) -> bool:
        trial = game.clone()
        try:
            trial.apply(dict(h, id=9999))
            return True
        except GameError:
            return False

    kept = [h for h in offered if h in listed]
    dropped = [h for h in offered if h not in listed]
    assert any(h["type"] == "lay_tile" for h in dropped)
    assert all(not accepted(h) for h in dropped if h["type"] == "lay_tile")
    assert all(accepted(h) for h in kept if h["type"] == "lay_tile")
    assert snapshot(game, len(game.actions) - 1, game.actions[-1]) == before


def test_randomplay_names_a_title_by_a_part_and_refuses_bad_input_in_a_sentence(capsys):
    """`python3 -m tracklayer.randomplay 1849 ...` takes a title by any part naming only
    it, as the command line does; a wrong player count is one line and exit code 2."""
    from tracklayer import randomplay
    assert randomplay.main(["1849", "--players", "4", "--max-actions", "5", "-o", os.devnull]) == 0
    with pytest.raises(SystemExit) as stop:
        randomplay.main(["1849", "--players", "3"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "is for 4-6 players, not 3" in err and "Traceback" not in err
