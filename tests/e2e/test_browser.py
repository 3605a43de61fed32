"""A guest walks through the whole flow in Chromium, against the running embedded stack.

The walk itself is web/e2e/guest-flow.spec.ts (@playwright/test driving Debian's Chromium); this
test starts the stack, runs it and fails with its output when any step fails.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.settings import Settings
from tests.support.browser import walk
from tests.support.local_services import MailSink
from tests.support.paths import REPO, fixture_images


@pytest.fixture(scope="module")
def mailbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailSink]:
    sink = MailSink(spool=tmp_path_factory.mktemp("mail")).start()
    yield sink
    sink.stop()


@pytest.fixture(scope="module")
def stack_settings(mailbox: MailSink) -> dict[str, object]:
    """The stack mails through the test's mail sink (the accounts walk reads the codes)."""
    return {"smtp_host": "127.0.0.1", "smtp_port": mailbox.port}


def test_guest_walks_upload_model_background_generate_download(
    stack: Settings, tmp_path: Path
) -> None:
    person = fixture_images("people")[0]
    result = walk("guest-flow.spec.ts", {"BASE_URL": stack.app_url, "UPLOAD_IMAGE": str(person),
                                         "SCREENSHOT_DIR": str(tmp_path)})
    assert result.returncode == 0, f"browser walk failed:\n{result.output}"
    assert result.summary == "1 passed, 0 failed", result.output
    assert list(tmp_path.glob("*.png")), "the walk saved no screenshot"


def test_accounts_in_the_browser(stack: Settings, mailbox: MailSink) -> None:
    """Sign-up through the modal with the mailed code, wrong password, both validation
    messages, remember me, and a 401 forcing logout."""
    assert mailbox.spool is not None
    reader = f"{sys.executable} {REPO / 'tests' / 'support' / 'mail_code.py'} {mailbox.spool}"
    result = walk("accounts.spec.ts", {"BASE_URL": stack.app_url, "MAIL_CODE_COMMAND": reader})
    assert result.returncode == 0, f"browser walk failed:\n{result.output}"
    assert result.summary == "6 passed, 0 failed", result.output
