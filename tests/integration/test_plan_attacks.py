"""Attacks on the generation plan (issue 38: pinned at submit, confirmed by the workflow's verify
step, its price charged) and on the money path around it, as an attacker and a flaky network
would make them. Real Temporal, S3 and database; the submit's own code (core/generations/
submit.py) with the real CPU engine in an in-process worker, then the whole stack over HTTP on
SQLite and on PostgreSQL (test_plan_attacks_over_http.py).

The rule checked throughout: nothing lost, nothing charged twice, no charge without an image.
"""

from __future__ import annotations

import uuid
from typing import Any

import anyio.to_thread
import pytest
from temporalio.client import Client
from temporalio.exceptions import ApplicationError

from activities.generation import GenerationActivities
from core import credits
from core.auth.guests import Guests
from core.auth.sessions import AuthSessions
from core.auth.tokens import Principal
from core.contracts.generation import GenerationPlan, GenerationResult
from core.db import SessionFactory
from core.enums import GenerationKind, HoldStatus
from core.errors import Unavailable
from core.generations.prices import PRICE_PER_IMAGE
from core.generations.start import generation_facts, start_generation
from core.generations.submit import GenerationSubmission, Submissions, Submitted
from core.models.accounts import Account, CreditHold, User
from core.models.generations import Generation, GenerationImage
from core.photos.inputs import CHANGED
from core.settings import Settings
from core.storage import Storage
from ops.seed import seed
from tests.integration.test_workflow import balance, ledger_kinds, real_engine, running_worker
from tests.support.helpers import make_account, upload
from tests.support.paths import FIXTURES, fixture_images


class LostStart:
    """A Temporal link whose start never arrives (a flaky network, or the API process dying
    right after it recorded the generation): the generation is recorded with its hold and no
    workflow runs; the sweeper (or a repeated submit) starts it later, with its id alone."""

    async def start_workflow(self, workflow: str, arg: Any, **kwargs: Any) -> Any:
        return None


def submission(key: str, idempotency_key: str | None = None) -> GenerationSubmission:
    return GenerationSubmission(
        service=GenerationKind.BURST_REPLACE, model_id=None, background_id="white",
        inputs=[key], idempotency_key=idempotency_key, distributor_id="test", fingerprint=None,
    )


async def submit(
    temporal: Any, settings: Settings, sessions: SessionFactory, storage: Storage,
    account: str, key: str,
) -> Submitted:
    """The submit as the routes call it (from a worker thread)."""
    submissions = Submissions(sessions, storage, settings, temporal)
    principal = Principal(account_id=account, kind="guest", distributor_id="test")
    return await anyio.to_thread.run_sync(submissions.submit, principal, submission(key))


async def finish(temporal: Client, settings: Settings, generation_id: str) -> GenerationResult:
    async with running_worker(temporal, settings, real_engine()):
        handle = temporal.get_workflow_handle(generation_id, result_type=GenerationResult)
        result: GenerationResult = await handle.result()
        return result


def held(sessions: SessionFactory, account: str) -> int:
    with sessions() as session:
        return credits.get_balance(session, account).held


def hold_status(sessions: SessionFactory, generation_id: str) -> str | None:
    with sessions() as session:
        hold = session.get(CreditHold, generation_id)
        return hold.status if hold is not None else None


# 1. The upload behind a submitted generation is overwritten (a still-valid presigned PUT).


async def test_an_upload_overwritten_after_submit_fails_before_the_charge(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
) -> None:
    """The plan the workflow carries pins the upload by size and ETag: other bytes of the same
    size PUT to the same key after the submit (only the ETag differs) fail the generation at
    verify, with the reason, before any charge; its hold is released."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    photo = fixture_images("people")[0].read_bytes()
    key = upload(sessions, storage, account, photo)
    pinned = storage.stat(key)
    assert pinned is not None
    submitted = await submit(temporal, settings, sessions, storage, account, key)
    assert held(sessions, account) == 1
    storage.put_bytes(key, bytes(reversed(photo)), "image/jpeg")  # same size, other bytes
    replaced = storage.stat(key)
    assert replaced is not None
    assert (replaced.size, replaced.etag != pinned.etag) == (pinned.size, True)

    result = await finish(temporal, settings, submitted.generation.id)

    assert (result.status, result.credits_charged) == ("failed", 0)
    with sessions() as session:
        task = session.get(GenerationImage, submitted.task_ids[0])
        assert task is not None and task.status == "failed"
        assert task.error == CHANGED.format(name="The image")
        assert (task.input_size, task.input_etag) == (pinned.size, pinned.etag)
        assert task.output_key is None
    assert balance(sessions, account) == 5 and held(sessions, account) == 0
    assert ledger_kinds(sessions, submitted.generation.id) == []
    assert hold_status(sessions, submitted.generation.id) == HoldStatus.VOIDED


async def test_the_same_bytes_put_again_after_submit_still_make_the_image(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
) -> None:
    """A browser retrying its PUT after a dropped answer writes the very bytes again: the same
    ETag, so the pinned version is confirmed and the image is made and charged once."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    photo = fixture_images("people")[1].read_bytes()
    key = upload(sessions, storage, account, photo)
    submitted = await submit(temporal, settings, sessions, storage, account, key)
    storage.put_bytes(key, photo, "image/jpeg")

    result = await finish(temporal, settings, submitted.generation.id)

    assert (result.status, result.completed_tasks, result.credits_charged) == ("completed", 1, 1)
    assert balance(sessions, account) == 4 and held(sessions, account) == 0
    assert ledger_kinds(sessions, submitted.generation.id) == ["charge"]
    assert hold_status(sessions, submitted.generation.id) == HoldStatus.POSTED


# 4. The price of a generation whose workflow starts late (the sweeper, a repeated submit).


async def test_a_generation_started_late_is_charged_the_price_held_at_submit(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The submit held 1 credit and showed it; its start was lost, the price went up (a deploy)
    and the sweeper started the workflow with its id alone. The verify step makes the plan
    from the recorded rows, and the charge is the price held and shown at submit, not today's
    (before: 3 charged against a hold of 1, more than the person agreed to)."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[2].read_bytes())
    submitted = await submit(LostStart(), settings, sessions, storage, account, key)
    assert submitted.generation.credits == 1 and held(sessions, account) == 1

    monkeypatch.setitem(PRICE_PER_IMAGE, GenerationKind.BURST_REPLACE, 3)
    generation_id = submitted.generation.id
    # As the sweeper starts it (core/generations/sweep.py): the id and the recorded facts.
    await start_generation(temporal, settings, generation_id,
                           generation_facts(sessions, generation_id))
    result = await finish(temporal, settings, generation_id)

    assert (result.status, result.completed_tasks, result.credits_charged) == ("completed", 1, 1)
    assert balance(sessions, account) == 4 and held(sessions, account) == 0
    assert hold_status(sessions, generation_id) == HoldStatus.POSTED



async def test_a_late_started_generation_adopted_at_login_charges_the_guest_who_held_it(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
) -> None:
    """A guest submits (1 credit held on the guest's account), the start is lost, and the guest
    logs in: their generations move to the user's account (Guests.adopt_work), the hold stays
    where it was made. The sweeper starts it later from its rows: the charge posts that hold on
    the guest's account (before: it took the user's credits and "released" a hold the user
    never had, leaving the user's held at -1, a free credit, and the guest's 1 held forever)."""
    seed(sessions, storage, settings, FIXTURES)
    guest = make_account(sessions, free=5)
    user_account = make_account(sessions, free=3)
    with sessions.begin() as session:
        user = User(email=f"{uuid.uuid4().hex[:8]}@example.com", distributor_id="test",
                    account_id=user_account)
        session.add(user)
    key = upload(sessions, storage, guest, fixture_images("people")[0].read_bytes())
    submitted = await submit(LostStart(), settings, sessions, storage, guest, key)
    with sessions() as session:
        fingerprint = session.get(Account, guest).fingerprint  # type: ignore[union-attr]
    guests = Guests(sessions, settings, AuthSessions(sessions, settings, "secret"))
    guests.adopt_work(user, fingerprint, None)
    with sessions() as session:
        moved = session.get(Generation, submitted.generation.id)
        assert moved is not None and moved.account_id == user_account

    generation_id = submitted.generation.id
    await start_generation(temporal, settings, generation_id,
                           generation_facts(sessions, generation_id))
    result = await finish(temporal, settings, generation_id)

    assert (result.status, result.credits_charged) == ("completed", 1)
    with sessions() as session:
        paid_by = credits.get_balance(session, guest)
        other = credits.get_balance(session, user_account)
        assert (paid_by.free, paid_by.held) == (4, 0)
        assert (other.free, other.held) == (3, 0)
        for account in (guest, user_account):
            assert credits.ledger_sum(session, account) == credits.get_balance(session, account)
    assert hold_status(sessions, generation_id) == HoldStatus.POSTED


class AnswerLost:
    """A Temporal link whose start reaches the server but whose answer is lost (a flaky
    network: the call times out after the workflow started), here once the workflow has
    already charged, the latest such an error can come."""

    def __init__(self, temporal: Client, sessions: SessionFactory) -> None:
        self.temporal = temporal
        self.sessions = sessions

    async def start_workflow(self, workflow: str, arg: Any, **kwargs: Any) -> Any:
        await self.temporal.start_workflow(workflow, arg, **kwargs)
        for _ in range(600):
            if ledger_kinds(self.sessions, kwargs["id"]):
                break
            await anyio.sleep(0.05)
        raise RuntimeError("deadline exceeded: the answer to the start was lost")


async def test_a_start_whose_answer_is_lost_never_charges_without_a_generation(
    temporal: Client, settings: Settings, sessions: SessionFactory, storage: Storage,
) -> None:
    """The start reached Temporal and the workflow charged, but the submit saw an error: it must
    not then say "nothing was charged" and remove the generation being made (before: the
    credit was taken and the generation's rows deleted, an image paid for and never shown)."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[1].read_bytes())
    submissions = Submissions(sessions, storage, settings, AnswerLost(temporal, sessions))
    principal = Principal(account_id=account, kind="guest", distributor_id="test")
    async with running_worker(temporal, settings, real_engine()):
        submitted = await anyio.to_thread.run_sync(submissions.submit, principal,
                                                   submission(key))
        handle = temporal.get_workflow_handle(submitted.generation.id,
                                              result_type=GenerationResult)
        result = await handle.result()

    assert (result.status, result.credits_charged) == ("completed", 1)
    with sessions() as session:
        generation = session.get(Generation, submitted.generation.id)
        assert generation is not None and generation.status == "completed"
        assert generation.workflow_started_at is not None
    assert balance(sessions, account) == 4 and held(sessions, account) == 0
    assert hold_status(sessions, submitted.generation.id) == HoldStatus.POSTED


class VerifiedThenLost:
    """A start whose answer is lost while the workflow has verified its plan and not yet
    charged it: the verify step runs here (the real activity) before the error comes back."""

    def __init__(self, steps: GenerationActivities) -> None:
        self.steps = steps
        self.verified: list[GenerationPlan] = []

    async def start_workflow(self, workflow: str, arg: Any, **kwargs: Any) -> Any:
        self.verified.append(self.steps.verify_uploads(arg))
        raise RuntimeError("deadline exceeded: the answer to the start was lost")


async def test_a_generation_withdrawn_after_its_verify_is_never_charged(
    settings: Settings, sessions: SessionFactory, storage: Storage,
) -> None:
    """The submit withdrew the generation (its start seemed to fail: 503, "nothing was
    charged", its hold released, its rows removed) after the workflow had verified it: the
    charge that follows is refused, for good (before: it took the credit anyway, from the
    credits nobody held, for a generation nobody can see)."""
    seed(sessions, storage, settings, FIXTURES)
    account = make_account(sessions, free=5)
    key = upload(sessions, storage, account, fixture_images("people")[2].read_bytes())
    steps = GenerationActivities(sessions, storage, settings)
    starter = VerifiedThenLost(steps)
    with pytest.raises(Unavailable):
        await submit(starter, settings, sessions, storage, account, key)
    (plan,) = starter.verified

    with pytest.raises(ApplicationError) as refused_charge:
        steps.charge_credits(plan)

    assert refused_charge.value.non_retryable
    assert balance(sessions, account) == 5 and held(sessions, account) == 0
    assert ledger_kinds(sessions, plan.generation_id) == []
    assert hold_status(sessions, plan.generation_id) == HoldStatus.VOIDED
