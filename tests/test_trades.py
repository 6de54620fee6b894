"""The stock turn's trades (turns/trades.py) and the acquisition round's stages
(titles/family1817/offers.py): declarations a title chooses from, checked as such."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import FIXTURES, load_json
from tracklayer.io.export import positions
from tracklayer.rules import trading
from tracklayer.spec.settings import Settings
from tracklayer.titles.family1817.offers import KINDS, MOVES, Stage
from tracklayer.turns import trades
from tracklayer.turns.stock import StockTurn


def test_every_trade_rule_states_its_rule():
    for kind, rule in trades.TRADES + trades.FORCED_SALES:
        if rule.__name__ != "<lambda>":
            assert rule.__doc__, f"the rule for {kind} states no rule"
    assert [k for k, _ in trades.TRADES] == ["buy_shares", "par", "buy_company",
                                             "sell_shares", "sell_company"]


def test_trade_settings_are_typed():
    with pytest.raises(TypeError):
        Settings(frozen_cells="acquisition")
    with pytest.raises(TypeError):
        Settings(largest_sale=True)
    assert Settings().largest_sale == 0 and Settings().holding_limit_forces_sale


def test_the_acquisition_stages_move_only_as_the_table_says():
    targets = {to for moves in MOVES.values() for to in moves}
    assert set(MOVES) == set(Stage)
    assert targets == set(Stage), "every stage is reached by some move"
    assert MOVES[Stage.DONE] == ()
    assert set(KINDS) <= set(Stage) - {Stage.BETWEEN, Stage.DONE}


def _stock_turn_with_a_sale(path):
    """A position of a real game where the player in turn may sell a bundle of 20% or
    more, with the turn and that bundle."""
    for _, _, game in positions(load_json(path)):
        step = game.table.round.active_step()
        if not isinstance(step, StockTurn) or type(step).may_sell is not StockTurn.may_sell:
            continue
        player = step.actor()
        for certs in list(player.shares.values()):
            if not certs:
                continue
            for bundle in trading.sale_bundles(game.table, player, certs[0].corporation):
                if bundle.percent >= 20 and step.may_sell(player, bundle):
                    return game, step, player, bundle
    pytest.skip("no such position")


def test_a_title_limits_one_sale_by_its_setting():
    """``largest_sale`` (1871: 30%) is read by the one sale rule, for listing and
    applying alike."""
    path = FIXTURES / "1849KingdomoftheTwoSicilies" / \
        "1849KingdomoftheTwoSicilies_game_end_bank.json"
    if not path.exists():
        pytest.skip(f"{path} is not present (the shared test data)")
    game, step, player, bundle = _stock_turn_with_a_sale(path)
    table = game.table
    table.settings = dataclasses.replace(table.settings, largest_sale=bundle.percent - 10)
    assert not step.may_sell(player, bundle)
    table.settings = dataclasses.replace(table.settings, largest_sale=bundle.percent)
    assert step.may_sell(player, bundle)
