"""The web app under attack, bad input and load: every hostile or malformed request gets a
clear 4xx (413 past a body limit, 429 past a rate), nothing is stored, nothing is echoed
unescaped; seat tokens leave URLs after the first visit and never reach the access log; a
re-issued link is void on every worker; live updates never cross installations; a server
that cannot reach its Redis says so in one line; a finished game stays finished."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from web_support import (FIXTURES, EventReader, Server, auth, database, recorded,
                         redis_or_skip, web_missing)

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")

XSS = '<img src=x onerror=alert(document.domain)>'
SCRIPT = '"><script>alert(1)</script>'
PAYLOADS = (XSS, SCRIPT, "{{7*7}}<svg onload=alert(1)>")
HUGE_IDS = (2 ** 31, 2 ** 63, 2 ** 64, 2 ** 70, 10 ** 30)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    yield from database(request.param, tmp_path / "sec.db")


def client_for(url, **kw):
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    return TestClient(create_app(url, **kw))


@pytest.fixture
def client(tmp_path):
    with client_for(f"sqlite:///{tmp_path / 'sec.db'}") as c:
        yield c


def new_game(client, names=("Ann", "Bob"), seed=4) -> dict:
    r = client.post("/api/games", json={"title": "1893", "seed": seed,
                                        "players": [{"name": n} for n in names]})
    assert r.status_code == 201, r.text
    return r.json()


def entries(client, gid) -> list:
    return client.get(f"/api/games/{gid}").json()["actions"]


def game_count(client) -> int:
    return len(client.app.state.store.games(limit=10 ** 6))


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def first_move(client, gid, seat) -> dict:
    found = client.get(f"/api/games/{gid}/legal", headers=auth(seat["token"])).json()
    return dict(found["actions"][0], id=found["next_id"])


def assert_clear_refusal(r, status=None) -> None:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    if status is not None:
        assert r.status_code == status, (r.status_code, r.text[:300])
    if r.headers.get("content-type", "").startswith("application/json"):
        body = r.json()
        assert body.get("error") or body.get("detail"), body


def assert_not_echoed(r, *payloads) -> None:
    """HTML holds none of the payloads as markup (escaped copies are fine)."""
    if "html" in r.headers.get("content-type", ""):
        for p in payloads:
            assert p not in r.text, (p, r.url)


# -- echoes ---------------------------------------------------------------------------------

def test_a_guide_that_does_not_exist_is_named_escaped(client):
    for name in PAYLOADS:
        r = client.get("/guides/" + name)
        assert r.status_code == 404
        assert_not_echoed(r, name)
        assert "&lt;" in r.text or "/" in name       # (a slash: no such route at all)
    r = client.get("/guides/%3Cimg%20src%3Dx%20onerror%3Dalert(document.domain)%3E")
    assert r.status_code == 404 and XSS not in r.text
    assert "script-src 'self'" in r.headers["content-security-policy"]


def test_xss_payloads_to_every_route_and_form_are_never_echoed_as_markup(client):
    gid = new_game(client)["id"]
    for p in PAYLOADS:
        # the lobby's forms: create (names, title, seed, rules), import, join
        r = client.post("/games", data={"title": p, "name0": p, "name1": "Bob", "seed": p,
                                        "rule": p, "bot1": p})
        assert_clear_refusal(r, 422)
        assert_not_echoed(r, p)
        r = client.post("/games", data={"title": "1893", "name0": p, "name1": "Bob",
                                        "seed": "1", "rule": p})
        assert_clear_refusal(r, 422)
        assert_not_echoed(r, p)
        r = client.post("/games/import", data={"text": p})
        assert_clear_refusal(r, 422)
        assert_not_echoed(r, p)
        r = client.post(f"/games/{gid}/join", data={"seat": "0", "name": p})
        assert_clear_refusal(r)
        assert_not_echoed(r, p)
        r = client.post(f"/games/{gid}/manage", data={"key": p, "seat": p})
        assert_clear_refusal(r)
        assert_not_echoed(r, p)
        # every page route with the payload in its path and query
        for path in (f"/games/{p}", f"/games/{gid}?token={p}", f"/games/{gid}/view?token={p}",
                     f"/games/{gid}/history?at={p}", f"/games/{gid}/log?page={p}",
                     f"/games/{gid}/chart?x={p}", f"/games/{gid}/manage?key={p}",
                     f"/api/games/{p}", f"/api/games/{gid}/events?after={p}", f"/{p}"):
            r = client.get(path)
            assert r.status_code < 500, path
            assert_not_echoed(r, p)
    # a game whose players are named with payloads, chatting payloads, with a payload in
    # a webhook's URL: shown escaped
    made = new_game(client, names=PAYLOADS[:2])
    ann = made["seats"][0]
    r = client.put(f"/api/games/{made['id']}/webhook", headers=auth(ann["token"]),
                   json={"url": "https://example.org/?q=" + SCRIPT, "seat_link": False})
    assert r.status_code == 200
    client.get(f"/games/{made['id']}?token={ann['token']}")      # Ann's page, by cookie
    r = client.post(f"/api/games/{made['id']}/actions", headers=auth(ann["token"]), json={
        "type": "message", "entity": 1, "entity_type": "player", "message": XSS, "id": 1})
    assert r.status_code == 201
    for path in ("/", f"/games/{made['id']}", f"/games/{made['id']}/view",
                 f"/games/{made['id']}/log", f"/games/{made['id']}/history?at=1"):
        r = client.get(path)
        assert r.status_code == 200
        assert_not_echoed(r, *PAYLOADS)
        assert "&lt;img src=x onerror" in r.text or path == "/games/%d/history?at=1" % made["id"]


# -- bad input: a clear 4xx, never a 500, nothing stored -------------------------------------

def test_game_ids_beyond_what_the_database_holds_are_not_found(db_url):
    with client_for(db_url) as c:
        made = new_game(c)
        h = auth(made["seats"][0]["token"])
        for big in HUGE_IDS:
            for method, path, kw in (
                    ("GET", f"/api/games/{big}", {}),
                    ("GET", f"/api/games/{big}/legal", {"headers": h}),
                    ("POST", f"/api/games/{big}/actions", {"headers": h,
                                                           "json": {"type": "pass", "id": 1}}),
                    ("GET", f"/api/games/{big}/events", {}),
                    ("PUT", f"/api/games/{big}/webhook", {"headers": h, "json": {}}),
                    ("POST", f"/api/games/{big}/seats/0/token", {"headers": h}),
                    ("GET", f"/games/{big}", {}), ("GET", f"/games/{big}/view", {}),
                    ("GET", f"/games/{big}/history?at=1", {}),
                    ("GET", f"/games/{big}/chart", {}), ("GET", f"/games/{big}/log", {}),
                    ("GET", f"/games/{big}/manage?key=x", {}),
                    ("POST", f"/games/{big}/join", {"data": {"seat": "0", "name": "E"}})):
                r = c.request(method, path, **kw)
                assert_clear_refusal(r)
                assert r.status_code in (404, 422), (path, r.status_code)
        r = c.get(f"/api/games/{made['id']}/events", headers={"Last-Event-ID": str(2 ** 70)})
        assert_clear_refusal(r, 422)
        r = c.get(f"/api/games/{made['id']}/events?after={2 ** 70}")
        assert_clear_refusal(r, 422)


def test_json_nested_100000_deep_is_refused_everywhere(client):
    made = new_game(client)
    gid, h = made["id"], auth(made["seats"][0]["token"])
    before = game_count(client)
    body = deep(100_000)
    for path, status in (("/api/games", 413), ("/api/games/import", 422),
                         (f"/api/games/{gid}/actions", 413)):
        r = client.post(path, content=body, headers=dict(h, **{"content-type":
                                                               "application/json"}))
        assert_clear_refusal(r, status)
    # within the body limit, nested beyond the documented depth: 422
    for path in ("/api/games", "/api/games/import", f"/api/games/{gid}/actions"):
        r = client.post(path, content=json.dumps({"title": "1893", "x": json.loads(deep(40))}),
                        headers=dict(h, **{"content-type": "application/json"}))
        assert_clear_refusal(r, 422)
        assert "nested" in r.json()["error"]
    r = client.post("/games/import", data={"text": deep(100_000)})
    assert_clear_refusal(r, 422)
    assert game_count(client) == before and entries(client, gid) == []


def test_malformed_games_and_imports_are_refused(db_url):
    with client_for(db_url) as c:
        before = game_count(c)
        players = [{"name": "Ann"}, {"name": "Bob"}]
        for body in ({"title": ["1893"], "players": players},
                     {"title": {"a": 1}, "players": players},
                     {"title": "1893", "players": players, "seed": "abc"},
                     {"title": "1893", "players": players, "seed": 2 ** 40},
                     {"title": "1893", "players": players, "seed": True},
                     {"title": "1893", "players": players, "optional_rules": 5},
                     {"title": "1893", "players": players, "optional_rules": [["x"]]},
                     {"title": "1893", "players": [{"name": "A\x00nn"}, {"name": "Bob"}]},
                     {"title": "1893", "players": [{"name": "Ann\u202e\x07"}, {"name": "B"}]},
                     {"title": "1893", "players": [{"name": "x" * 101}, {"name": "Bob"}]},
                     {"title": "1893", "players": [{"name": "Ann", "bot": ["random"]},
                                                   {"name": "Bob"}]},
                     {"title": "1893", "players": [{"name": f"P{i}"} for i in range(100)]}):
            r = c.post("/api/games", json=body)
            assert_clear_refusal(r, 422)
        export = {"title": "1893", "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}],
                  "settings": {"seed": 3, "optional_rules": []}, "actions": []}
        for change in ({"title": ["1893"]}, {"settings": "x"}, {"settings": {"seed": "abc"}},
                       {"settings": {"seed": 2 ** 64}}, {"settings": {"optional_rules": 5}},
                       {"players": "x"}, {"players": [{"id": "1", "name": "A"}]},
                       {"players": [{"id": 1, "name": "A\x00"}, {"id": 2, "name": "B"}]},
                       {"actions": "x"}, {"actions": [5]}, {"description": ["x"]},
                       {"description": "a\x00b"},
                       {"actions": [{"type": "message", "entity": 1, "entity_type": "player",
                                     "message": {"x": 1}, "id": 1}]}):
            r = c.post("/api/games/import", json=dict(export, **change))
            assert_clear_refusal(r, 422)
        r = c.post("/api/games/import", content=b"[1, NaN]",
                   headers={"content-type": "application/json"})
        assert_clear_refusal(r, 422)
        r = c.post("/api/games", content=b'{"title": "1893", "seed": 1e999}',
                   headers={"content-type": "application/json"})
        assert_clear_refusal(r, 422)
        r = c.post("/api/games", content=b"\xff\xfe{}", headers={"content-type":
                                                                "application/json"})
        assert_clear_refusal(r, 422)
        r = c.post("/games/0/join", data={"seat": "0", "name": "x\x00"})
        assert_clear_refusal(r)
        assert game_count(c) == before
        # a NUL in a joining name on an open seat: refused, the seat stays open
        made = c.post("/api/games", json={"title": "1893", "players": [
            {"name": "Ann"}, {"name": "", "open": True}, {"name": "Cid"}]})
        assert made.status_code == 422      # an open seat still needs a name through the API
        r = c.post("/games", data={"title": "1893", "name0": "Ann", "bot1": "open",
                                   "name2": "Cid", "seed": "4"})
        gid = int(r.text.split('data-player="1" href="/games/')[1].split("?")[0])
        r = c.post(f"/games/{gid}/join", data={"seat": "1", "name": "Bea\x00"})
        assert_clear_refusal(r, 422)
        assert "Join seat 2" in c.get("/").text


def test_malformed_entries_are_refused_and_not_stored(db_url):
    with client_for(db_url) as c:
        made = new_game(c)
        gid, (ann, bob) = made["id"], made["seats"]
        move = first_move(c, gid, ann)
        h = auth(ann["token"])
        for bad in (dict(move, entity="1"),                       # a player named as text
                    dict(move, entity=["1"]), dict(move, entity={"a": 1}),
                    dict(move, entity_type=["player"]), dict(move, entity_type="nobody"),
                    dict(move, type=["bid"]), dict(move, type="x" * 100),
                    dict(move, created_at="now"), dict(move, created_at=2 ** 70),
                    {"type": "message", "entity": 1, "entity_type": "player", "id": 1,
                     "message": {"text": "hi"}},
                    {"type": "message", "entity": 1, "entity_type": "player", "id": 1,
                     "message": None},
                    {"type": "message", "entity": 1, "entity_type": "player", "id": 1,
                     "message": ["hi"]},
                    {"type": "message", "entity": 1, "entity_type": "player", "id": 1,
                     "message": "   "},
                    {"type": "message", "entity": 1, "entity_type": "player", "id": 1,
                     "message": "a\x00b"},
                    {"type": "message", "entity": 1, "entity_type": "player", "id": 1,
                     "message": "x" * 1001},
                    # a message may not carry actions for another seat to run
                    {"type": "message", "entity": 1, "entity_type": "player", "id": 1,
                     "message": "hi", "auto_actions": [dict(move, entity=2)]},
                    dict(move, auto_actions=[])):
            r = c.post(f"/api/games/{gid}/actions", json=bad, headers=h)
            assert_clear_refusal(r, 422)
        assert entries(c, gid) == []
        ok = c.post(f"/api/games/{gid}/actions", headers=h, json={
            "type": "message", "entity": 1, "entity_type": "player", "id": 1,
            "message": "line one\nline two"})
        assert ok.status_code == 201 and ok.json()["message"] == "line one\nline two"


# -- limits -----------------------------------------------------------------------------------

def test_bodies_over_the_documented_limits_get_413(client):
    from tracklayer.web.guard import Limits
    limits = Limits()
    made = new_game(client)
    gid, ann = made["id"], made["seats"][0]
    before = game_count(client)
    big = "x" * (20 * 1024 * 1024)
    r = client.post(f"/api/games/{gid}/actions", headers=auth(ann["token"]), json={
        "type": "message", "entity": 1, "entity_type": "player", "id": 1, "message": big})
    assert_clear_refusal(r, 413)
    assert str(limits.body) in r.json()["error"]
    r = client.post("/api/games", json={"title": "1893", "players": [{"name": "A"},
                                                                      {"name": "B"}], "x": big})
    assert_clear_refusal(r, 413)
    r = client.post("/games", data={"title": "1893", "name0": big})
    assert_clear_refusal(r, 413)
    assert XSS not in r.text
    r = client.post("/api/games/import", content=b"{" + b" " * (limits.import_body + 1) + b"}",
                    headers={"content-type": "application/json"})
    assert_clear_refusal(r, 413)
    # an export pasted in the lobby's form, over 1 MB but within the import limit: read
    data = recorded("1893", "1893_game_end_bank.json")
    pasted = json.dumps(data, indent=1) + " " * (1024 * 1024)
    r = client.post("/games/import", data={"text": pasted})
    assert r.status_code == 201, r.text[:300]
    before += 1

    def chunks():                               # a body without a length, sent in pieces
        for _ in range(100):
            yield b"x" * 100_000
    r = client.post(f"/api/games/{gid}/actions", content=chunks(), headers=auth(ann["token"]))
    assert_clear_refusal(r, 413)
    # a chat message within the body limit but over the chat limit: 422
    r = client.post(f"/api/games/{gid}/actions", headers=auth(ann["token"]), json={
        "type": "message", "entity": 1, "entity_type": "player", "id": 1,
        "message": "y" * 5000})
    assert_clear_refusal(r, 422)
    assert entries(client, gid) == [] and game_count(client) == before
    page = client.get(f"/games/{gid}")
    assert len(page.content) < 1_000_000


def test_a_rate_limit_refills_with_time():
    from tracklayer.web.guard import Bucket
    clock = [0.0]
    bucket = Bucket(2, 0.5, clock=lambda: clock[0])
    assert [bucket.take("a"), bucket.take("a"), bucket.take("a")] == [True, True, False]
    assert bucket.take("b") and bucket.empty("a") and bucket.wait("a") == 2
    clock[0] += 2.0
    assert not bucket.empty("a") and bucket.take("a") and not bucket.take("a")
    assert Bucket(2, 0).take("a") and not Bucket(2, 0).empty("a")    # rate 0: no limit


@pytest.fixture
def frozen_clock(monkeypatch):
    """The rate limits' clock stands still (a slow machine refills no bucket)."""
    from tracklayer.web import guard
    monkeypatch.setattr(guard, "now", lambda: 1000.0)


def test_games_made_past_the_documented_rate_get_429(tmp_path, frozen_clock):
    from tracklayer.web.guard import Limits
    limits = Limits()
    with client_for(f"sqlite:///{tmp_path / 'rate.db'}") as c:
        players = [{"name": "A"}, {"name": "B"}]
        codes = [c.post("/api/games", json={"title": "1893", "players": players}).status_code
                 for _ in range(limits.games_burst)]
        assert codes == [201] * limits.games_burst
        r = c.post("/api/games", json={"title": "1893", "players": players})
        assert_clear_refusal(r, 429)
        assert int(r.headers["retry-after"]) >= 1
        r = c.post("/games", data={"title": "1893", "name0": "A", "name1": "B"})
        assert_clear_refusal(r, 429)
        assert c.post("/api/games/import", json={}).status_code == 429
        assert c.get("/").status_code == 200               # reading goes on
        assert game_count(c) == limits.games_burst
    with client_for(f"sqlite:///{tmp_path / 'free.db'}",
                    limits=Limits(games_per_minute=0)) as c:    # serve --games-per-minute 0
        for _ in range(limits.games_burst + 5):
            assert c.post("/api/games", json={"title": "1893", "players": [
                {"name": "A"}, {"name": "B"}]}).status_code == 201


def test_refused_tokens_past_the_documented_rate_get_429(client, frozen_clock):
    from tracklayer.web.guard import Limits
    limits = Limits()
    made = new_game(client)
    gid, ann = made["id"], made["seats"][0]
    move = first_move(client, gid, ann)
    codes = [client.post(f"/api/games/{gid}/actions", json=move,
                         headers=auth(f"guess{i:020d}")).status_code for i in range(300)]
    assert codes == [403] * limits.auth_burst + [429] * (300 - limits.auth_burst)
    # while it lasts, credentials from that address wait; reading without them does not
    r = client.post(f"/api/games/{gid}/actions", json=move, headers=auth(ann["token"]))
    assert_clear_refusal(r, 429)
    assert client.get(f"/api/games/{gid}").status_code == 200
    assert entries(client, gid) == []


# -- tokens: out of URLs and logs, void on every worker -------------------------------------

def test_a_seat_link_becomes_a_cookie_and_leaves_the_url(client):
    r = client.post("/games", data={"title": "1893", "name0": "Ann", "name1": "Bob",
                                    "seed": "4"})
    links = [a.split('"')[0] for a in r.text.split('class="seat-link" data-player="')[1:]]
    hotseat = r.text.split('id="hotseat-link" href="')[1].split('"')[0].replace("&amp;", "&")
    gid = int(hotseat.split("?")[0].rsplit("/", 1)[1])
    tokens = [t.split("&")[0] for t in hotseat.split("token=")[1:]]
    assert len(tokens) == 2
    first = client.get(hotseat, follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == f"/games/{gid}"
    cookies = first.headers.get_list("set-cookie")
    assert {c.split("Path=")[1].split(";")[0] for c in cookies} == {f"/games/{gid}",
                                                                     f"/api/games/{gid}"}
    for cookie in cookies:                      # only with this game's requests
        assert f"seats-{gid}=" in cookie and "httponly" in cookie.lower() and \
            "samesite=lax" in cookie.lower()
    page = client.get(f"/games/{gid}")
    assert "you: Ann, Bob" in page.text
    for t in tokens:
        assert t not in page.text and t not in client.get(f"/games/{gid}/view").text
    # the page's own posts go with the cookie; the server finds the seat that may act
    move = first_move(client, gid, {"token": tokens[0]})
    r = client.post(f"/api/games/{gid}/actions", json=move)
    assert r.status_code == 201
    r = client.post(f"/api/games/{gid}/actions", json={"type": "message", "entity": 2,
                                                        "entity_type": "player", "id": 2,
                                                        "message": "hi"})
    assert r.status_code == 201 and r.json()["entity"] == 2
    # ... but not when another site's page sends them
    r = client.post(f"/api/games/{gid}/actions", headers={"Origin": "https://evil.example"},
                    json={"type": "message", "entity": 2, "entity_type": "player", "id": 3,
                          "message": "forged"})
    assert_clear_refusal(r, 403)
    r = client.post(f"/api/games/{gid}/actions", headers={"Sec-Fetch-Site": "cross-site"},
                    json={"type": "message", "entity": 2, "entity_type": "player", "id": 3,
                          "message": "forged"})
    assert_clear_refusal(r, 403)
    assert len(entries(client, gid)) == 2
    # a link of another game does not hold this game's seats
    other = new_game(client)
    assert client.get(f"/games/{gid}?token={other['seats'][0]['token']}").status_code == 403
    assert links


def test_the_access_log_leaves_out_play_answered_and_keeps_refusals():
    """A game's listings and actions answered (below 400) are not written to the access
    log (one of each per action); refused ones are, with any token hidden."""
    from tracklayer.web.guard import HideSecrets

    def kept(path, status):
        record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1,
                                   '%s - "%s %s HTTP/%s" %d',
                                   ("1.2.3.4:5", "GET", path, "1.1", status), None)
        return HideSecrets().filter(record), record.getMessage()
    assert not kept("/api/games/7/legal", 200)[0]
    assert not kept("/api/games/7/actions", 201)[0]
    assert kept("/api/games/7/actions", 422)[0] and kept("/api/games/7/legal", 403)[0]
    assert kept("/api/games/7", 200)[0]
    shown = kept("/api/games/7/legal?token=secret", 200)
    assert shown[0] and "secret" not in shown[1] and "token=…" in shown[1]


def test_the_access_log_never_shows_a_token(tmp_path):
    import time

    import httpx
    from tracklayer.web.app import create_app
    seen = []

    class Keep(logging.Handler):
        def emit(self, record) -> None:
            seen.append(record.getMessage())

    keep = Keep()
    server = Server(create_app(f"sqlite:///{tmp_path / 'log.db'}"), log_level="info",
                    access_log=True, lifespan="auto")
    try:
        with server:
            logging.getLogger("uvicorn.access").addHandler(keep)  # (after uvicorn's set-up)
            base = server.url
            made = httpx.post(f"{base}/api/games", json={"title": "1893", "players": [
                {"name": "Ann"}, {"name": "Bob"}]}).json()
            token, key = made["seats"][0]["token"], made["creator_token"]
            seat2 = made["seats"][1]["token"]
            with httpx.Client(base_url=base, follow_redirects=True) as browser:
                browser.get(f"/games/{made['id']}?token={token}&token={seat2}")
                browser.get(f"/games/{made['id']}/manage?key={key}")
                browser.get(f"/games/{made['id']}/view?token={token}")
                browser.get(f"/api/games/{made['id']}/legal", headers=auth(token))
            time.sleep(0.3)
    finally:
        logging.getLogger("uvicorn.access").removeHandler(keep)
    lines = [m for m in seen if f"/games/{made['id']}" in m]
    assert len(lines) >= 5, seen
    assert any("token=…" in m for m in lines) and any("key=…" in m for m in lines)
    for m in seen:
        assert token not in m and key not in m and made["seats"][1]["token"] not in m


def test_a_link_issued_anew_is_void_on_every_worker_at_once(db_url):
    redis_url = redis_or_skip()                 # (several workers always share a Redis)
    with client_for(db_url, redis_url=redis_url) as a, \
            client_for(db_url, redis_url=redis_url) as b:
        made = new_game(a)
        gid, key, bob = made["id"], made["creator_token"], made["seats"][1]
        assert b.get(f"/api/games/{gid}/legal", headers=auth(bob["token"])).status_code == 200
        b.get(f"/games/{gid}?token={bob['token']}")             # B's browser holds the cookie
        new = a.post(f"/api/games/{gid}/seats/1/token", headers=auth(key)).json()
        assert b.get(f"/api/games/{gid}/legal", headers=auth(bob["token"])).status_code == 403
        assert b.get(f"/api/games/{gid}/legal", headers=auth(new["token"])).status_code == 200
        assert "you: Bob" not in b.get(f"/games/{gid}").text   # the old cookie: a spectator
        r = b.post(f"/api/games/{gid}/actions", json={
            "type": "message", "entity": 2, "entity_type": "player", "id": 1, "message": "x"})
        assert_clear_refusal(r, 403)


# -- live updates: one installation's channels ----------------------------------------------

def test_two_installations_sharing_one_redis_never_hear_each_other(tmp_path):
    from tracklayer.web.app import create_app
    redis_url = redis_or_skip()
    one, two = f"sqlite:///{tmp_path / 'one.db'}", f"sqlite:///{tmp_path / 'two.db'}"
    with Server(create_app(one, redis_url)) as a, Server(create_app(two, redis_url)) as b:
        import httpx
        ga = httpx.post(f"{a.url}/api/games", json={"title": "1893", "seed": 1, "players": [
            {"name": "A"}, {"name": "B"}]}).json()
        gb = httpx.post(f"{b.url}/api/games", json={"title": "1893", "seed": 1, "players": [
            {"name": "A"}, {"name": "B"}]}).json()
        assert ga["id"] == gb["id"] == 1                   # the same game id on both
        assert a.server.config.app.state.store.installation() != \
            b.server.config.app.state.store.installation()
        on_a = EventReader(f"{a.url}/api/games/1/events")
        for base, made, text in ((b.url, gb, "from two"), (a.url, ga, "from one")):
            r = httpx.post(f"{base}/api/games/1/actions", headers=auth(made["seats"][0]["token"]),
                           json={"type": "message", "entity": 1, "entity_type": "player",
                                 "id": 1, "message": text})
            assert r.status_code == 201
        got = on_a.take(1)
        assert got[0][0] == 1 and got[0][1]["message"] == "from one"
        with pytest.raises(AssertionError):
            on_a.take(1, timeout=1.0)
        on_a.close()


def test_live_updates_come_back_after_redis_drops_the_listener(monkeypatch, caplog):
    import asyncio
    from redis.exceptions import ConnectionError as RedisDown
    from tracklayer.web.events import RedisBroker
    redis_url = redis_or_skip()
    real = RedisBroker._hear
    calls = []

    async def flaky(self):
        calls.append(1)
        if len(calls) == 1:
            raise RedisDown("Connection closed by server.")
        await real(self)
    monkeypatch.setattr(RedisBroker, "_hear", flaky)

    async def scenario():
        broker = RedisBroker(redis_url, "reconnect-test")
        other = RedisBroker(redis_url, "reconnect-test")    # another worker publishes
        await broker.start()                    # heard again after the drop
        with broker.listen(7) as queue:
            other.publish(7, 1, {"type": "message"})
            got = await asyncio.wait_for(queue.get(), 5)
        other.outbox.put(None)
        other.sender.join(5)
        await broker.stop()
        return got
    with caplog.at_level(logging.WARNING):
        assert asyncio.run(scenario()) == (1, '{"type": "message"}')
    assert len(calls) == 2 and "paused" in caplog.text


def _serve(args, timeout=30):
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.run([sys.executable, "-m", "tracklayer", "serve"] + args, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_server_that_cannot_reach_its_redis_says_so_in_one_line(tmp_path, workers):
    from tracklayer.web.server import free_port
    for url in (f"redis://127.0.0.1:{free_port()}/0", "redis://:secret@nohost.invalid:6379/0",
                "http://not-redis"):
        r = _serve(["--db", f"sqlite:///{tmp_path / 'r.db'}", "--workers", workers,
                    "--redis", url, "--port", str(free_port())])
        assert r.returncode == 2
        lines = r.stderr.strip().splitlines()
        assert len(lines) == 1 and "cannot reach Redis" in lines[0], r.stderr
        assert "secret" not in r.stderr and "serving on" not in r.stderr


# -- a finished game ------------------------------------------------------------------------

def test_a_finished_game_stays_finished(db_url):
    path = FIXTURES / "1893" / "1893_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    with client_for(db_url) as c:
        made = c.post("/api/games/import", json=json.loads(path.read_text())).json()
        gid, seats = made["id"], made["seats"]
        before = c.get(f"/api/games/{gid}").json()
        assert before["finished"]
        n = len(before["actions"]) + 1
        r = c.post(f"/api/games/{gid}/actions", headers=auth(seats[0]["token"]), json={
            "type": "message", "entity": seats[0]["player_id"], "entity_type": "player",
            "id": n, "message": "gg"})
        assert r.status_code == 201                        # chat goes on
        for seat in seats:
            for entry in ({"type": "undo"}, {"type": "undo", "action_id": 0}, {"type": "redo"},
                          {"type": "pass", "entity": seat["player_id"],
                           "entity_type": "player"}):
                r = c.post(f"/api/games/{gid}/actions", headers=auth(seat["token"]),
                           json=dict(entry, id=n + 1))
                assert_clear_refusal(r, 409)
                assert "over" in r.json()["error"]
        after = c.get(f"/api/games/{gid}").json()
        assert after["finished"] and after["result"] == before["result"]
        assert len(after["actions"]) == n
