"""Subscriptions on the real stack (Temporal dev server, database, API, workers) with the local
provider and a 2-second period: renewals grant once per period, a failing card goes past due
then canceled, cancel at period end and resume, upgrade at once and downgrade at period end, an
upgrade charges its price difference once (a payment with its invoice) and a declined one
changes nothing, a worker SIGKILLed at a renewal grants once, and nobody reaches another
user's subscription. The workflow's recorded history replays with today's code."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from temporalio.client import Client

from core.billing.subscription_steps import replace_card_on_file
from core.contracts.subscription import subscription_upgrade_order_id, subscription_workflow_id
from core.db import SessionFactory
from core.enums import LedgerKind, OrderStatus
from core.models.accounts import LedgerEntry, User
from core.models.billing import Order, Subscription
from ops.stack import Stack
from payments.local import DECLINED_TOKEN, SUCCEEDS_TOKEN
from tests.support import histories
from tests.support.accounts import sign_up
from tests.support.stacks import running_stack, sessions_for
from workflows.subscription import SubscriptionWorkflow

PERIOD = 2.0
STARTER = ("v2-starter-inr", "v2-starter-inr-month", 100)
PRO = ("v2-pro-inr", "v2-pro-inr-month", 500)
BUSINESS = ("v2-business-inr", "v2-business-inr-month", 2000)
STARTER_PRICE, PRO_PRICE, BUSINESS_PRICE = 149_900, 599_900, 1_999_900
PACK = ("v2-pack-inr", "v2-pack-inr-once")
PRO_USD = ("v2-pro-usd", "v2-pro-usd-month")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(
        tmp_path_factory.mktemp("subscriptions"),
        subscription_period_seconds=PERIOD,
        subscription_grace_seconds=1.5,
        subscription_dunning_retries=1,
        # Continue-as-new every other renewal, so the tests run through it.
        subscription_periods_per_run=2,
    ) as running:
        yield running


@pytest.fixture(scope="module")
def db(stack: Stack) -> Iterator[SessionFactory]:
    with sessions_for(stack.settings.resolved_database_url) as sessions:
        yield sessions


@pytest.fixture(scope="module")
def api(stack: Stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=stack.settings.app_url, timeout=60) as client:
        yield client


def wait_for(what: str, check: Any, timeout: float = 30, every: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(every)


class Subscriber:
    def __init__(self, api: httpx.Client, db: SessionFactory) -> None:
        self.api = api
        self.db = db
        self.email = f"sub-{uuid.uuid4().hex[:8]}@example.com"
        self.headers = {"Authorization": f"Bearer {sign_up(api, db, self.email)}"}
        with db() as session:
            user = session.execute(select(User).where(User.email == self.email)).scalar_one()
        self.account_id = user.account_id

    def checkout(self, piid: str, rcid: str, currency: str = "INR") -> httpx.Response:
        return self.api.post("/api/v1/payment/checkout", headers=self.headers,
                             json={"piid": piid, "rcid": rcid, "currency": currency})

    def subscribe(self, plan: tuple[str, str, int] = STARTER) -> dict[str, Any]:
        """Buy a monthly plan with the success card; the subscription once period 1 is paid."""
        started = self.checkout(plan[0], plan[1])
        assert started.status_code == 200, started.text
        data = started.json()["data"]
        paid = self.api.post(httpx.URL(data["checkoutUrl"]).path,
                             data={"card": "4242 4242 4242 4242"})
        assert paid.status_code == 303, paid.text
        order = wait_for("the order paid", lambda: self.order_paid(data["orderId"]))
        assert order["credits"] == plan[2]
        sub = self.subscription()
        assert sub is not None
        return sub

    def order_paid(self, order_id: str) -> dict[str, Any] | None:
        order: dict[str, Any] = self.api.get(f"/api/v1/payment/order/{order_id}",
                                             headers=self.headers).json()["data"]
        return order if order["status"] == "paid" else None

    def subscription(self) -> dict[str, Any] | None:
        response = self.api.get("/api/v1/payment/subscription", headers=self.headers)
        assert response.status_code == 200, response.text
        sub: dict[str, Any] | None = response.json()["data"]["subscription"]
        return sub

    def post(self, action: str, **body: str) -> httpx.Response:
        return self.api.post(f"/api/v1/payment/subscription/{action}", headers=self.headers,
                             json=body or None)

    def grants(self) -> list[LedgerEntry]:
        """The subscription's ledger entries, oldest first."""
        with self.db() as session:
            return list(session.execute(
                select(LedgerEntry)
                .where(LedgerEntry.account_id == self.account_id,
                       LedgerEntry.idempotency_key.like("subscription:%"))
                .order_by(LedgerEntry.id)
            ).scalars())

    def period_grants(self, sub_id: str) -> list[int]:
        """The periods granted, in order (each key names its period)."""
        prefix = f"subscription:{sub_id}:period:"
        return [int(e.idempotency_key.removeprefix(prefix)) for e in self.grants()
                if e.idempotency_key.startswith(prefix) and ":upgrade:" not in e.idempotency_key]

    def status(self) -> str | None:
        sub = self.subscription()
        return sub["status"] if sub else None

    def wait_status(self, status: str, timeout: float = 30) -> dict[str, Any]:
        wait_for(f"status {status}", lambda: self.status() == status, timeout)
        sub = self.subscription()
        assert sub is not None
        return sub

    def end(self) -> None:
        """Cancel at period end and wait until it has ended."""
        response = self.post("cancel")
        assert response.status_code == 200, response.text
        self.wait_status("canceled", timeout=20)


@pytest.fixture
def subscriber(api: httpx.Client, db: SessionFactory) -> Subscriber:
    return Subscriber(api, db)


def payments_of(db: SessionFactory, sub_id: str) -> list[Order]:
    with db() as session:
        return list(session.execute(
            select(Order).where(Order.subscription_id == sub_id)
            .order_by(Order.subscription_period)
        ).scalars())


def assert_grants_once_per_paid_period(subscriber: Subscriber, sub_id: str, credits: int) -> int:
    """Periods 1..n granted once each (n returned), each with the plan's credits and a paid
    payment record of its own."""
    periods = subscriber.period_grants(sub_id)
    assert periods == list(range(1, len(periods) + 1)), periods
    entries = [e for e in subscriber.grants() if ":upgrade:" not in e.idempotency_key]
    assert all(e.delta_paid == credits and e.delta_free == 0 for e in entries)
    assert all(e.kind == LedgerKind.PURCHASE for e in entries)
    records = payments_of(subscriber.db, sub_id)
    assert [o.subscription_period for o in records] == periods
    assert all(o.status == OrderStatus.PAID and o.kind == "subscription" for o in records)
    assert [e.reference for e in entries] == [o.id for o in records]
    return len(periods)


# The life of a subscription


def test_three_renewals_grant_three_times(stack: Stack, subscriber: Subscriber) -> None:
    sub = subscriber.subscribe(STARTER)
    assert sub["status"] == "active" and sub["planId"] == STARTER[0]
    assert (sub["amount"], sub["credits"], sub["currency"]) == (149_900, 100, "INR")
    assert sub["cancelAtPeriodEnd"] is False and sub["pendingPlanId"] is None
    start = datetime.fromisoformat(sub["currentPeriodStart"])
    end = datetime.fromisoformat(sub["currentPeriodEnd"])
    assert (end - start).total_seconds() == pytest.approx(PERIOD)
    sub_id = sub["id"]

    # Period 1 (the checkout) and three renewals.
    wait_for("three renewals", lambda: len(subscriber.period_grants(sub_id)) >= 4, timeout=20)
    subscriber.end()
    granted = assert_grants_once_per_paid_period(subscriber, sub_id, 100)
    assert granted in (4, 5)  # the cancel lands in period 4 or, at its very end, period 5
    times = [e.created_at for e in subscriber.grants()]
    gaps = [(b - a).total_seconds() for a, b in zip(times, times[1:], strict=False)]
    print(f"renewal gaps (s): {[round(g, 3) for g in gaps]}")
    assert all(PERIOD * 0.8 < gap < PERIOD + 1.5 for gap in gaps), gaps
    time.sleep(PERIOD * 1.5)
    assert len(subscriber.period_grants(sub_id)) == granted
    balance_paid = sum(e.delta_paid for e in subscriber.grants())
    assert balance_paid == 100 * granted
    ended = subscriber.subscription()
    assert ended is not None and ended["status"] == "canceled" and ended["id"] == sub_id


def test_a_failing_card_goes_past_due_then_canceled(subscriber: Subscriber) -> None:
    sub = subscriber.subscribe(STARTER)
    sub_id = sub["id"]
    replace_card_on_file(subscriber.db, sub_id, DECLINED_TOKEN)
    granted_then = len(subscriber.period_grants(sub_id))
    past_due = subscriber.wait_status("past_due", timeout=10)
    assert past_due["id"] == sub_id
    canceled = subscriber.wait_status("canceled", timeout=10)
    assert canceled["cancelAtPeriodEnd"] is False
    with subscriber.db() as session:
        row = session.get(Subscription, sub_id)
        assert row is not None and row.failure_reason and row.canceled_at is not None
        failed_period = row.period
    granted = assert_grants_once_per_paid_period(subscriber, sub_id, 100)
    assert granted in (granted_then, granted_then + 1)
    # The declined period was never granted nor recorded as paid.
    assert failed_period == granted + 1
    time.sleep(PERIOD * 1.5)
    assert len(subscriber.period_grants(sub_id)) == granted
    # Ended: no cancel or change any more; a new plan can be bought.
    assert subscriber.post("resume").status_code == 409
    assert subscriber.checkout(STARTER[0], STARTER[1]).status_code == 200


def test_cancel_at_period_end_stops_grants_and_resume_undoes_it(
    subscriber: Subscriber,
) -> None:
    sub_id = subscriber.subscribe(STARTER)["id"]
    canceling = subscriber.post("cancel")
    assert canceling.status_code == 200, canceling.text
    view = canceling.json()["data"]
    assert view["cancelAtPeriodEnd"] is True and view["status"] == "active"
    resumed = subscriber.post("resume")
    assert resumed.status_code == 200 and resumed.json()["data"]["cancelAtPeriodEnd"] is False
    # Resumed: it renews on.
    wait_for("two renewals", lambda: len(subscriber.period_grants(sub_id)) >= 3, timeout=15)
    assert subscriber.status() == "active"

    granted_at_cancel = len(subscriber.period_grants(sub_id))
    again = subscriber.post("cancel")
    assert again.status_code == 200 and again.json()["data"]["cancelAtPeriodEnd"] is True
    shown = subscriber.subscription()
    assert shown is not None and shown["cancelAtPeriodEnd"] is True
    subscriber.wait_status("canceled", timeout=10)
    granted = assert_grants_once_per_paid_period(subscriber, sub_id, 100)
    # It ends with the period it was canceled in (or the next, had it just renewed).
    assert granted in (granted_at_cancel, granted_at_cancel + 1)
    time.sleep(PERIOD * 1.5)
    assert len(subscriber.period_grants(sub_id)) == granted


def test_upgrade_grants_the_difference_at_once_and_downgrade_waits(
    subscriber: Subscriber,
) -> None:
    sub_id = subscriber.subscribe(STARTER)["id"]
    asked = time.monotonic()
    upgraded = subscriber.post("change", piid=PRO[0], rcid=PRO[1])
    assert upgraded.status_code == 200, upgraded.text
    view = upgraded.json()["data"]
    assert (view["planId"], view["planName"], view["credits"]) == (PRO[0], "Pro", 500)
    assert view["pendingPlanId"] is None

    def upgrade_entries() -> list[LedgerEntry]:
        return [e for e in subscriber.grants() if f":upgrade:{PRO[1]}" in e.idempotency_key]

    (entry,) = wait_for("the upgrade's grant", upgrade_entries, timeout=5)
    print(f"upgrade granted after {time.monotonic() - asked:.3f} s")
    assert entry.delta_paid == 400  # Pro's 500 less the Starter's 100 granted this period

    downgraded = subscriber.post("change", piid=STARTER[0], rcid=STARTER[1])
    assert downgraded.status_code == 200, downgraded.text
    view = downgraded.json()["data"]
    assert (view["planId"], view["pendingPlanId"], view["pendingPlanName"]) == (
        PRO[0], STARTER[0], "Starter")
    wait_for("the downgrade at period end", lambda: (s := subscriber.subscription()) is not None
             and s["planId"] == STARTER[0] and s["pendingPlanId"] is None, timeout=10)
    subscriber.end()

    upgrade_period = int(entry.idempotency_key.split(":")[3])
    periods = subscriber.period_grants(sub_id)
    assert periods == list(range(1, len(periods) + 1))
    by_period = {int(e.idempotency_key.split(":")[3]): e.delta_paid for e in subscriber.grants()
                 if ":upgrade:" not in e.idempotency_key}
    # Each period grants its plan's credits: Starter, then Pro after the upgrade (the upgraded
    # period keeps its Starter grant plus the difference), then Starter after the downgrade.
    assert by_period[upgrade_period] == 100
    later = [by_period[p] for p in periods if p > upgrade_period]
    assert later == sorted(later, reverse=True) and set(later) <= {100, 500}, by_period
    assert later[-1] == 100
    assert len(upgrade_entries()) == 1
    # Nothing was taken back.
    assert all(e.delta_paid > 0 for e in subscriber.grants())


def test_one_subscription_per_user_and_what_change_accepts(subscriber: Subscriber) -> None:
    subscriber.subscribe(STARTER)
    second = subscriber.checkout(PRO[0], PRO[1])
    assert second.status_code == 409
    assert second.json()["message"] == (
        "You already have a subscription; change its plan instead.")
    assert subscriber.checkout(*PACK, "INR").status_code == 200  # packs are fine
    pack = subscriber.post("change", piid=PACK[0], rcid=PACK[1])
    assert pack.status_code == 422 and "monthly" in pack.json()["message"]
    other_currency = subscriber.post("change", piid=PRO_USD[0], rcid=PRO_USD[1])
    assert other_currency.status_code == 422
    assert subscriber.post("change", piid="nope", rcid="nope").status_code == 422
    subscriber.end()


def test_nobody_reaches_another_users_subscription(
    api: httpx.Client, db: SessionFactory, subscriber: Subscriber
) -> None:
    sub_id = subscriber.subscribe(STARTER)["id"]
    stranger = Subscriber(api, db)
    assert stranger.subscription() is None
    for action, body in (("cancel", {}), ("resume", {}),
                         ("change", {"piid": PRO[0], "rcid": PRO[1]})):
        response = stranger.post(action, **body)
        assert response.status_code == 404, response.text
        assert response.json()["message"] == "You have no subscription."
    assert api.get("/api/v1/payment/subscription").status_code == 401
    assert api.post("/api/v1/payment/subscription/cancel").status_code == 401
    own = subscriber.subscription()
    assert own is not None and own["id"] == sub_id and own["cancelAtPeriodEnd"] is False
    subscriber.end()


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


# Replay: the workflow runs unsandboxed, so its recorded history must replay with today's code.


async def test_recorded_subscription_histories_replay(stack: Stack, db: SessionFactory) -> None:
    with db() as session:
        ids = list(session.execute(select(Subscription.id)).scalars())
    assert ids
    client = await Client.connect(stack.settings.temporal_address,
                                  namespace=stack.settings.temporal_namespace)
    runs, longest = await histories.replay_every_run(client, "Subscription", [SubscriptionWorkflow])
    assert longest is not None
    histories.record("subscription", longest)
    # Continue-as-new every other renewal: more runs than subscriptions.
    assert runs > len(ids)
    described = await client.get_workflow_handle(subscription_workflow_id(ids[0])).describe()
    assert described.status is not None


# Last: it kills the module's worker (and starts another).


def test_a_worker_killed_at_a_renewal_grants_once(stack: Stack, subscriber: Subscriber) -> None:
    sub = subscriber.subscribe(STARTER)
    sub_id = sub["id"]
    # Kill the worker just as period 1 ends, i.e. while it charges and grants the renewal;
    # periods go by while it is down.
    end = datetime.fromisoformat(sub["currentPeriodEnd"]).timestamp()
    time.sleep(max(0.0, end - time.time() + 0.02))
    stack.kill_process("worker")
    time.sleep(PERIOD * 2)
    stack.start_worker("worker-restarted")
    wait_for("renewals after the restart",
             lambda: len(subscriber.period_grants(sub_id)) >= 4, timeout=60, every=0.2)
    subscriber.end()
    granted = assert_grants_once_per_paid_period(subscriber, sub_id, 100)
    assert granted >= 4
    time.sleep(PERIOD * 1.5)
    assert len(subscriber.period_grants(sub_id)) == granted
