"""The names people use for the things of a game: a player by name, a corporation, minor
or private company by its full name and abbreviation, a hex by the city printed there,
a train by its card ("a 3-train", "a 5H train"), a holder of shares or trains."""

from __future__ import annotations

from typing import List

from ..rules import operators
from ..rules.table import Table
from ..spec.settings import Capitalization
from ..state.model import (BankState, CompanyState, CorporationState, DepotState,
                           MarketState, MinorState, PlayerState, TrainState)

NAMED = (CorporationState, MinorState, CompanyState)


def name_of(entity) -> str:
    """A player by name; a corporation, minor or company by full name and abbreviation."""
    if entity is None:
        return "nobody"
    if isinstance(entity, PlayerState):
        return str(entity.name)
    if isinstance(entity, NAMED):
        full, sym = entity.spec.name, entity.sym
        return f"{full} ({sym})" if full and full != sym else sym
    if isinstance(entity, MarketState):
        return "the market"
    if isinstance(entity, (BankState, DepotState)):
        return "the bank"
    return str(entity)


def short_name(entity) -> str:
    """A player's name, or a corporation's, minor's or company's abbreviation."""
    return entity.sym if isinstance(entity, NAMED) else name_of(entity)


def hex_name(table: Table, hex_id: str) -> str:
    """The name printed on a hex ("Köln"), or its coordinate."""
    printed = table.spec.hexes.get(hex_id)
    return printed.name if printed is not None and printed.name else str(hex_id)


def place_name(table: Table, hex_id: str) -> str:
    """A hex by the city printed there, and its coordinate: "Köln (L3)", or "L3"."""
    name = hex_name(table, hex_id)
    return f"{name} ({hex_id})" if name != hex_id else str(hex_id)


def card_name(name: str) -> str:
    """A train by its card: "a 3-train", "a 5H train", "an 8-train"."""
    article = "an" if name[:1] == "8" else "a"
    return f"{article} {name}-train" if name.isdigit() else f"{article} {name} train"


def train_name(train: TrainState) -> str:
    return card_name(train.name)


def owner_words(holder) -> str:
    """Who holds a certificate or a train, in words: "the market", "Ann's Dürener
    Eisenbahn (DE)"."""
    if isinstance(holder, (CorporationState, MinorState)) and \
            isinstance(holder.owner, PlayerState):
        return f"{holder.owner.name}'s {name_of(holder)}"
    return name_of(holder)


def share_source(table: Table, bundle) -> str:
    """Where a bundle is bought from: the IPO, the corporation's treasury (where shares
    sold pay the corporation), the market, or a holder."""
    corporation, source = bundle.corporation, bundle.owner
    if source is corporation:
        incremental = operators.capitalization(table, corporation) is \
            Capitalization.INCREMENTAL
        return f"{corporation.sym}'s treasury" if incremental else "the IPO"
    return owner_words(source)


def route_stops(table: Table, hexes: List[str]) -> str:
    """A route's hexes by name, in order: "Köln – Bonn – Siegburg"."""
    return " – ".join(hex_name(table, h) for h in hexes) if hexes else "no stops"
