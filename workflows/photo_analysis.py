"""An upload's analysis: one activity on the imaging queue (activities/photos.py), its answer
returned to the API that waits for it (about a second) and stored on the upload either way."""

from __future__ import annotations

from typing import Any

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.photos import PhotoActivities
    from core.contracts.photo_analysis import PHOTO_ANALYSIS_WORKFLOW, AnalysePhotoInput
    from workflows.imaging_question import ask_imaging


@workflow.defn(name=PHOTO_ANALYSIS_WORKFLOW, sandboxed=False)
class PhotoAnalysisWorkflow:
    @workflow.run
    async def run(self, inp: AnalysePhotoInput) -> dict[str, Any]:
        # A few quick attempts: the photo was already checked to decode, so a failure is ours,
        # and without an analysis the upload still works (the engine's own checks refund).
        return await ask_imaging(PhotoActivities.analyse_photo, inp, inp.imaging_task_queue)


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (PhotoAnalysisWorkflow,)
