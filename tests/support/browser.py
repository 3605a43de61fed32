"""Running the browser walks of web/e2e (@playwright/test driving Debian's Chromium) from a test."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.paths import REPO

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
WEB = REPO / "web"
PLAYWRIGHT = WEB / "node_modules" / ".bin" / "playwright"


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


@dataclass(frozen=True)
class WalkResult:
    """What a walk left: its exit code, what it printed (Playwright's list reporter and the
    walk's own lines, such as "serviceId: …"), and the counts of its JSON report."""

    returncode: int
    stdout: str
    stderr: str
    passed: int = 0
    failed: int = 0
    flaky: int = 0
    skipped: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def summary(self) -> str:
        """"N passed, N failed", plus the skipped, flaky and load errors when there are any."""
        text = f"{self.passed} passed, {self.failed} failed"
        for count, what in ((self.skipped, "skipped"), (self.flaky, "flaky"),
                            (len(self.errors), "errors")):
            if count:
                text += f", {count} {what}"
        return text

    @property
    def output(self) -> str:
        """Everything the walk printed, for an assertion's message."""
        return f"{self.summary}\n{self.stdout}\n{self.stderr}"


def _counts(report_file: Path) -> dict[str, Any]:
    """The counts of Playwright's JSON report (none when the run ended before writing it)."""
    try:
        report = json.loads(report_file.read_text())
    except (OSError, ValueError) as error:
        return {"errors": [f"no Playwright report ({error})"]}
    stats = report.get("stats", {})
    return {
        "passed": stats.get("expected", 0),
        "failed": stats.get("unexpected", 0),
        "flaky": stats.get("flaky", 0),
        "skipped": stats.get("skipped", 0),
        "errors": [str(e.get("message", e))[:2000] for e in report.get("errors", [])],
    }


def walk(spec: str, env: dict[str, str], timeout: float = 600, workers: int = 1) -> WalkResult:
    """Runs web/e2e/<spec> with Playwright (web/playwright.config.ts) and this environment
    (plus CHROMIUM_PATH) and returns its result; the caller asserts on the exit code, the counts
    (`result.summary == "4 passed, 0 failed"`) and the lines the walk printed. Over `timeout`
    seconds the whole run (Playwright, its worker and Chromium) is killed and the test fails with
    what it printed so far. `workers` > 1 only for a spec whose describes may run at once."""
    with tempfile.TemporaryDirectory(prefix="walk-") as tmp:
        report = Path(tmp) / "report.json"
        process = subprocess.Popen(
            [str(PLAYWRIGHT), "test", f"e2e/{spec}", f"--workers={workers}"],
            cwd=WEB,
            env={**os.environ, "CHROMIUM_PATH": CHROMIUM, **env,
                 "PLAYWRIGHT_JSON_OUTPUT_FILE": str(report)},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            pytest.fail(f"the walk {spec} ran over {timeout:.0f} s:\n{stdout}\n{stderr}")
        return WalkResult(process.returncode, stdout, stderr, **_counts(report))
