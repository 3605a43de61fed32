"""Shared fixtures: real servers (Temporal dev server, rclone S3, PostgreSQL), fresh state per test.

Nothing of our own infrastructure is mocked. Each test gets its own database file (or
PostgreSQL database), its own bucket and its own Temporal task queues, so tests never see each
other's data.
"""

from __future__ import annotations

import importlib.util
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from temporalio.client import Client

from core.db import SessionFactory, make_database, make_session_factory
from core.settings import Settings
from core.storage import Storage
from ops.stack import Stack, migrate, private_settings
from tests.support.paths import POSTGRES_URL
from tests.support.stacks import running_stack, sessions_for
from tests.support.timing import register as register_module_timer

# tests/imaging needs torch, which only the imaging environment has: `make test` runs that folder
# with .venv-imaging's Python after the main run (torch must never enter .venv).
collect_ignore = [] if importlib.util.find_spec("torch") else ["imaging"]


def pytest_configure(config: pytest.Config) -> None:
    # MM_MODULE_TIMES=1: per-module wall time to out/module-times.txt (tests/support/timing.py).
    register_module_timer(config)


@pytest.fixture(scope="session")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    """One Temporal dev server and one S3 server for the whole run."""
    settings = private_settings(tmp_path_factory.mktemp("servers"))
    stack = Stack(settings, log_dir=settings.data_dir / "logs", temporal_ui=False)
    try:
        stack.start_temporal()
        stack.start_storage()
        yield settings
    finally:
        stack.stop()


@pytest.fixture(scope="session")
def shared_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """One whole embedded stack with the default test settings, started when a module first asks
    for it and kept for the run: the modules (integration and browser) whose tests each make
    their own guest, account or generation and look only at those share it, instead of each
    booting a stack of its own. A module that needs other settings, a clean database, an empty
    showcase or catalog, or kills a process keeps its own stack."""
    with running_stack(tmp_path_factory.mktemp("shared-stack")) as running:
        yield running


@pytest.fixture
def settings(servers: Settings, tmp_path: Path) -> Settings:
    """Private settings for one test: its own SQLite file, bucket and task queues."""
    suffix = uuid.uuid4().hex[:10]
    return servers.model_copy(
        update={
            "data_dir": tmp_path,
            "database_url": f"sqlite:///{tmp_path / 'app.db'}",
            "s3_bucket": f"test-{suffix}",
            "task_queue": f"generation-{suffix}",
            "imaging_task_queue": f"imaging-{suffix}",
        }
    )


@pytest.fixture
def sessions(settings: Settings) -> Iterator[SessionFactory]:
    migrate(settings.resolved_database_url)
    database = make_database(settings.resolved_database_url)
    yield make_session_factory(database)
    database.dispose()


@pytest.fixture
def storage(settings: Settings) -> Storage:
    store = Storage(settings)
    store.ensure_bucket()
    return store


@pytest.fixture(scope="session")
async def temporal(servers: Settings) -> AsyncIterator[Client]:
    yield await Client.connect(servers.temporal_address)


def postgres_available() -> bool:
    try:
        database = create_engine(POSTGRES_URL)
        with database.connect() as conn:
            conn.execute(text("select 1"))
        database.dispose()
        return True
    except Exception:
        return False


def fresh_postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database, dropped afterwards."""
    if not postgres_available():
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is not reachable at {POSTGRES_URL}")
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES_URL}")
    name = f"mm_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    base = POSTGRES_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database for one test."""
    yield from fresh_postgres_database()


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database, once SQLite and once PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db.sqlite'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def database(database_url: str) -> Iterator[SessionFactory]:
    """Sessions on a migrated database, once SQLite and once PostgreSQL (money paths and
    other rules that must hold on both under concurrency)."""
    migrate(database_url)
    with sessions_for(database_url) as sessions:
        yield sessions
