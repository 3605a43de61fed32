"""Orchestration activities of a generation: verify (which prices the work), charge, fail, notify.

(Rendering, thumbnails and storing the output are the imaging activity's, in activities/imaging.)

All are synchronous and run in the worker's thread pool, so database and storage calls never
block the worker's event loop. Each one is idempotent: Temporal may run it again after a crash.
"""

from __future__ import annotations

import logging

from sqlalchemy import select
from temporalio import activity
from temporalio.exceptions import ApplicationError

from core import credits, jobs
from core.catalog import background_kind, find_background, find_model
from core.contracts import (
    CHARGE_CREDITS,
    FAIL_TASK,
    NOTIFY,
    VERIFY_UPLOADS,
    ChargeInput,
    FailTaskInput,
    FailTaskOutput,
    GenerationPlan,
    GenerationRef,
    NotifyInput,
    TaskPlan,
)
from core.costs import generation_cost
from core.db import SessionFactory
from core.images import ImageRejected, check_image
from core.models import Generation, Task, utcnow
from core.settings import Settings
from core.storage import Storage

log = logging.getLogger(__name__)


def rejected(message: str, error_type: str = "InputRejected") -> ApplicationError:
    """An error that retrying cannot fix; the workflow fails at once and refunds."""
    return ApplicationError(message, type=error_type, non_retryable=True)


class GenerationActivities:
    def __init__(self, sessions: SessionFactory, storage: Storage, settings: Settings) -> None:
        self.sessions = sessions
        self.storage = storage
        self.settings = settings

    def _tasks(self, generation_id: str) -> list[Task]:
        with self.sessions() as session:
            return list(
                session.execute(
                    select(Task).where(Task.generation_id == generation_id).order_by(Task.position)
                ).scalars()
            )

    @activity.defn(name=VERIFY_UPLOADS)
    def verify_uploads(self, ref: GenerationRef) -> GenerationPlan:
        """Check every input (exists, decodes, within limits), resolve the catalog choices and
        price the generation."""
        with self.sessions() as session:
            generation = session.get(Generation, ref.generation_id)
            if generation is None:
                raise rejected("This generation no longer exists.")
            model_key = None
            if generation.model_id:
                model = find_model(session, generation.model_id)
                if model is None:
                    raise rejected("The chosen model is not available any more.")
                model_key = model.key
            bg_kind = bg_key = None
            if generation.background_id:
                background = find_background(session, generation.background_id)
                if background is None:
                    raise rejected("The chosen background is not available any more.")
                bg_kind = background_kind(background)
                bg_key = background.key if bg_kind == "image" else None
            plan = GenerationPlan(
                generation_id=generation.id,
                account_id=generation.account_id,
                service=generation.service,
                model_key=model_key,
                background_kind=bg_kind,
                background_key=bg_key,
            )
        tasks = self._tasks(ref.generation_id)
        for number, task in enumerate(tasks, start=1):
            name = f"Image {number}" if len(tasks) > 1 else "The image"
            data = self.storage.get_bytes_or_none(
                task.input_key, max_bytes=self.settings.max_upload_bytes
            )
            if data is None:
                raise rejected(f"{name} was not found; please upload it again.")
            try:
                check_image(
                    data,
                    max_bytes=self.settings.max_upload_bytes,
                    max_megapixels=self.settings.max_megapixels,
                    name=name,
                )
            except ImageRejected as error:
                raise rejected(error.message) from None
            plan.tasks.append(TaskPlan(task_id=task.id, input_key=task.input_key))
        # The price comes with the plan: pure arithmetic on what was just read, so not worth a
        # step of its own (each local activity is a round trip through the SDK's core).
        plan.cost = generation_cost(plan.service, len(plan.tasks))
        return plan

    @activity.defn(name=CHARGE_CREDITS)
    def charge_credits(self, inp: ChargeInput) -> int:
        """Charge once per generation (keyed by its id), however often this runs."""
        try:
            result = credits.charge(
                self.sessions, inp.account_id, inp.credits, generation_id=inp.generation_id
            )
        except credits.InsufficientCredits as error:
            raise rejected(str(error), "InsufficientCredits") from None
        return result.free + result.paid

    @activity.defn(name=FAIL_TASK)
    def fail_task(self, inp: FailTaskInput) -> FailTaskOutput:
        """Give back the task's share of the charge (once) and mark it failed with the reason.

        A task whose output was stored (its activity finished but its report was lost) keeps
        its result and its charge: the person has the image."""
        with self.sessions() as session:
            task = session.get(Task, inp.task_id)
            if task is not None and task.status == "completed":
                return FailTaskOutput(refunded=0)
        refunded = credits.refund(
            self.sessions,
            inp.account_id,
            inp.refund_credits,
            generation_id=inp.generation_id,
            part=inp.task_id,
        )
        with self.sessions.begin() as session:
            task = session.get(Task, inp.task_id)
            if task is not None and task.status not in jobs.TERMINAL:
                task.status = "failed"
                task.stage = "failed"
                task.error = inp.reason
        return FailTaskOutput(refunded=refunded)

    @activity.defn(name=NOTIFY)
    def notify(self, inp: NotifyInput) -> bool:
        """Record the generation's end and queue the guest's mail if they asked for one."""
        with self.sessions.begin() as session:
            generation = session.get(Generation, inp.generation_id)
            if generation is None:
                return False
            if generation.status not in jobs.TERMINAL:
                generation.status = inp.status
                generation.error = inp.error
                generation.completed_at = utcnow()
            if inp.status == "failed":
                jobs.fail_unfinished_tasks(
                    session, generation.id, inp.error or "The generation failed."
                )
            return jobs.queue_completion_mail(session, generation, self.settings.app_url)
