"""Whole games over the HTTP API: one person's seat and bots, to the end of each title.

    python3 benchmarks/web_games.py [--titles 1893,1849,1871,1817] [--seed 3]
                                    [--bots greedy,greedy,greedy] [--json]

For each title a game is created through the API (SQLite in a temporary folder, the bots
playing on the server as soon as a person's action is stored) with a person in the first
seat and ``--bots`` in the others. The person asks ``/legal`` for their actions and posts
one at random (a kind at random, then an action of that kind, a price at random within
its range), never ``bankrupt`` while anything else is left, nor a deal another seat
declined at that position; a proposal made to them is accepted or declined at random.
After each of the person's moves the game must be over or someone must be able to act (a
seat with a legal action, or a proposal waiting for its answer): a position where nobody
may act is reported as ``stalled``, and the run fails.

Reports per title: entries in the log, the end reason, seconds, the person's moves,
proposals (the person's: accepted/declined by the bots; the bots' to the person), and how
often only ``bankrupt`` was left to the person.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from typing import Dict, Optional, Sequence

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer.turns.listing import random_value  # noqa: E402

TITLES = {"1893": "1893", "1849": "1849: Kingdom of the Two Sicilies",
          "1871": "The Old Prince 1871", "1817": "1817NA"}
THINGS = ("company", "train", "corporation", "minor")


def deal_key(action: dict) -> tuple:
    """What a proposal is about, whatever its price (as the client sees it)."""
    return (action.get("type"), str(action.get("entity"))) + \
        tuple(str(action.get(k)) for k in THINGS if k in action)


def person_move(legal: dict, declined, rng: random.Random) -> Optional[dict]:
    """A random legal action of the person: not ``bankrupt`` while anything else is left,
    nor a deal declined at this position."""
    actions = [a for a in legal["actions"] if deal_key(a) not in declined]
    others = [a for a in actions if a["type"] != "bankrupt"]
    pool = others or actions
    if not pool:
        return None
    kinds = sorted({a["type"] for a in pool})
    kind = rng.choice(kinds)
    return random_value(rng.choice([a for a in pool if a["type"] == kind]), rng)


def play(client, title: str, seed: int, bots: Sequence[str] = ("greedy",) * 3,
         max_entries: Optional[int] = None, rng_seed: Optional[int] = None) -> Dict:
    """One game over the API with ``client`` (a TestClient of an app whose bots play in
    the request, ``background_bots=False``); the summary described in the module
    docstring."""
    rng = random.Random(seed if rng_seed is None else rng_seed)
    players = [{"name": "Person", "bot": None}] + \
        [{"name": f"{b.title()} {i + 2}", "bot": b} for i, b in enumerate(bots)]
    start = time.perf_counter()
    r = client.post("/api/games", json={"title": title, "players": players, "seed": seed})
    assert r.status_code == 201, r.text
    made = r.json()
    game_id, auth = made["id"], {"Authorization": f"Bearer {made['seats'][0]['token']}"}
    service = client.app.state.service
    out = {"title": title, "seed": seed, "entries": 0, "end_reason": None, "seconds": 0.0,
           "moves": 0, "proposed": 0, "accepted": 0, "declined": 0, "asked": 0,
           "only_bankrupt": 0, "stalled": None, "error": None}
    declined: Dict[int, set] = {}
    while True:
        live = service.get(game_id)
        with live.lock:
            over, number = live.game.is_over, live.number
            if not over and not live.acting_seats():
                out["stalled"] = (f"nobody may act after entry {number} "
                                  f"({live.game.table.round.describe()})")
                break
        if over or (max_entries is not None and number >= max_entries):
            break
        legal = client.get(f"/api/games/{game_id}/legal", headers=auth).json()
        pending = legal.get("proposal")
        if pending is not None:
            if pending["responder"] != legal["player_id"]:
                out["error"] = f"a proposal waits for someone else: {pending}"
                break
            out["asked"] += 1
            how = rng.choice(("accept", "decline"))
            r = client.post(f"/api/games/{game_id}/proposals/{pending['id']}/{how}",
                            headers=auth)
            assert r.status_code == 200, r.text
            continue
        here = declined.setdefault(legal["next_id"], set())
        move = person_move(legal, here, rng)
        if move is None:
            out["error"] = f"the person has no move at entry {number} and the bots stopped"
            break
        out["only_bankrupt"] += move["type"] == "bankrupt" and \
            all(a["type"] == "bankrupt" or deal_key(a) in here for a in legal["actions"])
        move["id"] = legal["next_id"]
        r = client.post(f"/api/games/{game_id}/actions", headers=auth, json=move)
        out["moves"] += 1
        if r.status_code == 202:
            out["proposed"] += 1
            proposal = r.json()["proposal"]
            status = next(p["status"] for p in
                          client.get(f"/api/games/{game_id}/proposals").json()["proposals"]
                          if p["id"] == proposal["id"])
            if status not in ("accepted", "declined"):
                out["error"] = f"the bot left proposal {proposal['id']} {status}"
                break
            out[status] += 1
            if status == "declined":
                here.add(deal_key(move))
        elif r.status_code != 201:
            out["error"] = f"{r.status_code} {r.text[:300]} for {move}"
            break
    data = client.get(f"/api/games/{game_id}").json()
    out["entries"] = len(data.get("actions") or [])
    out["end_reason"] = data.get("game_end_reason")
    out["seconds"] = round(time.perf_counter() - start, 1)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--titles", default="1893,1849,1871,1817")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--bots", default="greedy,greedy,greedy")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from fastapi.testclient import TestClient
    from tracklayer.web.app import create_app
    failed = False
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{folder}/games.db", background_bots=False)
        with TestClient(app) as client:
            for name in args.titles.split(","):
                summary = play(client, TITLES.get(name, name), args.seed,
                               args.bots.split(","))
                failed |= bool(summary["stalled"] or summary["error"] or
                               not summary["end_reason"])
                print(json.dumps(summary) if args.json else
                      f"{summary['title']}: {summary['entries']} entries, end "
                      f"{summary['end_reason']}, {summary['seconds']} s; person "
                      f"{summary['moves']} moves, proposed {summary['proposed']} "
                      f"(accepted {summary['accepted']}, declined {summary['declined']}), "
                      f"asked {summary['asked']}, only bankrupt left "
                      f"{summary['only_bankrupt']}"
                      + (f"; STALLED {summary['stalled']}" if summary["stalled"] else "")
                      + (f"; ERROR {summary['error']}" if summary["error"] else ""),
                      flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
