"""The placement adjustment (issue 13) over HTTP against the running stack: a re-render is a
new task of the same generation, free (no ledger entry), bounded, refused with a reason where
there is nothing to adjust, and durable like any other task."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import httpx
import numpy as np
import pytest
from PIL import Image
from sqlalchemy import func, select
from temporalio.client import Client
from temporalio.testing import ActivityEnvironment

from activities.sweeper import SweeperActivities, SweepStuck
from core import credits
from core.billing.reconciliation import reconcile
from core.contracts.rerender import RERENDER_WORKFLOW, rerender_workflow_id
from core.db import SessionFactory
from core.enums import GenerationStatus
from core.library.rerender import MAX_RERENDERS, start_rerender
from core.models.accounts import LedgerEntry
from core.models.base import new_id, utcnow
from core.models.generations import Generation, GenerationImage
from core.settings import Settings
from ops.stack import Stack
from tests.support import histories
from tests.support.api_client import Guest
from tests.support.helpers import make_generation
from tests.support.paths import fixture_images
from tests.support.stacks import running_stack
from workflows.rerender import RerenderWorkflow


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    # A short heartbeat timeout, so the restart test notices a dead worker in seconds.
    with running_stack(
        tmp_path_factory.mktemp("rerender"), imaging_heartbeat_timeout_seconds=3.0
    ) as stack:
        yield stack


@pytest.fixture(scope="module")
def stack(running: Stack) -> Settings:
    return running.settings


@pytest.fixture(scope="module")
def guest(stack: Settings) -> Guest:
    return Guest(stack.app_url)


@pytest.fixture(scope="module")
def on_white(guest: Guest) -> dict[str, Any]:
    """A finished background replace of a person on white: the original to adjust."""
    key = guest.upload(fixture_images("people")[0].read_bytes())
    submitted = guest.submit("burstreplace", [key], backgroundId="white")
    assert submitted.status_code == 200, submitted.text
    (task,) = guest.wait(submitted.json()["data"]["taskIds"])
    assert task["status"] == "completed", task
    return {"serviceId": submitted.json()["data"]["serviceId"], "task": task}


def adjust(guest: Guest, task_id: str, **placement: float) -> httpx.Response:
    return guest.post(f"/api/v1/task/{task_id}/placement", json=placement)


def image(task: dict[str, Any]) -> np.ndarray:
    response = httpx.get(task["outputs"][0]["url"])
    assert response.status_code == 200
    return np.asarray(Image.open(io.BytesIO(response.content)).convert("L"))


def subject(gray: np.ndarray) -> tuple[float, int]:
    """Centroid x and area of the subject on white."""
    ys, xs = np.nonzero(gray < 235)
    assert xs.size, "no subject in the image"
    return float(xs.mean()), int(xs.size)


def ledger_of(db: SessionFactory, account_id: str) -> list[tuple[str, int, int]]:
    with db() as session:
        return [
            (e.kind, e.delta_free, e.delta_paid)
            for e in session.execute(
                select(LedgerEntry)
                .where(LedgerEntry.account_id == account_id)
                .order_by(LedgerEntry.id)
            ).scalars()
        ]


def account_of(db: SessionFactory, generation_id: str) -> str:
    with db() as session:
        generation = session.get(Generation, generation_id)
        assert generation is not None
        return generation.account_id


def test_rerender_moves_the_subject_for_free(
    guest: Guest, on_white: dict[str, Any], db: SessionFactory
) -> None:
    original = on_white["task"]
    account = account_of(db, on_white["serviceId"])
    balance, ledger = guest.credits(), ledger_of(db, account)

    response = adjust(guest, original["taskId"], x=0.15, y=0.0, scale=0.7)
    assert response.status_code == 200, response.text
    made = response.json()["data"]
    assert made["serviceId"] == on_white["serviceId"]
    assert made["sourceTaskId"] == original["taskId"] and made["taskId"] != original["taskId"]
    assert made["remaining"] == MAX_RERENDERS - 1

    (task,) = guest.wait([made["taskId"]])
    assert task["status"] == "completed" and task["progress"] == 100, task
    assert task["sourceTaskId"] == original["taskId"]
    assert task["placement"] == {"x": 0.15, "y": 0.0, "scale": 0.7}

    before, after = image(original), image(task)
    assert before.shape == after.shape
    width = before.shape[1]
    (x0, area0), (x1, area1) = subject(before), subject(after)
    assert 0.07 * width < x1 - x0 < 0.2 * width, (x0, x1)  # moved right
    assert 0.3 < area1 / area0 < 0.75, (area0, area1)  # and smaller

    # Another version of the same generation, which keeps its price and its status.
    service = guest.wait_generation(on_white["serviceId"])
    assert [t["taskId"] for t in service["tasks"]] == [original["taskId"], made["taskId"]]
    assert service["status"] == "completed" and service["credits"] == 1

    # Free: the balance and the ledger are untouched, and the books still add up.
    assert guest.credits() == balance
    assert ledger_of(db, account) == ledger
    with db() as session:
        assert credits.ledger_sum(session, account) == credits.get_balance(session, account)
    report = reconcile(db)
    assert report.mismatches == [], report.mismatches


def test_someone_elses_or_unknown_task_is_not_found(
    stack: Settings, on_white: dict[str, Any]
) -> None:
    other = Guest(stack.app_url)
    response = adjust(other, on_white["task"]["taskId"], x=0.1)
    assert response.status_code == 404, response.text
    assert response.json()["message"] == "That image was not found."
    assert adjust(other, "no-such-task", x=0.1).status_code == 404


@pytest.mark.parametrize(
    "placement",
    [{"x": 0.51}, {"x": -0.6}, {"y": 0.7}, {"scale": 0.29}, {"scale": 2.5}, {"x": "far"}],
)
def test_out_of_range_values_are_refused(
    guest: Guest, on_white: dict[str, Any], db: SessionFactory, placement: dict[str, Any]
) -> None:
    def tasks() -> int:
        with db() as session:
            return int(session.scalar(
                select(func.count()).select_from(GenerationImage).where(
                    GenerationImage.generation_id == on_white["serviceId"]
                )
            ) or 0)

    before = tasks()
    response = adjust(guest, on_white["task"]["taskId"], **placement)
    assert response.status_code == 422, response.text
    (field,) = placement
    assert response.json()["message"].startswith(f"{field}:")
    assert tasks() == before  # nothing recorded, nothing counted


def test_nothing_to_adjust_is_a_conflict_with_a_reason(
    guest: Guest, db: SessionFactory, on_white: dict[str, Any]
) -> None:
    account = account_of(db, on_white["serviceId"])
    key = on_white["task"]["inputKey"]

    # A model swap without a background: the person is not placed on anything.
    swap = guest.submit("bodySwap", [key], modelId="model-1")
    assert swap.status_code == 200, swap.text
    (task,) = guest.wait(swap.json()["data"]["taskIds"])
    assert task["status"] == "completed", task
    response = adjust(guest, task["taskId"], x=0.1)
    assert response.status_code == 409
    assert "no background" in response.json()["message"]

    # A transparent background keeps the photo's framing.
    _, (transparent,) = make_generation(db, account, "burstreplace", [key],
                                        background_id="transparent")
    _, (failed,) = make_generation(db, account, "burstreplace", [key], background_id="white")
    with db.begin() as session:
        for task_id in (transparent, failed):
            row = session.get(GenerationImage, task_id)
            assert row is not None
            row.status, row.output_key = GenerationStatus.COMPLETED, f"outputs/{task_id}.png"
        row = session.get(GenerationImage, failed)
        assert row is not None
        row.status, row.output_key = GenerationStatus.FAILED, None
        row.error = "No subject was found."
    response = adjust(guest, transparent, scale=1.2)
    assert response.status_code == 409 and "transparent" in response.json()["message"]
    response = adjust(guest, failed, scale=1.2)
    assert response.status_code == 409
    assert response.json()["message"] == (
        "This image could not be created: only a finished image can be adjusted."
    )


def test_at_most_max_rerenders_per_image(
    guest: Guest, on_white: dict[str, Any], db: SessionFactory
) -> None:
    original_id = on_white["task"]["taskId"]
    with db() as session:
        done = session.scalar(select(GenerationImage.rerenders)
            .where(GenerationImage.id == original_id))
    assert done == 1  # the first test's
    # A re-render of a re-render counts against the original (it renders the same input).
    first = guest.get(f"/imageedit/service/{on_white['serviceId']}").json()["data"]["tasks"][1]
    made = []
    for n in range(done, MAX_RERENDERS):
        response = adjust(guest, first["taskId"] if n % 2 else original_id, x=-0.01 * n)
        assert response.status_code == 200, response.text
        body = response.json()["data"]
        assert body["sourceTaskId"] == original_id
        assert body["remaining"] == MAX_RERENDERS - n - 1
        made.append(body["taskId"])
    refused = adjust(guest, original_id, x=0.2)
    assert refused.status_code == 409
    assert f"already re-rendered {MAX_RERENDERS} times" in refused.json()["message"]
    finished = guest.wait(made, timeout=240)
    assert [t["status"] for t in finished] == ["completed"] * len(made)


def test_rerender_survives_a_worker_restart(
    running: Stack, stack: Settings, db: SessionFactory
) -> None:
    guest = Guest(stack.app_url)
    key = guest.upload(fixture_images("people")[1].read_bytes())
    submitted = guest.submit("burstreplace", [key], backgroundId="bg-1")
    assert submitted.status_code == 200, submitted.text
    (original,) = guest.wait(submitted.json()["data"]["taskIds"])
    assert original["status"] == "completed", original

    # No imaging worker: the re-render's imaging waits in its queue; then the orchestration
    # worker dies too, and both come back.
    running.kill_process("imaging")
    response = adjust(guest, original["taskId"], x=-0.1, scale=1.3)
    assert response.status_code == 200, response.text
    task_id = response.json()["data"]["taskId"]
    time.sleep(1.0)
    (waiting,) = guest.poll([task_id]).json()["data"]
    assert waiting["status"] == "queued" and not waiting["outputs"]
    # While the new version is being made, the generation cannot be deleted: its output would
    # land after the delete and outlive it.
    generation_id = submitted.json()["data"]["serviceId"]
    refused = guest.http.delete(f"/imageedit/service/{generation_id}", headers=guest.headers)
    assert refused.status_code == 422, refused.text
    assert "still being made" in refused.json()["message"]
    running.kill_process("worker")
    running.start_worker("worker-restarted")
    running.start_imaging("imaging-restarted")

    (task,) = guest.wait([task_id], timeout=240)
    assert task["status"] == "completed", task
    assert not np.array_equal(image(task), image(original))  # the subject moved
    with db() as session:
        row = session.get(GenerationImage, task_id)
        assert row is not None and row.source_task_id == original["taskId"]
        assert (row.placement_x, row.placement_scale) == (-0.1, 1.3)


async def test_the_sweeper_starts_a_rerender_the_api_never_started(
    stack: Settings, guest: Guest, on_white: dict[str, Any], db: SessionFactory
) -> None:
    # As if the API died between recording the re-render and starting its workflow.
    original_id = on_white["task"]["taskId"]
    task_id = new_id()
    with db.begin() as session:
        original = session.get(GenerationImage, original_id)
        assert original is not None
        session.add(GenerationImage(
            id=task_id, generation_id=original.generation_id, position=99,
            input_key=original.input_key, input_size=original.input_size,
            input_etag=original.input_etag, source_task_id=original_id,
            placement_x=0.2, placement_y=0.0, placement_scale=1.0,
            created_at=utcnow() - timedelta(minutes=2),
        ))
    client = await Client.connect(stack.temporal_address)
    sweeper = SweeperActivities(db, stack)
    report = await ActivityEnvironment(client=client).run(
        sweeper.sweep_stuck, SweepStuck(older_than_seconds=60, give_up_after_seconds=3600))
    assert report.rerenders == [task_id] and report.started == []
    (task,) = await asyncio.to_thread(guest.wait, [task_id])
    assert task["status"] == "completed", task
    x0, _ = subject(image(on_white["task"]))
    x1, _ = subject(image(task))
    assert x1 - x0 > 0.1 * image(task).shape[1]
    # Sweeping again finds nothing: it is no longer queued.
    again = await ActivityEnvironment(client=client).run(
        sweeper.sweep_stuck, SweepStuck(older_than_seconds=60, give_up_after_seconds=3600))
    assert again.rerenders == []


async def test_a_rerender_that_cannot_be_made_fails_with_its_reason_and_costs_nothing(
    stack: Settings, guest: Guest, on_white: dict[str, Any], db: SessionFactory
) -> None:
    original_id = on_white["task"]["taskId"]
    account = account_of(db, on_white["serviceId"])
    ledger = ledger_of(db, account)
    task_id = new_id()
    with db.begin() as session:
        original = session.get(GenerationImage, original_id)
        assert original is not None
        counted = original.rerenders + 1
        original.rerenders = counted  # as the request counts it
        # The input changed since it was checked at submit (another ETag): refused for good.
        session.add(GenerationImage(
            id=task_id, generation_id=original.generation_id, position=98,
            input_key=original.input_key, input_size=original.input_size,
            input_etag='"not-the-checked-version"', source_task_id=original_id,
            placement_x=0.0, placement_y=0.1, placement_scale=1.0,
        ))
    client = await Client.connect(stack.temporal_address, namespace=stack.temporal_namespace)
    await start_rerender(client, stack, task_id, on_white["serviceId"])
    result = await client.get_workflow_handle(rerender_workflow_id(task_id)).result()
    assert result["status"] == "failed", result
    (task,) = await asyncio.to_thread(guest.wait, [task_id])
    assert task["status"] == "failed" and task["error"], task
    assert "credits" not in task["error"]
    assert ledger_of(db, account) == ledger
    # The failed try is given back: it does not count against the free re-renders.
    with db() as session:
        original = session.get(GenerationImage, original_id)
        assert original is not None and original.rerenders == counted - 1


# Last: the workflow runs unsandboxed, so its real histories must replay with today's code.


async def test_rerender_histories_replay(stack: Settings) -> None:
    client = await Client.connect(stack.temporal_address, namespace=stack.temporal_namespace)
    runs, longest = await histories.replay_every_run(client, RERENDER_WORKFLOW, [RerenderWorkflow])
    assert longest is not None
    histories.record("rerender", longest)
    assert runs >= MAX_RERENDERS + 2
