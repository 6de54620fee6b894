"""Shared test helpers: where the real games live (``../shared``), skipping when absent."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("TRACKLAYER_SHARED", ROOT.parent / "shared"))
FIXTURES = SHARED / "fixtures"
TRACES = SHARED / "traces"


def fixture_files(title_dir: str) -> list:
    """The real games of a title, or a single skipped placeholder if ../shared is absent."""
    folder = FIXTURES / title_dir
    files = sorted(folder.glob("*.json")) if folder.is_dir() else []
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(
            reason=f"no fixtures in {folder} (the shared test data is not present)"))]
    return [pytest.param(f, id=f.stem) for f in files]


def load_trace(path: Path) -> list:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def load_json(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.load(f)
