"""My Images against the running stack, one image at a time (issue 33): the trash icon on one
image of a generation deletes that image only, nothing else and no credits (item 7), and an
image the public API made shows its input even when it failed (item 10: its upload had no
thumbnail, and a photo the analysis refused never got one)."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from core import credits
from core.db import SessionFactory
from core.keys import thumbnail_key
from core.models.generations import Generation, GenerationImage
from core.settings import Settings
from core.storage import Storage
from ops.stack import Stack
from tests.support.accounts import sign_up
from tests.support.paths import fixture_images


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Settings:
    """The run's shared stack (tests/conftest.py): each test here makes its own guests and
    accounts and looks only at those."""
    return shared_stack.settings


@pytest.fixture(scope="module")
def storage(stack: Settings) -> Storage:
    return Storage(stack)


class Shop:
    """A signed-in user (the web app's session) with a live API key."""

    def __init__(self, api: httpx.Client, db: SessionFactory) -> None:
        self.api = api
        token = sign_up(api, db, f"shop-{uuid.uuid4().hex[:8]}@example.com")
        self.session = {"Authorization": f"Bearer {token}"}
        made = api.post("/api/v1/api-keys", json={"name": "sync"}, headers=self.session)
        assert made.status_code == 201, made.text
        self.key = {"Authorization": f"Bearer {made.json()['data']['secret']}"}

    def upload_file(self, photo: Path) -> str:
        """The image inside the request (`file`)."""
        sent = self.api.post("/api/v1/uploads", headers=self.key,
                             files={"file": (photo.name, photo.read_bytes(), "image/jpeg")})
        assert sent.status_code == 201, sent.text
        key: str = sent.json()["data"]["key"]
        return key

    def upload_by_url(self, photo: Path) -> str:
        """An upload URL, then a PUT straight to storage."""
        data = photo.read_bytes()
        sent = self.api.post("/api/v1/uploads", headers=self.key, data={
            "filename": photo.name, "mimeType": "image/jpeg", "size": str(len(data))})
        assert sent.status_code == 201, sent.text
        put = httpx.put(sent.json()["data"]["uploadUrl"], content=data,
                        headers={"Content-Type": "image/jpeg"})
        assert put.status_code in (200, 204), put.text
        key: str = sent.json()["data"]["key"]
        return key

    def generate(self, keys: list[str]) -> str:
        made = self.api.post("/api/v1/generations", headers=self.key, json={
            "service": "burstreplace", "inputs": keys, "backgroundId": "white"})
        assert made.status_code == 201, made.text
        generation_id: str = made.json()["data"]["id"]
        return generation_id

    def wait(self, generation_id: str) -> dict[str, Any]:
        """The generation as My Images shows it, once finished."""
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            got = self.api.get(f"/imageedit/service/{generation_id}", headers=self.session)
            assert got.status_code == 200, got.text
            data: dict[str, Any] = got.json()["data"]
            if data["status"] in ("completed", "failed") and data["completedAt"]:
                return data
            time.sleep(0.3)
        raise TimeoutError(generation_id)

    def balance(self) -> int:
        got = self.api.get("/api/v1/user/creditsAvailable", headers=self.session)
        assert got.status_code == 200, got.text
        total: int = got.json()["data"]["creditsAvailable"]["total"]
        return total

    def delete_image(self, generation_id: str, task_id: str) -> httpx.Response:
        return self.api.delete(f"/imageedit/service/{generation_id}/task/{task_id}",
                               headers=self.session)


def person() -> Path:
    return fixture_images("people")[0]


def scene(name: str) -> Path:
    """A place without anybody in it: the analysis refuses it ("nothing to cut out")."""
    return next(p for p in fixture_images("scenes") if p.name == name)


def tasks_of(db: SessionFactory, generation_id: str) -> list[GenerationImage]:
    with db() as session:
        return list(session.execute(
            select(GenerationImage)
            .where(GenerationImage.generation_id == generation_id)
            .order_by(GenerationImage.position)
        ).scalars())


def test_a_failed_public_api_image_shows_its_input(api: httpx.Client, db: SessionFactory) -> None:
    shop = Shop(api, db)
    keys = [shop.upload_file(person()), shop.upload_file(scene("scene-03.jpg")),
            shop.upload_by_url(scene("scene-01.jpg"))]
    generation = shop.wait(shop.generate(keys))
    assert [t["status"] for t in generation["tasks"]] == ["completed", "failed", "failed"]

    listed = api.get("/imageedit/service/all", headers=shop.session).json()["data"]["items"]
    (shown,) = [g for g in listed if g["serviceId"] == generation["serviceId"]]
    for task in shown["tasks"]:
        # Each input, the refused ones' included, whichever way it was uploaded.
        thumb = httpx.get(task["inputThumbnailUrl"])
        assert thumb.status_code == 200, (task["status"], task["inputKey"], thumb.status_code)
        assert thumb.content[:3] == b"\xff\xd8\xff"


def test_deleting_one_image_keeps_its_siblings(
    api: httpx.Client, db: SessionFactory, storage: Storage
) -> None:
    shop = Shop(api, db)
    generation_id = shop.generate([shop.upload_file(person()),
                                   shop.upload_file(scene("scene-03.jpg"))])
    shown = shop.wait(generation_id)
    good, failed = shown["tasks"]
    assert (good["status"], failed["status"]) == ("completed", "failed")
    good_row, failed_row = tasks_of(db, generation_id)
    assert good_row.output_key
    kept = [good_row.input_key, thumbnail_key(good_row.input_key), good_row.output_key]
    assert all(storage.stat(key) is not None for key in kept)
    balance = shop.balance()
    with db() as session:
        account_id = session.get(Generation, generation_id).account_id  # type: ignore[union-attr]
        ledger = credits.ledger_sum(session, account_id)

    # The trash icon on the failed image: that image only.
    deleted = shop.delete_image(generation_id, failed["taskId"])
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["data"] == {"serviceId": generation_id, "taskId": failed["taskId"],
                                      "removedObjects": 2, "generationDeleted": False}
    # Its upload and the upload's thumbnail are gone; the good image and its input remain.
    assert storage.stat(failed_row.input_key) is None
    assert storage.stat(thumbnail_key(failed_row.input_key)) is None
    assert all(storage.stat(key) is not None for key in kept)
    after = api.get(f"/imageedit/service/{generation_id}", headers=shop.session)
    assert [t["taskId"] for t in after.json()["data"]["tasks"]] == [good["taskId"]]
    listed = api.get("/imageedit/service/all", headers=shop.session).json()["data"]["items"]
    assert [[t["taskId"] for t in g["tasks"]] for g in listed] == [[good["taskId"]]]
    public = api.get(f"/api/v1/generations/{generation_id}", headers=shop.key).json()["data"]
    assert [image["id"] for image in public["images"]] == [good["taskId"]]
    polled = api.get("/api/v1/task/pollTasks", params={"taskIds": f'["{failed["taskId"]}"]'},
                     headers=shop.session)
    assert polled.status_code == 404
    # Once only, and only the owner's, of this generation.
    again = shop.delete_image(generation_id, failed["taskId"])
    assert again.status_code == 404 and again.json()["message"] == "That image was not found."
    stranger = Shop(api, db)
    assert stranger.delete_image(generation_id, good["taskId"]).status_code == 404
    other = stranger.generate([stranger.upload_file(person())])
    assert shop.delete_image(other, good["taskId"]).status_code == 404
    stranger.wait(other)

    # The last image takes the generation with it.
    last = shop.delete_image(generation_id, good["taskId"])
    assert last.status_code == 200, last.text
    assert last.json()["data"]["generationDeleted"] is True
    assert all(storage.stat(key) is None for key in kept)
    assert api.get(f"/imageedit/service/{generation_id}",
                   headers=shop.session).status_code == 404
    assert api.get("/imageedit/service/all", headers=shop.session).json()["data"]["total"] == 0
    # Nothing charged or refunded by either delete.
    assert shop.balance() == balance
    with db() as session:
        assert credits.ledger_sum(session, account_id) == ledger
        assert session.get(Generation, generation_id).deleted_at is not None  # type: ignore[union-attr]


def test_an_image_of_a_running_generation_waits(api: httpx.Client, db: SessionFactory) -> None:
    shop = Shop(api, db)
    generation_id = shop.generate([shop.upload_file(person())])
    (task,) = tasks_of(db, generation_id)
    early = shop.delete_image(generation_id, task.id)
    assert early.status_code == 422, early.text
    assert "still running" in early.json()["message"]
    shop.wait(generation_id)
    assert shop.delete_image(generation_id, task.id).status_code == 200


def test_a_rerender_keeps_the_input_of_its_deleted_original(
    api: httpx.Client, db: SessionFactory, storage: Storage
) -> None:
    shop = Shop(api, db)
    generation_id = shop.generate([shop.upload_file(person())])
    original = shop.wait(generation_id)["tasks"][0]
    made = api.post(f"/api/v1/task/{original['taskId']}/placement", headers=shop.session,
                    json={"x": 0.1, "y": 0.0, "scale": 0.8})
    assert made.status_code == 200, made.text
    version = made.json()["data"]["taskId"]
    deadline = time.monotonic() + 180
    while True:
        polled = api.get("/api/v1/task/pollTasks", params={"taskIds": f'["{version}"]'},
                         headers=shop.session).json()["data"][0]
        if polled["status"] in ("completed", "failed"):
            break
        assert time.monotonic() < deadline, polled
        time.sleep(0.3)
    assert polled["status"] == "completed", polled
    first, _ = tasks_of(db, generation_id)
    assert first.output_key

    # The original goes; the new version renders the same upload, which stays with its thumbnail.
    deleted = shop.delete_image(generation_id, original["taskId"])
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["data"]["generationDeleted"] is False
    assert storage.stat(first.output_key) is None
    assert storage.stat(first.input_key) is not None
    shown = api.get(f"/imageedit/service/{generation_id}", headers=shop.session).json()["data"]
    assert [t["taskId"] for t in shown["tasks"]] == [version]
    assert httpx.get(shown["tasks"][0]["inputThumbnailUrl"]).status_code == 200
    # The original cannot be re-rendered any more; the version can be deleted, and then the
    # upload goes too, with the generation.
    again = api.post(f"/api/v1/task/{original['taskId']}/placement", headers=shop.session,
                     json={"x": 0.0, "y": 0.0, "scale": 1.0})
    assert again.status_code == 404
    last = shop.delete_image(generation_id, version)
    assert last.status_code == 200 and last.json()["data"]["generationDeleted"] is True
    assert storage.stat(first.input_key) is None
    assert storage.stat(thumbnail_key(first.input_key)) is None
