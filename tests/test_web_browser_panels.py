"""In Debian's chromium, driven by Playwright: what a player expects around the controls.

- Your turn: the tab's title and icon change when it becomes the seat's turn, an opted-in
  browser notification comes, and the seat's webhook (set on the page) reaches a local
  receiver; the alerts panel keeps what was typed while the page refreshes.
- The end: winner, scores and the value chart on the page.
- A phone (390x844): no sideways page scroll (the map and market pan inside their boxes),
  panels in one column, the log scrolling within its panel.
- The rest: an unlimited bank, chat by name and time in the log, the whole log in pages, the
  history slider's market and log (both kept while entries arrive), the lobby keeping a
  failed form, and the creator giving a seat a new link.

Screenshots go to ``out/web/``."""

from __future__ import annotations

import json

import httpx
import pytest

from hook_receiver import Receiver
from test_web_browser import CHROMIUM, FLAGS, OUT, _missing
from web_support import FIXTURES, Server

pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "-")

# Notifications reach the page's spy (a headless browser shows none): what was shown.
SPY = """
window.__notes = [];
(function () {
  const Real = window.Notification;
  function Spy(title, options) { window.__notes.push({title: title, body: options && options.body});
                                 this.close = function () {}; }
  Object.defineProperty(Spy, "permission", {get: () => Real.permission});
  Spy.requestPermission = () => Real.requestPermission();
  window.Notification = Spy;
})();
"""


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    from tracklayer.web.app import create_app
    db = tmp_path_factory.mktemp("browser") / "panels.db"
    with Server(create_app(f"sqlite:///{db}")) as s:
        yield s


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield b
        b.close()


def recorded(*parts: str) -> dict:
    path = FIXTURES.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return json.loads(path.read_text())


def imported(srv, data: dict, upto=None) -> dict:
    r = httpx.post(f"{srv.url}/api/games/import", json=dict(data, actions=data["actions"][:upto]))
    assert r.status_code == 201, r.text
    return r.json()


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def act_for(srv, gid: int, token: str) -> None:
    found = httpx.get(f"{srv.url}/api/games/{gid}/legal", headers=auth(token)).json()
    moves = found["actions"]
    move = next((a for a in moves if a["type"] == "pass"), moves[0])
    r = httpx.post(f"{srv.url}/api/games/{gid}/actions", json=dict(move, id=found["next_id"]),
                   headers=auth(token))
    assert r.status_code == 201, r.text


def is_turn_of(srv, gid: int, token: str) -> bool:
    return bool(httpx.get(f"{srv.url}/api/games/{gid}/legal", headers=auth(token)).json()
                ["actions"])


def say(srv, gid: int, seat: dict, text: str) -> None:
    number = len(httpx.get(f"{srv.url}/api/games/{gid}").json()["actions"]) + 1
    r = httpx.post(f"{srv.url}/api/games/{gid}/actions", headers=auth(seat["token"]), json={
        "type": "message", "entity": seat["player_id"], "entity_type": "player",
        "message": text, "id": number})
    assert r.status_code == 201, r.text


def number(page) -> int:
    return int(page.locator("#view .view").get_attribute("data-number"))


def test_your_turn_changes_the_tab_notifies_and_calls_the_webhook(srv, browser):
    made = httpx.post(f"{srv.url}/api/games", json={"title": "1893", "seed": 4, "players": [
        {"name": "Ann"}, {"name": "Bob"}]}).json()
    gid, (ann, bob) = made["id"], made["seats"]
    assert is_turn_of(srv, gid, ann["token"])
    with Receiver() as hook:
        ctx_ann = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx_bob = browser.new_context(viewport={"width": 1280, "height": 900})
        ctx_bob.grant_permissions(["notifications"], origin=srv.url)
        ctx_bob.add_init_script(SPY)
        try:
            ann_page, bob_page = ctx_ann.new_page(), ctx_bob.new_page()
            ann_page.goto(f"{srv.url}/games/{gid}?token={ann['token']}")
            bob_page.goto(f"{srv.url}/games/{gid}?token={bob['token']}")
            # Ann's tab says it is her turn; Bob's does not
            ann_page.wait_for_function("document.title.startsWith('▶ Your turn')")
            assert ann_page.title() == f"▶ Your turn · 1893 · game {gid}"
            assert ann_page.locator("#favicon").get_attribute("href").startswith(
                "data:image/svg+xml")
            assert bob_page.title() == f"1893 · game {gid}"
            assert bob_page.locator("#favicon").get_attribute("href") == "/static/icon.svg"
            # Bob opts in: a notification in this browser, and his webhook, tried at once
            bob_page.click("#alerts summary")
            bob_page.click("#notify-toggle")
            bob_page.wait_for_function(
                "document.getElementById('notify-state').textContent === 'on'")
            form = bob_page.locator("form.webhook")
            form.locator("input[name=url]").fill(hook.url)
            form.locator("button[type=submit]").click()
            bob_page.wait_for_function(
                "document.querySelector('.webhook-result').textContent === 'saved'")
            form.locator(".webhook-test").click()
            bob_page.wait_for_function("document.querySelector('.webhook-result')"
                                       ".textContent.startsWith('sent')")
            assert hook.wait(1)[0]["event"] == "test"
            bob_page.screenshot(path=str(OUT / "alerts.png"))
            # Ann acts until it is Bob's turn: his tab, his notification, his webhook
            before = number(bob_page)
            while not is_turn_of(srv, gid, bob["token"]):
                act_for(srv, gid, ann["token"])
            bob_page.wait_for_function("document.title.startsWith('▶ Your turn')",
                                       timeout=15000)
            assert number(bob_page) > before
            assert bob_page.locator("#favicon").get_attribute("href").startswith("data:")
            assert bob_page.locator("#your-turn").is_visible()
            notes = bob_page.evaluate("window.__notes")
            assert notes == [{"title": f"Your turn: 1893 · game {gid}",
                              "body": "Bob is to act"}]
            told = hook.wait(2)[1]
            assert told["event"] == "your_turn" and told["seat"] == "Bob"
            assert told["link"] == f"{srv.url}/games/{gid}" and bob["token"] not in str(told)
            # what Bob typed and opened is still there after the refreshes
            assert bob_page.locator("#alerts").get_attribute("open") is not None
            assert form.locator("input[name=url]").input_value() == hook.url
            ann_page.wait_for_function("!document.title.startsWith('▶')")
            assert ann_page.locator("#favicon").get_attribute("href") == "/static/icon.svg"
            bob_page.screenshot(path=str(OUT / "your-turn.png"))
        finally:
            ctx_ann.close()
            ctx_bob.close()


def test_the_end_shows_the_winner_scores_and_chart(srv, browser):
    data = recorded("1893", "1893_game_end_bank.json")
    gid = imported(srv, data)["id"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = ctx.new_page()
        page.goto(f"{srv.url}/games/{gid}")
        page.locator("#end-chart svg polyline").first.wait_for(timeout=20000)
        assert page.title() == f"Game over · 1893 · game {gid}"
        end = page.locator("#end")
        assert end.locator("h3").inner_text() == "Game over: the bank broke"
        from tracklayer.io.export import replay
        result = replay(data).result()
        rows = end.locator("#scores tr.score")
        assert rows.count() == len(result)
        assert [int(rows.nth(i).get_attribute("data-player")) for i in range(rows.count())] \
            == list(result)
        top = rows.nth(0).inner_text()
        assert top.startswith("1") and str(max(result.values())) in top
        assert "Winner" in page.locator("#winner").inner_text()
        assert page.locator("#end-chart polyline.player-value").count() == len(result)
        end.screenshot(path=str(OUT / "end.png"))
    finally:
        ctx.close()


def test_a_phone_shows_the_game_in_one_column(srv, browser):
    data = recorded("1893", "1893_game_end_bank.json")
    at = next(i for i, a in enumerate(data["actions"]) if a["type"] == "run_routes")
    made = imported(srv, data, at)
    gid = made["id"]
    seat = next(s for s in made["seats"] if is_turn_of(srv, gid, s["token"]))
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    try:
        page = ctx.new_page()
        page.goto(f"{srv.url}/games/{gid}?token={seat['token']}")
        page.wait_for_selector("#map svg")
        sizes = page.evaluate("""() => ({
            page: document.documentElement.scrollWidth, inner: window.innerWidth,
            panels: [...document.querySelectorAll('.panel, .status')].map(p => {
                const r = p.getBoundingClientRect(); return [p.id, r.left, r.right]; }),
            map: [document.getElementById('map').scrollWidth,
                  document.getElementById('map').clientWidth],
            log: (() => { const l = document.getElementById('log-lines');
                          return [getComputedStyle(l).overflowY, l.scrollHeight, l.clientHeight,
                                  l.scrollTop]; })(),
        })""")
        assert sizes["inner"] == 390
        assert sizes["page"] <= 390, sizes                   # no sideways page scroll
        for pid, left, right in sizes["panels"]:
            assert left >= 0 and right <= 390, (pid, left, right)
        assert sizes["map"][0] > sizes["map"][1]             # the map pans in its box
        overflow, height, shown, top = sizes["log"]
        assert overflow == "auto" and height > shown and top > 0   # at its newest line
        # one column: the controls below the map, the players below the controls
        box = {k: page.locator(k).bounding_box() for k in ("#map", "#actions", "#players")}
        assert box["#actions"]["y"] >= box["#map"]["y"] + box["#map"]["height"] - 1
        assert box["#players"]["y"] > box["#actions"]["y"]
        assert abs(box["#actions"]["x"] - box["#map"]["x"]) < 12
        page.screenshot(path=str(OUT / "phone.png"))
        page.screenshot(path=str(OUT / "phone-full.png"), full_page=True)
        # the market and the companies scroll inside their boxes, not the page
        page.locator("#spreadsheet").scroll_into_view_if_needed()
        inner = page.evaluate("[...document.querySelectorAll('#spreadsheet .scroll-x, "
                              ".market-box')].map(b => [b.scrollWidth, b.clientWidth])")
        assert any(w > c for w, c in inner) and all(c <= 390 for _, c in inner)
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        ctx.close()


def test_bank_chat_whole_log_history_lobby_and_a_new_seat_link(srv, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900},
                              timezone_id="Asia/Tokyo")
    try:
        page = ctx.new_page()
        # an unlimited bank
        gid71 = imported(srv, recorded("1871", "1871_game_end_final_phase.json"), 200)["id"]
        page.goto(f"{srv.url}/games/{gid71}")
        assert page.locator("#bank").inner_text() == "unlimited"
        # a failed lobby form keeps what was typed
        page.goto(srv.url + "/")
        page.select_option("select[name=title]", "1849: Kingdom of the Two Sicilies")
        assert "1849: Kingdom of the Two Sicilies is for 4–6 players" in \
            page.locator("#player-count").inner_text()
        page.fill("input[name=name0]", "Zoë <i>")
        page.fill("input[name=name1]", "Bob")
        page.fill("input[name=name2]", "")
        page.fill("input[name=seed]", "12")
        page.click("#create-game")
        page.wait_for_selector("#error")
        assert "4" in page.locator("#error").inner_text()
        assert page.input_value("input[name=name0]") == "Zoë <i>"
        assert page.input_value("select[name=title]") == "1849: Kingdom of the Two Sicilies"
        assert page.input_value("input[name=seed]") == "12"
        page.screenshot(path=str(OUT / "lobby-error.png"))
        # a game made in the lobby; the creator gives Ann a new link
        page.select_option("select[name=title]", "1893")
        page.fill("input[name=name0]", "Ann")
        page.fill("input[name=name1]", "Bob")
        page.click("#create-game")
        page.wait_for_selector("#manage-link")
        old_ann = page.locator("a.seat-link").nth(0).get_attribute("href")
        bob_link = page.locator("a.seat-link").nth(1).get_attribute("href")
        page.click("#manage-link")
        page.click("text=New link for Ann")
        new_ann = page.locator("#issued a.seat-link").get_attribute("href")
        assert new_ann != old_ann
        gid = int(new_ann.split("?")[0].rsplit("/", 1)[1])
        page.goto(srv.url + old_ann)
        assert "holds no seat" in page.locator("#error").inner_text()   # a void link says so
        ann = ctx.new_page()
        ann.goto(srv.url + new_ann)
        assert "you: Ann" in ann.locator("#status").inner_text()
        bob = browser.new_page()
        bob.goto(srv.url + bob_link)
        # chat by name and time, seen live by the other player
        ann.fill("form.chat input", "hello Bob")
        ann.press("form.chat input", "Enter")
        line = bob.locator("#log-lines li.chat").last
        line.wait_for(timeout=10000)
        text = line.inner_text()
        assert text.endswith("Ann: hello Bob") and text[:2].isdigit()
        stamp = line.locator("time").get_attribute("datetime")
        assert stamp.endswith("Z")
        # the whole log in pages, and the history slider, both kept while entries arrive
        made93 = imported(srv, recorded("1893", "1893_game_end_bank.json"), 150)
        gid93 = made93["id"]
        page.goto(f"{srv.url}/games/{gid93}")
        page.click(".log-pages a >> text='1'")
        reader = page.locator("#log-reader .log-page")
        reader.wait_for()
        assert reader.locator(".log-nav").inner_text().startswith("Lines 1–100 of")
        reader.locator("text=later →").click()
        page.wait_for_function("document.querySelector('#log-reader .log-page')"
                               ".dataset.page === '2'")
        slider = page.locator("#history-at")
        slider.fill("40")
        slider.dispatch_event("change")
        page.wait_for_selector("#history-view .history-at")
        assert page.locator("#history-view .history-at").inner_text().startswith(
            "After entry 40")
        assert page.locator("#history-view table.market").count() == 1
        assert page.locator("#history-view .history-log li").count() > 10
        page.locator("#history").screenshot(path=str(OUT / "history.png"))
        # an entry arrives: the view is fetched again, the reader and the past stay
        before = number(page)
        say(srv, gid93, made93["seats"][0], "still reading?")
        page.wait_for_function(f"parseInt(document.querySelector('#view .view')"
                               f".dataset.number) > {before}", timeout=10000)
        assert page.locator("#log-lines li.chat").last.inner_text().endswith(
            "still reading?")
        assert page.locator("#log-reader .log-page").get_attribute("data-page") == "2"
        assert page.locator("#history-view .history-at").inner_text().startswith(
            "After entry 40")
        assert slider.get_attribute("max") == str(before + 1)
        assert slider.input_value() == "40"
        page.locator("#log").screenshot(path=str(OUT / "log.png"))
    finally:
        ctx.close()
