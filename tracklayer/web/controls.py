"""A control of the actions panel: a button posting one action, its label in the
imperative as a button says it ("Lay no more track", "UR: take a loan of $100 from the
bank"), its sentence (:mod:`tracklayer.play.describe`) as its title, a number field for an
amount chosen within a range, and a question first where the action needs one."""

from __future__ import annotations

from typing import Dict, Optional

from ..play.describe import Words
from ..play.names import name_of, short_name
from ..turns.listing import concrete, value_range


def control(words: Words, h: dict, label: Optional[str] = None, confirm: str = "") -> Dict:
    """One control: its action (at its least value), a label, the sentence as its title,
    and the number field of a range."""
    sentence = words.sentence(h)
    found = value_range(h)
    out = {"type": h["type"], "action": concrete(h), "title": sentence,
           "label": label or own_words(words, h, sentence), "confirm": confirm,
           "field": None}
    if found is not None:
        field, low, high, step = found
        out.update(field=field, min=low, max=high, step=step, range=words.priced(h, field))
    return out


def own_words(words: Words, h: dict, sentence: str, prefix: bool = True) -> str:
    """The sentence as a button says it: without its subject (the panel names who acts),
    the verb in the imperative — "Lay no more track", "Take a loan of $100 from the bank";
    prefixed with who acts where it is not the entity whose turn it is ("UR: take a loan")."""
    table = words.table
    entity = table.find(h.get("entity_type"), h.get("entity"))
    rest = sentence[len(name_of(entity)):].strip() if entity is not None else sentence
    label = imperative(rest)
    if prefix and entity is not None and entity is not table.round.acting():
        return f"{short_name(entity)}: {label[:1].lower()}{label[1:]}"
    return label


IRREGULAR = {"does": "do", "goes": "go", "is": "be", "lets": "let"}


def imperative(words: str) -> str:
    """The first verb of a third-person phrase in the imperative, capitalised ("Buys a
    train" → "Buy a train", "Neither converts nor merges" → "Neither convert nor
    merge")."""
    parts = words.split(" ")
    if parts[0] == "is" and len(parts) > 1 and parts[1] == "exchanged":
        return "Exchange" + words[len("is exchanged"):]
    for i, part in enumerate(parts[:4]):
        verb = _base(part)
        if verb is not None:
            parts[i] = verb
            if parts[0] != "neither":
                break
    out = " ".join(parts)
    return out[:1].upper() + out[1:]


def _base(word: str):
    """A third-person verb's base form, or None if ``word`` is not one."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    if not word.endswith("s") or len(word) < 4 or word.endswith("ss"):
        return None
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes")):
        return word[:-2]
    return word[:-1]


def without(label: str, name: str) -> str:
    """A label inside a row that names ``name`` already: without it."""
    return label.replace(f" {name}", "").replace(" :", ":")
