"""Webhook endpoints and deliveries on the database (core/webhooks/endpoints.py), one step at a
time: what an endpoint accepts, which events are queued (once), a signed attempt that the Standard
Webhooks library verifies, failures recorded for the log, giving up and disabling with mail, and
resend. The workflows that run these steps are tested on the running stack in test_webhooks.py. Each
test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest
from sqlalchemy import select
from standardwebhooks import Webhook

from core.auth.tokens import Principal
from core.db import SessionFactory
from core.enums import AccountKind, GenerationKind, GenerationStatus
from core.errors import Conflict, InvalidInput, NotFound
from core.models.accounts import Account, User
from core.models.base import utcnow
from core.models.generations import Generation
from core.models.messages import OutboxMessage
from core.models.webhooks import WebhookDelivery, WebhookEndpoint
from core.settings import Settings
from core.webhooks import endpoints as webhooks
from tests.support.webhook_receiver import WebhookReceiver

WINDOW = timedelta(seconds=30)


def new_owner(sessions: SessionFactory) -> Principal:
    with sessions.begin() as session:
        account = Account(kind=AccountKind.USER, distributor_id="d")
        session.add(account)
        session.flush()
        session.add(User(email=f"shop-{uuid.uuid4().hex[:8]}@example.com", distributor_id="d",
                         account_id=account.id))
        return Principal(account_id=account.id, kind="user", distributor_id="d")


def finished_generation(sessions: SessionFactory, owner: Principal,
                        status: GenerationStatus = GenerationStatus.COMPLETED) -> Generation:
    with sessions.begin() as session:
        generation = Generation(account_id=owner.account_id, service=GenerationKind.BODY_SWAP,
                                status=status, credits=1, distributor_id="d",
                                request_metadata={"sku": "A-1"})
        session.add(generation)
        session.flush()
        session.expunge(generation)
    return generation


def queue_end(sessions: SessionFactory, generation_id: str) -> int:
    with sessions.begin() as session:
        generation = session.get(Generation, generation_id)
        assert generation is not None
        return webhooks.queue_generation_end(session, generation)


def deliveries(sessions: SessionFactory, endpoint_id: str) -> list[WebhookDelivery]:
    with sessions() as session:
        rows = list(session.scalars(select(WebhookDelivery)
                                    .where(WebhookDelivery.endpoint_id == endpoint_id)))
        session.expunge_all()
    return rows


@pytest.fixture
def sessions(database: SessionFactory) -> SessionFactory:
    """Every test here once on SQLite and once on PostgreSQL."""
    return database


@pytest.fixture
def hooks(sessions: SessionFactory, settings: Settings) -> webhooks.Webhooks:
    return webhooks.Webhooks(sessions, settings)


def test_an_endpoint_needs_known_events_a_short_description_and_a_limit(
        hooks: webhooks.Webhooks, sessions: SessionFactory) -> None:
    owner = new_owner(sessions)
    url = "http://127.0.0.1:9/hook"
    for events in ([], ["generation.deleted"], ["task.completed", "charge.made"]):
        with pytest.raises(InvalidInput, match="events:"):
            hooks.create(owner, url, events)
    with pytest.raises(InvalidInput, match="description"):
        hooks.create(owner, url, ["task.completed"], "x" * 201)
    made = [hooks.create(owner, url, list(webhooks.EVENTS)) for _ in range(webhooks.MAX_ENDPOINTS)]
    assert all(m.secret.startswith("whsec_") for m in made)
    assert len({m.secret for m in made}) == webhooks.MAX_ENDPOINTS
    with pytest.raises(InvalidInput, match="at most 10"):
        hooks.create(owner, url, ["task.completed"])
    hooks.delete(owner, made[0].endpoint.id)
    hooks.create(owner, url, ["task.completed"])  # a deleted one frees its place
    stranger = new_owner(sessions)
    with pytest.raises(NotFound):
        hooks.delete(stranger, made[1].endpoint.id)
    with pytest.raises(NotFound):
        hooks.deliveries(stranger, made[1].endpoint.id)
    assert hooks.endpoints(stranger) == []


def test_events_go_to_subscribed_enabled_endpoints_once(
        hooks: webhooks.Webhooks, sessions: SessionFactory) -> None:
    owner = new_owner(sessions)
    everything = hooks.create(owner, "http://127.0.0.1:9/all", list(webhooks.EVENTS)).endpoint
    failures = hooks.create(owner, "http://127.0.0.1:9/fail", ["generation.failed"]).endpoint
    off = hooks.create(owner, "http://127.0.0.1:9/off", list(webhooks.EVENTS)).endpoint
    gone = hooks.create(owner, "http://127.0.0.1:9/gone", list(webhooks.EVENTS)).endpoint
    with sessions.begin() as session:
        session.get(WebhookEndpoint, off.id).disabled_at = utcnow()  # type: ignore[union-attr]
    hooks.delete(owner, gone.id)

    done = finished_generation(sessions, owner)
    assert queue_end(sessions, done.id) == 1
    assert queue_end(sessions, done.id) == 0  # a retried notify step queues nothing new
    failed = finished_generation(sessions, owner, GenerationStatus.FAILED)
    assert queue_end(sessions, failed.id) == 2
    running = finished_generation(sessions, owner, GenerationStatus.RUNNING)
    assert queue_end(sessions, running.id) == 0

    assert sorted(d.event_type for d in deliveries(sessions, everything.id)) == [
        "generation.completed", "generation.failed"]
    assert [d.event_type for d in deliveries(sessions, failures.id)] == ["generation.failed"]
    assert deliveries(sessions, off.id) == [] and deliveries(sessions, gone.id) == []
    body = json.loads(next(d.payload for d in deliveries(sessions, everything.id)
                           if d.event_type == "generation.completed"))
    assert body["type"] == "generation.completed" and body["timestamp"]
    assert body["data"]["id"] == done.id and body["data"]["status"] == "completed"
    assert body["data"]["metadata"] == {"sku": "A-1"} and body["data"]["livemode"] is True
    # Another account's events never reach these endpoints.
    other = finished_generation(sessions, new_owner(sessions))
    assert queue_end(sessions, other.id) == 0

    # Nobody subscribed: the event's data is never built (every finished image passes here).
    def unwanted() -> dict[str, object]:
        raise AssertionError("built an event nobody subscribed to")

    with sessions.begin() as session:
        assert webhooks.queue_event(session, other.account_id, "task.completed", "x",
                                    unwanted) == 0
        assert webhooks.queue_event(session, owner.account_id, "generation.deleted", "x",
                                    unwanted) == 0


def test_an_attempt_is_signed_verified_and_logged(
        hooks: webhooks.Webhooks, sessions: SessionFactory, settings: Settings) -> None:
    receiver = WebhookReceiver().start()
    try:
        owner = new_owner(sessions)
        made = hooks.create(owner, receiver.url, ["generation.completed"])
        queue_end(sessions, finished_generation(sessions, owner).id)
        claimed = webhooks.claim_new(sessions)
        [(delivery_id, dispatch)] = [c for c in claimed
                                     if deliveries(sessions, made.endpoint.id)[0].id == c[0]]
        assert dispatch == 1 and webhooks.claim_new(sessions) == []
        webhooks.attempt(sessions, settings, delivery_id)
        [got] = receiver.received
        # The receiver's side: the specification's library accepts the signature.
        payload = Webhook(made.secret).verify(got.body, got.headers)
        assert payload["type"] == "generation.completed"
        assert got.headers["webhook-id"] == f"msg_{delivery_id}"
        with pytest.raises(Exception, match="signature"):
            Webhook(webhooks.new_secret()).verify(got.body, got.headers)
        with pytest.raises(Exception, match="signature"):
            Webhook(made.secret).verify(got.body.replace(b"completed", b"failed"), got.headers)
        [logged] = hooks.deliveries(owner, made.endpoint.id)
        assert (logged.status, logged.attempts, logged.last_status_code) == ("succeeded", 1, 200)
        assert logged.last_duration_ms is not None and logged.delivered_at is not None
        webhooks.attempt(sessions, settings, delivery_id)  # a rerun after success sends nothing
        assert len(receiver.received) == 1
    finally:
        receiver.stop()


def test_failures_are_logged_then_given_up_and_the_endpoint_disabled_with_mail(
        hooks: webhooks.Webhooks, sessions: SessionFactory, settings: Settings) -> None:
    receiver = WebhookReceiver(answers=[500, 503]).start()
    try:
        owner = new_owner(sessions)
        made = hooks.create(owner, receiver.url, ["generation.completed"])
        queue_end(sessions, finished_generation(sessions, owner).id)
        [delivery] = deliveries(sessions, made.endpoint.id)
        assert (delivery.id, 1) in webhooks.claim_new(sessions)
        for code in (500, 503):
            with pytest.raises(webhooks.DeliveryFailed) as failed:
                webhooks.attempt(sessions, settings, delivery.id)
            assert failed.value.retry and str(failed.value) == f"answered HTTP {code}"
        [logged] = hooks.deliveries(owner, made.endpoint.id)
        assert (logged.status, logged.attempts, logged.last_status_code) == ("pending", 2, 503)
        with pytest.raises(Conflict, match="still being tried"):
            hooks.resend(owner, made.endpoint.id, delivery.id)
        assert webhooks.give_up(sessions, settings, delivery.id, WINDOW) is True
        [endpoint] = hooks.endpoints(owner)
        assert endpoint.disabled_at is not None
        assert endpoint.disabled_reason == (
            "Every delivery failed for 30 seconds; the last: answered HTTP 503")
        with sessions() as session:
            user = session.scalars(select(User).where(User.account_id == owner.account_id)).one()
            [mail] = session.scalars(select(OutboxMessage).where(
                OutboxMessage.to_address == user.email)).all()
        assert mail.subject == "A webhook endpoint was disabled" and receiver.url in mail.body
        # Disabled: nothing new is queued, and a resend waits for it to be enabled.
        assert queue_end(sessions, finished_generation(sessions, owner).id) == 0
        with pytest.raises(Conflict, match="disabled"):
            hooks.resend(owner, made.endpoint.id, delivery.id)
        hooks.enable(owner, made.endpoint.id)
        again = hooks.resend(owner, made.endpoint.id, f"{delivery.id}")
        assert again.status == "pending"
        assert (delivery.id, 2) in webhooks.claim_new(sessions)
        webhooks.attempt(sessions, settings, delivery.id)
        assert [r.answered for r in receiver.received] == [500, 503, 200]
        assert len({r.headers["webhook-id"] for r in receiver.received}) == 1
        assert hooks.endpoints(owner)[0].failing_since is None
    finally:
        receiver.stop()


def test_an_endpoint_that_answered_meanwhile_is_not_disabled(
        hooks: webhooks.Webhooks, sessions: SessionFactory, settings: Settings) -> None:
    receiver = WebhookReceiver(answers=[500]).start()
    try:
        owner = new_owner(sessions)
        made = hooks.create(owner, receiver.url, ["generation.completed"])
        first, second = (finished_generation(sessions, owner) for _ in range(2))
        queue_end(sessions, first.id)
        [stuck] = deliveries(sessions, made.endpoint.id)
        with pytest.raises(webhooks.DeliveryFailed):
            webhooks.attempt(sessions, settings, stuck.id)
        queue_end(sessions, second.id)
        fine = next(d for d in deliveries(sessions, made.endpoint.id) if d.id != stuck.id)
        webhooks.attempt(sessions, settings, fine.id)  # answered 200: the streak ends
        assert webhooks.give_up(sessions, settings, stuck.id, WINDOW) is False
        [endpoint] = hooks.endpoints(owner)
        assert endpoint.disabled_at is None
        assert [d.status for d in hooks.deliveries(owner, made.endpoint.id)
                if d.id == stuck.id] == ["failed"]
    finally:
        receiver.stop()


def test_a_deleted_endpoint_stops_its_deliveries_without_sending(
        hooks: webhooks.Webhooks, sessions: SessionFactory, settings: Settings) -> None:
    receiver = WebhookReceiver().start()
    try:
        owner = new_owner(sessions)
        made = hooks.create(owner, receiver.url, ["generation.completed"])
        queue_end(sessions, finished_generation(sessions, owner).id)
        [delivery] = deliveries(sessions, made.endpoint.id)
        hooks.delete(owner, made.endpoint.id)
        with pytest.raises(webhooks.DeliveryFailed) as failed:
            webhooks.attempt(sessions, settings, delivery.id)
        assert not failed.value.retry
        assert receiver.received == []
        [logged] = deliveries(sessions, made.endpoint.id)
        assert (logged.status, logged.last_error) == ("failed", "the endpoint was deleted")
    finally:
        receiver.stop()


def test_relays_claiming_at_once_start_each_delivery_once(
        hooks: webhooks.Webhooks, sessions: SessionFactory) -> None:
    """Two relays (a schedule overlap, two workers) never both start a delivery."""
    from concurrent.futures import ThreadPoolExecutor

    owner = new_owner(sessions)
    made = hooks.create(owner, "http://127.0.0.1:9/hook", ["generation.completed"])
    for _ in range(40):
        queue_end(sessions, finished_generation(sessions, owner).id)

    def relay(_: int) -> list[tuple[str, int]]:
        """Ticks of one relay until nothing new is left."""
        taken: list[tuple[str, int]] = []
        while batch := webhooks.claim_new(sessions, limit=15):
            taken += batch
        return taken

    with ThreadPoolExecutor(4) as pool:
        batches = list(pool.map(relay, range(4)))
    claimed = [ref for batch in batches for ref in batch]
    ids = [delivery_id for delivery_id, _ in claimed]
    assert len(ids) == len(set(ids))
    assert sorted(ids) == sorted(d.id for d in deliveries(sessions, made.endpoint.id))
    assert all(dispatch == 1 for _, dispatch in claimed)
