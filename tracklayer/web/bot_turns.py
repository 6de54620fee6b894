"""The bots' turns in a served game: after every entry stored, the bots whose turn it is
play (in a thread of their own, unless told otherwise) until a person is to act or the
game ends, each bot's action checked and stored as a person's is.

:class:`BotTurns` is part of :class:`~tracklayer.web.service.Service` (mixed in): it uses
the service's games in memory, their locks, and its way of storing an entry."""

from __future__ import annotations

import logging
import threading
from typing import Optional

from ..errors import GameError
from ..play.consent import deal_of
from .bots import make_bot, seat_index
from .live import Live, Seat
from .refusal import Refusal

MAX_BOT_ACTIONS = 20000
LOG = logging.getLogger("tracklayer.web.service")


class BotTurns:
    """The bots' part of the service (see the module)."""

    def after_change(self, game_id: int) -> None:
        """Let the bots whose turn it is play (in a thread, unless told otherwise)."""
        with self.lock:
            live = self.live.get(game_id)
        live = live or self.get(game_id)
        with live.lock:
            start = self.claim_bots(live)
        if start:
            self.start_bots(live)

    @staticmethod
    def claim_bots(live: Live) -> bool:
        """Under the game's lock: mark the bots as about to play, unless a runner already
        does (True: start one). Marked in the same hold as the entry that called for it,
        so nobody sees the game settled between that entry and the bots' answer to it."""
        if live.bots_running or not any(s.bot for s in live.seats):
            return False
        live.bots_running = True
        return True

    def start_bots(self, live: Live) -> None:
        """Run the bots claimed by ``claim_bots`` (in a thread, unless told otherwise)."""
        if self.background:
            threading.Thread(target=self.run_bots, args=(live,), daemon=True).start()
        else:
            self.run_bots(live)

    def run_bots(self, live: Live) -> None:
        """Play the bots' turns until a person is to act or the game ends. The flag
        ``bots_running`` is cleared under the game's lock where the runner decides to stop,
        so an action that arrives meanwhile either is seen here or starts a new runner."""
        try:
            for _ in range(MAX_BOT_ACTIONS):
                with live.lock:
                    answered = self._bot_answers(live)
                    if answered:
                        continue
                    seat = None if answered is False else self._bot_to_act(live)
                    if seat is None:
                        live.bots_running = False
                        return
                    bot = make_bot(seat.bot, live.game.seed)
                    action = dict(bot.choose(live.game, seat_index(live.game, seat.player_id),
                                             self.proposals.declined(live, seat)))
                    action["id"] = live.number + 1
                    if deal_of(live.game, action) is not None:
                        self.proposals.propose(live, seat, action)
                    else:
                        self._apply_and_store(live, action)
        except (Refusal, GameError) as e:
            LOG.warning("game %s: the bots stop: %s", live.id, e)
        except Exception:                   # never leave the flag set: log, stop, let go
            LOG.exception("game %s: the bots stop", live.id)
        with live.lock:
            live.bots_running = False

    def _bot_answers(self, live: Live) -> Optional[bool]:
        """A bot answers the pending proposal (True), a person is to (False), or none
        waits (None)."""
        if self.live.get(live.id) is not live:
            return False
        self._catch_up(live)
        return self.proposals.bot_answers(live)

    def _bot_to_act(self, live: Live) -> Optional[Seat]:
        """The first bot with a move (the game caught up by ``_bot_answers``)."""
        for p in live.acting_seats():
            seat = live.seat(p)
            if seat is not None and seat.bot:
                return seat
        return None
