"""My Images one image at a time in Chromium, at 1366 and 390 px (issue 33 items 7, 10 and 12's
toast; web/e2e/library-images.spec.ts).

Through the public API first, one generation per width, each of two photos: a person (it
finishes) and an empty scene (the analysis refuses it). The walk logs in after a blank and a
wrong try (the stale "Please enter all the value" toast must give way to the server's error),
sees the failed image's input in My Images, opens and leaves the whole-generation delete, and
deletes the failed image alone. Afterwards, here: each failed image is deleted and its upload gone
from storage, its sibling and the generation are untouched, and no credit moved.
"""

from __future__ import annotations

import re
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from core import credits
from core.db import SessionFactory
from core.models.generations import Generation, GenerationImage
from core.settings import Settings
from core.storage import Storage
from tests.support.accounts import PASSWORD, sign_up
from tests.support.browser import walk
from tests.support.paths import fixture_images
from tests.support.stacks import sessions_for

WIDTHS = (1366, 390)


@pytest.fixture(scope="module")
def db(stack: Settings) -> Iterator[SessionFactory]:
    with sessions_for(stack.resolved_database_url) as sessions:
        yield sessions


def upload(api: httpx.Client, key: dict[str, str], photo: Path) -> str:
    sent = api.post("/api/v1/uploads", headers=key,
                    files={"file": (photo.name, photo.read_bytes(), "image/jpeg")})
    assert sent.status_code == 201, sent.text
    uploaded: str = sent.json()["data"]["key"]
    return uploaded


def one_good_one_refused(api: httpx.Client, key: dict[str, str]) -> str:
    """A finished public API generation of two images: the first made, the second refused."""
    scene = next(p for p in fixture_images("scenes") if p.name == "scene-03.jpg")
    inputs = [upload(api, key, fixture_images("people")[0]), upload(api, key, scene)]
    made = api.post("/api/v1/generations", headers=key, json={
        "service": "burstreplace", "inputs": inputs, "backgroundId": "white"})
    assert made.status_code == 201, made.text
    generation_id: str = made.json()["data"]["id"]
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        data = api.get(f"/api/v1/generations/{generation_id}", headers=key).json()["data"]
        if data["status"] in ("completed", "failed") and data["completedAt"]:
            assert [i["status"] for i in data["images"]] == ["completed", "failed"], data
            return generation_id
        time.sleep(0.3)
    raise TimeoutError(generation_id)


def test_one_image_at_a_time_at_1366_and_390(
    stack: Settings, db: SessionFactory, tmp_path: Path
) -> None:
    email = f"images-{uuid.uuid4().hex[:8]}@example.com"
    with httpx.Client(base_url=stack.app_url, timeout=60) as api:
        token = sign_up(api, db, email)
        made = api.post("/api/v1/api-keys", json={"name": "walk"},
                        headers={"Authorization": f"Bearer {token}"})
        assert made.status_code == 201, made.text
        key = {"Authorization": f"Bearer {made.json()['data']['secret']}"}
        generation_ids = [one_good_one_refused(api, key) for _ in WIDTHS]
    with db() as session:
        account_id = session.get(Generation, generation_ids[0]).account_id  # type: ignore[union-attr]
        ledger = credits.ledger_sum(session, account_id)

    result = walk("library-images.spec.ts", {
        "BASE_URL": stack.app_url,
        "USER_EMAIL": email,
        "USER_PASSWORD": PASSWORD,
        "SERVICE_IDS": ",".join(generation_ids),
        "SCREENSHOT_DIR": str(tmp_path),
    })
    assert result.returncode == 0, f"browser walk failed:\n{result.output}"
    assert result.summary == "1 passed, 0 failed", result.output
    deleted = re.findall(r"^DELETED (\w+)$", result.stdout, re.M)
    kept = re.findall(r"^KEPT (\w+)$", result.stdout, re.M)
    assert len(deleted) == len(kept) == len(WIDTHS), result.stdout
    for width in WIDTHS:
        for shot in ("toast", "my-images-failed", "delete-image", "delete-generation",
                     "after-delete"):
            assert (tmp_path / f"{shot}-{width}.png").is_file(), f"{shot}-{width}.png"

    storage = Storage(stack)
    with db() as session:
        for generation_id in generation_ids:
            generation = session.get(Generation, generation_id)
            assert generation is not None and generation.deleted_at is None
            good, failed = session.execute(
                select(GenerationImage)
                .where(GenerationImage.generation_id == generation_id)
                .order_by(GenerationImage.position)
            ).scalars()
            assert (good.id in kept, failed.id in deleted) == (True, True)
            assert good.deleted_at is None and failed.deleted_at is not None
            assert storage.stat(failed.input_key) is None
            assert all(storage.stat(k) is not None for k in (good.input_key, good.output_key))
        assert credits.ledger_sum(session, account_id) == ledger
