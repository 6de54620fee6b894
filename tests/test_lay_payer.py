"""Who pays for a tile lay (``turns/laying.py`` ``TrackStep.payer``): the listing's filter
of unaffordable lays (``may_pay``) and the judge (``_paid_for``) ask the same payer, so a
lay the payer cannot afford is neither listed nor accepted, and one it can is both. 1817's
private companies lay for the corporation owning them, which pays."""

from __future__ import annotations

import pytest

from tracklayer.actions import read
from tracklayer.errors import GameError
from tracklayer.io.export import load_export, open_game
from tracklayer.state.model import CompanyState
from tracklayer.turns import laying

from conftest import FIXTURES

GAME = FIXTURES / "1817NA" / "20584.json"
COMPANY_LAY_AT = 142     # the coal mine company MINC may lay a 7 on G19 for its owner
PRICE = 50


def position():
    """The game before action ``COMPANY_LAY_AT`` (a copy), with the company's lay
    listed there."""
    if not GAME.is_file():
        pytest.skip(f"{GAME} is not present")
    data = load_export(str(GAME))
    game = open_game(data, keep_log=False)
    for h in data["actions"][:COMPANY_LAY_AT]:
        game.apply(h)
    lay = next(h for h in game.legal_actions()
               if h["type"] == "lay_tile" and h.get("entity_type") == "company")
    return game.clone(), lay     # nothing worked out at the position kept


def judged_affordable(table, lay: dict) -> bool:
    """Does the judge accept the lay, or refuse it for anything but the money?"""
    try:
        table.round.judge(read(table, lay))
    except GameError as e:
        return "cannot spend" not in str(e)
    return True


@pytest.mark.parametrize("cash, affordable", [(PRICE - 1, False), (PRICE, True)])
def test_a_companys_lay_is_paid_by_its_owner_when_listed_and_when_judged(
        monkeypatch, cash, affordable):
    game, lay = position()
    table = game.table
    action = read(table, lay)
    company = action.entity
    assert isinstance(company, CompanyState)
    step = table.round.step_for(company, "lay_tile")
    operator = company.owner
    assert step.payer(company) is operator
    monkeypatch.setattr(laying, "price_of_lay", lambda *args: (0, PRICE))
    operator.cash = cash
    allowance = step.allowance(company)
    listed = step.may_pay(company, allowance, action.hex, action.tile, action.rotation)
    assert listed is affordable
    assert judged_affordable(table, lay) is affordable
