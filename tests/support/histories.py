"""Recorded workflow histories (tests/integration/histories/*.json), replayed by
tests/integration/test_workflow.py with today's code: a workflow runs unsandboxed or keeps state
across continue-as-new, so a change that is not deterministic against histories already in
production must fail a test, not a deployment.

They are recorded from real runs in the test modules that drive each workflow: run those modules
with RECORD_HISTORIES=1 and commit the files that changed, after checking why they did.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from temporalio.client import Client, WorkflowHistory
from temporalio.worker import Replayer

HISTORIES = Path(__file__).resolve().parent.parent / "integration" / "histories"


def recording() -> bool:
    return os.environ.get("RECORD_HISTORIES") == "1"


def record(name: str, history: WorkflowHistory) -> None:
    """Keep `history` as histories/{name}.json when recording (RECORD_HISTORIES=1)."""
    if recording():
        (HISTORIES / f"{name}.json").write_text(history.to_json())


async def replay_every_run(
    client: Client, workflow_type: str, workflows: Sequence[type]
) -> tuple[int, WorkflowHistory | None]:
    """Replay every run of `workflow_type` on the test's Temporal server with today's code;
    the number of runs and the longest history (the one worth recording)."""
    replayer = Replayer(workflows=workflows)
    runs = 0
    longest: WorkflowHistory | None = None
    async for execution in client.list_workflows(f"WorkflowType = '{workflow_type}'"):
        history = await client.get_workflow_handle(
            execution.id, run_id=execution.run_id).fetch_history()
        await replayer.replay_workflow(history)
        runs += 1
        if longest is None or len(history.events) > len(longest.events):
            longest = history
    return runs, longest
