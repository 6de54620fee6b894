"""Figures the benchmarks share."""

from __future__ import annotations

import math


def percentile(values: list, q: float) -> float:
    """The nearest-rank ``q`` percentile (0-100) of ``values``: the smallest value with at
    least ``q`` percent of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]
