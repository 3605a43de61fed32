"""The re-render workflow (workflows/rerender.py): a task drawn again with the user's placement."""

from __future__ import annotations

from dataclasses import dataclass, field

from core.contracts.generation import GenerationOptions

# Re-renders with the user's placement adjustment (workflows/rerender.py): one workflow per
# re-render, id `rerender-{taskId}` of the new task; free (no ledger entry at all).

RERENDER_WORKFLOW = "Rerender"
PLAN_RERENDER = "plan_rerender"
FAIL_RERENDER = "fail_rerender"


def rerender_workflow_id(task_id: str) -> str:
    return f"rerender-{task_id}"


@dataclass
class StartRerender:
    """The workflow's input: the new task (recorded by the API before the start)."""

    task_id: str
    generation_id: str
    options: GenerationOptions = field(default_factory=GenerationOptions)


@dataclass
class RerenderRef:
    task_id: str


@dataclass
class FailRerenderInput:
    task_id: str
    reason: str


@dataclass
class RerenderResult:
    status: str  # GenerationStatus: completed | failed
    error: str | None = None
