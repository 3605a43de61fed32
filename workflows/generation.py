"""The generation workflow: one per submit, workflow id = generation id.

Its input carries the plan the submit made (core/generations/plan.py: the checked inputs, the
catalog entries, the price): verify it (the generation still open, its uploads still the versions
checked) → charge its price (idempotent per generation) → per input image, on the imaging task
queue, the engine, the thumbnails and the stored output (one activity, so the result shows the
moment it exists) → notify. A task that fails in a way retrying cannot fix gets its share of the
charge back (a compensating ledger entry) and a reason a person understands. Failures before the
charge fail the generation without charging.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError, CancelledError
from temporalio.workflow import ActivityCancellationType

with workflow.unsafe.imports_passed_through():
    # The activity classes only name the calls (execute_*_method checks their types); the
    # workflow never runs their code itself.
    from activities.generation import GenerationActivities
    from activities.imaging import ImagingActivities
    from core import workflow_search
    from core.contracts.generation import (
        GENERATION_WORKFLOW,
        NON_RETRYABLE_ERRORS,
        FailTaskInput,
        GenerationOptions,
        GenerationPlan,
        GenerationResult,
        ImagePlan,
        ImagingInput,
        NotifyInput,
        StartGeneration,
    )
    from core.enums import GenerationStatus
    from core.generations.prices import task_share
    from core.observability.metrics import record_charge, record_generation, record_refund


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
# These quick steps run as local activities: in the workflow's own worker, without a round trip
# through the server's task queue for each (about 20 ms apiece). They keep their retry policy
# and are recorded in the history.

# Engine work: expensive, so fewer attempts; a crash mid-way is caught by the heartbeat timeout.
IMAGING_RETRY = RetryPolicy(
    initial_interval=timedelta(seconds=1),
    backoff_coefficient=2.0,
    maximum_interval=timedelta(seconds=20),
    maximum_attempts=4,
    non_retryable_error_types=NON_RETRYABLE_ERRORS,
)

# Search attributes and progress details for the Temporal UI: histories recorded before them
# replay without the upserts (each is a command).
SEARCH_ATTRIBUTES_PATCH = "search-attributes"

CANCELLED = "The generation was cancelled before this image was made; its credits were returned."

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


def is_user_error(error: BaseException) -> bool:
    """A failure for the person's own reasons (input, credits, quality gate), not ours."""
    cause = error.cause if isinstance(error, ActivityError) else error
    return isinstance(cause, ApplicationError) and cause.type in NON_RETRYABLE_ERRORS


# Not sandboxed: the sandbox re-imports modules and proxies every call for each new workflow, which
# measured as a third of the orchestration worker's CPU under a burst. This module only imports the
# contracts (plain dataclasses), core.generations.prices (pure arithmetic) and
# core.observability.metrics (the SDK's workflow meter, silent during replays), and uses no clock,
# randomness or I/O of its own; tests/test_workflow.py replays real histories to keep it honest.
@workflow.defn(name=GENERATION_WORKFLOW, sandboxed=False)
class GenerationWorkflow:
    def __init__(self) -> None:
        self._plan: GenerationPlan | None = None
        self._charged = 0
        self._refunded = 0
        self._searchable = False
        self._rejected_tasks = 0

    @workflow.run
    async def run(self, start: StartGeneration) -> GenerationResult:
        self._searchable = workflow.patched(SEARCH_ATTRIBUTES_PATCH)
        try:
            plan = await workflow.execute_local_activity_method(
                GenerationActivities.verify_uploads,
                start,
                start_to_close_timeout=STEP_TIMEOUT,
                retry_policy=STEP_RETRY,
                summary="Check the uploaded images and price the generation",
            )
            self._plan = plan
            self._charged = await workflow.execute_local_activity_method(
                GenerationActivities.charge_credits,
                plan,
                start_to_close_timeout=STEP_TIMEOUT,
                retry_policy=STEP_RETRY,
                summary=f"Charge {workflow_search.plural(plan.cost, 'credit')} to account "
                f"{plan.account_id}",
            )
            self._show(GenerationStatus.RUNNING)
            record_charge(plan.service, self._charged)
        except (ActivityError, ApplicationError) as error:
            # Local activities fail with the activity's own ApplicationError, not ActivityError.
            # Nothing was charged: the charge is the last step here and is all-or-nothing.
            reason = failure_reason(error)
            service = self._plan.service if self._plan else "unknown"
            outcome = "rejected" if is_user_error(error) else "failed"
            record_generation(service, outcome, 0, 0, 0)
            self._show(GenerationStatus.FAILED, reason)
            await self._notify(NotifyInput(start.generation_id, GenerationStatus.FAILED, reason))
            return GenerationResult(GenerationStatus.FAILED, 0, 0, 0, 0)

        share = task_share(self._charged, len(plan.tasks))
        try:
            outcomes = await asyncio.gather(
                *(self._run_task(plan, task, share, start.options) for task in plan.tasks)
            )
        except asyncio.CancelledError:
            # Cancelled (by an operator, in the Temporal UI or CLI): each task stopped its
            # engine work and refunded its share in _run_task before this; record and tell,
            # then end as cancelled.
            self._show(GenerationStatus.FAILED, CANCELLED)
            await self._notify(NotifyInput(plan.generation_id, GenerationStatus.FAILED, CANCELLED))
            record_generation(plan.service, "cancelled", 0, 0, 0)
            raise
        done = sum(1 for ok in outcomes if ok)
        failed = len(outcomes) - done
        status = GenerationStatus.COMPLETED if done else GenerationStatus.FAILED
        summary = None
        if failed:
            summary = (
                "None of the images could be created." if not done
                else f"{failed} of {len(outcomes)} images could not be created."
            )
        self._show(status, summary)
        await self._notify(NotifyInput(plan.generation_id, status, summary))
        lost = failed - self._rejected_tasks
        outcome = "failed" if lost else "rejected" if failed else "completed"
        record_generation(plan.service, outcome, done, self._rejected_tasks, lost)
        return GenerationResult(status, done, failed, self._charged, self._refunded)

    async def _notify(self, inp: NotifyInput) -> None:
        await workflow.execute_local_activity_method(
            GenerationActivities.notify,
            inp,
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
            summary=f"Record the generation as {inp.status} and tell its owner",
        )

    def _show(self, status: GenerationStatus, note: str | None = None) -> None:
        """What the Temporal UI shows: the search attributes (status, credits charged so far)
        and the current details, a sentence."""
        if not self._searchable:
            return
        plan = self._plan
        paid = self._charged - self._refunded
        if plan is None:
            workflow.upsert_search_attributes([workflow_search.STATUS.value_set(status)])
            workflow.set_current_details(f"{status.capitalize()}: {note or 'not started'}")
            return
        workflow.upsert_search_attributes(
            workflow_search.generation_progress_updates(
                plan.account_id, plan.service, len(plan.tasks), status, paid
            )
        )
        images = workflow_search.plural(len(plan.tasks), "image")
        if status == GenerationStatus.RUNNING:
            text = (f"Running: {plan.service} of {images} for account {plan.account_id}, "
                    f"{workflow_search.plural(paid, 'credit')} charged.")
        else:
            text = (f"{status.capitalize()}: {plan.service} of {images} for account "
                    f"{plan.account_id}, {workflow_search.plural(paid, 'credit')} charged in the "
                    f"end{f' ({note})' if note else ''}.")
        workflow.set_current_details(text)

    @staticmethod
    def _number(plan: GenerationPlan, task: ImagePlan) -> str:
        """"2 of 3": the task's place among the generation's images."""
        return f"{plan.tasks.index(task) + 1} of {len(plan.tasks)}"

    async def _run_task(
        self, plan: GenerationPlan, task: ImagePlan, share: int, options: GenerationOptions
    ) -> bool:
        try:
            await workflow.execute_activity_method(
                ImagingActivities.run_imaging,
                ImagingInput(
                    generation_id=plan.generation_id,
                    task_id=task.task_id,
                    service=plan.service,
                    input_key=task.input_key,
                    model_key=plan.model_key,
                    background_kind=plan.background_kind,
                    background_key=plan.background_key,
                    input_size=task.input_size,
                    input_etag=task.input_etag,
                    account_id=plan.account_id,
                    watermark=not plan.livemode,
                    analysis_checked=task.analysis_checked,
                ),
                task_queue=options.imaging_task_queue,
                start_to_close_timeout=timedelta(seconds=options.imaging_timeout_seconds),
                heartbeat_timeout=timedelta(seconds=options.heartbeat_timeout_seconds),
                retry_policy=IMAGING_RETRY,
                # On a cancel, wait for the engine to stop (its activity hears of it at the next
                # heartbeat): a task is refunded only once it can no longer deliver an image.
                cancellation_type=ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
                summary=f"{plan.service} of image {self._number(plan, task)}: engine, "
                "thumbnails, stored output",
            )
            return True
        except asyncio.CancelledError:
            await self._refund(plan, task, share, CANCELLED)
            raise
        except (ActivityError, ApplicationError) as error:
            if isinstance(error.cause, CancelledError):
                await self._refund(plan, task, share, CANCELLED)
                raise asyncio.CancelledError() from error
            await self._refund(plan, task, share, failure_reason(error))
            if is_user_error(error):
                self._rejected_tasks += 1
            return False

    async def _refund(self, plan: GenerationPlan, task: ImagePlan, share: int, reason: str) -> None:
        """The task failed or was cancelled: its share back (none if its image was stored
        meanwhile) and the reason on it."""
        result = await workflow.execute_local_activity_method(
            GenerationActivities.fail_task,
            FailTaskInput(
                generation_id=plan.generation_id,
                account_id=plan.account_id,
                task_id=task.task_id,
                reason=reason,
                refund_credits=share,
            ),
            start_to_close_timeout=STEP_TIMEOUT,
            retry_policy=STEP_RETRY,
            summary=f"Image {self._number(plan, task)} failed: refund its "
            f"{workflow_search.plural(share, 'credit')}",
        )
        self._refunded += result.refunded
        record_refund(plan.service, result.refunded)


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (GenerationWorkflow,)
