"""Proposals in the web app: trades between different owners (``play.consent``) that wait
for the other side's answer, kept in the database so that a restart loses none.

An action that takes what another seat holds is not applied when posted: it becomes a
proposal (the API answers 202 with it). While it waits the game stands still: its
responder may accept or decline it, its proposer withdraw it, and nobody takes another
action (chat goes on). Accepted, it is applied and stored as the proposer's action;
declined or withdrawn, nothing changes and the proposer goes on with their turn. A bot
answers by its own judgement (``play.dealing``) and does not propose again a deal declined
at that position. Every proposal and answer is announced on the game's live stream
(event ``proposal``)."""

from __future__ import annotations

import json
from typing import List, Optional

from ..errors import GameError
from ..play import consent
from ..play.consent import Negotiation, Proposal
from .bots import make_bot
from .events import NOTICE
from .refusal import Refusal



def _seat_index(live, player_id: int) -> Optional[int]:
    for i, (pid, _name) in enumerate(live.game.player_specs):
        if pid == player_id:
            return i
    return None


def _player_id(live, seat: int) -> int:
    return live.game.player_specs[seat][0]


def load(store, live) -> Negotiation:
    """The game's proposals as the play layer holds them: the one pending and those
    answered where play stands (a pending one made where play no longer stands lapses)."""
    talks = Negotiation()
    at = len(live.game.actions)
    for pid, made_at, proposer_id, responder_id, action, text, deal, status in \
            store.proposals_in_play(live.id, at):
        proposer, responder = _seat_index(live, proposer_id), _seat_index(live, responder_id)
        if proposer is None or responder is None:
            continue
        p = Proposal(json.loads(action), proposer, responder, made_at, text, status,
                     tuple(json.loads(deal)), pid)
        if status == consent.PENDING and made_at != at:
            store.answer_proposal(pid, consent.VOID)
        elif status == consent.PENDING:
            talks.pending = p
        else:
            talks.answered.append(p)
    return talks


def as_api(live, p: Proposal) -> dict:
    """A proposal as the API shows it: players by id."""
    return {"id": p.id, "action": p.action, "proposer": _player_id(live, p.proposer),
            "responder": _player_id(live, p.responder), "at": p.at, "text": p.text,
            "status": p.status}


def row_as_api(row) -> dict:
    return {"id": row.id, "action": json.loads(row.action), "proposer": row.proposer,
            "responder": row.responder, "at": row.at, "text": row.text,
            "status": row.status}


class Desk:
    """The service's proposals: made from posted actions, answered, listed."""

    def __init__(self, service) -> None:
        self.service = service

    def waiting(self, live):
        """The refusal of a game action while a proposal waits."""
        p = live.talks.pending
        who = live.seat(_player_id(live, p.responder))
        return Refusal(409, f"waiting for {who.name if who else 'the other side'} to "
                       f"answer: {p.text}")

    def propose(self, live, seat, entry: dict) -> dict:
        """A proposal of ``entry`` by ``seat`` (under the game's lock): stored, announced."""
        index = _seat_index(live, seat.player_id)
        try:
            p = live.talks.propose(live.game, index, entry)
        except GameError as e:
            raise Refusal(422, str(e))
        store = self.service.store
        p.id = store.add_proposal(live.id, p.at, seat.player_id,
                                  _player_id(live, p.responder), p.action, p.text,
                                  list(p.key))
        if p.id is None:
            live.talks.pending = None
            raise Refusal(409, "another proposal is waiting: reload the game")
        live.talks_noted(made=1, pending=1)
        self.announce(live, p)
        return {"proposal": as_api(live, p)}

    def answer(self, game_id: int, tokens, proposal_id: int, how: str) -> dict:
        """``how``: accept or decline (by the responder's seat), or withdraw (by the
        proposer's), among the seats the token(s) hold (a hotseat cookie holds several)."""
        service = self.service
        live = service.get(game_id)
        with live.lock:
            seats = service._seats_held(live, tokens, fresh=True)
            p = live.talks.pending
            if p is None or p.id != proposal_id:
                raise Refusal(409, f"proposal {proposal_id} is not waiting for an "
                               "answer (reload the game)")
            side = p.proposer if how == "withdraw" else p.responder
            indices = [_seat_index(live, s.player_id) for s in seats]
            stored = self.settle(live, side if side in indices else indices[0], how)
            start = service.claim_bots(live)
        if start:
            service.start_bots(live)
        return stored

    def settle(self, live, index: int, how: str) -> dict:
        """Answer the pending proposal for the seat ``index`` (under the game's lock): the
        answer is claimed in the database first (so that two workers cannot both answer),
        then an accepted proposal's action is applied and stored as the proposer's."""
        talks = live.talks
        answers = {"accept": talks.accept, "decline": talks.decline,
                   "withdraw": talks.withdraw}
        if how not in answers:
            raise Refusal(404, f"a proposal is accepted, declined or withdrawn, not {how}")
        try:
            p = answers[how](index)
        except GameError as e:
            raise Refusal(403, str(e))
        store = self.service.store
        if not store.answer_proposal(p.id, p.status):
            live.talks = load(store, live)
            raise Refusal(409, "the proposal was answered meanwhile: reload the game")
        live.talks_noted(pending=-1)
        out = {}
        if p.status == consent.ACCEPTED:
            try:
                out["entry"] = self.service._apply_and_store(
                    live, dict(p.action, id=live.number + 1))
            except Refusal as e:
                p.status = consent.VOID
                store.answer_proposal(p.id, consent.VOID, was=consent.ACCEPTED)
                live.talks_noted(void=1)
                self.announce(live, p)
                raise Refusal(409, f"the proposal no longer holds: {e.message}")
        self.announce(live, p)
        out["proposal"] = as_api(live, p)
        return out

    def listing(self, game_id: int) -> dict:
        """The pending proposal (or null) and the game's latest proposals."""
        service = self.service
        live = service.get(game_id)
        with live.lock:
            pending = live.talks.pending
            return {"pending": as_api(live, pending) if pending else None,
                    "proposals": [row_as_api(r) for r in service.store.proposals(game_id)]}

    def announce(self, live, p: Proposal) -> None:
        self.service.publish(live.id, NOTICE, {"proposal": as_api(live, p)})

    # -- bots -----------------------------------------------------------------------------

    def bot_answers(self, live) -> Optional[bool]:
        """If a bot is to answer the pending proposal, its answer is given (True); False
        if a person is to answer; None if nothing is pending."""
        p = live.talks.pending
        if p is None:
            return None
        seat = live.seat(_player_id(live, p.responder))
        if seat is None or not seat.bot:
            return False
        bot = make_bot(seat.bot, live.game.seed)
        yes = bot.answer(live.game, p.responder, p)
        self.settle(live, p.responder, "accept" if yes else "decline")
        return True

    def declined(self, live, seat) -> List[tuple]:
        return live.talks.declined_keys(live.game, _seat_index(live, seat.player_id))


def for_view(live, mine) -> dict:
    """What the page shows of proposals to the seats ``mine`` viewing it: the one pending
    (in words, "your" to its responder; whether the viewer may answer or withdraw it, as
    the seat holding that side: the page's cookie says which) and those answered where
    play stands. No token is ever put in the page."""
    game = live.game
    names = {s.player_id: s.name for s in live.seats}
    own = {s.player_id for s in mine}
    p = live.talks.pending
    pending = None
    if p is not None:
        responder, proposer = _player_id(live, p.responder), _player_id(live, p.proposer)
        deal = consent.deal_of(game, p.action)
        text = consent.describe(game, deal, to=p.responder if responder in own else None) \
            if deal is not None else p.text
        pending = {"id": p.id, "text": text, "responder": names.get(responder, ""),
                   "proposer": names.get(proposer, ""),
                   "may_answer": responder in own,
                   "may_withdraw": proposer in own and responder not in own}
    recent = [{"text": q.text, "status": q.status, "mine": _player_id(live, q.proposer) in own,
               "responder": names.get(_player_id(live, q.responder), "")}
              for q in live.talks.answered]
    return {"pending": pending, "recent": recent}
