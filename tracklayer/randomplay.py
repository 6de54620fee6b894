"""Random legal games: play a title by picking uniformly among the legal actions.

Used to exercise rules that recorded games rarely reach, and as a property test: every
action the engine lists as legal must be accepted, and money must be conserved.

    python3 -m tracklayer.randomplay "1893" --players 3 --seed 7 --max-actions 2000 -o game.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Optional

from .engine.errors import GameError
from .engine.moves import legal_actions
from .titles import title_class

PREFERENCES = {"pass": 1.0, "bankrupt": 0.02, "sell_shares": 0.3, "par": 6.0, "buy_shares": 5.0}


def random_game(title: str, players: int, seed: int, max_actions: int = 3000,
                rng_seed: Optional[int] = None, weights: Optional[dict] = None) -> dict:
    """Play a game with random legal moves; return it as an 18xx.games export."""
    cls = title_class(title)
    ids = [(i + 1, f"Player {i + 1}") for i in range(players)]
    game = cls(ids, seed=seed, log=False)
    rng = random.Random(seed if rng_seed is None else rng_seed)
    weights = dict(PREFERENCES, **(weights or {}))
    taken = []
    for n in range(max_actions):
        if game.finished:
            break
        options = legal_actions(game, rng)
        if not options:
            raise GameError(f"no legal action at {game.round.name} {game.turn} "
                            f"({game.round.description()})")
        while True:
            w = [weights.get(o["type"], 3.0) for o in options]
            choice = rng.choices(options, weights=w)[0]
            choice["id"] = n + 1
            try:
                game.process_action(choice, auto=True)
                break
            except GameError as e:
                # The move list offered something the rules refuse: report and try another.
                print(f"refused: {e}", file=sys.stderr)
                options.remove(choice)
                if not options:
                    print("no acceptable action: stopping", file=sys.stderr)
                    return export(title, ids, seed, taken, game)
        taken.append(game.actions[-1])
    return export(title, ids, seed, taken, game)


def export(title, ids, seed, taken, game) -> dict:
    """A played game as an 18xx.games export."""
    return {
        "id": seed, "title": title, "players": [{"id": i, "name": nm} for i, nm in ids],
        "settings": {"seed": seed, "optional_rules": []}, "actions": taken,
        "result": {str(k): v for k, v in game.result().items()} if game.finished else None,
        "game_end_reason": game.game_end_reason, "finished": game.finished,
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("title")
    p.add_argument("--players", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-actions", type=int, default=3000)
    p.add_argument("-o", "--output", default="-")
    args = p.parse_args(argv)
    data = random_game(args.title, args.players, args.seed, args.max_actions)
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
