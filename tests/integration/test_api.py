"""The API over HTTP against the running embedded stack (Temporal, S3, SQLite, worker, API)."""

from __future__ import annotations

import io
import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from PIL import Image
from sqlalchemy import select

from core.auth.tokens import issue_token
from core.db import make_database, make_session_factory
from core.models.messages import OutboxMessage
from core.photos.images import encode_jpeg
from core.settings import Settings
from tests.support.api_client import Guest
from tests.support.paths import FIXTURES, fixture_images
from tests.support.stacks import running_stack


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with running_stack(tmp_path_factory.mktemp("stack")) as running:
        yield running.settings


@pytest.fixture(scope="module")
def base_url(stack: Settings) -> str:
    return stack.app_url


@pytest.fixture(scope="module")
def person() -> bytes:
    return fixture_images("people")[0].read_bytes()


def test_guest_path_end_to_end(base_url: str, person: bytes, stack: Settings) -> None:
    guest = Guest(base_url)
    assert guest.start_credits == 5
    key = guest.upload(person)

    thumb = guest.post("/api/v1/util/createThumbnail", json={"key": key})
    assert thumb.status_code == 200, thumb.text
    assert httpx.get(thumb.json()["data"]["thumbnailUrl"]).status_code == 200

    models = guest.get("/api/v1/model", pageNum=1, pageSize=2, currentProduct="bodySwap").json()
    assert len(models["data"]["items"]) == 2 and models["data"]["total"] >= 2
    backgrounds = guest.get("/imageedit/seed", type="background", pagenum=1, pagesize=18).json()
    ids = [item["_id"] for item in backgrounds["data"]["items"]]
    assert ids[:2] == ["transparent", "white"]
    model_id, background_id = models["data"]["items"][0]["_id"], ids[2]

    cost = guest.post("/api/v1/request/costPublic", json={
        "backgroundId": background_id, "modelId": model_id, "inputFiles": [key],
        "requestType": "bodySwap"})
    assert cost.json() == {"data": {"credits": 1}}

    submitted = guest.submit("bodySwap", [key], modelId=model_id, backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    data = submitted.json()["data"]
    assert data["status"] == "queued" and data["credits"] == 1 and len(data["taskIds"]) == 1

    (task,) = guest.wait(data["taskIds"])
    assert task["status"] == "completed", task
    assert task["progress"] == 100 and task["error"] is None
    result = httpx.get(task["outputs"][0]["url"])
    assert result.status_code == 200
    assert Image.open(io.BytesIO(result.content)).size == Image.open(io.BytesIO(person)).size
    assert httpx.get(task["outputs"][0]["thumbnailUrl"]).status_code == 200
    assert guest.credits() == 4

    service = guest.wait_generation(data["serviceId"])
    assert service["status"] == "completed" and service["tasks"][0]["taskId"] == task["taskId"]
    listed = guest.get("/imageedit/service/all", service="bodySwap", pageNumber=1,
                       pageSize=90).json()["data"]
    assert [s["serviceId"] for s in listed["items"]] == [data["serviceId"]]

    # The guest asks for an email after the result is ready: it is queued at once, once.
    for _ in range(2):
        ok = guest.post("/imageedit/service/updateguestemail",
                        json={"email": "guest@example.com", "serviceId": data["serviceId"]})
        assert ok.json() == {"data": {"ok": True}}
    database = make_database(stack.resolved_database_url)
    with make_session_factory(database)() as session:
        mails = session.execute(select(OutboxMessage)).scalars().all()
    database.dispose()
    assert [(m.to_address, m.subject) for m in mails] == [
        ("guest@example.com", "Your images are ready")]


def _state(tasks: list[dict[str, object]]) -> str:
    return ",".join(f"{t['status']}:{t['progress']}" for t in tasks)


def test_long_poll_answers_when_a_task_moves_on(base_url: str, person: bytes) -> None:
    guest = Guest(base_url)
    key = guest.upload(person)
    submitted = guest.submit("bodySwap", [key], modelId="model-1", backgroundId="bg-1")
    task_ids = submitted.json()["data"]["taskIds"]
    ids = json.dumps(task_ids)

    # Follow the task as the web app does: each answer differs from what was last seen, and
    # arrives long before the 20 s wait runs out (the engine needs about a second).
    since, answers, started = "queued:0", 0, time.monotonic()
    while True:
        response = guest.get("/api/v1/task/pollTasks", taskIds=ids, since=since, waitMs=20000)
        assert response.status_code == 200, response.text
        tasks = response.json()["data"]
        answers += 1
        assert _state(tasks) != since, f"answered without a change after {answers} polls"
        since = _state(tasks)
        if tasks[0]["status"] in ("completed", "failed"):
            break
    assert tasks[0]["status"] == "completed" and tasks[0]["outputs"], tasks
    assert time.monotonic() - started < 15 and answers <= 25

    # Nothing changes any more: the server holds the request for the whole wait, then answers
    # with the same state.
    held = time.monotonic()
    response = guest.get("/api/v1/task/pollTasks", taskIds=ids, since=since, waitMs=1500)
    assert _state(response.json()["data"]) == since and time.monotonic() - held >= 1.4

    # A stale `since` is answered at once; no `since` means a plain poll.
    quick = time.monotonic()
    response = guest.get("/api/v1/task/pollTasks", taskIds=ids, since="queued:0", waitMs=20000)
    assert _state(response.json()["data"]) == since and time.monotonic() - quick < 5
    assert guest.get("/api/v1/task/pollTasks", taskIds=ids, waitMs=60000).status_code == 422


def test_a_presigned_upload_never_sent_is_rejected_before_anything_starts(base_url: str) -> None:
    guest = Guest(base_url)
    target = guest.get("/api/v1/request/presignedUrl", filename="a.jpg",
                       mimeType="image/jpeg").json()["data"]
    response = guest.submit("burstreplace", [target["key"]], backgroundId="white")
    assert response.status_code == 422
    assert response.json() == {"message": "The image has not been uploaded yet."}
    assert guest.credits() == 5 and guest.generation_count() == 0


def test_402_when_credits_do_not_cover_the_cost(base_url: str, person: bytes) -> None:
    guest = Guest(base_url)
    key = guest.upload(person)
    too_many = guest.submit("burstreplace", [key] * 6, backgroundId="white")
    assert too_many.status_code == 402
    assert too_many.json()["message"] == "Not enough credits: this needs 6 credits and you have 5."

    spend_all = guest.submit("burstreplace", [key] * 5, backgroundId="white")
    assert spend_all.status_code == 200, spend_all.text
    tasks = guest.wait(spend_all.json()["data"]["taskIds"])
    assert {t["status"] for t in tasks} == {"completed"}
    assert guest.credits() == 0

    at_zero = guest.submit("burstreplace", [key], backgroundId="white")
    assert at_zero.status_code == 402
    assert "you have 0" in at_zero.json()["message"]
    assert guest.generation_count() == 1 and guest.credits() == 0


def test_another_guests_service_and_tasks_are_404(base_url: str, person: bytes) -> None:
    owner, other = Guest(base_url), Guest(base_url)
    key = owner.upload(person)
    data = owner.submit("burstreplace", [key], backgroundId="transparent").json()["data"]

    assert other.poll(data["taskIds"]).status_code == 404
    assert other.get(f"/imageedit/service/{data['serviceId']}").status_code == 404
    assert other.post("/imageedit/service/updateguestemail", json={
        "email": "x@example.com", "serviceId": data["serviceId"]}).status_code == 404
    assert other.post("/api/v1/util/createThumbnail", json={"key": key}).status_code == 404
    # Nor can they use the owner's upload as their own input.
    stolen = other.submit("burstreplace", [key], backgroundId="white")
    assert stolen.status_code == 422 and "not one of your uploads" in stolen.json()["message"]
    assert other.generation_count() == 0
    (task,) = owner.wait(data["taskIds"])
    assert task["status"] == "completed"
    png = Image.open(io.BytesIO(httpx.get(task["outputs"][0]["url"]).content))
    assert png.format == "PNG" and png.mode == "RGBA"


def _sixty_megapixels() -> bytes:
    return encode_jpeg(Image.new("RGB", (8000, 7500), (200, 180, 160)), quality=50)


@pytest.mark.parametrize(
    ("name", "make", "message"),
    [
        ("text renamed .jpg", lambda person: b"hello, I am plain text\n" * 40,
         "The image is not a JPEG, PNG or WebP image."),
        ("truncated JPEG", lambda person: person[: len(person) // 2],
         "The image is damaged or incomplete (it may have been cut off during upload)."),
        ("60-megapixel image", lambda person: _sixty_megapixels(),
         "The image is 8000x7500 (60.0 megapixels); the limit is 40 megapixels."),
    ],
)
def test_bad_images_are_rejected_with_a_clear_message_and_no_charge(
    base_url: str, person: bytes, name: str, make: object, message: str
) -> None:
    guest = Guest(base_url)
    key = guest.upload(make(person))  # type: ignore[operator]

    thumb = guest.post("/api/v1/util/createThumbnail", json={"key": key})
    assert thumb.status_code == 422 and thumb.json() == {"message": message}, name

    submitted = guest.submit("bodySwap", [key], modelId="model-1")
    assert submitted.status_code == 422 and submitted.json() == {"message": message}, name
    assert guest.credits() == 5 and guest.generation_count() == 0


def test_repeated_idempotency_key_returns_the_same_service(base_url: str, person: bytes) -> None:
    guest = Guest(base_url)
    key = guest.upload(person)
    idem = uuid.uuid4().hex
    first = guest.submit("burstreplace", [key], idempotency_key=idem, backgroundId="white")
    second = guest.submit("burstreplace", [key], idempotency_key=idem, backgroundId="white")
    assert first.status_code == second.status_code == 200
    assert first.json()["data"]["serviceId"] == second.json()["data"]["serviceId"]
    assert first.json()["data"]["taskIds"] == second.json()["data"]["taskIds"]
    guest.wait(first.json()["data"]["taskIds"])
    assert guest.generation_count() == 1 and guest.credits() == 4


def test_files_sent_in_the_submit_itself(base_url: str, person: bytes) -> None:
    guest = Guest(base_url)
    response = guest.post(
        "/imageedit/service/burstreplace",
        data={"backgroundId": "white"},
        files=[("inputFiles", ("me.jpg", person, "image/jpeg"))],
    )
    assert response.status_code == 200, response.text
    (task,) = guest.wait(response.json()["data"]["taskIds"])
    assert task["status"] == "completed"


def test_tokens_and_validation(base_url: str, stack: Settings) -> None:
    anonymous = httpx.get(f"{base_url}/imageedit/users/getCreditsForGuests")
    assert anonymous.status_code == 401 and "message" in anonymous.json()
    forged = httpx.get(f"{base_url}/imageedit/users/getCreditsForGuests",
                       headers={"Authorization": "Bearer not-a-token"})
    assert forged.status_code == 401
    guest = Guest(base_url)
    expired = issue_token(stack.jwt_secret, account_id="x", kind="guest",
                          distributor_id="metamodel", ttl_seconds=-5)
    assert httpx.get(f"{base_url}/imageedit/users/getCreditsForGuests",
                     headers={"Authorization": f"Bearer {expired}"}).status_code == 401
    other_site = httpx.get(f"{base_url}/imageedit/users/getCreditsForGuests",
                           headers={**guest.headers, "x-distributor-id": "another-shop"})
    assert other_site.status_code == 401

    no_fingerprint = httpx.post(f"{base_url}/imageedit/users/guestlogin")
    assert no_fingerprint.status_code == 422
    again = Guest(base_url, fingerprint=guest.fingerprint)
    assert again.credits() == 5, "free guest credits are granted once per fingerprint"

    bad_poll = guest.get("/api/v1/task/pollTasks", taskIds="not json")
    assert bad_poll.status_code == 422 and "JSON array" in bad_poll.json()["message"]
    missing_model = guest.submit("bodySwap", ["x"])
    assert missing_model.status_code == 422 and "modelId" in missing_model.json()["message"]
    unknown_model = guest.submit("bodySwap", ["x"], modelId="nobody")
    assert unknown_model.json()["message"] == "modelId: that model does not exist."
    bad_mime = guest.get("/api/v1/request/presignedUrl", filename="a.gif", mimeType="image/gif")
    assert bad_mime.status_code == 422 and bad_mime.json()["message"].startswith("mimeType")


def test_openapi_documents_every_route(base_url: str) -> None:
    spec = httpx.get(f"{base_url}/openapi.json").json()
    expected = {
        ("post", "/imageedit/users/guestlogin"), ("get", "/imageedit/users/getCreditsForGuests"),
        ("get", "/api/v1/request/presignedUrl"), ("post", "/api/v1/util/createThumbnail"),
        ("post", "/api/v1/request/costPublic"), ("post", "/api/v1/request/multiCostCalcPublic"),
        ("get", "/api/v1/model"), ("get", "/imageedit/seed"), ("get", "/api/v1/sample"),
        ("post", "/imageedit/service/bodySwap"), ("post", "/imageedit/service/burstreplace"),
        ("get", "/api/v1/task/pollTasks"), ("get", "/imageedit/service/{service_id}"),
        ("get", "/imageedit/service/all"), ("post", "/imageedit/service/updateguestemail"),
    }
    found = {(method, path) for path, ops in spec["paths"].items() for method in ops}
    assert expected <= found
    for method, path in expected:
        operation = spec["paths"][path][method]
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]
        assert "$ref" in schema, f"{method} {path} has no response model"
        if method == "post" and path != "/imageedit/users/guestlogin":
            assert "requestBody" in operation, f"{method} {path} has no request model"


def test_web_app_is_served_with_client_side_routes(base_url: str) -> None:
    for route in ("/", "/upload-images", "/output-image"):
        page = httpx.get(f"{base_url}{route}")
        assert page.status_code == 200 and "<div id=\"root\"" in page.text, route
    assert httpx.get(f"{base_url}/api/v1/nothing-here").status_code == 404


def test_sample_inputs_are_offered(base_url: str) -> None:
    if not Path(FIXTURES / "people").is_dir():
        pytest.skip("fixture photos not found")
    samples = httpx.get(f"{base_url}/api/v1/sample", params={"sampleType": "bodySwapInputFile"})
    items = samples.json()["data"]["items"]
    assert len(items) >= 1 and httpx.get(items[0]["thumbnailUrl"]).status_code == 200
