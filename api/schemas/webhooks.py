"""Webhook endpoints and their delivery log (issue 23)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from api.schemas.common import Schema

WebhookEvent = Literal["generation.completed", "generation.failed", "task.completed"]
DeliveryStatus = Literal["pending", "succeeded", "failed"]


class WebhookEndpointView(Schema):
    id: str
    url: str
    description: str
    events: list[WebhookEvent]
    # "disabled" after a whole retry window (3 days) of failed deliveries, or never enabled again
    status: Literal["enabled", "disabled"]
    disabledReason: str | None
    # Since when every delivery attempt has failed (null when the last one succeeded).
    failingSince: str | None
    createdAt: str
    # False for an endpoint made with a test key: it receives test-mode events only, and a
    # live endpoint live ones only.
    livemode: bool


class NewWebhookBody(Schema):
    url: Annotated[str, Field(min_length=1, max_length=2048,
                              examples=["https://shop.example.com/hooks/metamodel"])]
    events: Annotated[list[WebhookEvent], Field(min_length=1, max_length=3)]
    description: Annotated[str, Field(max_length=200)] = ""


class CreatedWebhookEndpoint(WebhookEndpointView):
    # The signing secret (whsec_…), shown this once: verify each delivery's webhook-signature
    # with it (Standard Webhooks).
    secret: str


class WebhookDeliveryView(Schema):
    # The webhook-id header the receiver saw (the same on every attempt and resend).
    id: str
    eventType: WebhookEvent
    status: DeliveryStatus
    attempts: int
    lastStatusCode: int | None
    lastDurationMs: int | None
    lastError: str | None
    lastAttemptAt: str | None
    deliveredAt: str | None
    createdAt: str
    # The JSON body as signed and sent.
    payload: str
