"""The upload clean-up: one run per tick of its schedule (hourly), deleting abandoned uploads."""

from __future__ import annotations

from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.cleanup import CleanupActivities, CleanupReport, CleanUpUploads

UPLOAD_CLEANUP_WORKFLOW = "UploadCleanup"


# Not sandboxed, like the generation workflow: it only calls one activity.
@workflow.defn(name=UPLOAD_CLEANUP_WORKFLOW, sandboxed=False)
class UploadCleanupWorkflow:
    @workflow.run
    async def run(self, inp: CleanUpUploads) -> CleanupReport:
        return await workflow.execute_activity_method(
            CleanupActivities.clean_up_uploads,
            inp,
            start_to_close_timeout=timedelta(minutes=30),
            # It heartbeats after every batch of deletes (a few seconds of work).
            heartbeat_timeout=timedelta(minutes=2),
            # Storage or the database restarting; every delete is safe to repeat.
            retry_policy=RetryPolicy(
                initial_interval=timedelta(seconds=5), maximum_attempts=3
            ),
        )


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (UploadCleanupWorkflow,)
