"""Activity failures reach Sentry (a local HTTP server standing in for its ingest) with the
workflow id, activity type and attempt as tags, and without the e-mail address in the error."""

from __future__ import annotations

import gzip
import json
import threading
import uuid
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
import sentry_sdk
from temporalio import activity, workflow
from temporalio.client import Client, WorkflowFailureError
from temporalio.common import RetryPolicy
from temporalio.exceptions import ApplicationError
from temporalio.worker import UnsandboxedWorkflowRunner, Worker

from activities.observe import ActivityObserver
from core.observability.error_reports import release_name, setup_error_reports
from core.settings import Settings

EMAIL = "bob.jones@example.org"


@dataclass
class Job:
    generation_id: str
    account_id: str
    reject: bool = False


@activity.defn(name="test_explode")
def explode(job: Job) -> None:
    if job.reject:
        raise ApplicationError(f"{EMAIL} sent an unusable photo", non_retryable=True)
    raise RuntimeError(f"could not mail the result to {EMAIL}")


@workflow.defn(name="TestExplode")
class ExplodeWorkflow:
    @workflow.run
    async def run(self, job: Job) -> None:
        await workflow.execute_activity(
            "test_explode",
            job,
            start_to_close_timeout=timedelta(seconds=10),
            retry_policy=RetryPolicy(initial_interval=timedelta(milliseconds=50),
                                     maximum_attempts=2),
        )


class Ingest:
    """Collects the events of the envelopes the SDK posts."""

    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.raw: list[bytes] = []
        ingest = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                encoding = self.headers.get("Content-Encoding", "")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "deflate":
                    body = zlib.decompress(body)
                elif encoding == "br":
                    import brotli  # type: ignore[import-not-found]

                    body = brotli.decompress(body)
                ingest.raw.append(body)
                ingest.events.extend(envelope_events(body))
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *_args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def envelope_events(body: bytes) -> list[dict[str, Any]]:
    """The `event` items of a Sentry envelope (header line, then item header + payload)."""
    lines = body.split(b"\n")
    events = []
    index = 1
    while index + 1 < len(lines):
        header = json.loads(lines[index]) if lines[index].strip() else {}
        payload = lines[index + 1]
        if header.get("type") == "event":
            events.append(json.loads(payload))
        index += 2
    return events


@pytest.fixture
def ingest() -> Iterator[Ingest]:
    server = Ingest()
    yield server
    server.close()


@pytest.fixture
def sentry_on(settings: Settings, ingest: Ingest) -> Iterator[Settings]:
    configured = settings.model_copy(
        update={"sentry_dsn": f"http://publickey@127.0.0.1:{ingest.port}/1",
                "environment": "development", "release": "metamodel@test-release"}
    )
    assert setup_error_reports(configured, "test-worker")
    yield configured
    # Off again for the rest of the run.
    sentry_sdk.get_client().close(timeout=5)
    sentry_sdk.get_global_scope().set_client(None)
    assert not sentry_sdk.is_initialized()


async def run_job(temporal: Client, settings: Settings, job: Job) -> str:
    workflow_id = f"explode-{uuid.uuid4().hex[:8]}"
    async with Worker(
        temporal,
        task_queue=settings.task_queue,
        workflows=[ExplodeWorkflow],
        activities=[explode],
        activity_executor=ThreadPoolExecutor(2),
        workflow_runner=UnsandboxedWorkflowRunner(),
        interceptors=[ActivityObserver()],
    ):
        with pytest.raises(WorkflowFailureError):
            await temporal.execute_workflow(
                ExplodeWorkflow.run, job, id=workflow_id, task_queue=settings.task_queue
            )
    sentry_sdk.flush(5)
    return workflow_id


async def test_an_activity_failure_is_reported_with_its_tags_and_no_email(
    temporal: Client, sentry_on: Settings, ingest: Ingest
) -> None:
    job = Job(generation_id=f"gen-{uuid.uuid4().hex[:8]}", account_id="acc-42")
    workflow_id = await run_job(temporal, sentry_on, job)

    events = [e for e in ingest.events if e.get("tags", {}).get("workflow_id") == workflow_id]
    # One report per failed attempt.
    assert sorted(e["tags"]["attempt"] for e in events) == ["1", "2"]
    for event in events:
        tags = event["tags"]
        assert tags["activity_type"] == "test_explode"
        assert tags["service_id"] == job.generation_id
        assert tags["account_id"] == "acc-42"
        assert event["release"] == "metamodel@test-release"
        assert event["environment"] == "development"
        assert "ip_address" not in event.get("user", {})
        (error,) = event["exception"]["values"]
        assert error["type"] == "RuntimeError"
        assert error["value"] == "could not mail the result to [email]"
    assert events, "no event reached the stand-in ingest"
    assert all(EMAIL.encode() not in raw for raw in ingest.raw)


async def test_a_decided_outcome_is_not_reported(
    temporal: Client, sentry_on: Settings, ingest: Ingest
) -> None:
    job = Job(generation_id=f"gen-{uuid.uuid4().hex[:8]}", account_id="acc-43", reject=True)
    workflow_id = await run_job(temporal, sentry_on, job)
    assert not [e for e in ingest.events if e.get("tags", {}).get("workflow_id") == workflow_id]


def test_release_defaults_to_the_git_commit_or_the_version(settings: Settings) -> None:
    name = release_name(settings.model_copy(update={"release": ""}))
    assert name.startswith("metamodel@") and len(name) > len("metamodel@")
    assert release_name(settings.model_copy(update={"release": "v9"})) == "v9"
