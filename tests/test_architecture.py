"""ARCHITECTURE.md tells the truth: its example title, run as written, is a playable game,
and it describes every module of the package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tracklayer.game import Game
from tracklayer.history import in_force
from tracklayer.io.export import replay
from tracklayer.randomplay import play_random, sensible_weight
from tracklayer.titles import TITLES

DOC = Path(__file__).resolve().parent.parent / "ARCHITECTURE.md"
PACKAGE = DOC.parent / "tracklayer"


def example_title():
    """The example title of ARCHITECTURE.md, from its code blocks for titles/tiny."""
    text = DOC.read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S)
              if b.startswith("# titles/tiny/")]
    assert len(blocks) == 2
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
    return namespace["TITLE"]


def test_the_example_title_sets_up_a_game():
    tiny = example_title()
    game = Game(tiny, [(1, "Ann"), (2, "Bob")], seed=7)
    assert not game.is_over
    assert game.legal_actions()
    assert {c.sym for c in game.state.corporations} == {"RED", "BLU"}
    assert tiny.name not in TITLES


@pytest.mark.parametrize("seed", [1, 2])
def test_the_example_title_plays_to_its_end(seed, monkeypatch):
    tiny = example_title()
    game = play_random(tiny, 2, seed, max_actions=2000, weight=sensible_weight)
    assert game.is_over and game.end_reason == "bank"
    assert game.total_money() == game.starting_money
    assert any(c.trains or c.cash for c in game.state.corporations)
    monkeypatch.setitem(TITLES, tiny.name, tiny)
    again = replay(game.export())
    assert again.result() == game.result()
    assert len([h for h in in_force(game.export()["actions"]) if h]) == len(game.actions)


def test_every_module_is_described():
    text = DOC.read_text(encoding="utf-8")
    for path in sorted(PACKAGE.rglob("*.py")):
        name = str(path.relative_to(PACKAGE.parent))
        if path.name == "__init__.py" and path.stat().st_size == 0:
            continue
        assert f"`{name}`" in text, f"{name} is not in ARCHITECTURE.md"
