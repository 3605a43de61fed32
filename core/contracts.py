"""Workflow and activity contracts: names and one dataclass per input/output.

The API starts workflows by name with these dataclasses and never imports workflows/ or
activities/. Everything here is plain data that Temporal serialises; images are object keys.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from core.enums import GenerationStatus, Service

GENERATION_WORKFLOW = "Generation"

# Activity names: the orchestration ones run on the `task_queue`, imaging on `imaging_task_queue`.
VERIFY_UPLOADS = "verify_uploads"
CHARGE_CREDITS = "charge_credits"
RUN_IMAGING = "run_imaging"
FAIL_TASK = "fail_task"
NOTIFY = "notify"

# Error types the workflow must not retry: the same input fails the same way again.
NON_RETRYABLE_ERRORS = ["InputRejected", "InsufficientCredits", "EngineRejected"]


@dataclass
class GenerationOptions:
    """Per-deployment knobs the starter passes in (workflow code must not read settings)."""

    imaging_task_queue: str = "imaging"
    imaging_timeout_seconds: float = 300.0
    heartbeat_timeout_seconds: float = 30.0


@dataclass
class StartGeneration:
    """The workflow's input. Its workflow id is the generation id."""

    generation_id: str
    options: GenerationOptions = field(default_factory=GenerationOptions)


@dataclass
class GenerationResult:
    status: GenerationStatus  # completed | failed
    completed_tasks: int
    failed_tasks: int
    credits_charged: int
    credits_refunded: int


@dataclass
class GenerationRef:
    generation_id: str


@dataclass
class TaskPlan:
    task_id: str
    input_key: str
    # The checked version of the input: imaging refuses any other (see core/inputs.py).
    input_size: int | None = None
    input_etag: str | None = None


@dataclass
class GenerationPlan:
    """What verify_uploads found: the work to do, read once from the database."""

    generation_id: str
    account_id: str
    service: Service
    model_key: str | None
    background_kind: str | None  # image | transparent | white | None
    background_key: str | None
    cost: int = 0  # credits for the whole generation, from core.costs
    tasks: list[TaskPlan] = field(default_factory=list)


@dataclass
class ChargeInput:
    generation_id: str
    account_id: str
    credits: int


@dataclass
class PlacementSpec:
    """The user's placement adjustment of a re-render (core.engine.Placement as plain data):
    offsets as fractions of the frame, a scale around the subject's ground point."""

    x: float = 0.0
    y: float = 0.0
    scale: float = 1.0


@dataclass
class ImagingInput:
    generation_id: str
    task_id: str
    service: Service
    input_key: str
    model_key: str | None
    background_kind: str | None
    background_key: str | None
    input_size: int | None = None
    input_etag: str | None = None
    # A re-render's adjustment (workflows/rerender.py); None for a generation's own tasks.
    placement: PlacementSpec | None = None
    # Whose image it is: only for the log lines (activities/observe.py binds it to each line).
    account_id: str | None = None


@dataclass
class ImagingOutput:
    output_key: str
    content_type: str


@dataclass
class FailTaskInput:
    """Mark a task failed and give back its share of the charge."""

    generation_id: str
    account_id: str
    task_id: str
    reason: str
    refund_credits: int


@dataclass
class FailTaskOutput:
    refunded: int


@dataclass
class NotifyInput:
    generation_id: str
    status: GenerationStatus
    error: str | None = None


# Re-renders with the user's placement adjustment (workflows/rerender.py): one workflow per
# re-render, id `rerender-{taskId}` of the new task; free (no ledger entry at all).

RERENDER_WORKFLOW = "Rerender"
PLAN_RERENDER = "plan_rerender"
FAIL_RERENDER = "fail_rerender"


def rerender_workflow_id(task_id: str) -> str:
    return f"rerender-{task_id}"


@dataclass
class StartRerender:
    """The workflow's input: the new task (recorded by the API before the start)."""

    task_id: str
    generation_id: str
    options: GenerationOptions = field(default_factory=GenerationOptions)


@dataclass
class RerenderRef:
    task_id: str


@dataclass
class FailRerenderInput:
    task_id: str
    reason: str


@dataclass
class RerenderResult:
    status: str  # GenerationStatus: completed | failed
    error: str | None = None


# Order fulfilment (workflows/fulfilment.py): one workflow per paid order, id `order-{orderId}`.

ORDER_FULFILMENT_WORKFLOW = "OrderFulfilment"
GRANT_ORDER_CREDITS = "grant_order_credits"
MARK_ORDER_PAID = "mark_order_paid"


def order_workflow_id(order_id: str) -> str:
    return f"order-{order_id}"


@dataclass
class FulfilOrder:
    """The workflow's input, and its activities'. `grant_key` is the ledger idempotency key,
    derived from the provider's ids (core.billing.orders.purchase_key)."""

    order_id: str
    grant_key: str
    payment_id: str | None = None
    # A monthly plan bought through a provider that runs subscriptions itself (Stripe): its
    # subscription id (sub_...). None with the local provider, whose subscription workflow
    # charges each period itself.
    provider_subscription_id: str | None = None


@dataclass
class FulfilmentResult:
    order_id: str
    credits_granted: int


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


@dataclass
class PlanChangeOutcome:
    """The answer of UPDATE_CHANGE_PLAN: `result` is one of PLAN_CHANGE_RESULTS; `reason`
    says why a change was declined or refused."""

    result: str
    reason: str | None = None


PLAN_UPGRADED = "upgraded"
PLAN_DOWNGRADE_SCHEDULED = "downgrade_scheduled"
PLAN_UNCHANGED = "unchanged"
PLAN_DECLINED = "declined"  # the charge of the difference was declined: nothing changed
PLAN_REFUSED = "refused"  # not possible now (ended, past due, another currency)
PLAN_CHANGE_RESULTS = (PLAN_UPGRADED, PLAN_DOWNGRADE_SCHEDULED, PLAN_UNCHANGED, PLAN_DECLINED,
                       PLAN_REFUSED)


# An operator's digital-model photo, counted for people on the imaging queue
# (workflows/catalog_check.py), where the engine's models are loaded.
CATALOG_CHECK_WORKFLOW = "CatalogPhotoCheck"
COUNT_PEOPLE = "count_people_in_photo"


@dataclass
class CountPeopleInput:
    key: str  # the stored photo
    max_bytes: int
    imaging_task_queue: str


# Every upload is analysed on the imaging queue (workflows/photo_analysis.py): what it shows and
# what each service can do with it (core/photo_analysis.py). The activity stores the result on
# the upload; the API waits for it about a second and shows it, and submit refuses what it
# rules out before anything is charged.
PHOTO_ANALYSIS_WORKFLOW = "PhotoAnalysis"
ANALYSE_PHOTO = "analyse_uploaded_photo"


@dataclass
class AnalysePhotoInput:
    key: str  # the stored upload
    max_bytes: int
    imaging_task_queue: str


def photo_analysis_workflow_id(upload_id: str) -> str:
    """One analysis per upload: a second request finds the first one's workflow."""
    return f"photo-analysis-{upload_id}"
