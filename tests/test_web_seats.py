"""What a seat and a game's creator may change besides the game: a seat's turn webhook,
posted to a local receiver when it becomes that seat's turn (off the action's path, never
with a token the seat did not ask for), refused when malformed; and a new link for a lost
seat, issued by the creator's key, after which the old link is void."""

from __future__ import annotations

import logging
import time

import pytest

from hook_receiver import Receiver
from web_support import auth, recorded, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'seats.db'}")) as c:
        yield c


def two_people(client, bot=None):
    players = [{"name": "Ann"}, {"name": "Bob"}] + ([{"name": "Cid", "bot": bot}] if bot else [])
    r = client.post("/api/games", json={"title": "1893", "seed": 4, "players": players})
    assert r.status_code == 201
    return r.json()


def legal(client, gid, token) -> dict:
    return client.get(f"/api/games/{gid}/legal", headers=auth(token)).json()


def act(client, gid, token) -> float:
    """The seat's first legal move, taken: how long the server took to accept it."""
    found = legal(client, gid, token)
    move = dict(next(a for a in found["actions"] if a["type"] == "pass")
                if any(a["type"] == "pass" for a in found["actions"]) else found["actions"][0],
                id=found["next_id"])
    began = time.perf_counter()
    r = client.post(f"/api/games/{gid}/actions", json=move, headers=auth(token))
    assert r.status_code == 201, r.text
    return time.perf_counter() - began


def play_until_turn_of(client, gid, seats, player_id: int, limit: int = 30) -> float:
    """Act for whoever is to act until it is ``player_id``'s turn; the slowest acceptance."""
    slowest = 0.0
    for _ in range(limit):
        tokens = {s["player_id"]: s["token"] for s in seats}
        if legal(client, gid, tokens[player_id])["actions"]:
            return slowest
        actor = next(p for p, t in tokens.items() if legal(client, gid, t)["actions"])
        slowest = max(slowest, act(client, gid, tokens[actor]))
    raise AssertionError(f"player {player_id} never came to act")


def test_a_seat_is_told_by_its_webhook_when_its_turn_comes(client):
    made = two_people(client)
    gid, (ann, bob) = made["id"], made["seats"]
    with Receiver() as hook:
        r = client.put(f"/api/games/{gid}/webhook", json={"url": hook.url},
                       headers=auth(bob["token"]))
        assert r.status_code == 200 and r.json() == {"player_id": 2, "url": hook.url,
                                                     "seat_link": False}
        assert legal(client, gid, ann["token"])["actions"]          # Ann acts first
        play_until_turn_of(client, gid, made["seats"], 2)
        [told] = hook.wait(1)
        assert told["event"] == "your_turn" and told["game_id"] == gid
        assert told["title"] == "1893" and told["seat"] == "Bob" and told["player_id"] == 2
        assert told["link"].endswith(f"/games/{gid}") and told["link"].startswith("http")
        assert "Bob" in told["text"] and told["link"] in told["text"]
        assert told["content"] == told["text"]
        assert hook.posts[0]["type"] == "application/json"
        assert bob["token"] not in str(told) and ann["token"] not in str(told)
        # Bob asks for his own seat link in the message: his token, never Ann's
        r = client.put(f"/api/games/{gid}/webhook", json={"url": hook.url, "seat_link": True},
                       headers=auth(bob["token"]))
        assert r.json()["seat_link"] is True
        play_until_turn_of(client, gid, made["seats"], 1)
        act(client, gid, ann["token"])
        play_until_turn_of(client, gid, made["seats"], 2)
        second = hook.wait(2)[1]
        assert second["link"].endswith(f"/games/{gid}?token={bob['token']}")
        assert ann["token"] not in str(second)
        # a seat that acts on and on is not told again for each of its own actions
        count = len(hook.posts)
        time.sleep(0.3)
        assert len(hook.posts) == count
        # removed: no more messages
        assert client.delete(f"/api/games/{gid}/webhook",
                             headers=auth(bob["token"])).json()["url"] is None
        play_until_turn_of(client, gid, made["seats"], 1)
        play_until_turn_of(client, gid, made["seats"], 2)
        time.sleep(0.5)
        assert len(hook.posts) == count


def test_a_slow_or_dead_webhook_never_holds_up_an_action(client, caplog):
    made = two_people(client)
    gid, (ann, bob) = made["id"], made["seats"]
    with Receiver(delay=3.0) as slow:
        client.put(f"/api/games/{gid}/webhook", json={"url": slow.url}, headers=auth(bob["token"]))
        slowest = play_until_turn_of(client, gid, made["seats"], 2)
        assert slowest < 1.5, slowest
        slow.wait(1, timeout=10)
    with Receiver() as gone:
        dead = gone.url                         # nobody listens there once it has stopped
    client.put(f"/api/games/{gid}/webhook", json={"url": dead}, headers=auth(bob["token"]))
    with caplog.at_level(logging.WARNING, logger="tracklayer.web.webhooks"):
        play_until_turn_of(client, gid, made["seats"], 1)
        slowest = play_until_turn_of(client, gid, made["seats"], 2)
        deadline = time.time() + 10
        while "failed" not in caplog.text and time.time() < deadline:
            time.sleep(0.05)
    assert slowest < 1.5
    assert "turn alert to 127.0.0.1" in caplog.text and "failed" in caplog.text
    tried = client.post(f"/api/games/{gid}/webhook/test", headers=auth(bob["token"]))
    assert tried.status_code == 200 and tried.json()["ok"] is False


def test_a_hook_is_tried_at_once_and_told_the_end(client):
    """A seat tries its hook at once; when the game ends every hook is told the scores."""
    data = recorded("1893", "1893_game_end_bank.json")
    r = client.post("/api/games/import", json=dict(data, actions=data["actions"][:-1]))
    gid, seats = r.json()["id"], r.json()["seats"]
    with Receiver() as hook:
        for seat in seats:
            client.put(f"/api/games/{gid}/webhook", json={"url": hook.url},
                       headers=auth(seat["token"]))
        tried = client.post(f"/api/games/{gid}/webhook/test", headers=auth(seats[0]["token"]))
        assert tried.status_code == 200 and tried.json() == {"ok": True, "status": 200,
                                                             "error": None}
        [trial] = hook.wait(1)
        assert trial["event"] == "test" and trial["seat"] == seats[0]["name"]
        last = data["actions"][-1]
        token = next(s["token"] for s in seats if legal(client, gid, s["token"])["actions"])
        r = client.post(f"/api/games/{gid}/actions", headers=auth(token),
                        json=dict(last, id=len(data["actions"])))
        assert r.status_code == 201, r.text
        ends = [p for p in hook.wait(1 + len(seats))[1:]]
        assert {p["event"] for p in ends} == {"game_over"}
        assert sorted(p["seat"] for p in ends) == sorted(s["name"] for s in seats)
        for score in ("6138", "5843", "6198"):              # the recorded result
            assert score in ends[0]["text"]


def test_bad_webhooks_are_refused_and_change_nothing(client):
    made = two_people(client)
    gid, (ann, bob) = made["id"], made["seats"]
    url = f"/api/games/{gid}/webhook"
    good = "https://hooks.example.org/T0/B1"
    assert client.put(url, json={"url": good}, headers=auth(ann["token"])).status_code == 200
    for body in ({"url": "ftp://example.org/x"}, {"url": "javascript:alert(1)"},
                 {"url": "http://"}, {"url": "https://example.org:99999/"},
                 {"url": "https://exa mple.org/"}, {"url": "https://example.org/\nHost: x"},
                 {"url": "https://example.org/" + "x" * 600}, {"url": 7}, {"url": ["x"]},
                 {"url": good, "seat_link": "yes"}, ["not", "an", "object"]):
        r = client.put(url, json=body, headers=auth(ann["token"]))
        assert r.status_code == 422 and r.json()["error"], body
    r = client.put(url, content=b"{not json", headers=auth(ann["token"]))
    assert r.status_code == 422
    r = client.put(url, content=b"{" + b" " * 20000 + b"}", headers=auth(ann["token"]))
    assert r.status_code == 413
    assert client.put(url, json={"url": good}).status_code == 401
    assert client.put(url, json={"url": good}, headers=auth("nobody")).status_code == 403
    assert client.put("/api/games/999/webhook", json={"url": good},
                      headers=auth(ann["token"])).status_code == 404
    assert client.post(f"/api/games/{gid}/webhook/test",
                       headers=auth(bob["token"])).status_code == 409     # Bob has none
    stored = client.app.state.store.webhooks(gid)
    assert [(s.player_id, s.webhook_url, s.webhook_seat_link) for s in stored] == \
        [(1, good, False)]


def test_the_creator_gives_a_lost_seat_a_new_link(client):
    made = two_people(client, bot="random")
    gid, key = made["id"], made["creator_token"]
    ann, bob = made["seats"][:2]
    assert key and key not in (ann["token"], bob["token"])
    with Receiver() as hook:
        client.put(f"/api/games/{gid}/webhook", json={"url": hook.url, "seat_link": True},
                   headers=auth(bob["token"]))
    r = client.post(f"/api/games/{gid}/seats/1/token", headers=auth(key))
    assert r.status_code == 200
    new = r.json()
    assert new["player_id"] == 2 and new["name"] == "Bob" and new["token"] != bob["token"]
    assert client.get(f"/api/games/{gid}/legal", headers=auth(bob["token"])).status_code == 403
    assert client.get(f"/api/games/{gid}/legal", headers=auth(new["token"])).json()[
        "player_id"] == 2
    assert client.app.state.store.webhooks(gid) == []       # the old holder's hook is gone
    # refusals: no key, a seat's token as key, a bot's seat, no such seat, no such game
    assert client.post(f"/api/games/{gid}/seats/0/token").status_code == 401
    assert client.post(f"/api/games/{gid}/seats/0/token",
                       headers=auth(ann["token"])).status_code == 403
    assert client.post(f"/api/games/{gid}/seats/2/token", headers=auth(key)).status_code == 409
    assert client.post(f"/api/games/{gid}/seats/9/token", headers=auth(key)).status_code == 404
    assert client.post(f"/api/games/{gid}/seats/x/token", headers=auth(key)).status_code == 422
    assert client.post(f"/api/games/999/seats/0/token", headers=auth(key)).status_code == 404
    assert client.get(f"/api/games/{gid}/legal", headers=auth(ann["token"])).status_code == 200
    # the same through the creator's page
    page = client.get(f"/games/{gid}/manage?key={key}")
    assert page.status_code == 200 and "New link for Ann" in page.text
    assert str(page.url).endswith(f"/games/{gid}/manage") and key not in page.text
    assert "New link for Cid" not in page.text                # a bot's seat has no link
    r = client.post(f"/games/{gid}/manage", data={"key": key, "seat": "0"})
    assert r.status_code == 200 and 'id="issued"' in r.text
    token = r.text.split(f"/games/{gid}?token=")[1].split('"')[0]
    assert client.get(f"/api/games/{gid}/legal", headers=auth(token)).json()["player_id"] == 1
    assert client.get(f"/api/games/{gid}/legal", headers=auth(ann["token"])).status_code == 403
    r = client.post(f"/games/{gid}/manage", data={"seat": "0"})    # the key in the cookie
    assert r.status_code == 200 and 'id="issued"' in r.text
    token = r.text.split(f"/games/{gid}?token=")[1].split('"')[0]
    client.cookies.clear()
    for data, status in (({"key": "wrong", "seat": "0"}, 403), ({"key": key, "seat": "x"}, 422),
                         ({"seat": "0"}, 401), ({"key": key, "seat": "-1"}, 404)):
        r = client.post(f"/games/{gid}/manage", data=data)
        assert r.status_code == status and 'id="error"' in r.text, data
    r = client.post(f"/games/{gid}/manage", content=b"key=" + b"k" * 20000,
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 413
    hostile = client.get(f"/games/{gid}/manage?key=<script>x</script>")
    assert hostile.status_code == 403 and "<script>x" not in hostile.text
    assert client.get(f"/games/{gid}/manage").status_code == 401
    assert client.get(f"/api/games/{gid}/legal", headers=auth(token)).json()["player_id"] == 1


def test_the_created_page_gives_the_creator_link(client):
    r = client.post("/games", data={"title": "1893", "name0": "Ann", "name1": "Bob", "seed": "3"})
    assert r.status_code == 201 and 'id="manage-link"' in r.text
    link = r.text.split('id="manage-link" href="')[1].split('"')[0]
    assert client.get(link).status_code == 200
