"""Webhook endpoints (issue 23): an account's endpoints, their delivery log and "Resend", with an
API key or a signed-in session (User Setting → Webhooks). Delivery itself runs in workflows
(core/webhooks/endpoints.py, workflows/webhooks.py)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, cast

from fastapi import APIRouter, Path, Query

from api.deps import PublicPrincipal, WebhooksDep
from api.schemas.common import Envelope, Ok
from api.schemas.webhooks import (
    CreatedWebhookEndpoint,
    DeliveryStatus,
    NewWebhookBody,
    WebhookDeliveryView,
    WebhookEndpointView,
    WebhookEvent,
)
from core.models.base import as_utc
from core.models.webhooks import WebhookDelivery, WebhookEndpoint
from core.webhooks.endpoints import LOG_LIMIT, message_id

router = APIRouter(prefix="/api/v1/webhooks", tags=["webhooks"])

EndpointId = Annotated[str, Path(max_length=32)]


def _when(value: datetime | None) -> str | None:
    return as_utc(value).isoformat() if value else None


def endpoint_view(endpoint: WebhookEndpoint) -> WebhookEndpointView:
    return WebhookEndpointView(
        id=endpoint.id, url=endpoint.url, description=endpoint.description,
        events=[cast(WebhookEvent, event) for event in endpoint.events],
        status="disabled" if endpoint.disabled_at else "enabled",
        disabledReason=endpoint.disabled_reason, failingSince=_when(endpoint.failing_since),
        createdAt=as_utc(endpoint.created_at).isoformat(), livemode=endpoint.livemode,
    )


def delivery_view(delivery: WebhookDelivery) -> WebhookDeliveryView:
    return WebhookDeliveryView(
        id=message_id(delivery.id), eventType=cast(WebhookEvent, delivery.event_type),
        status=cast(DeliveryStatus, delivery.status),
        attempts=delivery.attempts, lastStatusCode=delivery.last_status_code,
        lastDurationMs=delivery.last_duration_ms, lastError=delivery.last_error,
        lastAttemptAt=_when(delivery.last_attempt_at), deliveredAt=_when(delivery.delivered_at),
        createdAt=as_utc(delivery.created_at).isoformat(), payload=delivery.payload,
    )


@router.post("", response_model=Envelope[CreatedWebhookEndpoint], status_code=201,
             responses={401: {}, 422: {}, 429: {}})
def create_endpoint(webhooks: WebhooksDep, principal: PublicPrincipal,
                    body: NewWebhookBody) -> Envelope[CreatedWebhookEndpoint]:
    """A new endpoint for the caller's account. Its URL must be reachable on a public address;
    `secret` is in this answer only: store it now to verify the signatures. Made with a test key
    it is a test endpoint (`livemode` false): it receives test-mode events only."""
    made = webhooks.create(principal, body.url, list(body.events), body.description)
    view = endpoint_view(made.endpoint)
    return Envelope(data=CreatedWebhookEndpoint(**view.model_dump(), secret=made.secret))


@router.get("", response_model=Envelope[list[WebhookEndpointView]],
            responses={401: {}, 429: {}})
def list_endpoints(webhooks: WebhooksDep,
                   principal: PublicPrincipal) -> Envelope[list[WebhookEndpointView]]:
    """The account's endpoints of the caller's mode, newest first (never their secrets): a
    test key lists the test endpoints, a live key or a session the live ones."""
    return Envelope(data=[endpoint_view(e) for e in webhooks.endpoints(principal)])


@router.delete("/{endpoint_id}", response_model=Envelope[Ok],
               responses={401: {}, 404: {}, 429: {}})
def delete_endpoint(webhooks: WebhooksDep, principal: PublicPrincipal,
                    endpoint_id: EndpointId) -> Envelope[Ok]:
    """Delete the endpoint: it receives nothing more, retries under way stop."""
    webhooks.delete(principal, endpoint_id)
    return Envelope(data=Ok(ok=True))


@router.post("/{endpoint_id}/enable", response_model=Envelope[WebhookEndpointView],
             responses={401: {}, 404: {}, 429: {}})
def enable_endpoint(webhooks: WebhooksDep, principal: PublicPrincipal,
                    endpoint_id: EndpointId) -> Envelope[WebhookEndpointView]:
    """Enable an endpoint that was disabled after failing; new events go to it again."""
    return Envelope(data=endpoint_view(webhooks.enable(principal, endpoint_id)))


@router.get("/{endpoint_id}/deliveries", response_model=Envelope[list[WebhookDeliveryView]],
            responses={401: {}, 404: {}, 429: {}})
def list_deliveries(
    webhooks: WebhooksDep, principal: PublicPrincipal, endpoint_id: EndpointId,
    limit: Annotated[int, Query(ge=1, le=LOG_LIMIT)] = 50,
) -> Envelope[list[WebhookDeliveryView]]:
    """The endpoint's delivery log, newest first: status, attempts, the last answer's status
    code and duration, and the body sent."""
    return Envelope(data=[delivery_view(d)
                          for d in webhooks.deliveries(principal, endpoint_id, limit)])


@router.post("/{endpoint_id}/deliveries/{delivery_id}/resend",
             response_model=Envelope[WebhookDeliveryView], status_code=202,
             responses={401: {}, 404: {}, 409: {}, 429: {}})
def resend_delivery(webhooks: WebhooksDep, principal: PublicPrincipal, endpoint_id: EndpointId,
                    delivery_id: Annotated[str, Path(max_length=40)]
                    ) -> Envelope[WebhookDeliveryView]:
    """Send a finished delivery again, with the same webhook-id (409 while it is still being
    tried, or while the endpoint is disabled; 429 with Retry-After past the endpoint's resends
    cap: 10 a minute, 100 an hour)."""
    delivery = webhooks.resend(principal, endpoint_id, delivery_id.removeprefix("msg_"))
    return Envelope(data=delivery_view(delivery))
