"""Fixtures shared by the modules that run one embedded stack for all their tests: such a
module defines a module-scoped `stack` fixture yielding its Settings, and these give it a
database session factory and an HTTP client for that stack."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from core.db import SessionFactory
from core.settings import Settings
from tests.support.stacks import sessions_for


@pytest.fixture(scope="module")
def db(stack: Settings) -> Iterator[SessionFactory]:
    with sessions_for(stack.resolved_database_url) as sessions:
        yield sessions


@pytest.fixture(scope="module")
def api(stack: Settings) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.app_url, timeout=60) as client:
        yield client
