"""The database layer on SQLite and on PostgreSQL: migrations, and credits under concurrency."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import inspect, select

from core import credits
from core.db import SessionFactory, make_engine, make_session_factory
from core.models import Account, LedgerEntry
from ops.stack import migrate

TABLES = {"accounts", "credit_ledger", "files", "catalog_items", "generations", "tasks", "outbox"}


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'db.sqlite'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def db(database_url: str) -> Iterator[SessionFactory]:
    migrate(database_url)
    engine = make_engine(database_url)
    yield make_session_factory(engine)
    engine.dispose()


def new_account(db: SessionFactory, free: int = 0, paid: int = 0) -> str:
    with db.begin() as session:
        account = Account(kind="guest", distributor_id="test")
        session.add(account)
    credits.grant(db, account.id, free=free, paid=paid, key=f"grant:{account.id}")
    return account.id


def test_migrations_from_empty(database_url: str) -> None:
    migrate(database_url)
    engine = make_engine(database_url)
    try:
        tables = set(inspect(engine).get_table_names())
    finally:
        engine.dispose()
    assert tables >= TABLES
    assert "alembic_version" in tables
    migrate(database_url)  # a second run is a no-op, not an error


def test_twenty_concurrent_charges_against_ten_credits(db: SessionFactory) -> None:
    account_id = new_account(db, free=6, paid=4)

    def one(i: int) -> bool:
        try:
            credits.charge(db, account_id, 1, generation_id=f"gen-{i}")
            return True
        except credits.InsufficientCredits:
            return False

    with ThreadPoolExecutor(20) as pool:
        results = list(pool.map(one, range(20)))

    assert results.count(True) == 10
    with db() as session:
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


def test_charge_is_idempotent_and_refund_restores(db: SessionFactory) -> None:
    account_id = new_account(db, free=2, paid=3)
    first = credits.charge(db, account_id, 4, generation_id="g1")
    again = credits.charge(db, account_id, 4, generation_id="g1")
    assert (first.free, first.paid, first.already_charged) == (2, 2, False)
    assert (again.free, again.paid, again.already_charged) == (2, 2, True)
    with db() as session:
        assert credits.get_balance(session, account_id).total == 1

    # Two task refunds of 2 each; the paid credits come back first; a repeat gives nothing.
    assert credits.refund(db, account_id, 2, generation_id="g1", part="t1") == 2
    assert credits.refund(db, account_id, 2, generation_id="g1", part="t1") == 0
    assert credits.refund(db, account_id, 2, generation_id="g1", part="t2") == 2
    # Never more than was charged.
    assert credits.refund(db, account_id, 5, generation_id="g1", part="t3") == 0
    with db() as session:
        balance = credits.get_balance(session, account_id)
        assert (balance.free, balance.paid) == (2, 3)
        assert credits.ledger_sum(session, account_id) == balance


def test_charge_beyond_balance_changes_nothing(db: SessionFactory) -> None:
    account_id = new_account(db, free=1)
    with pytest.raises(credits.InsufficientCredits, match="needs 3 credits and you have 1"):
        credits.charge(db, account_id, 3, generation_id="g")
    with db() as session:
        assert credits.get_balance(session, account_id).total == 1
        assert session.execute(
            select(LedgerEntry).where(LedgerEntry.kind == "charge")
        ).first() is None


def test_refund_without_charge_gives_nothing(db: SessionFactory) -> None:
    account_id = new_account(db, free=1)
    assert credits.refund(db, account_id, 1, generation_id="never", part="x") == 0
