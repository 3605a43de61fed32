"""The database layer on SQLite and on PostgreSQL: migrations, and credits under concurrency."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, select

from api.task_watch import TaskWatcher
from core import credits
from core.db import SessionFactory, make_database, make_session_factory
from core.models.accounts import Account, LedgerEntry
from core.models.base import Base
from core.models.generations import Generation, GenerationImage
from ops.stack import migrate

TABLES = {"accounts", "credit_ledger", "files", "catalog_items", "generations", "tasks", "outbox"}


def new_account(database: SessionFactory, free: int = 0, paid: int = 0) -> str:
    with database.begin() as session:
        account = Account(kind="guest", distributor_id="test")
        session.add(account)
    credits.grant(database, account.id, free=free, paid=paid, key=f"grant:{account.id}")
    return account.id


def test_migrations_from_empty(database_url: str) -> None:
    migrate(database_url)
    database = make_database(database_url)
    try:
        tables = set(inspect(database).get_table_names())
    finally:
        database.dispose()
    assert tables >= TABLES
    assert "alembic_version" in tables
    migrate(database_url)  # a second run is a no-op, not an error
    # The migrations build exactly what the models describe (a forgotten column would differ).
    database = make_database(database_url)
    try:
        with database.connect() as connection:
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    finally:
        database.dispose()
    assert differences == []


def test_twenty_concurrent_charges_against_ten_credits(database: SessionFactory) -> None:
    account_id = new_account(database, free=6, paid=4)

    def one(i: int) -> bool:
        try:
            credits.charge(database, account_id, 1, generation_id=f"gen-{i}")
            return True
        except credits.InsufficientCredits:
            return False

    with ThreadPoolExecutor(20) as pool:
        results = list(pool.map(one, range(20)))

    assert results.count(True) == 10
    with database() as session:
        balance = credits.get_balance(session, account_id)
        ledger = credits.ledger_sum(session, account_id)
        charges = session.execute(
            select(LedgerEntry).where(
                LedgerEntry.account_id == account_id, LedgerEntry.kind == "charge"
            )
        ).scalars().all()
    assert balance.total == 0
    assert (ledger.free, ledger.paid) == (balance.free, balance.paid)
    assert len(charges) == 10


def test_charge_is_idempotent_and_refund_restores(database: SessionFactory) -> None:
    account_id = new_account(database, free=2, paid=3)
    first = credits.charge(database, account_id, 4, generation_id="g1")
    again = credits.charge(database, account_id, 4, generation_id="g1")
    assert (first.free, first.paid, first.already_charged) == (2, 2, False)
    assert (again.free, again.paid, again.already_charged) == (2, 2, True)
    with database() as session:
        assert credits.get_balance(session, account_id).total == 1

    # Two task refunds of 2 each; the paid credits come back first; a repeat gives nothing.
    assert credits.refund(database, account_id, 2, generation_id="g1", part="t1") == 2
    assert credits.refund(database, account_id, 2, generation_id="g1", part="t1") == 0
    assert credits.refund(database, account_id, 2, generation_id="g1", part="t2") == 2
    # Never more than was charged.
    assert credits.refund(database, account_id, 5, generation_id="g1", part="t3") == 0
    with database() as session:
        balance = credits.get_balance(session, account_id)
        assert (balance.free, balance.paid) == (2, 3)
        assert credits.ledger_sum(session, account_id) == balance


def test_charge_beyond_balance_changes_nothing(database: SessionFactory) -> None:
    account_id = new_account(database, free=1)
    with pytest.raises(credits.InsufficientCredits, match="needs 3 credits and you have 1"):
        credits.charge(database, account_id, 3, generation_id="g")
    with database() as session:
        assert credits.get_balance(session, account_id).total == 1
        assert session.execute(
            select(LedgerEntry).where(LedgerEntry.kind == "charge")
        ).first() is None


def test_refund_without_charge_gives_nothing(database: SessionFactory) -> None:
    account_id = new_account(database, free=1)
    assert credits.refund(database, account_id, 1, generation_id="never", part="x") == 0


async def test_task_watcher_wakes_on_a_commit_from_another_connection(
    database: SessionFactory, database_url: str
) -> None:
    """The long-poll watcher, on both databases: a waiter wakes when another connection (the
    worker's, in production another process) commits a change, and not before."""
    account = new_account(database, free=1)
    with database.begin() as session:
        generation = Generation(account_id=account, service="burstreplace", credits=1,
                                distributor_id="test")
        session.add(generation)
        session.flush()
        task = GenerationImage(generation_id=generation.id, position=0, input_key="uploads/x.jpg")
        session.add(task)
    watcher = TaskWatcher(database, database_url)
    writer = make_database(database_url)
    try:
        assert watcher.read_states([task.id]) == {task.id: "queued:0"}
        # Nothing changes: the wait runs its full length.
        loop = asyncio.get_running_loop()
        started = loop.time()
        await watcher.wait([task.id], "queued:0", timeout=0.5)
        assert loop.time() - started >= 0.45

        def move_on() -> None:
            time.sleep(0.3)
            with make_session_factory(writer).begin() as session:
                row = session.get(GenerationImage, task.id)
                assert row is not None
                row.status, row.progress = "running", 40

        mover = loop.run_in_executor(None, move_on)
        started = loop.time()
        await watcher.wait([task.id], "queued:0", timeout=20)
        woke_after = loop.time() - started
        await mover
        assert 0.25 <= woke_after < 5, woke_after
        assert watcher.read_states([task.id]) == {task.id: "running:40"}
        # A stale `seen` (the change already happened) wakes on the watcher's first look.
        started = loop.time()
        await watcher.wait([task.id], "queued:0", timeout=20)
        assert loop.time() - started < 5
    finally:
        await watcher.close()
        writer.dispose()
