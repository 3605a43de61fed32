"""What an operator sees in the Temporal UI, on the running stack: a finished generation is
found by a visibility query on our search attributes, with a summary and activity summaries
that read as sentences; a subscription carries its account, plan and status. The histories
(with their upserts) replay with today's code."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import select
from temporalio.client import Client, WorkflowExecution
from temporalio.worker import Replayer

from core import workflow_search as ws
from core.contracts.subscription import subscription_workflow_id
from core.db import SessionFactory
from core.models.accounts import User
from ops.search_attributes import missing_search_attributes
from ops.stack import Stack
from tests.support.accounts import sign_up
from tests.support.api_client import Guest
from tests.support.holds import account_of
from tests.support.paths import fixture_images
from tests.support.stacks import sessions_for
from workflows.generation import GenerationWorkflow
from workflows.subscription import SubscriptionWorkflow


@pytest.fixture(scope="module")
def stack(shared_stack: Stack) -> Stack:
    """The run's shared stack (tests/conftest.py): each test here makes its own guests and
    accounts and looks only at those."""
    return shared_stack


@pytest.fixture(scope="module")
def db(stack: Stack) -> Iterator[SessionFactory]:
    with sessions_for(stack.settings.resolved_database_url) as sessions:
        yield sessions


async def find(client: Client, query: str, timeout: float = 15) -> list[WorkflowExecution]:
    """The workflows the query finds, once it finds any (visibility lags the history)."""
    deadline = time.monotonic() + timeout
    while True:
        found = [w async for w in client.list_workflows(query=query)]
        if found or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.3)


def summaries(events: Any) -> list[str]:
    """The summaries of the activities and local activities a history records."""
    from temporalio.converter import default

    out = []
    for event in events:
        if event.HasField("user_metadata") and event.user_metadata.HasField("summary"):
            out.append(default().payload_converter.from_payload(event.user_metadata.summary, str))
    return out


async def test_a_finished_generation_is_found_by_its_search_attributes(
    stack: Stack, db: SessionFactory
) -> None:
    client = await Client.connect(stack.settings.temporal_address)
    assert await missing_search_attributes(client, stack.settings.temporal_namespace) == {}

    guest = Guest(stack.settings.app_url)
    account_id = account_of(db, guest)
    keys = [guest.upload(photo.read_bytes()) for photo in fixture_images("people")[:2]]
    submitted = guest.submit("bodySwap", keys, modelId="model-1", backgroundId="bg-1")
    assert submitted.status_code == 200, submitted.text
    generation_id = submitted.json()["data"]["serviceId"]
    assert guest.wait_generation(generation_id, timeout=120)["status"] == "completed"

    query = (f"MmService='bodySwap' AND MmStatus='completed' AND MmAccountId='{account_id}'")
    (found,) = await find(client, query)
    assert found.id == generation_id
    attrs = found.typed_search_attributes
    assert attrs.get(ws.ACCOUNT_KIND) == "guest"
    assert attrs.get(ws.IMAGE_COUNT) == 2
    assert attrs.get(ws.CREDITS_CHARGED) == 2
    assert attrs.get(ws.DISTRIBUTOR_ID)
    # Filters an operator would type: nothing failed for this account, one bodySwap of 2 images.
    assert await find(client, f"MmStatus='failed' AND MmAccountId='{account_id}'", 1) == []
    assert len(await find(client, f"MmImageCount=2 AND MmAccountId='{account_id}'")) == 1

    handle = client.get_workflow_handle(generation_id)
    description = await handle.describe()
    assert await description.static_summary() == (
        f"bodySwap of 2 images for guest account {account_id}")
    assert "priced 2 credits" in (await description.static_details() or "")
    history = await handle.fetch_history()
    said = summaries(history.events)
    assert "Check the uploaded images and price the generation" in said
    assert f"Charge 2 credits to account {account_id}" in said
    assert {"bodySwap of image 1 of 2: engine, thumbnails, stored output",
            "bodySwap of image 2 of 2: engine, thumbnails, stored output"} <= set(said)
    assert "Record the generation as completed and tell its owner" in said
    await Replayer(workflows=[GenerationWorkflow]).replay_workflow(history)


async def test_a_subscription_carries_its_account_plan_and_status(
    stack: Stack, db: SessionFactory
) -> None:
    client = await Client.connect(stack.settings.temporal_address)
    with httpx.Client(base_url=stack.settings.app_url, timeout=60) as api:
        email = f"ops-{uuid.uuid4().hex[:8]}@example.com"
        headers = {"Authorization": f"Bearer {sign_up(api, db, email)}"}
        started = api.post("/api/v1/payment/checkout", headers=headers, json={
            "piid": "v2-starter-inr", "rcid": "v2-starter-inr-month", "currency": "INR"})
        assert started.status_code == 200, started.text
        data = started.json()["data"]
        paid = api.post(httpx.URL(data["checkoutUrl"]).path,
                        data={"card": "4242 4242 4242 4242"})
        assert paid.status_code == 303, paid.text
        deadline = time.monotonic() + 30
        while (sub := api.get("/api/v1/payment/subscription", headers=headers)
               .json()["data"]["subscription"]) is None:
            assert time.monotonic() < deadline, "no subscription"
            await asyncio.sleep(0.2)

    with db() as session:
        account_id = session.execute(
            select(User.account_id).where(User.email == email)).scalar_one()
    (found,) = await find(client, f"WorkflowType='Subscription' AND MmStatus='active' AND "
                                  f"MmAccountId='{account_id}'")
    assert found.id == subscription_workflow_id(sub["id"])
    plan = found.typed_search_attributes.get(ws.PLAN)
    assert plan
    assert len(await find(client, f"MmPlan='{plan}' AND MmAccountId='{account_id}'")) == 1
    history = await client.get_workflow_handle(found.id).fetch_history()
    assert "Save the subscription's state for the API" in summaries(history.events)
    await Replayer(workflows=[SubscriptionWorkflow]).replay_workflow(history)
