"""The moves greedy asks for (``play.asking``): every legal move but tile lays, and of
those only the few best guessed, each of them legal."""

from tracklayer.play.asking import moves_asked
from tracklayer.play.greedy import GreedyBot
from tracklayer.play.greedy_track import ASKED_LAYS
from tracklayer.play.seats import seat_to_act
from tracklayer.play.selfplay import new_game


def test_greedy_asks_for_every_move_but_judges_only_its_best_lays():
    game = new_game("1849: Kingdom of the Two Sicilies", ["a", "b", "c", "d"], 3)
    greedy = GreedyBot(1)
    checked = 0
    while not game.is_over and checked < 3 and len(game.actions) < 400:
        listed = game.legal_actions()
        lays = [h for h in listed if h["type"] == "lay_tile"]
        asked = moves_asked(game, lambda c: greedy.rank_lays(game, c), ASKED_LAYS)
        assert [h for h in asked if h["type"] != "lay_tile"] == \
            [h for h in listed if h["type"] != "lay_tile"]
        asked_lays = [h for h in asked if h["type"] == "lay_tile"]
        assert all(h in lays for h in asked_lays)
        assert len(asked_lays) == min(len(lays), ASKED_LAYS) or \
            len({h["entity"] for h in lays}) > 1
        if len(lays) > ASKED_LAYS:
            checked += 1
        move = GreedyBot(len(game.actions)).decide(game, _seat(game))
        game.apply(dict(move, id=len(game.actions) + 1), auto=True)
    assert checked == 3


def _seat(game):
    seat = seat_to_act(game)
    return 0 if seat is None else seat
