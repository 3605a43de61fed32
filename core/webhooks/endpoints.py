"""Webhooks (issue 23): an account's endpoints, the events queued for them, and each delivery.

The path of an event:
1. `queue_event` writes one delivery row per subscribed endpoint, in the same transaction as the
   change it reports (the generation's end in the workflow's notify step, a task's output in
   core.generations.tasks.complete_task): the event exists exactly when the change does.
2. The relay (a Temporal schedule, workflows/webhooks.py) claims new rows (`claim_new`) and
   starts one delivery workflow for each.
3. That workflow calls `attempt` with Temporal's retries: exponential backoff from
   `webhook_retry_initial_seconds` up to `webhook_retry_max_interval_seconds`, for
   `webhook_retry_window_seconds` (3 days), each attempt limited to `webhook_timeout_seconds`.
   Every attempt is recorded on the row (the delivery log the user sees).
4. When the window is spent, `give_up` marks the delivery failed; an endpoint that has failed
   for a whole window is disabled and its owner mailed.

Bodies are signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`,
`webhook-signature: v1,<base64 HMAC-SHA256>`), with the `standardwebhooks` library that
receivers use to verify them. `webhook-id` stays the same across retries and resends, so a
receiver can drop duplicates. Events are thin: the generation's state and ids, never signed
image URLs (they expire; GET /api/v1/generations/{id} gives fresh ones).
Steps 2 to 4 are core/webhooks/delivery.py.
"""

from __future__ import annotations

import base64
import json
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from core import ratelimit
from core.auth.ownership import owned_by, owns
from core.auth.tokens import Principal
from core.db import SessionFactory
from core.enums import GenerationStatus
from core.errors import Conflict, InvalidInput, NotFound
from core.models.base import as_utc, utcnow
from core.models.generations import Generation, GenerationImage
from core.models.webhooks import WebhookDelivery, WebhookEndpoint
from core.settings import Settings
from core.webhooks import targets as webhook_targets

# The deliveries' statuses and steps are named here too, where the activities and tests use them.
from core.webhooks.delivery import (
    FAILED,
    PENDING,
    SUCCEEDED,
    DeliveryFailed,
    attempt,
    claim_new,
    give_up,
    message_id,
)

log = logging.getLogger("core.webhooks")

GENERATION_COMPLETED = "generation.completed"
GENERATION_FAILED = "generation.failed"
TASK_COMPLETED = "task.completed"
EVENTS = (GENERATION_COMPLETED, GENERATION_FAILED, TASK_COMPLETED)
MAX_ENDPOINTS = 10
DESCRIPTION_LIMIT = 200
SECRET_BYTES = 24
LOG_LIMIT = 100
# Resends per endpoint (limit, window, its name in the message): a person re-sending what a
# receiver missed stays well inside them.
RESEND_LIMITS = ((10, timedelta(minutes=1), "minute"), (100, timedelta(hours=1), "hour"))
NOT_FOUND = "No such webhook endpoint."


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


@dataclass(frozen=True)
class NewEndpoint:
    endpoint: WebhookEndpoint
    secret: str  # shown once


# ---------------------------------------------------------------------------------------------
# Endpoints


class Webhooks:
    """An account's endpoints and their delivery logs (the API's side)."""

    def __init__(self, sessions: SessionFactory, settings: Settings,
                 resolver: webhook_targets.Resolver = webhook_targets.system_resolver) -> None:
        self.sessions = sessions
        self.settings = settings
        self.resolver = resolver

    def create(self, principal: Principal, url: str, events: list[str],
               description: str = "") -> NewEndpoint:
        unknown = sorted(set(events) - set(EVENTS))
        if not events or unknown:
            raise InvalidInput(f"events: one or more of {', '.join(EVENTS)}"
                               + (f" (not {', '.join(unknown)})." if unknown else "."))
        if len(description) > DESCRIPTION_LIMIT:
            raise InvalidInput(f"description: at most {DESCRIPTION_LIMIT} characters.")
        target = webhook_targets.check_new(url, self.settings.webhooks_reach_private,
                                           self.resolver)
        secret = new_secret()
        with self.sessions.begin() as session:
            # Counted over both modes: test endpoints are real requests to real targets too.
            count = session.scalar(
                select(func.count()).select_from(WebhookEndpoint)
                .where(WebhookEndpoint.account_id == principal.account_id,
                       WebhookEndpoint.deleted_at.is_(None)))
            if int(count or 0) >= MAX_ENDPOINTS:
                raise InvalidInput(f"An account can have at most {MAX_ENDPOINTS} webhook "
                                   "endpoints: delete one first.")
            endpoint = WebhookEndpoint(
                account_id=principal.account_id, url=target.url, description=description.strip(),
                events=[event for event in EVENTS if event in events], secret=secret,
                livemode=principal.livemode)
            session.add(endpoint)
            session.flush()
            session.expunge(endpoint)
        return NewEndpoint(endpoint, secret)

    def endpoints(self, principal: Principal) -> list[WebhookEndpoint]:
        """The caller's endpoints of its mode (a test key's are test ones), newest first."""
        with self.sessions() as session:
            endpoints = list(session.scalars(
                select(WebhookEndpoint)
                .where(owned_by(principal, WebhookEndpoint),
                       WebhookEndpoint.deleted_at.is_(None))
                .order_by(WebhookEndpoint.created_at.desc(), WebhookEndpoint.id)))
            session.expunge_all()
        return endpoints

    def _owned(self, session: Session, principal: Principal, endpoint_id: str) -> WebhookEndpoint:
        """The caller's endpoint of its mode; NotFound for anyone else's and the other mode's."""
        endpoint = session.get(WebhookEndpoint, endpoint_id)
        if endpoint is None or not owns(principal, endpoint) or endpoint.deleted_at is not None:
            raise NotFound(NOT_FOUND)
        return endpoint

    def delete(self, principal: Principal, endpoint_id: str) -> None:
        """Deleted endpoints receive nothing more; deliveries under way stop at their next
        attempt."""
        with self.sessions.begin() as session:
            self._owned(session, principal, endpoint_id).deleted_at = utcnow()

    def enable(self, principal: Principal, endpoint_id: str) -> WebhookEndpoint:
        """Turn a disabled endpoint back on (its failure streak starts afresh)."""
        with self.sessions.begin() as session:
            endpoint = self._owned(session, principal, endpoint_id)
            endpoint.disabled_at = None
            endpoint.disabled_reason = None
            endpoint.failing_since = None
            session.flush()
            session.expunge(endpoint)
        return endpoint

    def deliveries(self, principal: Principal, endpoint_id: str,
                   limit: int = LOG_LIMIT) -> list[WebhookDelivery]:
        """The endpoint's delivery log, newest first."""
        with self.sessions() as session:
            self._owned(session, principal, endpoint_id)
            rows = list(session.scalars(
                select(WebhookDelivery).where(WebhookDelivery.endpoint_id == endpoint_id)
                .order_by(WebhookDelivery.created_at.desc(), WebhookDelivery.id.desc())
                .limit(limit)))
            session.expunge_all()
        return rows

    def _resendable(self, session: Session, principal: Principal, endpoint_id: str,
                    delivery_id: str) -> WebhookDelivery:
        endpoint = self._owned(session, principal, endpoint_id)
        delivery = session.get(WebhookDelivery, delivery_id)
        if delivery is None or delivery.endpoint_id != endpoint.id:
            raise NotFound("No such delivery.")
        if endpoint.disabled_at is not None:
            raise Conflict("This endpoint is disabled: enable it first.")
        if delivery.status == PENDING:
            raise Conflict("This delivery is still being tried.")
        return delivery

    def resend(self, principal: Principal, endpoint_id: str,
               delivery_id: str) -> WebhookDelivery:
        """Send a finished delivery again (same webhook-id, a new delivery workflow), within
        the endpoint's cap on resends (RateLimited beyond it)."""
        with self.sessions() as session:
            self._resendable(session, principal, endpoint_id, delivery_id)
        # Counted only for a resend that would go out, before it is marked to go.
        count_resend(self.sessions, endpoint_id)
        with self.sessions.begin() as session:
            # Checked again: a concurrent resend of the same delivery may have taken it.
            delivery = self._resendable(session, principal, endpoint_id, delivery_id)
            delivery.status = PENDING
            delivery.dispatched_at = None
            delivery.last_error = None
            session.flush()
            session.expunge(delivery)
        return delivery


def count_resend(sessions: SessionFactory, endpoint_id: str) -> None:
    """One resend to the endpoint, against each of RESEND_LIMITS; RateLimited (429 with
    Retry-After) when one is used up. Per endpoint, whichever key or session asks: every
    resend is a request to the endpoint's target, which may not be the account's own (before
    the cap, resending two log entries sent 60 deliveries a minute to one target)."""
    for limit, window, span in RESEND_LIMITS:
        try:
            ratelimit.hit(sessions, [f"webhook-resend:{endpoint_id}:{span}"], limit, window)
        except ratelimit.RateLimited as full:
            raise ratelimit.RateLimited(
                full.retry_after, full.bucket,
                f"Too many resends to this endpoint: at most {limit} per {span}. Retry after "
                f"{full.retry_after} s.") from None


# ---------------------------------------------------------------------------------------------
# Events


def generation_data(session: Session, generation: Generation) -> dict[str, object]:
    """The event's `data` for a generation: its state and ids (what GET gives, minus URLs)."""
    tasks = session.scalars(
        select(GenerationImage).where(GenerationImage.generation_id == generation.id,
                           GenerationImage.source_task_id.is_(None))
        .order_by(GenerationImage.created_at, GenerationImage.id))
    return {
        "id": generation.id,
        "object": "generation",
        "service": str(generation.service),
        "status": str(generation.status),
        "livemode": generation.livemode,
        "metadata": generation.request_metadata or {},
        "images": [{"id": task.id, "status": str(task.status), "error": task.error}
                   for task in tasks],
        "error": generation.error,
        "createdAt": as_utc(generation.created_at).isoformat(),
        "completedAt": (as_utc(generation.completed_at).isoformat()
                        if generation.completed_at else None),
    }


def queue_event(session: Session, account_id: str, event_type: str, dedupe: str,
                data: Callable[[], dict[str, object]], livemode: bool = True) -> int:
    """One delivery per enabled endpoint of the account, of the event's mode, that subscribes
    to the event, in the caller's transaction; an event queued before (a retried step) is not
    queued twice. Returns how many were queued. `data` is built only when some endpoint wants
    the event: this runs for every finished image and generation, and most accounts have no
    webhooks. Test events go only to test endpoints, live ones only to live ones (issue 33)."""
    endpoints = [endpoint for endpoint in session.scalars(
        select(WebhookEndpoint).where(WebhookEndpoint.account_id == account_id,
                                      WebhookEndpoint.livemode.is_(livemode),
                                      WebhookEndpoint.deleted_at.is_(None),
                                      WebhookEndpoint.disabled_at.is_(None)))
                 if event_type in endpoint.events]
    if not endpoints:
        return 0
    now = utcnow()
    payload = json.dumps({"type": event_type, "timestamp": now.isoformat(), "data": data()},
                         separators=(",", ":"))
    queued = 0
    for endpoint in endpoints:
        try:
            with session.begin_nested():
                session.add(WebhookDelivery(endpoint_id=endpoint.id, event_type=event_type,
                                            dedupe_key=dedupe, payload=payload, status=PENDING,
                                            created_at=now))
                session.flush()
        except IntegrityError:
            continue
        queued += 1
    return queued


def queue_generation_end(session: Session, generation: Generation) -> int:
    """generation.completed or generation.failed, once per generation."""
    if generation.status == GenerationStatus.COMPLETED:
        event = GENERATION_COMPLETED
    elif generation.status == GenerationStatus.FAILED:
        event = GENERATION_FAILED
    else:
        return 0
    return queue_event(session, generation.account_id, event, f"{event}:{generation.id}",
                       lambda: generation_data(session, generation), generation.livemode)


def queue_task_completed(session: Session, task_id: str) -> int:
    """task.completed for one image of a generation, once."""
    task = session.get(GenerationImage, task_id)
    generation = session.get(Generation, task.generation_id) if task else None
    if task is None or generation is None or task.source_task_id is not None:
        return 0
    return queue_event(session, generation.account_id, TASK_COMPLETED,
                       f"{TASK_COMPLETED}:{task.id}",
                       lambda: {"imageId": task.id,
                                "generation": generation_data(session, generation)},
                       generation.livemode)


__all__ = ["EVENTS", "FAILED", "PENDING", "SUCCEEDED", "DeliveryFailed", "NewEndpoint", "Webhooks",
           "attempt", "claim_new", "give_up", "message_id", "queue_event", "queue_generation_end",
           "queue_task_completed"]
