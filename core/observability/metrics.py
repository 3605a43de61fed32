"""Our metrics in the worker processes: names, and how workflows and activities record them.

They go through the Temporal SDK's metric meter (`workflow.metric_meter()`,
`activity.metric_meter()`), so they come out of the same Prometheus endpoint as the SDK's own
runtime metrics (task latencies, schedule-to-start, slots), one port per worker process
(ORCHESTRATION_METRICS_PORT, IMAGING_METRICS_PORT; see `worker_runtime`). Two reasons for the
meter over a second prometheus_client endpoint: one scrape target per worker, and the
workflow's meter records nothing while a workflow replays its history, so counts made in the
workflow (generations, credits) are exact, never doubled by a replay after a restart.
Outside a workflow or activity (unit tests calling an activity method directly) every helper
records nothing.

Series (the Prometheus exporter adds `_total` to counters); the README's "Service levels"
section builds its queries on them:

- mm_generations_total{service, outcome}: outcome `completed` (every image delivered),
  `rejected` (not all delivered, and only for the person's own reasons: unusable input,
  missing credits, the quality gate), `failed` (at least one image lost to our side).
- mm_images_total{service, outcome}: the same per image (`delivered`, `rejected`, `failed`).
- mm_credits_charged_total{service}, mm_credits_refunded_total{service}.
- mm_engine_stage_seconds{service, stage}: engine time per reported stage (histogram).
- mm_first_progress_seconds{service}: from submit (the generation's created_at) to the
  imaging activity's first progress on a task (histogram; the first SLO).
- mm_activity_retries_total{activity_type}: activity attempts after the first.
- mm_quality_gate_rejections_total{activity_type, reason}: activities failed with a
  non-retryable input error (InputRejected, EngineRejected).
- metamodel_reconciliation_mismatches_total{kind}: mismatches the reconciliation job finds
  (ledger sums vs balances vs delivered images), counted by activities/reconciliation.py on
  the same meter; any increase breaks the charge correctness SLO.

(The SDK's meter adds namespace, task_queue and workflow_type / activity_type labels.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from temporalio import activity, workflow
from temporalio.common import MetricMeter
from temporalio.exceptions import ApplicationError
from temporalio.runtime import PrometheusConfig, Runtime, TelemetryConfig
from temporalio.worker import (
    ActivityInboundInterceptor,
    ExecuteActivityInput,
    Interceptor,
)

from core.contracts.generation import FailureType

GENERATIONS = "mm_generations"
IMAGES = "mm_images"
CREDITS_CHARGED = "mm_credits_charged"
CREDITS_REFUNDED = "mm_credits_refunded"
ENGINE_STAGE_SECONDS = "mm_engine_stage_seconds"
FIRST_PROGRESS_SECONDS = "mm_first_progress_seconds"
ACTIVITY_RETRIES = "mm_activity_retries"
QUALITY_GATE_REJECTIONS = "mm_quality_gate_rejections"
# Counted by activities/reconciliation.py (its name, kept here for the README's queries).
RECONCILIATION_MISMATCHES = "metamodel_reconciliation_mismatches"

# Error types of a failure that is the input's, not ours (see core/contracts/generation.py).
QUALITY_GATE_ERRORS: frozenset[str] = frozenset(
    {FailureType.INPUT_REJECTED, FailureType.ENGINE_REJECTED}
)

# Seconds. The first-progress SLO is p95 ≤ 1 s: fine buckets around it.
FIRST_PROGRESS_BUCKETS = (0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0)
ENGINE_STAGE_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 120.0)


def worker_runtime(bind_address: str, queues: str) -> Runtime:
    """A Temporal runtime whose metrics (the SDK's and ours) are served for Prometheus at
    `http://<bind_address>/metrics`. Counters end in `_total`, durations are in seconds."""
    return Runtime(
        telemetry=TelemetryConfig(
            metrics=PrometheusConfig(
                bind_address=bind_address,
                counters_total_suffix=True,
                durations_as_seconds=True,
                histogram_bucket_overrides={
                    FIRST_PROGRESS_SECONDS: list(FIRST_PROGRESS_BUCKETS),
                    ENGINE_STAGE_SECONDS: list(ENGINE_STAGE_BUCKETS),
                },
            ),
            global_tags={"queues": queues},
        )
    )


def _activity_meter() -> MetricMeter:
    return activity.metric_meter() if activity.in_activity() else MetricMeter.noop


def _count(meter: MetricMeter, name: str, description: str, value: int, **labels: str) -> None:
    if value > 0:
        meter.create_counter(name, description).add(value, {k: str(v) for k, v in labels.items()})


def record_engine_load(runtime: Runtime | None, report: dict[str, Any]) -> None:
    """The imaging engine's start-up report as gauges on this process's metrics, labelled with
    the engine, device and dtype: mm_engine_model_memory_bytes (the loaded models), and
    mm_engine_load_seconds and mm_engine_warm_up_seconds (how long the worker took before
    polling)."""
    meter = (runtime or Runtime.default()).metric_meter
    labels = {name: str(report.get(name, "")) for name in ("engine", "device", "dtype")}
    meter.create_gauge(
        "mm_engine_model_memory_bytes", "Memory held by the engine's loaded models", "By"
    ).set(int(report.get("memory_bytes", 0)), labels)
    for name in ("load_seconds", "warm_up_seconds"):
        meter.create_gauge_float(
            f"mm_engine_{name}", f"The engine's {name.replace('_', ' ')} at start", "s"
        ).set(float(report.get(name, 0.0)), labels)


# In workflow code (replay-safe: the workflow's meter skips replays).


def record_generation(
    service: str, outcome: str, delivered: int, rejected: int, failed: int
) -> None:
    meter = workflow.metric_meter()
    _count(
        meter,
        GENERATIONS,
        "Generations by service and outcome",
        1,
        service=service,
        outcome=outcome,
    )
    for image_outcome, count in (
        ("delivered", delivered),
        ("rejected", rejected),
        ("failed", failed),
    ):
        _count(
            meter,
            IMAGES,
            "Images by service and outcome",
            count,
            service=service,
            outcome=image_outcome,
        )


def record_charge(service: str, credits: int) -> None:
    _count(workflow.metric_meter(), CREDITS_CHARGED, "Credits charged", credits, service=service)


def record_refund(service: str, credits: int) -> None:
    _count(workflow.metric_meter(), CREDITS_REFUNDED, "Credits refunded", credits, service=service)


# In activity code.


@dataclass
class ImagingMetrics:
    """Engine time per stage and the first progress of one imaging activity. Captures the
    activity's meter when made, so the engine may report from any thread."""

    service: str
    meter: MetricMeter
    # The engine's current stage and when it began (time.monotonic()).
    _stage: tuple[str, float] | None = None

    @classmethod
    def current(cls, service: str) -> ImagingMetrics:
        return cls(service, _activity_meter())

    def report(self, stage: str) -> None:
        """The engine reports `stage`: a new one ends the one before."""
        if self._stage is None or self._stage[0] != stage:
            self.close()
            self._stage = (stage, time.monotonic())

    def close(self) -> None:
        """The engine is done: the last stage ends."""
        if self._stage is not None:
            stage, began = self._stage
            self._stage = None
            self.stage(stage, time.monotonic() - began)

    def first_progress(self, created_at: datetime, now: datetime | None = None) -> None:
        """The task's first progress is visible now; its generation was submitted at
        `created_at` (naive means UTC: SQLite keeps no zone)."""
        if created_at.tzinfo is None:
            created_at = created_at.replace(tzinfo=UTC)
        delay = ((now or datetime.now(UTC)) - created_at).total_seconds()
        self.meter.create_histogram_float(
            FIRST_PROGRESS_SECONDS, "Submit to the first progress of a task", "s"
        ).record(max(delay, 0.0), {"service": str(self.service)})

    def stage(self, stage: str, seconds: float) -> None:
        self.meter.create_histogram_timedelta(ENGINE_STAGE_SECONDS, "Engine time per stage").record(
            timedelta(seconds=max(seconds, 0.0)),
            {"service": str(self.service), "stage": stage[:40]},
        )


class ActivityMetrics(Interceptor):
    """Worker interceptor: counts retries (attempt > 1) and quality-gate rejections of every
    activity, local ones included."""

    def intercept_activity(self, next: ActivityInboundInterceptor) -> ActivityInboundInterceptor:
        return _ActivityCounting(next)


class _ActivityCounting(ActivityInboundInterceptor):
    async def execute_activity(self, input: ExecuteActivityInput) -> Any:
        meter = activity.metric_meter()
        if activity.info().attempt > 1:
            _count(meter, ACTIVITY_RETRIES, "Activity attempts after the first", 1)
        try:
            return await self.next.execute_activity(input)
        except ApplicationError as error:
            if error.non_retryable and error.type in QUALITY_GATE_ERRORS:
                _count(
                    meter,
                    QUALITY_GATE_REJECTIONS,
                    "Activities failed by a rejected input",
                    1,
                    reason=error.type,
                )
            raise
