"""A signed-up user who buys plans through the API: shared by the payment, Stripe and billing
tests (each adds what its provider needs)."""

from __future__ import annotations

import time
import uuid
from typing import Any

import httpx
from sqlalchemy import select

from core import credits
from core.db import SessionFactory
from core.models.accounts import User
from tests.support.accounts import sign_up


class Buyer:
    def __init__(self, api: httpx.Client, db: SessionFactory, prefix: str = "buyer") -> None:
        self.api = api
        self.db = db
        self.email = f"{prefix}-{uuid.uuid4().hex[:8]}@example.com"
        self.token = sign_up(api, db, self.email)
        self.headers = {"Authorization": f"Bearer {self.token}"}
        with db() as session:
            user = session.execute(select(User).where(User.email == self.email)).scalar_one()
        self.user_id, self.account_id = user.id, user.account_id

    def checkout(self, piid: str, rcid: str, currency: str, **extra: Any) -> httpx.Response:
        return self.api.post("/api/v1/payment/checkout", headers=self.headers,
                             json={"piid": piid, "rcid": rcid, "currency": currency, **extra})

    def start(self, plan: tuple[str, str], currency: str, **extra: Any) -> dict[str, str]:
        """A started checkout: its orderId and checkoutUrl."""
        response = self.checkout(*plan, currency, **extra)
        assert response.status_code == 200, response.text
        data: dict[str, str] = response.json()["data"]
        return data

    def order(self, order_id: str) -> dict[str, Any]:
        response = self.api.get(f"/api/v1/payment/order/{order_id}", headers=self.headers)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()["data"]
        return data

    def wait_order(self, order_id: str, status: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            order = self.order(order_id)
            if order["status"] == status or time.monotonic() > deadline:
                assert order["status"] == status, order
                return order
            time.sleep(0.2)

    def balance(self) -> credits.Balance:
        with self.db() as session:
            return credits.get_balance(session, self.account_id)
