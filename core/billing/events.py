"""Stripe-shaped webhook events: the types we act on, and reading one into a PaymentEvent.

Shared by every adapter that speaks Stripe's event format (the local test provider sends the
same shapes), so the fulfilment rules see one kind of event.
"""

from __future__ import annotations

import json
from typing import Any

from core.billing.provider import PaymentEvent
from core.errors import Refused

CHECKOUT_COMPLETED = "checkout.session.completed"
CHECKOUT_EXPIRED = "checkout.session.expired"
PAYMENT_FAILED = "payment_intent.payment_failed"


class UnreadableEvent(Refused):
    def __init__(self) -> None:
        super().__init__("The webhook event could not be read.")


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def parse_event(payload: bytes) -> PaymentEvent:
    """Read a (signature-checked) Stripe event body. Raises UnreadableEvent on malformed JSON
    or an event without id or type; unknown types are read too (and later ignored)."""
    try:
        body: Any = json.loads(payload)
    except (ValueError, UnicodeDecodeError):
        raise UnreadableEvent() from None
    if not isinstance(body, dict):
        raise UnreadableEvent()
    event_id, event_type = _text(body.get("id")), _text(body.get("type"))
    data = body.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    if event_id is None or event_type is None or not isinstance(obj, dict):
        raise UnreadableEvent()
    if len(event_id) > 128 or len(event_type) > 64:
        raise UnreadableEvent()
    metadata = obj.get("metadata")
    if not isinstance(metadata, dict):
        metadata = {}
    order_id = _text(metadata.get("orderId")) or _text(obj.get("client_reference_id"))
    currency = _text(obj.get("currency"))
    if event_type.startswith("checkout.session."):
        return PaymentEvent(
            id=event_id,
            type=event_type,
            order_id=order_id,
            session_id=_text(obj.get("id")),
            payment_id=_text(obj.get("payment_intent")),
            amount=_int(obj.get("amount_total")),
            currency=currency.upper() if currency else None,
            paid=obj.get("payment_status") == "paid",
        )
    if event_type.startswith("payment_intent."):
        last_error = obj.get("last_payment_error")
        reason = _text(last_error.get("message")) if isinstance(last_error, dict) else None
        return PaymentEvent(
            id=event_id,
            type=event_type,
            order_id=order_id,
            session_id=_text(metadata.get("checkoutSessionId")),
            payment_id=_text(obj.get("id")),
            amount=_int(obj.get("amount")),
            currency=currency.upper() if currency else None,
            paid=obj.get("status") == "succeeded",
            failure_reason=reason,
        )
    return PaymentEvent(id=event_id, type=event_type, order_id=order_id)
