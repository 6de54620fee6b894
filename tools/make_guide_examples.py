"""Make the worked-example games the guides ship (tracklayer/guide/examples/<title>.json).

Each is a short game, from its first round to the end of its first set of operating
rounds, played by tracklayer's greedy bot (without trading private companies between
players for a token sum), a few moves scripted so that the story is one a new player
learns from (the followed player starts a corporation and runs it). The scripts are
below, per title: for each seat, the moves it makes first, in order, each taken as soon
as it is legal; the bot plays every other move.

    python3 tools/make_guide_examples.py [TITLE ...]

The game files are data: the guide replays them with the engine and works every number
out as it goes (tracklayer/guide/example.py); making them again gives the same games
only as long as the bot plays as it did.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tracklayer.finder import plan_routes  # noqa: E402
from tracklayer.game import Game  # noqa: E402
from tracklayer.guide.build import slug  # noqa: E402
from tracklayer.play.bots import seat_to_act  # noqa: E402
from tracklayer.play.greedy import GreedyBot  # noqa: E402
from tracklayer.titles import title_like  # noqa: E402
from tracklayer.turns.listing import concrete  # noqa: E402

OUT = ROOT / "tracklayer" / "guide" / "examples"


class ExampleBot(GreedyBot):
    """The greedy bot, without buying a private company from another player or a train
    from another company (the greedy bot passes 1893's EVA round the table for 1M, and
    1849's trains from corporation to corporation for L.1)."""

    def options(self, game, seat):
        moves = super().options(game, seat)
        table = game.table
        kept = [m for m in moves if not (
            m["type"] == "buy_company"
            and table.company(m["company"]).owner in table.state.players) and not (
            m["type"] == "buy_train" and _train_owner(table, m) is not None)]
        return kept or moves


def _train_owner(table, m):
    """The company selling the train a move buys (None: the bank)."""
    for t in table.state.depot.every:
        if t.id == m.get("train"):
            owner = t.owner
            return None if owner is None or owner is table.state.depot else owner
    return None


class Move:
    """A scripted move: the first legal move ``wanted`` accepts, at ``value`` if given
    (a price within its range), once the game's log has said ``after`` (in its last
    lines)."""

    def __init__(self, wanted, value=None, after=None):
        self.wanted, self.value, self.after = wanted, value, after

    def when(self, after):
        return Move(self.wanted, self.value, after)

    def find(self, game):
        if self.after and not any(self.after in text for text in game.table.messages[-3:]):
            return None
        for m in game.legal_actions():
            if self.wanted(m, game):
                try:
                    return concrete(m, self.value)
                except ValueError:
                    continue
        return None


def bid(company, price=None):
    return Move(lambda m, g: m["type"] == "bid" and m.get("company") == company, price)


def par(corporation, price):
    return Move(lambda m, g: m["type"] == "par" and (corporation is None or m.get(
        "corporation") == corporation) and str(m.get("share_price", "")).split(",")[0]
        == str(price))


def buy(corporation):
    return Move(lambda m, g: m["type"] == "buy_shares" and (corporation is None or str(
        (m.get("shares") or [""])[0]).startswith(corporation + "_")))


def kind(name, **fields):
    return Move(lambda m, g: m["type"] == name and all(m.get(k) == v for k, v in
                                                        fields.items()))


passes = kind("pass")


# Per title: players, seed, whom the guide follows, the scripts, and how the game was made.
EXAMPLES = {
    "1893": dict(
        players=4, seed=1, follow={"player": 1, "companies": ["EKB", "DE"]},
        scripts={0: [bid("EKB"), bid("HdSK"), par("DE", 60), passes],
                 1: [bid("KFBE"), bid("BKB"), buy("DE"), passes],
                 2: [bid("KSZ"), bid("EVA"), buy("DE"), buy("DE")],
                 3: [bid("KBE"), passes]},
        made_by="The game was played by tracklayer's greedy bot; the first stock round was "
                "scripted so that Player 1 buys minor 1 (EKB) and starts DE, and the others "
                "buy enough of DE to float it."),
    "1849": dict(
        players=4, seed=1, follow={"player": 1, "companies": ["PL"]},
        scripts={0: [bid("RSA", 155), passes], 1: [bid("SCE"), bid("SMS")],
                 2: [bid("SIGI")], 3: [bid("CNM")]},
        made_by="The game was played by tracklayer's greedy bot; the opening auction was "
                "scripted so that Player 1 bids on RSA, which brings the president's "
                "certificate of the first corporation, while the others buy the cheaper "
                "private companies."),
    "1871": dict(
        players=4, seed=1, follow={"player": 1, "companies": ["Gt"]},
        scripts={0: [passes.when("offers Schreiber"), bid("ML", 165)],
                 1: [passes.when("Player 1 bids $165 for Mainline")]},
        made_by="The game was played by tracklayer's greedy bot; in the opening auction "
                "Player 1 was scripted to leave SBC to others and bid $165 on the Mainline "
                "Concession, and Player 2 to let it go."),
    "1817NA": dict(
        players=4, seed=1, follow={"player": 1, "companies": ["PLE"]},
        scripts={0: [bid("MINM", 45),
                     Move(lambda m, g: m["type"] == "bid" and m.get("corporation") == "PLE",
                          140),
                     kind("place_token", city="I13-7-0"), kind("assign", target="MINM")],
                 1: [passes.when("Minor Mail")], 2: [passes.when("Minor Mail")],
                 3: [passes.when("Minor Mail")]},
        made_by="The game was played by tracklayer's greedy bot; Player 1 was scripted to "
                "win the Minor Mail Contract for $45 and to found PLE in Guadalajara with a "
                "bid of $140, paid partly with the contract."),
}


def two_operating_rounds_over(game, seen) -> bool:
    """Whether the game's second operating round is over (and the merger and acquisition
    rounds that follow it, where the title has them)."""
    r = game.table.state.round
    if r.is_operating and (game.table.state.turn, r.number) not in seen:
        seen.append((game.table.state.turn, r.number))
    return len(seen) > 2 or (len(seen) == 2 and not r.is_operating and not r.is_merger)


def make(name: str, log: bool = False) -> dict:
    spec = EXAMPLES[name]
    title = title_like(name)
    n, seed = spec["players"], spec["seed"]
    game = Game(title, [(i + 1, f"Player {i + 1}") for i in range(n)], seed=seed,
                optional_rules=spec.get("rules", ()), keep_log=True,
                route_planner=plan_routes, snapshot_every=None)
    bots = [ExampleBot(seed * 100 + i) for i in range(n)]
    scripts = {k: list(v) for k, v in spec["scripts"].items()}
    seen: list = []
    while not game.is_over and not two_operating_rounds_over(game, seen):
        seat = seat_to_act(game) or 0
        h = None
        script = scripts.get(seat)
        if script:
            h = script[0].find(game)
            if h is not None:
                script.pop(0)
        if h is None:
            h = bots[seat].choose(game, seat)
        game.apply(dict(h, id=len(game.actions) + 1), auto=True)
    left = {k: len(v) for k, v in scripts.items() if v}
    if left:
        raise SystemExit(f"{name}: scripted moves never became legal: {left}")
    if log:
        print("\n".join(game.table.messages))
    export = game.export()
    return {"title": export["title"], "players": export["players"],
            "settings": export["settings"], "follow": spec["follow"],
            "made_by": spec["made_by"], "actions": export["actions"]}


def main(names) -> None:
    for name in names or list(EXAMPLES):
        data = make(name)
        path = OUT / f"{slug(title_like(name))}.json"
        head = {k: v for k, v in data.items() if k != "actions"}
        text = json.dumps(head, ensure_ascii=False)[:-1] + ', "actions": [\n' + ",\n".join(
            json.dumps(a, ensure_ascii=False) for a in data["actions"]) + "\n]}\n"
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {len(data['actions'])} actions")


if __name__ == "__main__":
    main(sys.argv[1:])
