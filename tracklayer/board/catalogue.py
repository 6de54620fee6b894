"""The standard tiles: names, colours and tile notation shared by many titles
(``data/tiles.json``: name → [colour, notation])."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Dict, Tuple


@lru_cache(maxsize=1)
def standard_tiles() -> Dict[str, Tuple[str, str]]:
    """Tile name → (colour, tile notation)."""
    text = resources.files(__package__).joinpath("data", "tiles.json").read_text("utf-8")
    return {name: (color, code) for name, (color, code) in json.loads(text).items()}
