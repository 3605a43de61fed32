"""mm_activity_retries_total on a real Temporal dev server: an activity that fails twice, then
succeeds, is counted as two retries; one that succeeds at once adds nothing. The worker is
built as ops/worker.py builds it (the ActivityMetrics interceptor, the Prometheus runtime)."""

from __future__ import annotations

import time
import uuid
from datetime import timedelta

import httpx
from prometheus_client.parser import text_string_to_metric_families
from temporalio import activity, workflow
from temporalio.client import Client
from temporalio.common import RetryPolicy
from temporalio.worker import Worker

from core.observability.metrics import ActivityMetrics, worker_runtime
from core.settings import Settings
from ops.stack import free_port

FAILURES_BEFORE_SUCCESS = 2
_calls: dict[str, int] = {}


@activity.defn(name="flaky_step")
async def flaky_step(key: str) -> int:
    """Fails its first FAILURES_BEFORE_SUCCESS attempts of `key` (a transient error)."""
    _calls[key] = _calls.get(key, 0) + 1
    if activity.info().attempt <= FAILURES_BEFORE_SUCCESS and key.startswith("flaky"):
        raise RuntimeError("storage is restarting")
    return activity.info().attempt


@workflow.defn(name="RetryCounting", sandboxed=False)
class RetryCounting:
    @workflow.run
    async def run(self, key: str) -> int:
        attempts: int = await workflow.execute_activity(
            flaky_step,
            key,
            start_to_close_timeout=timedelta(seconds=10),
            retry_policy=RetryPolicy(initial_interval=timedelta(milliseconds=50),
                                     backoff_coefficient=1.0, maximum_attempts=5),
        )
        return attempts


def retries(url: str) -> float:
    text = httpx.get(url, timeout=10).text
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "mm_activity_retries_total"
        and sample.labels.get("activity_type") == "flaky_step"
    )


def eventually_retries(url: str, want: float, timeout: float = 15) -> float:
    """The counter once it reads `want` (the SDK's exporter may lag a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        seen = retries(url)
        if seen == want or time.monotonic() > deadline:
            return seen
        time.sleep(0.2)


async def test_retries_are_counted_per_attempt_after_the_first(servers: Settings) -> None:
    port = free_port()
    runtime = worker_runtime(f"127.0.0.1:{port}", "test")
    client = await Client.connect(servers.temporal_address, runtime=runtime)
    queue = f"retries-{uuid.uuid4().hex[:8]}"
    url = f"http://127.0.0.1:{port}/metrics"
    async with Worker(client, task_queue=queue, workflows=[RetryCounting],
                      activities=[flaky_step], interceptors=[ActivityMetrics()]):
        steady = await client.execute_workflow(
            RetryCounting.run, "steady", id=f"steady-{queue}", task_queue=queue)
        assert steady == 1
        assert eventually_retries(url, 0, timeout=2) == 0

        flaky = await client.execute_workflow(
            RetryCounting.run, "flaky", id=f"flaky-{queue}", task_queue=queue)
        assert flaky == FAILURES_BEFORE_SUCCESS + 1
        assert _calls["flaky"] == FAILURES_BEFORE_SUCCESS + 1
        assert eventually_retries(url, FAILURES_BEFORE_SUCCESS) == FAILURES_BEFORE_SUCCESS
