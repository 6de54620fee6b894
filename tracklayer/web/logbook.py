"""The game's log as the pages show it: the lines the rules wrote for the set-up and for
each action still in force (the first line of an action with the time it was taken), and
the players' chat, by name and time, placed where it was said among them. The whole log
is read in pages of :data:`PAGE` items, page 1 the oldest, so that a page keeps its lines
as the game goes on."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Dict, List, Optional

from .service import Live

PAGE = 100


def _when(stamp) -> Dict[str, str]:
    """An entry's time (seconds since 1970, as 18xx.games keeps it) as ISO 8601 and as
    hours:minutes in UTC; nothing for an entry without a readable time."""
    if isinstance(stamp, bool) or not isinstance(stamp, (int, float)) or \
            not 0 <= stamp < 2 ** 33:
        return {}
    moment = datetime.fromtimestamp(stamp, timezone.utc)
    return {"iso": moment.strftime("%Y-%m-%dT%H:%M:%SZ"), "hm": moment.strftime("%H:%M")}


def speaker(live: Live, player_id) -> str:
    """Who sent a chat message: the seat's name (the game's name for the player if the
    seat is unknown)."""
    seat = live.seat(player_id)
    if seat is not None:
        return seat.name
    named = dict(live.game.player_specs)
    return str(named.get(player_id, f"player {player_id}"))


def dated(found: List[Dict]) -> List[Dict]:
    """Items with their times written out (``iso``, ``hm``): done for the items shown only,
    a page or the tail, not for a whole long log."""
    return [dict(it, **_when(it["stamp"])) if "stamp" in it else it for it in found]


def items(live: Live) -> List[Dict]:
    """The whole log, oldest first: ``{"kind": "game"|"chat", "text", "who", "stamp"}``
    (:func:`dated` writes the times out). An action's lines follow the chat said before it;
    lines whose action is not known (a game applied outside :meth:`Live.apply`) come after
    the chat."""
    game = live.game
    lines = game.table.messages
    history = game.history
    if live.log_start is not None:
        start = live.log_start
    else:
        start = len(lines) if not game.actions else 0
    start = min(start, len(lines))
    out: List[Dict] = [{"kind": "game", "text": str(line)} for line in lines[:start]]
    at = start
    for index, entry in enumerate(history.entries):
        kind = entry.get("type")
        if kind == "message":
            out.append({"kind": "chat", "who": speaker(live, entry.get("entity")),
                        "text": str(entry.get("message") or ""),
                        "stamp": entry.get("created_at")})
        elif history.holds(index) and index in live.log_marks:
            end = min(max(at, live.log_marks[index]), len(lines))
            for k, line in enumerate(lines[at:end]):
                out.append({"kind": "game", "text": str(line),
                            **({"stamp": entry.get("created_at")} if k == 0 else {})})
            at = end
    out.extend({"kind": "game", "text": str(line)} for line in lines[at:])
    return out


def pages(count: int) -> int:
    return max(1, -(-count // PAGE))


def page(found: List[Dict], number: Optional[int] = None) -> Optional[Dict]:
    """Page ``number`` of the log (1: the first; None: the last), or None if there is no
    such page."""
    total = pages(len(found))
    number = total if number is None else number
    if not 1 <= number <= total:
        return None
    start = (number - 1) * PAGE
    return {"items": dated(found[start:start + PAGE]), "page": number, "pages": total,
            "first": start + 1, "last": min(start + PAGE, len(found)), "count": len(found)}


def tail(found: List[Dict]) -> Dict:
    """The newest :data:`PAGE` items, for the live log panel, and how many pages the whole
    log has."""
    return {"items": dated(found[-PAGE:]), "pages": pages(len(found)), "count": len(found)}
