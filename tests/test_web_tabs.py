"""Eight tabs of one game in Debian's chromium (one browser profile, so one cookie and one
shared worker): every tab sees every entry live, actions clicked in any tab are posted and
taken, and the chart still loads — with a stream per tab, HTTP/1.1's six connections a
site were all held by streams and the seventh tab, the chart and the posts waited."""

from __future__ import annotations

import httpx
import pytest

from test_web_browser import CHROMIUM, FLAGS, _missing
from web_support import Server

pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "-")

TABS = 8


def number(page) -> int:
    return int(page.locator("#view .view").get_attribute("data-number"))


def test_eight_tabs_of_one_game_all_update_and_act(tmp_path):
    from playwright.sync_api import sync_playwright
    from tracklayer.web.app import create_app
    with Server(create_app(f"sqlite:///{tmp_path / 'tabs.db'}")) as srv, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            made = httpx.post(f"{srv.url}/api/games", json={
                "title": "1893", "seed": 5, "players": [{"name": "Ann"}, {"name": "Bob"}]}).json()
            gid, (ann, bob) = made["id"], made["seats"]
            ctx = browser.new_context(viewport={"width": 1200, "height": 900})
            tabs = [ctx.new_page() for _ in range(TABS)]
            tabs[0].goto(f"{srv.url}/games/{gid}?token={ann['token']}")   # the cookie
            assert tabs[0].url.endswith(f"/games/{gid}")                    # the clean URL
            for tab in tabs[1:]:
                tab.goto(f"{srv.url}/games/{gid}", timeout=15000)
            for tab in tabs:
                assert "you: Ann" in tab.locator("#status").inner_text(timeout=15000)
            for step in range(6):
                bobs = httpx.get(f"{srv.url}/api/games/{gid}/legal",
                                 headers={"Authorization": f"Bearer {bob['token']}"}).json()
                if bobs["actions"]:
                    move = next((a for a in bobs["actions"] if a["type"] == "pass"),
                                bobs["actions"][0])
                    r = httpx.post(f"{srv.url}/api/games/{gid}/actions",
                                   json=dict(move, id=bobs["next_id"]),
                                   headers={"Authorization": f"Bearer {bob['token']}"})
                    assert r.status_code == 201, r.text
                else:                                   # Ann's turn: clicked in a tab
                    tab = tabs[(TABS - 1 - step) % TABS]
                    buttons = tab.locator("#actions button.action")
                    kinds = [buttons.nth(i).get_attribute("data-type")
                             for i in range(buttons.count())]
                    pick = kinds.index("pass") if "pass" in kinds else 0
                    buttons.nth(pick).click(timeout=10000)
                for tab in tabs:                        # every tab, without reloading
                    tab.wait_for_function(
                        "n => parseInt(document.querySelector('#view .view').dataset.number)"
                        " >= n", arg=step + 1, timeout=15000)
            assert [number(t) for t in tabs] == [6] * TABS
            assert all(not t.locator("#error").inner_text() for t in tabs)
            # the chart (a request of its own) still loads in the last tab
            tabs[-1].click("#values button")
            tabs[-1].locator("#chart p, #chart svg").first.wait_for(timeout=10000)
            entries = httpx.get(f"{srv.url}/api/games/{gid}").json()["actions"]
            assert [e["id"] for e in entries] == list(range(1, 7))
        finally:
            browser.close()
