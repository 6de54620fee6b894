"""Random legal games: play a title by picking at random among the legal actions.

Used to exercise rules that recorded games rarely reach, and as a property test: an action
the engine lists as legal is accepted, money is conserved, and the exported game replays to
the same state.

Two ways of choosing: ``uniform`` weighs every kind of action alike (with a few kinds made
rarer), and games soon collapse into bankruptcy; ``sensible`` plays a little like people do —
each player starts a company, buys its shares, companies buy trains from the depot, lay
track, place tokens and mostly pay out — so games reach the last phases.

    python3 -m tracklayer.randomplay "1893" --players 3 --seed 7 --max-actions 2000 -o game.json
    python3 -m tracklayer.randomplay "1849: Kingdom of the Two Sicilies" --players 4 --sensible
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Callable, Optional, Sequence, Union

from .errors import GameError
from .finder import plan_routes
from .game import Game
from .rules import trains
from .title import Title
from .titles import title_like
from .turns.listing import legal_moves, random_value

PREFERENCES = {"pass": 1.0, "bankrupt": 0.02, "sell_shares": 0.3, "par": 6.0, "buy_shares": 5.0}


def uniform_weight(game: Game, action: dict) -> float:
    """Every kind of action alike, except the preferences above."""
    return PREFERENCES.get(action["type"], 3.0)


def sensible_weight(game: Game, action: dict) -> float:
    """Roughly how a player would choose: one company each (a second now and then), shares
    of one's own companies, depot trains, track and tokens, dividends paid out."""
    table = game.table
    kind, by_player = action["type"], action["entity_type"] == "player"
    player = table.player(action["entity"]) if by_player else None
    if kind == "par":
        started = sum(1 for c in table.state.corporations if c.owner is player and c.started)
        return (12.0, 2.0)[started] if started < 2 else 0.1
    if kind == "buy_shares" and player is not None:
        cert = table.find("share", action["shares"][0])
        return 8.0 if cert is not None and cert.corporation.owner is player else 2.0
    if kind == "buy_train":
        train = table.find("train", action["train"])
        return 12.0 if train is None or trains.in_depot(train) else 0.2
    if kind == "dividend":
        return 10.0 if action.get("kind") == "payout" else 1.0
    if kind == "sell_shares":
        return 0.05 if by_player else 0.3
    return {"bankrupt": 0.0002, "pass": 1.0, "lay_tile": 6.0, "place_token": 6.0,
            "buy_company": 0.5}.get(kind, 3.0)


POLICIES = {"uniform": uniform_weight, "sensible": sensible_weight}


def play_random(title_name: Union[str, Title], players: int, seed: int,
                max_actions: int = 3000, rng_seed: Optional[int] = None,
                weight: Callable[[Game, dict], float] = uniform_weight,
                optional_rules: Sequence[str] = ()) -> Game:
    """Play a game of ``title_name`` (or of a Title) with random legal moves chosen by
    ``weight``."""
    ids = [(i + 1, f"Player {i + 1}") for i in range(players)]
    declared = title_name if isinstance(title_name, Title) else title_like(title_name)
    game = Game(declared, ids, seed=seed, optional_rules=optional_rules,
                keep_log=False, route_planner=plan_routes, snapshot_every=None)
    rng = random.Random(seed if rng_seed is None else rng_seed)
    for n in range(max_actions):
        if game.is_over:
            break
        options = legal_moves(game.table, plan_routes, rng)
        if not options:
            raise GameError(f"no legal action at {game.table.round.NAME} {game.state.turn} "
                            f"({game.table.round.describe()})")
        choice = rng.choices(options, weights=[weight(game, o) for o in options])[0]
        choice = random_value(choice, rng)
        choice["id"] = n + 1
        game.apply(choice, auto=True)
    return game


def random_game(title_name: str, players: int, seed: int, max_actions: int = 3000,
                rng_seed: Optional[int] = None, policy: str = "uniform",
                optional_rules: Sequence[str] = ()) -> dict:
    """Play a game with random legal moves; return it as an 18xx.games export."""
    return play_random(title_name, players, seed, max_actions, rng_seed, POLICIES[policy],
                       optional_rules).export()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("title")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-actions", type=int, default=3000)
    p.add_argument("--sensible", action="store_true", help="play like people (see above)")
    p.add_argument("--rules", default="", help="optional rules, comma-separated")
    p.add_argument("-o", "--output", default="-")
    args = p.parse_args(argv)
    try:
        data = random_game(args.title, args.players, args.seed, args.max_actions,
                           policy="sensible" if args.sensible else "uniform",
                           optional_rules=[r for r in args.rules.split(",") if r])
    except GameError as e:
        p.error(str(e))
    text = json.dumps(data)
    if args.output == "-":
        print(text)
    else:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    print(f"{len(data['actions'])} actions, finished={data['finished']} "
          f"({data['game_end_reason']})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
