"""Consent in the web app (``web.proposals``): an action taking what another seat holds is
answered 202 with a proposal, stored so that a restart loses none; while it waits the game
stands still; its responder accepts (the action stored as the proposer's) or declines
(nothing changes), its proposer may withdraw; bots answer by their judgement; the page
shows it in words with the buttons; the live stream announces it. Whole games of a person
and three greedy bots reach their end over the API (benchmarks/web_games.py plays each
title; here a short 1893)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from web_support import FIXTURES, web_missing

pytestmark = pytest.mark.skipif(bool(web_missing()), reason=web_missing() or "-")

GAME_1893 = FIXTURES / "1893" / "1893_game_end_bank.json"
EVA_AT = 15                   # KFBE (Player 1's minor) operates; Player 3 holds EVA
P1, P2, P3 = 45, 16856, 18536


def app_at(url):
    from tracklayer.web.app import create_app
    return create_app(url, background_bots=False)


@pytest.fixture
def url(tmp_path):
    return f"sqlite:///{tmp_path / 'consent.db'}"


def imported(client, bots=None):
    """The 1893 game at entry 15, imported: its id and the seats' auth headers by player;
    ``bots``: player id → bot kind, put in those seats."""
    if not GAME_1893.exists():
        pytest.skip(f"{GAME_1893} is missing (../shared)")
    data = json.loads(GAME_1893.read_text())
    r = client.post("/api/games/import", json=dict(data, actions=data["actions"][:EVA_AT]))
    assert r.status_code == 201, r.text
    made = r.json()
    service = client.app.state.service
    if bots:
        from sqlalchemy import select
        from tracklayer.web.db import SeatRow
        with service.store.sessions.begin() as s:
            for row in s.scalars(select(SeatRow).where(SeatRow.game_id == made["id"])):
                if row.player_id in bots:
                    row.bot, row.token = bots[row.player_id], None
        service.forget(made["id"])
    return made["id"], {s["player_id"]: {"Authorization": f"Bearer {s['token']}"}
                        for s in made["seats"] if not bots or s["player_id"] not in bots}


def eva(gid_number, price=5):
    return {"type": "buy_company", "entity": "KFBE", "entity_type": "minor",
            "company": "EVA", "price": price, "id": gid_number}


def propose(c, gid, auth, price=5):
    r = c.post(f"/api/games/{gid}/actions", json=eva(EVA_AT + 1, price), headers=auth[P1])
    assert r.status_code == 202, r.text
    return r.json()["proposal"]


def test_a_proposal_waits_and_accepted_is_the_proposers_action(url):
    from fastapi.testclient import TestClient
    with TestClient(app_at(url)) as c:
        gid, auth = imported(c)
        notices = []
        service = c.app.state.service
        publish = service.publish
        service.publish = lambda g, n, e, *text: (notices.append((n, e)), publish(g, n, e, *text))
        p = propose(c, gid, auth)
        assert p["status"] == "pending" and (p["proposer"], p["responder"]) == (P1, P3)
        assert p["text"] == "Player 1 proposes that KFBE buys Player 3's EVA for 5M"
        assert notices[-1] == (-1, {"proposal": p})
        listed = c.get(f"/api/games/{gid}/proposals").json()
        assert listed["pending"] == p and listed["proposals"][0]["id"] == p["id"]
        for player in (P1, P3):
            legal = c.get(f"/api/games/{gid}/legal", headers=auth[player]).json()
            assert legal["actions"] == [] and legal["proposal"]["id"] == p["id"]
        lay = {"type": "pass", "entity": "KFBE", "entity_type": "minor", "id": EVA_AT + 1}
        r = c.post(f"/api/games/{gid}/actions", json=lay, headers=auth[P1])
        assert r.status_code == 409 and "waiting for Player 3" in r.json()["error"]
        chat = {"type": "message", "entity": P3, "entity_type": "player",
                "message": "hm", "id": EVA_AT + 1}
        assert c.post(f"/api/games/{gid}/actions", json=chat,
                      headers=auth[P3]).status_code == 201
        for player in (P1, P2):
            r = c.post(f"/api/games/{gid}/proposals/{p['id']}/accept", headers=auth[player])
            assert r.status_code == 403, r.text
        r = c.post(f"/api/games/{gid}/proposals/{p['id']}/accept", headers=auth[P3])
        assert r.status_code == 200, r.text
        assert r.json()["proposal"]["status"] == "accepted"
        data = c.get(f"/api/games/{gid}").json()
        last = data["actions"][-1]
        assert (last["type"], last["entity"], last["company"], last["price"]) == \
            ("buy_company", "KFBE", "EVA", 5)
        assert last["id"] == EVA_AT + 2           # after the chat message
        assert notices[-1][0] == -1 and notices[-1][1]["proposal"]["status"] == "accepted"
        assert c.get(f"/api/games/{gid}/proposals").json()["pending"] is None
        assert c.get(f"/api/games/{gid}/legal", headers=auth[P1]).json()["actions"]


def test_declined_or_withdrawn_nothing_changes(url):
    from fastapi.testclient import TestClient
    with TestClient(app_at(url)) as c:
        gid, auth = imported(c)
        before = c.get(f"/api/games/{gid}").json()["actions"]
        p = propose(c, gid, auth)
        r = c.post(f"/api/games/{gid}/proposals/{p['id']}/decline", headers=auth[P3])
        assert r.status_code == 200 and r.json()["proposal"]["status"] == "declined"
        assert c.get(f"/api/games/{gid}").json()["actions"] == before
        legal = c.get(f"/api/games/{gid}/legal", headers=auth[P1]).json()
        assert legal["actions"] and legal["proposal"] is None       # Player 1 goes on
        p = propose(c, gid, auth, price=6)
        r = c.post(f"/api/games/{gid}/proposals/{p['id']}/withdraw", headers=auth[P3])
        assert r.status_code == 403
        r = c.post(f"/api/games/{gid}/proposals/{p['id']}/withdraw", headers=auth[P1])
        assert r.status_code == 200 and r.json()["proposal"]["status"] == "withdrawn"
        r = c.post(f"/api/games/{gid}/proposals/{p['id']}/accept", headers=auth[P3])
        assert r.status_code == 409
        assert c.get(f"/api/games/{gid}").json()["actions"] == before
        statuses = [q["status"] for q in c.get(f"/api/games/{gid}/proposals").json()["proposals"]]
        assert statuses == ["withdrawn", "declined"]


def test_a_pending_proposal_survives_a_restart(url):
    from fastapi.testclient import TestClient
    with TestClient(app_at(url)) as c:
        gid, auth = imported(c)
        p = propose(c, gid, auth)
    with TestClient(app_at(url)) as c:          # a new server on the same database
        assert c.get(f"/api/games/{gid}/proposals").json()["pending"]["id"] == p["id"]
        page = c.get(f"/games/{gid}/view?token={auth[P3]['Authorization'][7:]}").text
        assert "Player 1 proposes that KFBE buys your EVA for 5M" in page
        assert "accept-proposal" in page and "decline-proposal" in page
        page = c.get(f"/games/{gid}/view?token={auth[P1]['Authorization'][7:]}").text
        assert "Waiting for Player 3" in page and "withdraw-proposal" in page
        r = c.post(f"/api/games/{gid}/proposals/{p['id']}/accept", headers=auth[P3])
        assert r.status_code == 200, r.text


def test_bots_answer_by_their_judgement(url):
    """Greedy declines 5M for EVA (its face value is 150); random answers as its coin
    falls (both ways: tests/test_consent.py)."""
    from fastapi.testclient import TestClient
    with TestClient(app_at(url)) as c:
        gid, auth = imported(c, bots={P3: "greedy"})
        p = propose(c, gid, auth)
        answered = c.get(f"/api/games/{gid}/proposals").json()
        assert answered["pending"] is None and answered["proposals"][0]["id"] == p["id"]
        assert answered["proposals"][0]["status"] == "declined"
        gid, auth = imported(c, bots={P3: "random"})
        propose(c, gid, auth)
        status = c.get(f"/api/games/{gid}/proposals").json()["proposals"][0]["status"]
        assert status in ("accepted", "declined")
        last = c.get(f"/api/games/{gid}").json()["actions"][-1]
        assert (last.get("company") == "EVA") == (status == "accepted")


def test_a_bots_proposal_waits_for_the_persons_answer(url):
    """A bot proposing to a person: the bots stop until the person answers."""
    from fastapi.testclient import TestClient
    with TestClient(app_at(url)) as c:
        gid, auth = imported(c, bots={P1: "greedy", P2: "greedy"})
        service = c.app.state.service
        live = service.get(gid)
        with live.lock:
            bot_seat = live.seat(P1)
            done = service.proposals.propose(live, bot_seat, eva(EVA_AT + 1))
        service.after_change(gid)                    # the bots run: none may act
        assert c.get(f"/api/games/{gid}/proposals").json()["pending"]["id"] == \
            done["proposal"]["id"]
        assert len(c.get(f"/api/games/{gid}").json()["actions"]) == EVA_AT
        r = c.post(f"/api/games/{gid}/proposals/{done['proposal']['id']}/decline",
                   headers=auth[P3])
        assert r.status_code == 200
        actions = c.get(f"/api/games/{gid}").json()["actions"]
        assert len(actions) > EVA_AT                 # the bots went on
        assert not any(a.get("company") == "EVA" and a.get("price") == 5 for a in actions)


def test_a_person_and_three_greedy_bots_play_1893_to_its_end(url):
    """benchmarks/web_games.py: the person's random moves (never bankrupt while anything
    else is left), proposals and answers; never a position where nobody may act."""
    from fastapi.testclient import TestClient
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "web_games.py"
    spec = importlib.util.spec_from_file_location("web_games", path)
    web_games = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(web_games)
    with TestClient(app_at(url)) as c:
        out = web_games.play(c, "1893", 5)
    assert out["stalled"] is None and out["error"] is None, out
    assert out["end_reason"] and out["entries"] > 50, out


def test_the_live_stream_announces_proposals(url):
    import httpx
    from tracklayer.web.app import create_app
    from web_support import EventReader, Server
    if not GAME_1893.exists():
        pytest.skip(f"{GAME_1893} is missing (../shared)")
    data = json.loads(GAME_1893.read_text())
    with Server(create_app(url)) as srv:
        made = httpx.post(f"{srv.url}/api/games/import",
                          json=dict(data, actions=data["actions"][:EVA_AT])).json()
        gid = made["id"]
        auth = {s["player_id"]: {"Authorization": f"Bearer {s['token']}"}
                for s in made["seats"]}
        reader = EventReader(f"{srv.url}/api/games/{gid}/events",
                             headers={"Last-Event-ID": str(EVA_AT)})
        r = httpx.post(f"{srv.url}/api/games/{gid}/actions", json=eva(EVA_AT + 1),
                       headers=auth[P1])
        assert r.status_code == 202, r.text
        p = r.json()["proposal"]
        event = reader.events.get(timeout=10)
        assert event["event"] == "proposal" and json.loads(event["data"]) == p
        httpx.post(f"{srv.url}/api/games/{gid}/proposals/{p['id']}/accept", headers=auth[P3])
        kinds = [reader.events.get(timeout=10) for _ in range(2)]
        assert {e["event"] for e in kinds} == {"entry", "proposal"}
        entry = next(json.loads(e["data"]) for e in kinds if e["event"] == "entry")
        assert entry["entity"] == "KFBE" and entry["company"] == "EVA"
        reader.close()
