"""Generations recorded but never known to be started (the API died between recording one
and starting its workflow): the sweeper starts them late, records a start it missed, or gives
up on them with their hold released."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import credits
from core.db import SessionFactory
from core.enums import GenerationStatus
from core.generations.tasks import fail_unfinished_tasks, queue_completion_mail
from core.models.base import as_utc, utcnow
from core.models.generations import Generation


@dataclass(frozen=True)
class Stuck:
    """A generation recorded but never known to be started."""

    id: str
    age: timedelta


def stuck_generations(sessions: SessionFactory, older_than: timedelta) -> list[Stuck]:
    """Generations queued without a recorded workflow start for longer than `older_than`,
    oldest first."""
    now = utcnow()
    with sessions() as session:
        rows = session.execute(
            select(Generation.id, Generation.created_at)
            .where(
                Generation.status == GenerationStatus.QUEUED,
                Generation.workflow_started_at.is_(None),
                Generation.created_at < now - older_than,
            )
            .order_by(Generation.created_at)
            .limit(200)
        ).all()
    return [Stuck(row.id, now - as_utc(row.created_at)) for row in rows]


class SweepAction(StrEnum):
    RECORD = "record"  # its workflow exists: the API died after starting it
    START = "start"
    GIVE_UP = "give_up"


def sweep_action(stuck: Stuck, workflow_exists: bool, give_up_after: timedelta) -> SweepAction:
    """What the sweeper does with a stuck generation. Started late rather than never, but not
    after `give_up_after`: by then the person has seen nothing happen for long, and charging
    them for it now would surprise more than a failed generation with its credits back."""
    if workflow_exists:
        return SweepAction.RECORD
    if stuck.age > give_up_after:
        return SweepAction.GIVE_UP
    return SweepAction.START


GAVE_UP = (
    "This generation could not be started in time. Nothing was charged; please submit it again."
)


class _NotStuck(Exception):
    """The generation moved on (started or finished) while we were giving it up."""


def give_up(sessions: SessionFactory, generation_id: str, app_url: str) -> bool:
    """Fail a generation that never started and release its reservation, in one transaction.
    Returns False (and changes nothing) when it is no longer stuck."""

    def fail(session: Session) -> None:
        generation = session.execute(
            select(Generation)
            .where(Generation.id == generation_id)
            .execution_options(populate_existing=True)
        ).scalar_one_or_none()
        if (
            generation is None
            or generation.status != GenerationStatus.QUEUED
            or generation.workflow_started_at is not None
        ):
            raise _NotStuck()
        generation.status = GenerationStatus.FAILED
        generation.error = GAVE_UP
        generation.completed_at = utcnow()
        fail_unfinished_tasks(session, generation_id, GAVE_UP)
        queue_completion_mail(session, generation, app_url)

    try:
        credits.void_hold(sessions, generation_id, then=fail)
    except _NotStuck:
        return False
    return True
