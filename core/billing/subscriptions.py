"""Subscriptions: a paid monthly plan, renewed each period by its Temporal workflow.

The workflow `subscription-{id}` (workflows/subscription.py) owns the subscription's life:
active → renews each period → past_due (a renewal was declined) → canceled. Each paid period
grants its plan's credits once (ledger key `subscription:{id}:period:{n}`) and is recorded as a
payment: an order row (the checkout order for period 1, a new one for each renewal; see
`record_period_payment`), so the payment history and invoices list it like any purchase. The
workflow's steps, which alone write the row, are in subscription_steps.py; this module holds
the reads they share with the API, and the API side.

With the local provider the workflow charges the card on file itself each period (an
activity); with a provider that bills on its own (Stripe) the provider's invoice events reach
the workflow as signals (`signal_provider_subscription`).

The API side (`Subscriptions`) reads the subscription row and sends the user's wishes to the
workflow as workflow updates, which answer once the workflow applied and saved the change, so
the row is only ever written by the workflow and no write of ours races a renewal it is saving:
cancel at period end and resume (UPDATE_SET_CANCEL), and a change of plan
(UPDATE_CHANGE_PLAN): an upgrade charges the price difference (new
monthly amount less the current one, no proration by days) to the card on file first, and only
a paid charge switches the plan and grants the credit difference; a declined one changes
nothing (PaymentDeclined, 402). The charge is a payment like any other (an order row, id
`subscription_upgrade_order_id`, listed in the payment history with its invoice).

A subscription the provider bills itself (Stripe: `provider_subscription_id` set) is told
every change first (`PaymentProvider.update_subscription`); when the provider refuses,
nothing is changed here either (UpstreamFailed, 502, or PaymentDeclined for a declined
upgrade). Its upgrade is charged by the provider and granted when the provider's invoice of it
is paid.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import anyio.from_thread
from sqlalchemy import select
from sqlalchemy.orm import Session
from temporalio.client import WorkflowUpdateFailedError
from temporalio.common import WorkflowIDConflictPolicy, WorkflowIDReusePolicy
from temporalio.exceptions import ApplicationError, WorkflowAlreadyStartedError

from core.auth.tokens import Principal
from core.billing.pricing import find_rate
from core.billing.provider import PaymentProvider
from core.contracts.subscription import (
    SUBSCRIPTION_WORKFLOW,
    UPDATE_CHANGE_PLAN,
    UPDATE_SET_CANCEL,
    ChangeKind,
    PlanChange,
    PlanChangeOutcome,
    PlanTerms,
    SubscriptionState,
    is_upgrade,
    subscription_workflow_id,
    upgrade_charge,
)
from core.db import SessionFactory
from core.enums import OrderStatus, RateInterval, SubscriptionStatus
from core.errors import Conflict, InvalidInput, NotFound, PaymentDeclined, Unavailable
from core.models.billing import Order, Plan, Subscription
from core.settings import Settings
from core.workflow_starter import WorkflowStarter

log = logging.getLogger(__name__)
T = TypeVar("T")

ALREADY_SUBSCRIBED = "You already have a subscription; change its plan instead."
NO_SUBSCRIPTION = "You have no subscription."
ENDED = "Your subscription has ended; buy a plan to start a new one."
PAST_DUE = (
    "Your last renewal payment failed; the plan can be changed once the subscription is "
    "paid up again."
)
NOT_MONTHLY = "rcid: Only a monthly plan can replace your subscription's plan."
DECLINED = "Your card was declined; your plan was not changed."
UNAVAILABLE = "Your subscription cannot be changed right now; please try again later."
LIVE = (SubscriptionStatus.ACTIVE, SubscriptionStatus.PAST_DUE)
# How many provider invoice ids the workflow remembers (repeated events are ignored).
SEEN_INVOICES = 24


def as_utc(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def timestamp(moment: datetime) -> float:
    return as_utc(moment).timestamp()


def moment(seconds: float) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


def live_subscription(session: Session, user_id: str) -> Subscription | None:
    """The user's active or past-due subscription, if any (at most one: the database keeps it)."""
    return session.execute(
        select(Subscription).where(
            Subscription.user_id == user_id, Subscription.status.in_(list(LIVE))
        )
    ).scalar_one_or_none()


def latest_subscription(session: Session, user_id: str) -> Subscription | None:
    """The live subscription, else the most recent ended one; None when there never was one."""
    live = live_subscription(session, user_id)
    if live is not None:
        return live
    return session.execute(
        select(Subscription)
        .where(Subscription.user_id == user_id)
        .order_by(Subscription.created_at.desc(), Subscription.id)
        .limit(1)
    ).scalar_one_or_none()


def ensure_can_subscribe(session: Session, user_id: str) -> None:
    """Checkout of a monthly plan: refused while the user has a live subscription."""
    if live_subscription(session, user_id) is not None:
        raise Conflict(ALREADY_SUBSCRIBED)


def terms_of(row: Subscription | Order) -> PlanTerms:
    return PlanTerms(plan_id=row.plan_id, rate_code=row.rate_code, plan_name=row.plan_name,
                     amount=row.amount, currency=row.currency, credits=row.credits)


def _pending_terms(session: Session, row: Subscription) -> PlanTerms | None:
    if row.pending_plan_id is None or row.pending_rate_code is None:
        return None
    plan, rate = find_rate(session, row.pending_plan_id, row.pending_rate_code, row.currency)
    return PlanTerms(plan_id=plan.id, rate_code=rate.id, plan_name=plan.name, amount=rate.value,
                     currency=plan.currency, credits=rate.credits)


def state_of(session: Session, row: Subscription, settings: Settings) -> SubscriptionState:
    """The workflow's input for a subscription row (its start, or a signal-with-start)."""
    first = session.get(Order, row.order_id)
    first_paid = first is not None and first.status == OrderStatus.PAID
    paid_period = row.period if (row.period > 1 or first_paid) else 0
    return SubscriptionState(
        subscription_id=row.id,
        account_id=row.account_id,
        charges_itself=row.provider_subscription_id is None,
        plan=terms_of(row),
        period=row.period,
        period_start=timestamp(row.current_period_start),
        period_end=timestamp(row.current_period_end),
        period_seconds=settings.subscription_period_seconds,
        grace_seconds=settings.subscription_grace_seconds,
        dunning_retries=settings.subscription_dunning_retries,
        periods_per_run=settings.subscription_periods_per_run,
        status=row.status,
        paid_period=paid_period,
        first_order_id=row.order_id,
        granted=row.credits if paid_period == row.period else 0,
        cancel_at_period_end=row.cancel_at_period_end,
        pending=_pending_terms(session, row),
        failure_reason=row.failure_reason,
    )


# The API side


@dataclass(frozen=True)
class SubscriptionInfo:
    """A subscription row and the name of the plan a pending downgrade moves to."""

    row: Subscription
    pending_plan_name: str | None


@dataclass(frozen=True)
class ChangePreview:
    """What a change of plan would do, for the person to confirm: what is charged now (None:
    the payment provider prorates it itself), the credits granted now, and when it applies."""

    kind: ChangeKind
    plan_name: str
    currency: str
    amount_per_period: int
    credits_per_period: int
    amount_now: int | None
    credits_now: int
    effective_at: datetime


class Subscriptions:
    def __init__(
        self,
        sessions: SessionFactory,
        settings: Settings,
        temporal: WorkflowStarter,
        provider: Callable[[], PaymentProvider] | None = None,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.temporal = temporal
        # The configured payment provider (built on first use), told about the changes of a
        # subscription it bills itself. None where only provider events are relayed.
        self.provider = provider

    def _info(self, session: Session, row: Subscription) -> SubscriptionInfo:
        name = None
        if row.pending_plan_id is not None:
            plan = session.get(Plan, row.pending_plan_id)
            name = plan.name if plan is not None else None
        return SubscriptionInfo(row, name)

    def _fresh(self, sub_id: str) -> SubscriptionInfo:
        with self.sessions() as session:
            fresh = session.get(Subscription, sub_id)
            assert fresh is not None
            return self._info(session, fresh)

    def current(self, principal: Principal) -> SubscriptionInfo | None:
        """The caller's live subscription, else their last ended one, else None."""
        if principal.user_id is None:
            return None
        with self.sessions() as session:
            row = latest_subscription(session, principal.user_id)
            return self._info(session, row) if row is not None else None

    def _live(self, session: Session, principal: Principal) -> Subscription:
        if principal.user_id is None:
            raise NotFound(NO_SUBSCRIPTION)
        row = live_subscription(session, principal.user_id)
        if row is None:
            if latest_subscription(session, principal.user_id) is not None:
                raise Conflict(ENDED)
            raise NotFound(NO_SUBSCRIPTION)
        return row

    def _tell_provider(
        self,
        row: Subscription,
        *,
        cancel_at_period_end: bool | None = None,
        price: PlanTerms | None = None,
        upgrade: bool = False,
    ) -> None:
        """A subscription the provider bills itself: tell it first, so it bills the new terms
        (UpstreamFailed or PaymentDeclined when it refuses: nothing is changed here)."""
        if row.provider_subscription_id is None:
            return  # the local provider: the workflow is its billing
        if self.provider is None:
            raise Unavailable(UNAVAILABLE)
        provider = self.provider()
        if provider.name != row.provider:
            log.error("subscription %s is billed by %s, but the configured provider is %s",
                      row.id, row.provider, provider.name)
            raise Unavailable(UNAVAILABLE)
        note = provider.update_subscription(
            row.provider_subscription_id, cancel_at_period_end=cancel_at_period_end,
            price=price, upgrade=upgrade)
        if note is not None:
            log.info("subscription %s: %s: %s", row.id, provider.name, note)

    def _run_update(
        self, state: SubscriptionState, update: str, arg: Any, result_type: type[T], what: str
    ) -> T:
        """Run an update on the subscription's workflow (started from `state`, its row, should
        it not be running) and wait until it is applied and saved. Conflict when the workflow
        has ended or its validator refuses (its own view: ended, past due); Unavailable when
        Temporal cannot take it now."""
        sub_id = state.subscription_id

        async def send() -> T:
            handle = await self.temporal.start_workflow(
                SUBSCRIPTION_WORKFLOW,
                state,
                id=subscription_workflow_id(sub_id),
                task_queue=self.settings.task_queue,
                id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
                id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
            )
            result: T = await handle.execute_update(update, arg, result_type=result_type)
            return result

        try:
            return anyio.from_thread.run(send)
        except WorkflowAlreadyStartedError:
            raise Conflict(ENDED) from None
        except WorkflowUpdateFailedError as error:
            cause = error.cause
            if isinstance(cause, ApplicationError):
                raise Conflict(cause.message) from None
            log.error("subscription %s: %s failed: %s", sub_id, what, cause)
            raise Unavailable(UNAVAILABLE) from None
        except Exception:
            log.exception("subscription %s: could not run %s", sub_id, what)
            raise Unavailable(UNAVAILABLE) from None

    def _apply_cancel(self, principal: Principal, cancel: bool) -> SubscriptionInfo:
        """The provider first (Stripe bills by its own copy of the terms), then our workflow,
        which applies and saves the change before answering: the row is only ever written by
        the workflow, so no write of ours races a renewal it is saving."""
        with self.sessions() as session:
            row = self._live(session, principal)
            state = state_of(session, row, self.settings)
        self._tell_provider(row, cancel_at_period_end=cancel)
        self._run_update(state, UPDATE_SET_CANCEL, cancel, type(None), "cancel/resume")
        return self._fresh(row.id)

    def cancel(self, principal: Principal) -> SubscriptionInfo:
        """Cancel at the end of the current period (credits already granted stay)."""
        return self._apply_cancel(principal, cancel=True)

    def resume(self, principal: Principal) -> SubscriptionInfo:
        """Undo a pending cancel."""
        return self._apply_cancel(principal, cancel=False)

    def _target(
        self, session: Session, principal: Principal, piid: str, rcid: str
    ) -> tuple[Subscription, PlanTerms]:
        """The live subscription and the plan it would change to, checked as a change is."""
        row = self._live(session, principal)
        plan, rate = find_rate(session, piid, rcid, row.currency)
        if rate.interval != RateInterval.MONTH:
            raise InvalidInput(NOT_MONTHLY)
        if row.status != SubscriptionStatus.ACTIVE:
            raise Conflict(PAST_DUE)
        new = PlanTerms(plan_id=plan.id, rate_code=rate.id, plan_name=plan.name,
                        amount=rate.value, currency=plan.currency, credits=rate.credits)
        return row, new

    def preview_change(self, principal: Principal, piid: str, rcid: str) -> ChangePreview:
        """What `change` would do now, by the rule the workflow applies (upgrade_charge)."""
        with self.sessions() as session:
            row, new = self._target(session, principal, piid, rcid)
            state = state_of(session, row, self.settings)
        current = terms_of(row)
        now = datetime.now(UTC)
        amount: int | None
        if new.rate_code == current.rate_code:
            kind, amount, credits, at = ChangeKind.SAME, 0, 0, now
        elif not is_upgrade(current, new):
            kind, amount, credits = ChangeKind.DOWNGRADE, 0, 0
            at = as_utc(row.current_period_end)
        else:
            charge = upgrade_charge(current, state.granted, new)
            kind, credits, at = ChangeKind.UPGRADE, charge.credits, now
            amount = charge.amount if state.charges_itself else None
        return ChangePreview(kind, new.plan_name, new.currency, new.amount, new.credits,
                             amount, credits, at)  # fmt: skip

    def change(self, principal: Principal, piid: str, rcid: str) -> SubscriptionInfo:
        """Another monthly plan in the same currency. An upgrade takes effect at once once its
        price difference is paid (the workflow charges the card on file, then grants the
        credit difference; PaymentDeclined when declined, nothing changed); a downgrade at the
        period end; the current plan again undoes a pending downgrade. Answers the state the
        workflow saved."""
        with self.sessions() as session:
            row, new = self._target(session, principal, piid, rcid)
            state = state_of(session, row, self.settings)
        current = terms_of(row)
        # The provider first (it charges a Stripe upgrade); then our workflow, whose update
        # charges a local one and answers once applied and saved.
        if new.rate_code != current.rate_code or row.pending_rate_code is not None:
            self._tell_provider(row, price=new, upgrade=is_upgrade(current, new))
        outcome = self._run_update(
            state, UPDATE_CHANGE_PLAN, new, PlanChangeOutcome, "the change of plan")
        if outcome.result == PlanChange.DECLINED:
            raise PaymentDeclined(DECLINED)
        if outcome.result == PlanChange.REFUSED:
            raise Conflict(outcome.reason or PAST_DUE)
        return self._fresh(row.id)


def _signal(
    session: Session,
    row: Subscription,
    settings: Settings,
    temporal: WorkflowStarter,
    signal: str,
    *args: Any,
) -> None:
    """Signal the subscription's workflow (signal-with-start: should it not be running yet,
    it starts from the row). Unavailable when Temporal cannot take it now."""
    state = state_of(session, row, settings)

    async def send() -> None:
        await temporal.start_workflow(
            SUBSCRIPTION_WORKFLOW,
            state,
            id=subscription_workflow_id(row.id),
            task_queue=settings.task_queue,
            start_signal=signal,
            start_signal_args=list(args),
            # A subscription whose workflow has ended is never started again.
            id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
        )

    try:
        anyio.from_thread.run(send)
    except WorkflowAlreadyStartedError:
        raise Conflict(ENDED) from None
    except Exception:
        log.exception("could not signal subscription %s (%s)", row.id, signal)
        raise Unavailable(UNAVAILABLE) from None


def signal_provider_subscription(
    sessions: SessionFactory,
    settings: Settings,
    temporal: WorkflowStarter,
    provider: str,
    provider_subscription_id: str,
    signal: str,
    *args: Any,
) -> bool:
    """For a provider that bills on its own (Stripe): deliver one of its subscription events
    to the subscription's workflow as a signal (SIGNAL_INVOICE_PAID with an InvoicePaid,
    SIGNAL_PAYMENT_FAILED or SIGNAL_ENDED with a PaymentFailed, SIGNAL_CHANGE_PLAN with the
    PlanTerms, SIGNAL_CANCEL_AT_PERIOD_END and SIGNAL_RESUME with nothing). Called from a
    worker thread (like the webhook handling). False when no subscription has that provider
    id, or it has ended; raises Unavailable when Temporal cannot take it now (the provider
    retries)."""
    with sessions() as session:
        row = session.execute(
            select(Subscription).where(
                Subscription.provider == provider,
                Subscription.provider_subscription_id == provider_subscription_id,
            )
        ).scalar_one_or_none()
        if row is None or row.status == SubscriptionStatus.CANCELED:
            return False
        try:
            _signal(session, row, settings, temporal, signal, *args)
        except Conflict:
            return False
    return True
