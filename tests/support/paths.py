"""Where the tests find the repository, the fixture photos and the PostgreSQL server."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(os.environ.get("FIXTURES_DIR", REPO.parent / "shared" / "fixtures" / "images"))
POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)


def fixture_images(folder: str) -> list[Path]:
    """Fixture photos, or a skip with the reason when ../shared is not there."""
    paths = sorted((FIXTURES / folder).glob("*.jpg"))
    if not paths:
        pytest.skip(f"fixture photos not found in {FIXTURES / folder}")
    return paths


def fixture_array(folder: str, name: str) -> np.ndarray:
    """One fixture photo by name, decoded to an RGB array."""
    path = next(p for p in fixture_images(folder) if p.name == name)
    return np.asarray(Image.open(path).convert("RGB"))
