"""The Stripe provider (PAYMENT_PROVIDER=stripe), through the official `stripe` SDK.

Checkout: a Checkout Session in `payment` mode for a credit pack and in `subscription` mode for
a monthly plan. The price is made from OUR order (amount in minor units, currency, plan name:
`price_data`), never from anything the client sent; the session, its payment intent or its
subscription carry our ids in `metadata` (orderId, userId, planId, rateCode), so every later
event can be tied back to the order. Each user gets one Stripe customer, made at their first
checkout and reused (table payment_customers).

Webhooks: `stripe.Webhook.construct_event` checks the `Stripe-Signature` header on the raw body
(HMAC-SHA256 with STRIPE_WEBHOOK_SECRET, 5-minute tolerance) before anything is read; then the
shared reader (core.billing.events) turns the event into our PaymentEvent.

Changes made in our app (`update_subscription`, called by core.billing.subscriptions before our
workflow applies them) are sent with `client.v1.subscriptions.update`:
- cancel / resume: `cancel_at_period_end` true / false;
- another plan: the subscription's one item gets the new price (`price_data` on the product the
  checkout made, amount from OUR plan) and the metadata our new planId / rateCode (which the
  later events are read with). An upgrade is `proration_behavior: always_invoice` with
  `payment_behavior: error_if_incomplete`: Stripe invoices and charges the prorated difference
  at once (Stripe prorates by the time left in the period) and refuses the whole change with a
  402 card error when the card is declined; the paid invoice (`billing_reason`
  subscription_update) then grants the credit difference through the workflow. A downgrade, or
  undoing one, is `proration_behavior: none`: nothing is charged or refunded now, the new price
  is billed from the next renewal (our workflow switches plans at the period end).

Settings: STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE (Stripe's own by default;
the tests point it at tests/support/stripe_server.py).
"""

from __future__ import annotations

import logging
from typing import Any

import stripe
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from core.billing import events, signature
from core.billing.provider import CheckoutOrder, CheckoutSession, PaymentEvent
from core.contracts.subscription import PlanTerms
from core.db import SessionFactory
from core.enums import PlanKind, RateInterval
from core.errors import NotFound, PaymentDeclined, Unavailable, UpstreamFailed
from core.models.billing import Order, PaymentCustomer
from core.settings import Settings

log = logging.getLogger(__name__)

NAME = "stripe"
TOLERANCE_SECONDS = signature.TOLERANCE_SECONDS
REQUEST_TIMEOUT_SECONDS = 20.0
NETWORK_RETRIES = 2
UNREACHABLE = "The payment service could not be reached; please try again in a moment."
NOT_CONFIGURED = "Payments are not configured on this server yet; please try again later."
DECLINED = "Your card was declined; your plan was not changed."
REFUSED = (
    "The payment service did not accept the change ({reason}); your subscription was not "
    "changed."
)
# Our rate intervals as Stripe's recurring intervals.
RECURRING = {RateInterval.MONTH: "month"}


def order_metadata(order: CheckoutOrder, user_id: str) -> dict[str, str]:
    """What Stripe keeps beside the session, payment intent or subscription: our ids."""
    return {
        "orderId": order.order_id,
        "userId": user_id,
        "planId": order.plan_id,
        "rateCode": order.rate_code,
        "credits": str(order.credits),
    }


def checkout_params(
    order: CheckoutOrder, customer_id: str, user_id: str, interval: str
) -> dict[str, Any]:
    """The Checkout Session for an order: one line item priced from the order itself."""
    metadata = order_metadata(order, user_id)
    price_data: dict[str, Any] = {
        "currency": order.currency.lower(),
        "unit_amount": order.amount,
        "product_data": {"name": order.plan_name, "metadata": {"planId": order.plan_id}},
    }
    params: dict[str, Any] = {
        "customer": customer_id,
        "client_reference_id": order.order_id,
        "line_items": [{"quantity": 1, "price_data": price_data}],
        "metadata": metadata,
        "success_url": order.success_url,
        "cancel_url": order.cancel_url,
    }
    if order.kind == PlanKind.SUBSCRIPTION:
        recurring = RECURRING.get(RateInterval(interval))
        if recurring is None:
            raise ValueError(f"a subscription cannot renew every {interval!r}")
        price_data["recurring"] = {"interval": recurring}
        params["mode"] = "subscription"
        params["subscription_data"] = {"metadata": metadata}
    else:
        params["mode"] = "payment"
        params["payment_intent_data"] = {"metadata": metadata}
    return params


class StripeProvider:
    name = NAME

    def __init__(
        self,
        settings: Settings,
        sessions: SessionFactory,
        client: stripe.StripeClient | None = None,
    ) -> None:
        self.settings = settings
        self.sessions = sessions
        self._client = client

    @property
    def client(self) -> stripe.StripeClient:
        if self._client is None:
            if not self.settings.stripe_secret_key:
                raise Unavailable(NOT_CONFIGURED)
            self._client = stripe.StripeClient(
                self.settings.stripe_secret_key,
                base_addresses={"api": self.settings.stripe_api_base.rstrip("/")},
                max_network_retries=NETWORK_RETRIES,
                http_client=stripe.RequestsClient(timeout=REQUEST_TIMEOUT_SECONDS),
            )
        return self._client

    # Checkout

    def create_checkout(self, order: CheckoutOrder) -> CheckoutSession:
        with self.sessions() as session:
            row = session.get(Order, order.order_id)
        if row is None:
            raise NotFound("That order was not found.")
        customer_id = self.customer_for(row.user_id, order.customer_email)
        params = checkout_params(order, customer_id, row.user_id, row.interval)
        try:
            made = self.client.v1.checkout.sessions.create(
                params=params,  # type: ignore[arg-type]
                # One session per order, even when a network retry repeats the request.
                options={"idempotency_key": f"checkout-{order.order_id}"},
            )
        except stripe.StripeError as error:
            log.error("stripe: checkout session for order %s failed: %s", order.order_id, error)
            raise UpstreamFailed(UNREACHABLE) from None
        if not made.id or not made.url:
            log.error("stripe: checkout session for order %s has no id or url", order.order_id)
            raise UpstreamFailed(UNREACHABLE)
        return CheckoutSession(made.id, made.url)

    def customer_for(self, user_id: str, email: str) -> str:
        """The user's Stripe customer: the one kept for them, else a new one (kept)."""
        known = self._known_customer(user_id)
        if known is not None:
            return known
        try:
            made = self.client.v1.customers.create(
                params={"email": email, "metadata": {"userId": user_id}},
                options={"idempotency_key": f"customer-{user_id}"},
            )
        except stripe.StripeError as error:
            log.error("stripe: customer for user %s failed: %s", user_id, error)
            raise UpstreamFailed(UNREACHABLE) from None
        try:
            with self.sessions.begin() as session:
                session.add(PaymentCustomer(provider=NAME, user_id=user_id, customer_id=made.id))
        except IntegrityError:
            # A checkout of the same user at the same moment kept its customer first.
            known = self._known_customer(user_id)
            if known is None:
                raise
            return known
        return made.id

    def _known_customer(self, user_id: str) -> str | None:
        with self.sessions() as session:
            return session.execute(
                select(PaymentCustomer.customer_id).where(
                    PaymentCustomer.provider == NAME, PaymentCustomer.user_id == user_id
                )
            ).scalar_one_or_none()

    # Subscriptions

    def update_subscription(
        self,
        provider_subscription_id: str,
        *,
        cancel_at_period_end: bool | None = None,
        price: PlanTerms | None = None,
        upgrade: bool = False,
    ) -> str | None:
        params: dict[str, Any] = {}
        if cancel_at_period_end is not None:
            params["cancel_at_period_end"] = cancel_at_period_end
        try:
            if price is not None:
                params.update(self._price_change(provider_subscription_id, price, upgrade))
            if not params:
                return "nothing to change"
            self.client.v1.subscriptions.update(
                provider_subscription_id,
                params=params,  # type: ignore[arg-type]
            )
        except stripe.CardError as error:
            log.info("stripe: subscription %s: upgrade declined: %s",
                     provider_subscription_id, error.user_message)
            raise PaymentDeclined(DECLINED) from None
        except stripe.StripeError as error:
            log.error("stripe: update of subscription %s failed: %s",
                      provider_subscription_id, error)
            reason = error.user_message or "it could not be reached"
            if isinstance(error, stripe.APIConnectionError):
                reason = "it could not be reached"
            raise UpstreamFailed(REFUSED.format(reason=reason.rstrip("."))) from None
        return None

    def _price_change(
        self, provider_subscription_id: str, price: PlanTerms, upgrade: bool
    ) -> dict[str, Any]:
        """The params moving the subscription's one item to `price` (on the product it has)."""
        current = self.client.v1.subscriptions.retrieve(provider_subscription_id)
        items = current["items"]["data"]
        if not items:
            raise UpstreamFailed(REFUSED.format(reason="the subscription has no item"))
        item = items[0]
        product = item["price"]["product"]
        product_id = product if isinstance(product, str) else product["id"]
        params: dict[str, Any] = {
            "items": [{
                "id": item["id"],
                "price_data": {
                    "currency": price.currency.lower(),
                    "product": product_id,
                    "unit_amount": price.amount,
                    "recurring": {"interval": RECURRING[RateInterval.MONTH]},
                },
            }],
            "metadata": {"planId": price.plan_id, "rateCode": price.rate_code,
                         "credits": str(price.credits)},
            "proration_behavior": "always_invoice" if upgrade else "none",
        }
        if upgrade:
            params["payment_behavior"] = "error_if_incomplete"
        return params

    # Webhooks

    def parse_webhook(self, payload: bytes, signature_header: str | None) -> PaymentEvent:
        secret = self.settings.stripe_webhook_secret
        if not secret:
            raise signature.InvalidSignature("no webhook secret is configured")
        if not signature_header:
            raise signature.InvalidSignature("the Stripe-Signature header is missing")
        try:
            stripe.Webhook.construct_event(
                payload, signature_header, secret, tolerance=TOLERANCE_SECONDS
            )
        except stripe.SignatureVerificationError:
            raise signature.InvalidSignature("it does not match the payload or is too old") \
                from None
        except UnicodeDecodeError:
            # Checked before the signature: a body that is not UTF-8 was never signed by Stripe.
            raise signature.InvalidSignature("the payload is not UTF-8") from None
        except Exception:
            # The signature matched, but the body is not a Stripe event (not JSON, not an object).
            raise events.UnreadableEvent() from None
        return events.parse_event(payload)
