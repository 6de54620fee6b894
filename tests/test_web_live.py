"""Live updates over Server-Sent Events: a listener sees each accepted action, resumes
after Last-Event-ID, and with two app instances sharing Redis hears the other's actions."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tracklayer.web.server import serving_apart
from web_support import EventReader, Server, database, redis_or_skip, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")


def play_first_bids(base: str, n: int):
    """A 3-player 1893 game and its first ``n`` legal moves, each by the seat to act."""
    players = [{"name": f"P{i}"} for i in range(3)]
    made = httpx.post(f"{base}/api/games", json={"title": "1893", "players": players,
                                                  "seed": 3}).json()
    return made


def act_once(base: str, gid: int, seats) -> dict:
    for seat in seats:
        h = {"Authorization": f"Bearer {seat['token']}"}
        legal = httpx.get(f"{base}/api/games/{gid}/legal", headers=h).json()
        if legal["actions"]:
            move = dict(legal["actions"][0], id=legal["next_id"])
            r = httpx.post(f"{base}/api/games/{gid}/actions", json=move, headers=h)
            assert r.status_code == 201, r.text
            return r.json()
    raise AssertionError("no seat could act")


def test_events_arrive_live_and_resume(tmp_path):
    from tracklayer.web.app import create_app
    with Server(create_app(f"sqlite:///{tmp_path / 'live.db'}")) as srv:
        made = play_first_bids(srv.url, 0)
        gid, seats = made["id"], made["seats"]
        reader = EventReader(f"{srv.url}/api/games/{gid}/events")
        first = act_once(srv.url, gid, seats)
        second = act_once(srv.url, gid, seats)
        got = reader.take(2)
        assert got == [(1, first), (2, second)]
        reader.close()
        # resuming after entry 1 gives entry 2 at once, then new ones
        resumed = EventReader(f"{srv.url}/api/games/{gid}/events",
                              headers={"Last-Event-ID": "1"})
        assert resumed.take(1) == [(2, second)]
        third = act_once(srv.url, gid, seats)
        assert resumed.take(1) == [(3, third)]
        resumed.close()
        assert httpx.get(f"{srv.url}/api/games/424242/events").status_code == 404


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_db(request, tmp_path):
    yield from database(request.param, tmp_path / "shared.db")


def test_two_workers_share_updates_through_redis(shared_db):
    from tracklayer.web.app import create_app
    redis_url = redis_or_skip()
    db = shared_db
    with Server(create_app(db, redis_url)) as a, Server(create_app(db, redis_url)) as b:
        made = play_first_bids(a.url, 0)
        gid, seats = made["id"], made["seats"]
        on_b = EventReader(f"{b.url}/api/games/{gid}/events")
        on_a = EventReader(f"{a.url}/api/games/{gid}/events")
        first = act_once(a.url, gid, seats)         # accepted by A, heard on B
        assert on_b.take(1) == [(1, first)]
        second = act_once(b.url, gid, seats)        # B catches up from the log, then acts
        assert on_a.take(2) == [(1, first), (2, second)]
        assert on_b.take(1) == [(2, second)]
        # a stale number on A after B moved on is refused
        h = {"Authorization": f"Bearer {seats[0]['token']}"}
        r = httpx.post(f"{a.url}/api/games/{gid}/actions", json={"type": "pass", "id": 2,
                       "entity": 1, "entity_type": "player"}, headers=h)
        assert r.status_code == 409
        on_a.close()
        on_b.close()


def test_serve_with_two_workers(tmp_path):
    """``tracklayer serve --workers 2 --redis``: whichever worker takes each request, a
    listener hears every action, in order."""
    redis_url = redis_or_skip()
    with serving_apart(f"sqlite:///{tmp_path / 'w.db'}", workers=2, redis_url=redis_url) as base:
        made = play_first_bids(base, 0)
        reader = EventReader(f"{base}/api/games/{made['id']}/events")
        done = [act_once(base, made["id"], made["seats"]) for _ in range(6)]
        assert reader.take(6) == list(enumerate(done, start=1))
        reader.close()


def test_racing_posts_of_one_number_store_one(tmp_path):
    """Eight clients post the same next action at once: one is stored, seven get 409."""
    import threading
    from tracklayer.web.app import create_app
    with Server(create_app(f"sqlite:///{tmp_path / 'race.db'}")) as srv:
        made = play_first_bids(srv.url, 0)
        gid, seat = made["id"], made["seats"][0]
        h = {"Authorization": f"Bearer {seat['token']}"}
        legal = httpx.get(f"{srv.url}/api/games/{gid}/legal", headers=h).json()
        move = dict(legal["actions"][0], id=1)
        codes = []
        go = threading.Barrier(8)

        def post():
            go.wait()
            codes.append(httpx.post(f"{srv.url}/api/games/{gid}/actions", json=move,
                                    headers=h).status_code)
        threads = [threading.Thread(target=post) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert sorted(codes) == [201] + [409] * 7
        assert len(httpx.get(f"{srv.url}/api/games/{gid}").json()["actions"]) == 1


def test_serve_refuses_a_database_it_cannot_use(tmp_path):
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    for url in (f"sqlite:///{tmp_path}/no/such/folder/x.db",):
        r = subprocess.run([sys.executable, "-m", "tracklayer", "serve", "--db", url],
                           env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode == 2 and "cannot use the database" in r.stderr, r.stderr
