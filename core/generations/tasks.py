"""State changes of generations and tasks, and the completion mail. Used by the activities
(writers) and the API (guest email update)."""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import case, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from core.db import SessionFactory
from core.enums import TERMINAL_STATUSES, GenerationStatus
from core.models.base import utcnow
from core.models.generations import Generation, GenerationImage
from core.models.messages import OutboxMessage
from core.webhooks import endpoints as webhooks

log = logging.getLogger(__name__)

TERMINAL = TERMINAL_STATUSES

# Task progress while the engine works (it reports fractions of its work within this range);
# 100 when the output is stored.
IMAGING_RANGE = (10, 95)


def set_task_progress(
    sessions: SessionFactory,
    task_id: str,
    progress: int,
    stage: str,
    status: GenerationStatus = GenerationStatus.RUNNING,
    generation_id: str | None = None,
) -> None:
    """Move a task forward. Never moves a finished task, and progress never goes backwards
    (a retried activity starts its stages again; the bar should not jump back).

    With `generation_id` (the engine taking its first task), the generation shows as running
    too: until then its tasks wait in the queue and it says "queued", which is the truth.

    Conditional UPDATEs, no reads: both rules are in the WHERE and CASE (profiles of the
    imaging worker showed loading the rows first as a quarter of its own CPU)."""
    now = utcnow()
    with sessions.begin() as session:
        session.execute(
            update(GenerationImage)
            .where(GenerationImage.id == task_id, GenerationImage.status.not_in(TERMINAL))
            .values(
                status=status,
                stage=stage,
                progress=case(
                    (GenerationImage.progress < progress, progress),
                    else_=GenerationImage.progress,
                ),
                updated_at=now,
            )
        )
        if generation_id is not None:
            session.execute(
                update(Generation)
                .where(
                    Generation.id == generation_id,
                    Generation.status == GenerationStatus.QUEUED,
                )
                .values(status=GenerationStatus.RUNNING, updated_at=now)
            )


def complete_task(
    sessions: SessionFactory,
    task_id: str,
    output_key: str,
    output_thumbnail_key: str,
    note: str | None = None,
    credentials: dict[str, Any] | None = None,
) -> None:
    """Record a task's stored output, the engine's note on it, if any (e.g. "Framed from the
    knees up: …"), and the summary of the Content Credentials signed into it; once completed,
    a task never changes again."""
    with sessions.begin() as session:
        changed = session.execute(
            update(GenerationImage)
            .where(GenerationImage.id == task_id, GenerationImage.status.not_in(TERMINAL))
            .values(
                status=GenerationStatus.COMPLETED,
                stage="completed",
                progress=100,
                error=None,
                note=note,
                output_key=output_key,
                output_thumbnail_key=output_thumbnail_key,
                content_credentials=credentials,
                updated_at=utcnow(),
            )
        )
        if changed.rowcount:  # type: ignore[attr-defined]
            webhooks.queue_task_completed(session, task_id)


def fail_unfinished_tasks(session: Session, generation_id: str, reason: str) -> None:
    session.execute(
        update(GenerationImage)
        .where(
            GenerationImage.generation_id == generation_id,
            GenerationImage.status.not_in(TERMINAL),
        )
        .values(status=GenerationStatus.FAILED, error=reason, stage="failed", updated_at=utcnow())
    )


def queue_completion_mail(session: Session, generation: Generation, app_url: str) -> bool:
    """Put the "your images are ready" mail in the outbox once per generation.

    Only for a finished generation with a guest email. Returns True when a mail was queued.
    """
    if not generation.guest_email or generation.status not in TERMINAL:
        return False
    dedupe = f"generation-finished:{generation.id}"
    exists = session.execute(
        select(OutboxMessage.id).where(OutboxMessage.dedupe_key == dedupe)
    ).first()
    if exists:
        return False
    if generation.status == GenerationStatus.COMPLETED:
        subject = "Your images are ready"
        body = (
            "Hello,\n\nYour new images are ready. Open them here:\n"
            f"{app_url}/output-image?serviceId={generation.id}\n\n"
            "The download links stay available in your session.\n"
        )
    else:
        subject = "We could not create your images"
        body = (
            "Hello,\n\nUnfortunately your images could not be created"
            f"{': ' + generation.error if generation.error else '.'}\n"
            "Any credits charged for them were returned to your balance.\n"
        )
    try:
        with session.begin_nested():
            session.add(
                OutboxMessage(
                    kind="generation-finished",
                    to_address=generation.guest_email,
                    subject=subject,
                    body=body,
                    dedupe_key=dedupe,
                )
            )
    except IntegrityError:
        return False
    log.info("mail queued to %s: %s", generation.guest_email, subject)
    return True
