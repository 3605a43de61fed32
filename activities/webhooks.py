"""The webhook activities (core/webhooks/endpoints.py does the work): the relay's claim of new
deliveries, one delivery attempt, and giving a delivery up when its retry window is spent.

Synchronous, in the worker's thread pool: HTTP and the database block, the event loop must not.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.registry import Queue, Registration
from core.db import SessionFactory
from core.settings import Settings
from core.webhooks import endpoints as webhooks

CLAIM_WEBHOOKS = "claim_webhook_deliveries"
DELIVER_WEBHOOK = "deliver_webhook"
GIVE_UP_WEBHOOK = "give_up_webhook"


@dataclass
class WebhookRetries:
    """How a delivery is retried (from the settings, fixed in the relay's schedule)."""

    timeout_seconds: float
    initial_seconds: float
    max_interval_seconds: float
    window_seconds: float


@dataclass
class DeliveryRef:
    delivery_id: str
    dispatch: int


@dataclass
class DeliverWebhook:
    delivery: DeliveryRef
    retries: WebhookRetries


class WebhookActivities:
    def __init__(self, sessions: SessionFactory, settings: Settings) -> None:
        self.sessions = sessions
        self.settings = settings

    @activity.defn(name=CLAIM_WEBHOOKS)
    def claim(self) -> list[DeliveryRef]:
        return [DeliveryRef(delivery_id, dispatch)
                for delivery_id, dispatch in webhooks.claim_new(self.sessions)]

    @activity.defn(name=DELIVER_WEBHOOK)
    def deliver(self, inp: DeliverWebhook) -> None:
        """One attempt; a failure is raised for Temporal to retry with backoff, or as
        non-retryable when no attempt can succeed (endpoint deleted, disabled or refused)."""
        try:
            webhooks.attempt(self.sessions, self.settings, inp.delivery.delivery_id)
        except webhooks.DeliveryFailed as error:
            raise ApplicationError(str(error), type="WebhookDeliveryFailed",
                                   non_retryable=not error.retry) from None

    @activity.defn(name=GIVE_UP_WEBHOOK)
    def give_up(self, inp: DeliverWebhook) -> bool:
        return webhooks.give_up(self.sessions, self.settings, inp.delivery.delivery_id,
                                timedelta(seconds=inp.retries.window_seconds))


REGISTRATION = Registration(
    Queue.ORCHESTRATION,
    lambda deps: [(steps := WebhookActivities(deps.sessions, deps.settings)).claim,
                  steps.deliver, steps.give_up],
)
