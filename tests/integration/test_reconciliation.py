"""The reconciliation on the running stack: its hourly schedule exists; on a clean database it
finds nothing; a balance changed behind the ledger's back, a held amount no pending hold
explains and a generation whose charge does not match its delivered images are each found,
logged at error level and counted."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from sqlalchemy import select, update
from temporalio.client import Client, ScheduleActionStartWorkflow
from temporalio.testing import ActivityEnvironment

from activities.reconciliation import ReconciliationActivities
from core.billing import reconciliation
from core.billing.reconciliation import Reconcile, ReconciliationReport
from core.db import SessionFactory
from core.enums import GenerationStatus
from core.models.accounts import Account
from core.models.generations import GenerationImage
from ops.stack import Stack
from ops.worker import reconciliation_schedule_id
from tests.support.api_client import Guest
from tests.support.holds import account_of
from tests.support.paths import fixture_images
from tests.support.stacks import running_stack, sessions_for
from workflows.reconciliation import RECONCILIATION_WORKFLOW


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory.mktemp("reconciliation")) as running:
        yield running


@pytest.fixture(scope="module")
def db(stack: Stack) -> Iterator[SessionFactory]:
    with sessions_for(stack.settings.resolved_database_url) as sessions:
        yield sessions


@pytest.fixture(scope="module")
def generations(stack: Stack, db: SessionFactory) -> list[tuple[str, str]]:
    """Two guests, each with a finished one-image generation: (account id, generation id)."""
    made = []
    for photo in fixture_images("people")[:2]:
        guest = Guest(stack.settings.app_url)
        key = guest.upload(photo.read_bytes())
        submitted = guest.submit("burstreplace", [key], backgroundId="white")
        assert submitted.status_code == 200, submitted.text
        generation_id = submitted.json()["data"]["serviceId"]
        assert guest.wait_generation(generation_id, timeout=120)["status"] == "completed"
        made.append((account_of(db, guest), generation_id))
    return made


async def reconcile(stack: Stack, inp: Reconcile | None = None) -> ReconciliationReport:
    """One run of the reconciliation workflow now, rather than waiting an hour for its tick."""
    client = await Client.connect(stack.settings.temporal_address)
    report: ReconciliationReport = await client.execute_workflow(
        RECONCILIATION_WORKFLOW, inp or Reconcile(), id=f"reconcile-{time.monotonic_ns()}",
        task_queue=stack.settings.task_queue, result_type=ReconciliationReport)
    return report


async def test_the_reconciliation_runs_hourly_and_finds_nothing_on_a_clean_database(
    stack: Stack, generations: list[tuple[str, str]]
) -> None:
    client = await Client.connect(stack.settings.temporal_address)
    schedule = await client.get_schedule_handle(
        reconciliation_schedule_id(stack.settings)).describe()
    action = schedule.schedule.action
    assert isinstance(action, ScheduleActionStartWorkflow)
    assert action.workflow == RECONCILIATION_WORKFLOW
    assert [i.every for i in schedule.schedule.spec.intervals] == [timedelta(hours=1)]

    report = await reconcile(stack)
    assert report.mismatches == [] and report.mismatch_count == 0
    assert report.accounts_checked >= 2
    assert report.generations_checked >= 2


async def test_corrupted_balances_and_a_wrong_charge_are_found_logged_and_counted(
    stack: Stack, db: SessionFactory, generations: list[tuple[str, str]]
) -> None:
    (balance_account, _), (charge_account, generation_id) = generations
    with db.begin() as session:
        # A balance changed behind the ledger's back, and credits held by no pending hold.
        session.execute(update(Account).where(Account.id == balance_account)
                        .values(free_credits=Account.free_credits + 7,
                                held_credits=Account.held_credits + 2))
        # A generation charged for an image it did not deliver (and never refunded).
        session.execute(update(GenerationImage)
            .where(GenerationImage.generation_id == generation_id)
                        .values(status=GenerationStatus.FAILED))
    try:
        report = await reconcile(stack)
        found = sorted((m.kind, m.account_id, m.generation_id, m.expected, m.found)
                       for m in report.mismatches)
        with db() as session:
            free = session.scalar(select(Account.free_credits)
                                  .where(Account.id == balance_account))
        assert free is not None
        assert found == sorted([
            ("balance", balance_account, None, free - 7, free),
            ("held", balance_account, None, 0, 2),
            ("charge", charge_account, generation_id, 0, 1),
        ])
        assert report.mismatch_count == 3
        # The result lists at most max_listed; all are counted.
        capped = await reconcile(stack, Reconcile(max_listed=1))
        assert (len(capped.mismatches), capped.mismatch_count) == (1, 3)

        # Each is an error line in the orchestration worker's log, with its account.
        assert stack.log_dir is not None
        log = (stack.log_dir / "worker.log").read_text(errors="replace")
        lines = [line for line in log.splitlines() if "reconciliation mismatch" in line]
        assert any(balance_account in line and "balance" in line for line in lines)
        assert any(generation_id in line and "charge" in line for line in lines)

        # ... and counted for the metrics (here run in this process).
        before = reconciliation.mismatch_totals()
        direct = ActivityEnvironment().run(ReconciliationActivities(db).reconcile, Reconcile())
        assert direct.mismatch_count == 3
        after = reconciliation.mismatch_totals()
        found = {"balance": 1, "held": 1, "charge": 1, "payment": 0}
        assert {k: after[k] - before[k] for k in after} == found
        assert reconciliation.last_run_mismatches() == found
    finally:
        with db.begin() as session:
            session.execute(update(Account).where(Account.id == balance_account)
                            .values(free_credits=Account.free_credits - 7,
                                    held_credits=Account.held_credits - 2))
            session.execute(update(GenerationImage)
                .where(GenerationImage.generation_id == generation_id)
                            .values(status=GenerationStatus.COMPLETED))
    assert (await reconcile(stack)).mismatches == []
