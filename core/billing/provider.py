"""The payment provider interface. Adapters (payments/local.py, payments/stripe.py) implement
it; the rules in core.billing.orders use only this.

A provider makes a hosted checkout for an order and turns a webhook delivery (raw body and
signature header) into a `PaymentEvent`, checking the signature before anything is parsed. For
a subscription the provider bills itself (Stripe), it is also told the user's changes made in
our app (`update_subscription`: cancel at period end, resume, another plan), so it bills the
new terms.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from core.contracts.subscription import PlanTerms
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
class SubscriptionFacts:
    """What a subscription-related event says about the provider's subscription: a checkout
    session in subscription mode, an invoice of a subscription, or the subscription itself.
    Times are Unix seconds; ids are the provider's."""

    subscription_id: str | None = None
    customer_id: str | None = None
    invoice_id: str | None = None
    # The subscription's status (active, past_due, canceled…), or the invoice's (paid, open…).
    status: str | None = None
    # Why an invoice was made: subscription_create (the first period), subscription_cycle…
    billing_reason: str | None = None
    period_start: int | None = None
    period_end: int | None = None
    cancel_at_period_end: bool | None = None
    # Our ids, from the metadata our checkout put on the subscription.
    user_id: str | None = None
    plan_id: str | None = None
    rate_code: str | None = None


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
    # Subscription checkouts, invoices and subscriptions (Stripe); None for other events.
    subscription: SubscriptionFacts | None = None


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

    def update_subscription(
        self,
        provider_subscription_id: str,
        *,
        cancel_at_period_end: bool | None = None,
        price: PlanTerms | None = None,
        upgrade: bool = False,
    ) -> str | None:
        """Tell the provider about a change the user made in our app, before our workflow
        applies it: `cancel_at_period_end` True (cancel) or False (resume), and/or `price`, the
        plan the subscription bills from now on. `upgrade`: charge the difference now (the
        provider's invoice of it then grants the credits); else the new price applies from the
        next renewal (a downgrade at period end, or undoing a pending one).

        Returns None when the provider took it, or why there was nothing to tell it. Raises
        PaymentDeclined when the upgrade's charge was declined, UpstreamFailed when the provider
        refused the change or could not be reached: the subscription is then unchanged."""
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
