"""The pages, read as HTML: the lobby creates games (people, bots, open seats to join) and
imports exports; the game page draws the map and the seat's controls; 1893 hides other
players' cash; the history slider shows an earlier position."""

from __future__ import annotations

import json
import re

import pytest

from web_support import FIXTURES, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'pages.db'}")) as c:
        yield c


def recorded(*parts: str) -> dict:
    """A real game of ../shared/fixtures (the test skips without it)."""
    path = FIXTURES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return json.loads(path.read_text())


def imported_until(client, data: dict, at: int):
    """The game imported with its first ``at`` entries: its id and seats."""
    r = client.post("/api/games/import", json=dict(data, actions=data["actions"][:at]))
    return r.json()["id"], r.json()["seats"]


def seat_page_with(client, gid, seats, marker: str):
    """The first seat whose game page shows ``marker``, and that page (the last seat's
    if none does)."""
    for seat in seats:
        page = client.get(f"/games/{gid}/view?token={seat['token']}").text
        if marker in page:
            break
    return seat, page


def tokens_of(html: str):
    return re.findall(r'class="seat-link" data-player="(\d+)" href="/games/(\d+)\?token=([^"]+)"',
                      html)


def test_the_lobby_creates_a_game_with_seat_links(client):
    page = client.get("/")
    assert page.status_code == 200 and "1893" in page.text and "htmx" in page.text
    assert client.get("/static/htmx-2.0.11.min.js").status_code == 200
    assert client.get("/static/alpine-3.17.5.min.js").status_code == 200
    r = client.post("/games", data={"title": "1893", "name0": "Ann", "name1": "Bob",
                                    "name2": "Cid", "bot2": "random", "seed": "4"})
    assert r.status_code == 201
    seats = tokens_of(r.text)
    assert [s[0] for s in seats] == ["1", "2"]
    assert 'id="hotseat-link"' in r.text
    gid, ann = seats[0][1], seats[0][2]
    first = client.get(f"/games/{gid}?token={ann}", follow_redirects=False)
    assert first.status_code == 303 and first.headers["location"] == f"/games/{gid}"
    assert "httponly" in first.headers["set-cookie"].lower()
    game = client.get(f"/games/{gid}")            # the seat, from the link's cookie
    assert game.status_code == 200 and ann not in game.text
    assert game.text.count('class="hex') >= 80 and "<svg" in game.text
    assert 'data-type="bid"' in game.text                  # Ann is to bid in the draft
    # 1893: Ann sees her cash, not Bob's
    assert re.search(r'data-player="1"><td>Ann</td><td class="cash">600<', game.text)
    assert re.search(r'data-player="2"><td>Bob</td><td class="cash">hidden<', game.text)
    bob = client.get(f"/games/{gid}/view?token={seats[1][2]}")
    assert 'data-type="bid"' not in bob.text and "Waiting for Ann" in bob.text
    client.cookies.clear()
    watch = client.get(f"/games/{gid}/view")
    assert "Watching." in watch.text and 'class="cash">600<' not in watch.text


def test_bad_forms_say_why_and_change_nothing(client):
    r = client.post("/games", data={"title": "1893", "name0": "Ann"})
    assert r.status_code == 422 and "1893 is for" in r.text
    r = client.post("/games", data={"title": "1893", "name0": "A", "name1": "B", "seed": "x"})
    assert r.status_code == 422 and "seed" in r.text
    r = client.post("/games/import", data={"text": "{not json"})
    assert r.status_code == 422 and "not JSON" in r.text
    assert client.get("/").text.count("watch</a>") == 0
    assert client.get("/games/77").status_code == 404


def test_an_open_seat_is_joined_from_the_lobby(client):
    r = client.post("/games", data={"title": "1893", "name0": "Ann", "bot1": "open",
                                    "name2": "Cid", "bot2": "random", "seed": "4"})
    assert r.status_code == 201
    assert len(tokens_of(r.text)) == 1
    lobby = client.get("/").text
    assert "Join seat 2" in lobby
    gid = tokens_of(r.text)[0][1]
    joined = client.post(f"/games/{gid}/join", data={"seat": "1", "name": "Bea"},
                         follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"] == f"/games/{gid}"
    token = client.cookies.get(f"seats-{gid}", path=f"/api/games/{gid}")
    assert "Join seat 2" not in client.get("/").text
    again = client.post(f"/games/{gid}/join", data={"seat": "1", "name": "Eve"})
    assert again.status_code == 409
    players = client.get(f"/api/games/{gid}").json()["players"]
    assert [p["name"] for p in players] == ["Ann", "Bea", "Cid"]
    legal = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {token}"})
    assert legal.status_code == 200 and legal.json()["player_id"] == 2


def test_import_and_history(client):
    path = FIXTURES / "1893" / "1893_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    r = client.post("/games/import", files={"file": ("g.json", path.read_bytes())})
    assert r.status_code == 201
    gid = tokens_of(r.text)[0][1]
    page = client.get(f"/games/{gid}").text
    assert 'id="game-over"' in page and 'max="371"' in page
    assert page.count('class="route"') >= 1                 # the last routes run
    past = client.get(f"/games/{gid}/history?at=10").text
    assert "After entry 10 · Stock Round 1" in past and "<svg" in past
    later = client.get(f"/games/{gid}/history?at=200").text
    assert "After entry 200 · Operating Round" in later and later.count("<path") > past.count("<path")


def test_the_value_chart(client):
    path = FIXTURES / "1893" / "1893_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    r = client.post("/games/import", files={"file": ("g.json", path.read_bytes())})
    gid = tokens_of(r.text)[0][1]
    chart = client.get(f"/games/{gid}/chart").text
    assert chart.count('class="player-value"') == 3
    for score in ("6138", "5843", "6198"):           # the recorded result, at the end
        assert score in chart
    made = client.post("/api/games", json={"title": "1893", "players": [{"name": "a"},
                                                                         {"name": "b"}]})
    hidden = client.get(f"/games/{made.json()['id']}/chart").text
    assert "secret" in hidden and "polyline" not in hidden


def test_every_title_and_fixture_renders(client):
    from tracklayer.titles import TITLES
    for name, title in TITLES.items():
        low = title.player_range[0]
        made = client.post("/api/games", json={"title": name, "seed": 3, "players": [
            {"name": f"P{i}"} for i in range(low)]}).json()
        page = client.get(f"/games/{made['id']}?token={made['seats'][0]['token']}")
        assert page.status_code == 200 and page.text.count('class="hex') > 30, name
    for path in sorted(FIXTURES.glob("*/*.json")):
        data = json.loads(path.read_text())
        if data.get("title") not in TITLES:
            continue
        r = client.post("/api/games/import", json=data)
        assert r.status_code == 201, (path, r.text)
        page = client.get(f"/games/{r.json()['id']}")
        assert page.status_code == 200 and 'id="game-over"' in page.text, path


def test_hotseat_plays_whichever_seat_is_to_act(client):
    made = client.post("/api/games", json={"title": "1893", "seed": 4, "players": [
        {"name": "Ann"}, {"name": "Bob"}]}).json()
    gid, (ann, bob) = made["id"], [s["token"] for s in made["seats"]]
    url = f"/games/{gid}/view?token={ann}&token={bob}"
    first = client.get(url).text
    assert "Playing for <b>Ann</b>" in first and "'seat-1')" in first and ann not in first
    assert 'class="cash">hidden<' not in first              # both seats are mine
    legal = client.get(f"/api/games/{gid}/legal", headers={"Authorization": f"Bearer {ann}"})
    move = dict(legal.json()["actions"][0], id=1)
    assert client.post(f"/api/games/{gid}/actions", json=move,
                       headers={"Authorization": f"Bearer {ann}"}).status_code == 201
    second = client.get(url).text
    assert "Playing for <b>Bob</b>" in second and "'seat-2')" in second
    assert 'id="undo"' in second and "act({type: 'undo'}, 'seat-1')" in second
    assert ann not in second and bob not in second


def test_routes_come_filled_in_and_may_be_edited(client):
    data = recorded("1893", "1893_game_end_bank.json")
    first_run = next(i for i, a in enumerate(data["actions"]) if a["type"] == "run_routes")
    gid, seats = imported_until(client, data, first_run)
    for seat in seats:
        legal = client.get(f"/api/games/{gid}/legal",
                           headers={"Authorization": f"Bearer {seat['token']}"}).json()
        run = next((a for a in legal["actions"] if a["type"] == "run_routes"), None)
        if run is not None:
            break
    page = client.get(f"/games/{gid}/view?token={seat['token']}").text
    assert 'data-type="run_routes"' in page and 'id="routes"' in page and 'data-node="' in page
    assert run["routes"] and run["routes"][0]["revenue"] > 0
    # a route built from stops clicked on the map, checked by the engine
    first = run["routes"][0]
    ask = {"entity": {"entity": run["entity"], "entity_type": run["entity_type"]},
           "colors": ["#e4002b"]}
    built = client.post(f"/games/{gid}/routes", json=dict(
        ask, routes=[{"train": first["train"], "nodes": first["nodes"]}])).json()
    assert built["error"] == "" and built["routes"][0]["revenue"] == first["revenue"]
    assert built["action"]["routes"][0]["connections"] and '<polyline' in built["svg"]
    short = client.post(f"/games/{gid}/routes", json=dict(
        ask, routes=[{"train": first["train"], "nodes": first["nodes"][:1]}])).json()
    assert "at least two stops" in short["routes"][0]["problem"]
    assert short["routes"][0]["revenue"] == 0
    edited = dict(run, id=legal["next_id"])
    edited["routes"] = [dict(run["routes"][0], revenue=run["routes"][0]["revenue"] + 10)]
    refused = client.post(f"/api/games/{gid}/actions", json=edited,
                          headers={"Authorization": f"Bearer {seat['token']}"})
    assert refused.status_code == 422 and refused.json()["error"]
    assert len(client.get(f"/api/games/{gid}").json()["actions"]) == first_run


def test_a_token_goes_where_the_map_marks_it(client):
    data = recorded("1893", "1893_game_end_bank.json")
    at = next(i for i, a in enumerate(data["actions"]) if a["type"] == "place_token")
    _, page = seat_page_with(client, *imported_until(client, data, at),
                             'class="slot legal-token"')
    assert page.count('class="slot legal-token"') >= 1
    assert '&#34;place_token&#34;' in page               # the action the slot's click posts


def test_optional_rules_are_chosen_in_the_lobby(client):
    lobby = client.get("/").text
    assert 'value="optional_grey_phase"' in lobby and "Gray Phase" in lobby
    r = client.post("/games", data={"title": "1893", "name0": "A", "name1": "B", "seed": "2",
                                    "rule": ["optional_grey_phase"]})
    assert r.status_code == 201
    gid = tokens_of(r.text)[0][1]
    assert client.get(f"/api/games/{gid}").json()["settings"]["optional_rules"] == \
        ["optional_grey_phase"]
    r = client.post("/games", data={"title": "1893", "name0": "A", "name1": "B",
                                    "rule": ["no_such_rule"]})
    assert r.status_code == 422 and "unknown optional rule" in r.text


def test_each_title_has_its_guide_linked_from_the_lobby(client):
    """The guide page is the one ``tracklayer guide TITLE --format html`` writes."""
    from urllib.parse import unquote

    from tracklayer.guide.build import page
    from tracklayer.titles import TITLES
    links = re.findall(r'href="/guides/([^"]+)"', client.get("/").text)
    assert sorted(unquote(link) for link in links) == sorted(TITLES)
    for link in links:
        r = client.get(f"/guides/{link}")
        assert r.status_code == 200
        assert r.text == page(TITLES[unquote(link)], "html")
    assert client.get("/guides/1871").text == page(TITLES["The Old Prince 1871"], "html")
    assert client.get("/guides/1830").status_code == 404


def test_an_amount_in_a_range_is_typed_in(client):
    """1871: the cash a splitting corporation gives its Branch is a number field from 0 to
    all its cash, posted as the choice; an amount beyond it is refused."""
    data = recorded("1871", "1871_game_end_final_phase.json")
    at = 325                                     # choosing the Branch's cash (180 of 250)
    gid, seats = imported_until(client, data, at)
    seat, page = seat_page_with(client, gid, seats, 'data-type="choose"')
    assert 'min="0" max="250"' in page and "{'choice': amount}" in page
    auth = {"Authorization": f"Bearer {seat['token']}"}
    move = {"type": "choose", "entity": data["actions"][at]["entity"],
            "entity_type": "player", "id": len(data["actions"][:at]) + 1}
    assert client.post(f"/api/games/{gid}/actions", json=dict(move, choice=251),
                       headers=auth).status_code == 422
    assert client.post(f"/api/games/{gid}/actions", json=dict(move, choice=180),
                       headers=auth).status_code == 201
