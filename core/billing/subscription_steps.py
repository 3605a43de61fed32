"""The subscription workflow's steps (its activities call these; each is idempotent): start the
subscription from its paid order, record each period's payment as an order, grant the period's
credits once, save the workflow's state to the row, and the card on file. Only the workflow
writes a subscription's row; the API reads it (core/billing/subscriptions.py)."""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from core import credits
from core.billing.subscriptions import (
    NO_SUBSCRIPTION,
    moment,
    state_of,
)
from core.contracts.subscription import (
    ChargeUpgrade,
    GrantSubscriptionCredits,
    PlanTerms,
    SubscriptionState,
    subscription_upgrade_order_id,
)
from core.db import SessionFactory
from core.enums import LedgerKind, OrderStatus, PlanKind, RateInterval, SubscriptionStatus
from core.errors import NotFound
from core.models.base import utcnow
from core.models.billing import Order, Subscription
from core.settings import Settings

log = logging.getLogger(__name__)


def start_subscription(
    sessions: SessionFactory,
    settings: Settings,
    order_id: str,
    provider_subscription_id: str | None = None,
) -> SubscriptionState | None:
    """A paid order of a monthly plan becomes a subscription (once per order): its first period
    starts now. None for a one-time pack, or when the user already has another live
    subscription (two checkouts paid at once): that order is then fulfilled as a one-time
    purchase, so no payment is lost."""
    with sessions() as session:
        order = session.get(Order, order_id)
        if order is None:
            raise NotFound("That order was not found.")
        if order.interval != RateInterval.MONTH:
            return None
        existing = session.execute(
            select(Subscription).where(Subscription.order_id == order_id)
        ).scalar_one_or_none()
        if existing is not None:
            return state_of(session, existing, settings)
    start = utcnow()
    try:
        with sessions.begin() as session:
            row = Subscription(
                account_id=order.account_id,
                user_id=order.user_id,
                order_id=order.id,
                provider=order.provider,
                provider_subscription_id=provider_subscription_id,
                payment_method=order.payment_method,
                plan_id=order.plan_id,
                rate_code=order.rate_code,
                plan_name=order.plan_name,
                currency=order.currency,
                amount=order.amount,
                credits=order.credits,
                status=SubscriptionStatus.ACTIVE,
                period=1,
                current_period_start=start,
                current_period_end=start + timedelta(seconds=settings.subscription_period_seconds),
                cancel_at_period_end=False,
            )
            session.add(row)
            session.flush()
            session.execute(
                update(Order)
                .where(Order.id == order.id)
                .values(subscription_id=row.id, subscription_period=1)
                .execution_options(synchronize_session=False)
            )
            return state_of(session, row, settings)
    except IntegrityError:
        with sessions() as session:
            existing = session.execute(
                select(Subscription).where(Subscription.order_id == order_id)
            ).scalar_one_or_none()
            if existing is not None:
                return state_of(session, existing, settings)
        log.warning("order %s: the user already has a live subscription; fulfilled as a "
                    "one-time purchase", order_id)
        return None


def period_order_id(subscription_id: str, period: int) -> str:
    """A renewal's payment record has an id derived from the subscription and the period, so
    recording it twice records it once."""
    seed = f"subscription:{subscription_id}:period:{period}".encode()
    return hashlib.sha256(seed).hexdigest()[:32]


def record_period_payment(
    sessions: SessionFactory,
    subscription_id: str,
    period: int,
    plan: PlanTerms,
    payment_id: str | None = None,
    checkout_order_id: str | None = None,
) -> str:
    """Record the payment of a subscription's period as a paid order; returns its id.

    For the billing side (payment history, invoices): every paid period is an `orders` row with
    `kind` "subscription", `status` paid, `subscription_id` and `subscription_period` set, the
    amount and currency charged and the plan it paid for. Period 1 is the checkout order itself
    (marked paid here); each renewal gets a row of its own (id `period_order_id`). Idempotent.
    """
    now = utcnow()
    if period == 1 and checkout_order_id is not None:
        values: dict[str, object] = {
            "status": OrderStatus.PAID, "paid_at": now, "failure_reason": None,
            "updated_at": now, "subscription_id": subscription_id, "subscription_period": 1,
        }
        if payment_id:
            values["provider_payment_id"] = payment_id[:128]
        with sessions.begin() as session:
            session.execute(
                update(Order)
                .where(Order.id == checkout_order_id, Order.status != OrderStatus.PAID)
                .values(**values)
                .execution_options(synchronize_session=False)
            )
        return checkout_order_id
    order_id = period_order_id(subscription_id, period)
    with sessions() as session:
        if session.get(Order, order_id) is not None:
            return order_id
        sub = session.get(Subscription, subscription_id)
        if sub is None:
            raise NotFound(NO_SUBSCRIPTION)
    try:
        with sessions.begin() as session:
            session.add(Order(
                id=order_id,
                account_id=sub.account_id,
                user_id=sub.user_id,
                plan_id=plan.plan_id,
                rate_code=plan.rate_code,
                plan_name=plan.plan_name,
                kind=PlanKind.SUBSCRIPTION,
                interval=RateInterval.MONTH,
                amount=plan.amount,
                currency=plan.currency,
                credits=plan.credits,
                status=OrderStatus.PAID,
                provider=sub.provider,
                provider_payment_id=payment_id[:128] if payment_id else None,
                payment_method=sub.payment_method,
                subscription_id=subscription_id,
                subscription_period=period,
                paid_at=now,
            ))
    except IntegrityError:
        pass  # recorded meanwhile by another attempt
    return order_id


def upgrade_payment(sessions: SessionFactory, order_id: str) -> Order | None:
    """An upgrade's payment record, when its charge was already paid (a retried charge)."""
    with sessions() as session:
        order = session.get(Order, order_id)
    return order if order is not None and order.status == OrderStatus.PAID else None


def record_upgrade_payment(
    sessions: SessionFactory,
    inp: ChargeUpgrade,
    payment_id: str | None,
    amount: int | None = None,
) -> str:
    """Record an upgrade's charge as a paid order (kind "subscription", the period it upgraded,
    plan name "Upgrade to {plan}", the credit difference, the amount charged: the difference
    of the monthly amounts, or what the provider invoiced); id `subscription_upgrade_order_id`,
    so recording it twice records it once. Returns its id."""
    order_id = subscription_upgrade_order_id(inp.subscription_id, inp.period,
                                             inp.plan.rate_code)
    with sessions() as session:
        if session.get(Order, order_id) is not None:
            return order_id
        sub = session.get(Subscription, inp.subscription_id)
        if sub is None:
            raise NotFound(NO_SUBSCRIPTION)
    try:
        with sessions.begin() as session:
            session.add(Order(
                id=order_id,
                account_id=sub.account_id,
                user_id=sub.user_id,
                plan_id=inp.plan.plan_id,
                rate_code=inp.plan.rate_code,
                plan_name=f"Upgrade to {inp.plan.plan_name}"[:128],
                kind=PlanKind.SUBSCRIPTION,
                interval=RateInterval.MONTH,
                amount=inp.amount if amount is None else amount,
                currency=inp.currency,
                credits=inp.credits,
                status=OrderStatus.PAID,
                provider=sub.provider,
                provider_payment_id=payment_id[:128] if payment_id else None,
                payment_method=sub.payment_method,
                subscription_id=inp.subscription_id,
                subscription_period=inp.period,
                paid_at=utcnow(),
            ))
    except IntegrityError:
        pass  # recorded meanwhile by another attempt
    return order_id


def grant_subscription_credits(sessions: SessionFactory, inp: GrantSubscriptionCredits) -> int:
    """Grant a paid period's credits (recording its payment first) or an upgrade's difference,
    once per key; returns what was granted now (0 when an earlier attempt already did)."""
    reference = inp.reference or inp.subscription_id
    if inp.record_payment:
        reference = (inp.checkout_order_id if inp.period == 1 and inp.checkout_order_id
                     else period_order_id(inp.subscription_id, inp.period))
    if inp.upgrade_payment_amount is not None:
        # An upgrade the provider invoiced and was paid for: its payment record first.
        reference = record_upgrade_payment(
            sessions,
            ChargeUpgrade(subscription_id=inp.subscription_id, period=inp.period,
                          amount=inp.upgrade_payment_amount, currency=inp.plan.currency,
                          credits=inp.credits, plan=inp.plan, from_plan_name=""),
            inp.payment_id,
        )
    granted = inp.credits > 0 and credits.grant(
        sessions, inp.account_id, paid=inp.credits, key=inp.key, kind=LedgerKind.PURCHASE,
        reference=reference)
    # The payment shows paid once its credits are there (the checkout's /success waits for it).
    if inp.record_payment:
        record_period_payment(sessions, inp.subscription_id, inp.period, inp.plan,
                              inp.payment_id, inp.checkout_order_id)
    return inp.credits if granted else 0


def save_subscription(sessions: SessionFactory, state: SubscriptionState) -> None:
    """Write the workflow's state to the subscription row (what the API shows)."""
    values: dict[str, Any] = {
        "status": state.status,
        "plan_id": state.plan.plan_id,
        "rate_code": state.plan.rate_code,
        "plan_name": state.plan.plan_name,
        "amount": state.plan.amount,
        "currency": state.plan.currency,
        "credits": state.plan.credits,
        "period": state.period,
        "current_period_start": moment(state.period_start),
        "current_period_end": moment(state.period_end),
        "cancel_at_period_end": state.cancel_at_period_end,
        "pending_plan_id": state.pending.plan_id if state.pending else None,
        "pending_rate_code": state.pending.rate_code if state.pending else None,
        "failure_reason": state.failure_reason,
        "updated_at": utcnow(),
    }
    with sessions.begin() as session:
        row = session.get(Subscription, state.subscription_id)
        if row is None:
            raise NotFound(NO_SUBSCRIPTION)
        if state.status == SubscriptionStatus.CANCELED and row.canceled_at is None:
            values["canceled_at"] = utcnow()
        session.execute(
            update(Subscription)
            .where(Subscription.id == state.subscription_id)
            .values(**values)
            .execution_options(synchronize_session=False)
        )


def card_on_file(sessions: SessionFactory, subscription_id: str) -> str | None:
    with sessions() as session:
        row = session.get(Subscription, subscription_id)
    if row is None:
        raise NotFound(NO_SUBSCRIPTION)
    return row.payment_method


def replace_card_on_file(sessions: SessionFactory, subscription_id: str, method: str) -> None:
    """Put another card on file (the local provider's token of a test card): its next renewal
    charges that one."""
    with sessions.begin() as session:
        session.execute(
            update(Subscription)
            .where(Subscription.id == subscription_id)
            .values(payment_method=method[:128], updated_at=utcnow())
            .execution_options(synchronize_session=False)
        )
