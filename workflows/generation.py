"""The generation workflow: one per submit, workflow id = generation id.

verify uploads and price them → charge (idempotent per generation) → per input image, on the imaging
task queue, the engine, the thumbnails and the stored output (one activity, so the result shows
the moment it exists) → notify. A task
that fails in a way retrying cannot fix gets its share of the charge back (a compensating
ledger entry) and a reason a person understands. Failures before the charge fail the
generation without charging.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError

with workflow.unsafe.imports_passed_through():
    from core.contracts import (
        CHARGE_CREDITS,
        FAIL_TASK,
        GENERATION_WORKFLOW,
        NON_RETRYABLE_ERRORS,
        NOTIFY,
        RUN_IMAGING,
        VERIFY_UPLOADS,
        ChargeInput,
        FailTaskInput,
        FailTaskOutput,
        GenerationOptions,
        GenerationPlan,
        GenerationRef,
        GenerationResult,
        ImagingInput,
        ImagingOutput,
        NotifyInput,
        StartGeneration,
        TaskPlan,
    )
    from core.costs import task_share


# Database and storage steps: quick, and transient failures (a restarting database) are
# worth retrying for a while.
STEP_RETRY = RetryPolicy(
    initial_interval=timedelta(milliseconds=200),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=10),
    maximum_attempts=12,
    non_retryable_error_types=NON_RETRYABLE_ERRORS,
)
STEP_TIMEOUT = timedelta(seconds=60)

# Engine work: expensive, so fewer attempts; a crash mid-way is caught by the heartbeat timeout.
IMAGING_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=20),
    maximum_attempts=4,
    non_retryable_error_types=NON_RETRYABLE_ERRORS,
)

GENERIC_FAILURE = (
    "The image could not be processed right now, even after several tries. "
    "Your credits for it were returned; please try again later."
)


def failure_reason(error: BaseException) -> str:
    """The message to show a person: ours when we raised it on purpose, a generic one else."""
    cause = error.cause if isinstance(error, ActivityError) else error
    if isinstance(cause, ApplicationError) and cause.type in NON_RETRYABLE_ERRORS:
        return cause.message
    return GENERIC_FAILURE


# Not sandboxed: the sandbox re-imports modules and proxies every call for each new workflow,
# which measured as a third of the orchestration worker's CPU under a burst. This module only
# imports the contracts (plain dataclasses) and core.costs (pure arithmetic), and uses no clock,
# randomness or I/O of its own; tests/test_workflow.py replays real histories to keep it honest.
@workflow.defn(name=GENERATION_WORKFLOW, sandboxed=False)
class GenerationWorkflow:
    def __init__(self) -> None:
        self._plan: GenerationPlan | None = None
        self._charged = 0
        self._refunded = 0

    async def _step(self, name: str, arg: object, result_type: type | None = None) -> object:
        # The quick database/storage steps run as local activities: in the workflow's own
        # worker, without a round trip through the server's task queue for each (about
        # 20 ms apiece). They keep their retry policy and are recorded in the history.
        return await workflow.execute_local_activity(
            name,
            arg,
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
            result_type=result_type,
        )

    @workflow.run
    async def run(self, start: StartGeneration) -> GenerationResult:
        ref = GenerationRef(start.generation_id)
        try:
            plan = await self._step(VERIFY_UPLOADS, ref, GenerationPlan)
            assert isinstance(plan, GenerationPlan)
            self._plan = plan
            charged = await self._step(
                CHARGE_CREDITS, ChargeInput(plan.generation_id, plan.account_id, plan.cost), int
            )
            assert isinstance(charged, int)
            self._charged = charged
        except (ActivityError, ApplicationError) as error:
            # Local activities fail with the activity's own ApplicationError, not ActivityError.
            # Nothing was charged: the charge is the last step here and is all-or-nothing.
            reason = failure_reason(error)
            await self._step(NOTIFY, NotifyInput(start.generation_id, "failed", reason), bool)
            return GenerationResult("failed", 0, 0, 0, 0)

        share = task_share(self._charged, len(plan.tasks))
        outcomes = await asyncio.gather(
            *(self._run_task(plan, task, share, start.options) for task in plan.tasks)
        )
        done = sum(1 for ok in outcomes if ok)
        failed = len(outcomes) - done
        status = "completed" if done else "failed"
        summary = None
        if failed:
            summary = (
                "None of the images could be created." if not done
                else f"{failed} of {len(outcomes)} images could not be created."
            )
        await self._step(NOTIFY, NotifyInput(plan.generation_id, status, summary), bool)
        return GenerationResult(status, done, failed, self._charged, self._refunded)

    async def _run_task(
        self, plan: GenerationPlan, task: TaskPlan, share: int, options: GenerationOptions
    ) -> bool:
        try:
            await workflow.execute_activity(
                RUN_IMAGING,
                ImagingInput(
                    generation_id=plan.generation_id,
                    task_id=task.task_id,
                    service=plan.service,
                    input_key=task.input_key,
                    model_key=plan.model_key,
                    background_kind=plan.background_kind,
                    background_key=plan.background_key,
                ),
                task_queue=options.imaging_task_queue,
                start_to_close_timeout=timedelta(seconds=options.imaging_timeout_seconds),
                heartbeat_timeout=timedelta(seconds=options.heartbeat_timeout_seconds),
                retry_policy=IMAGING_RETRY,
                result_type=ImagingOutput,
            )
            return True
        except (ActivityError, ApplicationError) as error:
            result = await self._step(
                FAIL_TASK,
                FailTaskInput(
                    generation_id=plan.generation_id,
                    account_id=plan.account_id,
                    task_id=task.task_id,
                    reason=failure_reason(error),
                    refund_credits=share,
                ),
                FailTaskOutput,
            )
            assert isinstance(result, FailTaskOutput)
            self._refunded += result.refunded
            return False

    @workflow.query
    def charged(self) -> int:
        return self._charged
