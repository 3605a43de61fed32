"""The running stack for a test module, and a database session factory beside it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from core.db import SessionFactory, make_engine, make_session_factory
from ops.stack import Stack, private_settings
from tests.support.paths import FIXTURES


@contextmanager
def running_stack(data_dir: Path, **overrides: Any) -> Iterator[Stack]:
    """The whole embedded stack (Temporal, S3, database, both workers, API) on free ports
    under `data_dir`, with the fixture photos for the catalog; stopped on exit."""
    settings = private_settings(data_dir, **overrides)
    with Stack(settings, log_dir=settings.data_dir / "logs", temporal_ui=False,
               extra_env={"FIXTURES_DIR": str(FIXTURES)}) as stack:
        stack.start()
        yield stack


def database_setting(request: pytest.FixtureRequest, fixture: str) -> dict[str, Any]:
    """The database_url override for a stack parametrised on "sqlite" / "postgres": nothing
    for SQLite (the stack's own file), a fresh PostgreSQL database from `fixture` else."""
    if request.param == "postgres":
        return {"database_url": request.getfixturevalue(fixture)}
    return {}


@contextmanager
def sessions_for(database_url: str) -> Iterator[SessionFactory]:
    """Sessions on a database the test reads or prepares directly (e.g. the stack's)."""
    engine = make_engine(database_url)
    try:
        yield make_session_factory(engine)
    finally:
        engine.dispose()
