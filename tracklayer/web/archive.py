"""A stored game whose log the rules no longer accept is never lost.

A game is stored as its log: the entries the rules of the day accepted, with a record of
those rules (``rules_version``). When the rules change, a stored game is replayed under the
new ones as it is opened. Should they refuse one of its entries, the game opens read-only
at the last entry both rule versions accept (the *agreed* entry: every entry before the
first refused one), and its page names the refused entry and the rule that now refuses it
(the engine's refusal names it). Nothing is deleted: the refused entry and those after it
stay in the log as they were stored. Its players then choose:

* to **continue** from the agreed entry as a new game, linked to the old one: same title,
  seed, optional rules and seats (people's seats with new links; each player takes their
  seat in the new game with the old game's link or cookie), the log up to the agreed entry;
  the old game stays as it was, read-only, naming its continuation — at most one;
* or to **keep it as an archive**: read-only, as it stood at the agreed entry.

A game whose log the rules of the day accepted (the rules recorded with it are this
process's) is replayed trusted as it is opened: what can only refuse an entry is not asked
again (``Table.trusted``). A game that replays whole under new rules is recorded as
accepted by them when it is opened; ``tracklayer check-games`` replays every stored game
without changing anything (``web.check_games``). A rule change that alters what an entry does without refusing it is
not seen here: the log holds what the players did, not what came of it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, List, Optional, Tuple

from sqlalchemy import select, update

from ..errors import GameError
from ..title import Title
from .db import GameRow, Store
from .refusal import Refusal
from .rules_version import RulesVersion, current, stored


@dataclass(frozen=True)
class Divergence:
    """Where a stored log stops replaying: the entry now refused (numbered from 1, as
    stored), the engine's refusal, and how many entries the log holds."""
    number: int
    entry: dict
    rule: str
    entries: int

    @property
    def agreed(self) -> int:
        """Entries both rule versions accept: all before the refused one."""
        return self.number - 1

    @property
    def what(self) -> str:
        """The refused entry in a few words: its kind and who took it."""
        h = self.entry
        who = f" by {h.get('entity_type', 'entity')} {h.get('entity')}" \
            if h.get("entity") is not None else ""
        return f"{h.get('type', 'entry')}{who}"

    def as_dict(self) -> dict:
        return {"entry": self.number, "agreed": self.agreed, "what": self.what,
                "rule": self.rule, "entries": self.entries}


@dataclass
class Standing:
    """What a game is under the rules this process plays by: the rules that accepted its
    log (None: stored before they were recorded), where its log stops replaying, and what
    its players made of that (kept as an archive, continued as game N); for a game made
    as a continuation, the game and entry it continues from."""
    accepted_by: Optional[RulesVersion] = None
    now: Optional[RulesVersion] = None
    divergence: Optional[Divergence] = None
    archived: bool = False
    continued_by: Optional[int] = None
    continues: Optional[Tuple[int, int]] = None

    @property
    def read_only(self) -> bool:
        return self.divergence is not None or self.archived or self.continued_by is not None

    def refusal(self, game_id: int) -> Refusal:
        """Why nothing more may be stored in the game (409)."""
        if self.continued_by is not None:
            why = f"it was continued as game {self.continued_by}"
        elif self.divergence is not None:
            d = self.divergence
            why = (f"the current rules refuse its entry {d.number} ({d.what}: {d.rule}); it "
                   f"stands at entry {d.agreed}, which its players may continue from as a "
                   "new game")
        else:
            why = "its players keep it as an archive"
        return Refusal(409, f"game {game_id} is read-only: {why}")

    def as_dict(self) -> dict:
        def rules(r: Optional[RulesVersion]):
            return {"version": r.version, "fingerprint": r.fingerprint} if r else None
        return {"read_only": self.read_only, "accepted_by": rules(self.accepted_by),
                "now": rules(self.now),
                "divergence": self.divergence.as_dict() if self.divergence else None,
                "archived": self.archived, "continued_by": self.continued_by,
                "continues": {"game": self.continues[0], "entry": self.continues[1]}
                if self.continues else None}


# -- replaying a stored log ---------------------------------------------------------------

def refusal_text(error: BaseException) -> str:
    """The engine's refusal as the page shows it (a failure that is not a refusal, named
    by its kind)."""
    return str(error) if isinstance(error, GameError) else \
        f"the engine failed ({type(error).__name__}: {error})"


def replay(target, restart: Callable, apply: Callable[[object, dict], None],
           entries: List[Tuple[int, dict]]) -> Tuple[object, Optional[Divergence]]:
    """``entries`` (``(number, entry)`` from 1, in order) applied to ``target`` (a game
    just set up, or what holds one) up to the first one refused: what stands at the agreed
    entry, and the divergence (None if every entry replays). After a refusal the agreed
    entries are replayed into ``restart(target)`` (set up afresh), so that nothing a
    half-applied entry left behind (an undo refused half-way) remains."""
    for index, (number, h) in enumerate(entries):
        try:
            apply(target, h)
        except Exception as e:          # a refusal, or the engine failing on an old entry
            found = Divergence(number, h, refusal_text(e), len(entries))
            target = restart(target)
            for _, agreed in entries[:index]:
                apply(target, agreed)
            return target, found
    return target, None


def accepted_now(store: Store, game_id: int, title: Title) -> bool:
    """Did the rules this process plays ``title`` by accept the stored game's log (the
    version and fingerprint recorded with it are the current ones)? Its entries may then
    be replayed trusted; under other rules, or none recorded, each is checked."""
    row = store.game(game_id)
    return row is not None and \
        stored(row.rules_version, row.rules_fingerprint) == current(title)


# -- what is stored of it -----------------------------------------------------------------

def stamp(title: Title) -> dict:
    """The columns that record the rules a new game's log is accepted by."""
    now = current(title)
    return {"rules_version": now.version, "rules_fingerprint": now.fingerprint}


def standing(store: Store, game_id: int, title: Title,
             divergence: Optional[Divergence]) -> Standing:
    """The game's standing once its log is replayed; a game that replayed whole under
    rules other than those recorded is recorded as accepted by these (the only write)."""
    now = current(title)
    with store.sessions() as s:
        row = s.get(GameRow, game_id)
        later = s.scalars(select(GameRow.id).where(GameRow.continues_id == game_id)).first()
    found = Standing(stored(row.rules_version, row.rules_fingerprint), now, divergence,
                     bool(row.archived), later,
                     (row.continues_id, row.continued_at) if row.continues_id else None)
    if divergence is None and found.accepted_by != now:
        with store.sessions.begin() as s:
            s.execute(update(GameRow).where(GameRow.id == game_id)
                      .values(rules_version=now.version, rules_fingerprint=now.fingerprint))
        found.accepted_by = now
    return found


def keep_as_archive(store: Store, game_id: int) -> None:
    with store.sessions.begin() as s:
        s.execute(update(GameRow).where(GameRow.id == game_id).values(archived=True))


def continuation(store: Store, game_id: int) -> Optional[int]:
    """The game that continues ``game_id`` (None if none does)."""
    with store.sessions() as s:
        return s.scalars(select(GameRow.id).where(GameRow.continues_id == game_id)).first()
