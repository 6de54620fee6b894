"""How greedy plays, in numbers a player would look at: in self-play games of four greedy
bots per title, the dividends paid and withheld (and withheld by a company that had a
train that the next train would not rust), the presidents holding only the president's
certificate at the game's end, and the private companies bought from another player.

    python3 benchmarks/habits.py [--titles 1893,1849,1871,1817] [--games 5] [--seed 1]
                                 [--bots greedy,greedy,greedy,greedy]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from tracklayer.play.consent import Negotiation  # noqa: E402
from tracklayer.play.roster import bot  # noqa: E402
from tracklayer.play.selfplay import MAX_ACTIONS, bot_move, new_game  # noqa: E402
from tracklayer.state.model import PlayerState  # noqa: E402
from tracklayer.titles import title_like  # noqa: E402


def play(title_name: str, bots: list, seed: int) -> dict:
    game = new_game(title_name, [f"{b} {i + 1}" for i, b in enumerate(bots)], seed)
    players = [bot(b, seed * 100 + i) for i, b in enumerate(bots)]
    talks = Negotiation()
    out = {"payout": 0, "withhold": 0, "other": 0, "privates_between_players": 0}
    while not game.is_over and len(game.actions) < MAX_ACTIONS:
        h = bot_move(game, players, talks)
        if h is None:
            continue
        if h["type"] == "dividend":
            kind = h.get("kind")
            out[kind if kind in ("payout", "withhold") else "other"] += 1
        if h["type"] == "buy_company":
            company = game.table.find("company", h.get("company"))
            buyer = game.table.find(h.get("entity_type"), h.get("entity"))
            if company is not None and isinstance(company.owner, PlayerState) and \
                    isinstance(buyer, PlayerState) and company.owner is not buyer:
                out["privates_between_players"] += 1
        h["id"] = len(game.actions) + 1
        game.apply(h, auto=True)
    presidents = []
    for c in game.state.corporations:
        if c.closed or not isinstance(c.owner, PlayerState):
            continue
        held = sum(x.percent for x in c.owner.shares.get(c.sym, []))
        presidents.append(held)
    out.update(presidents=len(presidents),
               only_presidents_cert=sum(1 for p, c in zip(presidents, presidents)
                                        if p <= 20),
               end_reason=game.end_reason, actions=len(game.actions))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--titles", default="1893,1849,1871,1817")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="greedy,greedy,greedy,greedy")
    args = parser.parse_args(argv)
    for name in args.titles.split(","):
        title_name = title_like(name).name
        start = time.perf_counter()
        games = [play(title_name, args.bots.split(","), args.seed + k)
                 for k in range(args.games)]
        total = {k: sum(g[k] for g in games) for k in
                 ("payout", "withhold", "other", "presidents", "only_presidents_cert",
                  "privates_between_players", "actions")}
        total["end_reasons"] = [g["end_reason"] for g in games]
        print(json.dumps({"title": title_name, "games": len(games), **total,
                          "seconds": round(time.perf_counter() - start, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
