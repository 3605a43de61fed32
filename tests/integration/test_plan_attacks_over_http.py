"""Attacks on the generation plan and the money path around it (issue 38) over HTTP, on
SQLite and on PostgreSQL (the run's shared stacks, tests/integration/conftest.py): a retried
submit raced, another account's uploads, hostile submit bodies. The in-process attacks on the
plan itself (overwritten uploads, late starts, lost answers) are test_plan_attacks.py.

The rule checked throughout: nothing lost, nothing charged twice, no charge without an image.
"""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
from sqlalchemy import func, select

from core import credits
from core.db import SessionFactory
from core.enums import HoldStatus
from core.models.accounts import CreditHold, LedgerEntry, User
from core.models.generations import Generation
from core.settings import Settings
from tests.support.accounts import sign_up
from tests.support.api_client import Guest
from tests.support.holds import account_of
from tests.support.paths import fixture_images
from tests.support.stacks import sessions_for


def uploaded(guest: Guest, data: bytes) -> tuple[str, str]:
    """An upload as the browser makes it (presigned URL, PUT): its file id and key."""
    target = guest.get("/api/v1/request/presignedUrl", filename="photo.jpg",
                       mimeType="image/jpeg", requestType="burstreplace").json()["data"]
    httpx.put(target["url"], content=data, headers={"Content-Type": "image/jpeg"}
              ).raise_for_status()
    return str(target["_id"]), str(target["key"])


def nothing_recorded(db: SessionFactory, account_id: str) -> None:
    """No generation, task, hold or ledger movement but the account's own grant."""
    with db() as session:
        generations = session.scalar(select(func.count()).select_from(Generation)
                                     .where(Generation.account_id == account_id))
        holds = session.scalar(select(func.count()).select_from(CreditHold)
                               .where(CreditHold.account_id == account_id))
        kinds = session.execute(select(LedgerEntry.kind)
                                .where(LedgerEntry.account_id == account_id)).scalars().all()
        balance_now = credits.get_balance(session, account_id)
    assert (generations, holds, balance_now.held) == (0, 0, 0)
    assert "charge" not in kinds and "refund" not in kinds


def refused(answer: httpx.Response, status: int = 422) -> str:
    """A refusal a person can read: the status, JSON, a message."""
    assert answer.status_code == status, answer.text[:500]
    message = answer.json()["message"]
    assert isinstance(message, str) and message.strip(), answer.text[:500]
    return message


def test_the_same_idempotency_key_raced_is_one_generation_and_one_charge(
    stack_on_each_database: Settings,
) -> None:
    """4 submits at once of one upload without a key are 4 generations, each held once; then a
    client retrying on a timeout sends its submit 8 times at once with one Idempotency-Key, on
    the last credit: all 8 get the one generation (before: those whose hold was counted after
    the first's got 402 "Not enough credits" for a request that was accepted). 5 credits,
    5 images, 5 charges, nothing negative, every hold posted."""
    guest = Guest(stack_on_each_database.app_url)
    assert guest.start_credits == 5
    _, key = uploaded(guest, fixture_images("people")[0].read_bytes())

    def send(retried: str | None) -> httpx.Response:
        return guest.submit("burstreplace", [key], retried, backgroundId="white")

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, [None] * 4))
        assert [a.status_code for a in answers] == [200] * 4, [a.text for a in answers]
        assert guest.credits() == 1
        answers += list(pool.map(send, ["retry-1"] * 8))
    assert [a.status_code for a in answers] == [200] * 12, [a.text for a in answers]
    ids = [a.json()["data"]["serviceId"] for a in answers]
    assert len(set(ids[4:])) == 1 and len(set(ids)) == 5
    tasks = {t for a in answers for t in a.json()["data"]["taskIds"]}
    assert all(t["status"] == "completed" for t in guest.wait(sorted(tasks), timeout=300))
    for generation_id in set(ids):
        assert guest.wait_generation(generation_id, timeout=120)["status"] == "completed"
    assert guest.credits() == 0
    with sessions_for(stack_on_each_database.resolved_database_url) as db:
        account_id = account_of(db, guest)
        with db() as session:
            charges = session.execute(select(LedgerEntry.reference).where(
                LedgerEntry.account_id == account_id, LedgerEntry.kind == "charge")).scalars()
            assert sorted(str(c) for c in charges) == sorted(set(ids))
            assert session.scalar(select(func.count()).select_from(Generation).where(
                Generation.idempotency_key == "retry-1")) == 1
            holds = session.execute(select(CreditHold.status).where(
                CreditHold.account_id == account_id)).scalars().all()
            assert holds == [HoldStatus.POSTED] * 5
            value = credits.get_balance(session, account_id)
            assert (value.free, value.paid, value.held) == (0, 0, 0)
            assert credits.ledger_sum(session, account_id) == value


def test_another_accounts_upload_is_refused_to_a_guest_a_user_and_an_api_key(
    stack_on_each_database: Settings,
) -> None:
    """Another account's upload, by key or by file id, in a submit: a plain 422 to a guest, a
    signed-in user and that user's API key alike; nothing recorded, held or charged for the
    caller, and the owner's upload still works for the owner."""
    stack = stack_on_each_database
    owner = Guest(stack.app_url)
    file_id, key = uploaded(owner, fixture_images("people")[1].read_bytes())
    mine = "inputFiles[0]: that is not one of your uploads."
    attacker = Guest(stack.app_url)
    for value in (key, file_id):
        answer = attacker.submit("burstreplace", [value], backgroundId="white")
        assert refused(answer) == mine
    answer = attacker.submit("burstreplace", [key], "steal-1", backgroundId="white")
    assert refused(answer) == mine
    assert attacker.credits() == attacker.start_credits
    with httpx.Client(base_url=stack.app_url, timeout=60) as api, \
            sessions_for(stack.resolved_database_url) as db:
        email = f"plan-{uuid.uuid4().hex[:8]}@example.com"
        session = {"Authorization": f"Bearer {sign_up(api, db, email)}"}
        made = api.post("/api/v1/api-keys", json={"name": "attack"}, headers=session)
        assert made.status_code == 201, made.text
        secret = {"Authorization": f"Bearer {made.json()['data']['secret']}"}
        for headers in (session, secret):
            for value in (key, file_id):
                answer = api.post("/api/v1/generations", headers=headers, json={
                    "service": "burstreplace", "inputs": [value], "backgroundId": "white"})
                # The public API names its own field: `inputs`, not the web form's.
                assert refused(answer) == "inputs[0]: that is not one of your uploads."
        with db() as s:
            user_account = s.execute(select(User.account_id).where(User.email == email)
                                     ).scalar_one()
        nothing_recorded(db, user_account)
        nothing_recorded(db, account_of(db, attacker))
    # The owner's upload was neither taken nor damaged.
    answer = owner.submit("burstreplace", [file_id], backgroundId="white")
    assert answer.status_code == 200, answer.text
    (task,) = owner.wait(answer.json()["data"]["taskIds"], timeout=180)
    assert task["status"] == "completed"


def test_hostile_submit_bodies_are_refused_with_nothing_stored(
    stack_on_each_database: Settings,
) -> None:
    """What an attacker puts in a submit's fields: a thousand images, NULs, non-ASCII keys,
    objects where strings go, huge and negative values. Each is a 4xx JSON answer with a
    message; no generation, hold or charge is left behind."""
    stack = stack_on_each_database
    guest = Guest(stack.app_url)
    _, key = uploaded(guest, fixture_images("people")[2].read_bytes())
    form_cases: list[dict[str, Any]] = [
        {"inputFiles": [key] * 999, "backgroundId": "white"},
        {"inputFiles": [key] * 21, "backgroundId": "white"},
        {"inputFiles": ["фото/ключ-🙂.jpg"], "backgroundId": "white"},
        {"inputFiles": [key], "backgroundId": "белый"},
        {"inputFiles": [key], "backgroundId": "-1"},
        {"inputFiles": [key + "\x00"], "backgroundId": "white"},
        {"inputFiles": [key], "backgroundId": "w" * 100_000},
        {"inputFiles": ["x" * 100_000], "backgroundId": "white"},
        {"inputFiles": [""], "backgroundId": "white"},
    ]
    for fields in form_cases:
        answer = guest.post("/imageedit/service/burstreplace", data=fields)
        assert 400 <= answer.status_code < 500, (str(fields)[:200], answer.text[:300])
        refused(answer, answer.status_code)
    # More parts than the form parser takes, files by the dozen, a key no header may carry.
    for parts in (1001, 5000):
        answer = guest.post("/imageedit/service/burstreplace",
                            data={"inputFiles": [key] * parts, "backgroundId": "white"})
        assert 400 <= answer.status_code < 500, (parts, answer.text[:300])
        refused(answer, answer.status_code)
    files = [("inputFiles", (f"{n}.jpg", b"\xff\xd8 not a photo", "image/jpeg"))
             for n in range(25)]
    answer = guest.post("/imageedit/service/burstreplace", files=files,
                        data={"backgroundId": "white"})
    assert "at most 20" in refused(answer)
    for idempotency_key in ("k" * 129, "\u00e9t\u00e9"):
        answer = guest.post("/imageedit/service/burstreplace",
                            data={"inputFiles": ["nope"], "backgroundId": "white"},
                            headers={"Idempotency-Key": idempotency_key.encode("latin-1")})
        assert 400 <= answer.status_code < 500, answer.text[:300]
        refused(answer, answer.status_code)
    json_cases: list[Any] = [
        {"service": "burstreplace", "inputs": [key] * 1000, "backgroundId": "white"},
        {"service": "burstreplace", "inputs": [{"key": key}], "backgroundId": "white"},
        {"service": "burstreplace", "inputs": key, "backgroundId": "white"},
        {"service": "burstreplace", "inputs": [key], "backgroundId": {"id": "white"}},
        {"service": "burstreplace", "inputs": [key], "backgroundId": ["white"]},
        {"service": "burstreplace", "inputs": [key], "backgroundId": 10**30},
        {"service": "burstreplace", "inputs": [key, -1], "backgroundId": "white"},
        {"service": "burstreplace", "inputs": ["ключ\u200b🙂"], "backgroundId": "white"},
        {"service": "burstreplace", "inputs": [key], "backgroundId": "white",
         "metadata": {"order": {"id": 1}}},
        {"service": "burstreplace", "inputs": [key], "backgroundId": "white",
         "metadata": {"order": "a\x00b"}},
        {"service": "burstreplace", "inputs": [key], "backgroundId": "white",
         "metadata": {"n" * 41: "v"}},
        {"service": ["burstreplace"], "inputs": [key], "backgroundId": "white"},
        [{"service": "burstreplace", "inputs": [key], "backgroundId": "white"}],
    ]
    for body in json_cases:
        answer = guest.post("/api/v1/generations", json=body)
        assert 400 <= answer.status_code < 500, (str(body)[:200], answer.text[:300])
        refused(answer, answer.status_code)
    assert guest.credits() == guest.start_credits and guest.generation_count() == 0
    with sessions_for(stack.resolved_database_url) as db:
        nothing_recorded(db, account_of(db, guest))
