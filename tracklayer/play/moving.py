"""A bot's move in a game between seats: the bot whose turn it is moves, and a move that
takes what another seat holds is a proposal the other seat's bot answers (``consent``).
Self-play and the planner's look-ahead play games this way."""

from __future__ import annotations

from typing import Optional, Sequence

from ..game import Game
from . import consent
from .consent import Negotiation
from .seats import seat_to_act


def bot_move(game: Game, players: Sequence, talks: Negotiation,
             deals: Optional[dict] = None) -> Optional[dict]:
    """The move of the bot whose turn it is, to apply; None when it proposed a deal the
    other side declined (the proposer then moves again). A deal the other bot accepts is
    the proposer's move."""
    seat = seat_to_act(game)
    seat = seat if seat is not None else 0
    h = players[seat].choose(game, seat, talks.declined_keys(game, seat))
    if consent.deal_of(game, h) is None:
        return h
    proposal = talks.propose(game, seat, h, check=False)
    if deals is not None:
        deals["proposed"] += 1
    if players[proposal.responder].answer(game, proposal.responder, proposal):
        talks.accept(proposal.responder)
        if deals is not None:
            deals["accepted"] += 1
        return dict(proposal.action)
    talks.decline(proposal.responder)
    if deals is not None:
        deals["declined"] += 1
    return None
