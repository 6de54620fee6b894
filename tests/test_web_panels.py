"""The game page's panels besides the controls, read as HTML: the bank of an unlimited title,
the log with the chat by name and time where it was said, the whole log in pages, the end
(winner, scores, reason, chart), the history slider's market and log, the lobby's player
counts and a form kept after an error; hostile text comes back escaped."""

from __future__ import annotations

import re

import pytest

from web_support import auth, recorded, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'panels.db'}")) as c:
        yield c


def imported(client, data: dict, upto=None):
    r = client.post("/api/games/import", json=dict(data, actions=data["actions"][:upto]))
    assert r.status_code == 201, r.text
    return r.json()


def log_lines(html: str):
    """The live log panel's items: (class, text without tags)."""
    panel = html.split('id="log-lines"')[1].split("</ol>")[0]
    return [(k, re.sub(r"<[^>]+>", "", t).strip())
            for k, t in re.findall(r'<li class="(\w+)">(.*?)</li>', panel, re.S)]


@pytest.mark.parametrize("parts", [("1871", "1871_game_end_final_phase.json"),
                                   ("1817NA", "25351.json")])
def test_an_unlimited_bank_says_so(client, parts):
    data = recorded(*parts)
    made = imported(client, data)
    page = client.get(f"/games/{made['id']}").text
    assert '<span id="bank">unlimited</span>' in page
    past = client.get(f"/games/{made['id']}/history?at={len(data['actions']) // 2}").text
    assert "bank unlimited" in past and not re.search(r"bank -\d", past + page)


def test_a_limited_bank_shows_its_cash(client):
    made = client.post("/api/games", json={"title": "1893", "seed": 1, "players": [
        {"name": "A"}, {"name": "B"}]}).json()
    page = client.get(f"/games/{made['id']}").text
    from tracklayer.titles import title
    from tracklayer.game import Game
    bank = Game(title("1893"), [(1, "A"), (2, "B")], seed=1).state.bank.cash
    assert f'<span id="bank">{bank}</span>' in page


def test_chat_is_by_name_with_its_time_where_it_was_said(client, tmp_path):
    made = client.post("/api/games", json={"title": "1893", "seed": 4, "players": [
        {"name": "Ann <b>"}, {"name": "Bob"}]}).json()
    gid, (ann, bob) = made["id"], made["seats"]

    def say(seat, text, number):
        r = client.post(f"/api/games/{gid}/actions", headers=auth(seat["token"]), json={
            "type": "message", "entity": seat["player_id"], "entity_type": "player",
            "message": text, "id": number, "created_at": 1700000000})
        assert r.status_code == 201

    def move(seat):
        found = client.get(f"/api/games/{gid}/legal", headers=auth(seat["token"])).json()
        r = client.post(f"/api/games/{gid}/actions", headers=auth(seat["token"]),
                        json=dict(found["actions"][0], id=found["next_id"]))
        assert r.status_code == 201

    say(bob, "hello <script>alert(1)</script>", 1)
    move(ann)
    say(ann, "your turn", 3)
    page = client.get(f"/games/{gid}?token={ann['token']}").text
    lines = log_lines(page)
    chats = [i for i, (k, _) in enumerate(lines) if k == "chat"]
    assert [lines[i][1] for i in chats] == [
        "22:13 Bob: hello &lt;script&gt;alert(1)&lt;/script&gt;", "22:13 Ann &lt;b&gt;: your turn"]
    assert "<script>alert(1)" not in page and "player 2:" not in page.lower()
    # the chat sits where it was said: Ann's action's lines between the two messages
    assert chats[1] - chats[0] > 1 and chats[1] == len(lines) - 1
    assert '<time datetime="2023-11-14T22:13:20Z">' in page
    # rebuilt from the stored log (a new app on the same database), the same order
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    db = client.app.state.store.url
    with TestClient(create_app(db)) as again:
        assert log_lines(again.get(f"/games/{gid}").text) == lines


def test_the_whole_log_is_read_in_pages(client):
    data = recorded("1893", "1893_game_end_bank.json")
    gid = imported(client, data)["id"]
    page = client.get(f"/games/{gid}").text
    count = int(re.search(r'id="log-lines" data-count="(\d+)"', page).group(1))
    pages = -(-count // 100)
    assert count > 300 and f"The whole log ({count} lines, {pages} pages)" in page
    first = client.get(f"/games/{gid}/log?page=1")
    assert first.status_code == 200 and "<html" in first.text
    assert f"Lines 1–100 of {count} · page 1 of {pages}" in first.text
    assert first.text.count("<li class=") == 100
    last = client.get(f"/games/{gid}/log", headers={"HX-Request": "true"})
    assert "<html" not in last.text and f"page {pages} of {pages}" in last.text
    assert "Game over" in last.text and 'hx-get="/games/' in last.text
    # the pages hold every line once, in order: together they are the whole log
    every = []
    for n in range(1, pages + 1):
        text = client.get(f"/games/{gid}/log?page={n}", headers={"HX-Request": "true"}).text
        every += re.findall(r"<li class=", text)
    assert len(every) == count
    for bad, status in (("0", 422), ("-1", 422), ("x", 422), (str(pages + 1), 404),
                        ("99999999999", 422)):
        assert client.get(f"/games/{gid}/log?page={bad}").status_code == status, bad
    assert client.get("/games/999/log").status_code == 404


def test_the_end_shows_the_winner_the_scores_and_the_chart(client):
    data = recorded("1893", "1893_game_end_bank.json")
    made = imported(client, data)
    gid = made["id"]
    page = client.get(f"/games/{gid}").text
    from tracklayer.io.export import load_export, replay
    game = replay(data)
    result = game.result()
    names = dict(game.player_specs)
    best = max(result.values())
    assert "Game over: the bank broke" in page
    winners = [names[p] for p, v in result.items() if v == best]
    assert re.search(r'id="winner">Winners?: <b>' + re.escape(" and ".join(winners)), page)
    rows = re.findall(r'<tr class="score[^"]*" data-player="(\d+)"><td>(\d+)</td><td>([^<]*)'
                      r'</td><td class="money">([^<]*)<', page)
    assert [int(r[0]) for r in rows] == list(result)              # best first
    for (pid, place, name, money), value in zip(rows, result.values()):
        assert name == names[int(pid)] and str(value) in money
    assert rows[0][1] == "1"
    assert 'hx-get="/games/%d/chart" hx-trigger="load"' % gid in page
    chart = client.get(f"/games/{gid}/chart").text
    assert chart.count('class="player-value"') == len(result)
    assert client.get(f"/games/{gid}/chart").text == chart          # drawn once, kept


def test_the_end_names_every_title_s_reason(client):
    for parts, words in ((("1817NA", "25351.json"), "every player but one went bankrupt"),
                         (("1871", "1871_game_end_final_phase.json"), "the last phase came"),
                         (("1849KingdomoftheTwoSicilies",
                           "1849KingdomoftheTwoSicilies_game_end_stock_market.json"),
                          "a share price reached the top")):
        gid = imported(client, recorded(*parts))["id"]
        page = client.get(f"/games/{gid}").text
        assert f"Game over: {words}" in page and 'id="scores"' in page, parts


def test_the_history_shows_the_market_and_the_log_of_its_moment(client):
    data = recorded("1893", "1893_game_end_bank.json")
    gid = imported(client, data)["id"]
    at = 40
    past = client.get(f"/games/{gid}/history?at={at}").text
    assert f"After entry {at}" in past and 'class="market"' in past
    assert 'class="log-lines history-log"' in past
    from tracklayer.io.export import open_game
    game = open_game(dict(data, actions=[]))
    for h in data["actions"][:at]:
        game.apply(h)
    shown = re.findall(r'<li class="game">(?:<time[^>]*>[^<]*</time> )?(.*?)</li>',
                       past.split("history-log")[1])
    from markupsafe import escape               # as the templates escape
    assert shown == [escape(str(m)) for m in game.table.messages][-len(shown):]
    assert shown[-1] == escape(str(game.table.messages[-1]))
    for bad in ("-1", "x", "1e3"):
        assert client.get(f"/games/{gid}/history?at={bad}").status_code == 422
    beyond = client.get(f"/games/{gid}/history?at=100000").text
    assert f"After entry {len(data['actions'])}" in beyond


def test_the_lobby_shows_player_counts_and_keeps_a_failed_form(client):
    lobby = client.get("/").text
    from tracklayer.titles import TITLES
    for name, t in TITLES.items():
        low, high = t.player_range
        assert f"{name} ({low}–{high} players)" in lobby.replace("&#39;", "'")
    hostile = '"><script>alert(1)</script>'
    r = client.post("/games", data={"title": "1849: Kingdom of the Two Sicilies",
                                    "name0": hostile, "name1": "Bob", "bot1": "greedy",
                                    "seed": "12x"})
    assert r.status_code == 422 and "seed" in r.text
    assert "<script>alert(1)" not in r.text
    assert 'value="&#34;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"' in r.text
    assert 'value="12x"' in r.text and '<option value="greedy" selected>' in r.text
    assert '<option value="1849: Kingdom of the Two Sicilies" selected>' in r.text
    r = client.post("/games", data={"title": "1893", "name0": "Solo"})
    assert r.status_code == 422 and 'value="Solo"' in r.text
    r = client.post("/games", data={"title": "1893", "name0": "A", "name1": "B", "seed": "2",
                                    "rule": ["optional_grey_phase", "no_such_rule"]})
    assert r.status_code == 422 and 'value="optional_grey_phase" checked' in r.text
    r = client.post("/games/import", data={"text": '{"broken": '})
    assert r.status_code == 422 and "{&#34;broken&#34;: </textarea>" in r.text
    assert client.get("/").text.count("watch</a>") == 0              # nothing was made


def test_the_page_has_a_viewport_and_the_turn_script(client):
    made = client.post("/api/games", json={"title": "1893", "seed": 4, "players": [
        {"name": "Ann"}, {"name": "Bob"}]}).json()
    gid, (ann, bob) = made["id"], made["seats"]
    page = client.get(f"/games/{gid}?token={ann['token']}").text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '/static/turn.js' in page and client.get("/static/turn.js").status_code == 200
    assert 'data-my-turn="1"' in page and 'id="your-turn"' in page
    bobs = client.get(f"/games/{gid}?token={bob['token']}").text
    assert 'data-my-turn="0"' in bobs and 'id="your-turn"' not in bobs
    assert 'id="alerts"' in bobs and 'data-seat="2"' in bobs and bob["token"] not in bobs
    client.cookies.clear()
    watching = client.get(f"/games/{gid}").text
    assert 'id="alerts"' not in watching and ann["token"] not in watching


def test_a_seat_sees_its_own_webhook_escaped(client):
    made = client.post("/api/games", json={"title": "1893", "seed": 4, "players": [
        {"name": "Ann"}, {"name": "Bob"}]}).json()
    gid, (ann, bob) = made["id"], made["seats"]
    hostile = "https://example.org/?q=\"><script>alert(1)</script>"
    r = client.put(f"/api/games/{gid}/webhook", json={"url": hostile, "seat_link": True},
                   headers=auth(ann["token"]))
    assert r.status_code == 200
    page = client.get(f"/games/{gid}?token={ann['token']}").text
    assert "<script>alert(1)" not in page and "&lt;script&gt;alert(1)" in page
    assert "checked> put my secret seat link" in page
    client.cookies.clear()
    assert "example.org" not in client.get(f"/games/{gid}?token={bob['token']}").text
