"""A user with a monthly plan on the local provider's stack, with a 2-second period: shared by
the subscription modules (tests/integration/test_subscriptions.py and
test_subscription_upgrades.py), each on a stack of its own started by `subscription_stack`."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from core.db import SessionFactory
from core.models.accounts import LedgerEntry, User
from core.models.billing import Order
from ops.stack import Stack
from tests.support.accounts import sign_up
from tests.support.stacks import running_stack

PERIOD = 2.0
STARTER = ("v2-starter-inr", "v2-starter-inr-month", 100)
PRO = ("v2-pro-inr", "v2-pro-inr-month", 500)
BUSINESS = ("v2-business-inr", "v2-business-inr-month", 2000)
STARTER_PRICE, PRO_PRICE, BUSINESS_PRICE = 149_900, 599_900, 1_999_900


@contextmanager
def subscription_stack(data_dir: Path) -> Iterator[Stack]:
    """The embedded stack with a 2-second period, quick dunning and continue-as-new."""
    with running_stack(
        data_dir,
        subscription_period_seconds=PERIOD,
        subscription_grace_seconds=1.5,
        subscription_dunning_retries=1,
        # Continue-as-new every other renewal, so the tests run through it.
        subscription_periods_per_run=2,
    ) as running:
        yield running


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



def payments_of(db: SessionFactory, sub_id: str) -> list[Order]:
    with db() as session:
        return list(session.execute(
            select(Order).where(Order.subscription_id == sub_id)
            .order_by(Order.subscription_period)
        ).scalars())
