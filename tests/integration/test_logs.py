"""Log lines on the real stack: after one generation, the API's, the orchestration worker's and
the imaging worker's log files (data_dir/logs) each hold JSON lines naming that generation with a
trace id, one trace id is shared across processes, and the user's e-mail is in no line."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from core.settings import Settings
from ops.stack import Stack
from tests.support.accounts import sign_up
from tests.support.api_client import Guest
from tests.support.paths import fixture_images
from tests.support.stacks import sessions_for

# The stack's log files, by the name ops/stack.py gives each child.
PROCESSES = {"api": "api", "worker": "orchestration-worker", "imaging": "imaging-worker"}
FIELDS = ("timestamp", "level", "process", "logger", "message")


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Settings:
    """The run's shared stack (tests/conftest.py): each test here makes its own guests and
    accounts and looks only at those."""
    return shared_stack.settings


def json_lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a log file (the supervisor's notes and a worker's "ready" are not)."""
    lines = []
    for raw in path.read_text(errors="replace").splitlines():
        if raw.startswith("{"):
            lines.append(json.loads(raw))
    return lines


def lines_for(stack: Settings, generation_id: str) -> dict[str, list[dict[str, Any]]]:
    logs = stack.data_dir / "logs"
    return {
        name: [line for line in json_lines(logs / f"{name}.log")
               if line.get("service_id") == generation_id]
        for name in PROCESSES
    }


def test_every_process_logs_the_generation_with_its_trace_and_no_email(stack: Settings) -> None:
    email = f"logs-{uuid.uuid4().hex[:8]}@example.com"
    fingerprint = uuid.uuid4().hex
    guest = Guest(stack.app_url, fingerprint)
    key = guest.upload(fixture_images("people")[0].read_bytes())
    backgrounds = guest.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    submitted = guest.submit("burstreplace", [key], backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    generation_id = submitted.json()["data"]["serviceId"]
    # The guest asks for the result by mail: the address passes through the API and the
    # worker's notify step (which logs that it queued the mail).
    asked = guest.post("/imageedit/service/updateguestemail",
                       json={"email": email, "serviceId": generation_id})
    assert asked.status_code == 200, asked.text
    guest.wait(submitted.json()["data"]["taskIds"])
    assert guest.wait_generation(generation_id)["status"] == "completed"
    # The guest signs up with that address and reads the generation as a user.
    with (sessions_for(stack.resolved_database_url) as db,
          httpx.Client(base_url=stack.app_url, timeout=60) as api):
        api.headers["x-fingerprint-id"] = fingerprint
        guest.token = sign_up(api, db, email)
    assert guest.get(f"/imageedit/service/{generation_id}").status_code == 200

    # Each line is written as it happens; the notify step's may land just after the status.
    deadline = time.monotonic() + 20
    found = lines_for(stack, generation_id)
    while time.monotonic() < deadline and not all(
        any("trace_id" in line for line in lines) for lines in found.values()
    ):
        time.sleep(0.5)
        found = lines_for(stack, generation_id)

    traces: dict[str, set[str]] = {}
    for name, process in PROCESSES.items():
        lines = found[name]
        assert lines, f"no line of {name}.log names generation {generation_id}"
        for line in lines:
            assert all(field in line for field in FIELDS), line
            assert line["process"] == process, line
        traced = [line for line in lines if "trace_id" in line]
        assert traced, f"{name}.log names {generation_id} but with no trace id: {lines[:3]}"
        assert all(len(line["trace_id"]) == 32 and len(line["span_id"]) == 16 for line in traced)
        traces[name] = {line["trace_id"] for line in traced}
    # The API's submit line starts the generation's trace; the workers' lines continue it.
    (submit,) = [line for line in found["api"] if line["message"] == "generation submitted"]
    assert submit["account_id"]
    sharing = [name for name, ids in traces.items() if submit["trace_id"] in ids]
    assert len(sharing) >= 2, (submit["trace_id"], traces)
    assert set(sharing) == set(PROCESSES), (submit["trace_id"], traces)
    # The activities' lines also carry the workflow and the attempt.
    done = [line for line in found["imaging"] if line["message"].startswith("activity ")]
    assert done and all(line["workflow_id"] and line["attempt"] for line in done)
    # And the account whose image it is, the same one the API named.
    assert all(line.get("account_id") == submit["account_id"] for line in done), done

    # Not one line, JSON or not, of any process carries the address.
    for path in (stack.data_dir / "logs").glob("*.log"):
        assert email not in path.read_text(errors="replace"), path.name
