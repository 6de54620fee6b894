"""Python's cyclic garbage collector, paused while work that makes many short-lived
objects runs (listing moves, the route search, a trial copy of a game): those are freed by
their reference counts as soon as they are done with, and collections meanwhile would only
look through them again and again. Anything cyclic left is collected after."""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def paused() -> Iterator[None]:
    """The collector waits until the block ends (if it was running: nested pauses leave
    it to the outermost)."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()
