"""A person at the game page, played by the test: at each of their turns a greedy player
decides (on a copy of the game kept from the server's export), and the move is made by
clicking the page's controls — a hex and a tile turned into place, a ringed city, a
route built stop by stop, a price typed in, a bankruptcy confirmed. A move the page does
not offer fails the test with its sentence, so the page must offer every move a player
makes, in words."""

from __future__ import annotations

import json
import time
from typing import Callable, Dict, List

from tracklayer.actions import city_node
from tracklayer.play.consent import deal_of
from tracklayer.play.describe import describe
from tracklayer.play.roster import bot
from tracklayer.rules import board
from tracklayer.state.model import OperatorState, PlayerState
from tracklayer.turns.listing import concrete, value_range

RANGED = ("price", "choice")


class Stuck(AssertionError):
    """The page does not offer a move, or does not move on."""


def number(page) -> int:
    return int(page.locator("#view .view").get_attribute("data-number"))


def refreshing(page) -> bool:
    """Is a new view due or on its way (a control pressed now would be replaced)?"""
    return page.locator("#game[data-refreshing]").count() > 0


class Person:
    """One browser page playing the seats whose tokens it holds."""

    def __init__(self, page, service, game_id: int, seats: List[int], seed: int = 1,
                 kind: str = "greedy", curious: Dict[str, Callable[[dict], bool]] = None) \
            -> None:
        self.page, self.service, self.game_id = page, service, game_id
        self.seats = seats                      # player ids this page plays
        self.bots = {pid: bot(kind, seed * 100 + i) for i, pid in enumerate(seats)}
        # moves tried once each when offered, whatever the greedy player thinks of them
        self.curious = dict(curious or {})
        self.done: Dict[str, int] = {}           # kinds of move made, counted
        self.edited_route = False
        self.clicks = 0
        self.tried: dict = {}                    # the last curious move made


    # -- waiting ---------------------------------------------------------------------------

    def wait_turn(self, timeout: float = 90) -> bool:
        """Wait until the server's bots are done (none of them may act), the page shows the
        position the server holds, and it is this page's turn (True) — or the game's end.
        Bots move first whenever they may, so that a game goes as it would again."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            live = self.service.get(self.game_id)
            with live.lock:
                settled = not live.bots_running
                at = live.number
                over = live.game.is_over
            if settled and number(self.page) == at and not refreshing(self.page):
                if over:
                    self.page.wait_for_selector("#game-over")
                    return False
                if self.page.locator("#actions .turn-head").count() or \
                        self.page.locator("#proposals .accept-proposal").count():
                    return True
            time.sleep(0.02)
        raise Stuck(f"neither my turn nor the end after {timeout}s at {number(self.page)}: "
                    f"{self.page.locator('#actions').inner_text()[:300]}")

    def wait_moved(self, before: int, timeout: float = 30) -> None:
        """Wait until the page shows an entry after ``before`` (or the refusal)."""
        try:
            self.page.wait_for_function(
                "n => parseInt(document.querySelector('#view .view').dataset.number) > n || "
                "document.getElementById('error').textContent", arg=before,
                timeout=timeout * 1000)
        except Exception:
            self.page.screenshot(path="out/web/stuck.png", full_page=True)
            raise Stuck(f"the page did not move on from {before} after: {self.words}\n"
                        f"{self.page.locator('#actions').inner_text()[:1500]}")
        error = self.page.locator("#error").inner_text()
        if error:
            raise Stuck(f"the server refused the move at {before}: {error} ({self.words})")

    # -- playing -----------------------------------------------------------------------------

    def play(self, max_moves: int = 5000, on_turn=None) -> int:
        """Play until the game ends; ``on_turn(person)`` is called before each move."""
        moves = 0
        spent = self.spent = {}

        def lap(name, t0):
            spent[name] = spent.get(name, 0) + time.perf_counter() - t0
            return time.perf_counter()
        t = time.perf_counter()
        while moves < max_moves and self.wait_turn():
            t = lap("wait_turn", t)
            at = number(self.page)
            if on_turn is not None:
                on_turn(self)
            live = self.service.get(self.game_id)
            if self.page.locator("#proposals .accept-proposal").count():
                if self.answer(live, at):
                    moves += 1          # the entry the accepted proposal made
                continue
            with live.lock:             # the game as the server holds it, at the page's entry
                assert live.number == at, (live.number, at)
                move = self.decide(live)
                t = lap("decide", t)
                words = describe(live.game, move)
                deal = deal_of(live.game, move) is not None
            self.make(live.game, move, words)     # (nothing moves until the page acts)
            t = lap("make", t)
            if deal:                    # a proposal: its answer comes from the other seat
                if self.wait_answered(live, at):
                    moves += 1
            else:
                self.wait_moved(at)
                moves += 1
            t = lap("wait_moved", t)
        return moves

    def answer(self, live, at: int) -> bool:
        """A proposal waits for this page's answer: the greedy player judges it (a
        curious move this page proposed to itself is accepted), and the answer is given
        by its button (True: accepted)."""
        with live.lock:
            p = live.talks.pending
            pid = live.game.player_specs[p.responder][0]
            tried = {k: v for k, v in self.tried.items() if k != "id"}
            yes = {k: v for k, v in p.action.items() if k != "id"} == tried or \
                self.bots[pid].answer(live.game, p.responder, p)
        self.words = f"{'accept' if yes else 'decline'} proposal {p.id}"
        self.done["proposal answered"] = self.done.get("proposal answered", 0) + 1
        self.page.locator("#proposals ." + ("accept-proposal" if yes else
                                            "decline-proposal")).click()
        self.clicks += 1
        # answered: a new entry, no proposal left to answer, or another one shown (a bot
        # declined may propose its next deal at once, at the same entry)
        self.page.wait_for_function(
            "([n, id]) => parseInt(document.querySelector('#view .view').dataset.number) > n"
            " || !document.querySelector('#proposals .accept-proposal')"
            " || document.querySelector('#proposals .proposal').dataset.proposal != id"
            " || document.getElementById('error').textContent", arg=[at, str(p.id)],
            timeout=30000)
        error = self.page.locator("#error").inner_text()
        if error:
            raise Stuck(f"the server refused the answer at {at}: {error}")
        return yes

    def wait_answered(self, live, at: int, timeout: float = 30) -> bool:
        """A move of this page was a deal: wait until the other seat has answered it
        (True, accepted: a new entry; declined: play stands where it was), or, when this
        page holds the other seat too (hotseat), until the proposal is shown to it."""
        deadline = time.time() + timeout
        while time.time() < deadline:
            error = self.page.locator("#error").inner_text()
            if error:
                raise Stuck(f"the server refused the proposal at {at}: {error} ({self.words})")
            with live.lock:
                p = live.talks.pending
                if p is None and (live.number > at or live.talks.answered):
                    return live.number > at
                mine = p is not None and live.game.player_specs[p.responder][0] in self.seats
            if mine and self.page.locator("#proposals .accept-proposal").count():
                return False            # this page answers it next
            time.sleep(0.02)
        raise Stuck(f"the proposal at {at} was not answered: {self.words}")

    def answered_here(self, game, action: dict) -> bool:
        """Is ``action`` no deal, or one that this page's own seat answers (a curious
        move is tried where no bot could refuse it)?"""
        deal = deal_of(game, action)
        return deal is None or game.player_specs[deal.responder][0] in self.seats

    def decide(self, live) -> dict:
        """The greedy player's move for whichever of this page's seats is to act (never a
        deal the other side declined at this position)."""
        from tracklayer.web import view
        seat_of = view.seat_of          # who the page itself thinks decides
        game = live.game
        legal = game.legal_actions()
        for name, wanted in list(self.curious.items()):
            found = next((h for h in legal if seat_of(game, h) in self.seats and wanted(h)
                          and self.answered_here(game, h)), None)
            if found is not None:
                del self.curious[name]
                self.tried = concrete(found)    # its other side (this page) accepts it
                return self.tried
        for h in legal:
            pid = seat_of(game, h)
            if pid in self.seats:
                seat = next(i for i, (p, _) in enumerate(game.player_specs) if p == pid)
                declined = live.talks.declined_keys(game, seat)
                return self.bots[pid].choose(game, seat, declined)
        raise Stuck("it is this page's turn but none of its seats has a legal move")

    def make(self, game, move: dict, words: str) -> None:
        self.words = words
        kind = move["type"]
        self.done[kind] = self.done.get(kind, 0) + 1
        if kind == "lay_tile":
            return self.lay(move)
        if kind == "place_token" and self.token_on_map(game, move):
            return None
        if kind == "run_routes":
            return self.run(game, move)
        if kind == "par":
            return self.par(move)
        return self.press(game, move)

    # -- the controls ------------------------------------------------------------------------

    def controls(self):
        """Each control's element and action; a ranged one's action carries its range."""
        loc = self.page.locator("#actions [data-action]")
        found = loc.evaluate_all(
            "els => els.map(e => [e.dataset.action, e.dataset.field || '', "
            "e.dataset.min || '', e.dataset.max || ''])")
        out = []
        for i, (action, field, low, high) in enumerate(found):
            action = json.loads(action)
            if field:
                action[f"{field}_range"] = [int(low), int(high)]
            out.append((loc.nth(i), action))
        return out

    def press(self, game, move: dict) -> None:
        """Press the control of ``move`` (its amount typed first). A view drawn anew while
        the control is pressed replaces it: the control is found again in the new view."""
        from playwright.sync_api import TimeoutError as PageTimeout
        for attempt in range(3):
            for el, action in self.controls():
                if not same_move(game, action, move):
                    continue
                try:
                    if not el.is_visible():         # a confirmation: ask first
                        el.locator("xpath=ancestor::span[contains(@class,'confirm')]//button"
                                   "[contains(@class,'danger')]").first.click(timeout=10000)
                    field = el.get_attribute("data-field")
                    if field:
                        el.locator("xpath=preceding-sibling::input").fill(
                            str(move[field]), timeout=10000)
                    el.click(timeout=10000)
                except PageTimeout:
                    if attempt == 2:
                        raise
                    self.page.wait_for_selector("#game:not([data-refreshing])")
                    break
                self.clicks += 1
                return
            else:
                break
        raise Stuck(f"the page does not offer: {self.words} ({move})\n"
                    f"{self.page.locator('#actions').inner_text()[:2000]}")

    def par(self, move: dict) -> None:
        want = {k: v for k, v in move.items() if k != "id"}
        options = self.page.locator("#actions select.par-price option")
        for i in range(options.count()):
            option = options.nth(i)
            if json.loads(option.get_attribute("data-action")) == want:
                span = option.locator("xpath=ancestor::span[contains(@class,'par')]")
                span.locator("select").select_option(option.get_attribute("value"))
                span.locator("button.action").click()
                return
        raise Stuck(f"no starting price offered for {move}")

    def hex_on_map(self, hex_id: str):
        return self.page.locator(f"#map g.hex[data-hex='{hex_id}'] polygon.tile").first

    def lay(self, move: dict) -> None:
        page = self.page
        layer = page.locator(f"#track button.lay-as[data-layer='{move['entity_type']}:"
                             f"{move['entity']}']")
        if layer.count():
            layer.click()
        button = page.locator("#lay-tile")
        choice = page.locator(f".tile-choices[data-hex='{move['hex']}'] "
                              f".tile-choice[data-tile='{move['tile']}']")
        for _ in range(3):      # a view drawn anew just after the click forgets the hex
            self.hex_on_map(move["hex"]).click(force=True)
            try:
                choice.or_(page.locator(f"#lay-tile[data-tile='{move['tile']}']")).first \
                    .wait_for(state="visible", timeout=5000)
                break
            except Exception:
                continue
        if button.get_attribute("data-tile") != move["tile"]:
            choice.click()
            self._settle(button, "data-tile", move["tile"])
        for _ in range(7):                  # turn it by clicking the hex again
            rotation = button.get_attribute("data-rotation")
            if rotation == str(move["rotation"]):
                break
            self.hex_on_map(move["hex"]).click(force=True)
            self._settle(button, "data-rotation", rotation, changed=True)
        else:
            raise Stuck(f"rotation {move['rotation']} not reached for {move}")
        shown = page.locator("#map g.preview:visible")
        shown.first.wait_for(timeout=5000)      # the tile chosen, drawn in place
        assert shown.count() == 1
        page.locator("#lay-tile").click()
        self.clicks += 1

    @staticmethod
    def _settle(element, attribute: str, value, changed: bool = False) -> None:
        """Wait until the page has drawn a change (Alpine updates the page a moment after
        a click): the attribute equal to ``value``, or no longer equal to it."""
        deadline = time.time() + 3
        while time.time() < deadline:
            now = element.get_attribute(attribute)
            if (now != value) if changed else (now == value):
                return
            time.sleep(0.01)

    def token_on_map(self, game, move: dict) -> bool:
        node = city_node(game.table, move.get("city"))
        hex_id = getattr(node, "hex", None)
        if hex_id is None:
            return False
        tile = board.tile_of(game.table, hex_id)
        index = next((i for i, c in enumerate(tile.cities) if c.index == node.index), None)
        slot = self.page.locator(f"#map g.hex[data-hex='{hex_id}'] "
                                 f".stop.legal-city[data-city='{index}']")
        if not slot.count():
            return False
        slot.first.click(force=True)
        self.clicks += 1
        return True

    def run(self, game, move: dict) -> None:
        """Run the trains; the first time, a train's route is built again by clicking its
        stops on the map, and must earn what the finder's did."""
        page = self.page
        routes = move.get("routes") or []
        if not self.edited_route and routes and routes[0].get("nodes"):
            first = routes[0]
            row = page.locator(f"#routes .train-route[data-train='{first['train']}']")
            row.locator("button.clear-route").click()
            self._wait_checked()
            for node in first["nodes"]:
                page.locator(f"#map [data-node='{node}']").first.click(force=True)
                self._wait_checked()
            money = game.table.money(first["revenue"])
            deadline = time.time() + 10
            while row.locator("b").nth(1).inner_text() != money and time.time() < deadline:
                time.sleep(0.05)
            shown = row.locator("b").nth(1).inner_text()
            assert shown == money, (shown, first, row.inner_text())
            self.edited_route = True
        button = page.locator("#run-routes")
        want = sum(r.get("revenue") or 0 for r in routes)
        assert game.table.money(want) in button.inner_text() or "+" in button.inner_text()
        button.click()
        self.clicks += 1

    def _wait_checked(self) -> None:
        self.page.wait_for_timeout(50)
        self.page.wait_for_function(
            "() => !document.querySelector('#run-routes').disabled", timeout=10000)


def same_move(game, shown: dict, move: dict) -> bool:
    """Does the control's action make ``move`` (its value typed in, where it is a range;
    any of trains alike, or a company its president buys in person, will do)?"""
    a = {k: v for k, v in shown.items() if k not in ("id", "price_range", "price_step",
                                                     "choice_range", "choice_step")}
    b = {k: v for k, v in move.items() if k != "id"}
    found = value_range(shown)
    if found is not None:
        field, low, high, _ = found
        if not low <= b.get(field, low - 1) <= high:
            return False
        a[field] = b[field]
    if a == b:
        return True
    table = game.table
    if a.get("type") == b.get("type") == "buy_train":
        ta, tb = table.find("train", a["train"]), table.find("train", b["train"])
        return ta is not None and tb is not None and ta.owner is tb.owner and \
            a.get("variant") == b.get("variant") and a.get("exchange") == b.get("exchange") \
            and a.get("entity") == b.get("entity") and \
            (found is not None or a.get("price") == b.get("price"))
    if a.get("type") == b.get("type") == "buy_company" and a.get("company") == b.get("company"):
        ea = table.find(a["entity_type"], a["entity"])
        eb = table.find(b["entity_type"], b["entity"])
        return isinstance(eb, OperatorState) and isinstance(ea, PlayerState) and \
            eb.owner is ea and a.get("price") == b.get("price")
    return False
