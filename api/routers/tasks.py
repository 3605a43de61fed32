"""Task polling: what the browser calls while it shows progress."""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Query
from sqlalchemy import select

from api.deps import CurrentPrincipal, ServicesDep
from api.errors import ApiError
from api.generations import task_view
from api.schemas import Envelope, TaskView
from core.models import Generation, Task

router = APIRouter(prefix="/api/v1/task", tags=["tasks"])

MAX_POLLED = 100


def _parse_ids(raw: str) -> list[str]:
    try:
        ids = json.loads(raw)
    except json.JSONDecodeError:
        ids = None
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
        raise ApiError(422, 'taskIds: give a JSON array of task ids, like ["id1","id2"].')
    if not ids or len(ids) > MAX_POLLED:
        raise ApiError(422, f"taskIds: give between 1 and {MAX_POLLED} task ids.")
    return list(dict.fromkeys(ids))


@router.get("/pollTasks", response_model=Envelope[list[TaskView]])
def poll_tasks(
    services: ServicesDep,
    principal: CurrentPrincipal,
    taskIds: Annotated[str, Query(description='JSON array of task ids, e.g. ["a","b"]')],
) -> Envelope[list[TaskView]]:
    """Status, progress (0-100), outputs and error of each task, in the order asked."""
    ids = _parse_ids(taskIds)
    with services.sessions() as session:
        rows = session.execute(
            select(Task)
            .join(Generation, Generation.id == Task.generation_id)
            .where(Task.id.in_(ids), Generation.account_id == principal.account_id)
        ).scalars()
        found = {task.id: task for task in rows}
    missing = [i for i in ids if i not in found]
    if missing:
        raise ApiError(404, f"Task {missing[0]} was not found.")
    return Envelope(data=[task_view(services.storage, found[i]) for i in ids])
