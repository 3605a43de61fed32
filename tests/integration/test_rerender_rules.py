"""The bound on free re-renders holds under concurrency, on SQLite and on PostgreSQL: twenty
requests at once for one image, ten allowed, exactly ten recorded and started (real Temporal;
nothing polls these task queues, so the workflows only wait)."""

from __future__ import annotations

import asyncio

from anyio import to_thread
from sqlalchemy import func, select
from temporalio.client import Client

from core.auth.tokens import Principal
from core.contracts.rerender import rerender_workflow_id
from core.db import SessionFactory
from core.engine import Placement
from core.errors import Conflict
from core.library.rerender import MAX_RERENDERS, Rerenders
from core.models.accounts import LedgerEntry
from core.models.catalog import CatalogItem
from core.models.generations import GenerationImage
from core.settings import Settings
from tests.support.helpers import make_account, make_generation


async def test_twenty_concurrent_rerenders_record_exactly_the_bound(
    database: SessionFactory, settings: Settings, temporal: Client
) -> None:
    account = make_account(database)
    with database.begin() as session:
        session.add(CatalogItem(id="white", kind="background", name="White", builtin=True,
                                key="catalog/white.png", thumbnail_key="catalog/white.jpg"))
    _, (task_id,) = make_generation(database, account, "burstreplace", ["uploads/x/a.jpg"],
                                    background_id="white")
    with database.begin() as session:
        task = session.get(GenerationImage, task_id)
        assert task is not None
        task.status, task.output_key = "completed", "outputs/a.png"
    with database() as session:
        ledger_before = session.scalar(select(func.count()).select_from(LedgerEntry))

    rerenders = Rerenders(database, settings, temporal)
    principal = Principal(account_id=account, kind="guest", distributor_id="test")

    async def one(n: int) -> str | None:
        try:
            done = await to_thread.run_sync(
                rerenders.request, principal, task_id, Placement(x=0.01 * (n % 5))
            )
        except Conflict as error:
            assert f"already re-rendered {MAX_RERENDERS} times" in error.message
            return None
        return done.task_id

    made = [t for t in await asyncio.gather(*(one(n) for n in range(20))) if t]
    assert len(made) == MAX_RERENDERS
    with database() as session:
        original = session.get(GenerationImage, task_id)
        assert original is not None and original.rerenders == MAX_RERENDERS
        recorded = set(session.execute(
            select(GenerationImage.id).where(GenerationImage.source_task_id == task_id)).scalars())
        positions = list(session.execute(
            select(GenerationImage.position)
            .where(GenerationImage.generation_id == original.generation_id)
        ).scalars())
        assert session.scalar(select(func.count()).select_from(LedgerEntry)) == ledger_before
    assert recorded == set(made)
    assert len(positions) == MAX_RERENDERS + 1
    for new_task in made:  # each one's workflow was started
        described = await temporal.get_workflow_handle(rerender_workflow_id(new_task)).describe()
        assert described.id == rerender_workflow_id(new_task)
        await temporal.get_workflow_handle(rerender_workflow_id(new_task)).terminate("test over")
