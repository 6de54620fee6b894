"""A log kept small: items in order, the older ones packed by blocks (:class:`Packed`).

A long game's log of entries, or of the lines its rules wrote, held as Python objects
weighs as much as everything else a live game holds; pickled and compressed by blocks it
weighs a tenth to a thirtieth of that.
"""

from __future__ import annotations

import operator
import pickle
import zlib
from typing import Iterator, List, Sequence, Tuple, Union

BLOCK = 64          # items packed together


class Packed(Sequence):
    """Items in order (a log's entries or lines), the older ones packed (pickled and
    compressed) by blocks of :data:`BLOCK` once asked (:meth:`pack`), the newest as given.
    Read back, a packed item is a new equal copy; the block read last stays unpacked, so
    reading in order unpacks each block once."""

    def __init__(self, blocks: Sequence[bytes] = (), tail: Sequence = ()) -> None:
        self._blocks: List[bytes] = list(blocks)
        self._tail: List[dict] = list(tail)
        self._open: Tuple[int, list] = (-1, [])

    def __len__(self) -> int:
        return len(self._blocks) * BLOCK + len(self._tail)

    def __getitem__(self, index: Union[int, slice]):
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        index = operator.index(index)
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("log index out of range")
        packed = len(self._blocks) * BLOCK
        if index >= packed:
            return self._tail[index - packed]
        return self._unpacked(index // BLOCK)[index % BLOCK]

    def __iter__(self) -> Iterator[dict]:
        for block in range(len(self._blocks)):
            yield from self._unpacked(block)
        yield from list(self._tail)

    def __eq__(self, other) -> bool:
        return isinstance(other, (list, Packed)) and list(self) == list(other)

    def __delitem__(self, index: slice) -> None:
        """Drop the items from ``index.start`` on (the only deletion a log knows)."""
        if not isinstance(index, slice) or index.stop is not None or index.step is not None:
            raise TypeError("a packed log only drops its newest items")
        n = len(self) if index.start is None else index.indices(len(self))[0]
        packed = len(self._blocks) * BLOCK
        if n < packed:
            whole = n // BLOCK
            self._tail = self[whole * BLOCK:n]
            del self._blocks[whole:]
            self.forget()
        else:
            del self._tail[n - packed:]

    def copy(self) -> "Packed":
        return self.prefix(len(self))

    def _unpacked(self, block: int) -> list:
        if self._open[0] != block:
            self._open = (block, pickle.loads(zlib.decompress(self._blocks[block])))
        return self._open[1]

    def append(self, item) -> None:
        self._tail.append(item)

    def pack(self) -> None:
        """Pack the newest items, as many whole blocks as they make (a game kept for
        long packs its logs as it goes; one replayed and dropped need not)."""
        while len(self._tail) >= BLOCK:
            block, self._tail = self._tail[:BLOCK], self._tail[BLOCK:]
            self._blocks.append(zlib.compress(pickle.dumps(block, pickle.HIGHEST_PROTOCOL)))

    def prefix(self, n: int) -> "Packed":
        """The first ``n`` items (packed blocks shared)."""
        n = max(0, min(n, len(self)))
        whole = min(n // BLOCK, len(self._blocks))
        if whole == len(self._blocks):      # all the blocks kept: a slice of the tail
            return Packed(self._blocks, self._tail[:n - whole * BLOCK])
        return Packed(self._blocks[:whole], self[whole * BLOCK:n])

    def forget(self) -> None:
        """Drop the block unpacked last."""
        self._open = (-1, [])
