"""Abandoned checkouts expire (issue 33 item 12): on a running stack whose checkouts expire after
a few seconds, a checkout nobody paid leaves "pending" for "expired" through the housekeeping
schedule (workflows/checkout_expiry.py), shown so in the order and the payment history, while a
paid one stays paid; its checkout page no longer takes a card; and a paid event that arrives
for it afterwards is not fulfilled (no credits), is counted and is listed by the reconciliation
for a person to refund."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from sqlalchemy import select

from core.billing import events, signature
from core.billing.reconciliation import reconcile
from core.db import SessionFactory
from core.enums import LedgerKind
from core.models.accounts import LedgerEntry
from core.models.billing import Order, PaymentEvent
from core.settings import Settings
from payments.local import completed_event
from tests.integration.test_payments import mismatches_counted, post_event
from tests.support import buyers
from tests.support.stacks import running_stack

PACK_INR = ("v2-pack-inr", "v2-pack-inr-once")
EXPIRY_SECONDS = 6


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with running_stack(tmp_path_factory.mktemp("expiry"),
                       checkout_expiry_seconds=EXPIRY_SECONDS,
                       checkout_expiry_interval_seconds=1) as running:
        yield running.settings


def purchases(db: SessionFactory, account_id: str) -> list[LedgerEntry]:
    with db() as session:
        return list(session.execute(select(LedgerEntry).where(
            LedgerEntry.account_id == account_id,
            LedgerEntry.kind == LedgerKind.PURCHASE)).scalars())


def test_an_abandoned_checkout_expires_and_a_late_payment_never_fulfils_it(
    api: httpx.Client, db: SessionFactory, stack: Settings
) -> None:
    buyer = buyers.Buyer(api, db, prefix="expiry")
    abandoned = buyer.start(PACK_INR, "INR")
    paid = buyer.start(PACK_INR, "INR")
    answer = api.post(httpx.URL(paid["checkoutUrl"]).path,
                      data={"card": "4242 4242 4242 4242"}, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    buyer.wait_order(paid["orderId"], "paid")
    assert buyer.order(abandoned["orderId"])["status"] == "pending"

    # Past the checkout's lifetime the schedule expires it, with the reason; the paid one stays.
    order = buyer.wait_order(abandoned["orderId"], "expired", timeout=EXPIRY_SECONDS + 30)
    assert order["reason"] == "The checkout expired before it was paid."
    assert buyer.order(paid["orderId"])["status"] == "paid"
    history = api.get("/api/v1/payment/history", headers=buyer.headers).json()["data"]
    statuses = {item["orderId"]: item["status"] for item in history["items"]}
    assert statuses == {abandoned["orderId"]: "expired", paid["orderId"]: "paid"}

    # Its checkout page says so and takes no card.
    path = httpx.URL(abandoned["checkoutUrl"]).path
    assert "already expired" in api.get(path).text
    refused = api.post(path, data={"card": "4242 4242 4242 4242"}, follow_redirects=False)
    assert refused.status_code == 303 and "/failure" in refused.headers["location"]
    time.sleep(1)
    assert buyer.order(abandoned["orderId"])["status"] == "expired"

    # A paid event arriving now (late, or sent by hand) fulfils nothing: no credits, the order
    # stays expired; it is counted and listed for a person to refund.
    counted = mismatches_counted(api)
    with db() as session:
        row = session.get(Order, abandoned["orderId"])
        assert row is not None
    event_id = f"evt_test_{uuid.uuid4().hex}"
    payload = completed_event(row, event_id)
    response = post_event(api, payload, signature.sign(payload, stack.payment_webhook_secret))
    assert response.status_code == 200, response.text
    time.sleep(2)
    assert buyer.order(abandoned["orderId"])["status"] == "expired"
    assert [e.reference for e in purchases(db, buyer.account_id)] == [paid["orderId"]]
    assert buyer.balance().paid == 50
    with db() as session:
        recorded = session.execute(select(PaymentEvent).where(
            PaymentEvent.event_id == event_id)).scalar_one()
    assert recorded.outcome == events.PAID_AFTER_EXPIRY_OUTCOME
    assert mismatches_counted(api) == counted + 1
    listed = [m for m in reconcile(db).mismatches if abandoned["orderId"] in m.detail]
    assert [(m.kind, m.account_id, m.found) for m in listed] == [
        ("payment", buyer.account_id, 99_900)]
    assert "refund" in listed[0].detail
