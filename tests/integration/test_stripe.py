"""The Stripe provider on the running stack (PAYMENT_PROVIDER=stripe), against a local server
speaking Stripe's REST API and sending webhooks signed with Stripe's scheme
(tests/support/stripe_server.py): the Checkout Session asked for (price from our plan, metadata
with our ids, one customer per user), fulfilment by its webhooks (credits granted once, however
often an event is delivered) and forged signatures refused. Stripe's subscriptions are in
test_stripe_subscriptions.py; the stack and the buyer are tests/support/stripe_stack.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from core.models.billing import Order, PaymentCustomer
from core.settings import Settings
from tests.support.stripe_server import StripeServer, event, sign, stripe_server
from tests.support.stripe_stack import (
    PRO_USD,
    SECRET_KEY,
    WEBHOOK_SECRET,
    Buyer,
    deliver,
    session_id_of,
    stored_events,
    stripe_stack,
)

PACK_INR = ("v2-pack-inr", "v2-pack-inr-once")  # 99 900 paise, 50 credits


@pytest.fixture(scope="module")
def server() -> Iterator[StripeServer]:
    with stripe_server(SECRET_KEY, WEBHOOK_SECRET) as running:
        yield running


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, server: StripeServer) -> Iterator[Settings]:
    with stripe_stack(tmp_path_factory.mktemp("stripe"), server) as running:
        yield running


@pytest.fixture
def buyer(api: httpx.Client, db: Any, stack: Settings) -> Buyer:
    return Buyer(api, db, f"{stack.app_url}/api/v1/payment/webhook/stripe")


# Checkout


def test_a_pack_checkout_session_is_priced_from_our_plan_with_our_ids(
    server: StripeServer, buyer: Buyer, stack: Settings
) -> None:
    # A price sent by the client is not a field of the checkout: it is ignored.
    started = buyer.start(PACK_INR, "INR", amount=1, unit_amount=1)
    order_id = started["orderId"]
    sessions = [r for r in server.received("POST", "/v1/checkout/sessions")
                if r.params.get("client_reference_id") == order_id]
    assert len(sessions) == 1
    sent = sessions[0]
    assert sent.headers["authorization"] == f"Bearer {SECRET_KEY}"
    assert sent.headers["idempotency-key"] == f"checkout-{order_id}"
    params = sent.params
    assert params["mode"] == "payment"
    (item,) = params["line_items"]
    assert item["quantity"] == "1"
    assert item["price_data"]["unit_amount"] == "99900"  # ₹999.00 in paise, from the database
    assert item["price_data"]["currency"] == "inr"
    assert item["price_data"]["product_data"]["name"] == "Credit Pack"
    assert "recurring" not in item["price_data"]
    metadata = {"orderId": order_id, "userId": buyer.user_id, "planId": PACK_INR[0],
                "rateCode": PACK_INR[1], "credits": "50"}
    assert params["metadata"] == metadata
    assert params["payment_intent_data"]["metadata"] == metadata
    assert params["success_url"] == f"{stack.app_url}/success?orderId={order_id}"
    assert params["cancel_url"].startswith(f"{stack.app_url}/failure?orderId={order_id}")
    # The customer was made for this user and kept.
    customer = params["customer"]
    assert server.customers[customer]["email"] == buyer.email
    assert server.customers[customer]["metadata"] == {"userId": buyer.user_id}
    with buyer.db() as session:
        kept = session.execute(select(PaymentCustomer).where(
            PaymentCustomer.user_id == buyer.user_id)).scalar_one()
    assert (kept.provider, kept.customer_id) == ("stripe", customer)
    # Where the browser goes: Stripe's hosted checkout of that session.
    session_id = session_id_of(started["checkoutUrl"])
    assert started["checkoutUrl"] == server.sessions[session_id]["url"]
    assert buyer.order(order_id)["status"] == "pending"

    # The next checkout of the same user reuses the customer.
    customers_before = len(server.received("POST", "/v1/customers"))
    again = buyer.start(PACK_INR, "INR")
    assert len(server.received("POST", "/v1/customers")) == customers_before
    second = server.sessions[session_id_of(again["checkoutUrl"])]
    assert second["customer"] == customer and second["client_reference_id"] == again["orderId"]


def test_a_monthly_plan_is_a_subscription_mode_session(
    server: StripeServer, buyer: Buyer
) -> None:
    started = buyer.start(PRO_USD, "USD")
    session = server.sessions[session_id_of(started["checkoutUrl"])]
    params = session["_params"]
    assert params["mode"] == "subscription"
    price = params["line_items"][0]["price_data"]
    assert (price["unit_amount"], price["currency"], price["recurring"]) == (
        "6900", "usd", {"interval": "month"})
    assert params["subscription_data"]["metadata"]["orderId"] == started["orderId"]
    assert params["subscription_data"]["metadata"]["userId"] == buyer.user_id
    assert "payment_intent_data" not in params


# Webhooks


def test_checkout_completed_fulfils_the_order_once_however_often_it_comes(
    server: StripeServer, buyer: Buyer
) -> None:
    started = buyer.start(PACK_INR, "INR")
    sent = server.complete(session_id_of(started["checkoutUrl"]))
    completed = sent["checkout.session.completed"]
    first = deliver(server, buyer, completed)
    assert first.status_code == 200, first.text
    assert first.json()["data"] == {"received": True, "duplicate": False}
    order = buyer.wait_order(started["orderId"], "paid")
    assert (order["credits"], order["amount"], order["currency"]) == (50, 99_900, "INR")
    assert buyer.paid_credits() == 50 and buyer.purchases() == 1
    with buyer.db() as session:
        stored = session.get(Order, started["orderId"])
        assert stored is not None and stored.provider_payment_id is not None
        assert stored.provider_payment_id.startswith("pi_")

    # The same event delivered 10 times (Stripe's retries, a replay): one grant.
    for _ in range(10):
        again = deliver(server, buyer, completed)
        assert again.status_code == 200, again.text
        assert again.json()["data"]["duplicate"] is True
    time.sleep(1)
    assert buyer.paid_credits() == 50 and buyer.purchases() == 1
    assert len(stored_events(buyer.db, completed)) == 1


def test_a_forged_or_stale_signature_is_refused_and_grants_nothing(
    server: StripeServer, buyer: Buyer
) -> None:
    started = buyer.start(PACK_INR, "INR")
    completed = server.complete(session_id_of(started["checkoutUrl"]))[
        "checkout.session.completed"]
    forged = {
        # Signed, then changed on the way (a higher amount would be credited).
        "tampered": (completed.replace(b'"amount_total": 99900', b'"amount_total": 99901'),
                     sign(completed, WEBHOOK_SECRET)),
        "wrong secret": (completed, sign(completed, "whsec_someone_else")),
        "too old": (completed, sign(completed, WEBHOOK_SECRET, int(time.time()) - 6 * 60)),
        "missing": (completed, ""),
    }
    for case, (payload, header) in forged.items():
        response = deliver(server, buyer, payload, header)
        assert response.status_code == 400, (case, response.text)
        assert "signature" in response.json()["message"], case
    time.sleep(1)
    assert buyer.order(started["orderId"])["status"] == "pending"
    assert buyer.paid_credits() == 0 and buyer.purchases() == 0
    # Nothing was recorded: the genuine delivery later is handled as new.
    assert stored_events(buyer.db, completed) == []
    assert deliver(server, buyer, completed).json()["data"]["duplicate"] is False
    buyer.wait_order(started["orderId"], "paid")
    assert buyer.paid_credits() == 50


def test_a_paid_event_for_another_amount_is_not_fulfilled_and_the_real_one_is(
    server: StripeServer, buyer: Buyer
) -> None:
    started = buyer.start(PACK_INR, "INR")
    session_id = session_id_of(started["checkoutUrl"])
    session = server.sessions[session_id]
    cheap = {key: value for key, value in session.items() if not key.startswith("_")}
    cheap.update(amount_total=100, payment_status="paid", status="complete",
                 payment_intent="pi_test_cheap")
    response = deliver(server, buyer, event("checkout.session.completed", cheap))
    assert response.status_code == 200, response.text
    time.sleep(1)
    # Not fulfilled, and not failed either: a mismatch is never final.
    assert buyer.order(started["orderId"])["status"] == "pending"
    assert buyer.paid_credits() == 0
    # Stripe's real event for the checkout, the full amount, fulfils the order.
    completed = server.complete(session_id)["checkout.session.completed"]
    assert deliver(server, buyer, completed).status_code == 200
    buyer.wait_order(started["orderId"], "paid")
    assert buyer.paid_credits() == 50 and buyer.purchases() == 1
