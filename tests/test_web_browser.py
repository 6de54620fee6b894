"""In Debian's chromium, driven by Playwright: two browser contexts are two players of 1893
and a bot is the third; they click through the starting package, a stock round and an
operating round (a tile laid and rotated, routes filled by the finder, a dividend, a train
bought, the bot's proposal to buy a player's EVA accepted), each seeing the other's moves
arrive live; screenshots go to ``out/web/``.

Set-up (CI does it too): ``apt-get install -y chromium`` and ``pip install '.[web,test]'``;
never a browser downloaded by Playwright."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from web_support import Server, web_missing

CHROMIUM = os.environ.get("TRACKLAYER_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
OUT = Path(__file__).resolve().parent.parent / "out" / "web"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _missing() -> str:
    if web_missing():
        return web_missing()
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install '.[test]')"
    if not Path(CHROMIUM).exists():
        return f"no chromium at {CHROMIUM} (apt-get install -y chromium)"
    return ""


pytestmark = pytest.mark.skipif(bool(_missing()), reason=_missing() or "-")

PRIORITY = ["run_routes", "dividend", "buy_train", "par", "buy_shares", "bid", "pass"]
# Each player bids once in the draft and keeps money to start a company and float it.
LIMITS = {"bid": 1, "par": 1, "buy_shares": 4}


def number(page) -> int:
    return int(page.locator("#view .view").get_attribute("data-number"))


def wait_number(page, n: int, timeout: float = 15000) -> None:
    page.wait_for_function(
        "n => parseInt(document.querySelector('#view .view').dataset.number) >= n", arg=n,
        timeout=timeout)


def my_turn(page) -> bool:
    """The page may act: its actions, or a proposal to answer."""
    return page.locator("#actions .action, #actions .tiles, "
                        "#proposals .accept-proposal").count() > 0


class Table:
    def __init__(self, pages) -> None:
        self.pages = pages
        self.done = set()
        self.count = {}
        self.seen_live = 0

    def settle(self, timeout: float = 20) -> None:
        """Wait until both pages show the same entry number and one of them may act (the
        bot, moving in between, is waited for)."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            numbers = [number(p) for p in self.pages]
            if len(set(numbers)) == 1 and any(my_turn(p) for p in self.pages):
                return
            time.sleep(0.1)
        raise AssertionError(f"the pages did not settle: {[number(p) for p in self.pages]}")

    def step(self) -> str:
        self.settle()
        page = next(p for p in self.pages if my_turn(p))
        other = next(p for p in self.pages if p is not page)
        before = number(page)
        did = self.act(page)
        if did == "propose":        # the other person answers on their own page
            other.locator("#proposals .accept-proposal").wait_for(timeout=15000)
            did = self.act(other)
        wait_number(page, before + 1)
        wait_number(other, before + 1)          # the other player sees it without reloading
        self.seen_live += 1
        return did

    def propose(self, page) -> bool:
        """Buy a train from a company the other person presides, offering what the
        buyer may pay: a trade between seats, so a proposal the other page answers."""
        me = ("Ann", "Bob")[self.pages.index(page)]
        other = {"Ann": "Bob", "Bob": "Ann"}[me]
        rows = page.locator("#buy-trains .other-trains tr", has_text=f"({other})")
        if not rows.count():
            return False
        row = rows.first
        row.locator("input").fill(row.locator("button.action").get_attribute("data-max"))
        row.locator("button.action").click()
        return True

    def act(self, page) -> str:
        accept = page.locator("#proposals .accept-proposal")
        if accept.count():          # a trade proposed to this page's seat: accepted
            assert "proposes" in page.locator("#proposals .proposal").inner_text()
            if "consent" not in self.done:
                page.locator("#proposals").screenshot(path=str(OUT / "proposal.png"))
            accept.click()
            self.done.add("consent")
            return "accept"
        if "consent" not in self.done and self.propose(page):
            return "propose"
        tiles = page.locator("#actions .tiles")
        if tiles.count():
            page.locator("#map g.hex.legal").first.click()
            choice = page.locator(".tile-choices:visible .tile-choice").first
            choice.click()
            label_before = page.locator("#lay-tile").inner_text()
            shown = page.locator("#map g.preview:visible")
            shown.first.wait_for(timeout=5000)          # the chosen tile, drawn in place
            assert shown.count() == 1
            if "rotated" not in self.done:
                page.locator("#map g.hex.legal").first.click()   # again: the next rotation
                if page.locator("#lay-tile").inner_text() != label_before:
                    self.done.add("rotated")
                shown.first.wait_for(timeout=5000)
                assert shown.count() == 1
            page.locator("#lay-tile").click()
            self.done.add("lay_tile")
            return "lay_tile"
        buttons = page.locator("#actions button.action")
        kinds = [buttons.nth(i).get_attribute("data-type") for i in range(buttons.count())]
        labels = [buttons.nth(i).inner_text() for i in range(buttons.count())]
        for kind in PRIORITY:
            picks = [i for i, k in enumerate(kinds) if k == kind]
            if kind == "dividend":
                picks = [i for i in picks if labels[i].startswith("Pays out")] or picks
            key = (self.pages.index(page), kind)
            if kind in LIMITS and self.count.get(key, 0) >= LIMITS[kind] and "pass" in kinds:
                continue
            if kind == "buy_train" and picks:       # one train each: enough to run
                key = page.locator("#actions .turn-head b").nth(1).inner_text()
                if self.count.get(key, 0) >= 1 and "pass" in kinds:
                    continue
            if picks:
                if kind == "run_routes":        # filled in by the route finder
                    assert page.locator("#routes .train-route").count() >= 1
                    assert labels[picks[0]].startswith("Run the trains: ")
                buttons.nth(picks[0]).click()
                self.done.add(kind)
                self.count[key] = self.count.get(key, 0) + 1
                return kind
        safe = [i for i, k in enumerate(kinds) if k != "bankrupt"] or [0]
        buttons.nth(safe[0]).click()
        return kinds[safe[0]]


def test_two_players_and_a_bot_play_1893_in_the_browser(tmp_path):
    from playwright.sync_api import sync_playwright
    from tracklayer.web.app import create_app
    OUT.mkdir(parents=True, exist_ok=True)
    with Server(create_app(f"sqlite:///{tmp_path / 'browser.db'}")) as srv, \
            sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            ctx_a, ctx_b = browser.new_context(viewport={"width": 1500, "height": 1100}), \
                browser.new_context(viewport={"width": 1500, "height": 1100})
            lobby = ctx_a.new_page()
            lobby.goto(srv.url + "/")
            lobby.select_option("select[name=title]", "1893")
            lobby.fill("input[name=name0]", "Ann")
            lobby.fill("input[name=name1]", "Bob")
            lobby.fill("input[name=name2]", "Cid")
            lobby.select_option("select[name=bot2]", "greedy")
            # Ann and Bob trade a train between their companies (a proposal, accepted)
            lobby.fill("input[name=seed]", "16")
            lobby.click("#create-game")
            lobby.wait_for_selector("#seat-links")
            links = lobby.locator("a.seat-link")
            assert links.count() == 2
            ann_url, bob_url = links.nth(0).get_attribute("href"), \
                links.nth(1).get_attribute("href")
            ann, bob = ctx_a.new_page(), ctx_b.new_page()
            ann.goto(srv.url + ann_url)
            bob.goto(srv.url + bob_url)
            table = Table([ann, bob])
            rounds = set()
            for _ in range(240):
                status = ann.locator(".status").inner_text()
                rounds.update(r for r in ("Draft", "Stock", "Operating") if r in status)
                if {"lay_tile", "run_routes", "dividend", "buy_train", "consent"} <= table.done and \
                        "Operating" in rounds:
                    break
                did = table.step()
                assert did
            import httpx
            game_id = ann_url.split("?")[0].rsplit("/", 1)[1]
            (OUT / "game.json").write_text(httpx.get(f"{srv.url}/api/games/{game_id}").text)
            assert {"Draft", "Stock", "Operating"} <= rounds, rounds
            assert {"lay_tile", "rotated", "run_routes", "dividend", "buy_train",
                    "bid", "consent"} <= table.done, table.done
            assert table.seen_live > 10
            # 1893 hides other players' cash: Ann sees hers, not Bob's
            assert ann.locator("tr.player[data-player='2'] .cash").inner_text() == "hidden"
            assert ann.locator("tr.player[data-player='1'] .cash").inner_text().isdigit()
            ann.locator("#map").screenshot(path=str(OUT / "map.png"))
            ann.locator("#market").screenshot(path=str(OUT / "market.png"))
            ann.locator("#spreadsheet").screenshot(path=str(OUT / "spreadsheet.png"))
            bob.screenshot(path=str(OUT / "bob.png"), full_page=True)
            assert (OUT / "map.png").stat().st_size > 10000
        finally:
            browser.close()
