"""Re-rendering an output with the user's placement adjustment (issue 13): move and scale the
subject over the chosen background, without a new charge.

A re-render is a new task of the same generation (`source_task_id` names the original task,
whose input it renders again), run by its own workflow (id `rerender-{taskId}`,
workflows/rerender.py) through the same durable imaging activity as every other task. It is
free: no hold, no charge, no refund, no ledger entry at all. The free work is bounded: at most
MAX_RERENDERS per original, counted on the original with one conditional update, so
concurrent requests cannot go past it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import anyio.from_thread
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session
from temporalio.client import Client
from temporalio.common import WorkflowIDConflictPolicy

from core.auth.tokens import Principal
from core.catalog.lookup import background_kind, find_background
from core.contracts.generation import GenerationOptions
from core.contracts.rerender import RERENDER_WORKFLOW, StartRerender, rerender_workflow_id
from core.db import SessionFactory
from core.engine import PLACEMENT_OFFSET_LIMIT, PLACEMENT_SCALE_RANGE, Placement
from core.enums import GenerationStatus
from core.errors import Conflict, InvalidInput, NotFound, Unavailable
from core.library.gallery import owned_task
from core.models.base import new_id, utcnow
from core.models.generations import Generation, GenerationImage
from core.settings import Settings
from core.workflow_starter import WorkflowStarter

log = logging.getLogger(__name__)

MAX_RERENDERS = 10  # per original image: re-renders are free, so the work is bounded
NOT_FOUND = "That image was not found."


@dataclass(frozen=True)
class Rerendered:
    task_id: str
    generation_id: str
    source_task_id: str
    remaining: int  # re-renders still allowed for the original


def checked_placement(x: float, y: float, scale: float) -> Placement:
    """The placement, or InvalidInput naming the value out of range."""
    limit = PLACEMENT_OFFSET_LIMIT
    low, high = PLACEMENT_SCALE_RANGE
    for name, value in (("x", x), ("y", y)):
        if not -limit <= value <= limit:
            raise InvalidInput(
                f"{name}: move the subject by at most half the frame ({-limit} to {limit})."
            )
    if not low <= scale <= high:
        raise InvalidInput(f"scale: choose a size between {low} and {high} times.")
    return Placement(x, y, scale)


def _check_adjustable(session: Session, task: GenerationImage, generation: Generation) -> None:
    """Only a finished image with a background behind the subject can be adjusted."""
    if task.status != GenerationStatus.COMPLETED or not task.output_key:
        failed = task.status == GenerationStatus.FAILED
        state = "could not be created" if failed else "is not ready yet"
        raise Conflict(f"This image {state}: only a finished image can be adjusted.")
    background = (
        find_background(session, generation.background_id) if generation.background_id else None
    )
    if background is None:
        raise Conflict(
            "This image has no background to place the subject on: the placement can only be "
            "adjusted on an image made with a background."
        )
    if background_kind(background) == "transparent":
        raise Conflict(
            "This image has a transparent background: the subject keeps the photo's framing, "
            "so there is no placement to adjust."
        )


class Rerenders:
    def __init__(
        self,
        sessions: SessionFactory,
        settings: Settings,
        temporal: WorkflowStarter | Client,
    ) -> None:
        self.sessions = sessions
        self.settings = settings
        self.temporal = temporal

    def request(self, principal: Principal, task_id: str, placement: Placement) -> Rerendered:
        """Record a new task of the same generation that renders the original's input again
        with `placement`, and start its workflow. `task_id` may be the original or one of its
        re-renders (the user adjusts what they see); the placement is always relative to the
        engine's own placement of the original."""
        new_task_id = new_id()
        with self.sessions.begin() as session:
            owned = owned_task(session, principal, task_id)
            if owned is None:
                raise NotFound(NOT_FOUND)  # someone else's too: we never say which
            task, generation = owned
            _check_adjustable(session, task, generation)
            original = task
            if task.source_task_id is not None:
                found = session.get(GenerationImage, task.source_task_id)
                if found is None:
                    raise NotFound(NOT_FOUND)
                original = found
            # One conditional update: concurrent requests cannot both take the last one.
            counted = session.execute(
                update(GenerationImage)
                .where(GenerationImage.id == original.id, GenerationImage.rerenders < MAX_RERENDERS)
                .values(rerenders=GenerationImage.rerenders + 1)
                .execution_options(synchronize_session=False)
            )
            if counted.rowcount != 1:  # type: ignore[attr-defined]
                raise Conflict(
                    f"This image was already re-rendered {MAX_RERENDERS} times, the most "
                    "allowed for free: choose among those versions, or create a new image."
                )
            position = session.scalar(
                select(func.max(GenerationImage.position))
                .where(GenerationImage.generation_id == generation.id)
            )
            session.add(
                GenerationImage(
                    id=new_task_id,
                    generation_id=generation.id,
                    position=int(position or 0) + 1,
                    input_key=original.input_key,
                    input_size=original.input_size,
                    input_etag=original.input_etag,
                    input_mime=original.input_mime,
                    source_task_id=original.id,
                    placement_x=placement.x,
                    placement_y=placement.y,
                    placement_scale=placement.scale,
                )
            )
            generation_id, original_id = generation.id, original.id
            used = session.scalar(select(GenerationImage.rerenders)
                .where(GenerationImage.id == original.id))
        try:
            self._start(new_task_id, generation_id)
        except Exception:
            log.exception("could not start re-render %s", new_task_id)
            # Never started: as if never asked (the count too).
            with self.sessions.begin() as session:
                row = session.get(GenerationImage, new_task_id)
                if row is not None:
                    session.delete(row)
                session.execute(
                    update(GenerationImage)
                    .where(GenerationImage.id == original_id, GenerationImage.rerenders > 0)
                    .values(rerenders=GenerationImage.rerenders - 1)
                )
            raise Unavailable(
                "The image service is not reachable right now; please try again later."
            ) from None
        return Rerendered(new_task_id, generation_id, original_id, MAX_RERENDERS - int(used or 0))

    def _start(self, task_id: str, generation_id: str) -> None:
        settings = self.settings

        async def start_it() -> None:
            await start_rerender(self.temporal, settings, task_id, generation_id)

        # Requests run in worker threads; the Temporal client lives on the app's event loop.
        anyio.from_thread.run(start_it)


async def start_rerender(
    temporal: WorkflowStarter | Client, settings: Settings, task_id: str, generation_id: str
) -> None:
    """Start the re-render's workflow; starting it again is harmless (id from the task)."""
    kwargs: dict[str, Any] = {
        "id": rerender_workflow_id(task_id),
        "task_queue": settings.task_queue,
        "id_conflict_policy": WorkflowIDConflictPolicy.USE_EXISTING,
        "static_summary": f"Re-render of an image of generation {generation_id} with the "
        "user's placement (free)",
    }
    await temporal.start_workflow(
        RERENDER_WORKFLOW,
        StartRerender(
            task_id=task_id,
            generation_id=generation_id,
            options=GenerationOptions(
                imaging_task_queue=settings.imaging_task_queue,
                imaging_timeout_seconds=settings.engine_timeout_seconds,
                heartbeat_timeout_seconds=settings.imaging_heartbeat_timeout_seconds,
            ),
        ),
        **kwargs,
    )


def stuck_rerenders(sessions: SessionFactory, older_than: timedelta) -> list[tuple[str, str]]:
    """Re-renders (task id, generation id) still queued `older_than` after they were asked for,
    oldest first: the API may have died between recording one and starting its workflow. The
    sweeper starts them (harmless for one that runs: the start uses the existing workflow)."""
    with sessions() as session:
        rows = session.execute(
            select(GenerationImage.id, GenerationImage.generation_id)
            .where(
                GenerationImage.source_task_id.is_not(None),
                GenerationImage.status == GenerationStatus.QUEUED,
                GenerationImage.created_at < utcnow() - older_than,
            )
            .order_by(GenerationImage.created_at)
            .limit(200)
        ).all()
    return [(row.id, row.generation_id) for row in rows]
