"""Random legal games as a property test of the whole engine (no ../shared needed).

A game played move by move from the legal-move list must conserve money, and its export —
the action log with the engine's own auto_actions — must replay to exactly the same state:
a game is its action log."""

import pytest

from tracklayer.engine.replay import replay
from tracklayer.randomplay import export, play_random, sensible_weight, uniform_weight
from tracklayer.trace import snapshot

GAMES = [
    ("1893", 3, 2, uniform_weight, 250),
    ("1893", 4, 5, sensible_weight, 400),
    ("1849: Kingdom of the Two Sicilies", 4, 3, sensible_weight, 400),
    ("1849: Kingdom of the Two Sicilies", 5, 8, uniform_weight, 250),
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
    data = export(played)
    again = replay(data)
    n = len(played.actions) - 1
    assert snapshot(again, n, data["actions"][-1]) == snapshot(played, n, played.actions[-1])
    assert again.finished == played.finished
    if played.finished:
        assert again.result() == played.result()


def test_actions_are_numbered_once_each_in_order(played):
    """The log holds each action once, numbered in order (no action recorded twice)."""
    assert [a["id"] for a in played.actions] == list(range(1, len(played.actions) + 1))


def test_exact_listing_keeps_only_accepted_tile_lays():
    """With exact=True, tile lays the listing cannot settle alone (upgrades whose new track
    may be unreached) are tried on a copy: the ones kept are all accepted, the ones dropped
    are all refused, and the game itself is untouched."""
    import pickle

    from tracklayer.engine.errors import GameError
    from tracklayer.engine.moves import legal_actions
    from tracklayer.engine.replay import new_game

    data = export(play_random("1893", 4, 7, max_actions=60))
    game = new_game(data, log=False)
    for h in data["actions"]:
        listed = legal_actions(game)
        exact = legal_actions(game, exact=True)
        if len(exact) < len(listed):
            break
        game.process_action(h)
    else:
        pytest.fail("no position where the exact listing drops a tile lay")
    before = snapshot(game, len(game.actions) - 1, game.actions[-1])
    frozen = pickle.dumps(game)

    def accepted(h):
        trial = pickle.loads(frozen)
        try:
            trial.process_action(dict(h, id=9999))
            return True
        except GameError:
            return False

    kept = [h for h in listed if h in exact]
    dropped = [h for h in listed if h not in exact]
    assert dropped and all(h["type"] == "lay_tile" and not accepted(h) for h in dropped)
    assert all(accepted(h) for h in kept if h["type"] == "lay_tile")
    assert snapshot(game, len(game.actions) - 1, game.actions[-1]) == before
