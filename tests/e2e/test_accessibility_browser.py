"""Accessibility in Chromium (issue 39): axe-core and the keyboard (web/e2e/accessibility.spec.ts).

axe-core (injected from web/node_modules) finds no violation of WCAG 2.0/2.1 A and AA or of its
best practices on any route, as a guest and as a signed-in user, with the login modal, the image
viewer and the mobile menu open (/docs/api's Redoc reference included: issue 39 item 6). By
keyboard alone: the first Tab reaches the skip link, the 390 px mobile menu keeps focus inside
and gives it back to its button, and a user logs in, makes an image and opens and closes the
viewer, with a focus ring at every stop and the upload page's file input never one of them.

The account and one finished generation (for the viewer) are made through the API first.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path

import httpx

from core.settings import Settings
from tests.support.accounts import PASSWORD, sign_up
from tests.support.api_client import Guest
from tests.support.browser import walk
from tests.support.paths import fixture_images
from tests.support.stacks import sessions_for


class User(Guest):
    """The API client of tests/support, holding a signed-up user's token instead of a guest's."""

    def __init__(self, base_url: str, token: str) -> None:
        super().__init__(base_url)
        self.token = token


def finished_generation(user: User, photo: Path) -> str:
    """The id of a completed generation of `photo` on a photo background."""
    backgrounds = user.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    submitted = user.submit("burstreplace", [user.upload(photo.read_bytes())],
                            backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    service = user.wait_generation(submitted.json()["data"]["serviceId"], timeout=180)
    assert service["status"] == "completed", service
    return str(service["serviceId"])


def test_axe_finds_nothing_and_the_keyboard_reaches_everything(
    stack: Settings, tmp_path: Path
) -> None:
    email = f"a11y-{uuid.uuid4().hex[:8]}@example.com"
    with sessions_for(stack.resolved_database_url) as db, \
            httpx.Client(base_url=stack.app_url, timeout=60) as api:
        token = sign_up(api, db, email)
    people = fixture_images("people")
    generation_id = finished_generation(User(stack.app_url, token), people[0])

    result = walk("accessibility.spec.ts", {
        "BASE_URL": stack.app_url,
        "USER_EMAIL": email,
        "USER_PASSWORD": PASSWORD,
        "SERVICE_ID": generation_id,
        "UPLOAD_IMAGE": str(people[1]),
        "SCREENSHOT_DIR": str(tmp_path),
    }, timeout=900)
    assert result.returncode == 0, f"accessibility walk failed:\n{result.output}"
    assert result.summary == "4 passed, 0 failed", result.output
    assert result.stdout.count("axe: 0 violations") == 2, result.stdout
    tabs = dict(re.findall(r"^TABS (\S+) (\d+)$", result.stdout, re.M))
    print(f"\nTabs from a fresh load: to the menu button at 390 px {tabs.get('menu-button')}, "
          f"to the sidebar's Login at 1280 px {tabs.get('login')}")
    assert set(tabs) == {"menu-button", "login"}, result.stdout
