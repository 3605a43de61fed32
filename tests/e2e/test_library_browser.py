"""A user's images outlive the browser: My Images and the output page in Chromium.

The account and two finished images are made through the API first; the walk itself
(web/e2e/library.spec.ts) logs in, generates one more image in the flow, closes the browser, logs in
on a new one, finds all three in My Images, downloads them as one ZIP, gives feedback and deletes
the browser-made generation. Afterwards the server side is checked here: the feedback row, and
that the deleted generation's objects are gone from storage while the others remain.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from core.db import SessionFactory
from core.library.gallery import generation_objects
from core.models.generations import Generation, GenerationImage, ImageFeedback
from core.settings import Settings
from core.storage import Storage
from tests.support.accounts import PASSWORD, sign_up
from tests.support.api_client import Guest
from tests.support.browser import walk
from tests.support.paths import fixture_images
from tests.support.stacks import sessions_for


@pytest.fixture(scope="module")
def db(stack: Settings) -> Iterator[SessionFactory]:
    with sessions_for(stack.resolved_database_url) as sessions:
        yield sessions


class User(Guest):
    """The API client of tests/support, holding a signed-up user's token instead of a guest's."""

    def __init__(self, base_url: str, token: str) -> None:
        super().__init__(base_url)
        self.token = token


def finished_generation(user: User, photos: list[Path]) -> dict[str, Any]:
    keys = [user.upload(photo.read_bytes()) for photo in photos]
    backgrounds = user.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    submitted = user.submit("burstreplace", keys, backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    service = user.wait_generation(submitted.json()["data"]["serviceId"], timeout=180)
    assert service["status"] == "completed", service
    return service


def test_images_outlive_the_browser_zip_feedback_and_delete(
    stack: Settings, db: SessionFactory, tmp_path: Path
) -> None:
    email = f"library-{uuid.uuid4().hex[:8]}@example.com"
    with httpx.Client(base_url=stack.app_url, timeout=60) as api:
        token = sign_up(api, db, email)
    user = User(stack.app_url, token)
    kept = finished_generation(user, fixture_images("people")[:2])

    result = walk("library.spec.ts", {
        "BASE_URL": stack.app_url,
        "USER_EMAIL": email,
        "USER_PASSWORD": PASSWORD,
        "UPLOAD_IMAGE": str(fixture_images("people")[2]),
        "EXPECT_IMAGES": "3",
        "SCREENSHOT_DIR": str(tmp_path),
    })
    assert result.returncode == 0, f"browser walk failed:\n{result.output}"
    assert result.summary == "1 passed, 0 failed", result.output
    deleted_id = re.search(r"^DELETED (\w+)$", result.stdout, re.M)
    rated_id = re.search(r"^FEEDBACK (\w+)$", result.stdout, re.M)
    assert deleted_id and rated_id, result.stdout
    zips = list(tmp_path.glob("*.zip"))
    assert zips, "the walk saved no ZIP"

    storage = Storage(stack)
    with db() as session:
        deleted = session.get(Generation, deleted_id.group(1))
        assert deleted is not None and deleted.deleted_at is not None
        deleted_tasks = list(
            session.execute(select(GenerationImage)
                .where(GenerationImage.generation_id == deleted.id)).scalars()
        )
        kept_generation = session.get(Generation, kept["serviceId"])
        assert kept_generation is not None and kept_generation.deleted_at is None
        kept_tasks = list(
            session.execute(select(GenerationImage)
                .where(GenerationImage.generation_id == kept["serviceId"])).scalars()
        )
        feedback = session.execute(
            select(ImageFeedback).where(ImageFeedback.task_id == rated_id.group(1))
        ).scalar_one()
    assert (feedback.rating, feedback.comment) == ("up", "Lovely light on the jacket")

    # The browser-made generation: every object it made, and its upload, is gone.
    gone = generation_objects(deleted, deleted_tasks) + [t.input_key for t in deleted_tasks]
    assert deleted_tasks and all(t.output_key for t in deleted_tasks)
    assert [key for key in gone if storage.stat(key) is not None] == []
    # The other generation is untouched.
    remaining = [t.output_key for t in kept_tasks if t.output_key]
    assert len(remaining) == 2 and all(storage.stat(key) is not None for key in remaining)
    listed = user.get("/imageedit/service/all").json()["data"]
    assert [item["serviceId"] for item in listed["items"]] == [kept["serviceId"]]
