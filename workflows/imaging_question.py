"""A quick question to the imaging queue, whose answer someone waits for (the catalog's people
count, an upload's analysis): one activity there, a few quick attempts, then give up. The photo
was already checked to decode, so a failure is ours, and the caller has an answer for it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar

from temporalio import workflow
from temporalio.common import RetryPolicy

R = TypeVar("R")

QUESTION_TIMEOUT = timedelta(seconds=60)
QUESTION_RETRIES = RetryPolicy(initial_interval=timedelta(seconds=1), maximum_attempts=3)


async def ask_imaging(
    activity: Callable[[Any, Any], R], inp: Any, imaging_task_queue: str
) -> R:
    result: R = await workflow.execute_activity_method(
        activity,
        inp,
        task_queue=imaging_task_queue,
        start_to_close_timeout=QUESTION_TIMEOUT,
        retry_policy=QUESTION_RETRIES,
    )
    return result
