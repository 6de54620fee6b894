"""The worked example of a title's guide (to come: replayed from a shipped game)."""

from __future__ import annotations

from typing import Optional


def worked_example(title) -> Optional[object]:
    """The worked example of ``title``, if one is shipped (none yet)."""
    return None
