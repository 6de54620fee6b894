"""In Debian's chromium, driven by Playwright: what a player sees of every player at a
desktop width, found by playing in a browser — the players panel shows each player's shares
and privates within the panel (a long list wraps) instead of hiding them past its edge."""

from __future__ import annotations

import pytest

from test_web_browser import _missing
from test_web_browser_panels import browser, imported, recorded, srv  # noqa: F401 (fixtures)

pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "-")


def test_the_players_panel_shows_every_column_without_scrolling(srv, browser):  # noqa: F811
    """1817NA's third stock round: players hold many corporations (shorts too); at
    1400 px the players table fits its panel, its last column (privates) in view."""
    made = imported(srv, recorded("1817NA", "25351.json"), 523)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{srv.url}/games/{made['id']}")
        box = page.locator("#players .scroll-x")
        fits = box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
        widths = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
        assert fits, widths
        last = page.locator("#players th").last
        assert last.inner_text() == "Privates" and last.is_visible()
        right = box.evaluate("b => b.getBoundingClientRect().right")
        assert last.evaluate("e => e.getBoundingClientRect().right") <= right + 1
    finally:
        page.close()
