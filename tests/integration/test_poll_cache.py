"""The poll cache (api/poll_cache.py) against the running stack, on SQLite and PostgreSQL: a
repeated plain poll is answered from it, never once the database has changed (on PostgreSQL,
once the commit's notification is in), never to another caller, and never after the caller's
session has ended."""

from __future__ import annotations

import json
import re
import time
import uuid

import httpx
import jwt
import pytest
from sqlalchemy import update

from core.db import SessionFactory
from core.enums import GenerationKind, GenerationStatus
from core.models.generations import Generation, GenerationImage
from core.settings import Settings
from tests.support.accounts import sign_up
from tests.support.api_client import Guest
from tests.support.stacks import DatabaseStacks


@pytest.fixture(scope="module", params=["sqlite", "postgres"])
def stack(request: pytest.FixtureRequest, database_stacks: DatabaseStacks) -> Settings:
    """The run's stack on SQLite, then on PostgreSQL (tests/integration/conftest.py)."""
    return database_stacks.on(request).settings


def exact(stack: Settings) -> bool:
    """SQLite's check is exact; PostgreSQL's notification arrives just after the commit."""
    return stack.resolved_database_url.startswith("sqlite")


def hits(api: httpx.Client) -> float:
    found = re.search(r"^mm_poll_cache_hits_total (\S+)$", api.get("/metrics").text, re.M)
    assert found, "the API exports mm_poll_cache_hits_total"
    return float(found.group(1))


def running_task(db: SessionFactory, token: str) -> str:
    """A task of the token's account, half-way, as the imaging worker leaves it."""
    claims = jwt.decode(token, options={"verify_signature": False})
    with db() as session:
        generation = Generation(
            account_id=claims["sub"], service=GenerationKind.BURST_REPLACE, status="running",
            background_id="white", credits=1, distributor_id=claims["did"],
        )
        session.add(generation)
        session.flush()
        task = GenerationImage(
            generation_id=generation.id, position=0, input_key=f"uploads/t/{generation.id}.jpg",
            status=GenerationStatus.RUNNING, progress=40, stage="engine",
        )
        session.add(task)
        session.commit()
        return task.id


def poll(client: httpx.Client, token: str, task_id: str) -> httpx.Response:
    return client.get(
        "/api/v1/task/pollTasks",
        params={"taskIds": json.dumps([task_id])},
        headers={"Authorization": f"Bearer {token}"},
    )


def test_a_repeat_is_answered_from_the_cache_until_something_commits(
    stack: Settings, db: SessionFactory, api: httpx.Client
) -> None:
    guest = Guest(stack.app_url)
    task_id = running_task(db, guest.token)
    # On PostgreSQL the listener connects at the first poll: wait until it caches.
    deadline = time.monotonic() + 10
    before = hits(api)
    first = poll(api, guest.token, task_id)
    while hits(api) == before and time.monotonic() < deadline:
        before = hits(api)
        first = poll(api, guest.token, task_id)
        second = poll(api, guest.token, task_id)
    before = hits(api)
    second = poll(api, guest.token, task_id)
    assert first.status_code == second.status_code == 200, first.text
    assert first.json() == second.json()
    assert first.json()["data"][0]["progress"] == 40
    assert hits(api) == before + 1

    # The worker moves the task on (another process, another connection): on SQLite the very
    # next poll shows it; on PostgreSQL as soon as the commit's notification is in.
    with db() as session:
        session.execute(update(GenerationImage)
            .where(GenerationImage.id == task_id).values(progress=80))
        session.commit()
    moved = poll(api, guest.token, task_id)
    if not exact(stack):
        deadline = time.monotonic() + 1
        while moved.json()["data"][0]["progress"] != 80 and time.monotonic() < deadline:
            moved = poll(api, guest.token, task_id)
    assert moved.status_code == 200
    assert moved.json()["data"][0]["progress"] == 80
    before = hits(api)
    assert poll(api, guest.token, task_id).json() == moved.json()
    assert hits(api) == before + 1

    # Long polls are never answered from it (they wait for a change instead).
    long = api.get(
        "/api/v1/task/pollTasks",
        params={"taskIds": json.dumps([task_id]), "since": "running:40", "waitMs": 1000},
        headers={"Authorization": f"Bearer {guest.token}"},
    )
    assert long.json()["data"][0]["progress"] == 80
    assert hits(api) == before + 1


def test_this_processes_own_writes_are_seen_at_once(
    stack: Settings, db: SessionFactory, api: httpx.Client
) -> None:
    """A deletion through the API: the very next poll of its task answers 404, cache or not."""
    guest = Guest(stack.app_url)
    task_id = running_task(db, guest.token)
    with db() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None
        generation_id = task.generation_id
        session.execute(
            update(GenerationImage)
            .where(GenerationImage.id == task_id).values(status="completed", progress=100)
        )
        session.execute(
            update(Generation).where(Generation.id == generation_id).values(status="completed")
        )
        session.commit()
    time.sleep(0.2)  # PostgreSQL: the notification of that write is in
    before = hits(api)
    assert poll(api, guest.token, task_id).status_code == 200
    assert poll(api, guest.token, task_id).status_code == 200
    assert hits(api) == before + 1
    deleted = guest.http.delete(f"/imageedit/service/{generation_id}", headers=guest.headers)
    assert deleted.status_code == 200, deleted.text
    gone = poll(api, guest.token, task_id)
    assert gone.status_code == 404, gone.text


def test_a_cached_answer_goes_to_no_one_else(
    stack: Settings, db: SessionFactory, api: httpx.Client
) -> None:
    owner, other = Guest(stack.app_url), Guest(stack.app_url)
    task_id = running_task(db, owner.token)
    assert poll(api, owner.token, task_id).status_code == 200
    assert poll(api, owner.token, task_id).status_code == 200
    refused = poll(api, other.token, task_id)
    assert refused.status_code == 404, refused.text
    assert refused.json()["message"]
    # The same query without a token is refused too, and a forged token as well.
    anonymous = api.get("/api/v1/task/pollTasks", params={"taskIds": json.dumps([task_id])})
    assert anonymous.status_code == 401
    assert poll(api, owner.token + "x", task_id).status_code == 401


def test_an_ended_session_is_refused_at_once(
    stack: Settings, db: SessionFactory, api: httpx.Client
) -> None:
    token = sign_up(api, db, f"poll-{uuid.uuid4().hex[:8]}@example.com")
    task_id = running_task(db, token)
    assert poll(api, token, task_id).status_code == 200
    assert poll(api, token, task_id).status_code == 200
    logout = api.post("/api/v1/auth/logout", headers={"Authorization": f"Bearer {token}"})
    assert logout.status_code == 200
    ended = poll(api, token, task_id)
    assert ended.status_code == 401, ended.text
