"""What the bench's parts share (plain Python: no torch, so ops.gate_scores imports it cheaply)."""

from __future__ import annotations

import os
import statistics
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def fixtures_dir() -> Path:
    return Path(os.environ.get("FIXTURES_DIR", REPO.parent / "shared" / "fixtures" / "images"))


def percentile(values: list[float], share: float) -> float:
    """The `share` (0-1) percentile, inclusive; a single value is every percentile."""
    if len(values) == 1:
        return values[0]
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[round(share * 100) - 1]


__all__ = ["REPO", "fixtures_dir", "percentile"]
