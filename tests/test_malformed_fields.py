"""Malformed fields are refused, not ignored: a ``take_loan`` or ``payoff_loan`` whose
``loan`` is not one of the bank's loans (or is missing: 18xx.games needs it) is an
``ActionError`` and changes nothing; the recorded action is then accepted. The positions
are from the real 1817NA game 20584 (skipped without ../shared). Other malformed fields
(a buying program without its corporation, a ``run_routes`` whose ``extra_revenue`` is
not a whole number) are cases of ``test_illegal_actions.py``."""

from __future__ import annotations

import pytest

from conftest import FIXTURES
from synthetic_1893 import state
from tracklayer.errors import ActionError, GameError
from tracklayer.io.export import load_export, open_game

GAME = FIXTURES / "1817NA" / "20584.json"
BAD_LOANS = [pytest.param(v, id=repr(v)) for v in (-5, 10 ** 9, 56, "garbage", "0", 3.5,
                                                    True, None, [0])]


def before_entry(index: int):
    if not GAME.exists():
        pytest.skip(f"{GAME} is not present (the shared test data)")
    data = load_export(str(GAME))
    game = open_game(data)
    for h in data["actions"][:index]:
        game.apply(h)
    return game, data["actions"][index]


def refused(game, h: dict, error=ActionError) -> str:
    before = state(game)
    with pytest.raises(error) as raised:
        game.apply(h)
    assert state(game) == before
    return str(raised.value)


@pytest.mark.parametrize("kind, index", [("take_loan", 137), ("payoff_loan", 229)])
@pytest.mark.parametrize("bad", BAD_LOANS)
def test_a_loan_that_is_no_loan_of_the_bank_is_refused(kind, index, bad):
    """Before H takes a loan (entry 137) and NYOW repays one (entry 229): the same
    action naming no loan (a negative number, one past the bank's 56, text, a fraction,
    a boolean, nothing, a list) is refused as malformed and changes nothing; the
    recorded one is then accepted."""
    game, recorded = before_entry(index)
    assert recorded["type"] == kind
    h = {k: v for k, v in recorded.items() if k != "loan"}
    if bad is not None:
        h["loan"] = bad
    message = refused(game, h)
    assert ("needs 'loan'" if bad is None else "is not one of the bank's loans") in message
    game.apply(recorded)


def test_a_corporation_without_loans_cannot_repay_one():
    """Before entry 229: a well-formed payoff_loan by a corporation owing nothing is
    refused by the rule, changing nothing."""
    game, recorded = before_entry(229)
    acting = game.table.corporation(recorded["entity"])
    debtless = next((c for c in game.table.state.corporations
                     if c is not acting and c.started and not c.loans), None)
    if debtless is None:
        pytest.skip("every started corporation owes a loan here")
    refused(game, {"type": "payoff_loan", "entity": debtless.sym,
                   "entity_type": "corporation", "loan": 0}, GameError)
    game.apply(recorded)


@pytest.mark.parametrize("bad", [pytest.param(v, id=repr(v)) for v in (51.5, "60", True)])
def test_a_price_that_is_no_whole_number_is_refused_for_what_it_is(bad):
    """Money is whole numbers: a bid, a company's or a train's price of 51.5, text or true
    is refused as such (not as a bid below the minimum), and nothing changes. The first
    bids of the real 1817NA game 20584."""
    game, h = before_entry(0)
    assert h["type"] == "bid"
    message = refused(game, dict(h, price=bad))
    assert "'price' must be a whole number" in message
    game.apply(h)
