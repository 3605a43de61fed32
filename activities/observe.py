"""What every activity's run leaves behind: log lines that name its generation, and a Sentry
report when it fails.

`ActivityObserver` is a Temporal worker interceptor (the worker's composition root, ops/worker.py,
installs it). For the duration of an activity it binds to the log context
(core/observability/logs.py) the workflow id, the activity type, the attempt and, from the
activity's input, `service_id` (its `generation_id`) and `account_id`; so every line the activity
logs, in its thread too, carries them, next to the trace id of the activity's span. It logs one line
when the activity ends (INFO for a generation's activities, DEBUG for the schedules' chores) and
reports a failure to Sentry with the workflow id, activity type and attempt as tags. A non-retryable
ApplicationError is a decided outcome (input rejected, credits short), not a fault: logged, not
reported.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any

from temporalio import activity
from temporalio.exceptions import ApplicationError, CancelledError
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from core.observability.error_reports import report_exception
from core.observability.logs import log_context

log = logging.getLogger("activities")


def input_fields(args: Sequence[Any]) -> dict[str, str]:
    """service_id and account_id from an activity's input dataclass, when it has them."""
    fields: dict[str, str] = {}
    for arg in args:
        generation_id = getattr(arg, "generation_id", None)
        if generation_id and "service_id" not in fields:
            fields["service_id"] = str(generation_id)
        account_id = getattr(arg, "account_id", None)
        if account_id and "account_id" not in fields:
            fields["account_id"] = str(account_id)
    return fields


def is_fault(error: BaseException) -> bool:
    """Whether a failure is worth a report: not a cancellation, not a decided outcome."""
    if isinstance(error, asyncio.CancelledError | CancelledError):
        return False
    return not (isinstance(error, ApplicationError) and error.non_retryable)


class ActivityObserver(Interceptor):
    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _ObservedActivity(next)


class _ObservedActivity(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        info = activity.info()
        fields = input_fields(input.args)
        tags = {
            "workflow_id": info.workflow_id or "",
            "activity_type": info.activity_type,
            "attempt": str(info.attempt),
            "task_queue": info.task_queue,
        }
        started = time.monotonic()
        with log_context(**tags, **fields) as bound:
            try:
                result = await super().execute_activity(input)
            except BaseException as error:
                took = round((time.monotonic() - started) * 1000)
                fault = is_fault(error)
                log.log(
                    logging.WARNING if fault else logging.INFO,
                    "activity %s failed on attempt %d: %s",
                    info.activity_type,
                    info.attempt,
                    error,
                    extra={"duration_ms": took, "error_type": type(error).__name__},
                )
                if fault:
                    context = {**bound, "workflow_type": info.workflow_type or ""}
                    report_exception(error, {**tags, **fields}, context)
                raise
            log.log(
                logging.INFO if "service_id" in fields else logging.DEBUG,
                "activity %s done",
                info.activity_type,
                extra={"duration_ms": round((time.monotonic() - started) * 1000)},
            )
            return result
