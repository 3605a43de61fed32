"""Running the browser walks of web/e2e (playwright-core driving Debian's Chromium) from a test."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.paths import REPO

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


def require_browser() -> None:
    """Chromium and the built web app, or the reason there is no browser test: a skip on a
    developer's machine without Chromium, a failure in CI (which installs it) or when web/dist
    is not built."""
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM} (make test installs it with apt)")
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    if not (REPO / "web" / "dist" / "index.html").exists():
        pytest.fail("web/dist is not built (make test builds it)")


def empty_dir(path: Path) -> Path:
    """`path`, emptied of what an earlier run left there (e.g. screenshots)."""
    if path.exists():
        shutil.rmtree(path)
    return path


def walk(
    script: str, env: dict[str, str], timeout: float = 400
) -> subprocess.CompletedProcess[str]:
    """Runs web/e2e/<script> with node and this environment (plus CHROMIUM_PATH) and returns
    its result; the caller asserts on the exit code and the lines it printed."""
    return subprocess.run(
        ["node", f"e2e/{script}"],
        cwd=REPO / "web",
        env={**os.environ, "CHROMIUM_PATH": CHROMIUM, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
