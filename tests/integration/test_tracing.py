"""One trace per generation, end to end, on the real stack with the file exporter: the
browser's traceparent → the API's span → the workflow start → the workflow and every activity
(with the engine's stages) → database and storage calls; the trace id in the response's
`traceresponse`, on the generation's row and in the admin lookup; `python -m ops.trace`."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from core.enums import UserRole
from core.models.generations import Generation
from core.settings import Settings
from ops import trace as trace_cli
from ops.admin import set_role
from tests.support.accounts import sign_up
from tests.support.api_client import Guest
from tests.support.paths import REPO, fixture_images
from tests.support.stacks import running_stack, sessions_for

ACTIVITIES = ("verify_uploads", "charge_credits", "run_imaging", "notify")


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Settings]:
    with running_stack(tmp_path_factory.mktemp("tracing"), otel_exporter="file") as running:
        yield running.settings


def spans_of(directory: Path, trace_id: str, until: float) -> list[trace_cli.Span]:
    """The trace's spans once the last activity's span has reached the files (each process
    writes its batch within about a second)."""
    while True:
        spans = [s for s in trace_cli.read_spans(directory) if s.trace_id == trace_id]
        names = {s.name for s in spans}
        if all(f"RunActivity:{a}" in names for a in ACTIVITIES) or time.monotonic() > until:
            return spans
        time.sleep(0.3)


def test_one_generation_is_one_trace(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    key = guest.upload(fixture_images("people")[0].read_bytes())
    backgrounds = guest.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    # The browser starts the trace (web/src/lib/traceparent.ts).
    browser_trace, browser_span = uuid.uuid4().hex, uuid.uuid4().hex[:16]
    submitted = guest.post(
        "/imageedit/service/burstreplace",
        data={"inputFiles": [key], "backgroundId": background_id},
        headers={"traceparent": f"00-{browser_trace}-{browser_span}-01"},
    )
    assert submitted.status_code == 200, submitted.text
    generation_id = submitted.json()["data"]["serviceId"]
    match = re.fullmatch(r"00-([0-9a-f]{32})-([0-9a-f]{16})-01", submitted.headers["traceresponse"])
    assert match is not None
    trace_id, api_span_id = match.groups()
    assert trace_id == browser_trace
    assert guest.wait_generation(generation_id)["status"] == "completed"

    # Every other response names its own trace too.
    other = guest.get("/imageedit/service/all")
    assert re.fullmatch(r"00-[0-9a-f]{32}-[0-9a-f]{16}-01", other.headers["traceresponse"])
    assert other.headers["traceresponse"][3:35] != trace_id

    with sessions_for(stack.resolved_database_url) as sessions, sessions() as session:
        row = session.get(Generation, generation_id)
        assert row is not None and row.trace_id == trace_id

    spans = spans_of(stack.data_dir / "traces", trace_id, time.monotonic() + 20)
    names = {s.name for s in spans}
    by_id = {s.span_id: s for s in spans}
    api_span = by_id[api_span_id]
    assert api_span.name == "POST /imageedit/service/{service}" or api_span.name.startswith(
        "POST /imageedit/service/"
    )
    assert api_span.parent_id == browser_span and api_span.service == "metamodel-api"
    assert api_span.attributes["generation.id"] == generation_id
    assert "StartWorkflow:Generation" in names
    assert "RunWorkflow:Generation" in names
    for activity in ACTIVITIES:
        assert f"RunActivity:{activity}" in names, sorted(names)
    services = {s.name: s.service for s in spans}
    assert services["RunWorkflow:Generation"] == "metamodel-worker"
    assert services["RunActivity:run_imaging"] == "metamodel-imaging"
    # The engine's stages under the imaging activity.
    imaging = next(s for s in spans if s.name == "RunActivity:run_imaging")
    stages = [s for s in spans if s.parent_id == imaging.span_id and s.name.startswith("engine: ")]
    assert stages, sorted(names)
    # Database and storage calls inside the activities, in the same trace.
    database = [s for s in spans if "db.system" in s.attributes]
    storage = [s for s in spans if "http.method" in s.attributes and s.service != "metamodel-api"]
    assert database and storage, sorted(names)
    assert any(s.service == "metamodel-imaging" for s in storage)
    # Every span hangs from the API's span (the browser's is not in the files).
    roots = trace_cli.build_tree(spans)
    assert [r.span_id for r in roots] == [api_span_id]

    # The runbook's command prints the tree.
    env = {**os.environ, "DATA_DIR": str(stack.data_dir),
           "DATABASE_URL": stack.resolved_database_url}
    printed = subprocess.run(
        [sys.executable, "-m", "ops.trace", generation_id],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=True,
    ).stdout
    lines = printed.splitlines()
    assert lines[0].startswith(f"trace {trace_id} (")
    assert lines[1].startswith("POST /imageedit/service/") and "[metamodel-api]" in lines[1]
    for name in ("RunWorkflow:Generation", *(f"RunActivity:{a}" for a in ACTIVITIES)):
        assert any(line.strip().startswith(name + "  ") for line in lines), printed
    assert re.search(r"RunActivity:run_imaging  \d+\.\d ms  \[metamodel-imaging\]", printed)


def test_the_admin_lookup_shows_the_trace(stack: Settings) -> None:
    guest = Guest(stack.app_url)
    key = guest.upload(fixture_images("people")[1].read_bytes())
    backgrounds = guest.get("/imageedit/seed", type="background", pagenum=1, pagesize=18)
    background_id = backgrounds.json()["data"]["items"][2]["_id"]
    submitted = guest.submit("burstreplace", [key], backgroundId=background_id)
    assert submitted.status_code == 200, submitted.text
    generation_id = submitted.json()["data"]["serviceId"]
    with httpx.Client(base_url=stack.app_url, timeout=60) as api, sessions_for(
        stack.resolved_database_url
    ) as db:
        email = f"ops-{uuid.uuid4().hex[:8]}@example.com"
        admin = sign_up(api, db, email)
        assert set_role(db, email, UserRole.ADMIN)
        found = api.get("/api/v1/admin/generations", params={"serviceId": generation_id},
                        headers={"Authorization": f"Bearer {admin}"}).json()["data"]["items"]
    assert [f["traceId"] for f in found] == [submitted.headers["traceresponse"][3:35]]
