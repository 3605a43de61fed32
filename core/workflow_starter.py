"""What starting a workflow needs, for the rules that start one (generations, billing, the
catalog check, the photo analysis): temporalio's Client, or the API's reconnecting link."""

from __future__ import annotations

from typing import Any, Protocol


class WorkflowStarter(Protocol):
    """What starting a workflow needs: temporalio's Client, or the API's reconnecting link."""

    async def start_workflow(self, workflow: str, arg: Any, **kwargs: Any) -> Any: ...
