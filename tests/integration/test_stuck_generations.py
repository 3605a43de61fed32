"""Generations recorded but never started (the API died between recording one and starting its
workflow): a replay with the same Idempotency-Key starts it, and so does the sweeper on its
schedule, which gives up (credits released) those too old to start now. The running stack on
SQLite and on PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import select
from temporalio.client import Client
from temporalio.service import RPCError
from temporalio.testing import ActivityEnvironment

from activities.sweeper import SweeperActivities, SweepReport, SweepStuck
from core.db import SessionFactory
from core.enums import GenerationStatus, HoldStatus
from core.generations.start import start_generation
from core.generations.sweep import GAVE_UP
from core.models.accounts import CreditHold
from core.models.generations import Generation, GenerationImage
from ops.stack import Stack
from ops.worker import sweeper_schedule_id
from tests.support.api_client import Guest
from tests.support.holds import account_of, backdate, record_without_starting
from tests.support.paths import fixture_images
from tests.support.stacks import DatabaseStacks, sessions_for
from workflows.sweeper import SWEEPER_WORKFLOW


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def running(request: pytest.FixtureRequest, database_stacks: DatabaseStacks) -> Stack:
    """The run's stack on SQLite, then on PostgreSQL (tests/integration/conftest.py)."""
    return database_stacks.on(request)


@pytest.fixture(scope="module")
def db(running: Stack) -> Iterator[SessionFactory]:
    with sessions_for(running.settings.resolved_database_url) as sessions:
        yield sessions


def generation(db: SessionFactory, generation_id: str) -> Generation:
    with db() as session:
        found = session.get(Generation, generation_id)
    assert found is not None
    return found


def wait_status(db: SessionFactory, generation_id: str, status: str) -> Generation:
    deadline = time.monotonic() + 60
    while (found := generation(db, generation_id)).status != status:
        assert time.monotonic() < deadline, f"{generation_id} still {found.status}"
        time.sleep(0.2)
    return found


def hold_status(db: SessionFactory, generation_id: str) -> str:
    with db() as session:
        hold = session.get(CreditHold, generation_id)
    assert hold is not None
    return hold.status


async def sweep(running: Stack, inp: SweepStuck) -> SweepReport:
    """One run of the sweeper workflow now, rather than waiting for its schedule's tick."""
    client = await Client.connect(running.settings.temporal_address)
    report: SweepReport = await client.execute_workflow(
        SWEEPER_WORKFLOW, inp, id=f"sweep-{time.monotonic_ns()}",
        task_queue=running.settings.task_queue, result_type=SweepReport)
    return report


def test_a_replay_with_the_same_key_starts_a_generation_that_never_started(
    running: Stack, db: SessionFactory
) -> None:
    guest = Guest(running.settings.app_url)
    key = guest.upload(fixture_images("people")[2].read_bytes())
    generation_id, idempotency_key = record_without_starting(db, account_of(db, guest), key)
    assert guest.credits() == 4  # reserved, and nothing would ever run it

    again = guest.submit("burstreplace", [key], idempotency_key, backgroundId="white")
    assert again.status_code == 200, again.text
    assert again.json()["data"]["serviceId"] == generation_id
    assert guest.wait_generation(generation_id)["status"] == "completed"
    assert generation(db, generation_id).workflow_started_at is not None
    assert hold_status(db, generation_id) == HoldStatus.POSTED
    assert guest.credits() == 4


async def test_the_sweeper_on_its_schedule_starts_generations_stuck_in_the_queue(
    running: Stack, db: SessionFactory
) -> None:
    guest = Guest(running.settings.app_url)
    key = guest.upload(fixture_images("people")[3].read_bytes())
    generation_id, _ = record_without_starting(db, account_of(db, guest), key)
    client = await Client.connect(running.settings.temporal_address)
    # The orchestration worker registered the schedule when it started ...
    schedule = await client.get_schedule_handle(sweeper_schedule_id(running.settings)).describe()
    assert schedule.schedule.action.workflow == SWEEPER_WORKFLOW  # type: ignore[attr-defined]

    # ... whose run we make now rather than wait a minute for.
    report = await sweep(running, SweepStuck(older_than_seconds=0))
    assert generation_id in report.started
    done = wait_status(db, generation_id, GenerationStatus.COMPLETED)
    assert done.workflow_started_at is not None
    assert hold_status(db, generation_id) == HoldStatus.POSTED
    assert guest.credits() == 4
    # Started once: the next sweep leaves it alone.
    assert generation_id not in (await sweep(running, SweepStuck(older_than_seconds=0))).started


async def test_the_sweeper_gives_up_a_generation_too_old_to_start_and_releases_its_credits(
    running: Stack, db: SessionFactory
) -> None:
    guest = Guest(running.settings.app_url)
    key = guest.upload(fixture_images("people")[0].read_bytes())
    generation_id, idempotency_key = record_without_starting(db, account_of(db, guest), key)
    backdate(db, generation_id, timedelta(hours=2))

    report = await sweep(running, SweepStuck(older_than_seconds=60, give_up_after_seconds=3600))
    # (The schedule's own tick may have given it up first; either way it is never started.)
    assert generation_id not in report.started
    failed = generation(db, generation_id)
    assert (failed.status, failed.error) == (GenerationStatus.FAILED, GAVE_UP)
    with db() as session:
        tasks = session.execute(
            select(GenerationImage.status, GenerationImage.error)
            .where(GenerationImage.generation_id == generation_id)).all()
    assert [tuple(t) for t in tasks] == [(GenerationStatus.FAILED, GAVE_UP)]
    assert hold_status(db, generation_id) == HoldStatus.VOIDED
    assert guest.credits() == 5
    client = await Client.connect(running.settings.temporal_address)
    with pytest.raises(RPCError):
        await client.get_workflow_handle(generation_id).describe()
    # A late replay of the same request answers the failed generation, and starts nothing.
    again = guest.submit("burstreplace", [key], idempotency_key, backgroundId="white")
    assert again.status_code == 200 and again.json()["data"]["serviceId"] == generation_id
    assert guest.wait_generation(generation_id)["status"] == "failed"
    with pytest.raises(RPCError):
        await client.get_workflow_handle(generation_id).describe()
    assert guest.credits() == 5


async def test_the_sweeper_records_a_workflow_that_was_started_but_not_recorded(
    running: Stack, db: SessionFactory
) -> None:
    """The API died after starting the workflow and before recording it: however old, the
    generation is left to its workflow, not given up under it."""
    guest = Guest(running.settings.app_url)
    key = guest.upload(fixture_images("people")[1].read_bytes())
    generation_id, _ = record_without_starting(db, account_of(db, guest), key)
    client = await Client.connect(running.settings.temporal_address)
    running.stop_process("worker")  # so the workflow waits, still queued
    try:
        await start_generation(client, running.settings, generation_id)
        backdate(db, generation_id, timedelta(hours=2))
        # The sweeper's activity itself: its workflow would need the worker we stopped.
        sweeper = SweeperActivities(db, running.settings)
        report = await ActivityEnvironment(client=client).run(
            sweeper.sweep_stuck, SweepStuck(older_than_seconds=60, give_up_after_seconds=3600))
        assert generation_id in report.already_running
        assert generation_id not in report.failed + report.started
        assert generation(db, generation_id).status == GenerationStatus.QUEUED
        assert generation(db, generation_id).workflow_started_at is not None
    finally:
        running.start_worker()
    wait_status(db, generation_id, GenerationStatus.COMPLETED)
    assert hold_status(db, generation_id) == HoldStatus.POSTED
    assert guest.credits() == 4
