"""Fixtures shared by the modules that run one embedded stack for all their tests: such a
module defines a module-scoped `stack` fixture yielding its Settings, and these give it a
database session factory and an HTTP client for that stack."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.db import SessionFactory
from core.settings import Settings
from tests.support.local_services import UserInfoServer
from tests.support.stacks import database_setting, running_stack, sessions_for


@pytest.fixture(scope="module")
def db(stack: Settings) -> Iterator[SessionFactory]:
    with sessions_for(stack.resolved_database_url) as sessions:
        yield sessions


@pytest.fixture(scope="module")
def api(stack: Settings) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.app_url, timeout=60) as client:
        yield client


@pytest.fixture(scope="module")
def google() -> Iterator[UserInfoServer]:
    """Google's user-info endpoint, locally: it knows none of the tokens a fuzzer sends."""
    server = UserInfoServer({}).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def stack_on_each_database(
    request: pytest.FixtureRequest, tmp_path: Path, google: UserInfoServer
) -> Iterator[Settings]:
    """A stack of a test's own, once on SQLite and once on PostgreSQL (the fuzz tests)."""
    overrides = {"google_userinfo_url": google.url, **database_setting(request, "postgres_url")}
    with running_stack(tmp_path / "stack", **overrides) as running:
        yield running.settings
