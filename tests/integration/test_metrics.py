"""Prometheus metrics on the real stack: after one generation, the API's /metrics counts it by
route template, and both workers' endpoints serve the Temporal SDK's series and ours."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from core.settings import Settings
from ops.stack import Stack, free_port, private_settings, prometheus_config
from tests.support.api_client import Guest
from tests.support.paths import fixture_images
from tests.support.stacks import running_stack

Samples = list[tuple[str, dict[str, str], float]]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with running_stack(
        tmp_path_factory.mktemp("metrics"),
        orchestration_metrics_port=free_port(),
        imaging_metrics_port=free_port(),
        temporal_metrics_port=free_port(),
    ) as running:
        yield running.settings


@pytest.fixture(scope="module")
def guest(stack: Settings) -> Guest:
    return Guest(stack.app_url)


@pytest.fixture(scope="module")
def generation(guest: Guest) -> dict[str, Any]:
    """One finished background replace of two photos."""
    keys = [guest.upload(path.read_bytes()) for path in fixture_images("people")[:2]]
    backgrounds = guest.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    submitted = guest.submit("burstreplace", keys, backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    guest.wait(submitted.json()["data"]["taskIds"])
    service = guest.wait_generation(submitted.json()["data"]["serviceId"])
    assert service["status"] == "completed", service
    return service


def scrape(url: str) -> Samples:
    response = httpx.get(url, timeout=10)
    assert response.status_code == 200, response.text
    return [
        (sample.name, sample.labels, sample.value)
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    ]


def total(samples: Samples, name: str, **labels: str) -> float:
    return sum(
        value
        for sample, have, value in samples
        if sample == name and all(have.get(k) == v for k, v in labels.items())
    )


def eventually(url: str, ready: Callable[[Samples], bool], timeout: float = 15) -> Samples:
    """The endpoint's samples once `ready` holds (the SDK's exporter may lag a moment)."""
    deadline = time.monotonic() + timeout
    while True:
        samples = scrape(url)
        if ready(samples) or time.monotonic() > deadline:
            return samples
        time.sleep(0.3)


def test_api_metrics_count_routes_by_template(
    stack: Settings, guest: Guest, generation: dict[str, Any]
) -> None:
    samples = scrape(f"{stack.app_url}/metrics")
    names = {name for name, _, _ in samples}
    for name in (
        "mm_http_requests_total",
        "mm_http_request_duration_seconds_bucket",
        "mm_http_requests_in_flight",
        "mm_long_polls_waiting",
    ):
        assert name in names, name
    submit = "/imageedit/service/burstreplace"
    assert total(samples, "mm_http_requests_total", route=submit, method="POST", status="200") == 1
    assert total(samples, "mm_http_request_duration_seconds_count", route=submit) == 1
    assert total(samples, "mm_http_requests_total", route="/api/v1/task/pollTasks") >= 1
    # Templates, never raw paths: the generation's id is in no label.
    routes = {labels.get("route", "") for _, labels, _ in samples}
    assert not any(generation["serviceId"] in route for route in routes)
    assert any("{" in route and route.startswith("/imageedit/service/") for route in routes)


def test_a_waiting_long_poll_is_counted(
    stack: Settings, guest: Guest, generation: dict[str, Any]
) -> None:
    task_ids = [task["taskId"] for task in generation["tasks"]]
    since = ",".join("completed:100" for _ in task_ids)
    poll = threading.Thread(
        target=guest.get,
        args=("/api/v1/task/pollTasks",),
        kwargs={"taskIds": json.dumps(task_ids), "since": since, "waitMs": 3000},
    )
    poll.start()
    try:
        samples = eventually(
            f"{stack.app_url}/metrics",
            lambda s: total(s, "mm_long_polls_waiting") >= 1,
            timeout=2.5,
        )
        assert total(samples, "mm_long_polls_waiting") == 1
        # The poll and this scrape itself.
        assert total(samples, "mm_http_requests_in_flight") >= 2
    finally:
        poll.join()
    assert total(scrape(f"{stack.app_url}/metrics"), "mm_long_polls_waiting") == 0


def test_orchestration_worker_metrics(stack: Settings, generation: dict[str, Any]) -> None:
    url = f"http://127.0.0.1:{stack.orchestration_metrics_port}/metrics"
    samples = eventually(
        url, lambda s: total(s, "mm_generations_total", outcome="completed") >= 1
    )
    names = {name for name, _, _ in samples}
    # The SDK's runtime metrics: workflow task latencies, schedule-to-start, slots.
    assert "temporal_workflow_task_schedule_to_start_latency_bucket" in names
    assert "temporal_worker_task_slots_available" in names
    assert total(
        samples, "mm_generations_total", service="burstreplace", outcome="completed"
    ) == 1
    assert total(samples, "mm_images_total", service="burstreplace", outcome="delivered") == 2
    assert total(samples, "mm_credits_charged_total", service="burstreplace") >= 1
    assert total(samples, "mm_credits_refunded_total") == 0


def test_imaging_worker_metrics(stack: Settings, generation: dict[str, Any]) -> None:
    url = f"http://127.0.0.1:{stack.imaging_metrics_port}/metrics"
    samples = eventually(url, lambda s: total(s, "mm_first_progress_seconds_count") >= 2)
    names = {name for name, _, _ in samples}
    assert "temporal_activity_schedule_to_start_latency_bucket" in names
    assert "temporal_activity_execution_latency_bucket" in names
    # One first progress per image, and engine time for each of the engine's stages.
    assert total(samples, "mm_first_progress_seconds_count", service="burstreplace") == 2
    stages = {
        labels["stage"]
        for name, labels, _ in samples
        if name == "mm_engine_stage_seconds_count" and labels.get("service") == "burstreplace"
    }
    assert "placing on the background" in stages, stages
    # The buckets around the service level (p95 ≤ 1 s).
    assert any(
        name == "mm_first_progress_seconds_bucket" and float(labels["le"]) == 1.0
        for name, labels, _ in samples
    )


def test_temporal_dev_server_metrics_answer(stack: Settings) -> None:
    response = httpx.get(f"http://127.0.0.1:{stack.temporal_metrics_port}/metrics", timeout=10)
    assert response.status_code == 200
    assert "# TYPE" in response.text


def test_prometheus_config_follows_the_ports(stack: Settings) -> None:
    config = prometheus_config(stack)
    for port in (
        stack.app_port,
        stack.orchestration_metrics_port,
        stack.imaging_metrics_port,
        stack.temporal_metrics_port,
    ):
        assert f"'127.0.0.1:{port}'" in config
    for default in (8000, 9101, 9102, 9103):
        assert f":{default}'" not in config


def test_no_prometheus_binary_starts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    stack = Stack(private_settings(tmp_path))
    assert stack.start_prometheus() is False
    assert stack.processes == {}


def test_a_quality_gate_rejection_is_counted_and_refunded(
    stack: Settings, guest: Guest, generation: dict[str, Any]
) -> None:
    """A photo with nobody and nothing in it passes the upload checks, then the engine refuses
    it: one quality-gate rejection on the imaging worker, a `rejected` generation and its
    credits refunded on the orchestration worker."""
    from io import BytesIO

    from PIL import Image

    blank = BytesIO()
    Image.new("RGB", (800, 1000), (128, 128, 128)).save(blank, "JPEG", quality=90)
    key = guest.upload(blank.getvalue())
    submitted = guest.submit("burstreplace", [key], backgroundId="white")
    assert submitted.status_code == 200, submitted.text
    service = guest.wait_generation(submitted.json()["data"]["serviceId"])
    assert service["status"] == "failed", service

    imaging = eventually(
        f"http://127.0.0.1:{stack.imaging_metrics_port}/metrics",
        lambda s: total(s, "mm_quality_gate_rejections_total") >= 1,
    )
    assert total(imaging, "mm_quality_gate_rejections_total") == 1
    orchestration = eventually(
        f"http://127.0.0.1:{stack.orchestration_metrics_port}/metrics",
        lambda s: total(s, "mm_generations_total", outcome="rejected") >= 1,
    )
    assert total(orchestration, "mm_generations_total", service="burstreplace",
                 outcome="rejected") == 1
    assert total(orchestration, "mm_credits_refunded_total", service="burstreplace") >= 1
    # The rejection was final: nothing was retried.
    assert total(imaging, "mm_activity_retries_total") == 0
