"""The imaging worker stops in the middle of the imaging activity: told to (SIGTERM, as a deploy
or a scale-down does), it finishes the render it holds before it exits; killed (SIGKILL), its
render is retried elsewhere. Either way the generation completes and is charged exactly once.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator

import pytest
from sqlalchemy import select
from temporalio.client import Client

from core import credits
from core.db import make_database, make_session_factory
from core.models.accounts import LedgerEntry
from core.models.generations import Generation, GenerationImage
from core.settings import Settings
from ops.stack import Stack, private_settings
from tests.support.api_client import Guest
from tests.support.paths import FIXTURES, fixture_images


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    # A short heartbeat timeout so the dead worker's activity is noticed in seconds.
    settings = private_settings(tmp_path_factory.mktemp("crash"),
                             imaging_heartbeat_timeout_seconds=3.0, imaging_concurrency=1)
    with Stack(settings, log_dir=settings.data_dir / "logs", temporal_ui=False,
               extra_env={"FIXTURES_DIR": str(FIXTURES)}) as running:
        running.start()
        yield running


def _tasks(settings: Settings, task_ids: list[str]) -> list[GenerationImage]:
    database = make_database(settings.resolved_database_url)
    try:
        with make_session_factory(database)() as session:
            return list(session.execute(select(GenerationImage)
                .where(GenerationImage.id.in_(task_ids))).scalars())
    finally:
        database.dispose()


async def _imaging_attempts(settings: Settings, workflow_id: str) -> list[int]:
    """The attempt number of every imaging activity start in the workflow's history."""
    client = await Client.connect(settings.temporal_address)
    history = await client.get_workflow_handle(workflow_id).fetch_history()
    scheduled: dict[int, str] = {}
    attempts = []
    for event in history.events:
        if event.HasField("activity_task_scheduled_event_attributes"):
            attrs = event.activity_task_scheduled_event_attributes
            scheduled[event.event_id] = attrs.activity_type.name
        if event.HasField("activity_task_started_event_attributes"):
            attrs = event.activity_task_started_event_attributes
            if scheduled.get(attrs.scheduled_event_id) == "run_imaging":
                attempts.append(attrs.attempt)
    return attempts


def _wait_mid_render(settings: Settings, task_ids: list[str]) -> list[GenerationImage]:
    """Wait until the engine is at work on some image (between its first and last stage)."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        tasks = _tasks(settings, task_ids)
        if any(t.status == "running" and 10 < t.progress < 95 for t in tasks):
            return tasks
        time.sleep(0.02)
    pytest.fail("the engine never started")


def test_sigterm_mid_imaging_finishes_the_render_before_exiting(stack: Stack) -> None:
    settings = stack.settings
    guest = Guest(settings.app_url)
    keys = [guest.upload(p.read_bytes()) for p in fixture_images("people")[:3]]
    submitted = guest.submit("bodySwap", keys, modelId="model-2", backgroundId="bg-2")
    assert submitted.status_code == 200, submitted.text
    generation_id = submitted.json()["data"]["serviceId"]
    task_ids = submitted.json()["data"]["taskIds"]
    rendering = [t.id for t in _wait_mid_render(settings, task_ids)
                 if t.status == "running" and 10 < t.progress < 95]

    # SIGTERM, as `docker compose stop` or a scale-down sends: the worker polls nothing more and
    # drains what it holds (worker_drain_seconds) instead of cancelling it halfway.
    worker = stack.processes.pop("imaging")
    worker.send_signal(signal.SIGTERM)
    assert worker.wait(timeout=90) == 0, "the imaging worker did not exit cleanly"
    done = {t.id: t.status for t in _tasks(settings, task_ids)}
    assert [done[t] for t in rendering] == ["completed"] * len(rendering), done
    # The worker took no new render while draining (one slot): the others are still waiting.
    assert sum(status == "completed" for status in done.values()) == len(rendering), done

    stack.start_imaging("imaging")
    finished = guest.wait(task_ids, timeout=240)
    assert [t["status"] for t in finished] == ["completed"] * 3, finished
    assert guest.wait_generation(generation_id)["status"] == "completed"
    # No render was started twice: the drained one finished on its first attempt.
    attempts = asyncio.run(_imaging_attempts(settings, generation_id))
    assert attempts == [1, 1, 1], attempts
    assert guest.credits() == guest.start_credits - 3


def test_sigkill_mid_imaging_then_restart_completes_and_charges_once(stack: Stack) -> None:
    settings = stack.settings
    people = fixture_images("people")[:3]
    guest = Guest(settings.app_url)
    keys = [guest.upload(p.read_bytes()) for p in people]
    submitted = guest.submit("bodySwap", keys, modelId="model-2", backgroundId="bg-2")
    assert submitted.status_code == 200, submitted.text
    task_ids = submitted.json()["data"]["taskIds"]

    tasks = _wait_mid_render(settings, task_ids)
    assert not all(t.status == "completed" for t in tasks)

    # Both worker processes die at once: the one rendering and the one running the workflow.
    stack.kill_process("imaging")
    stack.kill_process("worker")
    time.sleep(1)
    stack.start_worker("worker-restarted")
    stack.start_imaging("imaging-restarted")

    finished = guest.wait(task_ids, timeout=240)
    assert [t["status"] for t in finished] == ["completed"] * 3, finished
    service = guest.wait_generation(submitted.json()["data"]["serviceId"])
    assert service["status"] == "completed"

    database = make_database(settings.resolved_database_url)
    with make_session_factory(database)() as session:
        generation = session.get(Generation, submitted.json()["data"]["serviceId"])
        assert generation is not None
        charges = session.execute(
            select(LedgerEntry).where(LedgerEntry.reference == generation.id)
        ).scalars().all()
        balance = credits.get_balance(session, generation.account_id)
        ledger = credits.ledger_sum(session, generation.account_id)
    database.dispose()
    assert generation.status == "completed"
    attempts = asyncio.run(_imaging_attempts(settings, generation.id))
    assert len(attempts) == 3 and max(attempts) >= 2, f"no imaging retry seen: {attempts}"
    assert [(c.kind, c.delta_free + c.delta_paid) for c in charges] == [("charge", -3)]
    assert balance.total == 2 and ledger == balance
