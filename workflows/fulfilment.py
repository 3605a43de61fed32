"""An order's fulfilment: one workflow per paid order, workflow id `order-{orderId}`.

Started by the payment webhook once the provider said the order is paid (amount and currency
checked). Grants the paid credits through the ledger (idempotent per provider checkout), then
marks the order paid. Durable: a worker that dies between the two steps resumes where it was,
so a purchase is never lost nor credited twice.
"""

from __future__ import annotations

import contextlib
from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy, WorkflowIDReusePolicy
from temporalio.exceptions import WorkflowAlreadyStartedError
from temporalio.workflow import ParentClosePolicy

with workflow.unsafe.imports_passed_through():
    from activities.payments import PaymentActivities
    from activities.subscriptions import SubscriptionActivities
    from core.contracts.fulfilment import ORDER_FULFILMENT_WORKFLOW, FulfilmentResult, FulfilOrder
    from core.contracts.subscription import subscription_workflow_id
    from workflows.subscription import SubscriptionWorkflow

# Fulfilments recorded before subscriptions existed replay without the subscription step.
SUBSCRIPTIONS_PATCH = "subscriptions"

# Database steps: retried patiently (a purchase must not be dropped because the database was
# restarting); only an order that does not exist is given up at once.
STEP_RETRY = RetryPolicy(
    initial_interval=timedelta(milliseconds=200),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=30),
    non_retryable_error_types=["OrderNotFound"],
)
STEP_TIMEOUT = timedelta(seconds=60)


# Not sandboxed, like the generation workflow: it only imports plain contracts and uses no clock,
# randomness or I/O of its own.
@workflow.defn(name=ORDER_FULFILMENT_WORKFLOW, sandboxed=False)
class OrderFulfilmentWorkflow:
    @workflow.run
    async def run(self, inp: FulfilOrder) -> FulfilmentResult:
        # A monthly plan becomes a subscription, whose own workflow grants each period (the
        # first included) and marks this order paid: nothing is granted here for it.
        if workflow.patched(SUBSCRIPTIONS_PATCH):
            subscription = await workflow.execute_activity_method(
                SubscriptionActivities.start_subscription,
                inp,
                start_to_close_timeout=STEP_TIMEOUT,
                retry_policy=STEP_RETRY,
            )
            if subscription is not None:
                # Started already: this order fulfilled twice, or the API's signal-with-start.
                with contextlib.suppress(WorkflowAlreadyStartedError):
                    await workflow.start_child_workflow(
                        SubscriptionWorkflow.run,
                        subscription,
                        id=subscription_workflow_id(subscription.subscription_id),
                        # It outlives this workflow, and an ended one is never started again.
                        parent_close_policy=ParentClosePolicy.ABANDON,
                        id_reuse_policy=WorkflowIDReusePolicy.REJECT_DUPLICATE,
                    )
                return FulfilmentResult(order_id=inp.order_id, credits_granted=0)
        granted = await workflow.execute_activity_method(
            PaymentActivities.grant_order_credits,
            inp,
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
        )
        await workflow.execute_activity_method(
            PaymentActivities.mark_order_paid,
            inp,
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
        )
        return FulfilmentResult(order_id=inp.order_id, credits_granted=granted)


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (OrderFulfilmentWorkflow,)
