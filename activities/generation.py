"""Orchestration activities of a generation: verify (confirms the plan the submit made, or makes
it for a workflow started without one), charge, fail, notify.

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
from core.contracts.generation import (
    CHARGE_CREDITS,
    FAIL_TASK,
    NOTIFY,
    VERIFY_UPLOADS,
    FailTaskInput,
    FailTaskOutput,
    FailureType,
    GenerationPlan,
    NotifyInput,
    StartGeneration,
)
from core.db import SessionFactory
from core.enums import GenerationStatus
from core.errors import DomainError
from core.generations.plan import catalog_choices, confirm_plan, plan_of_record, still_open
from core.generations.tasks import TERMINAL, fail_unfinished_tasks, queue_completion_mail
from core.models.base import utcnow
from core.models.generations import Generation, GenerationImage
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
    try:
        model, _ = catalog_choices(session, model_id, None)
    except DomainError as error:
        raise rejected_by_rule(error) from None
    return model.key if model is not None else None


class GenerationActivities:
    def __init__(self, sessions: SessionFactory, storage: Storage, settings: Settings) -> None:
        self.sessions = sessions
        self.storage = storage
        self.settings = settings

    @activity.defn(name=VERIFY_UPLOADS)
    def verify_uploads(self, start: StartGeneration) -> GenerationPlan:
        """The plan the submit made (core/generations/plan.py), confirmed before anything is
        charged: the generation not given up meanwhile, its catalog photos still stored, each
        upload still the version checked. A workflow started without one gets it made here from
        the recorded rows, by the same rules (its catalog entries looked up, its price)."""
        try:
            with self.sessions() as session:
                if start.plan is None:
                    plan = plan_of_record(session, start.generation_id)
                else:
                    plan = start.plan
                    still_open(session.get(Generation, start.generation_id))
            confirm_plan(self.storage, self.settings, plan)
        except DomainError as error:
            raise rejected_by_rule(error) from None
        return plan

    @activity.defn(name=CHARGE_CREDITS)
    def charge_credits(self, plan: GenerationPlan) -> int:
        """Charge the plan's price once per generation (keyed by its id), however often this
        runs. A test-mode generation costs nothing and leaves no ledger entry."""
        if plan.cost <= 0:
            return 0
        try:
            result = credits.charge(
                self.sessions, plan.account_id, plan.cost, generation_id=plan.generation_id
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
            task = session.get(GenerationImage, inp.task_id)
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
            task = session.get(GenerationImage, inp.task_id)
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
