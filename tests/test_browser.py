"""A guest walks through the whole flow in Chromium, against the running embedded stack.

The walk itself is web/e2e/guest-flow.mjs (playwright-core driving Debian's Chromium); this test
starts the stack, runs it and fails with its output when any step fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import Settings
from ops.stack import Stack, private_settings
from tests.conftest import FIXTURES, REPO, fixture_images

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM} (make test installs it with apt)")
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    if not (REPO / "web" / "dist" / "index.html").exists():
        pytest.fail("web/dist is not built (make test builds it)")
    settings = private_settings(tmp_path_factory.mktemp("browser"))
    with Stack(settings, log_dir=settings.data_dir / "logs", temporal_ui=False,
               extra_env={"FIXTURES_DIR": str(FIXTURES)}) as running:
        running.start()
        yield settings


def test_guest_walks_upload_model_background_generate_download(
    stack: Settings, tmp_path: Path
) -> None:
    person = fixture_images("people")[0]
    result = subprocess.run(
        ["node", "e2e/guest-flow.mjs"],
        cwd=REPO / "web",
        env={
            **os.environ,
            "BASE_URL": stack.app_url,
            "UPLOAD_IMAGE": str(person),
            "SCREENSHOT_DIR": str(tmp_path),
            "CHROMIUM_PATH": CHROMIUM,
        },
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"browser walk failed:\n{result.stdout}\n{result.stderr}"
    assert list(tmp_path.glob("*.png")), "the walk saved no screenshot"
