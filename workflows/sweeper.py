"""The sweeper: one run per tick of its schedule (every minute), starting (or, when too old,
failing) generations that were recorded but whose workflow never started (see
activities/sweeper.py)."""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.sweeper import SweeperActivities, SweepReport, SweepStuck

SWEEPER_WORKFLOW = "StuckGenerationSweeper"


# Not sandboxed, like the generation workflow: it only calls one activity.
@workflow.defn(name=SWEEPER_WORKFLOW, sandboxed=False)
class SweeperWorkflow:
    @workflow.run
    async def run(self, inp: SweepStuck) -> SweepReport:
        return await workflow.execute_activity_method(
            SweeperActivities.sweep_stuck,
            inp,
            start_to_close_timeout=timedelta(minutes=2),
            retry_policy=RetryPolicy(initial_interval=timedelta(seconds=2), maximum_attempts=3),
        )


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (SweeperWorkflow,)
