"""What the server keeps per game and reads per request under load: a game that rested
(dropped what it derived) plays on exactly as one that did not; workers sharing a database
read a game's proposals again only when they changed, and still see every proposal made
and answered on another worker; proposals are written on the log writer's thread."""

from __future__ import annotations

import json

import pytest

from web_support import FIXTURES, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")

GAME_1893 = FIXTURES / "1893" / "1893_game_end_bank.json"
EVA_AT = 15                   # KFBE (Player 1's minor) operates; Player 3 holds EVA
P1, P3 = 45, 18536


def game_data():
    if not GAME_1893.exists():
        pytest.skip(f"{GAME_1893} is missing (../shared)")
    return json.loads(GAME_1893.read_text())


def test_a_game_that_rested_plays_on_the_same():
    from tracklayer import snapshot
    from tracklayer.finder import plan_routes
    from tracklayer.io.export import open_game
    from tracklayer.web.service import Live, Seat
    data = game_data()
    data["actions"] = data["actions"][:160]

    def live():
        game = open_game(dict(data, actions=[]), route_planner=plan_routes)
        return Live(1, game, [Seat(i, p["id"], p["name"], None, None)
                              for i, p in enumerate(data["players"])])
    kept, rested = live(), live()
    for i, h in enumerate(data["actions"]):
        kept.apply(h)
        rested.apply(h)
        if i % 3 == 0:
            rested.rest()
            assert rested.resting and rested.cached == (-1, [], {})
        if i % 9 == 0:
            assert rested.legal() == kept.legal(), f"after entry {i}"
    assert snapshot.take(rested.game.table) == snapshot.take(kept.game.table)
    assert rested.game.table.messages == kept.game.table.messages


def test_idle_games_rest_and_wake_when_asked_for(tmp_path, monkeypatch):
    from tracklayer.web import service as service_module
    from tracklayer.web.db import Store
    from tracklayer.web.service import Service
    store = Store(f"sqlite:///{tmp_path / 'idle.db'}")
    try:
        service = Service(store, lambda *a: None, run_bots_in_background=False)
        made = service.create({"title": "1893", "players": [{"name": "A"}, {"name": "B"}],
                               "seed": 3})
        gid, token = made["id"], made["seats"][0]["token"]
        before = service.legal(gid, [token, made["seats"][1]["token"]])
        live = service.get(gid)
        assert not live.resting
        monkeypatch.setattr(service_module, "IDLE_S", 0.0)
        monkeypatch.setattr(service_module, "SWEEP_S", 0.0)
        live.used -= 1.0
        service._rest_idle(live.used + 1.0)
        assert live.resting and live.cached == (-1, [], {})
        again = service.legal(gid, [token, made["seats"][1]["token"]])
        assert again == before and not live.resting
    finally:
        store.dispose()


def test_workers_see_each_others_proposals(tmp_path):
    """Two services sharing one database (as workers sharing Redis do): a proposal made on
    one is pending on the other, its answer there is seen here, and a game moving on reads
    them again; meanwhile the proposals are read only when their mark moved (by another
    worker: a worker's own proposal or answer keeps its mark in step)."""
    from tracklayer.web.db import Store
    from tracklayer.web.service import Service
    data = game_data()
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    store_a, store_b = Store(url), Store(url)
    try:
        a = Service(store_a, lambda *x: None, run_bots_in_background=False, shared=True)
        b = Service(store_b, lambda *x: None, run_bots_in_background=False, shared=True)
        made = a.import_export(dict(data, actions=data["actions"][:EVA_AT]))
        gid = made["id"]
        tokens = {s["player_id"]: s["token"] for s in made["seats"]}
        reads = []
        for store in (store_a, store_b):
            read = store.proposals_in_play
            store.proposals_in_play = lambda *x, read=read: (reads.append(x), read(*x))[1]
        for _ in range(2):                  # loaded, then its proposals' mark read
            assert b.legal(gid, tokens[P1])["actions"]
        reads.clear()
        for _ in range(3):                  # nothing changed: no proposals read
            assert b.legal(gid, tokens[P1])["proposal"] is None
        assert reads == []
        eva = {"type": "buy_company", "entity": "KFBE", "entity_type": "minor",
               "company": "EVA", "price": 5, "id": EVA_AT + 1}
        p = a.act(gid, tokens[P1], eva)["proposal"]
        seen = b.legal(gid, tokens[P3])
        assert seen["actions"] == [] and seen["proposal"]["id"] == p["id"]
        answered = b.proposals.answer(gid, tokens[P3], p["id"], "decline")
        assert answered["proposal"]["status"] == "declined"
        reads.clear()                       # its own answer keeps B's mark in step
        assert b.legal(gid, tokens[P1])["proposal"] is None and reads == []
        mine = a.legal(gid, tokens[P1])     # A's mark moved by B's answer: read again
        assert mine["actions"] and mine["proposal"] is None
        assert [q.status for q in a.get(gid).talks.answered] == ["declined"]
        p = a.act(gid, tokens[P1], dict(eva, price=6))["proposal"]
        assert b.proposals.answer(gid, tokens[P3], p["id"], "accept")["entry"]["price"] == 6
        live = a.get(gid)
        assert live.number == EVA_AT + 1 and live.talks.pending is None
        assert live.game.history.entries[-1]["company"] == "EVA"
    finally:
        store_a.dispose()
        store_b.dispose()


def test_the_writer_commits_entries_and_jobs_together_and_each_hears_its_answer(tmp_path):
    import threading
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError
    from tracklayer.web.db import Store
    store = Store(f"sqlite:///{tmp_path / 'w.db'}")
    try:
        gid = store.create("1893", 1, [], [{"player_id": 1, "name": "A", "token": None}])
        store.append(gid, 1, {"type": "pass"})

        def item(**kw):
            return dict(kw, done=threading.Event(), error=None, result=None)
        taken = item(row={"game_id": gid, "number": 1, "entry": "{}"})     # number taken
        fresh = item(row={"game_id": gid, "number": 2, "entry": "{}"})
        job = item(job=lambda conn: conn.execute(text("SELECT count(*) FROM actions"))
                   .scalar())
        store.writer._write([taken, fresh, job])
        assert isinstance(taken["error"], IntegrityError)
        assert fresh["error"] is None and job["error"] is None
        assert [n for n, _ in store.entries(gid)] == [1, 2]
        together = [item(row={"game_id": gid, "number": 3, "entry": "{}"}), item(
            job=lambda conn: conn.execute(text("SELECT max(number) FROM actions")).scalar())]
        store.writer._write(together)
        assert together[1]["result"] == 3           # in the entries' transaction
        assert store.writer.run(lambda conn: 7) == 7
    finally:
        store.dispose()


def test_the_writer_keeps_its_connection_and_makes_a_new_one_after_an_error(tmp_path):
    """The writer commits on a connection of its own, kept from one batch to the next (a
    number taken keeps it too); after any other error a new one is made, and the next
    batch commits as before."""
    import threading
    from sqlalchemy.exc import IntegrityError
    from tracklayer.web.db import Store
    store = Store(f"sqlite:///{tmp_path / 'c.db'}")
    try:
        gid = store.create("1893", 1, [], [{"player_id": 1, "name": "A", "token": None}])

        def item(**kw):
            return dict(kw, done=threading.Event(), error=None, result=None)
        store.writer._write([item(row={"game_id": gid, "number": 1, "entry": "{}"})])
        kept = store.writer.conn
        taken = item(row={"game_id": gid, "number": 1, "entry": "{}"})
        store.writer._write([taken])
        assert isinstance(taken["error"], IntegrityError) and store.writer.conn is kept

        def broken(conn):
            raise OSError("the disk is away")
        failed = item(job=broken)
        store.writer._write([failed])
        assert isinstance(failed["error"], OSError) and store.writer.conn is None
        fresh = item(row={"game_id": gid, "number": 2, "entry": "{}"})
        store.writer._write([fresh])
        assert fresh["error"] is None and store.writer.conn is not None
        assert [n for n, _ in store.entries(gid)] == [1, 2]
    finally:
        store.dispose()


def test_the_writer_says_of_each_entry_submitted_whether_its_game_has_a_webhook(tmp_path):
    """SQLite's writer, as PostgreSQL's: an entry submitted is told, as it is stored,
    whether its game has a seat with a webhook (turn alerts skip the others)."""
    from tracklayer.web.db import Store
    store = Store(f"sqlite:///{tmp_path / 'h.db'}")
    try:
        seats = [{"player_id": 1, "name": "A", "token": "a" * 32}]
        plain = store.create("1893", 1, [], seats)
        hooked = store.create("1893", 1, [], [dict(seats[0], token="b" * 32)])
        store.set_webhook(hooked, 0, "https://example.invalid/hook", None, False)
        a = store.submit(plain, 1, store.entry_text({"type": "pass"}))
        b = store.submit(hooked, 1, store.entry_text({"type": "pass"}))
        assert a.result(10) is False and b.result(10) is True
        assert [n for n, _ in store.entries(hooked)] == [1]
    finally:
        store.dispose()


def test_workers_sharing_postgresql_answer_on_the_loop_and_still_see_each_other():
    """Two apps sharing PostgreSQL and Redis: a game held and up to date is listed and
    played on the event loop (its freshness read there, no thread), yet an entry stored,
    a seat's link issued anew or a proposal made on the other worker counts at once."""
    from fastapi.testclient import TestClient
    from web_support import auth, database, redis_or_skip
    from tracklayer.web.app import create_app
    redis_url = redis_or_skip()
    urls = database("postgresql", None)
    url = next(urls)
    try:
        with TestClient(create_app(url, redis_url)) as a, \
                TestClient(create_app(url, redis_url)) as b:
            made = a.post("/api/games", json={"title": "1893", "seed": 3, "players": [
                {"name": "A"}, {"name": "B"}]}).json()
            gid, key = made["id"], made["creator_token"]
            both = {"Cookie": f"seats-{gid}=" + ".".join(s["token"] for s in made["seats"])}
            by_player = {s["player_id"]: s["token"] for s in made["seats"]}
            threaded = []
            service = b.app.state.service
            for name in ("legal", "act"):
                slow = getattr(service, name)
                setattr(service, name, lambda *x, slow=slow, name=name:
                        (threaded.append(name), slow(*x))[1])
            b.get(f"/api/games/{gid}/legal", headers=both)        # loaded: in a thread
            threaded.clear()
            for _ in range(3):                                      # held: on the loop
                legal = b.get(f"/api/games/{gid}/legal", headers=both).json()
                move = dict(next(m for m in legal["actions"] if m["type"] != "bankrupt"),
                            id=legal["next_id"])
                r = b.post(f"/api/games/{gid}/actions", json=move,
                           headers=auth(by_player[legal["player_id"]]))
                assert r.status_code in (201, 202), r.text
                if r.status_code == 202:
                    break
            assert threaded == []
            legal = a.get(f"/api/games/{gid}/legal", headers=both).json()
            if legal["proposal"] is None:                           # stored on A, seen on B
                move = dict(next(m for m in legal["actions"] if m["type"] != "bankrupt"),
                            id=legal["next_id"])
                r = a.post(f"/api/games/{gid}/actions", json=move,
                           headers=auth(by_player[legal["player_id"]]))
                assert r.status_code in (201, 202), r.text
            again = b.get(f"/api/games/{gid}/legal", headers=both).json()
            assert again["next_id"] == a.get(f"/api/games/{gid}/legal",
                                             headers=both).json()["next_id"]
            assert again["proposal"] == a.get(f"/api/games/{gid}/legal",
                                              headers=both).json()["proposal"]
            old = made["seats"][1]["token"]
            a.post(f"/api/games/{gid}/seats/1/token", headers=auth(key))
            threaded.clear()
            assert b.get(f"/api/games/{gid}/legal", headers=auth(old)).status_code == 403
            assert threaded == []
            move = {"type": "pass", "entity": made["seats"][1]["player_id"],
                    "entity_type": "player", "id": legal["next_id"]}
            assert b.post(f"/api/games/{gid}/actions", json=move,
                          headers=auth(old)).status_code == 403
    finally:
        next(urls, None)


def test_an_action_applied_without_reading_freshness_is_checked_as_it_is_committed(tmp_path):
    """Workers sharing a database: an action applied on the game as held, without first
    reading what other workers changed (``act_now(guarded=True)``), is refused as it is
    committed if another worker stored that number first (409), issued the seat's link
    anew (403) or made a proposal (409); the game is then rebuilt from the log. A refusal
    from the game as held is no answer: the request asks again with the freshness read."""
    from tracklayer.web.db import Store
    from tracklayer.web.service import Refusal, Service
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    store_a, store_b = Store(url), Store(url)

    def settle(service, storing):
        error = None
        try:
            storing.done.result(10)
        except Exception as e:
            error = e
        return service.stored(storing, error)

    def move(service, gid, tokens):
        legal = service.legal(gid, tokens)
        return dict(next(a for a in legal["actions"] if a["type"] != "bankrupt"),
                    id=legal["next_id"])
    try:
        a = Service(store_a, lambda *x: None, run_bots_in_background=False, shared=True)
        b = Service(store_b, lambda *x: None, run_bots_in_background=False, shared=True)
        made = a.create({"title": "1893", "seed": 5, "players": [{"name": "A"},
                                                                 {"name": "B"}]})
        gid, both = made["id"], [s["token"] for s in made["seats"]]
        first = move(b, gid, both)                  # held on B, at entry 0
        a.act(gid, both, first)                     # stored on A
        storing = b.act_now(gid, both, first, guarded=True)
        assert storing is not None                  # B does not know yet: applied
        with pytest.raises(Refusal) as refused:
            settle(b, storing)
        assert refused.value.status == 409 and not b.holds(gid)

        step = move(b, gid, both)                   # B rebuilt, up to date
        assert step["id"] == 2
        settled = settle(b, b.act_now(gid, both, step, guarded=True))
        assert settled["id"] == 2 and [n for n, _ in store_a.entries(gid)] == [1, 2]

        step = move(b, gid, both)
        seat = next(s for s in made["seats"] if s["player_id"] == b.legal(gid, both)[
            "player_id"])
        store_a.reissue(gid, seat["player_id"] - 1, "issued-anew")      # on A
        # the new link, not yet known to B as held: no answer without the freshness read
        assert b.act_now(gid, ["issued-anew"], step, guarded=True) is None
        storing = b.act_now(gid, [seat["token"]], step, guarded=True)
        with pytest.raises(Refusal) as refused:
            settle(b, storing)
        assert refused.value.status == 403 and len(store_a.entries(gid)) == 2
        assert b.act(gid, ["issued-anew"], step)["id"] == 3       # read: accepted
    finally:
        store_a.dispose()
        store_b.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request, tmp_path):
    from web_support import database
    yield from database(request.param, tmp_path / "any.db")


def test_the_writer_leaves_out_an_entry_whose_guard_no_longer_holds(any_db):
    """One query checks the guarded entries of a batch: an entry whose seat's token changed,
    or whose game has a proposal waiting, is left out and told why; the rest commit. A
    batch of entries with a number already taken is written one by one: each hears its own
    answer (on PostgreSQL a batch of entries alone is one statement)."""
    from sqlalchemy.exc import IntegrityError
    from tracklayer.web.db import Store
    from tracklayer.web.writer import Guard, Unguarded
    store = Store(any_db)
    try:
        seats = [{"player_id": 1, "name": "A", "token": "t1"},
                 {"player_id": 2, "name": "B", "token": "t2"}]
        g1 = store.create("1893", 1, [], seats)
        g2 = store.create("1893", 2, [], [dict(s, token=s["token"] + "x") for s in seats])
        g3 = store.create("1893", 3, [], [dict(s, token=s["token"] + "y") for s in seats])
        store.add_proposal(g3, 0, 1, 2, {"type": "pass"}, "a deal", [])

        def item(game_id, guard, number=1):
            return {"row": {"game_id": game_id, "number": number, "entry": "{}"},
                    "done": None, "error": None, "guard": guard}
        kept, void, waits, plain = (item(g1, Guard(1, "t1")), item(g2, Guard(2, "t2")),
                                    item(g3, Guard(1, "t1y")), item(g3, None, 2))
        store.writer._write([kept, void, waits, plain])
        assert kept["error"] is None and plain["error"] is None
        assert isinstance(void["error"], Unguarded) and void["error"].what == "token"
        assert isinstance(waits["error"], Unguarded) and waits["error"].what == "proposal"
        assert [n for n, _ in store.entries(g1)] == [1]
        assert store.entries(g2) == [] and [n for n, _ in store.entries(g3)] == [2]
        taken, fresh, other = item(g1, None, 1), item(g1, None, 2), item(g2, None, 1)
        store.writer._write([taken, fresh, other])
        assert isinstance(taken["error"], IntegrityError)
        assert fresh["error"] is None and other["error"] is None
        assert [n for n, _ in store.entries(g1)] == [1, 2]
        alone = item(g2, None, 1)
        store.writer._write([alone])
        assert isinstance(alone["error"], IntegrityError)
        assert [n for n, _ in store.entries(g2)] == [1]
        # on PostgreSQL the statement says whether the game has a seat with a webhook
        store.set_webhook(g1, 1, "https://example.org/hook", None, False)
        hooked, unhooked = item(g1, Guard(1, "t1"), 3), item(g2, None, 2)
        store.writer._write([hooked, unhooked])
        known = any_db.startswith("postgresql")
        assert (hooked.get("result"), unhooked.get("result")) == \
            ((True, False) if known else (None, None))
    finally:
        store.dispose()


def test_turn_alerts_skip_the_query_where_the_writer_said_no_seat_has_a_webhook():
    """An entry whose game the writer said, as it stored that entry or a later one, has no
    seat with a webhook needs no look at the seats; one not said of, said to have one, or
    of a game whose alerts were going, does."""
    import threading
    from types import SimpleNamespace
    from tracklayer.web.webhooks import Notifier
    live = SimpleNamespace(hooks_seen=(5, False))
    service = SimpleNamespace(lock=threading.Lock(), live={1: live})
    notifier = Notifier(service)
    try:
        assert notifier._unhooked((1, 5, {})) and notifier._unhooked((1, 4, {}))
        assert not notifier._unhooked((1, 6, {}))           # stored after what was said
        assert not notifier._unhooked((2, 1, {}))           # not held here
        live.hooks_seen = (5, None)                         # not said (SQLite)
        assert not notifier._unhooked((1, 5, {}))
        live.hooks_seen = (5, True)
        assert not notifier._unhooked((1, 5, {}))
        live.hooks_seen, notifier.acting[1] = (5, False), {2}
        assert not notifier._unhooked((1, 5, {}))           # its alerts were going
    finally:
        notifier.stop()


def test_loop_reads_answer_games_asked_together_as_each_alone():
    """Workers sharing PostgreSQL: games asked for while every connection reads are read
    together in one statement, each answered as ``Store.freshness`` answers it alone (a
    game with a pending proposal, one with entries, one that does not exist)."""
    import asyncio
    from web_support import database
    from tracklayer.web.db import Store
    from tracklayer.web.loop_reads import LoopReader
    urls = database("postgresql", None)
    url = next(urls)
    store = Store(url)
    try:
        games = [store.create("1893", n, [], [
            {"player_id": 1, "name": "A", "token": f"a{n}"},
            {"player_id": 2, "name": "B", "token": f"b{n}"}]) for n in range(5)]
        store.append(games[1], 1, {"type": "pass", "entity": 1, "entity_type": "player"})
        store.add_proposal(games[2], 0, 1, 2, {"type": "pass"}, "a deal", [])
        asked = games + [games[0], 10 ** 6]

        async def read():
            reader = LoopReader(url, size=1)
            try:
                return await asyncio.gather(*(reader.freshness(g) for g in asked)), reader
            finally:
                await reader.close()
        found, reader = asyncio.run(read())
        assert found == [store.freshness(g) for g in asked] and reader.reading == 0
        assert found[1][0] == 1 and found[2][2][1] == 1 and found[-1] == (0, [], (0, 0, 0, -1))
    finally:
        store.dispose()
        next(urls, None)
