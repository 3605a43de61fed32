"""An order's fulfilment: one workflow per paid order, workflow id `order-{orderId}`.

Started by the payment webhook once the provider said the order is paid (amount and currency
checked). Grants the paid credits through the ledger (idempotent per provider checkout), then
marks the order paid. Durable: a worker that dies between the two steps resumes where it was,
so a purchase is never lost nor credited twice.
"""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.payments import PaymentActivities
    from core.contracts import ORDER_FULFILMENT_WORKFLOW, FulfilmentResult, FulfilOrder

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
