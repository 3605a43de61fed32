"""Where the tests find the repository, the fixture photos and the PostgreSQL server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
