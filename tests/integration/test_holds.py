"""Credits reserved at submit (two-phase: a pending hold, posted by the charge or voided on
failure) and idempotency keys reused for another request, on SQLite and on PostgreSQL: the
ledger rules under concurrency, then the running stack over HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from sqlalchemy import select

from core import credits
from core.db import SessionFactory
from core.enums import HoldStatus, LedgerKind
from core.models.accounts import Account, CreditHold, LedgerEntry
from core.storage import Storage
from ops.stack import Stack
from tests.support.api_client import Guest
from tests.support.holds import account_of
from tests.support.paths import fixture_images
from tests.support.stacks import DatabaseStacks, sessions_for

# The ledger rules alone (fast)


def holds_of(db: SessionFactory, account_id: str) -> dict[str, str]:
    with db() as session:
        return {hold.id: hold.status for hold in session.execute(
            select(CreditHold).where(CreditHold.account_id == account_id)).scalars()}


def test_concurrent_holds_then_concurrent_posts_and_voids_settle_each_hold_once(
    database: SessionFactory,
) -> None:
    with database.begin() as session:
        account = Account(kind="guest", distributor_id="test")
        session.add(account)
    credits.grant(database, account.id, free=6, paid=4, key=f"grant:{account.id}")

    def reserve(i: int) -> bool:
        try:
            credits.reserve(database, account.id, f"gen-{i}", 1, lambda _session: None)
            return True
        except credits.InsufficientCredits:
            return False

    with ThreadPoolExecutor(20) as pool:
        assert sum(pool.map(reserve, range(20))) == 10
    with database() as session:
        balance = credits.get_balance(session, account.id)
    assert (balance.total, balance.held, balance.available) == (10, 10, 0)
    # A charge without a hold (a generation from before holds) cannot take reserved credits.
    with pytest.raises(credits.InsufficientCredits):
        credits.charge(database, account.id, 1, generation_id="no-hold")

    reserved = sorted(holds_of(database, account.id))
    posted, voided = reserved[:5], reserved[5:]

    def settle(job: tuple[str, str]) -> None:
        action, generation_id = job
        if action == "post":
            credits.charge(database, account.id, 1, generation_id=generation_id)
        else:
            credits.void_hold(database, generation_id)

    # Each posted twice or voided twice (retried activities), all at once.
    jobs = [("post", g) for g in posted] * 2 + [("void", g) for g in voided] * 2
    with ThreadPoolExecutor(20) as pool:
        list(pool.map(settle, jobs))
    # Too late to matter: a posted hold is not voided, a voided one stays voided.
    assert credits.void_hold(database, posted[0]) == 0

    statuses = holds_of(database, account.id)
    assert sorted(statuses[g] for g in posted) == [HoldStatus.POSTED] * 5
    assert sorted(statuses[g] for g in voided) == [HoldStatus.VOIDED] * 5
    with database() as session:
        balance = credits.get_balance(session, account.id)
        in_ledger = credits.ledger_sum(session, account.id)
        charges = session.execute(select(LedgerEntry.reference).where(
            LedgerEntry.account_id == account.id, LedgerEntry.kind == LedgerKind.CHARGE)).all()
    assert (balance.free, balance.paid, balance.held) == (1, 4, 0)  # free credits go first
    assert (in_ledger.free, in_ledger.paid) == (balance.free, balance.paid)
    assert sorted(row.reference for row in charges) == posted


# The running stack over HTTP


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def running(request: pytest.FixtureRequest, database_stacks: DatabaseStacks) -> Stack:
    """The run's stack on SQLite, then on PostgreSQL (tests/integration/conftest.py)."""
    return database_stacks.on(request)


@pytest.fixture(scope="module")
def db(running: Stack) -> Iterator[SessionFactory]:
    with sessions_for(running.settings.resolved_database_url) as sessions:
        yield sessions


def test_thirty_concurrent_submits_on_five_credits_accept_exactly_five(
    running: Stack, db: SessionFactory
) -> None:
    guest = Guest(running.settings.app_url)
    assert guest.start_credits == 5
    key = guest.upload(fixture_images("people")[0].read_bytes())

    def submit(_: int) -> httpx.Response:
        return guest.submit("burstreplace", [key], backgroundId="white")

    with ThreadPoolExecutor(30) as pool:
        answers = list(pool.map(submit, range(30)))
    accepted = [a for a in answers if a.status_code == 200]
    refused = [a for a in answers if a.status_code != 200]
    assert len(accepted) == 5, [a.text for a in refused[:3]]
    assert {a.status_code for a in refused} == {402}
    assert all("Not enough credits" in a.json()["message"] for a in refused)
    # Reserved at once: nothing more can be spent while they run.
    assert guest.credits() == 0

    task_ids = [t for a in accepted for t in a.json()["data"]["taskIds"]]
    assert all(t["status"] == "completed" for t in guest.wait(task_ids, timeout=240))
    for answer in accepted:
        guest.wait_generation(answer.json()["data"]["serviceId"])
    account_id = account_of(db, guest)
    with db() as session:
        balance = credits.get_balance(session, account_id)
        in_ledger = credits.ledger_sum(session, account_id)
        charges = session.execute(select(LedgerEntry).where(
            LedgerEntry.account_id == account_id, LedgerEntry.kind == "charge")).scalars().all()
    assert (balance.free, balance.paid, balance.held) == (0, 0, 0)
    assert (in_ledger.free, in_ledger.paid) == (0, 0)  # nothing negative, ledger agrees
    assert len(charges) == 5 and sum(-c.delta_free for c in charges) == 5
    assert sorted(holds_of(db, account_id).values()) == [HoldStatus.POSTED] * 5


def test_a_generation_failing_before_its_charge_releases_its_reservation(
    running: Stack, db: SessionFactory
) -> None:
    guest = Guest(running.settings.app_url)
    key = guest.upload(fixture_images("people")[1].read_bytes())
    running.stop_process("worker")  # the orchestration worker: nothing verifies meanwhile
    try:
        submitted = guest.submit("burstreplace", [key], backgroundId="white")
        assert submitted.status_code == 200, submitted.text
        assert guest.credits() == 4  # reserved
        Storage(running.settings).delete(key)  # the input vanishes before it is verified
    finally:
        running.start_worker()
    service = guest.wait_generation(submitted.json()["data"]["serviceId"], timeout=90)
    assert service["status"] == "failed" and "not found" in (service["error"] or "")
    assert guest.credits() == 5
    with db() as session:
        hold = session.get(CreditHold, service["serviceId"])
        assert hold is not None and hold.status == HoldStatus.VOIDED
        assert credits.get_balance(session, account_of(db, guest)).held == 0


def test_the_same_idempotency_key_for_another_request_is_refused(running: Stack) -> None:
    guest = Guest(running.settings.app_url)
    first_key, other_key = (
        guest.upload(image.read_bytes()) for image in fixture_images("people")[:2]
    )
    first = guest.submit("burstreplace", [first_key], "key-1", backgroundId="white")
    assert first.status_code == 200, first.text
    generation_id = first.json()["data"]["serviceId"]

    for service, inputs, fields in (
        ("burstreplace", [first_key], {"backgroundId": "transparent"}),
        ("burstreplace", [other_key], {"backgroundId": "white"}),
        ("burstreplace", [first_key, other_key], {"backgroundId": "white"}),
        ("bodySwap", [first_key], {"modelId": "model-2", "backgroundId": "white"}),
    ):
        other = guest.submit(service, inputs, "key-1", **fields)
        assert other.status_code == 422, (service, inputs, fields, other.text)
        assert other.json() == {"message": (
            "This Idempotency-Key was already used for a different request; "
            "use a new key for a new generation.")}
    # The same request again is still answered with the first generation, and one charge.
    again = guest.submit("burstreplace", [first_key], "key-1", backgroundId="white")
    assert again.status_code == 200 and again.json()["data"]["serviceId"] == generation_id
    guest.wait_generation(generation_id)
    assert guest.credits() == 4
