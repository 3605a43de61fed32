"""Content Credentials in Chromium (issue 37 items 4 and 5; web/e2e/content-credentials.spec.ts).

Through the public API first, with a key of the walk's account: a background replace on white of
one photo. The walk then sees "Content Credentials: AI-generated with MetaModel" on the output
page and in the viewer, opens the details with the keyboard (signer, ingredients, the development
note; axe-clean), downloads the image from the viewer and checks it on /verify: valid Content
Credentials from MetaModel, naming this generation; an unsigned fixture photo carries none. At
390 px the opened details stay inside the window.
Afterwards, here: the downloaded file is byte for byte the signed file the API describes (its
SHA-256 is contentCredentials.sha256).
"""

from __future__ import annotations

import hashlib
import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from core.db import SessionFactory
from core.settings import Settings
from tests.support.accounts import PASSWORD, sign_up
from tests.support.browser import walk
from tests.support.paths import fixture_images
from tests.support.stacks import sessions_for


@pytest.fixture(scope="module")
def db(stack: Settings) -> Iterator[SessionFactory]:
    with sessions_for(stack.resolved_database_url) as sessions:
        yield sessions


def white_background_of(api: httpx.Client, key: dict[str, str], photo: Path) -> dict[str, Any]:
    """A finished public API background replace of `photo` on white: the generation's view."""
    sent = api.post("/api/v1/uploads", headers=key,
                    files={"file": (photo.name, photo.read_bytes(), "image/jpeg")})
    assert sent.status_code == 201, sent.text
    made = api.post("/api/v1/generations", headers=key, json={
        "service": "burstreplace", "inputs": [sent.json()["data"]["key"]], "backgroundId": "white"})
    assert made.status_code == 201, made.text
    generation_id = made.json()["data"]["id"]
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        data: dict[str, Any] = api.get(f"/api/v1/generations/{generation_id}",
                                       headers=key).json()["data"]
        if data["status"] in ("completed", "failed") and data["completedAt"]:
            assert [i["status"] for i in data["images"]] == ["completed"], data
            return data
        time.sleep(0.3)
    raise TimeoutError(generation_id)


def test_credentials_in_the_viewer_and_the_download_verified(
    stack: Settings, db: SessionFactory, tmp_path: Path
) -> None:
    email = f"credentials-{uuid.uuid4().hex[:8]}@example.com"
    person, unsigned = fixture_images("people")[:2]
    with httpx.Client(base_url=stack.app_url, timeout=60) as api:
        token = sign_up(api, db, email)
        made = api.post("/api/v1/api-keys", json={"name": "walk"},
                        headers={"Authorization": f"Bearer {token}"})
        assert made.status_code == 201, made.text
        key = {"Authorization": f"Bearer {made.json()['data']['secret']}"}
        generation = white_background_of(api, key, person)
    credentials = generation["images"][0]["contentCredentials"]
    assert credentials is not None and credentials["generationId"] == generation["id"]

    result = walk("content-credentials.spec.ts", {
        "BASE_URL": stack.app_url,
        "USER_EMAIL": email,
        "USER_PASSWORD": PASSWORD,
        "SERVICE_ID": generation["id"],
        "UNSIGNED_IMAGE": str(unsigned),
        "SCREENSHOT_DIR": str(tmp_path),
    })
    assert result.returncode == 0, f"browser walk failed:\n{result.output}"
    assert result.summary == "1 passed, 0 failed", result.output
    assert re.findall(r"^VERIFIED (\S+)$", result.stdout, re.M) == [generation["id"]], result.stdout
    downloaded = re.findall(r"^DOWNLOADED (.+)$", result.stdout, re.M)
    assert len(downloaded) == 1, result.stdout
    # What the browser saved is the very file that was signed, not a re-encoded copy.
    assert hashlib.sha256(Path(downloaded[0]).read_bytes()).hexdigest() == credentials["sha256"]
    for shot in ("credentials-viewer", "verify-verified", "verify-none", "credentials-tile-390",
                 "credentials-viewer-390"):
        assert (tmp_path / f"{shot}.png").is_file(), f"{shot}.png"
