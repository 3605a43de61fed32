"""The generation workflow against a real Temporal dev server, database and S3 server.

The worker runs in-process with the real activities; the engine is the real CPU engine, wrapped
where a test needs it to fail in a particular way.
"""

from __future__ import annotations

import io
import threading
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import select
from temporalio.client import Client, WorkflowHistory
from temporalio.testing import ActivityEnvironment
from temporalio.worker import Replayer

from activities.generation import GenerationActivities
from activities.imaging import ImagingActivities
from core import credits
from core.contracts.generation import (
    GENERATION_WORKFLOW,
    FailTaskInput,
    GenerationOptions,
    GenerationResult,
    ImagingInput,
    StartGeneration,
)
from core.db import SessionFactory
from core.engine import Background, EngineUnavailable, ImageEngine, ProgressFn
from core.keys import thumbnail_key
from core.models.accounts import LedgerEntry
from core.models.generations import Generation, GenerationImage, UploadedFile
from core.models.messages import OutboxMessage
from core.photos.images import encode_jpeg
from core.settings import Settings
from core.storage import Storage
from ops.seed import seed
from ops.worker import build_engine, build_workers, registered_workflows
from tests.support.helpers import make_account, make_generation, upload
from tests.support.paths import FIXTURES, fixture_images
from workflows.generation import GenerationWorkflow

# Histories recorded from real runs of the deployed shape of the workflow (a body swap, a
# generation with one image rejected by the engine, one rejected at verify, all started with
# the id alone; one started with the submit's plan in its input, test_generation_plan.py): a
# change that would break a running workflow fails here; such a change needs workflow.patched.
HISTORIES = Path(__file__).parent / "histories"

_engine: ImageEngine | None = None


def real_engine() -> ImageEngine:
    """One CPU engine for the module: its models load once, as in a worker process."""
    global _engine
    if _engine is None:
        _engine = build_engine(Settings(_env_file=None))  # type: ignore[call-arg]
    return _engine


class FlakyEngine:
    """Fails with a retryable error the first `failures` times, then does the real work."""

    def __init__(self, inner: ImageEngine, failures: int) -> None:
        self.inner = inner
        self.failures = failures
        self.calls = 0
        self._lock = threading.Lock()

    def _maybe_fail(self) -> None:
        with self._lock:
            self.calls += 1
            if self.calls <= self.failures:
                raise EngineUnavailable("the inference service did not answer")

    def body_swap(self, photo: Image.Image, model: Image.Image, background: Background | None,
                  progress: ProgressFn) -> Image.Image:
        self._maybe_fail()
        return self.inner.body_swap(photo, model, background, progress)

    def replace_background(self, photo: Image.Image, background: Background,
                           progress: ProgressFn) -> Image.Image:
        self._maybe_fail()
        return self.inner.replace_background(photo, background, progress)


@asynccontextmanager
async def running_worker(temporal: Client, settings: Settings,
                         engine: ImageEngine) -> AsyncIterator[None]:
    async with AsyncExitStack() as stack:
        for worker in build_workers(temporal, settings, engine):
            await stack.enter_async_context(worker)
        yield


async def run_generation(
    temporal: Client, settings: Settings, generation_id: str
) -> GenerationResult:
    result: GenerationResult = await temporal.execute_workflow(
        GENERATION_WORKFLOW,
        StartGeneration(generation_id, GenerationOptions(
            imaging_task_queue=settings.imaging_task_queue, heartbeat_timeout_seconds=20)),
        id=generation_id,
        task_queue=settings.task_queue,
        result_type=GenerationResult,
    )
    return result


async def assert_replays(temporal: Client, generation_id: str) -> None:
    """The workflow runs unsandboxed (for speed): replaying its real history with today's code
    is what shows it stays deterministic."""
    history = await temporal.get_workflow_handle(generation_id).fetch_history()
    await Replayer(workflows=[GenerationWorkflow]).replay_workflow(history)


def balance(sessions: SessionFactory, account_id: str) -> int:
    with sessions() as session:
        value = credits.get_balance(session, account_id)
        assert credits.ledger_sum(session, account_id) == value
        return value.total


def ledger_kinds(sessions: SessionFactory, generation_id: str) -> list[str]:
    with sessions() as session:
        return sorted(session.execute(
            select(LedgerEntry.kind).where(LedgerEntry.reference == generation_id)
        ).scalars())


async def test_happy_path_body_swap_with_background(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    person = fixture_images("people")[0]
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, person.read_bytes())
    generation_id, (task_id,) = make_generation(
        sessions, account, "bodySwap", [key], model_id="model-1", background_id="bg-1")
    with sessions.begin() as session:
        row = session.get(Generation, generation_id)
        assert row is not None
        row.guest_email = "guest@example.com"

    async with running_worker(temporal, settings, real_engine()):
        result = await run_generation(temporal, settings, generation_id)

    assert (result.status, result.completed_tasks, result.credits_charged) == ("completed", 1, 1)
    with sessions() as session:
        task = session.get(GenerationImage, task_id)
        generation = session.get(Generation, generation_id)
        assert task is not None and generation is not None
        assert (task.status, task.progress, generation.status) == ("completed", 100, "completed")
        assert task.output_key and task.output_thumbnail_key
    output = Image.open(io.BytesIO(storage.get_bytes(task.output_key)))
    assert output.size == Image.open(person).size
    assert storage.stat(task.output_thumbnail_key) is not None
    assert balance(sessions, account) == 4
    assert ledger_kinds(sessions, generation_id) == ["charge"]
    with sessions() as session:
        mails = session.execute(select(OutboxMessage)).scalars().all()
    assert [(m.to_address, m.subject) for m in mails] == [
        ("guest@example.com", "Your images are ready")]
    assert f"serviceId={generation_id}" in mails[0].body
    await assert_replays(temporal, generation_id)


async def test_imaging_again_after_its_report_was_lost_keeps_the_stored_result(
    settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    """A worker that stored the output but died before reporting: the retry must neither render
    again nor replace the output, and a late failure must not refund the delivered image."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[2].read_bytes())
    generation_id, (task_id,) = make_generation(
        sessions, account, "burstreplace", [key], background_id="white")
    credits.charge(sessions, account, 1, generation_id=generation_id)
    counting = FlakyEngine(real_engine(), failures=0)
    imaging = ImagingActivities(sessions, storage, counting, settings, heartbeat_interval=0.5)
    inp = ImagingInput(generation_id=generation_id, task_id=task_id, service="burstreplace",
                       input_key=key, model_key=None, background_kind="white",
                       background_key=None)

    first = ActivityEnvironment().run(imaging.run_imaging, inp)
    stored = storage.get_bytes(first.output_key)
    again = ActivityEnvironment().run(imaging.run_imaging, inp)

    assert counting.calls == 1 and again == first
    assert storage.get_bytes(first.output_key) == stored
    assert storage.stat(thumbnail_key(key)) is not None, "the input thumbnail was not made"
    steps = GenerationActivities(sessions, storage, settings)
    refund = ActivityEnvironment().run(steps.fail_task, FailTaskInput(
        generation_id=generation_id, account_id=account, task_id=task_id,
        reason="timed out", refund_credits=1))
    with sessions() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None and (task.status, task.progress) == ("completed", 100)
    assert refund.refunded == 0 and balance(sessions, account) == 4


async def test_engine_failing_twice_then_succeeding_is_charged_once(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[1].read_bytes())
    generation_id, (task_id,) = make_generation(
        sessions, account, "burstreplace", [key], background_id="white")
    flaky = FlakyEngine(real_engine(), failures=2)

    async with running_worker(temporal, settings, flaky):
        result = await run_generation(temporal, settings, generation_id)

    assert flaky.calls == 3
    assert (result.status, result.credits_charged, result.credits_refunded) == ("completed", 1, 0)
    assert balance(sessions, account) == 4
    assert ledger_kinds(sessions, generation_id) == ["charge"]


async def test_non_retryable_engine_error_refunds_and_fails_task_with_reason(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    # A plain grey card: no person, no garment. Never analysed at upload (no createThumbnail),
    # so the imaging step analyses it, refuses it with the reason and never calls the engine.
    blank = encode_jpeg(Image.new("RGB", (768, 1024), (128, 128, 128)))
    key = upload(sessions, storage, account, blank)
    generation_id, (task_id,) = make_generation(
        sessions, account, "burstreplace", [key], background_id="white")
    counting = FlakyEngine(real_engine(), failures=0)

    async with running_worker(temporal, settings, counting):
        result = await run_generation(temporal, settings, generation_id)

    assert counting.calls == 0, "the analysis refuses it before the engine runs"
    assert (result.status, result.credits_charged, result.credits_refunded) == ("failed", 1, 1)
    with sessions() as session:
        task = session.get(GenerationImage, task_id)
        generation = session.get(Generation, generation_id)
        assert task is not None and generation is not None
        assert task.status == "failed" and generation.status == "failed"
        assert task.error is not None
        assert any(word in task.error.lower() for word in ("person", "garment", "subject"))
        stored = session.execute(
            select(UploadedFile.analysis).where(UploadedFile.key == key)
        ).scalar_one()
        assert stored is not None and stored["kind"] == "neither"  # kept for the upload
    assert balance(sessions, account) == 5
    assert ledger_kinds(sessions, generation_id) == ["charge", "refund"]
    await assert_replays(temporal, generation_id)


async def test_bad_upload_fails_before_charging(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, b"this is not an image")
    generation_id, (task_id,) = make_generation(
        sessions, account, "burstreplace", [key], background_id="white")

    async with running_worker(temporal, settings, real_engine()):
        result = await run_generation(temporal, settings, generation_id)

    assert result.status == "failed" and result.credits_charged == 0
    with sessions() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None and task.status == "failed"
        assert task.error == "The image is not a JPEG, PNG or WebP image."
    assert balance(sessions, account) == 5
    assert ledger_kinds(sessions, generation_id) == []


async def test_upload_gone_before_verify_fails_without_charge(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    generation_id, (task_id,) = make_generation(
        sessions, account, "burstreplace", ["uploads/never-stored.jpg"], background_id="white")

    async with running_worker(temporal, settings, real_engine()):
        result = await run_generation(temporal, settings, generation_id)

    assert result.status == "failed" and result.credits_charged == 0
    with sessions() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None and task.error == "The image was not found; please upload it again."
    assert balance(sessions, account) == 5


async def test_an_upload_replaced_after_submit_fails_at_verify_without_charge(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    """Verify trusts the version pinned at submit (size and ETag) from the object's metadata:
    the same number of other bytes put there afterwards is refused before any charge."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    photo = fixture_images("people")[0].read_bytes()
    key = upload(sessions, storage, account, photo)
    generation_id, (task_id,) = make_generation(
        sessions, account, "burstreplace", [key], background_id="white")
    pinned = storage.stat(key)
    assert pinned is not None and pinned.etag
    with sessions.begin() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None
        task.input_size, task.input_etag = pinned.size, pinned.etag
    storage.put_bytes(key, bytes(reversed(photo)), "image/jpeg")  # same size, other bytes

    async with running_worker(temporal, settings, real_engine()):
        result = await run_generation(temporal, settings, generation_id)

    assert result.status == "failed" and result.credits_charged == 0
    with sessions() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None
        assert task.error == "The image was changed after it was checked; please upload it again."
    assert balance(sessions, account) == 5
    assert ledger_kinds(sessions, generation_id) == []


async def test_unknown_model_fails_at_once_without_charge(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage
) -> None:
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[0].read_bytes())
    generation_id, (task_id,) = make_generation(
        sessions, account, "bodySwap", [key], model_id="retired-model")
    counting = FlakyEngine(real_engine(), failures=0)

    async with running_worker(temporal, settings, counting):
        result = await run_generation(temporal, settings, generation_id)

    assert result.status == "failed" and counting.calls == 0
    with sessions() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None and task.error == "The chosen model is not available any more."
    assert balance(sessions, account) == 5
    assert ledger_kinds(sessions, generation_id) == []


@pytest.mark.parametrize("name", sorted(path.stem for path in HISTORIES.glob("*.json")))
async def test_recorded_history_replays_with_todays_code(name: str) -> None:
    history = WorkflowHistory.from_json(name, (HISTORIES / f"{name}.json").read_text())
    assert len(history.events) > 5
    await Replayer(workflows=registered_workflows()).replay_workflow(history)


def test_the_recorded_shapes_are_there() -> None:
    """The generation's five shapes (the cancelled one from test_diffusion_engine, the planned
    one from test_generation_plan), and one real run each of the workflows that keep state or
    run unsandboxed (tests/support/histories.py records them)."""
    names = {path.stem for path in HISTORIES.glob("*.json")}
    assert names == {"generation-swap", "generation-mixed", "generation-rejected",
                     "generation-cancelled", "generation-planned", "subscription", "fulfilment",
                     "rerender"}
