"""Fixtures shared by the modules that run one embedded stack for all their tests: such a
module defines a module-scoped `stack` fixture yielding its Settings, and these give it a
database session factory and an HTTP client for that stack."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from core.db import SessionFactory
from core.settings import Settings
from tests.conftest import fresh_postgres_database
from tests.integration.test_weights import require_imaging, weights
from tests.support.local_services import UserInfoServer
from tests.support.stacks import DatabaseStacks, sessions_for


@pytest.fixture(scope="module")
def db(stack: Settings) -> Iterator[SessionFactory]:
    with sessions_for(stack.resolved_database_url) as sessions:
        yield sessions


@pytest.fixture(scope="module")
def api(stack: Settings) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.app_url, timeout=60) as client:
        yield client


@pytest.fixture(scope="session")
def database_stacks(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DatabaseStacks]:
    """The run's stacks on SQLite and on PostgreSQL (tests/support/stacks.py), Google's
    user-info endpoint beside them knowing none of the tokens a fuzzer sends."""
    google = UserInfoServer({}).start()
    stacks = DatabaseStacks(tmp_path_factory.mktemp("on-each-database"), google.url,
                            contextmanager(fresh_postgres_database))
    try:
        yield stacks
    finally:
        stacks.stop()
        google.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def stack_on_each_database(
    request: pytest.FixtureRequest, database_stacks: DatabaseStacks
) -> Settings:
    """The run's stack on SQLite, then on PostgreSQL (the fuzz tests)."""
    return database_stacks.on(request).settings


@pytest.fixture(scope="session")
def tiny_weights(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny random-weight set (`python -m ops.weights tiny`), built once for the run and read
    by the weights, diffusion engine and engine bench modules; a test that damages the set
    damages a copy."""
    require_imaging()
    root = tmp_path_factory.mktemp("weights") / "tiny"
    done = weights("tiny", root)
    assert done.returncode == 0, done.stderr[-3000:]
    return root
