"""An upload's analysis: one activity on the imaging queue (activities/photos.py), its answer
returned to the API that waits for it (about a second) and stored on the upload either way."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from activities.photos import PhotoActivities
    from core.contracts import PHOTO_ANALYSIS_WORKFLOW, AnalysePhotoInput


@workflow.defn(name=PHOTO_ANALYSIS_WORKFLOW, sandboxed=False)
class PhotoAnalysisWorkflow:
    @workflow.run
    async def run(self, inp: AnalysePhotoInput) -> dict[str, Any]:
        # A few quick attempts: the photo was already checked to decode, so a failure is ours,
        # and without an analysis the upload still works (the engine's own checks refund).
        return await workflow.execute_activity_method(
            PhotoActivities.analyse_photo,
            inp,
            task_queue=inp.imaging_task_queue,
            start_to_close_timeout=timedelta(seconds=60),
            retry_policy=RetryPolicy(initial_interval=timedelta(seconds=1), maximum_attempts=3),
        )
