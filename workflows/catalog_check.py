"""An operator's catalog upload asks how many people its photo shows: one activity on the
imaging queue (where the engine's models live), its answer returned to the API that waits."""

from __future__ import annotations

from temporalio import workflow

with workflow.unsafe.imports_passed_through():
    from activities.catalog import CatalogActivities
    from core.contracts.catalog_check import (
        CATALOG_CHECK_WORKFLOW,
        CATALOG_TONES_WORKFLOW,
        CountPeopleInput,
        MeasureTonesInput,
    )
    from workflows.imaging_question import ask_imaging


@workflow.defn(name=CATALOG_CHECK_WORKFLOW, sandboxed=False)
class CatalogPhotoCheckWorkflow:
    @workflow.run
    async def run(self, inp: CountPeopleInput) -> int:
        # The operator waits for the answer: a few quick attempts, then the API says "try
        # again later" (the photo was already checked to decode, so a failure is ours).
        return await ask_imaging(CatalogActivities.count_people, inp, inp.imaging_task_queue)


@workflow.defn(name=CATALOG_TONES_WORKFLOW, sandboxed=False)
class CatalogModelTonesWorkflow:
    """Measure the skin tone of the digital models that have none yet (core/photos/tone_match.py);
    started, one at a time, by the model list when it is asked about a photo."""

    @workflow.run
    async def run(self, inp: MeasureTonesInput) -> int:
        return await ask_imaging(
            CatalogActivities.measure_model_tones, inp, inp.imaging_task_queue)


# Registered on the orchestration queue by the worker (ops/worker.py walks workflows/).
WORKFLOWS = (CatalogPhotoCheckWorkflow, CatalogModelTonesWorkflow)
