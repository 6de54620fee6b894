"""Snapshots of a game's state: a compact copy from which the game can be restored.

The state is pickled; the title's static data it refers to (charters, train kinds, tile
parts) is not copied but named, and found again in the game's own data on restore. The
round is part of the state; its link to the table is made again on restore.
"""

from __future__ import annotations

import io
import pickle
from typing import Dict

from .board.notation import BorderPart, IconPart, TerrainPart
from .rules.table import Table
from .spec.data import CompanySpec, CorporationSpec, MinorSpec, Power, TrainEvent, TrainSpec, \
    TrainVariant

STATIC = (CorporationSpec, MinorSpec, CompanySpec, TrainSpec, TrainVariant, Power, TrainEvent,
          BorderPart, IconPart, TerrainPart)


def static_objects(table: Table) -> Dict[int, object]:
    """The static objects the state may refer to, by identity."""
    found = table.spec.static_objects
    if found is None:
        found = {}

        def add(obj) -> None:
            found[id(obj)] = obj

        data = table.spec.data
        for spec in list(data.corporations) + list(data.minors) + list(data.companies):
            add(spec)
            for p in spec.powers:
                add(p)
        for t in data.trains:
            add(t)
            add(t.base)
            for v in t.variants:
                add(v)
            for e in t.events:
                add(e)
        for tile in table.spec.tile_defs.values():
            for part in tile.parts:
                if isinstance(part, (BorderPart, IconPart, TerrainPart)):
                    add(part)
        table.spec.static_objects = found
    return found


class _Pickler(pickle.Pickler):
    def __init__(self, file, table: Table) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.table = table
        self.known = static_objects(table)

    def persistent_id(self, obj):
        if obj is self.table:
            return "table"
        if isinstance(obj, STATIC) and id(obj) in self.known:
            return id(obj)
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file, table: Table) -> None:
        super().__init__(file)
        self.table = table
        self.known = static_objects(table)

    def persistent_load(self, pid):
        if pid == "table":
            return self.table
        return self.known[pid]


def take(table: Table) -> bytes:
    """A snapshot of the table's state (and how long its log was)."""
    buffer = io.BytesIO()
    _Pickler(buffer, table).dump((table.state, len(table.messages)))
    return buffer.getvalue()


def restore(table: Table, snapshot: bytes) -> None:
    """Put the table back in the state of ``snapshot``."""
    state, messages = _Unpickler(io.BytesIO(snapshot), table).load()
    table.state = state
    del table.messages[messages:]
    table.forget()
