"""Upgrades of a subscription are paid for (the local provider's stack, a 2-second period):
the price difference is charged to the card on file once, with its invoice, before the plan
changes; the same upgrade asked twice at once charges once, and a declined one changes nothing.
Split from test_subscriptions.py (the life of a subscription), on a stack of its own."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy import func, select

from core.billing.subscription_steps import replace_card_on_file
from core.contracts.subscription import subscription_upgrade_order_id
from core.db import SessionFactory
from core.enums import OrderStatus
from core.models.accounts import LedgerEntry
from core.models.billing import Order
from ops.stack import Stack
from payments.local import DECLINED_TOKEN, SUCCEEDS_TOKEN
from tests.support.stacks import sessions_for
from tests.support.subscribers import (
    BUSINESS,
    BUSINESS_PRICE,
    PRO,
    PRO_PRICE,
    STARTER,
    STARTER_PRICE,
    Subscriber,
    payments_of,
    subscription_stack,
)


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with subscription_stack(tmp_path_factory.mktemp("subscription-upgrades")) as running:
        yield running


@pytest.fixture(scope="module")
def db(stack: Stack) -> Iterator[SessionFactory]:
    with sessions_for(stack.settings.resolved_database_url) as sessions:
        yield sessions


@pytest.fixture(scope="module")
def api(stack: Stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.settings.app_url, timeout=60) as client:
        yield client



@pytest.fixture
def subscriber(api: httpx.Client, db: SessionFactory) -> Subscriber:
    return Subscriber(api, db)



# Upgrades are paid for: the price difference charged to the card on file, once


def upgrade_payments(db: SessionFactory, sub_id: str) -> list[Order]:
    return [o for o in payments_of(db, sub_id) if o.plan_name.startswith("Upgrade to ")]


def upgrade_grants(subscriber: Subscriber) -> list[LedgerEntry]:
    return [e for e in subscriber.grants() if ":upgrade:" in e.idempotency_key]


def test_an_upgrade_charges_the_price_difference_once(subscriber: Subscriber) -> None:
    sub_id = subscriber.subscribe(STARTER)["id"]
    upgraded = subscriber.post("change", piid=PRO[0], rcid=PRO[1])
    assert upgraded.status_code == 200, upgraded.text
    view = upgraded.json()["data"]
    # The answer is the state after the change (the workflow's update has applied it).
    assert (view["planId"], view["amount"], view["credits"]) == (PRO[0], PRO_PRICE, 500)
    # Charged and granted before the answer.
    (payment,) = upgrade_payments(subscriber.db, sub_id)
    (grant,) = upgrade_grants(subscriber)
    period = int(grant.idempotency_key.split(":")[3])
    assert payment.id == subscription_upgrade_order_id(sub_id, period, PRO[1])
    assert (payment.amount, payment.currency, payment.status) == (
        PRO_PRICE - STARTER_PRICE, "INR", OrderStatus.PAID)
    assert (payment.kind, payment.subscription_period, payment.credits) == (
        "subscription", period, 400)
    assert payment.provider_payment_id and payment.provider_payment_id.startswith("pi_test")
    assert (grant.delta_paid, grant.reference) == (400, payment.id)

    # The payment history lists it, with its invoice.
    history = subscriber.api.get("/api/v1/payment/history", headers=subscriber.headers,
                                 params={"pageSize": 100}).json()["data"]
    (listed,) = [item for item in history["items"] if item["orderId"] == payment.id]
    assert (listed["amount"], listed["currency"], listed["status"]) == (
        450_000, "INR", "paid")
    assert "Upgrade to Pro" in listed["description"]
    invoice = subscriber.api.get(listed["invoiceUrl"], headers=subscriber.headers)
    assert invoice.status_code == 200 and invoice.content.startswith(b"%PDF-")

    # Asked again (a retry, a second click): already on Pro, nothing charged or granted.
    again = subscriber.post("change", piid=PRO[0], rcid=PRO[1])
    assert again.status_code == 200, again.text
    assert again.json()["data"]["planId"] == PRO[0]
    assert len(upgrade_payments(subscriber.db, sub_id)) == 1
    assert len(upgrade_grants(subscriber)) == 1
    subscriber.end()
    assert len(upgrade_payments(subscriber.db, sub_id)) == 1


def test_the_same_upgrade_asked_twice_at_once_charges_once(subscriber: Subscriber) -> None:
    sub_id = subscriber.subscribe(STARTER)["id"]
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(
            lambda _: subscriber.post("change", piid=BUSINESS[0], rcid=BUSINESS[1]), range(2)))
    assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
    assert all(a.json()["data"]["planId"] == BUSINESS[0] for a in answers)
    (payment,) = upgrade_payments(subscriber.db, sub_id)
    assert payment.amount == BUSINESS_PRICE - STARTER_PRICE
    (grant,) = upgrade_grants(subscriber)
    assert grant.delta_paid == 1900
    subscriber.end()


def test_a_declined_upgrade_changes_nothing(subscriber: Subscriber) -> None:
    sub_id = subscriber.subscribe(STARTER)["id"]
    replace_card_on_file(subscriber.db, sub_id, DECLINED_TOKEN)
    declined = subscriber.post("change", piid=PRO[0], rcid=PRO[1])
    assert declined.status_code == 402, declined.text
    assert declined.json()["message"] == "Your card was declined; your plan was not changed."
    replace_card_on_file(subscriber.db, sub_id, SUCCEEDS_TOKEN)
    shown = subscriber.subscription()
    assert shown is not None
    assert (shown["planId"], shown["amount"], shown["credits"], shown["pendingPlanId"]) == (
        STARTER[0], STARTER_PRICE, 100, None)
    assert upgrade_payments(subscriber.db, sub_id) == []
    assert upgrade_grants(subscriber) == []
    with subscriber.db() as session:
        paid = session.scalar(select(func.sum(LedgerEntry.delta_paid)).where(
            LedgerEntry.account_id == subscriber.account_id))
    assert paid == 100 * len(subscriber.period_grants(sub_id))  # only the periods' grants
    subscriber.end()
    assert upgrade_payments(subscriber.db, sub_id) == []
