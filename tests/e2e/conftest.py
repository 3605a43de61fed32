"""Fixtures of the browser tests: the running stack each test module walks through."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.settings import Settings
from tests.support.browser import require_browser
from tests.support.stacks import running_stack


@pytest.fixture(scope="module")
def stack_settings() -> dict[str, object]:
    """Settings the module's stack starts with; a module overrides this fixture to add some."""
    return {}


@pytest.fixture(scope="module")
def stack(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    stack_settings: dict[str, object],
) -> Iterator[Settings]:
    """The whole stack on free ports for the test module, serving web/dist; skips (locally) or
    fails (in CI) without Chromium or a built web app (see require_browser)."""
    require_browser()
    name = request.module.__name__.rsplit(".", 1)[-1]
    with running_stack(tmp_path_factory.mktemp(name), **stack_settings) as running:
        yield running.settings
