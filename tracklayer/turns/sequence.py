"""The order of rounds: an opening round (auction or draft), then stock rounds each
followed by the set of operating rounds the phase gives (its number fixed when the set
begins). Titles insert rounds of their own (1893's merger rounds)."""

from __future__ import annotations

from ..rules.table import Table
from ..spec.settings import PriorityDeal


def stock_round(table: Table, build):
    """A new stock round, built by ``build(table)``."""
    table.log(f"-- Stock Round {table.state.turn} --")
    table.state.round_count += 1
    return build(table)


def operating_round(table: Table, build, number: int = 1):
    """Operating round ``number`` of the set, built by ``build(table, number)``."""
    table.log(f"-- Operating Round {table.state.turn}.{number} --")
    table.state.round_count += 1
    return build(table, number)


def common_next_round(table: Table, stock, operating):
    """After a stock round, the set of operating rounds; after the last of the set, the
    next stock round; after the opening round, the first stock round."""
    r = table.round
    state = table.state
    if r.is_stock:
        state.operating_rounds = table.phase.operating_rounds
        reorder_players(table)
        return operating_round(table, operating)
    if r.is_operating:
        if r.number < state.operating_rounds:
            return operating_round(table, operating, r.number + 1)
        state.turn += 1
        return stock_round(table, stock)
    reorder_players(table)
    return stock_round(table, stock)


def reorder_players(table: Table, rule: PriorityDeal = None, silent: bool = False) -> None:
    """Seat the players for the next round as the priority deal ``rule`` (the title's,
    unless given) says (:data:`SEATINGS`), and tell who has it."""
    rule = rule or table.settings.priority_deal
    players = table.state.players
    players[:] = SEATINGS[rule](table, players)
    if not silent:
        table.log(f"{players[0].name} has priority deal")


def _after_last_to_act(table: Table, players: list) -> list:
    """The player after the last to act goes first (bankrupt players have no turn); the
    order around the table stays."""
    active = [p for p in players if not p.bankrupt]
    player = active[table.round.index % len(active)] if active else players[0]
    i = players.index(player)
    return players[i:] + players[:i]


def _in_pass_order(table: Table, players: list) -> list:
    """The first to pass goes first, and so on (no change if nobody passed)."""
    passed = table.round.notes.pass_order
    return list(passed) if passed else players


def _most_cash_first(table: Table, players: list) -> list:
    """Richest first; between equals, the one sitting later first."""
    current = list(reversed(players))
    return sorted(players, key=lambda p: (p.cash, current.index(p)), reverse=True)


def _least_cash_first(table: Table, players: list) -> list:
    """Poorest first; between equals, the one sitting earlier first."""
    current = list(players)
    return sorted(players, key=lambda p: (p.cash, current.index(p)))


# How each priority deal seats the players: the new order from the present one.
SEATINGS = {
    PriorityDeal.AFTER_LAST_TO_ACT: _after_last_to_act,
    PriorityDeal.FIRST_TO_PASS: _in_pass_order,
    PriorityDeal.MOST_CASH: _most_cash_first,
    PriorityDeal.LEAST_CASH: _least_cash_first,
}


def rotate_to(table: Table, player) -> None:
    """Seat ``player`` first, keeping the order around the table."""
    players = table.state.players
    i = players.index(player)
    players[:] = players[i:] + players[:i]
