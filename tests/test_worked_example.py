"""The guides' worked examples (issue: guides a new player learns from): every title ships a
short game, and its guide tells it move by move from the first round to the end of the
second operating round. Every number the example states is checked here against a
replay of the game of its own: each sum and product is right, each result said to be a
player's cash, a treasury or a share price is that value after that move, each state
panel is the game's, and every payment is accounted for."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tracklayer.guide.arith import Calc, Value
from tracklayer.guide.build import guide
from tracklayer.guide.document import render
from tracklayer.guide.example import example_path, section, worked
from tracklayer.io.export import open_game
from tracklayer.snapshot import collector_paused
from tracklayer.titles import TITLES
from tracklayer.trace import snapshot

ROOT = Path(__file__).resolve().parent.parent


def states_of(data: dict) -> dict:
    """The game's state (trace format) before any move (-1) and after each one."""
    with collector_paused():
        game = open_game(data, keep_log=False)
        out = {-1: snapshot(game, -1, {})}
        for index, entry in enumerate(data["actions"]):
            game.apply(entry)
            out[index] = snapshot(game, index, entry)
    return out


def value_of(state: dict, of) -> int:
    kind, key = of
    if kind == "cash":
        return state["players"][key]["cash"]
    if kind == "price":
        return state["corporations"][key]["price"]
    held = state["corporations"].get(key) or state["minors"].get(key)
    return held["cash"]


@pytest.fixture(scope="module", params=sorted(TITLES))
def example(request):
    title = TITLES[request.param]
    w = worked(title)
    assert w is not None, f"no worked example shipped for {title.name}"
    return w, states_of(w.data)


def test_every_sum_holds_and_every_result_is_the_engines(example):
    w, states = example
    checked = 0
    for calc in w.calcs():
        assert calc.holds(), calc
        if calc.of is not None:
            assert calc.at in states, calc
            assert value_of(states[calc.at], calc.of) == calc.result.value, \
                f"{calc.of} after entry {calc.at}: {calc.text(w.ctx.money)}"
            checked += 1
    sums = [c for c in w.calcs() if isinstance(c, Calc) and c.ops]
    assert checked >= 20 and len(sums) >= 20
    prices = [c for c in w.calcs() if isinstance(c, Value) and c.of and c.of[0] == "price"]
    assert prices, "share price moves are stated and checked"


def test_each_panel_is_the_games_state_after_its_step(example):
    w, states = example
    for step in w.steps:
        assert w.panel(step.state) == w.panel(states[step.index]), f"step {step.number}"
    shown = [v for s in w.steps for _, v in w.panel(s.state)]
    assert any(isinstance(v, int) and v > 0 for v in shown)


def test_every_move_is_told_once_from_the_first_round_to_the_second_operating_round(example):
    w, _ = example
    moves = [m.index for s in w.steps for m in s.moments]
    assert moves == list(range(len(w.data["actions"])))
    assert w.steps[0].moments[0].index == 0
    operating = list(dict.fromkeys(s.taken_in for s in w.steps
                                   if s.taken_in.startswith("Operating Round")))
    assert len(operating) == 2
    last = w.steps[-1].moments[-1]
    assert last.round_after not in operating
    assert any(s.taken_in.startswith("Stock Round") for s in w.steps)
    followed = [s for s in w.steps if any(m.actor_id == w.ctx.player or
                                          m.actor_id in w.ctx.companies for m in s.moments)]
    assert len(followed) >= 8


def test_every_payment_is_accounted_for_and_every_move_has_its_rule(example):
    """No purse changes by an amount the explanation cannot name ("other"); the rules of
    the moves are stated (once each)."""
    w, _ = example
    text = render(section(w), "md")
    assert not re.search(r"[+−]\S+ other[;)]", text)
    rules = re.findall(r"^- Rule: (.+)$", text, re.M)
    assert len(rules) >= 4 and len(rules) == len(set(rules))
    assert "Rule: ." not in text


def test_the_guide_holds_its_worked_example_by_default(example):
    w, _ = example
    doc = guide(w.title)
    found = doc.find("Round by round")
    steps = [s for s in found.sections() if s.title[0].isdigit()]
    assert len(steps) == len(w.steps) >= 10
    assert all(any(type(b).__name__ == "Table" for b in s.blocks) for s in steps)
    assert found.find("What next").blocks


def test_the_old_prince_mainline_floats_at_half_with_its_capital():
    """1871: the Mainline starts at $92 and floats once 50% is out of the bank (the
    seed's summary; 18xx.games), receiving 10 × $92; the guide does not say it starts
    floated."""
    title = TITLES["The Old Prince 1871"]
    w = worked(title)
    text = render(section(w), "md")
    assert re.search(r"floats, its 50% reached \(.*\); full capitalisation: .*"
                     r"10 × \$92 = \$920", text)
    page = render(guide(title), "md")
    assert "The Mainline starts floated" not in page
    assert "The Mainline starts at $92 and floats at 50%" in page
    assert "floats once 50% of it is out of the bank" in page


def test_the_examples_are_shipped_with_the_package():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'"tracklayer\.guide"\s*=\s*\[[^\]]*"examples/\*\.json"', text)
    for title in TITLES.values():
        data = json.loads(example_path(title).read_text(encoding="utf-8"))
        assert data["title"] == title.name and data["follow"]["player"]
        assert not any(a["type"] in ("undo", "redo", "message") for a in data["actions"])
