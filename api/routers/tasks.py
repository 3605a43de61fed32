"""Task polling: what the browser calls while it shows progress.

Plain polling works (no `since`: the answer comes at once). A browser that passes `since`, the
tasks' `status:progress` as it last saw them, and `waitMs` is answered the moment any task moves
on (see api/task_watch.py): fewer requests, and the result shows without a polling delay."""

from __future__ import annotations

import json
from collections.abc import Container
from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from sqlalchemy import ColumnElement, select
from starlette.concurrency import run_in_threadpool

from api.deps import (
    CurrentPrincipal,
    PollCacheDep,
    SessionsDep,
    SettingsDep,
    StorageDep,
    TaskWatcherDep,
    TemporalDep,
)
from api.metrics import LONG_POLLS_WAITING
from api.schemas.common import Envelope, ErrorBody, Placement, TaskView
from api.schemas.tasks import RerenderView
from api.task_watch import MAX_WAIT_SECONDS, state_of, task_state
from api.validation import unstorable
from api.views import task_view
from core.auth.ownership import owned_by
from core.auth.tokens import Principal
from core.db import SessionFactory
from core.errors import InvalidInput, NotFound
from core.library.rerender import Rerenders, checked_placement
from core.models.generations import Generation, GenerationImage
from core.storage import Storage

router = APIRouter(prefix="/api/v1/task", tags=["tasks"])

MAX_POLLED = 100


def _parse_ids(raw: str) -> list[str]:
    try:
        ids = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):  # deeply nested arrays overflow the parser
        ids = None
    if not isinstance(ids, list) or not all(isinstance(i, str) and 0 < len(i) <= 64 for i in ids):
        raise InvalidInput('taskIds: give a JSON array of task ids, like ["id1","id2"].')
    problem = unstorable(ids)
    if problem:
        raise InvalidInput(f"taskIds: {problem}")
    if not ids or len(ids) > MAX_POLLED:
        raise InvalidInput(f"taskIds: give between 1 and {MAX_POLLED} task ids.")
    return list(dict.fromkeys(ids))


def _owned(principal: Principal, ids: list[str]) -> tuple[ColumnElement[bool], ...]:
    """The caller's tasks among `ids`, of generations not deleted, in the caller's mode."""
    return (
        GenerationImage.id.in_(ids),
        GenerationImage.deleted_at.is_(None),  # an image deleted on its own
        owned_by(principal, Generation),
        Generation.deleted_at.is_(None),
    )


def _not_found(ids: list[str], found: Container[str]) -> None:
    missing = [i for i in ids if i not in found]
    if missing:
        raise NotFound(f"Task {missing[0]} was not found.")


def _views(
    sessions: SessionFactory, storage: Storage, principal: Principal, ids: list[str]
) -> list[TaskView]:
    with sessions() as session:
        rows = session.execute(
            select(GenerationImage).join(Generation, Generation.id == GenerationImage.generation_id)
            .where(*_owned(principal, ids))
        ).scalars()
        found = {task.id: task for task in rows}
    _not_found(ids, found)
    return [task_view(storage, found[i]) for i in ids]


def _state(sessions: SessionFactory, principal: Principal, ids: list[str]) -> str:
    """The tasks' `since` string, from three columns: a long poll usually finds nothing new
    and waits, so it reads the whole views only once there is something to answer."""
    with sessions() as session:
        rows = session.execute(
            select(GenerationImage.id, GenerationImage.status, GenerationImage.progress)
            .join(Generation, Generation.id == GenerationImage.generation_id)
            .where(*_owned(principal, ids))
        )
        states = {row.id: task_state(row.status, row.progress) for row in rows}
    _not_found(ids, states)
    return state_of(ids, states)


def _body(views: list[TaskView]) -> bytes:
    """The envelope serialised once, by the model that built it (a returned model would be
    validated and serialised again by FastAPI's response_model)."""
    return Envelope[list[TaskView]](data=views).model_dump_json(by_alias=True).encode()


@router.get("/pollTasks", response_model=Envelope[list[TaskView]])
async def poll_tasks(
    request: Request,
    sessions: SessionsDep,
    storage: StorageDep,
    poll_cache: PollCacheDep,
    task_watcher: TaskWatcherDep,
    principal: CurrentPrincipal,
    taskIds: Annotated[
        str,
        Query(max_length=MAX_POLLED * 70, description='JSON array of task ids, e.g. ["a","b"]'),
    ],
    since: Annotated[
        str | None,
        Query(
            max_length=4000,
            description="The tasks' state as last seen: `status:progress` of each task, in the "
            'order of taskIds, comma-joined (e.g. "running:40,queued:0"). With waitMs, the '
            "answer waits until a task differs from it.",
        ),
    ] = None,
    waitMs: Annotated[
        int,
        Query(
            ge=0,
            le=int(MAX_WAIT_SECONDS * 1000),
            description="Long polling: wait up to this long for a change from `since`.",
        ),
    ] = 0,
) -> Response:
    """Status, progress (0-100), outputs and error of each task, in the order asked."""
    ids = _parse_ids(taskIds)
    cache = poll_cache
    key = cache.key(request.scope) if cache is not None and cache.enabled else None
    if key is not None and cache is not None:
        # A plain poll: read the database's version first, then the answer, and keep the
        # answer for repeats until the version moves on (api/poll_cache.py).
        version = cache.version()
        body = _body(await run_in_threadpool(_views, sessions, storage, principal, ids))
        if version is not None:
            cache.put(key, version, body)
        return Response(body, media_type="application/json")
    waits = since is not None and waitMs > 0
    if waits and await run_in_threadpool(_state, sessions, principal, ids) == since:
        with LONG_POLLS_WAITING.track_inprogress():
            await task_watcher.wait(ids, since or "", waitMs / 1000)
    body = _body(await run_in_threadpool(_views, sessions, storage, principal, ids))
    return Response(body, media_type="application/json")


@router.post(
    "/{taskId}/placement",
    response_model=Envelope[RerenderView],
    responses={
        404: {"model": ErrorBody, "description": "No such image of yours"},
        409: {"model": ErrorBody, "description": "Not adjustable (not finished, no "
              "background) or the limit of free re-renders reached"},
        422: {"model": ErrorBody, "description": "A value out of range"},
        503: {"model": ErrorBody, "description": "The image service is not reachable"},
    },
)
async def adjust_placement(
    sessions: SessionsDep, settings: SettingsDep, temporal: TemporalDep,
    principal: CurrentPrincipal,
    body: Placement,
    taskId: Annotated[str, Path(min_length=1, max_length=64)],
) -> Envelope[RerenderView]:
    """Re-render a finished image with the subject moved and scaled over its background, free
    of charge: a new task of the same generation (follow it with pollTasks; it shows in the
    generation as another version, `sourceTaskId` naming the original). The placement is
    relative to the engine's own, whichever version `taskId` names."""
    placement = checked_placement(body.x, body.y, body.scale)
    rerenders = Rerenders(sessions, settings, temporal)
    done = await to_thread.run_sync(rerenders.request, principal, taskId, placement)
    return Envelope(
        data=RerenderView(
            taskId=done.task_id,
            serviceId=done.generation_id,
            sourceTaskId=done.source_task_id,
            remaining=done.remaining,
        )
    )
