"""A network left to be walked when first read (``network.pending``).

After an upgrade by an operator that has had a route for a train, its network with the new
tile is not walked at once: it is what a walk on the board as it now is would find, and it
is walked when first read, or just before the board changes (a token placed or lifted, a
tile laid), so that what is read later is the network as it was right after the lay, as if
it had been walked then. These tests replay a recorded game to such a moment.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tracklayer.io.export import load_export, open_game
from tracklayer.history import in_force
from tracklayer.rules import board, network

GAME = Path(__file__).parent / "data" / "random_games" / "1893_prog_sensible_3p_3013.json"


def _first_pending():
    """The game just after the first lay that leaves a network pending, and its operator."""
    data = load_export(str(GAME))
    game = open_game(data, keep_log=False)
    for h in in_force(data["actions"]):
        game.apply(h)
        waiting = [o for o, m in game.table.state.networks.items() if m.pending]
        if waiting:
            return game, waiting[0]
    pytest.fail("no lay left a network pending")


def _walk(table, operator):
    memo, _ = network._explore(table, operator)
    return memo.nodes, memo.rails, memo.route, memo.route_for_train


def test_a_pending_network_is_walked_when_read():
    game, operator = _first_pending()
    table = game.table
    expected = _walk(table, operator)
    reached = network.rails_reached(table, operator)
    memo = table.state.networks[operator]
    assert not memo.pending
    assert (memo.nodes, memo.rails, memo.route, memo.route_for_train) == expected
    assert [(r.hex, r.position) for r in reached] == expected[1]


def test_a_pending_network_is_walked_before_the_board_changes():
    game, operator = _first_pending()
    table = game.table
    before = _walk(table, operator)
    token = next(t for t in operator.tokens if t.where is not None)
    board.lift_token(table, token)           # a change no walk would see coming
    memo = table.state.networks[operator]
    assert not memo.pending
    assert (memo.nodes, memo.rails, memo.route, memo.route_for_train) == before
    assert _walk(table, operator) != before  # walked now, the network is another


def test_what_a_refused_action_read_is_put_back():
    """An action refused, or moves only listed, leave the network pending (the checkpoint
    taken before every action puts the networks back)."""
    game, operator = _first_pending()
    table = game.table
    restore = network.checkpoint(table)
    network.rails_reached(table, operator)
    assert not table.state.networks[operator].pending
    restore()
    assert table.state.networks[operator].pending
