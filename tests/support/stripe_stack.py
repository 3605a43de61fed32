"""The Stripe provider's stack and its buyer, shared by the Stripe modules
(tests/integration/test_stripe.py: checkout and its webhooks; test_stripe_subscriptions.py):
each runs a stack of its own with PAYMENT_PROVIDER=stripe against a local server speaking
Stripe's REST API (tests/support/stripe_server.py)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import func, select

from core import credits
from core.db import SessionFactory
from core.enums import LedgerKind
from core.models.accounts import LedgerEntry
from core.models.billing import PaymentEvent
from core.settings import Settings
from tests.support import buyers
from tests.support.stacks import running_stack
from tests.support.stripe_server import StripeServer

SECRET_KEY = "sk_test_" + uuid.uuid4().hex
WEBHOOK_SECRET = "whsec_" + uuid.uuid4().hex
PRO_USD = ("v2-pro-usd", "v2-pro-usd-month")  # 6 900 cents, 500 credits a month


@contextmanager
def stripe_stack(data_dir: Path, server: StripeServer) -> Iterator[Settings]:
    """The embedded stack with the Stripe provider, its API at `server`."""
    with running_stack(data_dir, payment_provider="stripe",
                       stripe_secret_key=SECRET_KEY, stripe_webhook_secret=WEBHOOK_SECRET,
                       stripe_api_base=server.url) as running:
        yield running.settings


class Buyer(buyers.Buyer):
    def __init__(self, api: httpx.Client, db: SessionFactory, webhook_url: str) -> None:
        super().__init__(api, db, prefix="stripe")
        self.webhook_url = webhook_url

    def paid_credits(self) -> int:
        with self.db() as session:
            return credits.get_balance(session, self.account_id).paid

    def purchases(self) -> int:
        with self.db() as session:
            return int(session.scalar(select(func.count()).select_from(LedgerEntry).where(
                LedgerEntry.account_id == self.account_id,
                LedgerEntry.kind == LedgerKind.PURCHASE)) or 0)



def session_id_of(checkout_url: str) -> str:
    return checkout_url.rsplit("/", 1)[-1]


def deliver(server: StripeServer, buyer: Buyer, payload: bytes,
            header: str | None = None) -> httpx.Response:
    return server.deliver(buyer.webhook_url, payload, header)


def stored_events(db: Any, payload: bytes) -> list[PaymentEvent]:
    event_id = json.loads(payload)["id"]
    with db() as session:
        return list(session.execute(select(PaymentEvent).where(
            PaymentEvent.provider == "stripe", PaymentEvent.event_id == event_id)).scalars())

