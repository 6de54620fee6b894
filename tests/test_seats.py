"""Who decides (``play.seats``): one answer for the web, the terminal and the bots, found for
every entity a title lets act — a corporation being founded (1817's home token), the
Union Bank's corporations (1871: "player -1", decided by the owner of UB), minors,
companies."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from conftest import FIXTURES
from tracklayer.io.export import load_export, open_game
from tracklayer.play.seats import acting_seats, deciding_seat, moves_of, seat_to_act
from web_support import web_missing

GAME_1817 = FIXTURES / "1817NA" / "20584.json"
HOME_TOKEN_AT = 88          # entry 88 opens SR's auction; SR chooses its home at once


def _needs(path):
    if not path.exists():
        pytest.skip(f"{path} is missing (../shared)")


def _at(path, entries):
    data = load_export(str(path))
    game = open_game(data)
    for h in data["actions"][:entries]:
        game.apply(h)
    return data, game


def test_a_corporation_being_founded_is_decided_by_the_player_who_opened_its_auction():
    """1817NA: SR has no president while its auction runs, and chooses its home city as
    the auction opens: the opener (Player 1, who took entry 88) decides, and no one else."""
    _needs(GAME_1817)
    data, game = _at(GAME_1817, HOME_TOKEN_AT)
    opener = data["actions"][HOME_TOKEN_AT - 1]["entity"]
    seat = [pid for pid, _ in game.player_specs].index(opener)
    assert game.acting.sym == "SR" and game.acting.owner is None
    assert seat_to_act(game) == seat
    assert acting_seats(game) == [seat]
    moves = game.legal_actions()
    assert moves and all(m["type"] == "place_token" and deciding_seat(game, m) == seat
                         for m in moves)
    assert moves_of(game, seat) == moves
    assert all(moves_of(game, s) == [] for s in range(len(game.player_specs)) if s != seat)


def test_the_terminal_asks_the_opener_for_the_home_token(tmp_path):
    _needs(GAME_1817)
    from tracklayer.play.terminal import play
    data = load_export(str(GAME_1817))
    data["actions"] = data["actions"][:HOME_TOKEN_AT]
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    play(str(path), io.StringIO("q\n"), Console(file=out, width=200))
    text = out.getvalue()
    assert "Player 1 to move" in text and "Place a station" in text and \
        "places its home station in Winnipeg (D16)" in text


def union_bank_position():
    """A self-play game of four greedy bots (deals proposed and answered) up to the first
    position where a corporation the Union Bank presides over is to act."""
    from tracklayer.play.consent import Negotiation
    from tracklayer.play.roster import bot
    from tracklayer.play.selfplay import bot_move, new_game
    for seed in range(8, 20):      # from the first seed that does, with the bots as they play now
        game = new_game("The Old Prince 1871", [f"greedy {i + 1}" for i in range(4)], seed,
                        keep_log=True)
        players = [bot("greedy", seed * 100 + i) for i in range(4)]
        talks = Negotiation()
        while not game.is_over and len(game.actions) < 1500:
            acting = game.acting
            owner = getattr(acting, "owner", None)
            if owner is not None and getattr(owner, "id", None) == -1:
                return game
            h = bot_move(game, players, talks)
            if h is not None:
                h["id"] = len(game.actions) + 1
                game.apply(h, auto=True)
    pytest.fail("no greedy game put a corporation under the Union Bank")


@pytest.fixture(scope="module")
def ub_game():
    return union_bank_position()


def test_the_union_banks_corporations_are_decided_by_the_owner_of_ub(ub_game):
    game = ub_game
    corporation = game.acting
    ub_owner = game.table.company("UB").owner
    seat = [pid for pid, _ in game.player_specs].index(ub_owner.id)
    assert corporation.owner.id == -1 and ub_owner.id != -1
    assert seat_to_act(game) == seat
    assert seat in acting_seats(game)
    mine = [m for m in game.legal_actions() if m.get("entity") == corporation.sym]
    assert mine and all(deciding_seat(game, m) == seat for m in mine)
    assert all(m in moves_of(game, seat) for m in mine)


@pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")
def test_the_web_lets_the_deciding_seat_act_and_no_other(tmp_path, ub_game):
    """Over the API: an imported 1817NA game at its first home token, and a 1871 game
    where the Union Bank presides, are played on by the deciding seat (and refused to
    the others)."""
    _needs(GAME_1817)
    from fastapi.testclient import TestClient
    from tracklayer.play.consent import deal_of
    from tracklayer.web.app import create_app

    data = load_export(str(GAME_1817))
    data["actions"] = data["actions"][:HOME_TOKEN_AT]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.db'}")) as c:
        for export, decider in ((data, data["actions"][-1]["entity"]),
                                (ub_game.export(), ub_game.table.company("UB").owner.id)):
            r = c.post("/api/games/import", json=export)
            assert r.status_code == 201, r.text
            made = r.json()
            legal = {s["player_id"]: c.get(f"/api/games/{made['id']}/legal", headers={
                "Authorization": f"Bearer {s['token']}"}).json() for s in made["seats"]}
            assert legal[decider]["actions"]
            assert all(not v["actions"] for p, v in legal.items() if p != decider)
            game = c.app.state.service.get(made["id"]).game
            move = next(a for a in legal[decider]["actions"] if a["type"] != "bankrupt" and
                        deal_of(game, a) is None)
            move = {k: v for k, v in move.items() if not k.endswith("_range")}
            move["id"] = legal[decider]["next_id"]
            other = next(s for s in made["seats"] if s["player_id"] != decider)
            r = c.post(f"/api/games/{made['id']}/actions", json=move,
                       headers={"Authorization": f"Bearer {other['token']}"})
            assert r.status_code == 403, r.text
            me = next(s for s in made["seats"] if s["player_id"] == decider)
            r = c.post(f"/api/games/{made['id']}/actions", json=move,
                       headers={"Authorization": f"Bearer {me['token']}"})
            assert r.status_code == 201, r.text


def test_every_recorded_action_has_a_deciding_seat():
    """In every real game (its first 300 entries: auctions, stock rounds, the first
    operating rounds), each action taken (other than chat) is decided by a seat, and a
    player's own action by that player's seat."""
    files = sorted(FIXTURES.glob("*/*.json"))
    if not files:
        pytest.skip(f"no fixtures in {FIXTURES}")
    for path in files:
        data = load_export(str(path))
        game = open_game(data, keep_log=False, snapshot_every=None)
        ids = [pid for pid, _ in game.player_specs]
        for h in data["actions"][:300]:
            if h.get("type") not in ("message", "undo", "redo"):
                seat = deciding_seat(game, h)
                assert seat is not None, (path.name, h)
                if h.get("entity_type") == "player":
                    assert ids[seat] == h["entity"], (path.name, h)
            game.apply(h)
