"""A billing provider's subscription events (Stripe's invoices and subscriptions) → the
subscription workflow's signals (workflows/subscription.py, core.billing.subscriptions).

One function per event type; each returns the outcome kept on the event, or raises Unavailable
when the event cannot be handled yet (its subscription is not known here yet, or Temporal is
down): the event then stays recorded but unprocessed, the webhook answers 503 and the
provider's retry handles it later. Every step is idempotent by the provider's ids: the
workflow ignores an invoice it already counted, the order's fulfilment runs once per order.

Out of order: the first invoice of a subscription (`billing_reason` subscription_create) is the
checkout's own payment. Should `invoice.paid` for it arrive before `checkout.session.completed`,
it starts the order's fulfilment itself (amount and currency checked against the order; the
same workflow id, so the later checkout event finds it running or done and changes nothing).
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from sqlalchemy import select

from core.billing import events, subscriptions
from core.billing.pricing import find_rate
from core.billing.provider import PaymentEvent, PaymentProvider, SubscriptionFacts
from core.contracts.subscription import (
    SIGNAL_CANCEL_AT_PERIOD_END,
    SIGNAL_CHANGE_PLAN,
    SIGNAL_ENDED,
    SIGNAL_INVOICE_PAID,
    SIGNAL_PAYMENT_FAILED,
    SIGNAL_RESUME,
    InvoicePaid,
    PaymentFailed,
    PlanTerms,
)
from core.db import SessionFactory
from core.enums import OrderStatus, SubscriptionStatus
from core.errors import DomainError, Unavailable
from core.models.billing import Order, Subscription
from core.settings import Settings
from core.workflow_starter import WorkflowStarter


class Billing(Protocol):
    """What these handlers use of Billing (core/billing/billing.py), which calls them: named
    here so that this module does not import that one (billing.py imports this)."""

    sessions: SessionFactory
    settings: Settings
    temporal: WorkflowStarter
    provider: PaymentProvider

    def fulfil_paid_order(
        self, order: Order, event: PaymentEvent, provider_subscription_id: str | None = None
    ) -> str: ...

log = logging.getLogger(__name__)

FIRST_INVOICE = "subscription_create"
# The invoice of a change of price charged at once (an upgrade, `always_invoice`).
UPGRADE_INVOICE = "subscription_update"
NOT_YET = "That subscription is not known here yet; the event will be handled on its retry."
ENDED_AT_PROVIDER = "The subscription was canceled at the payment provider."


def _subscription(billing: Billing, provider_id: str) -> Subscription | None:
    with billing.sessions() as session:
        return session.execute(
            select(Subscription).where(
                Subscription.provider == billing.provider.name,
                Subscription.provider_subscription_id == provider_id,
            )
        ).scalar_one_or_none()


def _order(billing: Billing, event: PaymentEvent) -> Order | None:
    if event.order_id is None:
        return None
    with billing.sessions() as session:
        order = session.get(Order, event.order_id)
    return order if order is not None and order.provider == billing.provider.name else None


def _signal(billing: Billing, facts: SubscriptionFacts, signal: str, *args: Any) -> bool:
    """Signal the workflow of the subscription with this provider id; False when there is
    none (yet) or it has ended."""
    assert facts.subscription_id is not None
    return subscriptions.signal_provider_subscription(
        billing.sessions, billing.settings, billing.temporal, billing.provider.name,
        facts.subscription_id, signal, *args,
    )


def _unknown(billing: Billing, facts: SubscriptionFacts, event: PaymentEvent) -> str:
    """A subscription event whose signal found no running subscription: ignored when the
    subscription has ended here or was never paid for; else not known yet (retry)."""
    assert facts.subscription_id is not None
    row = _subscription(billing, facts.subscription_id)
    if row is not None:
        return "ignored: the subscription has ended"
    order = _order(billing, event)
    if order is not None and order.status in (OrderStatus.FAILED, OrderStatus.CANCELED):
        return "ignored: its checkout did not complete"
    raise Unavailable(NOT_YET)


def on_invoice_paid(billing: Billing, event: PaymentEvent) -> str:
    """A period was paid: the workflow grants that period's credits once (its first invoice is
    the checkout's own period, granted by the order's fulfilment). An upgrade's invoice grants
    the credit difference of the plan upgraded to (once per period and plan)."""
    facts = event.subscription
    if facts is None or facts.subscription_id is None or facts.invoice_id is None:
        return "ignored: not a subscription's invoice"
    if not event.paid:
        return "ignored: not paid"
    paid = InvoicePaid(
        invoice_id=facts.invoice_id,
        amount=event.amount,
        currency=event.currency,
        billing_reason=facts.billing_reason,
        period_start=facts.period_start,
        period_end=facts.period_end,
        payment_id=event.payment_id,
    )
    if facts.billing_reason == UPGRADE_INVOICE:
        # An upgrade's difference: its plan (the subscription's metadata) is applied first,
        # should its customer.subscription.updated or our own update not have done it yet.
        row = _subscription(billing, facts.subscription_id)
        terms = _plan_terms(billing, facts, row.currency) if row is not None else None
        if row is not None and terms is not None and terms.rate_code != row.rate_code:
            _signal(billing, facts, SIGNAL_CHANGE_PLAN, terms)
    if _signal(billing, facts, SIGNAL_INVOICE_PAID, paid):
        return "signalled invoice_paid"
    order = _order(billing, event)
    if facts.billing_reason == FIRST_INVOICE and order is not None:
        if order.status == OrderStatus.PAID:
            return "ignored: the checkout's own period, already fulfilled"
        # Before checkout.session.completed: this is the checkout's payment; fulfil it now.
        return billing.fulfil_paid_order(order, event, facts.subscription_id)
    return _unknown(billing, facts, event)


def on_invoice_payment_failed(billing: Billing, event: PaymentEvent) -> str:
    """A renewal was declined: the subscription goes past due (the provider retries it; its
    deletion ends it)."""
    facts = event.subscription
    if facts is None or facts.subscription_id is None:
        return "ignored: not a subscription's invoice"
    if facts.billing_reason == FIRST_INVOICE:
        # The checkout's own payment: the customer is still on the checkout page.
        return "ignored: the checkout's own payment"
    failed = PaymentFailed(invoice_id=facts.invoice_id,
                           reason=event.failure_reason or events.RENEWAL_FAILED)
    if _signal(billing, facts, SIGNAL_PAYMENT_FAILED, failed):
        return "signalled payment_failed"
    return _unknown(billing, facts, event)


def _plan_terms(billing: Billing, facts: SubscriptionFacts, currency: str) -> PlanTerms | None:
    """Our plan the provider's subscription now names (metadata planId / rateCode), if any."""
    if facts.plan_id is None or facts.rate_code is None:
        return None
    with billing.sessions() as session:
        try:
            plan, rate = find_rate(session, facts.plan_id, facts.rate_code, currency)
        except DomainError:
            log.warning("subscription %s names an unknown plan %s / %s",
                        facts.subscription_id, facts.plan_id, facts.rate_code)
            return None
        return PlanTerms(plan_id=plan.id, rate_code=rate.id, plan_name=plan.name,
                         amount=rate.value, currency=plan.currency, credits=rate.credits)


def on_subscription_updated(billing: Billing, event: PaymentEvent) -> str:
    """Cancel at period end set or undone, or another plan, at the provider (its dashboard or
    customer portal): the same signals as the user's own wishes in our app. What already
    matches our subscription sends nothing."""
    facts = event.subscription
    if facts is None or facts.subscription_id is None:
        return "ignored: no subscription"
    row = _subscription(billing, facts.subscription_id)
    if row is None:
        return _unknown(billing, facts, event)
    if row.status == SubscriptionStatus.CANCELED:
        return "ignored: the subscription has ended"
    sent: list[str] = []
    if facts.cancel_at_period_end is not None and (
        facts.cancel_at_period_end != row.cancel_at_period_end
    ):
        signal = SIGNAL_CANCEL_AT_PERIOD_END if facts.cancel_at_period_end else SIGNAL_RESUME
        if _signal(billing, facts, signal):
            sent.append(signal)
    terms = _plan_terms(billing, facts, row.currency)
    if terms is not None and terms.rate_code not in (row.rate_code, row.pending_rate_code) and (
        _signal(billing, facts, SIGNAL_CHANGE_PLAN, terms)
    ):
        sent.append(SIGNAL_CHANGE_PLAN)
    return f"signalled {', '.join(sent)}" if sent else "ignored: nothing changed"


def on_subscription_deleted(billing: Billing, event: PaymentEvent) -> str:
    """The provider ended the subscription (canceled at period end, or unpaid after its
    retries): it ends here too. Credits already granted stay."""
    facts = event.subscription
    if facts is None or facts.subscription_id is None:
        return "ignored: no subscription"
    if _signal(billing, facts, SIGNAL_ENDED,
               PaymentFailed(invoice_id=facts.invoice_id, reason=ENDED_AT_PROVIDER)):
        return "signalled ended"
    return _unknown(billing, facts, event)


HANDLERS = {
    events.INVOICE_PAID: on_invoice_paid,
    events.INVOICE_PAYMENT_FAILED: on_invoice_payment_failed,
    events.SUBSCRIPTION_UPDATED: on_subscription_updated,
    events.SUBSCRIPTION_DELETED: on_subscription_deleted,
}


def handle(billing: Billing, event: PaymentEvent) -> str:
    """The outcome of one subscription event (events.SUBSCRIPTION_EVENTS)."""
    return HANDLERS[event.type](billing, event)
