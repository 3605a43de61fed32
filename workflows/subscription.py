"""A subscription's life: one long-running workflow per subscription, id `subscription-{id}`.

Started by the fulfilment of a paid monthly-plan order (period 1 is the checkout). States:
active → (renews each period) → past_due (a renewal was declined) → canceled.

- Each paid period grants its plan's credits once (ledger key per subscription and period),
  and its payment is recorded as an order (core.billing.subscription_steps.record_period_payment).
- `charges_itself` (local provider): at each period end the workflow charges the card on file
  (an activity). A decline makes it past_due; it is tried again `dunning_retries` times,
  `grace_seconds` apart, then the subscription is canceled, with no grant for the unpaid period.
- Otherwise (Stripe) the provider bills on its own and its events arrive as signals:
  `invoice_paid` (a renewal paid: the next period starts and is granted), `payment_failed`
  (past_due), `ended` (the provider deleted it: canceled).
- The user's wishes arrive from the API: `cancel_at_period_end` and `resume` as signals; a
  change of plan as the update `update_plan` (UPDATE_CHANGE_PLAN, validated first), which
  answers its outcome once applied. An upgrade takes effect at once: with the local provider
  the price difference (new monthly amount less the current one) is charged to the card on
  file first (an activity that records the payment, once per subscription, period and rate),
  and only a paid charge switches the plan and grants the credit difference (once); a decline
  changes nothing. With a provider that bills itself the API has already had the provider
  charge it; the plan switches now and the provider's paid invoice of the upgrade
  (`billing_reason` subscription_update) grants the difference. A downgrade waits for the
  period end. Credits already granted are never taken back.
- The `change_plan` signal stays for changes the provider reports (Stripe's
  customer.subscription.updated); it is handled like the update. Histories recorded before
  upgrades were charged replay their old handling (`workflow.patched(CHARGED_UPGRADES)`).
- The `state` query answers the workflow's state. Each change is also written to the
  subscription row (what the API reads).
- Continue-as-new every `periods_per_run` renewals (or when Temporal suggests it), so a
  years-long subscription keeps a small history.

Its plain parts (retry policy, messages, the arithmetic on its state, its activities' inputs)
are in workflows/subscription_state.py; this module keeps the order of its commands.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.exceptions import ApplicationError

with workflow.unsafe.imports_passed_through():
    from activities.subscriptions import SubscriptionActivities
    from core import workflow_search
    from core.contracts.subscription import (
        QUERY_STATE,
        SIGNAL_CANCEL_AT_PERIOD_END,
        SIGNAL_CHANGE_PLAN,
        SIGNAL_ENDED,
        SIGNAL_INVOICE_PAID,
        SIGNAL_PAYMENT_FAILED,
        SIGNAL_RESUME,
        SUBSCRIPTION_WORKFLOW,
        UPDATE_CHANGE_PLAN,
        UPDATE_SET_CANCEL,
        InvoicePaid,
        PaymentFailed,
        PlanChange,
        PlanChangeOutcome,
        PlanTerms,
        SubscriptionState,
        is_upgrade,
    )
    from core.enums import SubscriptionStatus
    from workflows.subscription_state import (
        CHARGED_UPGRADES,
        ENDED,
        FIRST_INVOICE,
        OTHER_CURRENCY,
        PAST_DUE,
        SEARCH_ATTRIBUTES_PATCH,
        SEEN_INVOICES,
        STEP_RETRY,
        STEP_TIMEOUT,
        UNPAID,
        UPGRADE_INVOICE,
        CancelRequest,
        PlanRequest,
        charge_period_input,
        charge_upgrade_input,
        deadline,
        grant_period_input,
        grant_upgrade_input,
        grant_upgrade_v1_input,
        mark_canceled,
        refuse,
        start_next_period,
    )


# Not sandboxed, like the other workflows: it only imports plain contracts and uses no clock
# (workflow.now() only), randomness or I/O of its own.
@workflow.defn(name=SUBSCRIPTION_WORKFLOW, sandboxed=False)
class SubscriptionWorkflow:
    def __init__(self) -> None:
        self._s: SubscriptionState | None = None
        # Signals are queued by their (synchronous) handlers and applied by the main loop,
        # which may run activities (an upgrade's grant, a provider invoice's grant).
        self._inbox: list[tuple[str, Any]] = []
        self._searchable = False
        # What the search attributes say now (plan name, status), to upsert only changes.
        self._shown: tuple[str, str] | None = None

    # Signals and query

    @workflow.signal(name=SIGNAL_INVOICE_PAID)
    def invoice_paid(self, invoice: InvoicePaid) -> None:
        self._inbox.append((SIGNAL_INVOICE_PAID, invoice))

    @workflow.signal(name=SIGNAL_PAYMENT_FAILED)
    def payment_failed(self, failure: PaymentFailed) -> None:
        self._inbox.append((SIGNAL_PAYMENT_FAILED, failure))

    @workflow.signal(name=SIGNAL_ENDED)
    def ended(self, failure: PaymentFailed) -> None:
        self._inbox.append((SIGNAL_ENDED, failure))

    @workflow.signal(name=SIGNAL_CANCEL_AT_PERIOD_END)
    def cancel_at_period_end(self) -> None:
        self._inbox.append((SIGNAL_CANCEL_AT_PERIOD_END, None))

    @workflow.signal(name=SIGNAL_RESUME)
    def resume(self) -> None:
        self._inbox.append((SIGNAL_RESUME, None))

    @workflow.signal(name=SIGNAL_CHANGE_PLAN)
    def change_plan(self, terms: PlanTerms) -> None:
        self._inbox.append((SIGNAL_CHANGE_PLAN, terms))

    @workflow.update(name=UPDATE_CHANGE_PLAN)
    async def update_plan(self, terms: PlanTerms) -> PlanChangeOutcome:
        """The user's change of plan: queued like a signal (the main loop applies changes one
        at a time), answered once applied and saved."""
        request = PlanRequest(terms)
        self._inbox.append((UPDATE_CHANGE_PLAN, request))
        await workflow.wait_condition(lambda: request.outcome is not None)
        assert request.outcome is not None
        return request.outcome

    @update_plan.validator
    def validate_plan(self, terms: PlanTerms) -> None:
        """Refused before it is recorded: an ended or past-due subscription, another currency."""
        s = self._s
        if s is None:
            return  # not started yet: the main loop decides
        if s.status == SubscriptionStatus.CANCELED:
            raise ApplicationError(ENDED, type="SubscriptionEnded")
        if s.status != SubscriptionStatus.ACTIVE:
            raise ApplicationError(PAST_DUE, type="SubscriptionPastDue")
        if terms.currency != s.plan.currency:
            raise ApplicationError(OTHER_CURRENCY, type="OtherCurrency")

    @workflow.update(name=UPDATE_SET_CANCEL)
    async def set_cancel_at_period_end(self, cancel: bool) -> None:
        """The user's cancel at period end (True) or resume (False): applied by the main loop
        in order with everything else, saved, then answered."""
        request = CancelRequest(cancel)
        self._inbox.append((UPDATE_SET_CANCEL, request))
        await workflow.wait_condition(lambda: request.done)
        if request.refused:
            raise ApplicationError(ENDED, type="SubscriptionEnded")

    @set_cancel_at_period_end.validator
    def validate_cancel(self, cancel: bool) -> None:
        if self._s is not None and self._s.status == SubscriptionStatus.CANCELED:
            raise ApplicationError(ENDED, type="SubscriptionEnded")

    @workflow.query(name=QUERY_STATE)
    def state(self) -> SubscriptionState:
        assert self._s is not None
        return self._s

    # The life

    @workflow.run
    async def run(self, state: SubscriptionState) -> SubscriptionState:
        self._s = s = state
        self._searchable = workflow.patched(SEARCH_ATTRIBUTES_PATCH)
        self._show()
        renewals = 0
        if s.status != SubscriptionStatus.CANCELED and s.period == 1 and s.paid_period == 0:
            # Period 1 was paid at checkout: its grant (the order's fulfilment grants nothing).
            await self._grant_period(payment_id=None)
            await self._save()
        while s.status != SubscriptionStatus.CANCELED:
            await self._wait_until(deadline(s, self._now()))
            changed = await self._apply_signals()
            if s.status == SubscriptionStatus.CANCELED:
                await self._save()
                break
            now = self._now()
            if s.status == SubscriptionStatus.PAST_DUE and s.charges_itself:
                if s.retry_at is not None and now >= s.retry_at:
                    if s.cancel_at_period_end:
                        mark_canceled(s, None)
                    else:
                        await self._charge_and_grant()
                    changed = True
            elif now >= s.period_end and s.status == SubscriptionStatus.ACTIVE:
                if s.cancel_at_period_end:
                    mark_canceled(s, None)
                    changed = True
                elif s.charges_itself:
                    start_next_period(s, None, None)
                    await self._charge_and_grant()
                    renewals += 1
                    changed = True
            if changed:
                await self._save()
            if (
                s.status == SubscriptionStatus.ACTIVE
                and not self._inbox
                and (renewals >= s.periods_per_run
                     or workflow.info().is_continue_as_new_suggested())
            ):
                # An update answered in this run returns before the run continues as new;
                # one that arrives meanwhile is applied first.
                await workflow.wait_condition(
                    lambda: workflow.all_handlers_finished() or bool(self._inbox))
                if not self._inbox:
                    workflow.continue_as_new(s)
        self._refuse_waiting(ENDED)
        await workflow.wait_condition(workflow.all_handlers_finished)
        return s

    def _now(self) -> float:
        return workflow.now().timestamp()

    async def _wait_until(self, deadline: float | None) -> None:
        if self._inbox:
            return
        if deadline is None:
            await workflow.wait_condition(lambda: bool(self._inbox))
            return
        left = deadline - self._now()
        if left <= 0:
            return
        with contextlib.suppress(TimeoutError):
            await workflow.wait_condition(lambda: bool(self._inbox),
                                          timeout=timedelta(seconds=left))

    def _state(self) -> SubscriptionState:
        assert self._s is not None
        return self._s

    async def _apply_signals(self) -> bool:
        """Apply the queued signals in their order; True when the state changed."""
        s = self._state()
        changed = False
        while self._inbox:
            name, arg = self._inbox.pop(0)
            if s.status == SubscriptionStatus.CANCELED:
                refuse(arg, ENDED)
                continue
            if name == UPDATE_SET_CANCEL:
                s.cancel_at_period_end = arg.cancel
                # Saved before the answer, so the API reads the new state.
                await self._save()
                arg.done = True
            elif name == SIGNAL_CANCEL_AT_PERIOD_END:
                s.cancel_at_period_end, changed = True, True
            elif name == SIGNAL_RESUME:
                s.cancel_at_period_end, changed = False, True
            elif name == UPDATE_CHANGE_PLAN:
                outcome = await self._change(arg.terms)
                # Saved before the answer, so the API reads the new state.
                await self._save()
                arg.outcome = outcome
            elif name == SIGNAL_CHANGE_PLAN:
                if workflow.patched(CHARGED_UPGRADES):
                    await self._change(arg)
                else:
                    await self._change_plan_v1(arg)
                changed = True
            elif name == SIGNAL_INVOICE_PAID and not s.charges_itself:
                changed = await self._invoice_paid(arg) or changed
            elif name == SIGNAL_PAYMENT_FAILED and not s.charges_itself:
                s.status = SubscriptionStatus.PAST_DUE
                s.failure_reason = arg.reason if arg is not None else None
                changed = True
            elif name == SIGNAL_ENDED:
                mark_canceled(s, arg.reason if arg is not None else None)
                changed = True
        return changed

    def _refuse_waiting(self, reason: str) -> None:
        """Answer the updates still queued (the subscription has ended)."""
        for _name, arg in self._inbox:
            refuse(arg, reason)

    async def _change(self, terms: PlanTerms) -> PlanChangeOutcome:
        """Another plan: the same one again undoes a pending downgrade; a downgrade waits for
        the period end; an upgrade applies once paid (see the module's notes)."""
        s = self._state()
        if terms.currency != s.plan.currency:
            return PlanChangeOutcome(PlanChange.REFUSED, OTHER_CURRENCY)
        if terms.rate_code == s.plan.rate_code:
            s.pending = None
            return PlanChangeOutcome(PlanChange.UNCHANGED)
        if not is_upgrade(s.plan, terms):
            s.pending = terms
            return PlanChangeOutcome(PlanChange.DOWNGRADE_SCHEDULED)
        if not s.charges_itself:
            # The provider charged it (the API told it first); its invoice grants.
            s.plan, s.pending = terms, None
            return PlanChangeOutcome(PlanChange.UPGRADED)
        if s.status != SubscriptionStatus.ACTIVE or s.paid_period != s.period:
            return PlanChangeOutcome(PlanChange.REFUSED, PAST_DUE)
        charged = await workflow.execute_activity_method(
            SubscriptionActivities.charge_subscription_upgrade,
            charge_upgrade_input(s, terms),
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
        )
        if not charged.paid:
            return PlanChangeOutcome(PlanChange.DECLINED, charged.reason)
        s.plan, s.pending = terms, None
        await self._grant_upgrade(payment_id=None, paid_amount=None)
        return PlanChangeOutcome(PlanChange.UPGRADED)

    async def _grant_upgrade(self, payment_id: str | None, paid_amount: int | None) -> None:
        """Grant the current plan's credits not yet granted this period (an upgrade's
        difference), once; with `paid_amount`, record the provider's payment of it too."""
        s = self._state()
        extra = s.plan.credits - s.granted
        if s.paid_period != s.period or (extra <= 0 and not paid_amount):
            return
        await workflow.execute_activity_method(
            SubscriptionActivities.grant_subscription_credits,
            grant_upgrade_input(s, payment_id, paid_amount),
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
        )
        s.granted += max(0, extra)

    async def _change_plan_v1(self, terms: PlanTerms) -> None:
        """The `change_plan` signal as recorded before CHARGED_UPGRADES (replay only): an
        upgrade granted its difference without a charge."""
        s = self._state()
        if terms.currency != s.plan.currency:
            return
        if terms.rate_code == s.plan.rate_code:
            s.pending = None
        elif is_upgrade(s.plan, terms):
            s.plan, s.pending = terms, None
            extra = terms.credits - s.granted
            if s.status == SubscriptionStatus.ACTIVE and s.paid_period == s.period and extra > 0:
                await workflow.execute_activity_method(
                    SubscriptionActivities.grant_subscription_credits,
                    grant_upgrade_v1_input(s, terms, extra),
                    start_to_close_timeout=STEP_TIMEOUT,
                    retry_policy=STEP_RETRY,
                )
                s.granted += extra
        else:
            s.pending = terms

    async def _invoice_paid(self, invoice: InvoicePaid) -> bool:
        s = self._state()
        if invoice.invoice_id in s.seen_invoices or invoice.billing_reason == FIRST_INVOICE:
            return False
        s.seen_invoices = [*s.seen_invoices, invoice.invoice_id][-SEEN_INVOICES:]
        if invoice.billing_reason == UPGRADE_INVOICE and workflow.patched(CHARGED_UPGRADES):
            # An upgrade's prorated difference, paid at the provider: not a new period.
            await self._grant_upgrade(payment_id=invoice.payment_id or invoice.invoice_id,
                                      paid_amount=invoice.amount or 0)
            return True
        if s.paid_period >= s.period:
            start_next_period(s, invoice.period_start, invoice.period_end)
        await self._grant_period(payment_id=invoice.payment_id or invoice.invoice_id)
        s.status, s.failure_reason = SubscriptionStatus.ACTIVE, None
        return True

    async def _charge_and_grant(self) -> None:
        """Local provider: charge the current period to the card on file; paid → grant it,
        declined → past_due and a retry after the grace interval, or canceled after the last."""
        s = self._state()
        outcome = await workflow.execute_activity_method(
            SubscriptionActivities.charge_subscription_period,
            charge_period_input(s),
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
        )
        if outcome.paid:
            await self._grant_period(payment_id=outcome.payment_id)
            s.status, s.failure_reason, s.failed_attempts, s.retry_at = (
                SubscriptionStatus.ACTIVE, None, 0, None)
            return
        s.failed_attempts += 1
        s.failure_reason = outcome.reason
        if s.failed_attempts > s.dunning_retries:
            mark_canceled(s, UNPAID)
        else:
            s.status = SubscriptionStatus.PAST_DUE
            s.retry_at = self._now() + s.grace_seconds

    async def _grant_period(self, payment_id: str | None) -> None:
        s = self._state()
        await workflow.execute_activity_method(
            SubscriptionActivities.grant_subscription_credits,
            grant_period_input(s, payment_id),
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
        )
        s.paid_period = s.period
        s.granted = s.plan.credits

    async def _save(self) -> None:
        await workflow.execute_activity_method(
            SubscriptionActivities.save_subscription,
            self._state(),
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
            summary="Save the subscription's state for the API",
        )
        self._show()

    def _show(self) -> None:
        """What the Temporal UI shows: the search attributes (upserted when the plan or the
        status changed) and the current details, a sentence."""
        if not self._searchable:
            return
        s = self._state()
        shown = (s.plan.plan_name, str(s.status))
        if shown != self._shown:
            workflow.upsert_search_attributes(
                workflow_search.subscription_updates(s.account_id, *shown))
            self._shown = shown
        workflow.set_current_details(workflow_search.subscription_details(
            s.account_id, s.plan.plan_name, str(s.status), s.period, s.cancel_at_period_end))


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (SubscriptionWorkflow,)
