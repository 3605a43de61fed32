"""A guest walks through the whole flow in Chromium, against the running embedded stack.

The walk itself is web/e2e/guest-flow.mjs (playwright-core driving Debian's Chromium); this test
starts the stack, runs it and fails with its output when any step fails.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import Settings
from ops.stack import Stack, private_settings
from tests.support.local_services import MailSink
from tests.support.paths import FIXTURES, REPO, fixture_images

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def mailbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailSink]:
    sink = MailSink(spool=tmp_path_factory.mktemp("mail")).start()
    yield sink
    sink.stop()


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, mailbox: MailSink) -> Iterator[Settings]:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM} (make test installs it with apt)")
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    if not (REPO / "web" / "dist" / "index.html").exists():
        pytest.fail("web/dist is not built (make test builds it)")
    settings = private_settings(tmp_path_factory.mktemp("browser"))
    env = {"FIXTURES_DIR": str(FIXTURES), "SMTP_HOST": "127.0.0.1",
           "SMTP_PORT": str(mailbox.port)}
    with Stack(settings, log_dir=settings.data_dir / "logs", temporal_ui=False,
               extra_env=env) as running:
        running.start()
        yield settings


def walk(script: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["node", f"e2e/{script}"],
        cwd=REPO / "web",
        env={**os.environ, "CHROMIUM_PATH": CHROMIUM, **env},
        capture_output=True,
        text=True,
        timeout=400,
    )


def test_guest_walks_upload_model_background_generate_download(
    stack: Settings, tmp_path: Path
) -> None:
    person = fixture_images("people")[0]
    result = walk("guest-flow.mjs", {"BASE_URL": stack.app_url, "UPLOAD_IMAGE": str(person),
                                     "SCREENSHOT_DIR": str(tmp_path)})
    assert result.returncode == 0, f"browser walk failed:\n{result.stdout}\n{result.stderr}"
    assert list(tmp_path.glob("*.png")), "the walk saved no screenshot"


def test_accounts_in_the_browser(stack: Settings, mailbox: MailSink) -> None:
    """Sign-up through the modal with the mailed code, wrong password, both validation
    messages, remember me, and a 401 forcing logout."""
    assert mailbox.spool is not None
    reader = f"{sys.executable} {REPO / 'tests' / 'support' / 'mail_code.py'} {mailbox.spool}"
    result = walk("accounts.mjs", {"BASE_URL": stack.app_url, "MAIL_CODE_COMMAND": reader})
    assert result.returncode == 0, f"browser walk failed:\n{result.stdout}\n{result.stderr}"
    assert "0 failed" in result.stdout
