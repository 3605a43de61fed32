"""Webhook deliveries (core/webhooks/endpoints.py queues them): claimed for the relay, each
attempt sent signed and recorded on its row, and given up when the retry window is spent (the
endpoint disabled and its owner mailed when it failed for the whole window).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from sqlalchemy import select, update
from standardwebhooks import Webhook

from core.db import SessionFactory
from core.models.accounts import User
from core.models.base import as_utc, utcnow
from core.models.messages import OutboxMessage
from core.models.webhooks import WebhookDelivery, WebhookEndpoint
from core.settings import Settings
from core.webhooks import targets as webhook_targets

log = logging.getLogger("core.webhooks")

PENDING, SUCCEEDED, FAILED = "pending", "succeeded", "failed"


def message_id(delivery_id: str) -> str:
    return f"msg_{delivery_id}"


class DeliveryFailed(Exception):
    """One attempt failed; `retry` says whether another could succeed."""

    def __init__(self, message: str, retry: bool = True) -> None:
        super().__init__(message)
        self.retry = retry


def claim_new(sessions: SessionFactory, limit: int = 200) -> list[tuple[str, int]]:
    """New deliveries, each marked dispatched: (delivery id, dispatch number) for the relay to
    start a workflow each (the number makes a resend's workflow id new).

    Each row is taken by a single conditional update in a transaction of its own, as the mail
    relay takes its rows: of two relays at once exactly one matches (PostgreSQL re-checks the
    condition on the row the other wrote; SQLite runs one writer at a time and its transaction
    starts at the write, so it sees the other's commit)."""
    with sessions() as session:
        candidates = list(session.scalars(
            select(WebhookDelivery.id)
            .where(WebhookDelivery.status == PENDING, WebhookDelivery.dispatched_at.is_(None))
            .order_by(WebhookDelivery.created_at).limit(limit)))
    claimed: list[tuple[str, int]] = []
    for delivery_id in candidates:
        with sessions.begin() as session:
            taken = session.execute(
                update(WebhookDelivery)
                .where(WebhookDelivery.id == delivery_id, WebhookDelivery.status == PENDING,
                       WebhookDelivery.dispatched_at.is_(None))
                .values(dispatched_at=utcnow(), dispatches=WebhookDelivery.dispatches + 1)
                .execution_options(synchronize_session=False))
            if taken.rowcount == 1:  # type: ignore[attr-defined]
                dispatch = session.scalar(select(WebhookDelivery.dispatches)
                                          .where(WebhookDelivery.id == delivery_id))
                claimed.append((delivery_id, int(dispatch or 1)))
    return claimed


def headers_for(secret: str, delivery_id: str, payload: str, at: datetime) -> dict[str, str]:
    return {
        "content-type": "application/json",
        "user-agent": "MetaModel-Webhooks/1",
        "webhook-id": message_id(delivery_id),
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Webhook(secret).sign(message_id(delivery_id), at, payload),
    }


def attempt(sessions: SessionFactory, settings: Settings, delivery_id: str,
            resolver: webhook_targets.Resolver = webhook_targets.system_resolver) -> None:
    """One attempt, recorded on the delivery. Raises DeliveryFailed when it did not succeed
    (retry=False when no later attempt can: the endpoint is gone, disabled or refused)."""
    with sessions() as session:
        delivery = session.get(WebhookDelivery, delivery_id)
        endpoint = session.get(WebhookEndpoint, delivery.endpoint_id) if delivery else None
        if delivery is None or endpoint is None:
            raise DeliveryFailed("the delivery no longer exists", retry=False)
        if delivery.status != PENDING:
            return  # delivered (or given up) by an earlier run of this workflow
        url, secret, payload = endpoint.url, endpoint.secret, delivery.payload
        stopped = ("the endpoint was deleted" if endpoint.deleted_at is not None
                   else "the endpoint is disabled" if endpoint.disabled_at is not None else None)
    if stopped:
        _record(sessions, delivery_id, webhook_targets.Sent(None, 0, stopped), final=True)
        raise DeliveryFailed(stopped, retry=False)
    now = utcnow()
    sent = webhook_targets.post(url, payload.encode(), headers_for(secret, delivery_id, payload,
                                                                   now),
                                timeout=settings.webhook_timeout_seconds,
                                allow_private=settings.webhooks_reach_private, resolver=resolver)
    refused = bool(sent.error and sent.error.startswith("refused:"))
    _record(sessions, delivery_id, sent, final=refused)
    if not sent.ok:
        raise DeliveryFailed(sent.error or "failed", retry=not refused)


def _record(sessions: SessionFactory, delivery_id: str, sent: webhook_targets.Sent,
            final: bool) -> None:
    now = utcnow()
    with sessions.begin() as session:
        delivery = session.get(WebhookDelivery, delivery_id)
        if delivery is None:
            return
        endpoint = session.get(WebhookEndpoint, delivery.endpoint_id)
        delivery.attempts += 1
        delivery.first_attempt_at = delivery.first_attempt_at or now
        delivery.last_attempt_at = now
        delivery.last_status_code = sent.status_code
        delivery.last_duration_ms = sent.duration_ms
        delivery.last_error = sent.error
        if sent.ok:
            delivery.status = SUCCEEDED
            delivery.delivered_at = now
            if endpoint is not None:
                endpoint.failing_since = None
        else:
            if final:
                delivery.status = FAILED
            if endpoint is not None and endpoint.failing_since is None:
                endpoint.failing_since = now


def give_up(sessions: SessionFactory, settings: Settings, delivery_id: str,
            window: timedelta) -> bool:
    """The delivery's retry window is spent: it failed. If the endpoint has not answered any
    delivery since this one's first attempt, it has failed for the whole window: it is disabled
    and its owner mailed (once). Returns True when it was disabled now."""
    with sessions.begin() as session:
        delivery = session.get(WebhookDelivery, delivery_id)
        if delivery is None:
            return False
        if delivery.status == PENDING:
            delivery.status = FAILED
        endpoint = session.get(WebhookEndpoint, delivery.endpoint_id)
        if (endpoint is None or endpoint.disabled_at is not None
                or endpoint.deleted_at is not None or endpoint.failing_since is None
                or delivery.first_attempt_at is None
                or as_utc(endpoint.failing_since) > as_utc(delivery.first_attempt_at)):
            return False
        endpoint.disabled_at = utcnow()
        endpoint.disabled_reason = (
            f"Every delivery failed for {_duration(window)}; the last: {delivery.last_error}")
        owner = session.scalars(select(User).where(User.account_id == endpoint.account_id)).first()
        if owner is not None:
            session.add(OutboxMessage(
                kind="webhook-disabled", to_address=owner.email,
                subject="A webhook endpoint was disabled",
                body=(f"Hello,\n\nWe disabled your webhook endpoint {endpoint.url} because "
                      f"every delivery to it failed for {_duration(window)} (the last: "
                      f"{delivery.last_error}).\n\nFix the receiver, then enable it again in "
                      f"User Setting → Webhooks, where you can also resend what it missed.\n"
                      f"{settings.app_url}/user-setting\n"),
                dedupe_key=f"webhook-disabled:{endpoint.id}:{endpoint.disabled_at.isoformat()}"))
        log.warning("webhook endpoint %s disabled after failing since %s", endpoint.id,
                    endpoint.failing_since)
    return True


def _duration(window: timedelta) -> str:
    seconds = window.total_seconds()
    if seconds >= 86400:
        return f"{seconds / 86400:g} days"
    if seconds >= 3600:
        return f"{seconds / 3600:g} hours"
    return f"{seconds:g} seconds"
