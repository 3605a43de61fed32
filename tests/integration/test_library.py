"""The library over HTTP against the running stack: gallery, feedback, sharing and the showcase,
ZIP downloads, deletion, admin curation and retouched images, credit usage, contact, config,
and that nobody reaches another account's images."""

from __future__ import annotations

import io
import re
import uuid
import zipfile
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from PIL import Image
from sqlalchemy import select

from api.main import create_app
from core import credits
from core.db import SessionFactory
from core.enums import UserRole
from core.models.generations import Generation, GenerationImage
from core.models.messages import ContactMessage, OutboxMessage
from core.settings import Settings
from core.storage import Storage
from ops.admin import set_role
from ops.stack import Stack
from tests.support.accounts import sign_up
from tests.support.api_client import Guest
from tests.support.paths import fixture_images


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Settings:
    """The run's shared stack (tests/conftest.py): each test here makes its own guests and
    accounts and looks only at those."""
    return shared_stack.settings



@pytest.fixture(scope="module")
def storage(stack: Settings) -> Storage:
    return Storage(stack)



def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def generate(guest: Guest, photos: list[bytes]) -> dict[str, Any]:
    """A finished background replace of the photos; the generation as the API shows it."""
    keys = [guest.upload(photo) for photo in photos]
    backgrounds = guest.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    submitted = guest.submit("burstreplace", keys, backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    generation_id = submitted.json()["data"]["serviceId"]
    guest.wait(submitted.json()["data"]["taskIds"])
    service = guest.wait_generation(generation_id)
    assert service["status"] == "completed", service
    return service


@pytest.fixture(scope="module")
def owner(stack: Settings) -> Guest:
    return Guest(stack.app_url)


@pytest.fixture(scope="module")
def three(owner: Guest) -> dict[str, Any]:
    photos = [path.read_bytes() for path in fixture_images("people")[:3]]
    return generate(owner, photos)


def test_gallery_lists_each_image_and_filters_by_service(
    owner: Guest, three: dict[str, Any]
) -> None:
    task_ids = [task["taskId"] for task in three["tasks"]]
    page = owner.get("/imageedit/service/gallery", serviceType="burstreplace").json()["data"]
    assert page["total"] == 3
    assert sorted(item["taskId"] for item in page["items"]) == sorted(task_ids)
    item = page["items"][0]
    assert item["serviceId"] == three["serviceId"] and item["edited"] is None
    assert httpx.get(item["output"]["url"]).status_code == 200
    assert httpx.get(item["inputThumbnailUrl"]).status_code == 200
    # The default service is bodySwap, of which this account has none.
    assert owner.get("/imageedit/service/gallery").json()["data"]["total"] == 0


def test_feedback_is_one_per_image_and_editable(
    owner: Guest, three: dict[str, Any], db: SessionFactory
) -> None:
    task_id = three["tasks"][0]["taskId"]
    first = owner.post("/imageedit/service/feedback", json={"taskId": task_id, "rating": "up"})
    assert first.status_code == 200, first.text
    again = owner.post("/imageedit/service/feedback",
                       json={"taskId": task_id, "rating": "down", "comment": " too dark "})
    assert again.json()["data"] == {"taskId": task_id, "rating": "down", "comment": "too dark"}
    items = owner.get("/imageedit/service/gallery", serviceType="burstreplace").json()["data"]
    mine = next(i for i in items["items"] if i["taskId"] == task_id)
    assert (mine["rating"], mine["comment"]) == ("down", "too dark")
    # The generation's own views carry the owner's verdict too (My Images, the output page).
    service = owner.get(f"/imageedit/service/{three['serviceId']}").json()["data"]
    shown = {t["taskId"]: (t["rating"], t["comment"]) for t in service["tasks"]}
    assert shown[task_id] == ("down", "too dark")
    assert sum(v == (None, "") for v in shown.values()) == len(shown) - 1
    listed = owner.get("/imageedit/service/all").json()["data"]["items"]
    assert any(t["taskId"] == task_id and t["rating"] == "down"
               for item in listed for t in item["tasks"])
    bad = owner.post("/imageedit/service/feedback", json={"taskId": task_id, "rating": "meh"})
    assert bad.status_code == 422 and "rating" in bad.json()["message"]


def test_nobody_reaches_another_accounts_images(
    stack: Settings, three: dict[str, Any]
) -> None:
    stranger = Guest(stack.app_url)
    task_id = three["tasks"][0]["taskId"]
    generation_id = three["serviceId"]
    attempts = [
        stranger.post("/imageedit/service/feedback", json={"taskId": task_id, "rating": "up"}),
        stranger.post("/imageedit/service/share", json={"taskId": task_id, "shared": True}),
        stranger.post("/imageedit/service/download", json={"taskIds": [task_id]}),
        stranger.http.delete(f"/imageedit/service/{generation_id}", headers=stranger.headers),
        stranger.get(f"/imageedit/service/{generation_id}"),
        stranger.poll([task_id]),
    ]
    assert [r.status_code for r in attempts] == [404] * len(attempts)
    assert stranger.get("/imageedit/service/gallery", serviceType="burstreplace").json()[
        "data"]["total"] == 0


def test_zip_of_three_streams_every_original(owner: Guest, three: dict[str, Any]) -> None:
    task_ids = [task["taskId"] for task in three["tasks"]]
    response = owner.post("/imageedit/service/download", json={"taskIds": task_ids})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/zip"
    assert int(response.headers["content-length"]) == len(response.content)
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = archive.namelist()
    assert len(names) == 3 and all(name.endswith(".jpg") for name in names)
    for task, name in zip(three["tasks"], names, strict=True):
        original = httpx.get(task["outputs"][0]["url"]).content
        assert archive.read(name) == original  # the original, not the thumbnail
        assert Image.open(io.BytesIO(archive.read(name))).size[0] > 384
    too_many = owner.post("/imageedit/service/download", json={"taskIds": []})
    assert too_many.status_code == 422


def test_sharing_curating_and_the_public_showcase(
    api: httpx.Client, db: SessionFactory, owner: Guest, three: dict[str, Any]
) -> None:
    task_id = three["tasks"][1]["taskId"]

    def public() -> list[str]:
        page = api.get("/imageedit/service/showCaseFromS3", params={
            "serviceType": "burstreplace"}).json()["data"]
        return [item["taskId"] for item in page["items"]]

    user = sign_up(api, db, f"user-{uuid.uuid4().hex[:8]}@example.com")
    admin_email = f"admin-{uuid.uuid4().hex[:8]}@example.com"
    admin = sign_up(api, db, admin_email)
    assert set_role(db, admin_email, UserRole.ADMIN)

    # Not shared: an operator cannot put it on the showcase.
    refused = api.put(f"/api/v1/admin/showcase/{task_id}", json={"showcased": True},
                      headers=bearer(admin))
    assert refused.status_code == 404
    assert owner.post("/imageedit/service/share",
                      json={"taskId": task_id, "shared": True}).json()["data"]["shared"]
    assert task_id not in public()  # shared, but not picked yet

    # Only admins reach the admin endpoints.
    for headers, status in ((bearer(user), 403), (owner.headers, 401), ({}, 401)):
        answer = api.get("/api/v1/admin/showcase", headers=headers)
        assert answer.status_code == status, answer.text
        assert "message" in answer.json()
    candidates = api.get("/api/v1/admin/showcase", headers=bearer(admin)).json()["data"]
    assert task_id in [item["taskId"] for item in candidates["items"]]

    picked = api.put(f"/api/v1/admin/showcase/{task_id}", json={"showcased": True},
                     headers=bearer(admin))
    assert picked.status_code == 200 and picked.json()["data"]["showcased"] is True
    assert public() == [task_id]
    pair = api.get("/imageedit/service/showCaseFromS3",
                   params={"serviceType": "burstreplace"}).json()["data"]["items"][0]
    assert httpx.get(pair["inputThumbnailUrl"]).status_code == 200
    assert httpx.get(pair["outputUrl"]).status_code == 200

    # The owner withdraws consent: off the showcase at once.
    owner.post("/imageedit/service/share", json={"taskId": task_id, "shared": False})
    assert public() == []


def test_admin_attaches_an_edited_image_the_owner_sees_it_and_a_deletion_shows(
    api: httpx.Client, db: SessionFactory, stack: Settings
) -> None:
    owner_email = f"owner-{uuid.uuid4().hex[:8]}@example.com"
    fingerprint = uuid.uuid4().hex
    guest = Guest(stack.app_url, fingerprint)
    service = generate(guest, [fixture_images("people")[0].read_bytes()])
    token = sign_up_with_fingerprint(api, db, owner_email, fingerprint)
    admin_email = f"ops-{uuid.uuid4().hex[:8]}@example.com"
    admin = sign_up(api, db, admin_email)
    set_role(db, admin_email, UserRole.ADMIN)

    found = api.get("/api/v1/admin/generations", params={"email": owner_email},
                    headers=bearer(admin)).json()["data"]["items"]
    assert [f["generation"]["serviceId"] for f in found] == [service["serviceId"]]
    assert found[0]["temporalUrl"].endswith(f"/workflows/{service['serviceId']}")
    task_id = service["tasks"][0]["taskId"]
    edited = Image.new("RGB", (600, 800), (200, 30, 30))
    buffer = io.BytesIO()
    edited.save(buffer, "JPEG")
    attached = api.post(f"/api/v1/admin/edits/{task_id}", headers=bearer(admin),
                        files={"file": ("edit.jpg", buffer.getvalue(), "image/jpeg")})
    assert attached.status_code == 200, attached.text

    mine = api.get(f"/imageedit/service/{service['serviceId']}", headers=bearer(token))
    task = mine.json()["data"]["tasks"][0]
    assert task["edited"] is not None and task["outputs"]
    got = Image.open(io.BytesIO(httpx.get(task["edited"]["url"]).content))
    assert got.size == (600, 800)
    with db() as session:
        mailed = session.execute(select(OutboxMessage).where(
            OutboxMessage.to_address == owner_email, OutboxMessage.kind == "edited-image"
        )).scalars().all()
    assert len(mailed) == 1 and service["serviceId"] in mailed[0].body
    not_image = api.post(f"/api/v1/admin/edits/{task_id}", headers=bearer(admin),
                         files={"file": ("x.jpg", b"not an image", "image/jpeg")})
    assert not_image.status_code == 422
    assert found[0]["deletedAt"] is None

    # Its owner deletes it: the operator sees when, and no images or actions remain.
    deleted = api.delete(f"/imageedit/service/{service['serviceId']}", headers=bearer(token))
    assert deleted.status_code == 200, deleted.text
    found = api.get("/api/v1/admin/generations", params={"serviceId": service["serviceId"]},
                    headers=bearer(admin)).json()["data"]["items"]
    assert len(found) == 1 and found[0]["deletedAt"] is not None
    gone = found[0]["generation"]["tasks"][0]
    assert gone["outputs"] == [] and gone["edited"] is None and gone["inputThumbnailUrl"] == ""
    again = api.post(f"/api/v1/admin/edits/{task_id}", headers=bearer(admin),
                     files={"file": ("edit.jpg", buffer.getvalue(), "image/jpeg")})
    assert again.status_code == 404, again.text


def sign_up_with_fingerprint(
    api: httpx.Client, db: SessionFactory, email: str, fingerprint: str
) -> str:
    """Sign up on the guest's browser, so the guest's generations become the user's."""
    api.headers["x-fingerprint-id"] = fingerprint
    try:
        return sign_up(api, db, email)
    finally:
        del api.headers["x-fingerprint-id"]


def test_delete_removes_the_objects_and_keeps_the_ledger(
    stack: Settings, db: SessionFactory, storage: Storage
) -> None:
    guest = Guest(stack.app_url)
    service = generate(guest, [fixture_images("people")[1].read_bytes()])
    generation_id = service["serviceId"]
    with db() as session:
        generation = session.get(Generation, generation_id)
        assert generation is not None
        task = session.execute(select(GenerationImage)
            .where(GenerationImage.generation_id == generation_id)).scalar_one()
        ledger_before = credits.ledger_sum(session, generation.account_id)
    keys = [task.output_key, task.output_thumbnail_key, task.input_key]
    assert all(key and storage.stat(key) is not None for key in keys)

    deleted = guest.http.delete(f"/imageedit/service/{generation_id}", headers=guest.headers)
    assert deleted.status_code == 200, deleted.text
    assert deleted.json()["data"]["removedObjects"] >= 3
    assert all(storage.stat(key or "") is None for key in keys)
    assert guest.get(f"/imageedit/service/{generation_id}").status_code == 404
    assert guest.generation_count() == 0
    with db() as session:
        generation = session.get(Generation, generation_id)
        assert generation is not None and generation.deleted_at is not None
        assert credits.ledger_sum(session, generation.account_id) == ledger_before
    again = guest.http.delete(f"/imageedit/service/{generation_id}", headers=guest.headers)
    assert again.status_code == 404


def test_credit_usage_per_day_from_the_ledger(api: httpx.Client, db: SessionFactory,
                                              stack: Settings) -> None:
    fingerprint = uuid.uuid4().hex
    guest = Guest(stack.app_url, fingerprint)
    generate(guest, [fixture_images("people")[2].read_bytes()])
    token = sign_up_with_fingerprint(api, db, f"usage-{uuid.uuid4().hex[:8]}@example.com",
                                     fingerprint)
    usage = api.get("/api/v1/user/creditUsage", headers=bearer(token)).json()["data"]
    assert len(usage["days"]) == 30 and usage["totalSpent"] == 1
    assert usage["days"][-1]["spent"] == 1 and usage["days"][-1]["date"] == usage["toDate"]
    assert api.get("/api/v1/user/creditUsage", params={"fromDate": "2026-02-01",
                   "toDate": "2026-01-01"}, headers=bearer(token)).status_code == 422
    assert api.get("/api/v1/user/creditUsage", headers=guest.headers).status_code == 401


def test_contact_is_kept_mailed_to_support_and_rate_limited(
    api: httpx.Client, db: SessionFactory, stack: Settings
) -> None:
    email = f"visitor-{uuid.uuid4().hex[:8]}@example.com"
    body = {"name": "Vi", "email": email, "topic": "appointment", "message": "Call me"}
    sent = api.post("/api/v1/contact", json=body)
    assert sent.status_code == 200, sent.text
    with db() as session:
        kept = session.get(ContactMessage, sent.json()["data"]["id"])
        assert kept is not None and kept.topic == "appointment"
        queued = session.execute(select(OutboxMessage).where(
            OutboxMessage.kind == "contact", OutboxMessage.body.contains(email))).scalar_one()
    assert queued.to_address == stack.support_email
    answers = [api.post("/api/v1/contact", json=body).status_code for _ in range(5)]
    assert answers[-1] == 429
    assert api.post("/api/v1/contact", json={**body, "email": "nope"}).status_code == 422


def test_config_is_the_servers_limits(api: httpx.Client, stack: Settings) -> None:
    config = api.get("/api/v1/config").json()["data"]
    assert config["maxUploadBytes"] == stack.max_upload_bytes
    assert config["minImageSide"] == 256 and "image/jpeg" in config["acceptedTypes"]


def test_service_id_and_api_key(stack: Settings, owner: Guest) -> None:
    fresh = owner.get("/imageedit/service/id").json()["data"]["serviceId"]
    assert re.fullmatch(r"[0-9a-f]{32}", fresh)
    keyed = stack.model_copy(update={"api_keys": ["k-123"]})
    with TestClient(create_app(keyed)) as client:
        headers = {"x-fingerprint-id": uuid.uuid4().hex}
        refused = client.post("/imageedit/users/guestlogin", headers=headers)
        assert refused.status_code == 401 and "x-api-key" in refused.json()["message"]
        allowed = client.post("/imageedit/users/guestlogin",
                              headers={**headers, "x-api-key": "k-123"})
        assert allowed.status_code == 200
        # The main API (/api/v1) does not ask for it.
        assert client.get("/api/v1/config").status_code == 200
