"""Bodies of the task routes' re-renders (api/routers/tasks.py)."""

from __future__ import annotations

from api.schemas.common import Schema


class RerenderView(Schema):
    """A re-render just asked for: a new task of the same generation, followed like the
    others (GET /api/v1/task/pollTasks)."""

    taskId: str
    serviceId: str
    sourceTaskId: str
    # Re-renders of the original image still allowed (they are free, so bounded).
    remaining: int
