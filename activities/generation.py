"""Orchestration activities of a generation: verify (which prices the work), charge, fail, notify.

(Rendering, thumbnails and storing the output are the imaging activity's, in activities/imaging.)

All are synchronous and run in the worker's thread pool, so database and storage calls never
block the worker's event loop. Each one is idempotent: Temporal may run it again after a crash.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy.orm import Session
from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.registry import Queue, Registration, WorkerDeps
from core import credits
from core.catalog.lookup import background_kind, find_background, find_model
from core.contracts.generation import (
    CHARGE_CREDITS,
    FAIL_TASK,
    NOTIFY,
    VERIFY_UPLOADS,
    ChargeInput,
    FailTaskInput,
    FailTaskOutput,
    FailureType,
    GenerationPlan,
    GenerationRef,
    NotifyInput,
    TaskPlan,
)
from core.db import SessionFactory
from core.enums import GenerationStatus, Service
from core.errors import DomainError
from core.generations.prices import generation_cost
from core.generations.read import tasks_of
from core.generations.tasks import TERMINAL, fail_unfinished_tasks, queue_completion_mail
from core.models.base import utcnow
from core.models.generations import Generation, Task
from core.photos.inputs import check_pinned_version, check_stored_image, image_name
from core.settings import Settings
from core.storage import Storage
from core.webhooks import endpoints as webhooks

log = logging.getLogger(__name__)


def rejected(message: str, error_type: str = FailureType.INPUT_REJECTED) -> ApplicationError:
    """An error that retrying cannot fix; the workflow fails at once and refunds."""
    return ApplicationError(message, type=error_type, non_retryable=True)


def rejected_by_rule(
    error: DomainError, error_type: str = FailureType.INPUT_REJECTED
) -> ApplicationError:
    """A domain error from a shared rule, as a failure retrying cannot fix."""
    return rejected(error.message, error_type)


def chosen_model_key(session: Session, model_id: str | None) -> str | None:
    """The storage key of the generation's digital model (None when it has none); a model
    removed from the catalog since the submit fails the work for good."""
    if not model_id:
        return None
    model = find_model(session, model_id)
    if model is None:
        raise rejected("The chosen model is not available any more.")
    return model.key


class GenerationActivities:
    def __init__(self, sessions: SessionFactory, storage: Storage, settings: Settings) -> None:
        self.sessions = sessions
        self.storage = storage
        self.settings = settings

    @activity.defn(name=VERIFY_UPLOADS)
    def verify_uploads(self, ref: GenerationRef) -> GenerationPlan:
        """Check every input (exists, decodes, within limits), resolve the catalog choices and
        price the generation."""
        with self.sessions() as session:
            generation = session.get(Generation, ref.generation_id)
            if generation is None:
                raise rejected("This generation no longer exists.")
            if generation.status in TERMINAL:
                # Given up by the sweeper (or finished by an earlier run): never charge it now.
                raise rejected(generation.error or "This generation has already finished.")
            model_key = chosen_model_key(session, generation.model_id)
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
                service=Service(generation.service),
                model_key=model_key,
                background_kind=bg_kind,
                background_key=bg_key,
                livemode=generation.livemode,
            )
            tasks = tasks_of(session, ref.generation_id)
        for number, task in enumerate(tasks, start=1):
            name = image_name(number, len(tasks))
            missing = f"{name} was not found; please upload it again."
            try:
                if task.input_size is not None and task.input_etag:
                    # Read and checked at submit, its version pinned: a metadata request
                    # proves it is still that version (the bytes are read once more, and
                    # checked before decoding, by the imaging step that uses them).
                    check_pinned_version(self.storage, task.input_key, name, missing,
                                         task.input_size, task.input_etag)
                    size, etag = task.input_size, task.input_etag
                else:
                    checked = check_stored_image(
                        self.storage, self.settings, task.input_key, name, missing)
                    size, etag = checked.size, checked.etag
            except DomainError as error:
                raise rejected_by_rule(error) from None
            plan.tasks.append(
                TaskPlan(task_id=task.id, input_key=task.input_key, input_size=size,
                         input_etag=etag)
            )
        # The price comes with the plan: pure arithmetic on what was just read, so not worth a
        # step of its own (each local activity is a round trip through the SDK's core).
        plan.cost = generation_cost(plan.service, len(plan.tasks)) if plan.livemode else 0
        return plan

    @activity.defn(name=CHARGE_CREDITS)
    def charge_credits(self, inp: ChargeInput) -> int:
        """Charge once per generation (keyed by its id), however often this runs. A test-mode
        generation costs nothing and leaves no ledger entry."""
        if inp.credits <= 0:
            return 0
        try:
            result = credits.charge(
                self.sessions, inp.account_id, inp.credits, generation_id=inp.generation_id
            )
        except credits.InsufficientCredits as error:
            raise rejected_by_rule(error, FailureType.INSUFFICIENT_CREDITS) from None
        return result.free + result.paid

    @activity.defn(name=FAIL_TASK)
    def fail_task(self, inp: FailTaskInput) -> FailTaskOutput:
        """Give back the task's share of the charge (once) and mark it failed with the reason.

        A task whose output was stored (its activity finished but its report was lost) keeps
        its result and its charge: the person has the image."""
        with self.sessions() as session:
            task = session.get(Task, inp.task_id)
            if task is not None and task.status == GenerationStatus.COMPLETED:
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
            if task is not None and task.status not in TERMINAL:
                task.status = GenerationStatus.FAILED
                task.stage = "failed"
                task.error = inp.reason
        return FailTaskOutput(refunded=refunded)

    @activity.defn(name=NOTIFY)
    def notify(self, inp: NotifyInput) -> bool:
        """Record the generation's end and queue the guest's mail if they asked for one.

        A failure before the charge also releases the credits reserved at submit, in the same
        transaction that records the failure: nobody can see the generation failed while its
        credits are still held. (After a charge the hold is posted already and this changes
        nothing.)
        """
        queued = False

        def record_end(session: Session) -> None:
            nonlocal queued
            generation = session.get(Generation, inp.generation_id)
            if generation is None:
                return
            if generation.status not in TERMINAL:
                generation.status = inp.status
                generation.error = inp.error
                generation.completed_at = utcnow()
            if inp.status == GenerationStatus.FAILED:
                fail_unfinished_tasks(
                    session, generation.id, inp.error or "The generation failed."
                )
            queued = queue_completion_mail(session, generation, self.settings.app_url)
            webhooks.queue_generation_end(session, generation)

        if inp.status == GenerationStatus.FAILED:
            credits.void_hold(self.sessions, inp.generation_id, then=record_end)
        else:
            with self.sessions.begin() as session:
                record_end(session)
        return queued


def _generation_activities(deps: WorkerDeps) -> list[Callable[..., Any]]:
    steps = GenerationActivities(deps.sessions, deps.storage, deps.settings)
    return [steps.verify_uploads, steps.charge_credits, steps.fail_task, steps.notify]


REGISTRATION = Registration(Queue.ORCHESTRATION, _generation_activities)
