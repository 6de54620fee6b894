"""The planner bot: greedy's judgement, with a look ahead where a decision shapes a
player's fortune.

At a decision that matters outside operating rounds (every move greedy rates highly is
one of ``WEIGHED``: shares, par prices, bids, loans, mergers), the planner takes greedy's
few best distinct moves (``CANDIDATES``), and a purchase or two of shares greedy would not
make (``ALTERNATIVES``: the companies paying most a certificate, its own beyond 40% too),
and plays each out on a copy of the game
(``Game.clone``): the move, then every seat played by greedy, deals answered as greedy
answers them, until the round ends (after a draft, an auction or a merger round, until
the stock round after it ends: what was bought there shows in what is started then) or
the move's share of the budget is spent. Each
outcome is valued for the planner's seat: its score by the title's rule plus what its
shares earn over the next ``HORIZON`` operating rounds at their companies' last revenues
less their loans' interest, less what may come to nothing (half of the shares of a
company not floated, all of one without a train that can neither buy nor borrow, the
loans a president may have to settle when its company is liquidated), less the best
such value among the other players (a lead, not a fortune, wins). The move
with the best outcome is played; greedy's own choice where outcomes tie, and in operating
rounds (where greedy tries its lays on a copy, and an action played out costs tenfold: a
budget counted in actions would overrun its time many times).

A private company that may be exchanged for shares is exchanged at the first chance,
without a look ahead (which values the private at its face value, blind to its closing).
Its companies take no loan that only deepens a debt (1817): none for a train the loans
cannot reach, none for interest the last revenue does not cover twice over.

The budget is seconds per move, counted in actions played on copies at a nominal rate
(``ACTIONS_PER_SECOND``, below what one core plays in a stock round: a weighed decision
took 0.08 s of CPU on average in a 1849 game), so that the same seed and position always
give the same move, on a loaded machine too.
"""

from __future__ import annotations

from typing import List, Optional

from ..errors import GameError
from ..game import Game
from ..rules import market, trains
from ..rules.certificates import certificate_price
from ..state.model import OperatorState, PlayerState
from ..turns.listing import concrete
from . import consent
from . import greedy_finance as finance
from .consent import Negotiation
from .greedy import GreedyBot
from .moving import bot_move
from .seats import player_at

WEIGHED = ("buy_shares", "sell_shares", "par", "bid", "buy_company", "buy_corporation",
           "pass", "dividend", "buy_train", "take_loan", "payoff_loan", "convert", "merge",
           "short")
CANDIDATES = 3          # greedy's best distinct moves played out
ALTERNATIVES = 2        # shares of paying companies greedy would not buy, played out too
ACTIONS_PER_SECOND = 2000  # the nominal rate the budget is counted at (a stock round's
#                            actions on a copy: about 2800 a second on one core in 1893)
HORIZON = 3             # operating rounds of income counted in an outcome's value
BUDGET_S = 0.1          # seconds a move by default
EXCHANGE = 200.0        # a private's exchange for shares: above buying shares of others and
#                         a second company's start, below a share of its own beyond the
#                         president's certificate
LIABLE = 0.5            # the share of a company's uncovered loans counted against its
#                         president (liquidation makes the president pay them)
STUCK = 0.5             # the share of its worth a certificate of a company not yet
#                         floated is counted as lost (it earns nothing, nor can be sold)


class PlannerBot(GreedyBot):
    """See the module docstring."""

    NAME = "planner"

    def __init__(self, seed: int = 0, budget_s: float = BUDGET_S) -> None:
        super().__init__(seed)
        self.budget_s = budget_s
        self.players: List[GreedyBot] = []

    def decide(self, game: Game, seat: int) -> dict:
        moves = self.options(game, seat)
        if not moves:
            raise ValueError("no legal move")
        scored = self.scores(game, player_at(game, seat), moves)
        choice = self.pick(game, seat, moves, scored)
        if consent.deal_of(game, choice) is not None or game.table.round.is_operating or \
                is_exchange(choice):
            return choice
        candidates = self.candidates(game, choice, moves, scored)
        if len(candidates) < 2:
            return choice
        steps = max(1, int(self.budget_s * ACTIONS_PER_SECOND) // len(candidates))
        best, best_value = choice, None
        for h in candidates:
            value = self.outcome(game, seat, h, steps)
            if value is not None and (best_value is None or value > best_value):
                best, best_value = h, value
        return best

    def score(self, game: Game, player, h: dict) -> float:
        """Greedy's score, and a private company's exchange for shares (``exchange``);
        no loan that only deepens a debt (``sound_loan``)."""
        if is_exchange(h):
            return self.exchange(game, h)
        if h["type"] == "take_loan" and not self.sound_loan(
                game, game.table.find(h.get("entity_type"), h.get("entity"))):
            return -2.0
        return super().score(game, player, h)

    def sound_loan(self, game: Game, entity) -> bool:
        """Does a loan keep a company alive (1817)? For one without a train that lasts,
        only if its loans can still reach the cheapest train; for one with a train, only
        while the interest stays within half its last revenue. Any other loan only raises
        the debt its president settles when the company is liquidated."""
        if not isinstance(entity, OperatorState):
            return True
        if not self.lasting(game, entity):
            reach = entity.cash + finance.loan_value(game) * max(
                0, finance.loan_limit(entity) - entity.loans)
            return reach >= trains.cheapest_price(game.table)
        return finance.affordable_loan(game, entity)

    def exchange(self, game: Game, h: dict) -> float:
        """A private company its owner may exchange for shares (1893's FdSD for 20% of
        RAG, 1871's for a Shortline share) is exchanged at the first chance, for the
        dearest share offered: the shares earn their company's dividends and grow with it,
        where the private earns a fixed income until it closes (FdSD in phase 5, unused),
        and the shares to be had run out."""
        cert = game.table.find("share", (h.get("shares") or [None])[0])
        if cert is None:
            return -1.0
        return EXCHANGE + (market.price(game.table, cert.corporation) or 0) / 100

    def candidates(self, game: Game, choice: dict, moves: List[dict],
                   scored: List[float]) -> List[dict]:
        """Greedy's choice and its next best distinct moves, priced, if all are of the
        kinds weighed (none when greedy's best is a lay, a token or a route)."""
        order = sorted(range(len(moves)), key=lambda i: -scored[i])
        out, seen = [choice], {what(choice)}
        for i in order:
            if len(out) >= CANDIDATES:
                break
            h = moves[i]
            if scored[i] < 0 and h["type"] != "pass":
                continue        # a move greedy would not make is not weighed
            if what(h) in seen or consent.deal_of(game, h) is not None:
                continue
            seen.add(what(h))
            out.append(self.priced(game, h))
        if any(h["type"] not in WEIGHED for h in out):
            return []
        return out + self.alternatives(game, moves, scored, seen)

    def alternatives(self, game: Game, moves: List[dict], scored: List[float],
                     seen: set) -> List[dict]:
        """Up to ``ALTERNATIVES`` purchases of shares greedy would not make, of the
        companies whose last run paid most a certificate (the certificate limit, not the
        money, is what runs out in a long game): greedy stops at 40% of its own company
        and buys others' only above a yield; whether more pays is for the look ahead to
        say."""
        table = game.table
        found = []
        for i, h in enumerate(moves):
            if h["type"] != "buy_shares" or scored[i] >= 0 or what(h) in seen:
                continue
            cert = table.find("share", (h.get("shares") or [None])[0])
            buyer = table.find(h.get("entity_type"), h.get("entity"))
            if cert is None or not cert.corporation.history or not cert.corporation.trains \
                    or not isinstance(buyer, PlayerState):
                continue
            corporation = cert.corporation
            price = market.price(table, corporation) or 0
            if buyer.cash - price < self.reserve(game, buyer):
                continue    # the money one of its companies may need for a train
            revenue = corporation.history[-1].revenue
            if revenue > 0 and price > 0:
                found.append((-revenue * cert.percent, len(found), h))
        found.sort(key=lambda t: t[:2])
        out = []
        for _, _, h in found:
            if len(out) >= ALTERNATIVES:
                break
            if what(h) not in seen:
                seen.add(what(h))
                out.append(self.priced(game, h))
        return out

    def rollout_players(self, game: Game) -> List[GreedyBot]:
        """The greedy bots that play the copies, one a seat (kept: what they work out once
        a game, the paying stops and homes, holds for every copy)."""
        if len(self.players) != len(game.player_specs):
            self.players = [GreedyBot(self.seed * 7919 + s)
                            for s in range(len(game.player_specs))]
        return self.players

    def outcome(self, game: Game, seat: int, h: dict, steps: int) -> Optional[float]:
        """The value for ``seat`` of playing ``h`` and then greedy for everyone, for up to
        ``steps`` actions within this round (None if ``h`` is refused)."""
        trial = game.clone()
        try:
            trial.apply(dict(concrete(h), id=len(trial.actions) + 1), auto=True)
        except GameError:
            return None
        players = self.rollout_players(game)
        talks = Negotiation()
        round_now = trial.table.round
        for _ in range(steps):
            if trial.is_over or ends_look(trial, round_now):
                break
            try:
                move = bot_move(trial, players, talks)
                if move is None:
                    continue
                move["id"] = len(trial.actions) + 1
                trial.apply(move, auto=True)
            except (GameError, ValueError):
                break
        return standing(trial, seat)


def is_exchange(h: dict) -> bool:
    """Is ``h`` a private company's exchange for shares (a purchase made by a company)?"""
    return h["type"] == "buy_shares" and h.get("entity_type") == "company"


def ends_look(trial: Game, started) -> bool:
    """Does a look ahead that started in round ``started`` stop here: once that round is
    over, and if it was not a stock round (a draft, an auction, a merger round), once
    the next round is over too (what was bought shows in the stock round after it)?"""
    now = trial.table.round
    if now is started:
        return False
    return started.is_stock or now.is_operating


def what(h: dict) -> tuple:
    """A move by what it does (shares of one company alike, whichever certificate)."""
    return (h["type"], h.get("entity"), h.get("corporation"), h.get("company"),
            h.get("kind"), h.get("share_price"), h.get("percent"),
            h.get("train", "").split("-")[0] if isinstance(h.get("train"), str) else None,
            shares_of(h))


def shares_of(h: dict) -> Optional[tuple]:
    """The company of the shares a move names, and how many."""
    ids = h.get("shares") or []
    return (str(ids[0]).rsplit("_", 1)[0], len(ids)) if ids else None


def income(game: Game, player: PlayerState) -> float:
    """What ``player``'s shares earn in an operating round, at their companies' last
    revenues (nothing from a company without a train) less their loans' interest, less
    what the companies it presides over without a train lack of the cheapest one (which
    it may have to pay)."""
    total = 0.0
    for certs in player.shares.values():
        for cert in certs:
            corporation = cert.corporation
            if cert.percent <= 0:
                continue
            runs = corporation.history and corporation.trains and corporation.floated \
                and not corporation.closed
            revenue = corporation.history[-1].revenue if runs else 0
            total += (revenue - finance.interest_due(game, corporation)) * cert.percent / 100
    price = trains.cheapest_price(game.table)
    for corporation in game.state.corporations:
        if corporation.owner is player and corporation.floated and not corporation.closed \
                and not corporation.trains:
            total -= max(0, price - corporation.cash) / HORIZON
    return total


def at_risk(game: Game, player: PlayerState) -> float:
    """The worth of ``player``'s shares that may come to nothing: a fraction
    (``STUCK``) of those in companies started but not floated (they earn nothing and
    cannot be sold), and all of those in a company without a train that can neither
    buy one nor borrow more (its price falls to liquidation)."""
    table = game.table
    lost = 0.0
    price = trains.cheapest_price(table)
    for certs in player.shares.values():
        for cert in certs:
            corporation = cert.corporation
            if cert.percent <= 0 or corporation.closed or not corporation.started:
                continue
            worth = certificate_price(table, cert)
            if not corporation.floated:
                lost += STUCK * worth
            elif not corporation.trains and corporation.cash < price and \
                    corporation.loans >= finance.loan_limit(corporation) > 0:
                lost += worth
    return lost + sum(liability(game, c) for c in game.state.corporations
                      if c.owner is player and not c.closed)


def liability(game: Game, corporation) -> float:
    """What of its company's loans a president may have to pay: a company that cannot
    pay its interest is liquidated, and its president settles the loans the treasury
    does not cover (1817: ten loans cost $1000 of the president's money, or a
    bankruptcy). All of it for a company whose interest eats half its last revenue or
    more, or that has no train and cannot reach one; ``LIABLE`` of it for any other."""
    if not corporation.loans:
        return 0.0
    debt = max(0, corporation.loans * finance.loan_value(game) - corporation.cash)
    interest = finance.interest_due(game, corporation)
    revenue = corporation.history[-1].revenue if corporation.history else 0
    reach = corporation.cash + finance.loan_value(game) * max(
        0, finance.loan_limit(corporation) - corporation.loans)
    failing = (corporation.history and 2 * interest > revenue) or \
        (not corporation.trains and reach < trains.cheapest_price(game.table))
    return debt * (1.0 if failing else LIABLE)


def standing(game: Game, seat: int) -> float:
    """The seat's value less the best of the others' (see the module docstring)."""
    table = game.table
    values = []
    for i in range(len(game.player_specs)):
        player = player_at(game, i)
        value = table.variant.score(table, player)
        if not game.is_over:
            value += HORIZON * income(game, player) - at_risk(game, player)
        values.append(value)
    mine = values.pop(seat)
    return mine - max(values) if values else mine
