"""The HTTP API on a real database: seats, stale numbers and illegal actions refused with
nothing changed; bots playing a whole game; an imported game exported back as it came."""

from __future__ import annotations

import json

import pytest

from web_support import FIXTURES, database, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    yield from database(request.param, tmp_path / "web.db")


def client_for(url, **kw):
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    return TestClient(create_app(url, **kw))


def new_game(client, bots=(None, None, None), seed=7):
    players = [{"name": f"P{i + 1}", "bot": b} for i, b in enumerate(bots)]
    r = client.post("/api/games", json={"title": "1893", "players": players, "seed": seed})
    assert r.status_code == 201, r.text
    return r.json()


def auth(seat):
    return {"Authorization": f"Bearer {seat['token']}"}


def test_refusals_leave_the_game_unchanged(db_url):
    with client_for(db_url) as c:
        made = new_game(c)
        gid, seats = made["id"], made["seats"]
        assert [s["player_id"] for s in seats] == [1, 2, 3] and all(s["token"] for s in seats)
        before = c.get(f"/api/games/{gid}").json()
        legal = c.get(f"/api/games/{gid}/legal", headers=auth(seats[0])).json()
        assert legal["next_id"] == 1 and legal["actions"]
        assert all(a["entity"] == 1 for a in legal["actions"])
        assert c.get(f"/api/games/{gid}/legal", headers=auth(seats[1])).json()["actions"] == []
        move = dict(legal["actions"][0], id=1)
        # no token, a stranger's token, another seat's token
        assert c.post(f"/api/games/{gid}/actions", json=move).status_code == 401
        r = c.post(f"/api/games/{gid}/actions", json=move, headers={"Authorization": "Bearer x"})
        assert r.status_code == 403
        r = c.post(f"/api/games/{gid}/actions", json=move, headers=auth(seats[1]))
        assert r.status_code == 403 and "player 2" in r.json()["error"]
        # a stale or future number
        for wrong in (0, 2):
            r = c.post(f"/api/games/{gid}/actions", json=dict(move, id=wrong),
                       headers=auth(seats[0]))
            assert r.status_code == 409 and "next action number is 1" in r.json()["error"]
        for wrong in (None, True, "1", 1.0):
            r = c.post(f"/api/games/{gid}/actions", json=dict(move, id=wrong),
                       headers=auth(seats[0]))
            assert r.status_code == 422 and "next action number, 1" in r.json()["error"]
        # illegal: a bid below the minimum, and nonsense
        r = c.post(f"/api/games/{gid}/actions", json=dict(move, price=move["price"] - 5),
                   headers=auth(seats[0]))
        assert r.status_code == 422 and r.json()["error"]
        r = c.post(f"/api/games/{gid}/actions", json={"type": "fly", "id": 1},
                   headers=auth(seats[0]))
        assert r.status_code == 422
        r = c.post(f"/api/games/{gid}/actions", content=b"{", headers=auth(seats[0]))
        assert r.status_code == 422
        assert c.get(f"/api/games/{gid}").json() == before
        # the legal one is accepted, under number 1; then 1 is stale
        r = c.post(f"/api/games/{gid}/actions", json=move, headers=auth(seats[0]))
        assert r.status_code == 201, r.text
        assert r.json()["id"] == 1
        r = c.post(f"/api/games/{gid}/actions", json=move, headers=auth(seats[0]))
        assert r.status_code == 409
        assert len(c.get(f"/api/games/{gid}").json()["actions"]) == 1
        # only who acted may undo; undo is stored as entry 2
        r = c.post(f"/api/games/{gid}/actions", json={"type": "undo", "id": 2},
                   headers=auth(seats[1]))
        assert r.status_code == 403
        r = c.post(f"/api/games/{gid}/actions",
                   json={"type": "undo", "id": 2, "entity": 1, "entity_type": "player"},
                   headers=auth(seats[0]))
        assert r.status_code == 201
        assert c.get(f"/api/games/{gid}/legal", headers=auth(seats[0])).json()["next_id"] == 3
    # a new app on the same database rebuilds the game from its log
    with client_for(db_url) as c:
        data = c.get(f"/api/games/{gid}").json()
        assert [a["type"] for a in data["actions"]] == ["bid", "undo"]
        assert c.get("/api/games/999999").status_code == 404


def test_bad_games_are_refused(db_url):
    with client_for(db_url) as c:
        for body in ({"title": "1830", "players": [{"name": "a"}, {"name": "b"}]},
                     {"title": "1893", "players": [{"name": "a"}]},
                     {"title": "1893", "players": [{"name": "a"}, {"name": "b", "bot": "x"}]},
                     {"title": "1893", "players": [{"name": "a"}, {"name": ""}]},
                     {"title": "1893", "players": [{"name": "a"}, {"name": "b"}], "seed": "x"},
                     []):
            r = c.post("/api/games", json=body)
            assert r.status_code == 422, body
            assert r.json()["error"]
        assert c.post("/api/games/import", json={"title": "1893"}).status_code == 422


def test_bots_play_a_whole_game_through_the_server(db_url):
    with client_for(db_url, background_bots=False) as c:
        made = new_game(c, bots=("random", "random"), seed=5)
        assert all(s["token"] is None for s in made["seats"])
        data = c.get(f"/api/games/{made['id']}").json()
        assert data["finished"] and data["game_end_reason"]
        assert [a["id"] for a in data["actions"]] == list(range(1, len(data["actions"]) + 1))
    with client_for(db_url) as c:    # rebuilt from the stored log: the same game
        again = c.get(f"/api/games/{made['id']}").json()
        assert again["result"] == data["result"] and again["actions"] == data["actions"]


def test_an_imported_game_exports_back_identical(db_url):
    path = FIXTURES / "1893" / "1893_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    original = json.loads(path.read_text())
    with client_for(db_url) as c:
        r = c.post("/api/games/import", json=original)
        assert r.status_code == 201, r.text
        got = c.get(f"/api/games/{r.json()['id']}").json()
    assert got["actions"] == original["actions"]
    assert got["players"] == original["players"]
    assert got["title"] == original["title"]
    assert got["settings"]["seed"] == original["settings"]["seed"]
    assert got["settings"]["optional_rules"] == original["settings"]["optional_rules"]
    assert got["result"] == original["result"]
    assert got["game_end_reason"] == original["game_end_reason"]


def test_an_entry_the_database_does_not_take_is_not_kept(tmp_path, monkeypatch):
    from sqlalchemy.exc import OperationalError
    url = f"sqlite:///{tmp_path / 'fail.db'}"
    with client_for(url) as c:
        made = new_game(c)
        gid, seat = made["id"], made["seats"][0]
        move = dict(c.get(f"/api/games/{gid}/legal", headers=auth(seat)).json()["actions"][0],
                    id=1)
        writer = c.app.state.store.writer
        real = writer._write

        def broken(batch):              # every commit of the log's writer fails
            for item in batch:
                item["error"] = OperationalError("INSERT", {}, Exception("disk I/O error"))
        monkeypatch.setattr(writer, "_write", broken)
        r = c.post(f"/api/games/{gid}/actions", json=move, headers=auth(seat))
        assert r.status_code == 503 and "nothing was kept" in r.json()["error"]
        monkeypatch.setattr(writer, "_write", real)
        assert c.get(f"/api/games/{gid}").json()["actions"] == []
        assert c.get(f"/api/games/{gid}/legal", headers=auth(seat)).json()["next_id"] == 1
        assert c.post(f"/api/games/{gid}/actions", json=move, headers=auth(seat)).status_code \
            == 201


def test_a_player_undoes_back_past_the_bots(tmp_path):
    with client_for(f"sqlite:///{tmp_path / 'undo.db'}", background_bots=False) as c:
        made = new_game(c, bots=(None, "random", "random"), seed=9)
        gid, ann = made["id"], made["seats"][0]
        legal = c.get(f"/api/games/{gid}/legal", headers=auth(ann)).json()
        move = dict(legal["actions"][0], id=1)
        assert c.post(f"/api/games/{gid}/actions", json=move, headers=auth(ann)).status_code \
            == 201
        after = c.get(f"/api/games/{gid}").json()["actions"]
        assert len(after) >= 3                       # the bots moved after Ann
        n = len(after) + 1
        # a plain undo would take back a bot's move: refused; back past the bots: allowed
        r = c.post(f"/api/games/{gid}/actions", json={"type": "undo", "id": n},
                   headers=auth(ann))
        assert r.status_code == 403
        r = c.post(f"/api/games/{gid}/actions", json={"type": "undo", "id": n,
                                                       "action_id": 5}, headers=auth(ann))
        assert r.status_code == 403 and "action_id 0" in r.json()["error"]
        view = c.get(f"/games/{gid}/view?token={ann['token']}").text
        assert 'id="undo-back"' in view and "action_id: 0}" in view
        r = c.post(f"/api/games/{gid}/actions", json={"type": "undo", "id": n,
                                                       "action_id": 0}, headers=auth(ann))
        assert r.status_code == 201
        legal = c.get(f"/api/games/{gid}/legal", headers=auth(ann)).json()
        assert legal["next_id"] == n + 1 and legal["actions"]      # Ann to act again


def test_games_leave_memory_and_come_back_from_the_log(tmp_path, monkeypatch):
    from tracklayer.web import service as service_module
    monkeypatch.setattr(service_module, "MAX_LIVE", 2)
    with client_for(f"sqlite:///{tmp_path / 'lru.db'}") as c:
        games = [new_game(c, seed=s) for s in range(4)]
        first, seat = games[0]["id"], games[0]["seats"][0]
        move = dict(c.get(f"/api/games/{first}/legal", headers=auth(seat)).json()["actions"][0],
                    id=1)
        assert c.post(f"/api/games/{first}/actions", json=move, headers=auth(seat)).status_code \
            == 201
        for g in games[1:]:
            c.get(f"/api/games/{g['id']}")
        assert len(c.app.state.service.live) == 2 and first not in c.app.state.service.live
        assert [a["type"] for a in c.get(f"/api/games/{first}").json()["actions"]] == ["bid"]
