"""Snapshots of a game's state: a compact copy from which the game can be restored.

The state is pickled; the title's static data it refers to (charters, train kinds, tile
parts) is not copied but named, and found again in the game's own data on restore. The
round is part of the state; its link to the table is made again on restore.
"""

from __future__ import annotations

import gc
import io
import pickle
import threading
import zlib
from contextlib import contextmanager
from typing import Dict, Iterator

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
    """Pickles the state, naming the table and the static objects instead of copying them.
    They are found by their classes (``dispatch_table``), so that no other object costs a
    look (a ``persistent_id`` would be asked about every object)."""

    def __init__(self, file, table: Table) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        known = static_objects(table)

        def named(obj):
            if id(obj) in known:
                return _static, (id(obj),)
            return obj.__reduce_ex__(pickle.HIGHEST_PROTOCOL)

        self.dispatch_table = {cls: named for cls in STATIC}
        self.dispatch_table[Table] = lambda obj: (_the_table, ())


# The table being restored, for :func:`_the_table` and :func:`_static` (one at a time per
# thread).
_restoring = threading.local()


def _the_table() -> Table:
    return _restoring.table


def _static(key: int) -> object:
    return _restoring.known[key]


def restore(table: Table, snapshot: bytes) -> None:
    """Put the table back in the state of ``snapshot``."""
    _restoring.table, _restoring.known = table, static_objects(table)
    try:
        state, messages = pickle.loads(snapshot)
    finally:
        _restoring.table = _restoring.known = None
    table.state = state
    del table.messages[messages:]
    _forget_position(table)


def _forget_position(table: Table) -> None:
    """Forget what was worked out of the position replaced (:meth:`Table.forget`), but
    keep the views of tiles as a lay would leave them (:func:`.rules.track.view_after_lay`):
    each is the tile's at its rotation on its hex whatever the position, its cities given
    again each time it is asked (listing the position after an undo asks them of each lay
    again). Only the links walks kept on their rails are of the board replaced: dropped.
    (A trial lay's view is kept under the same key, :class:`.rules.track.TrialLay`.) The
    rotation rule's answers kept by all they read (:meth:`.rules.variant.Variant.rotation_answers`)
    hold at any position: kept too."""
    kept = dict(table.derived.after_lay)
    turned = table.derived.turned
    table.forget()
    for found in kept.values():
        for rail in found.rails:
            rail.walk = None
    table.derived.after_lay.update(kept)
    table.derived.turned = turned


def take(table: Table) -> bytes:
    """A snapshot of the table's state (and how long its log was)."""
    buffer = io.BytesIO()
    _Pickler(buffer, table).dump((table.state, len(table.messages)))
    return buffer.getvalue()


# zlib's window: of a preset dictionary it uses the last 32 KB alone
WINDOW = 32 * 1024


def dictionary(raw: bytes) -> bytes:
    """What of a snapshot others are compressed against (``base`` of :func:`pack`): its
    last :data:`WINDOW` bytes, all of it that zlib uses. Kept as it is (32 KB at most), it
    is never compressed nor decompressed again: each snapshot taken cost both when the
    whole of the first one was kept compressed."""
    return raw[-WINDOW:]


def pack(raw: bytes, base: bytes) -> bytes:
    """A snapshot compressed against ``base`` (an earlier snapshot of the same game, taken
    as zlib's preset dictionary): what did not change since costs next to nothing."""
    packer = zlib.compressobj(1, zdict=base)
    return packer.compress(raw) + packer.flush()


def unpack(packed: bytes, base: bytes) -> bytes:
    """The snapshot :func:`pack` compressed against ``base``."""
    unpacker = zlib.decompressobj(zdict=base)
    return unpacker.decompress(packed) + unpacker.flush()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a game is replayed or restored: a game's
    objects live as long as the game, and collecting while thousands are made costs a
    tenth of the time (and, while an undo unpickles a snapshot, as much as the undo).
    Afterwards they join the oldest generation at once (``gc.freeze`` then ``unfreeze``
    moves them there without a look), instead of being traversed by the first young
    collection after the collector is back on."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()
            gc.unfreeze()
            gc.enable()
