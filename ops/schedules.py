"""Recurring housekeeping as Temporal schedules: each one starts a short workflow every interval.

The orchestration worker calls `ensure_schedule` for each at start-up; a schedule that already
exists is updated in place, so every worker can do it and a restart changes nothing. Temporal
keeps one run at a time (overlap: skip), so two workers never sweep at once.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from temporalio.client import (
    Client,
    Schedule,
    ScheduleActionStartWorkflow,
    ScheduleAlreadyRunningError,
    ScheduleIntervalSpec,
    SchedulePolicy,
    ScheduleSpec,
    ScheduleUpdate,
    ScheduleUpdateInput,
)
from temporalio.client import ScheduleOverlapPolicy as Overlap


async def ensure_schedule(
    client: Client,
    schedule_id: str,
    workflow: str,
    arg: Any,
    *,
    every: timedelta,
    task_queue: str,
    run_timeout: timedelta = timedelta(minutes=5),
) -> None:
    """Create the schedule, or bring an existing one up to date with these settings."""
    schedule = Schedule(
        action=ScheduleActionStartWorkflow(
            workflow,
            arg,
            id=f"{schedule_id}-run",
            task_queue=task_queue,
            run_timeout=run_timeout,
        ),
        spec=ScheduleSpec(intervals=[ScheduleIntervalSpec(every=every)]),
        policy=SchedulePolicy(overlap=Overlap.SKIP),
    )
    try:
        await client.create_schedule(schedule_id, schedule)
    except ScheduleAlreadyRunningError:

        def replace(_: ScheduleUpdateInput) -> ScheduleUpdate:
            return ScheduleUpdate(schedule=schedule)

        await client.get_schedule_handle(schedule_id).update(replace)
