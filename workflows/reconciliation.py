"""The reconciliation: one run per tick of its schedule (hourly), checking the ledger against
the balances, the holds and the delivered images (see core/billing/reconciliation.py). Its result
lists the mismatches; the activity logs each at error level and counts them for the metrics."""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.reconciliation import ReconciliationActivities
    from core.billing.reconciliation import Reconcile, ReconciliationReport

RECONCILIATION_WORKFLOW = "Reconciliation"


# Not sandboxed, like the other housekeeping workflows: it only calls one activity.
@workflow.defn(name=RECONCILIATION_WORKFLOW, sandboxed=False)
class ReconciliationWorkflow:
    @workflow.run
    async def run(self, inp: Reconcile) -> ReconciliationReport:
        report = await workflow.execute_activity_method(
            ReconciliationActivities.reconcile,
            inp,
            start_to_close_timeout=timedelta(minutes=10),
            retry_policy=RetryPolicy(initial_interval=timedelta(seconds=5), maximum_attempts=3),
            summary="Check ledger sums against balances, holds and delivered images",
        )
        found = report.mismatch_count
        workflow.set_current_details(
            f"{report.accounts_checked} accounts and {report.generations_checked} finished "
            f"generations checked: "
            + ("no mismatch." if not found else f"{found} mismatches, listed in the result.")
        )
        return report


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (ReconciliationWorkflow,)
