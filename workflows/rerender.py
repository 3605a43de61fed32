"""The re-render workflow: one per placement adjustment, workflow id `rerender-{taskId}`.

plan (the original's input, the generation's choices, the placement) → the same imaging
activity as a generation's tasks, on the imaging queue (heartbeats; a killed worker is noticed
and the image is redone elsewhere; it stores the output and completes the task) → on a failure
retrying cannot fix, the task is marked failed with the reason. Free: no step here touches
credits. Kept apart from the generation workflow, whose recorded histories must keep replaying.
"""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow
from temporalio.exceptions import ActivityError, ApplicationError

with workflow.unsafe.imports_passed_through():
    from activities.imaging import ImagingActivities
    from activities.rerender import RerenderActivities
    from core.contracts.rerender import (
        RERENDER_WORKFLOW,
        FailRerenderInput,
        RerenderRef,
        RerenderResult,
        StartRerender,
    )
    from core.enums import GenerationStatus
    from workflows.generation import (
        GENERIC_FAILURE,
        IMAGING_RETRY,
        STEP_RETRY,
        STEP_TIMEOUT,
        failure_reason,
    )

# Nothing was charged for a re-render, so the generic message must not speak of a refund.
RERENDER_FAILURE = (
    "The image could not be re-rendered right now, even after several tries. Nothing was "
    "charged for it; please try again later."
)


# Not sandboxed, like the generation workflow (same imports: contracts and plain data; no
# clock, randomness or I/O of its own).
@workflow.defn(name=RERENDER_WORKFLOW, sandboxed=False)
class RerenderWorkflow:
    @workflow.run
    async def run(self, start: StartRerender) -> RerenderResult:
        try:
            imaging = await workflow.execute_local_activity_method(
                RerenderActivities.plan_rerender,
                RerenderRef(start.task_id),
                start_to_close_timeout=STEP_TIMEOUT,
                retry_policy=STEP_RETRY,
                summary="Read the original image, the background and the placement",
            )
            options = start.options
            await workflow.execute_activity_method(
                ImagingActivities.run_imaging,
                imaging,
                task_queue=options.imaging_task_queue,
                start_to_close_timeout=timedelta(seconds=options.imaging_timeout_seconds),
                heartbeat_timeout=timedelta(seconds=options.heartbeat_timeout_seconds),
                retry_policy=IMAGING_RETRY,
                summary=f"{imaging.service} re-render with the user's placement: engine, "
                "thumbnails, stored output",
            )
        except (ActivityError, ApplicationError) as error:
            reason = failure_reason(error)
            if reason == GENERIC_FAILURE:
                reason = RERENDER_FAILURE
            await workflow.execute_local_activity_method(
                RerenderActivities.fail_rerender,
                FailRerenderInput(start.task_id, reason),
                start_to_close_timeout=STEP_TIMEOUT,
                retry_policy=STEP_RETRY,
                summary="Mark the re-render failed (nothing to refund)",
            )
            return RerenderResult(GenerationStatus.FAILED, reason)
        return RerenderResult(GenerationStatus.COMPLETED)


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (RerenderWorkflow,)
