"""Sales between different owners in self-play: at what share of their worth do things
change hands between seats?

    python3 benchmarks/trades.py [--titles 1893,1849,1871,1817] [--games 20] [--seed 1]
                                 [--bots greedy,greedy,greedy,greedy] [--json]

Plays ``--games`` self-play games per title as ``tracklayer selfplay`` does (deals proposed
and answered by the bots: ``play.consent``). After every action it looks, independently of
the consent module, at which private companies and trains moved from one seat's holding to
another seat's (seats as ``play.seats`` finds who decides), and compares what was paid (the
action's price) with the thing's worth: a private's face value, the depot price of a train
of that kind. Reports per title the sales (the thing the action names, bought), the things
moved otherwise (``unpriced``: a minor merged into a corporation, a presidency changing
hands, an acquisition), the sales below half their worth (the cheapest shown), the lowest
share of its worth a sale fetched, and the deals proposed, accepted and declined.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer.play.consent import Negotiation  # noqa: E402
from tracklayer.play.roster import bot  # noqa: E402
from tracklayer.play.seats import decider, seat_of  # noqa: E402
from tracklayer.play.selfplay import MAX_ACTIONS, bot_move, new_game  # noqa: E402
from tracklayer.titles import title_like  # noqa: E402


def holdings(game) -> Dict[tuple, tuple]:
    """What each seat holds: (kind, id) → (seat, worth), for privates and trains held by
    players or operators."""
    out = {}
    for c in game.state.companies:
        if not c.closed and c.owner is not None:
            out[("private", c.sym)] = (seat_of(game, decider(game, c.owner)), c.value)
    for o in game.table.operators():
        for t in o.trains:
            out[("train", t.id)] = (seat_of(game, decider(game, o)), t.variant.price)
    return out


def play(title_name: str, bots: List[str], seed: int) -> dict:
    game = new_game(title_name, [f"{b} {i + 1}" for i, b in enumerate(bots)], seed)
    players = [bot(b, seed * 100 + i) for i, b in enumerate(bots)]
    talks = Negotiation()
    deals = {"proposed": 0, "accepted": 0, "declined": 0}
    sales = []
    while not game.is_over and len(game.actions) < MAX_ACTIONS:
        h = bot_move(game, players, talks, deals)
        if h is None:
            continue
        before = holdings(game)
        h["id"] = len(game.actions) + 1
        game.apply(h, auto=True)
        after = holdings(game)
        named = {h.get("train"), h.get("company"), h.get("minor")} - {None}
        for thing, (seat, worth) in before.items():
            now = after.get(thing)
            if now is not None and None not in (seat, now[0]) and now[0] != seat:
                sold = thing[1] in named          # else moved by a merger, a presidency …
                sales.append({"thing": thing, "from": seat, "to": now[0], "worth": worth,
                              "price": h.get("price") if sold else None,
                              "kind": h["type"], "at": h["id"]})
    return {"seed": seed, "actions": len(game.actions), "end_reason": game.end_reason,
            "deals": deals, "sales": sales}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--titles", default="1893,1849,1871,1817")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy,greedy,greedy,greedy")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    low_total = 0
    for name in args.titles.split(","):
        title_name = title_like(name).name
        start = time.perf_counter()
        games = [play(title_name, bots, args.seed + k) for k in range(args.games)]
        sales = [s for g in games for s in g["sales"]]
        priced = [s for s in sales if s["price"] is not None]
        low = [s for s in priced if 2 * s["price"] < s["worth"]]
        low_total += len(low)
        deals = {k: sum(g["deals"][k] for g in games) for k in ("proposed", "accepted",
                                                                 "declined")}
        summary = {"title": title_name, "games": len(games),
                   "ended": sum(1 for g in games if g["end_reason"]),
                   "sales": len(sales), "unpriced": len(sales) - len(priced),
                   "below_half": len(low),
                   "lowest_share": min((s["price"] / s["worth"] for s in priced
                                        if s["worth"]), default=None),
                   "deals": deals, "seconds": round(time.perf_counter() - start, 1),
                   "examples_below_half": low[:3]}
        print(json.dumps(summary) if args.json else
              f"{title_name}: {summary['games']} games ({summary['ended']} ended), "
              f"{summary['sales']} sales between seats ({summary['unpriced']} without a "
              f"price), {summary['below_half']} below half their worth, lowest "
              f"{summary['lowest_share']}; deals {deals}; {summary['seconds']} s", flush=True)
    return 1 if low_total else 0


if __name__ == "__main__":
    sys.exit(main())
