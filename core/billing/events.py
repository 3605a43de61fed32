"""Stripe-shaped webhook events: the types we act on, and reading one into a PaymentEvent.

Shared by every adapter that speaks Stripe's event format (the local test provider sends the
same shapes), so the fulfilment rules see one kind of event.
"""

from __future__ import annotations

import json
from typing import Any

from core.billing.provider import PaymentEvent, SubscriptionFacts
from core.errors import Refused

CHECKOUT_COMPLETED = "checkout.session.completed"
CHECKOUT_EXPIRED = "checkout.session.expired"
PAYMENT_FAILED = "payment_intent.payment_failed"
# A subscription's life at Stripe (the local provider's subscriptions charge themselves).
INVOICE_PAID = "invoice.paid"
INVOICE_PAYMENT_FAILED = "invoice.payment_failed"
SUBSCRIPTION_UPDATED = "customer.subscription.updated"
SUBSCRIPTION_DELETED = "customer.subscription.deleted"
SUBSCRIPTION_EVENTS = frozenset(
    {INVOICE_PAID, INVOICE_PAYMENT_FAILED, SUBSCRIPTION_UPDATED, SUBSCRIPTION_DELETED}
)
RENEWAL_FAILED = "The subscription's payment failed."
# The outcome recorded on a paid event whose amount or currency differs from its order
# (core/billing/orders.py); the reconciliation looks for it.
PAYMENT_MISMATCH_OUTCOME = "rejected: amount or currency does not match the order"
# A paid event for an order that had expired: not fulfilled (the reconciliation lists it, a
# person refunds the payment).
PAID_AFTER_EXPIRY_OUTCOME = "rejected: the order had expired"


class UnreadableEvent(Refused):
    def __init__(self) -> None:
        super().__init__("The webhook event could not be read.")


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _dict(value: object) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _id_of(value: object) -> str | None:
    """A reference that is an id, or an expanded object with an id."""
    return _text(value) or _text(_dict(value).get("id"))


def _first_line(obj: dict[str, Any], key: str) -> dict[str, Any]:
    data = _dict(obj.get(key)).get("data")
    return _dict(data[0]) if isinstance(data, list) and data else {}


def _our_ids(metadata: dict[str, Any]) -> tuple[str | None, str | None, str | None]:
    """userId, planId, rateCode: what our checkout put in the metadata."""
    return (_text(metadata.get("userId")), _text(metadata.get("planId")),
            _text(metadata.get("rateCode")))


def invoice_facts(obj: dict[str, Any]) -> tuple[SubscriptionFacts, dict[str, Any]]:
    """An invoice's subscription facts and the subscription's metadata. The subscription and
    its metadata sit under `parent.subscription_details` (API 2025-03-31 and later) or at the
    top (`subscription`, `subscription_details`, earlier versions); both are read. The period
    paid for is the subscription line's."""
    details = _dict(_dict(obj.get("parent")).get("subscription_details"))
    legacy = _dict(obj.get("subscription_details"))
    metadata = _dict(details.get("metadata")) or _dict(legacy.get("metadata"))
    period = _dict(_first_line(obj, "lines").get("period"))
    user_id, plan_id, rate_code = _our_ids(metadata)
    return SubscriptionFacts(
        subscription_id=_id_of(details.get("subscription")) or _id_of(obj.get("subscription")),
        customer_id=_id_of(obj.get("customer")),
        invoice_id=_text(obj.get("id")),
        status=_text(obj.get("status")),
        billing_reason=_text(obj.get("billing_reason")),
        period_start=_int(period.get("start")) or _int(obj.get("period_start")),
        period_end=_int(period.get("end")) or _int(obj.get("period_end")),
        user_id=user_id,
        plan_id=plan_id,
        rate_code=rate_code,
    ), metadata


def subscription_facts(obj: dict[str, Any]) -> SubscriptionFacts:
    """A subscription object's facts; the current period sits on its items (API 2025-03-31 and
    later) or on the subscription itself (earlier)."""
    item = _first_line(obj, "items")
    cancel = obj.get("cancel_at_period_end")
    user_id, plan_id, rate_code = _our_ids(_dict(obj.get("metadata")))
    return SubscriptionFacts(
        subscription_id=_text(obj.get("id")),
        customer_id=_id_of(obj.get("customer")),
        invoice_id=_id_of(obj.get("latest_invoice")),
        status=_text(obj.get("status")),
        period_start=_int(item.get("current_period_start"))
        or _int(obj.get("current_period_start")),
        period_end=_int(item.get("current_period_end")) or _int(obj.get("current_period_end")),
        cancel_at_period_end=cancel if isinstance(cancel, bool) else None,
        user_id=user_id,
        plan_id=plan_id,
        rate_code=rate_code,
    )


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
        subscription = None
        if obj.get("mode") == "subscription":
            user_id, plan_id, rate_code = _our_ids(metadata)
            subscription = SubscriptionFacts(
                subscription_id=_id_of(obj.get("subscription")),
                customer_id=_id_of(obj.get("customer")),
                invoice_id=_id_of(obj.get("invoice")),
                user_id=user_id,
        plan_id=plan_id,
        rate_code=rate_code,
            )
        return PaymentEvent(
            id=event_id,
            type=event_type,
            order_id=order_id,
            session_id=_text(obj.get("id")),
            payment_id=_id_of(obj.get("payment_intent")),
            amount=_int(obj.get("amount_total")),
            currency=currency.upper() if currency else None,
            # "no_payment_required" is a paid checkout too (a 100% discount, a free trial).
            paid=obj.get("payment_status") in ("paid", "no_payment_required"),
            subscription=subscription,
        )
    if event_type.startswith("invoice."):
        facts, sub_metadata = invoice_facts(obj)
        return PaymentEvent(
            id=event_id,
            type=event_type,
            order_id=_text(sub_metadata.get("orderId")) or order_id,
            payment_id=facts.invoice_id,
            amount=_int(obj.get("amount_paid")) if event_type == INVOICE_PAID
            else _int(obj.get("amount_due")),
            currency=currency.upper() if currency else None,
            paid=obj.get("status") == "paid",
            failure_reason=RENEWAL_FAILED if event_type == INVOICE_PAYMENT_FAILED else None,
            subscription=facts,
        )
    if event_type.startswith("customer.subscription."):
        item = _first_line(obj, "items")
        price = _dict(item.get("price"))
        price_currency = _text(price.get("currency")) or currency
        return PaymentEvent(
            id=event_id,
            type=event_type,
            order_id=order_id,
            amount=_int(price.get("unit_amount")),
            currency=price_currency.upper() if price_currency else None,
            subscription=subscription_facts(obj),
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
