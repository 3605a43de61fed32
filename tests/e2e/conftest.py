"""Fixtures of the browser tests: the running stack each test module walks through."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.settings import Settings
from ops.stack import Stack
from tests.support.browser import require_browser
from tests.support.stacks import running_stack


@pytest.fixture(scope="module")
def stack_settings() -> dict[str, object]:
    """Settings the module's stack starts with; a module overrides this fixture to add some."""
    return {}


@pytest.fixture(scope="module")
def own_stack() -> bool:
    """Whether the module needs a stack of its own even with the default settings (e.g. it
    starts from an empty showcase); a module overrides this fixture to say so."""
    return False


@pytest.fixture(scope="module")
def stack(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    stack_settings: dict[str, object],
    own_stack: bool,
) -> Iterator[Settings]:
    """The whole stack on free ports for the test module, serving web/dist; skips (locally) or
    fails (in CI) without Chromium or a built web app (see require_browser). A module with the
    default settings walks the run's shared stack (tests/conftest.py): every walk signs up its
    own users and guests, so none sees another's data."""
    require_browser()
    if not stack_settings and not own_stack:
        shared: Stack = request.getfixturevalue("shared_stack")
        yield shared.settings
        return
    name = request.module.__name__.rsplit(".", 1)[-1]
    with running_stack(tmp_path_factory.mktemp(name), **stack_settings) as running:
        yield running.settings
