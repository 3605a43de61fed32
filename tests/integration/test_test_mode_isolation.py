"""Test mode stays test mode (issue 33 items 1, 2 and 5's resend cap), on the running stack.

The attack: a test API key (mm_test_) makes a generation for free, then the same account's web
session re-renders its image, shows, shares, zips or deletes it, or a test key works on the live
webhook endpoints. Rule: a test key sees only test objects, live keys and the web app only live
ones; a re-render of a test image is a test image (watermarked, free); test events go only to
test endpoints, live events only to live ones; resends to one endpoint are capped.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterator
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image
from sqlalchemy import func, select
from temporalio.client import Client
from temporalio.testing import ActivityEnvironment

from activities.rerender import RerenderActivities
from core.contracts.rerender import RerenderRef, rerender_workflow_id
from core.db import SessionFactory
from core.enums import GenerationStatus
from core.library.rerender import start_rerender
from core.models.accounts import LedgerEntry
from core.models.base import new_id
from core.models.generations import Generation, GenerationImage
from core.models.webhooks import WebhookDelivery, WebhookEndpoint
from core.settings import Settings
from core.storage import Storage
from core.webhooks import endpoints as webhooks
from ops.stack import Stack
from tests.integration.test_public_api import bearer, new_key, new_user, upload, wait_done
from tests.support.stacks import running_stack
from tests.support.webhook_receiver import WebhookReceiver

RESENDS_PER_MINUTE = webhooks.RESEND_LIMITS[0][0]


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    # Webhook deliveries picked up within a second, so resends finish quickly; the account's
    # request limit out of the way (the polling here is not what is tested).
    with running_stack(tmp_path_factory.mktemp("test-mode"),
                       api_key_requests_per_minute=100_000,
                       webhook_retry_initial_seconds=1.0,
                       webhook_retry_max_interval_seconds=5.0,
                       webhook_retry_window_seconds=600.0,
                       webhook_relay_interval_seconds=1.0) as stack:
        yield stack


@pytest.fixture(scope="module")
def stack(running: Stack) -> Settings:
    return running.settings


def sandbox_key(api: httpx.Client, session: dict[str, str]) -> str:
    made = api.post("/api/v1/api-keys", json={"name": "sandbox", "mode": "test"},
                    headers=session)
    assert made.status_code == 201, made.text
    secret: str = made.json()["data"]["secret"]
    assert secret.startswith("mm_test_")
    return secret


def generate(api: httpx.Client, secret: str) -> dict[str, Any]:
    """A finished background replace on white (adjustable: it has a background)."""
    made = api.post("/api/v1/generations", headers=bearer(secret), json={
        "service": "burstreplace", "inputs": [upload(api, secret, 2)], "backgroundId": "white"})
    assert made.status_code == 201, made.text
    done = wait_done(api, secret, made.json()["data"]["id"])
    assert done["status"] == "completed", done
    return done


@pytest.fixture(scope="module")
def shop(api: httpx.Client, db: SessionFactory) -> dict[str, Any]:
    """One account with a web session, a test key and a live key, and a finished test-mode
    generation made with the test key."""
    session = new_user(api, db)
    secret = sandbox_key(api, session)
    return {"session": session, "test": secret, "live": new_key(api, session),
            "generation": generate(api, secret)}


def ledger_of(db: SessionFactory, account_id: str) -> list[tuple[str, int, int, str | None]]:
    with db() as s:
        return [(e.kind, e.delta_free, e.delta_paid, e.reference) for e in s.execute(
            select(LedgerEntry).where(LedgerEntry.account_id == account_id)
            .order_by(LedgerEntry.id)).scalars()]


def generation_row(db: SessionFactory, generation_id: str) -> tuple[Generation, int]:
    with db() as s:
        generation = s.get(Generation, generation_id)
        assert generation is not None
        tasks = s.execute(select(func.count()).select_from(GenerationImage)
                          .where(GenerationImage.generation_id == generation_id)).scalar_one()
        s.expunge(generation)
        return generation, int(tasks)


def test_the_web_session_cannot_rerender_a_test_image_into_a_live_one(
        api: httpx.Client, db: SessionFactory, shop: dict[str, Any]) -> None:
    """The attack of issue 33 item 1: before, this answered 200 and made a clean, full-size,
    unwatermarked image with no ledger entry."""
    generation = shop["generation"]
    image_id = generation["images"][0]["id"]
    account = generation_row(db, generation["id"])[0].account_id
    ledger, (_, tasks) = ledger_of(db, account), generation_row(db, generation["id"])

    answer = api.post(f"/api/v1/task/{image_id}/placement", headers=shop["session"],
                      json={"x": 0, "y": 0, "scale": 1})
    assert answer.status_code == 404, answer.text
    assert answer.json()["message"] == "That image was not found."
    # Nothing was recorded or started, and the ledger is exactly as it was.
    assert generation_row(db, generation["id"])[1] == tasks
    assert ledger_of(db, account) == ledger
    # A key cannot call the web app's re-render at all (keys are for the public routes).
    keyed = api.post(f"/api/v1/task/{image_id}/placement", headers=bearer(shop["test"]),
                     json={"x": 0, "y": 0, "scale": 1})
    assert keyed.status_code == 401


async def test_a_rerender_of_a_test_image_is_watermarked(
        stack: Settings, db: SessionFactory, shop: dict[str, Any]) -> None:
    """Whatever path reaches the re-render workflow (none of the API's does for a test image
    now), its output is a test image: the plan carries the watermark of the generation's mode,
    and the image made matches the watermarked original at the neutral placement."""
    generation = shop["generation"]
    original_id = generation["images"][0]["id"]
    account = generation_row(db, generation["id"])[0].account_id
    ledger = ledger_of(db, account)
    task_id = new_id()
    with db.begin() as s:
        original = s.get(GenerationImage, original_id)
        assert original is not None
        s.add(GenerationImage(id=task_id, generation_id=original.generation_id, position=50,
                   input_key=original.input_key, input_size=original.input_size,
                   input_etag=original.input_etag, source_task_id=original_id,
                   placement_x=0.0, placement_y=0.0, placement_scale=1.0))
        original_key = original.output_key
    assert original_key

    plan = ActivityEnvironment().run(RerenderActivities(db).plan_rerender, RerenderRef(task_id))
    assert plan.watermark is True
    client = await Client.connect(stack.temporal_address, namespace=stack.temporal_namespace)
    await start_rerender(client, stack, task_id, generation["id"])
    result = await client.get_workflow_handle(rerender_workflow_id(task_id)).result()
    assert result["status"] == GenerationStatus.COMPLETED, result
    with db() as s:
        task = s.get(GenerationImage, task_id)
        assert task is not None and task.output_key
        rerendered_key = task.output_key
    storage = Storage(stack)
    marked, again = (np.asarray(Image.open(io.BytesIO(storage.get_bytes(key))).convert("RGB"))
                     for key in (original_key, rerendered_key))
    assert marked.shape == again.shape
    # Unwatermarked, 1-50 % of the pixels would differ by far (the TEST mark's strokes).
    changed = (np.abs(marked.astype(int) - again.astype(int)).max(axis=2) > 40).mean()
    assert changed < 0.005, changed
    assert ledger_of(db, account) == ledger  # free


def test_the_web_app_never_shows_shares_zips_or_deletes_a_test_generation(
        api: httpx.Client, db: SessionFactory, shop: dict[str, Any]) -> None:
    generation, session = shop["generation"], shop["session"]
    image_id = generation["images"][0]["id"]
    for method, path, body in (
            ("GET", f"/imageedit/service/{generation['id']}", None),
            ("GET", f"/api/v1/task/pollTasks?taskIds=%5B%22{image_id}%22%5D", None),
            ("POST", "/imageedit/service/share", {"taskId": image_id, "shared": True}),
            ("POST", "/imageedit/service/download", {"taskIds": [image_id]}),
            ("POST", "/imageedit/service/feedback", {"taskId": image_id, "rating": "up"}),
            ("DELETE", f"/imageedit/service/{generation['id']}/task/{image_id}", None),
            ("DELETE", f"/imageedit/service/{generation['id']}", None)):
        answer = api.request(method, path, headers=session, json=body)
        assert answer.status_code == 404, (method, path, answer.status_code, answer.text)
        assert answer.headers["content-type"].startswith("application/json")
        assert answer.json()["message"], (method, path)
    with db() as s:
        task = s.get(GenerationImage, image_id)
        assert task is not None and task.shared_at is None
    row, _ = generation_row(db, generation["id"])
    assert row.deleted_at is None
    gallery = api.get("/imageedit/service/gallery", headers=session).json()["data"]["items"]
    assert image_id not in [item["taskId"] for item in gallery]
    # The live key does not see it either; the test key does.
    assert api.get(f"/api/v1/generations/{generation['id']}",
                   headers=bearer(shop["live"])).status_code == 404
    assert api.get(f"/api/v1/generations/{generation['id']}",
                   headers=bearer(shop["test"])).status_code == 200


def add_endpoint(api: httpx.Client, headers: dict[str, str], url: str,
                 events: list[str] | None = None) -> dict[str, Any]:
    made = api.post("/api/v1/webhooks", headers=headers,
                    json={"url": url, "events": events or list(webhooks.EVENTS)})
    assert made.status_code == 201, made.text
    endpoint: dict[str, Any] = made.json()["data"]
    return endpoint


def finished_delivery(db: SessionFactory, endpoint_id: str) -> str:
    """A delivery in the endpoint's log that has finished (so it could be resent)."""
    with db.begin() as s:
        row = WebhookDelivery(endpoint_id=endpoint_id, event_type="task.completed",
                              dedupe_key=f"task.completed:{new_id()}", payload="{}",
                              status=webhooks.SUCCEEDED)
        s.add(row)
        s.flush()
        return row.id


def test_a_test_key_sees_only_test_endpoints_and_the_web_app_only_live_ones(
        api: httpx.Client, db: SessionFactory) -> None:
    session = new_user(api, db)
    secret = sandbox_key(api, session)
    live = add_endpoint(api, session, "http://127.0.0.1:9/live")
    test = add_endpoint(api, bearer(secret), "http://127.0.0.1:9/test")
    assert live["livemode"] is True and test["livemode"] is False
    # A delivery in the live endpoint's log, finished (resendable but for the mode).
    delivery = finished_delivery(db, live["id"])

    def listed(headers: dict[str, str]) -> list[tuple[str, bool]]:
        got = api.get("/api/v1/webhooks", headers=headers)
        assert got.status_code == 200, got.text
        return [(e["id"], e["livemode"]) for e in got.json()["data"]]

    assert listed(bearer(secret)) == [(test["id"], False)]
    assert listed(session) == [(live["id"], True)]
    assert listed(bearer(new_key(api, session))) == [(live["id"], True)]

    def refused(headers: dict[str, str], endpoint_id: str) -> None:
        for method, path in (
                ("GET", f"/api/v1/webhooks/{endpoint_id}/deliveries"),
                ("POST", f"/api/v1/webhooks/{endpoint_id}/enable"),
                ("POST", f"/api/v1/webhooks/{endpoint_id}/deliveries/msg_{delivery}/resend"),
                ("DELETE", f"/api/v1/webhooks/{endpoint_id}")):
            answer = api.request(method, path, headers=headers)
            assert answer.status_code == 404, (method, path, answer.text)
            assert answer.json()["message"] == "No such webhook endpoint."

    refused(bearer(secret), live["id"])
    refused(session, test["id"])
    with db() as s:
        endpoint = s.get(WebhookEndpoint, live["id"])
        row = s.get(WebhookDelivery, delivery)
        assert endpoint is not None and endpoint.deleted_at is None
        assert row is not None and row.status == webhooks.SUCCEEDED and row.dispatches == 0
    # Each mode still manages its own.
    assert api.get(f"/api/v1/webhooks/{live['id']}/deliveries",
                   headers=session).status_code == 200
    assert api.delete(f"/api/v1/webhooks/{test['id']}", headers=bearer(secret)).status_code == 200


def test_test_events_go_only_to_test_endpoints_and_live_ones_only_to_live_ones(
        api: httpx.Client, db: SessionFactory) -> None:
    live_receiver, test_receiver = WebhookReceiver().start(), WebhookReceiver().start()
    try:
        session = new_user(api, db)
        secret, live_secret = sandbox_key(api, session), new_key(api, session)
        add_endpoint(api, session, live_receiver.url, ["generation.completed"])
        add_endpoint(api, bearer(secret), test_receiver.url, ["generation.completed"])

        test_run = generate(api, secret)
        [got] = test_receiver.wait_for(1, answered=200)
        assert got.body and b'"livemode":false' in got.body and test_run["id"].encode() in got.body
        live_run = generate(api, live_secret)
        [got] = live_receiver.wait_for(1, answered=200)
        assert b'"livemode":true' in got.body and live_run["id"].encode() in got.body
        time.sleep(3)  # the relay runs every second: a stray delivery would have arrived
        assert len(test_receiver.received) == 1 and len(live_receiver.received) == 1
    finally:
        live_receiver.stop()
        test_receiver.stop()


def test_resends_to_one_endpoint_are_capped(api: httpx.Client, db: SessionFactory) -> None:
    """Before, resending two log entries as fast as they finished sent 60 deliveries a minute
    to one target (the key's rate limit was the only bound)."""
    receiver = WebhookReceiver().start()
    try:
        session = new_user(api, db)
        secret = new_key(api, session)
        endpoint = add_endpoint(api, bearer(secret), receiver.url,
                                ["generation.completed", "task.completed"])
        generate(api, secret)
        receiver.wait_for(2, answered=200)
        log_path = f"/api/v1/webhooks/{endpoint['id']}/deliveries"
        ids = [d["id"] for d in api.get(log_path, headers=session).json()["data"]]
        assert len(ids) == 2

        def resend(delivery_id: str) -> httpx.Response:
            return api.post(f"{log_path}/{delivery_id}/resend", headers=session)

        def settled() -> None:
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with db() as s:
                    pending = s.execute(select(func.count()).select_from(WebhookDelivery).where(
                        WebhookDelivery.endpoint_id == endpoint["id"],
                        WebhookDelivery.status == webhooks.PENDING)).scalar_one()
                if not pending:
                    return
                time.sleep(0.2)
            raise TimeoutError("resends still pending")

        started = time.monotonic()
        sent = 0
        while sent < RESENDS_PER_MINUTE:
            for delivery_id in ids[: RESENDS_PER_MINUTE - sent]:
                answer = resend(delivery_id)
                assert answer.status_code == 202, answer.text
                sent += 1
            settled()
        capped = resend(ids[0])
        assert time.monotonic() - started < 60, "the cap's window passed: the test is too slow"
        assert capped.status_code == 429, capped.text
        assert 0 < int(capped.headers["Retry-After"]) <= 60
        message = capped.json()["message"]
        assert message.startswith("Too many resends to this endpoint") and "minute" in message
        time.sleep(2)
        assert len(receiver.received) == 2 + RESENDS_PER_MINUTE
        # A refused resend changed nothing: the delivery is not queued again.
        assert all(d["status"] == "succeeded"
                   for d in api.get(log_path, headers=session).json()["data"])
        # The cap is the endpoint's: another endpoint of the account still resends.
        other = add_endpoint(api, session, receiver.url, ["task.completed"])
        other_delivery = finished_delivery(db, other["id"])
        assert api.post(f"/api/v1/webhooks/{other['id']}/deliveries/{other_delivery}/resend",
                        headers=session).status_code == 202
    finally:
        receiver.stop()
