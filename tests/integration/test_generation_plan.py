"""A generation's rules run once, at submit (core/generations/plan.py): the workflow runs the plan
its input carries (the price, the checked inputs, the analysis verdict, the catalog photos) and
confirms only what can change after the submit. Real Temporal, database and S3, the submit's
own code path (core/generations/submit.py), and the real CPU engine in an in-process worker.
"""

from __future__ import annotations

import anyio.to_thread
import pytest
from sqlalchemy import delete, select, update
from temporalio.client import Client
from temporalio.worker import Replayer

from core.auth.tokens import Principal
from core.contracts.generation import GenerationResult, StartGeneration
from core.db import SessionFactory
from core.enums import CatalogKind, GenerationKind
from core.generations.plan import BACKGROUND_GONE
from core.generations.prices import PRICE_PER_IMAGE
from core.generations.submit import GenerationSubmission, Submissions, Submitted
from core.models.catalog import CatalogItem
from core.models.generations import Generation, GenerationImage, UploadedFile
from core.settings import Settings
from core.storage import Storage
from ops.seed import seed
from tests.integration.test_workflow import balance, ledger_kinds, real_engine, running_worker
from tests.support import histories
from tests.support.helpers import make_account, upload
from tests.support.paths import FIXTURES, fixture_images
from workflows.generation import GenerationWorkflow


def analysis(can_replace: bool) -> dict[str, object]:
    """A stored analysis of one person facing the camera that allows a background replace or
    rules it out."""
    reason = None if can_replace else "Ruled out after the submit."
    return {
        "kind": "person", "people": 1, "view": "front", "face": "full", "garment": None,
        "can": {"burstreplace": {"ok": can_replace, "reason": reason}},
    }


async def submit(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
    account: str, background_id: str, key: str,
) -> Submitted:
    """The submit as the routes call it (from a worker thread), starting the real workflow; no
    worker listens yet, so it waits for the test's."""
    submissions = Submissions(sessions, storage, settings, temporal)
    request = GenerationSubmission(
        service=GenerationKind.BURST_REPLACE, model_id=None, background_id=background_id,
        inputs=[key],
        idempotency_key=None, distributor_id="test", fingerprint=None,
    )
    principal = Principal(account_id=account, kind="guest", distributor_id="test")
    return await anyio.to_thread.run_sync(submissions.submit, principal, request)


async def run_started(temporal: Client, settings: Settings, generation_id: str) -> GenerationResult:
    async with running_worker(temporal, settings, real_engine()):
        handle = temporal.get_workflow_handle(generation_id, result_type=GenerationResult)
        return await handle.result()


async def test_the_price_held_at_submit_is_the_price_charged(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The workflow charges the price its plan carries: a price change between the submit and
    the run (a deploy between them) changes neither the charge nor the hold it posts."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[0].read_bytes())
    submitted = await submit(temporal, settings, sessions, storage, account, "white", key)
    started = await temporal.get_workflow_handle(submitted.generation.id).fetch_history()
    carried = started.events[0].workflow_execution_started_event_attributes.input
    assert b'"cost":1' in carried.payloads[0].data.replace(b" ", b"")

    monkeypatch.setitem(PRICE_PER_IMAGE, GenerationKind.BURST_REPLACE, 3)
    result = await run_started(temporal, settings, submitted.generation.id)

    assert (result.status, result.completed_tasks, result.credits_charged) == ("completed", 1, 1)
    assert balance(sessions, account) == 4
    assert ledger_kinds(sessions, submitted.generation.id) == ["charge"]
    # Its history, with the plan in the input, is the recorded "generation-planned" shape
    # (tests/support/histories.py; replayed by test_workflow.py with the older shapes).
    history = await temporal.get_workflow_handle(submitted.generation.id).fetch_history()
    await Replayer(workflows=[GenerationWorkflow]).replay_workflow(history)
    histories.record("generation-planned", history)


async def test_the_analysis_judged_at_submit_is_not_judged_again(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
) -> None:
    """The submit judged the upload's stored analysis and the plan says so: the imaging step
    does not read and judge it a second time (here it was rewritten to refuse, after the
    submit, and the image is still made)."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[0].read_bytes())
    with sessions.begin() as session:
        session.execute(
            update(UploadedFile).where(UploadedFile.key == key).values(analysis=analysis(True))
        )
    submitted = await submit(temporal, settings, sessions, storage, account, "white", key)
    with sessions.begin() as session:
        session.execute(
            update(UploadedFile).where(UploadedFile.key == key).values(analysis=analysis(False))
        )

    result = await run_started(temporal, settings, submitted.generation.id)

    assert (result.status, result.completed_tasks, result.credits_charged) == ("completed", 1, 1)
    with sessions() as session:
        task = session.get(GenerationImage, submitted.task_ids[0])
        assert task is not None and task.status == "completed" and task.error is None


async def test_a_background_deleted_after_submit_fails_before_the_charge(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
) -> None:
    """What can change after the submit is confirmed before the charge: a photo background an
    operator deleted meanwhile (its item and objects go together) fails the generation with
    the reason, nothing charged and the hold released."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[0].read_bytes())
    with sessions() as session:
        background = session.execute(
            select(CatalogItem).where(
                CatalogItem.kind == CatalogKind.BACKGROUND, CatalogItem.builtin.is_(False)
            )
        ).scalars().first()
        assert background is not None
    submitted = await submit(temporal, settings, sessions, storage, account, background.id, key)
    with sessions.begin() as session:  # as the catalog's delete does (core/catalog/admin.py)
        session.execute(delete(CatalogItem).where(CatalogItem.id == background.id))
    storage.delete(background.key)

    result = await run_started(temporal, settings, submitted.generation.id)

    assert (result.status, result.credits_charged) == ("failed", 0)
    with sessions() as session:
        generation = session.get(Generation, submitted.generation.id)
        task = session.get(GenerationImage, submitted.task_ids[0])
        assert generation is not None and generation.status == "failed"
        assert task is not None and task.error == BACKGROUND_GONE
    assert balance(sessions, account) == 5
    assert ledger_kinds(sessions, submitted.generation.id) == []


def test_an_input_from_before_plans_were_carried_still_decodes() -> None:
    """A workflow started by the old code (its input the id and the options alone) runs: its
    verify step makes the plan from the recorded rows (tests/integration/test_workflow.py runs
    such ones end to end, and replays their recorded histories)."""
    from temporalio.converter import DataConverter

    converter = DataConverter.default.payload_converter
    old = converter.to_payloads([{"generation_id": "g1", "options": {"imaging_task_queue": "q"}}])
    (start,) = converter.from_payloads(old, [StartGeneration])
    assert (start.generation_id, start.options.imaging_task_queue, start.plan) == ("g1", "q", None)
