"""The Stripe adapter's pure parts: reading Stripe's event shapes (checkout sessions, invoices and
subscriptions, in the current and the pre-2025 API layouts), the signature check through the
SDK before anything is read, the Checkout Session it asks for, and the production settings."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from core.billing import events
from core.billing.provider import CheckoutOrder
from core.billing.signature import InvalidSignature
from core.settings import Settings
from payments.stripe import StripeProvider, checkout_params
from tests.support.provenance import c2pa_files
from tests.support.stripe_server import sign

SECRET = "whsec_unit_test_secret"


def body(event_type: str, obj: dict[str, Any], event_id: str = "evt_1") -> bytes:
    return json.dumps({"id": event_id, "object": "event", "type": event_type,
                       "data": {"object": obj}}).encode()


def provider(**overrides: Any) -> StripeProvider:
    values: dict[str, Any] = {"payment_provider": "stripe", "stripe_secret_key": "sk_test_unit",
                              "stripe_webhook_secret": SECRET, **overrides}
    settings = Settings(_env_file=None, **values)  # type: ignore[call-arg]
    return StripeProvider(settings, sessions=None)  # type: ignore[arg-type]


SESSION = {
    "id": "cs_test_1", "object": "checkout.session", "mode": "payment",
    "amount_total": 99900, "currency": "inr", "client_reference_id": "ord1",
    "metadata": {"orderId": "ord1", "userId": "u1"}, "payment_intent": "pi_1",
    "payment_status": "paid", "status": "complete",
}

INVOICE = {
    "id": "in_1", "object": "invoice", "customer": "cus_1", "currency": "usd",
    "billing_reason": "subscription_cycle", "status": "paid", "amount_paid": 6900,
    "amount_due": 6900, "metadata": {}, "period_start": 100, "period_end": 100,
    "parent": {"type": "subscription_details", "subscription_details": {
        "subscription": "sub_1",
        "metadata": {"orderId": "ord2", "userId": "u1", "planId": "v2-pro-usd",
                     "rateCode": "v2-pro-usd-month"}}},
    "lines": {"object": "list", "data": [{"period": {"start": 1000, "end": 2000}}]},
}

SUBSCRIPTION = {
    "id": "sub_1", "object": "subscription", "customer": "cus_1", "status": "active",
    "cancel_at_period_end": True, "latest_invoice": "in_1",
    "metadata": {"orderId": "ord2", "userId": "u1", "planId": "v2-pro-usd"},
    "items": {"object": "list", "data": [{
        "current_period_start": 1000, "current_period_end": 2000,
        "price": {"currency": "usd", "unit_amount": 6900}}]},
}


def test_a_paid_payment_mode_checkout() -> None:
    event = events.parse_event(body(events.CHECKOUT_COMPLETED, SESSION))
    assert (event.type, event.order_id, event.session_id, event.payment_id) == (
        "checkout.session.completed", "ord1", "cs_test_1", "pi_1")
    assert (event.amount, event.currency, event.paid, event.subscription) == (
        99900, "INR", True, None)
    unpaid = events.parse_event(body(events.CHECKOUT_COMPLETED,
                                     {**SESSION, "payment_status": "unpaid"}))
    assert unpaid.paid is False


def test_a_subscription_mode_checkout_names_its_subscription_and_invoice() -> None:
    obj = {**SESSION, "mode": "subscription", "payment_intent": None, "subscription": "sub_1",
           "invoice": {"id": "in_1", "object": "invoice"}, "customer": "cus_1"}
    event = events.parse_event(body(events.CHECKOUT_COMPLETED, obj))
    assert event.subscription is not None
    assert (event.subscription.subscription_id, event.subscription.invoice_id,
            event.subscription.customer_id, event.subscription.user_id) == (
        "sub_1", "in_1", "cus_1", "u1")
    assert event.payment_id is None and event.paid


def test_an_invoice_in_the_current_api_shape() -> None:
    event = events.parse_event(body(events.INVOICE_PAID, INVOICE))
    facts = event.subscription
    assert facts is not None
    assert (event.order_id, event.amount, event.currency, event.paid, event.payment_id) == (
        "ord2", 6900, "USD", True, "in_1")
    assert (facts.subscription_id, facts.invoice_id, facts.billing_reason) == (
        "sub_1", "in_1", "subscription_cycle")
    # The period paid for is the subscription line's, not the invoice's own dates.
    assert (facts.period_start, facts.period_end) == (1000, 2000)
    assert (facts.plan_id, facts.rate_code, facts.user_id) == (
        "v2-pro-usd", "v2-pro-usd-month", "u1")


def test_an_invoice_in_the_older_api_shape() -> None:
    legacy = {key: value for key, value in INVOICE.items() if key != "parent"}
    legacy.update(subscription="sub_9", subscription_details={"metadata": {"orderId": "ord9"}},
                  lines={"data": []})
    event = events.parse_event(body(events.INVOICE_PAID, legacy))
    assert event.subscription is not None
    assert (event.order_id, event.subscription.subscription_id) == ("ord9", "sub_9")
    assert (event.subscription.period_start, event.subscription.period_end) == (100, 100)


def test_a_failed_invoice_says_why_and_is_not_paid() -> None:
    failed = {**INVOICE, "status": "open", "amount_paid": 0}
    event = events.parse_event(body(events.INVOICE_PAYMENT_FAILED, failed))
    assert (event.paid, event.amount, event.failure_reason) == (
        False, 6900, events.RENEWAL_FAILED)


def test_a_subscription_event_in_both_shapes() -> None:
    event = events.parse_event(body(events.SUBSCRIPTION_UPDATED, SUBSCRIPTION))
    facts = event.subscription
    assert facts is not None
    assert (facts.subscription_id, facts.status, facts.cancel_at_period_end) == (
        "sub_1", "active", True)
    assert (facts.period_start, facts.period_end, event.order_id) == (1000, 2000, "ord2")
    assert (event.amount, event.currency) == (6900, "USD")
    legacy = {**SUBSCRIPTION, "items": {"data": []}, "current_period_start": 5,
              "current_period_end": 6, "cancel_at_period_end": "yes"}
    old = events.parse_event(body(events.SUBSCRIPTION_DELETED, legacy)).subscription
    assert old is not None
    assert (old.period_start, old.period_end, old.cancel_at_period_end) == (5, 6, None)


@pytest.mark.parametrize("payload", [b"not json", b"[]", b'{"id": "evt_1"}',
                                     b'{"id": "evt_1", "type": "x", "data": {"object": 3}}'])
def test_unreadable_events_are_refused(payload: bytes) -> None:
    with pytest.raises(events.UnreadableEvent):
        events.parse_event(payload)


# The signature, checked by the SDK before anything is read


def test_a_signed_event_is_read() -> None:
    payload = body(events.CHECKOUT_COMPLETED, SESSION)
    event = provider().parse_webhook(payload, sign(payload, SECRET))
    assert event.order_id == "ord1" and event.paid


@pytest.mark.parametrize("case", ["tampered", "wrong secret", "too old", "missing", "garbled",
                                  "no v1"])
def test_a_bad_signature_is_refused_before_reading(case: str) -> None:
    payload = body(events.CHECKOUT_COMPLETED, SESSION)
    header: str | None = {
        "tampered": sign(payload, SECRET),
        "wrong secret": sign(payload, "whsec_other"),
        "too old": sign(payload, SECRET, int(time.time()) - 301),
        "missing": None,
        "garbled": "t=abc,v1=zz",
        "no v1": "t=1",
    }[case]
    if case == "tampered":
        payload = payload.replace(b"99900", b"00100")
    with pytest.raises(InvalidSignature):
        provider().parse_webhook(payload, header)


def test_within_five_minutes_is_accepted_and_no_secret_refuses_all() -> None:
    payload = body(events.CHECKOUT_COMPLETED, SESSION)
    assert provider().parse_webhook(payload, sign(payload, SECRET, int(time.time()) - 290))
    with pytest.raises(InvalidSignature):
        provider(stripe_webhook_secret="").parse_webhook(payload, sign(payload, ""))


def test_a_signed_body_that_is_no_event_is_unreadable() -> None:
    for payload in (b"not json", b"[1, 2]"):
        with pytest.raises(events.UnreadableEvent):
            provider().parse_webhook(payload, sign(payload, SECRET))


# The Checkout Session asked for

ORDER = CheckoutOrder(
    order_id="ord1", plan_id="v2-pack-inr", rate_code="v2-pack-inr-once", plan_name="Credit Pack",
    kind="pack", amount=99900, currency="INR", credits=50, customer_email="a@example.com",
    success_url="http://app/success?orderId=ord1", cancel_url="http://app/failure?orderId=ord1",
)


def test_a_pack_is_a_payment_mode_session_priced_from_the_order() -> None:
    params = checkout_params(ORDER, "cus_1", "u1", "once")
    assert params["mode"] == "payment" and params["customer"] == "cus_1"
    (item,) = params["line_items"]
    assert item["quantity"] == 1
    assert item["price_data"]["unit_amount"] == 99900
    assert item["price_data"]["currency"] == "inr"
    assert "recurring" not in item["price_data"]
    assert params["metadata"]["orderId"] == "ord1" and params["metadata"]["userId"] == "u1"
    assert params["payment_intent_data"]["metadata"] == params["metadata"]
    assert params["client_reference_id"] == "ord1"


def test_a_monthly_plan_is_a_subscription_mode_session() -> None:
    order = CheckoutOrder(**{**ORDER.__dict__, "kind": "subscription", "amount": 6900,
                             "currency": "USD"})
    params = checkout_params(order, "cus_1", "u1", "month")
    assert params["mode"] == "subscription"
    price = params["line_items"][0]["price_data"]
    assert (price["unit_amount"], price["currency"], price["recurring"]) == (
        6900, "usd", {"interval": "month"})
    assert params["subscription_data"]["metadata"]["orderId"] == "ord1"
    assert "payment_intent_data" not in params
    with pytest.raises(ValueError):
        checkout_params(order, "cus_1", "u1", "once")


# Settings


def production(**values: Any) -> Settings:
    base: dict[str, Any] = {
        "environment": "production", "jwt_secret": "j" * 40, "code_secret": "c" * 40,
        "s3_secret_key": "s" * 40, "payment_webhook_secret": "w" * 40, **c2pa_files(),
    }
    return Settings(_env_file=None, **{**base, **values})  # type: ignore[arg-type]


def test_production_refuses_stripe_without_its_secrets() -> None:
    for values in ({}, {"stripe_secret_key": "sk_live_x"},
                   {"stripe_secret_key": "change-me", "stripe_webhook_secret": "whsec_x"}):
        with pytest.raises(ValueError, match="STRIPE_"):
            production(payment_provider="stripe", **values)
    production(payment_provider="stripe", stripe_secret_key="sk_live_x",
               stripe_webhook_secret="whsec_x")
    production()  # the local provider needs no Stripe secrets
