"""Stripe's subscriptions on the running stack (PAYMENT_PROVIDER=stripe, a local server
speaking Stripe's REST API): a subscription whose first invoice's `invoice.paid` arrives before
`checkout.session.completed`, one that follows its invoice and subscription events, an event of
a subscription not known yet, and the changes made in our app sent to Stripe first. Split from
test_stripe.py (checkout and its webhooks), on a stack of its own."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from core.models.billing import Order, Subscription
from core.settings import Settings
from tests.support.stripe_server import StripeServer, event, stripe_server
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


@pytest.fixture(scope="module")
def server() -> Iterator[StripeServer]:
    with stripe_server(SECRET_KEY, WEBHOOK_SECRET) as running:
        yield running


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory, server: StripeServer) -> Iterator[Settings]:
    with stripe_stack(tmp_path_factory.mktemp("stripe-subscriptions"), server) as running:
        yield running


@pytest.fixture
def buyer(api: httpx.Client, db: Any, stack: Settings) -> Buyer:
    return Buyer(api, db, f"{stack.app_url}/api/v1/payment/webhook/stripe")


def wait_subscription(buyer: Buyer, timeout: float = 30) -> Subscription:
    deadline = time.monotonic() + timeout
    while True:
        with buyer.db() as session:
            row = session.execute(select(Subscription).where(
                Subscription.user_id == buyer.user_id)).scalar_one_or_none()
        if row is not None or time.monotonic() > deadline:
            assert row is not None, "no subscription"
            return row
        time.sleep(0.2)


def test_invoice_paid_before_checkout_completed_ends_paid_once(
    server: StripeServer, buyer: Buyer
) -> None:
    started = buyer.start(PRO_USD, "USD")
    sent = server.complete(session_id_of(started["checkoutUrl"]))
    invoice_paid, completed = sent["invoice.paid"], sent["checkout.session.completed"]
    provider_subscription = json.loads(completed)["data"]["object"]["subscription"]

    # Stripe does not promise an order: the first invoice is paid before the checkout event.
    first = deliver(server, buyer, invoice_paid)
    assert first.status_code == 200, first.text
    second = deliver(server, buyer, completed)
    assert second.status_code == 200, second.text
    order = buyer.wait_order(started["orderId"], "paid")
    assert (order["credits"], order["amount"], order["currency"]) == (500, 6_900, "USD")
    row = wait_subscription(buyer)
    assert row.provider == "stripe" and row.provider_subscription_id == provider_subscription
    assert row.status == "active" and row.order_id == started["orderId"]

    # Everything again, in the other order: nothing changes.
    for payload in (completed, invoice_paid, completed):
        assert deliver(server, buyer, payload).json()["data"]["duplicate"] is True
    time.sleep(1.5)
    assert buyer.paid_credits() == 500 and buyer.purchases() == 1
    with buyer.db() as session:
        assert session.scalar(select(func.count()).select_from(Subscription).where(
            Subscription.user_id == buyer.user_id)) == 1
    for payload in (invoice_paid, completed):
        (stored,) = stored_events(buyer.db, payload)
        assert stored.processed_at is not None, stored.outcome


def wait_row(buyer: Buyer, check: Any, timeout: float = 30) -> Subscription:
    deadline = time.monotonic() + timeout
    while True:
        row = wait_subscription(buyer)
        if check(row) or time.monotonic() > deadline:
            assert check(row), (row.status, row.period, row.cancel_at_period_end)
            return row
        time.sleep(0.2)


def test_a_stripe_subscription_follows_its_invoice_and_subscription_events(
    server: StripeServer, buyer: Buyer
) -> None:
    started = buyer.start(PRO_USD, "USD")
    sent = server.complete(session_id_of(started["checkoutUrl"]))
    assert deliver(server, buyer, sent["checkout.session.completed"]).status_code == 200
    buyer.wait_order(started["orderId"], "paid")
    row = wait_row(buyer, lambda r: r.period == 1)
    sub = server.subscriptions[row.provider_subscription_id or ""]
    assert buyer.paid_credits() == 500

    # A renewal paid at Stripe: period 2 granted once, however often the event comes.
    end = sub["items"]["data"][0]["current_period_end"]
    renewal = event("invoice.paid", server.invoice(sub, "subscription_cycle", end))
    for _ in range(3):
        assert deliver(server, buyer, renewal).status_code == 200
    wait_row(buyer, lambda r: r.period == 2)
    deadline = time.monotonic() + 15
    while buyer.paid_credits() < 1000 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1)
    assert buyer.paid_credits() == 1000 and buyer.purchases() == 2

    # The next renewal is declined: past due, nothing granted.
    declined = server.invoice(sub, "subscription_cycle", end + 30 * 24 * 3600, paid=False)
    assert deliver(server, buyer, event("invoice.payment_failed", declined)).status_code == 200
    wait_row(buyer, lambda r: r.status == "past_due")

    # Canceled at period end at Stripe (its portal), then undone, then ended by Stripe.
    for cancel in (True, False):
        updated = {**sub, "cancel_at_period_end": cancel}
        response = deliver(server, buyer, event("customer.subscription.updated", updated))
        assert response.status_code == 200, response.text
        wait_row(buyer, lambda r, cancel=cancel: r.cancel_at_period_end is cancel)
    deleted = {**sub, "status": "canceled"}
    assert deliver(server, buyer, event("customer.subscription.deleted", deleted)).status_code \
        == 200
    wait_row(buyer, lambda r: r.status == "canceled")
    assert buyer.paid_credits() == 1000  # credits already granted stay


def test_an_event_of_a_subscription_not_known_yet_waits_for_the_retry(
    server: StripeServer, buyer: Buyer
) -> None:
    started = buyer.start(PRO_USD, "USD")
    sent = server.complete(session_id_of(started["checkoutUrl"]))
    sub = server.subscriptions[json.loads(sent["checkout.session.completed"])["data"]["object"][
        "subscription"]]
    early = event("customer.subscription.updated", {**sub, "cancel_at_period_end": True})
    # Before its checkout is handled: kept unprocessed, 503, so Stripe delivers it again.
    response = deliver(server, buyer, early)
    assert response.status_code == 503, response.text
    (stored,) = stored_events(buyer.db, early)
    assert stored.processed_at is None
    assert deliver(server, buyer, sent["checkout.session.completed"]).status_code == 200
    wait_row(buyer, lambda r: r.period == 1)
    # Stripe's retry: handled now.
    retry = deliver(server, buyer, early)
    assert retry.status_code == 200 and retry.json()["data"]["duplicate"] is False
    wait_row(buyer, lambda r: r.cancel_at_period_end is True)


# Changes made in our app are sent to Stripe first (payments.stripe update_subscription)

STARTER_USD = ("v2-starter-usd", "v2-starter-usd-month")  # 1 900 cents, 100 credits a month


def subscribe(server: StripeServer, buyer: Buyer, plan: tuple[str, str]) -> dict[str, Any]:
    """A Stripe subscription paid at checkout; Stripe's subscription object."""
    started = buyer.start(plan, "USD")
    sent = server.complete(session_id_of(started["checkoutUrl"]))
    assert deliver(server, buyer, sent["checkout.session.completed"]).status_code == 200
    buyer.wait_order(started["orderId"], "paid")
    row = wait_row(buyer, lambda r: r.period == 1)
    return server.subscriptions[row.provider_subscription_id or ""]


def updates_of(server: StripeServer, sub: dict[str, Any]) -> list[dict[str, Any]]:
    return [r.params for r in server.received("POST", f"/v1/subscriptions/{sub['id']}")]


def act(buyer: Buyer, action: str, **body: str) -> httpx.Response:
    return buyer.api.post(f"/api/v1/payment/subscription/{action}", headers=buyer.headers,
                          json=body or None)


def test_cancel_resume_and_change_in_our_app_reach_stripe(
    server: StripeServer, buyer: Buyer
) -> None:
    sub = subscribe(server, buyer, STARTER_USD)
    item = sub["items"]["data"][0]
    product = item["price"]["product"]
    assert buyer.paid_credits() == 100

    canceled = act(buyer, "cancel")
    assert canceled.status_code == 200, canceled.text
    assert canceled.json()["data"]["cancelAtPeriodEnd"] is True
    assert updates_of(server, sub)[-1] == {"cancel_at_period_end": "true"}
    assert server.subscriptions[sub["id"]]["cancel_at_period_end"] is True
    resumed = act(buyer, "resume")
    assert resumed.status_code == 200 and resumed.json()["data"]["cancelAtPeriodEnd"] is False
    assert updates_of(server, sub)[-1] == {"cancel_at_period_end": "false"}
    assert server.subscriptions[sub["id"]]["cancel_at_period_end"] is False

    # An upgrade: Stripe invoices the difference at once, refusing it all if declined.
    upgraded = act(buyer, "change", piid=PRO_USD[0], rcid=PRO_USD[1])
    assert upgraded.status_code == 200, upgraded.text
    assert (upgraded.json()["data"]["planId"], upgraded.json()["data"]["credits"]) == (
        PRO_USD[0], 500)
    assert updates_of(server, sub)[-1] == {
        "items": [{"id": item["id"], "price_data": {
            "currency": "usd", "product": product, "unit_amount": "6900",
            "recurring": {"interval": "month"}}}],
        "metadata": {"planId": PRO_USD[0], "rateCode": PRO_USD[1], "credits": "500"},
        "proration_behavior": "always_invoice",
        "payment_behavior": "error_if_incomplete",
    }
    assert server.subscriptions[sub["id"]]["items"]["data"][0]["price"]["unit_amount"] == 6900
    assert buyer.paid_credits() == 100  # granted when Stripe's invoice of it is paid
    # Stripe's invoice of the prorated difference, paid (delivered twice): +400 once, and a
    # payment of what Stripe charged.
    invoice = server.invoice(server.subscriptions[sub["id"]], "subscription_update",
                             int(time.time()))
    invoice.update(amount_paid=4_321, amount_due=4_321, total=4_321)
    for _ in range(2):
        assert deliver(server, buyer, event("invoice.paid", invoice)).status_code == 200
    deadline = time.monotonic() + 15
    while buyer.paid_credits() < 500 and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(1)
    assert buyer.paid_credits() == 500 and buyer.purchases() == 2
    with buyer.db() as session:
        (payment,) = session.execute(select(Order).where(
            Order.user_id == buyer.user_id, Order.plan_name == "Upgrade to Pro")).scalars()
    assert (payment.amount, payment.currency, payment.status) == (4_321, "USD", "paid")
    row = wait_subscription(buyer)
    assert (row.plan_id, row.period) == (PRO_USD[0], 1)

    # A downgrade: the new price from the next renewal, nothing charged now.
    downgraded = act(buyer, "change", piid=STARTER_USD[0], rcid=STARTER_USD[1])
    assert downgraded.status_code == 200, downgraded.text
    view = downgraded.json()["data"]
    assert (view["planId"], view["pendingPlanId"]) == (PRO_USD[0], STARTER_USD[0])
    sent = updates_of(server, sub)[-1]
    assert sent["proration_behavior"] == "none" and "payment_behavior" not in sent
    assert sent["items"][0]["price_data"]["unit_amount"] == "1900"
    assert sent["metadata"]["rateCode"] == STARTER_USD[1]


def test_a_change_stripe_refuses_changes_nothing(server: StripeServer, buyer: Buyer) -> None:
    sub = subscribe(server, buyer, STARTER_USD)
    before = len(updates_of(server, sub))

    # Stripe declines the upgrade's charge: 402, nothing changed.
    server.refuse(sub["id"], 402, {"error": {
        "type": "card_error", "code": "card_declined", "decline_code": "generic_decline",
        "message": "Your card was declined."}})
    declined = act(buyer, "change", piid=PRO_USD[0], rcid=PRO_USD[1])
    assert declined.status_code == 402, declined.text
    assert declined.json()["message"] == "Your card was declined; your plan was not changed."

    # Stripe refuses any change: 502 with a clear message, nothing changed.
    server.refuse(sub["id"])
    for action, body in (("cancel", {}), ("change", {"piid": PRO_USD[0], "rcid": PRO_USD[1]}),
                         ("change", {"piid": "v2-business-usd",
                                     "rcid": "v2-business-usd-month"})):
        response = act(buyer, action, **body)
        assert response.status_code == 502, (action, response.text)
        assert response.json()["message"] == (
            "The payment service did not accept the change (This subscription cannot be "
            "updated right now); your subscription was not changed.")
    assert len(updates_of(server, sub)) == before + 4
    time.sleep(1)
    row = wait_subscription(buyer)
    assert (row.plan_id, row.cancel_at_period_end, row.pending_plan_id) == (
        STARTER_USD[0], False, None)
    shown = act(buyer, "cancel")  # still refused: the state is Stripe's too
    assert shown.status_code == 502
    assert buyer.paid_credits() == 100 and buyer.purchases() == 1
    assert server.subscriptions[sub["id"]]["cancel_at_period_end"] is False
