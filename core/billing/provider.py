"""The payment provider interface. Adapters (payments/local.py, later Stripe) implement it; the
rules in core.billing.orders use only this.

A provider makes a hosted checkout for an order and turns a webhook delivery (raw body and
signature header) into a `PaymentEvent`, checking the signature before anything is parsed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from core.db import SessionFactory
    from core.settings import Settings


@dataclass(frozen=True)
class CheckoutOrder:
    """What the provider is asked to charge: everything comes from our order, never the client."""

    order_id: str
    plan_id: str
    rate_code: str
    plan_name: str
    kind: str  # PlanKind
    amount: int  # minor units
    currency: str  # Currency (upper case)
    credits: int
    customer_email: str
    success_url: str
    cancel_url: str


@dataclass(frozen=True)
class CheckoutSession:
    session_id: str
    url: str


@dataclass(frozen=True)
class PaymentEvent:
    """A provider's webhook event, read into what our rules need (Stripe's event shapes)."""

    id: str
    type: str
    order_id: str | None
    session_id: str | None = None
    payment_id: str | None = None
    amount: int | None = None  # minor units
    currency: str | None = None  # upper case
    paid: bool = False
    failure_reason: str | None = None


# Delivers a webhook (raw body, signature header) to our own webhook handling: what a provider
# that lives inside this app (the local test provider) calls instead of an HTTP POST.
WebhookSink = Callable[[bytes, str], object]


class PaymentProvider(Protocol):
    """One payment service. `name` is the {provider} of /api/v1/payment/webhook/{provider}."""

    name: str

    def create_checkout(self, order: CheckoutOrder) -> CheckoutSession:
        """A hosted checkout for the order; raises UpstreamFailed when the provider is down."""
        ...

    def parse_webhook(self, payload: bytes, signature: str | None) -> PaymentEvent:
        """Verify the signature of the raw body first (InvalidSignature when it is missing,
        tampered or too old), then read the event."""
        ...


@runtime_checkable
class HostedTestCheckout(Protocol):
    """A provider whose checkout page this app serves itself (test mode): /pay/test/{id}."""

    def checkout_page(self, session_id: str, error: str | None = None) -> str:
        """The page's HTML; NotFound for an unknown session."""
        ...

    def pay(self, session_id: str, card: str) -> str:
        """Charge a test card and send the provider's webhook; returns where the browser goes
        next (/success or /failure). InvalidInput for a card that is not a test card."""
        ...

    def cancel(self, session_id: str) -> str:
        """Give up the checkout (the session expires, with its webhook); where to go next."""
        ...


# Builds the configured provider (the composition roots pass the adapters' factory in).
ProviderFactory = Callable[["Settings", "SessionFactory", WebhookSink], PaymentProvider]
