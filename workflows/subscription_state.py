"""The subscription workflow's plain parts (workflows/subscription.py is the workflow): its
retry policy and messages, the updates waiting in its inbox, and the arithmetic on its state
(deadlines, periods, the inputs of its activities). Nothing here issues a Temporal command or
reads the clock, so the workflow module keeps only the order of its commands."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from core.contracts.subscription import (
        ChargePeriod,
        ChargeUpgrade,
        GrantSubscriptionCredits,
        PlanChange,
        PlanChangeOutcome,
        PlanTerms,
        SubscriptionState,
        subscription_period_key,
        subscription_upgrade_key,
        subscription_upgrade_order_id,
        upgrade_charge,
    )
    from core.enums import SubscriptionStatus

# Database steps: retried patiently (a paid period must not be dropped because the database
# was restarting); only a subscription that does not exist is given up at once.
STEP_RETRY = RetryPolicy(
    initial_interval=timedelta(milliseconds=200),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=30),
    non_retryable_error_types=["SubscriptionNotFound"],
)
# Quick database steps: a worker that died mid-step is noticed after this long (then retried).
STEP_TIMEOUT = timedelta(seconds=15)
# A provider's invoices remembered, so a repeated invoice event grants nothing.
SEEN_INVOICES = 24
# The first invoice of a provider's subscription is the checkout itself (period 1).
FIRST_INVOICE = "subscription_create"
# A provider's invoice of an upgrade's prorated difference (not a new period).
UPGRADE_INVOICE = "subscription_update"
UNPAID = "The renewal payment failed, even after retrying; the subscription was canceled."
# Upgrades are charged before they apply (histories from before replay the old handling).
CHARGED_UPGRADES = "charged-upgrades"
# Search attributes (account, plan, status) for the Temporal UI: histories recorded before them
# replay without the upserts (each is a command).
SEARCH_ATTRIBUTES_PATCH = "search-attributes"
ENDED = "Your subscription has ended; buy a plan to start a new one."
PAST_DUE = (
    "Your last renewal payment failed; the plan can be changed once the subscription is "
    "paid up again."
)
OTHER_CURRENCY = "Your subscription can only move to a plan in its own currency."


class PlanRequest:
    """A change-of-plan update waiting for the main loop to apply it (its outcome)."""

    def __init__(self, terms: PlanTerms) -> None:
        self.terms = terms
        self.outcome: PlanChangeOutcome | None = None


class CancelRequest:
    """A cancel/resume update waiting for the main loop (refused when the subscription ended)."""

    def __init__(self, cancel: bool) -> None:
        self.cancel = cancel
        self.done = False
        self.refused = False


def refuse(arg: Any, reason: str) -> None:
    """Answer a queued update that can no longer apply (the subscription has ended)."""
    if isinstance(arg, PlanRequest) and arg.outcome is None:
        arg.outcome = PlanChangeOutcome(PlanChange.REFUSED, reason)
    elif isinstance(arg, CancelRequest) and not arg.done:
        arg.refused, arg.done = True, True


def deadline(s: SubscriptionState, now: float) -> float | None:
    """When the loop must act without a signal: a dunning retry, or the period end; None
    when only a signal can move it on (a provider's invoice after the period end)."""
    if s.status == SubscriptionStatus.PAST_DUE:
        return s.retry_at if s.charges_itself else None
    if now < s.period_end or s.charges_itself or s.cancel_at_period_end:
        return s.period_end
    return None


def start_next_period(s: SubscriptionState, start: float | None, end: float | None) -> None:
    """The next period begins where the last ended (a downgrade takes effect now)."""
    if s.pending is not None:
        s.plan, s.pending = s.pending, None
    s.period += 1
    s.period_start = start if start is not None else s.period_end
    s.period_end = end if end is not None else s.period_start + s.period_seconds
    s.granted = 0
    s.failed_attempts = 0
    s.retry_at = None


def mark_canceled(s: SubscriptionState, reason: str | None) -> None:
    s.status = SubscriptionStatus.CANCELED
    s.retry_at = None
    if reason is not None:
        s.failure_reason = reason


# The inputs of the workflow's activities, from its state.


def charge_period_input(s: SubscriptionState) -> ChargePeriod:
    """The current period's charge to the card on file (local provider), this attempt."""
    return ChargePeriod(subscription_id=s.subscription_id, period=s.period,
                        attempt=s.failed_attempts + 1, amount=s.plan.amount,
                        currency=s.plan.currency)


def charge_upgrade_input(s: SubscriptionState, terms: PlanTerms) -> ChargeUpgrade:
    """An upgrade's charge (local provider): the difference of the monthly amounts, and the
    credits `terms` gives this period beyond those granted (upgrade_charge, the rule the API's
    preview shows too)."""
    charge = upgrade_charge(s.plan, s.granted, terms)
    return ChargeUpgrade(subscription_id=s.subscription_id, period=s.period,
                         amount=charge.amount, currency=s.plan.currency, credits=charge.credits,
                         plan=terms, from_plan_name=s.plan.plan_name)


def grant_period_input(s: SubscriptionState, payment_id: str | None) -> GrantSubscriptionCredits:
    """The current period's grant (once per period), its payment recorded as an order."""
    return GrantSubscriptionCredits(
        subscription_id=s.subscription_id,
        account_id=s.account_id,
        period=s.period,
        credits=s.plan.credits,
        key=subscription_period_key(s.subscription_id, s.period),
        plan=s.plan,
        record_payment=True,
        payment_id=payment_id,
        checkout_order_id=s.first_order_id if s.period == 1 else None,
    )


def grant_upgrade_input(s: SubscriptionState, payment_id: str | None,
                        paid_amount: int | None) -> GrantSubscriptionCredits:
    """The current plan's credits not yet granted this period (an upgrade's difference, once);
    with `paid_amount`, the provider's payment of it recorded too."""
    order_id = subscription_upgrade_order_id(s.subscription_id, s.period, s.plan.rate_code)
    return GrantSubscriptionCredits(
        subscription_id=s.subscription_id,
        account_id=s.account_id,
        period=s.period,
        credits=max(0, s.plan.credits - s.granted),
        key=subscription_upgrade_key(s.subscription_id, s.period, s.plan.rate_code),
        plan=s.plan,
        record_payment=False,
        payment_id=payment_id,
        reference=order_id,
        upgrade_payment_amount=paid_amount or None,
    )


def grant_upgrade_v1_input(s: SubscriptionState, terms: PlanTerms,
                           extra: int) -> GrantSubscriptionCredits:
    """An upgrade's grant as recorded before CHARGED_UPGRADES (replay only): no payment."""
    return GrantSubscriptionCredits(
        subscription_id=s.subscription_id,
        account_id=s.account_id,
        period=s.period,
        credits=extra,
        key=subscription_upgrade_key(s.subscription_id, s.period, terms.rate_code),
        plan=terms,
        record_payment=False,
    )
