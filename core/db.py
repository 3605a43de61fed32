"""The database (a SQLAlchemy Engine, named `database` here: "engine" is the image engine) and
sessions (SQLAlchemy 2, synchronous).

Everything that touches the database is synchronous: API routes run in FastAPI's thread pool
and activities run in the worker's thread pool, so no event loop is ever blocked by a query.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from core.observability.tracing import trace_database

SessionFactory = sessionmaker[Session]


def make_database(url: str) -> Engine:
    kwargs: dict[str, Any] = {}
    if url.startswith("sqlite"):
        # Waiting for the write lock beats failing with "database is locked" under bursts.
        kwargs["connect_args"] = {"timeout": 30}
        # A file cannot drop a connection, so no ping per checkout; and as many kept
        # connections as the API's thread pool has threads (40), since a connection opened
        # beyond the pool is closed on return and the next one pays for opening and pragmas.
        kwargs.update(pool_size=40, max_overflow=20)
    else:
        kwargs.update(pool_pre_ping=True, pool_size=10, max_overflow=20)
    database = create_engine(url, **kwargs)
    # Its statements as spans when this process traces (core/observability/tracing.py).
    trace_database(database)
    if url.startswith("sqlite"):
        event.listen(database, "connect", _sqlite_pragmas)
    return database


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL lets the API read while the worker writes; foreign keys are off by default in SQLite.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.close()


def make_session_factory(database: Engine) -> SessionFactory:
    return sessionmaker(database, expire_on_commit=False)
