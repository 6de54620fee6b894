"""``tracklayer check-games [--db URL]``: every stored game replayed under the rules of this
installation, and those whose log they would refuse listed (game, title, the refused entry,
the rule refusing it), so that a server can be checked before it is upgraded: run it with
the new version against the live database (or a copy).

It changes nothing: the database is opened read-only where the driver allows it (SQLite),
no migration runs, no game is recorded as accepted by these rules (the server does that
when it opens a game that replays whole). Each game is replayed as the server replays it
(``archive.replay``) into a game without its log text, with checkpoints every 8 actions
as the server keeps them where the log has undo or redo entries (which restore from
them); with ``--jobs N``, N processes replay a share of the games each.

Exit status: 0 if no game would diverge, 1 if some game would that its players have not
already continued or kept as an archive (those are listed, marked, and do not count), 2 if
the database cannot be read."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass
from concurrent.futures import ProcessPoolExecutor
from itertools import repeat
from typing import Iterator, List, Optional

from sqlalchemy import create_engine, inspect, select
from sqlalchemy.engine import Engine

from ..errors import GameError
from ..io.export import open_game
from ..snapshot import collector_paused
from . import archive
from .db import ActionRow, GameRow, SeatRow, normal_url
from .rules_version import RulesVersion, package_version, stored

SHARE = 10                      # games a process takes at a time


@dataclass
class Checked:
    """One stored game, replayed."""
    id: int
    title: str
    entries: int
    accepted_by: Optional[RulesVersion]
    divergence: Optional[archive.Divergence]
    archived: bool = False
    continued_by: Optional[int] = None

    @property
    def settled(self) -> bool:
        """Its players already chose what becomes of it."""
        return self.archived or self.continued_by is not None

    def line(self) -> str:
        d = self.divergence
        note = " [kept as an archive]" if self.archived else \
            f" [continued as game {self.continued_by}]" if self.continued_by else ""
        accepted = f" (accepted by {self.accepted_by.short})" if self.accepted_by else ""
        return (f"game {self.id} ({self.title}): entry {d.number} of {d.entries} ({d.what}) "
                f"refused: {d.rule}{accepted}{note}")

    def as_dict(self) -> dict:
        return {"id": self.id, "title": self.title, "entries": self.entries,
                "accepted_by": self.accepted_by.short if self.accepted_by else None,
                "divergence": self.divergence.as_dict() if self.divergence else None,
                "archived": self.archived, "continued_by": self.continued_by}


def reader(url: str) -> Engine:
    """An engine that only reads: a SQLite file opened read-only (never made if absent)."""
    url = normal_url(url)
    if url.startswith("sqlite:///") and ":memory:" not in url and "mode=ro" not in url:
        path = url[len("sqlite:///"):]
        url = f"sqlite:///file:{path}?mode=ro&uri=true"
    return create_engine(url)


def check(url: str, jobs: int = 1) -> Iterator[Checked]:
    """Every stored game, oldest first, replayed under these rules (by ``jobs`` processes,
    each reading its share of the games)."""
    engine = reader(url)
    try:
        columns = {c["name"] for c in inspect(engine).get_columns("games")}
        with engine.connect() as conn:
            ids = list(conn.scalars(select(GameRow.id).order_by(GameRow.id)))
    finally:
        engine.dispose()
    shares = [ids[i:i + SHARE] for i in range(0, len(ids), SHARE)]
    recorded = "rules_fingerprint" in columns
    if jobs <= 1 or len(shares) <= 1:
        for share in shares:
            yield from _check_share(url, share, recorded)
        return
    with ProcessPoolExecutor(min(jobs, len(shares))) as pool:
        for found in pool.map(_check_share, repeat(url), shares, repeat(recorded)):
            yield from found


def _check_share(url: str, ids: List[int], recorded: bool) -> List[Checked]:
    engine = reader(url)
    try:
        with engine.connect() as conn:
            return [_check_one(conn, *conn.execute(
                select(GameRow.id, GameRow.title, GameRow.seed, GameRow.optional_rules)
                .where(GameRow.id == game_id)).one(), recorded) for game_id in ids]
    finally:
        engine.dispose()


def _check_one(conn, game_id: int, title: str, seed: int, rules, recorded: bool) -> Checked:
    players = [{"id": p, "name": n} for p, n in conn.execute(
        select(SeatRow.player_id, SeatRow.name).where(SeatRow.game_id == game_id)
        .order_by(SeatRow.position))]
    entries = [(n, json.loads(e)) for n, e in conn.execute(
        select(ActionRow.number, ActionRow.entry).where(ActionRow.game_id == game_id)
        .order_by(ActionRow.number))]
    found = Checked(game_id, title, len(entries), None, None)
    if recorded:
        row = conn.execute(select(GameRow.rules_version, GameRow.rules_fingerprint,
                                  GameRow.archived).where(GameRow.id == game_id)).one()
        found.accepted_by, found.archived = stored(row[0], row[1]), bool(row[2])
        found.continued_by = conn.execute(select(GameRow.id).where(
            GameRow.continues_id == game_id)).scalar()
    data = {"title": title, "players": players,
            "settings": {"seed": seed, "optional_rules": list(rules or [])}}
    # checkpoints serve undo and redo alone: a log without them is replayed without
    every = 8 if any(h.get("type") in ("undo", "redo") for _, h in entries) else None

    def new_game(_=None):
        return open_game(data, keep_log=False, snapshot_every=every)
    try:
        with collector_paused():
            _, found.divergence = archive.replay(new_game(), new_game,
                                                 lambda game, h: game.apply(h), entries)
    except GameError as e:              # cannot even be set up (a title no longer played)
        found.divergence = archive.Divergence(0, {"type": "set-up"}, str(e), len(entries))
    return found


def main(url: str, as_json: bool = False, out=None, jobs: int = 1) -> int:
    out = out or sys.stdout
    began = time.perf_counter()
    checked = diverging = entries = 0
    unsettled = 0
    try:
        for game in check(url, jobs):
            checked += 1
            entries += game.entries
            if game.divergence is None:
                continue
            diverging += 1
            unsettled += not game.settled
            print(json.dumps(game.as_dict()) if as_json else game.line(), file=out)
    except Exception as e:              # no such database, no tables, no driver …
        print(f"tracklayer check-games: cannot read the games at {url}: "
              f"{type(e).__name__}: {e}", file=sys.stderr)
        return 2
    took = time.perf_counter() - began
    summary = {"games": checked, "entries": entries, "diverging": diverging,
               "unsettled": unsettled, "seconds": round(took, 2), "version": package_version()}
    print(json.dumps({"summary": summary}) if as_json else
          f"{checked} games ({entries} entries) checked in {took:.1f} s under tracklayer "
          f"{summary['version']}: {checked - diverging} replay, {diverging} would diverge"
          + (f" ({diverging - unsettled} already continued or archived)"
             if diverging != unsettled else ""), file=out)
    return 1 if unsettled else 0
