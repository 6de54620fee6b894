"""Trades between different owners need the other side's consent.

At the table a player may not take what another holds without asking: a private company,
a train or a corporation passing from one player's holding to another's is a proposal,
which the other side accepts or declines (on 18xx.games players agree in chat first). The
rules engine does not ask: a replayed or imported game applies its actions directly, the
record being the consent. This module is the one mechanism the web app, the terminal and
self-play share.

A **deal** is an action that moves something held by one seat to another seat's holding
(seats as :mod:`tracklayer.play.seats` finds who decides):

- ``buy_company`` (and 1893's ``buy_corporation``, a minor's card): a private company held
  by a player or a company, bought by an entity another seat decides for — an operator
  buying its president's own company asks nobody;
- ``buy_train``: a train of an operator another seat decides for;
- ``merge``: 1817's merger of a corporation with one another seat presides over.

The seat deciding for the holder must consent. A **proposal** is such an action waiting for
that answer: accepted, it is applied as the proposer's action (in the log as theirs);
declined, nothing changes and the proposer goes on with their turn (and a bot does not
propose the same deal again at that position); the proposer may withdraw it. While it
waits, the responder is to act (and the proposer, to withdraw).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import List, Optional

from ..errors import GameError
from ..game import Game
from ..state.model import CompanyState, OperatorState, PlayerState
from ..turns.listing import concrete, value_range
from .seats import deciding_seat, decider, entity_of, player_at, seat_of

PENDING, ACCEPTED, DECLINED, WITHDRAWN, VOID = (
    "pending", "accepted", "declined", "withdrawn", "void")


@dataclass(frozen=True)
class Deal:
    """What an action takes from another seat: ``what`` is ``"private"``, ``"train"`` or
    ``"corporation"``; ``thing`` the company, train or corporation; ``holder`` who holds
    it; ``buyer`` who takes it; ``price`` what is paid (None for a merger)."""
    what: str
    thing: object
    holder: object
    buyer: object
    price: Optional[int]
    proposer: int
    responder: int
    key: tuple              # the deal whatever its price: (kind, entity, thing)
                            # (a train by its holder and kind)


def _held_company(game: Game, action: dict):
    table = game.table
    if action["type"] == "buy_corporation":
        return table.find("company", action.get("minor"))
    return table.find("company", action.get("company"))


def _thing(game: Game, action: dict):
    """``(what, thing, holder)`` the action takes, or None."""
    table = game.table
    kind = action.get("type")
    if kind in ("buy_company", "buy_corporation"):
        company = _held_company(game, action)
        if isinstance(company, CompanyState) and \
                isinstance(company.owner, (PlayerState, OperatorState, CompanyState)):
            return "private", company, company.owner
    elif kind == "buy_train":
        train = table.find("train", action.get("train"))
        if train is not None and isinstance(train.owner, OperatorState):
            return "train", train, train.owner
    elif kind == "merge":
        other = table.find("corporation", action.get("corporation"))
        if isinstance(other, OperatorState):
            return "corporation", other, other
    return None


def deal_of(game: Game, action: dict) -> Optional[Deal]:
    """The deal ``action`` is, if it takes something another seat holds; else None (a
    trade within one seat's holdings, or with the bank, asks nobody)."""
    if not isinstance(action, dict):
        return None
    found = _thing(game, action)
    if found is None:
        return None
    what, thing, holder = found
    proposer = deciding_seat(game, action)
    responder = seat_of(game, decider(game, holder))
    if proposer is None or responder is None or proposer == responder:
        return None
    price = action.get("price") if what != "corporation" else None
    # the deal whatever its price; trains alike from one holder are one deal (a seat
    # that declined one 2-train of a company declined its others too)
    thing_key = f"{_name(holder)}:{thing.name}" if what == "train" else _name(thing)
    key = (action["type"], str(action.get("entity")), what, thing_key)
    return Deal(what, thing, holder, entity_of(game, action), price, proposer, responder, key)


def fair_price(deal: Deal) -> Optional[int]:
    """What the thing is worth at face: a private's face value, the depot price of a
    train of its kind; None for a merger (no price)."""
    if deal.what == "private":
        return deal.thing.value
    if deal.what == "train":
        return deal.thing.variant.price
    return None


def _name(entity) -> str:
    """A player's name, a company's or operator's symbol, a train's id."""
    if isinstance(entity, (OperatorState, CompanyState)):
        return entity.sym
    if isinstance(entity, PlayerState):
        return entity.name
    return entity.id


def describe(game: Game, deal: Deal, to: Optional[int] = None) -> str:
    """The deal in words, as the proposer puts it (to the responder's seat ``to``: "your
    3-train")."""
    table = game.table
    proposer = player_at(game, deal.proposer).name
    responder = player_at(game, deal.responder)
    holder = deal.holder
    owner = "your" if to == deal.responder else f"{responder.name}'s"
    if deal.what == "corporation":
        return (f"{proposer} proposes that {_name(deal.buyer)} merges with "
                f"{owner} {_name(deal.thing)}")
    thing = f"{deal.thing.name}-train" if deal.what == "train" else _name(deal.thing)
    if holder is not responder and not isinstance(holder, PlayerState):
        thing = f"{thing} of {_name(holder)}"
    price = table.money(deal.price) if deal.price is not None else "?"
    if deal.buyer is player_at(game, deal.proposer):
        return f"{proposer} proposes to buy {owner} {thing} for {price}"
    return f"{proposer} proposes that {_name(deal.buyer)} buys {owner} {thing} for {price}"


@dataclass
class Proposal:
    """A deal waiting for (or given) its answer: ``action`` is the proposer's action,
    ready to apply; ``at`` the position it was made in (actions taken by then)."""
    action: dict
    proposer: int
    responder: int
    at: int
    text: str
    status: str = PENDING
    key: tuple = ()
    id: Optional[int] = None

    def as_dict(self) -> dict:
        out = asdict(self)
        out["key"] = list(self.key)
        return out


def _checked(game: Game, action: dict) -> None:
    """Refuse an action the rules refuse now (``Game.check``: the rules' check of the
    action, as applying it makes first; nothing changes)."""
    game.check(dict(action, id=len(game.actions) + 1))


@dataclass
class Negotiation:
    """The proposals of one game: the one pending, and those answered at the position
    where play stands (declined ones keep bots from proposing them again there)."""
    pending: Optional[Proposal] = None
    answered: List[Proposal] = field(default_factory=list)

    def forget_old(self, game: Game) -> None:
        at = len(game.actions)
        self.answered = [p for p in self.answered if p.at == at]

    def propose(self, game: Game, seat: int, action: dict, check: bool = True) -> Proposal:
        """``seat`` proposes ``action`` (a deal it decides); refused (GameError) if it is
        no deal, not that seat's, illegal now, or another proposal is waiting."""
        if self.pending is not None:
            raise GameError("a proposal is waiting for its answer: "
                            f"{self.pending.text}")
        action = {k: v for k, v in action.items() if k != "id"}
        if value_range(action):
            action = concrete(action)
        deal = deal_of(game, action)
        if deal is None:
            raise GameError(f"{action.get('type')} by {action.get('entity')} needs nobody's "
                            "consent")
        if deal.proposer != seat:
            raise GameError(f"seat {seat + 1} does not decide for {action.get('entity')}")
        if check:
            _checked(game, action)
        self.forget_old(game)
        self.pending = Proposal(action, deal.proposer, deal.responder, len(game.actions),
                                describe(game, deal), key=deal.key)
        return self.pending

    def _answer(self, seat: int, who: str, status: str) -> Proposal:
        p = self.pending
        if p is None:
            raise GameError("no proposal is waiting")
        if seat != (p.responder if who == "responder" else p.proposer):
            verb = {ACCEPTED: "accept", DECLINED: "decline", WITHDRAWN: "withdraw"}[status]
            raise GameError(f"only the {who} may {verb} this proposal ({p.text})")
        p.status = status
        self.pending = None
        self.answered.append(p)
        return p

    def accept(self, seat: int) -> Proposal:
        """The responder accepts: the proposal's action is for the caller to apply."""
        return self._answer(seat, "responder", ACCEPTED)

    def decline(self, seat: int) -> Proposal:
        return self._answer(seat, "responder", DECLINED)

    def withdraw(self, seat: int) -> Proposal:
        return self._answer(seat, "proposer", WITHDRAWN)

    def declined_keys(self, game: Game, seat: int) -> List[tuple]:
        """The deals ``seat`` proposed and had declined (or withdrew) where play stands."""
        at = len(game.actions)
        return [p.key for p in self.answered
                if p.proposer == seat and p.at == at and p.status in (DECLINED, WITHDRAWN)]

    def acting_seats(self) -> List[int]:
        """While a proposal waits: its responder, then its proposer (who may withdraw)."""
        p = self.pending
        return [p.responder, p.proposer] if p is not None else []
