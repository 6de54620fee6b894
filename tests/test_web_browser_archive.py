"""In Debian's chromium, driven by Playwright (issue 26): a real 1893 game is stored, the
server comes back as a new version with a rule changed (no tile on a hex the log laid one
on); the player's seat link opens the game read-only at the last entry both rule versions
accept, naming the refused entry and the rule; the player continues from there, lands in
the new game (their seat held by the new game's cookie, the log up to the agreed entry) and
the old game names its continuation. Screenshots: ``out/web/read_only.png``,
``out/web/continued.png``.

Set-up as for tests/test_web_browser.py: ``apt-get install -y chromium`` and
``pip install '.[web,test]'``; never a browser downloaded by Playwright."""

from __future__ import annotations

import pytest

from test_web_archive import OLD, RULE, change_the_rule, recorded, refused_hex
from test_web_browser import CHROMIUM, FLAGS, OUT, _missing
from web_support import Server

pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "-")


def test_a_game_the_rules_now_refuse_opens_read_only_and_is_continued(tmp_path, monkeypatch):
    import httpx
    from playwright.sync_api import sync_playwright
    from tracklayer.web.app import create_app
    from tracklayer.web.db import Store
    OUT.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{tmp_path / 'archive.db'}"
    with Server(create_app(url, background_bots=False)) as srv:
        made = httpx.post(f"{srv.url}/api/games/import",
                          json=recorded("1893", "1893_game_end_bank.json"), timeout=60).json()
    from sqlalchemy import update
    from tracklayer.web.db import GameRow
    store = Store(url)
    entries = store.entries(made["id"])
    with store.sessions.begin() as s:   # as the version before recorded its rules
        s.execute(update(GameRow).values(rules_version=OLD[0], rules_fingerprint=OLD[1]))
    store.dispose()
    hex_id, number = refused_hex(entries)
    change_the_rule(monkeypatch, hex_id)            # the server's new version
    gid, seat = made["id"], made["seats"][0]
    with Server(create_app(url, background_bots=False)) as srv, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.goto(f"{srv.url}/games/{gid}?token={seat['token']}")
            panel = page.locator("#read-only")
            panel.wait_for()
            assert page.locator("#refused-entry").inner_text() == f"entry {number}"
            assert page.locator("#agreed-entry").inner_text() == f"entry {number - 1}"
            assert RULE.format(hex=hex_id) in page.locator("#refusing-rule").inner_text()
            assert page.locator("#read-only-status").is_visible()
            assert page.locator("#view .view").get_attribute("data-number") == str(number - 1)
            assert page.locator("#actions .action").count() == 0
            assert "tracklayer 0.0.9" in panel.inner_text()
            page.screenshot(path=str(OUT / "read_only.png"))
            page.click("#continue-game")
            page.wait_for_selector("#continues")
            new = int(page.url.rsplit("/", 1)[1])
            assert new != gid
            assert page.locator("#view .view").get_attribute("data-number") == str(number - 1)
            assert f"game {gid}" in page.locator("#continues").inner_text()
            assert page.locator("#read-only").count() == 0
            page.screenshot(path=str(OUT / "continued.png"))
            page.goto(f"{srv.url}/games/{gid}")
            assert f"game {new}" in page.locator("#continued-by").inner_text()
            assert (OUT / "read_only.png").stat().st_size > 10000
        finally:
            browser.close()
    store = Store(url)
    try:
        assert store.entries(gid) == entries
    finally:
        store.dispose()
