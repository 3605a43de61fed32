"""Orchestration activities of a re-render (workflows/rerender.py): plan it, fail it.

No credits move here: a re-render is free (core/library/rerender.py). Both run as local activities
in the workflow's worker, are synchronous (the worker's thread pool) and idempotent.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy import update
from temporalio import activity

from activities.generation import chosen_model_key, rejected
from activities.registry import Queue, Registration, WorkerDeps
from core.catalog.lookup import background_kind, find_background
from core.contracts.generation import ImagingInput, PlacementSpec
from core.contracts.rerender import FAIL_RERENDER, PLAN_RERENDER, FailRerenderInput, RerenderRef
from core.db import SessionFactory
from core.enums import GenerationKind, GenerationStatus
from core.generations.tasks import TERMINAL
from core.models.generations import Generation, GenerationImage


class RerenderActivities:
    def __init__(self, sessions: SessionFactory) -> None:
        self.sessions = sessions

    @activity.defn(name=PLAN_RERENDER)
    def plan_rerender(self, ref: RerenderRef) -> ImagingInput:
        """The imaging input of the re-render: the original's input (the version checked at
        submit), the generation's model and background as they are now, the placement, and
        the generation's mode (a test one's output is watermarked)."""
        with self.sessions() as session:
            task = session.get(GenerationImage, ref.task_id)
            if task is None or task.source_task_id is None:
                raise rejected("This re-render no longer exists.")
            generation = session.get(Generation, task.generation_id)
            if generation is None or generation.deleted_at is not None:
                raise rejected("This image was deleted.")
            model_key = chosen_model_key(session, generation.model_id)
            background = (
                find_background(session, generation.background_id)
                if generation.background_id
                else None
            )
            if background is None:
                raise rejected("The chosen background is not available any more.")
            kind = background_kind(background)
            return ImagingInput(
                generation_id=generation.id,
                task_id=task.id,
                service=GenerationKind(generation.service),
                input_key=task.input_key,
                model_key=model_key,
                background_kind=kind,
                background_key=background.key if kind == "image" else None,
                input_size=task.input_size,
                input_etag=task.input_etag,
                placement=PlacementSpec(
                    x=task.placement_x or 0.0,
                    y=task.placement_y or 0.0,
                    scale=task.placement_scale or 1.0,
                ),
                account_id=generation.account_id,
                # A test-mode generation's re-render is a test image too: watermarked like
                # its original (issue 33; it is free either way).
                watermark=not generation.livemode,
            )

    @activity.defn(name=FAIL_RERENDER)
    def fail_rerender(self, inp: FailRerenderInput) -> bool:
        """Mark the re-render failed with the reason; nothing to refund (nothing was charged),
        but the try is given back to the original's count of free re-renders (in the same
        transaction, so a retried call gives it back once). A task whose output was stored
        keeps it."""
        with self.sessions.begin() as session:
            task = session.get(GenerationImage, inp.task_id)
            if task is None or task.status in TERMINAL:
                return False
            task.status = GenerationStatus.FAILED
            task.stage = "failed"
            task.error = inp.reason
            if task.source_task_id is not None:
                session.execute(
                    update(GenerationImage)
                    .where(GenerationImage.id == task.source_task_id, GenerationImage.rerenders > 0)
                    .values(rerenders=GenerationImage.rerenders - 1)
                )
            return True


def _rerender_activities(deps: WorkerDeps) -> list[Callable[..., Any]]:
    rerenders = RerenderActivities(deps.sessions)
    return [rerenders.plan_rerender, rerenders.fail_rerender]


REGISTRATION = Registration(Queue.ORCHESTRATION, _rerender_activities)
