"""The checkout expiry: one run per tick of its schedule (every few minutes), expiring checkouts
left unpaid past the provider's checkout lifetime (activities/checkout_expiry.py)."""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.checkout_expiry import (
        CheckoutExpiryActivities,
        ExpireCheckouts,
        ExpiryReport,
    )

CHECKOUT_EXPIRY_WORKFLOW = "CheckoutExpiry"


# Not sandboxed, like the generation workflow: it only calls one activity.
@workflow.defn(name=CHECKOUT_EXPIRY_WORKFLOW, sandboxed=False)
class CheckoutExpiryWorkflow:
    @workflow.run
    async def run(self, inp: ExpireCheckouts) -> ExpiryReport:
        return await workflow.execute_activity_method(
            CheckoutExpiryActivities.expire_checkouts,
            inp,
            start_to_close_timeout=timedelta(minutes=2),
            retry_policy=RetryPolicy(initial_interval=timedelta(seconds=2), maximum_attempts=3),
        )


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (CheckoutExpiryWorkflow,)
