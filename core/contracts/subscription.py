"""The subscription workflow (workflows/subscription.py): its names, signals, queries,
updates and their data, and the ledger keys of its grants."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from enum import StrEnum

# Subscriptions (workflows/subscription.py): one long-running workflow per subscription, id
# `subscription-{id}`, started by an order's fulfilment when a monthly plan is paid.

SUBSCRIPTION_WORKFLOW = "Subscription"
START_SUBSCRIPTION = "start_subscription"
CHARGE_SUBSCRIPTION_PERIOD = "charge_subscription_period"
GRANT_SUBSCRIPTION_CREDITS = "grant_subscription_credits"
SAVE_SUBSCRIPTION = "save_subscription"
CHARGE_SUBSCRIPTION_UPGRADE = "charge_subscription_upgrade"

# Signals (their argument in brackets) and the query of the subscription workflow.
SIGNAL_INVOICE_PAID = "invoice_paid"  # (InvoicePaid) a provider's invoice of a period was paid
SIGNAL_PAYMENT_FAILED = "payment_failed"  # (PaymentFailed) a provider's renewal was declined
SIGNAL_CANCEL_AT_PERIOD_END = "cancel_at_period_end"  # () end when the current period ends
SIGNAL_RESUME = "resume"  # () undo a pending cancel
SIGNAL_CHANGE_PLAN = "change_plan"  # (PlanTerms) upgrade at once, downgrade at period end
SIGNAL_ENDED = "ended"  # (PaymentFailed) the provider ended the subscription (deleted)
QUERY_STATE = "state"  # -> SubscriptionState
# The update of the user's change of plan from our API (PlanTerms) -> PlanChangeOutcome: it
# answers once the change is applied (an upgrade charged and granted) or refused (declined).
UPDATE_CHANGE_PLAN = "update_plan"
# The update of the user's cancel (True) or resume (False) from our API: it answers once the
# workflow applied and saved it, so no write of ours can race the workflow's own saves.
UPDATE_SET_CANCEL = "set_cancel_at_period_end"


def subscription_workflow_id(subscription_id: str) -> str:
    return f"subscription-{subscription_id}"


def subscription_period_key(subscription_id: str, period: int) -> str:
    """The ledger key of a period's grant: each paid period grants once."""
    return f"subscription:{subscription_id}:period:{period}"


def subscription_upgrade_key(subscription_id: str, period: int, rate_code: str) -> str:
    """The ledger key of an upgrade's credit difference (once per period and target rate)."""
    return f"subscription:{subscription_id}:period:{period}:upgrade:{rate_code}"


def subscription_upgrade_order_id(subscription_id: str, period: int, rate_code: str) -> str:
    """The payment record (order id) of an upgrade's charge: fixed by subscription, period and
    target rate, so a retried charge finds it and charges nothing again."""
    seed = subscription_upgrade_key(subscription_id, period, rate_code).encode()
    return hashlib.sha256(seed).hexdigest()[:32]


@dataclass
class PlanTerms:
    """What a subscription sells each period, copied from the plan (minor units)."""

    plan_id: str
    rate_code: str
    plan_name: str
    amount: int
    currency: str
    credits: int


def is_upgrade(current: PlanTerms, new: PlanTerms) -> bool:
    """More credits a period (or, for as many, a higher price) is an upgrade: it takes effect
    at once; anything else is a downgrade and waits for the period end."""
    return (new.credits, new.amount) > (current.credits, current.amount)


@dataclass(frozen=True)
class UpgradeCharge:
    """What an upgrade costs now and grants now: the price difference of a period (no
    proration by days) and the credits the new plan gives this period beyond those granted."""

    amount: int
    credits: int


def upgrade_charge(current: PlanTerms, granted: int, new: PlanTerms) -> UpgradeCharge:
    return UpgradeCharge(
        amount=max(0, new.amount - current.amount), credits=max(0, new.credits - granted)
    )


@dataclass
class SubscriptionState:
    """The workflow's input and its state, carried over continue-as-new. Times are Unix
    seconds; `period` is the current period's number (1 = the one paid at checkout)."""

    subscription_id: str
    account_id: str
    # True with the local provider: the workflow charges the card on file each period itself.
    # False with a provider that bills on its own (Stripe): invoice events arrive as signals.
    charges_itself: bool
    plan: PlanTerms
    period: int
    period_start: float
    period_end: float
    period_seconds: float
    grace_seconds: float
    dunning_retries: int
    periods_per_run: int
    status: str = "active"  # SubscriptionStatus
    # The last period whose credits were granted (0: none yet; period 1 is paid at checkout).
    paid_period: int = 0
    # Period 1's payment record: the checkout order.
    first_order_id: str | None = None
    # Credits granted for the current period so far (its plan's, plus any upgrade difference).
    granted: int = 0
    cancel_at_period_end: bool = False
    pending: PlanTerms | None = None
    failed_attempts: int = 0
    failure_reason: str | None = None
    # Dunning (local provider): when the declined renewal is tried again.
    retry_at: float | None = None
    # The provider's invoices already counted (the last few), so a repeated event grants nothing.
    seen_invoices: list[str] = field(default_factory=list)


@dataclass
class InvoicePaid:
    """A provider's invoice of this subscription was paid (`billing_reason`
    subscription_create is the checkout's own period 1, already counted)."""

    invoice_id: str
    amount: int | None = None
    currency: str | None = None
    billing_reason: str | None = None
    period_start: float | None = None
    period_end: float | None = None
    payment_id: str | None = None


@dataclass
class PaymentFailed:
    invoice_id: str | None = None
    reason: str | None = None


@dataclass
class ChargePeriod:
    subscription_id: str
    period: int
    attempt: int
    amount: int
    currency: str


@dataclass
class ChargeOutcome:
    paid: bool
    payment_id: str | None = None
    reason: str | None = None


@dataclass
class GrantSubscriptionCredits:
    """Grant a period's credits (and record its payment), or an upgrade's difference."""

    subscription_id: str
    account_id: str
    period: int
    credits: int
    key: str
    plan: PlanTerms
    # Record the period's payment (an order; the checkout order for period 1). None: none to
    # record (an upgrade's difference).
    record_payment: bool = True
    payment_id: str | None = None
    checkout_order_id: str | None = None
    # The ledger entry's reference when not the period's payment (an upgrade's order id).
    reference: str | None = None
    # An upgrade paid through the provider (a Stripe upgrade invoice): record that payment
    # (amount in minor units) as the upgrade's order before granting.
    upgrade_payment_amount: int | None = None


@dataclass
class ChargeUpgrade:
    """Charge an upgrade's price difference to the card on file (local provider) and record it
    as a payment (order `subscription_upgrade_order_id`); once per subscription, period and
    target rate."""

    subscription_id: str
    period: int
    amount: int  # minor units: new monthly amount less the current one
    currency: str
    credits: int  # the credit difference the upgrade grants
    plan: PlanTerms  # the plan upgraded to
    from_plan_name: str


class PlanChange(StrEnum):
    """How a change of plan came out (the answer of UPDATE_CHANGE_PLAN)."""

    UPGRADED = "upgraded"
    DOWNGRADE_SCHEDULED = "downgrade_scheduled"
    UNCHANGED = "unchanged"
    DECLINED = "declined"  # the charge of the difference was declined: nothing changed
    REFUSED = "refused"  # not possible now (ended, past due, another currency)


class ChangeKind(StrEnum):
    """What a change of plan would be, shown before it is made."""

    UPGRADE = "upgrade"  # at once, the price difference charged now
    DOWNGRADE = "downgrade"  # at the period end, nothing charged now
    SAME = "same"  # the current plan: undoes a pending downgrade


@dataclass
class PlanChangeOutcome:
    """The answer of UPDATE_CHANGE_PLAN; `reason` says why a change was declined or refused."""

    result: PlanChange
    reason: str | None = None

