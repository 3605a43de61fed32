"""Every route at 1280, 650 and 390 px for a guest, a user and an admin, in Chromium.

The walk is web/e2e/tmp-orig-routes.mjs: no uncaught error or console error on any page, the sidebar
entries the spec allows for each role (and none it does not), no page wider than the window,
and a screenshot of each under out/screens/ for review.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.enums import UserRole
from core.settings import Settings
from ops.admin import set_role
from tests.support.accounts import PASSWORD, sign_up
from tests.support.paths import REPO
from tests.support.stacks import running_stack, sessions_for

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
SCREENS = REPO / "out" / "screens-orig"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM} (make test installs it with apt)")
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    if not (REPO / "web" / "dist" / "index.html").exists():
        pytest.fail("web/dist is not built (make test builds it)")
    with running_stack(tmp_path_factory.mktemp("routes")) as running:
        yield running.settings


def test_every_route_for_every_role_at_three_widths(stack: Settings) -> None:
    user_email = f"user-{uuid.uuid4().hex[:8]}@example.com"
    admin_email = f"admin-{uuid.uuid4().hex[:8]}@example.com"
    with sessions_for(stack.resolved_database_url) as db, \
            httpx.Client(base_url=stack.app_url, timeout=60) as api:
        sign_up(api, db, user_email)
        sign_up(api, db, admin_email)
        assert set_role(db, admin_email, UserRole.ADMIN)
    if SCREENS.exists():
        shutil.rmtree(SCREENS)
    result = subprocess.run(
        ["node", "e2e/tmp-orig-routes.mjs"],
        cwd=REPO / "web",
        env={**os.environ, "CHROMIUM_PATH": CHROMIUM, "BASE_URL": stack.app_url,
             "USER_EMAIL": user_email, "USER_PASSWORD": PASSWORD,
             "ADMIN_EMAIL": admin_email, "ADMIN_PASSWORD": PASSWORD,
             "SCREENSHOT_DIR": str(SCREENS)},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, f"route walk failed:\n{result.stdout}\n{result.stderr}"
    assert "9 passed, 0 failed" in result.stdout, result.stdout
    shots = list(SCREENS.glob("*.png"))
    assert len(shots) == 3 * 3 * 23, f"{len(shots)} screenshots"
