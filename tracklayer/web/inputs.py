"""What the app takes from the people who use it, checked before it reaches the engine or
the database: every wrong value is refused (422) with the reason, and nothing is stored.

* names (of seats, players in an import) are text of 1 to :data:`MAX_NAME` characters
  without control characters; a new game's seats have names unlike each other;
* a chat message is text of 1 to :data:`MAX_CHAT` characters, without control characters
  other than line breaks and tabs;
* a game's title is text; its seed a whole number from 0 to :data:`MAX_ID`; its optional
  rules a list of names;
* an entry posted to a game names its entity as the game does (a player by number, a
  company by its letters), its time (if it gives one) in seconds since 1970, and carries no
  ``auto_actions`` (the server records those); its price, if it names one, is a whole
  number (a typed amount of 51.5, text or nothing is refused for what it is);
* game ids are positive and at most :data:`MAX_ID` (what both databases store)."""

from __future__ import annotations

import unicodedata
from typing import Any, Optional

from .refusal import Refusal

MAX_NAME = 100
MAX_CHAT = 1000
MAX_TEXT = 10000                 # an import's description
MAX_ID = 2 ** 31 - 1
ENTITY_TYPES = ("player", "corporation", "minor", "company")


def is_id(value: Any) -> bool:
    """A game id the databases can hold."""
    return type(value) is int and 0 < value <= MAX_ID


def _controls(text: str, allowed: str = "") -> bool:
    return any(unicodedata.category(c) in ("Cc", "Cs") and c not in allowed for c in text)


def name(value: Any, what: str) -> str:
    """A name, stripped (422 if it is not text, empty, too long or holds control
    characters)."""
    if not isinstance(value, str) or not value.strip():
        raise Refusal(422, f"{what} needs a name (text)")
    value = value.strip()
    if len(value) > MAX_NAME:
        raise Refusal(422, f"{what}: a name is at most {MAX_NAME} characters")
    if _controls(value):
        raise Refusal(422, f"{what}: a name may not hold control characters")
    return value


def distinct(names: list) -> None:
    """Seat names tell the players apart (422 if two are alike, whatever their case)."""
    seen = set()
    for n in names:
        if n.casefold() in seen:
            raise Refusal(422, f"two seats are named {n!r}: give each player a name of their own")
        seen.add(n.casefold())


def text(value: Any, what: str, limit: int, lines: bool = True) -> str:
    """Free text (422 if it is not text, too long, or holds control characters other than
    line breaks and tabs)."""
    if not isinstance(value, str):
        raise Refusal(422, f"{what} must be text")
    if len(value) > limit:
        raise Refusal(422, f"{what} is at most {limit} characters")
    if _controls(value, "\n\r\t" if lines else ""):
        raise Refusal(422, f"{what} may not hold control characters")
    return value


def title(value: Any) -> str:
    if not isinstance(value, str):
        raise Refusal(422, "title must be the title's name (text)")
    return value


def seed(value: Any) -> int:
    if type(value) is not int or not 0 <= value <= MAX_ID:
        raise Refusal(422, f"seed must be a whole number from 0 to {MAX_ID}")
    return value


def rules(value: Any) -> list:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
        raise Refusal(422, "optional_rules must be a list of rule names")
    return value


def export(data: Any) -> dict:
    """An 18xx.games export's settings and players, as the engine reads them (422 for a
    wrong shape; the entries are the engine's to judge)."""
    if not isinstance(data, dict):
        raise Refusal(422, "an 18xx.games export is a JSON object")
    title(data.get("title"))
    settings = data.get("settings")
    if settings is not None and not isinstance(settings, dict):
        raise Refusal(422, "the export's settings must be an object")
    settings = settings or {}
    if settings.get("seed") not in (None, ""):
        seed(settings["seed"])
    rules(settings.get("optional_rules"))
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise Refusal(422, "the export's players must be a list of {id, name}")
    for i, p in enumerate(players):
        if not isinstance(p, dict) or type(p.get("id")) is not int:
            raise Refusal(422, f"the export's player {i + 1} needs an id (a whole number)")
        name(p.get("name"), f"the export's player {i + 1}")
    if not isinstance(data.get("actions") or [], list):
        raise Refusal(422, "the export's actions must be a list")
    if data.get("description") is not None:
        text(data["description"], "the description", MAX_TEXT)
    return data


def entry(h: Any) -> dict:
    """A log entry posted by a seat, checked for shape (the engine judges the rules): a
    copy."""
    if not isinstance(h, dict) or not isinstance(h.get("type"), str) or not h["type"]:
        raise Refusal(422, "an action is a JSON object with a type")
    if len(h["type"]) > 40:
        raise Refusal(422, "no action has so long a type")
    if "auto_actions" in h:
        raise Refusal(422, "auto_actions are the server's to record, not a seat's to send")
    kind, entity = h.get("entity_type"), h.get("entity")
    if kind is not None or entity is not None:
        if kind not in ENTITY_TYPES:
            raise Refusal(422, f"entity_type is one of {', '.join(ENTITY_TYPES)}")
        if kind == "player" and type(entity) is not int:
            raise Refusal(422, "a player entity is the player's id (a whole number)")
        if kind != "player" and not isinstance(entity, str):
            raise Refusal(422, f"a {kind} entity is its name (text)")
    price = h.get("price")
    if price is not None and type(price) is not int:
        raise Refusal(422, f"the price must be a whole number, not {_shown(price)}")
    stamp = h.get("created_at")
    if stamp is not None and (type(stamp) is not int or not 0 <= stamp < 2 ** 33):
        raise Refusal(422, "created_at is a time in seconds since 1970")
    if h["type"] == "message":
        message = h.get("message")
        if not isinstance(message, str) or not message.strip():
            raise Refusal(422, "a chat message is text")
        text(message, "a chat message", MAX_CHAT)
    return dict(h)


def _shown(value: Any) -> str:
    """A value someone typed, quoted and cut short for a refusal."""
    text = repr(value)
    return text if len(text) <= 20 else text[:17] + "..."


def after(value: Optional[str]) -> int:
    """An entry number a stream resumes after (422 if it is not one)."""
    if value in (None, ""):
        return 0
    if not value.isdigit() or len(value) > 9:
        raise Refusal(422, "Last-Event-ID must be an entry number")
    return int(value)
