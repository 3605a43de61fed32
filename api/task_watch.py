"""Long polling for pollTasks: answer the moment a task changes, not on the next poll.

A browser that passes `since` (the tasks' state as it last saw them) and `waitMs` is answered
as soon as any of its tasks differs from that state, or when the wait ends. Every waiting
request of this API process shares one watcher loop, so fifty people waiting cost one cheap
check every few milliseconds instead of fifty requests a second.

On SQLite the check is `PRAGMA data_version`, which changes whenever another connection (the
worker's, in another process) commits; only then are the tasks read. On PostgreSQL it is the
server's WAL insert position, which moves with every write. A database that offers neither (or
refuses the question) has the watched tasks read on every tick, at a slower pace.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from anyio import to_thread
from sqlalchemy import Connection, create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from api.sqlite_version import SqliteDataVersion
from core.db import SessionFactory
from core.models.generations import GenerationImage

MAX_WAIT_SECONDS = 25.0

log = logging.getLogger(__name__)


def task_state(status: str, progress: int) -> str:
    return f"{status}:{progress}"


def state_of(ids: Sequence[str], states: dict[str, str]) -> str:
    """The `since` string of these tasks: `status:progress` of each, in order, comma-joined.
    The browser builds the same string from the tasks it shows."""
    return ",".join(states.get(i, "missing:0") for i in ids)


@dataclass(eq=False)
class _Waiter:
    ids: list[str]
    seen: str
    done: asyncio.Future[None] = field(repr=False)


class _SqliteChanges:
    """Tells whether anything was committed to the SQLite file since the last look."""

    def __init__(self, path: str) -> None:
        self._data_version = SqliteDataVersion(path)
        self._version: int | None = None

    def changed(self) -> bool:
        version = self._data_version.read()
        changed = version != self._version
        self._version = version
        return changed

    def close(self) -> None:
        self._data_version.close()


class _PostgresChanges:
    """Tells whether anything was written to the PostgreSQL server since the last look: its WAL
    insert position moves with every write. Writes to other databases of the same server move
    it too, which costs a read that finds nothing new, never a missed change. One connection
    of its own, outside the pool and untraced (it asks every few milliseconds)."""

    def __init__(self, database_url: str) -> None:
        self._engine = create_engine(database_url, poolclass=NullPool)
        self._conn: Connection | None = None
        self._position: str | None = None

    def changed(self) -> bool:
        """Raises SQLAlchemyError when the server cannot tell (the caller stops asking)."""
        if self._conn is None:
            self._conn = self._engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        try:
            position = str(self._conn.execute(text("SELECT pg_current_wal_insert_lsn()")).scalar())
        except SQLAlchemyError:
            self.close()
            raise
        changed = position != self._position
        self._position = position
        return changed

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        self._engine.dispose()


class TaskWatcher:
    def __init__(self, sessions: SessionFactory, database_url: str) -> None:
        self._sessions = sessions
        self._waiters: set[_Waiter] = set()
        self._loop_task: asyncio.Task[None] | None = None
        # A waiter that joined since the last read: its tasks may have changed between the
        # route's read and joining, unseen by the change check, so the next tick reads.
        self._joined = False
        url = make_url(database_url)
        self._changes: _SqliteChanges | None = None
        self._pg_changes: _PostgresChanges | None = None
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            self._changes = _SqliteChanges(url.database)
        elif url.get_backend_name() == "postgresql":
            self._pg_changes = _PostgresChanges(database_url)
        # SQLite: a cheap look every 5 ms (PostgreSQL: a round trip, every 10 ms), and a read
        # after a commit, but not more often than every 20 ms (under a burst something commits
        # all the time). Elsewhere a read every 50 ms.
        self._interval = 0.005 if self._changes else 0.01 if self._pg_changes else 0.05
        self._min_read_gap = 0.02 if self._changes or self._pg_changes else 0.0

    def read_states(self, ids: Iterable[str]) -> dict[str, str]:
        with self._sessions() as session:
            rows = session.execute(
                select(GenerationImage.id, GenerationImage.status, GenerationImage.progress)
                .where(GenerationImage.id.in_(list(ids)))
            )
            return {row.id: task_state(row.status, row.progress) for row in rows}

    async def wait(self, ids: list[str], seen: str, timeout: float) -> None:
        """Return when the tasks' state is no longer `seen`, or after `timeout` seconds."""
        waiter = _Waiter(ids, seen, asyncio.get_running_loop().create_future())
        self._waiters.add(waiter)
        self._joined = True
        if self._loop_task is None or self._loop_task.done():
            self._loop_task = asyncio.create_task(self._watch())
        try:
            await asyncio.wait_for(asyncio.shield(waiter.done), min(timeout, MAX_WAIT_SECONDS))
        except TimeoutError:
            pass
        finally:
            self._waiters.discard(waiter)

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        due, last_read = True, float("-inf")
        while self._waiters:
            if await self._changed() or self._joined:
                due, self._joined = True, False
            if due and loop.time() - last_read >= self._min_read_gap:
                due, last_read = False, loop.time()
                waiters = list(self._waiters)
                ids = {i for w in waiters for i in w.ids}
                states = await to_thread.run_sync(self.read_states, ids)
                for waiter in waiters:
                    if state_of(waiter.ids, states) != waiter.seen and not waiter.done.done():
                        waiter.done.set_result(None)
            await asyncio.sleep(self._interval)

    async def _changed(self) -> bool:
        """Whether the database may have changed since the last look (always, when it cannot
        tell)."""
        if self._changes is not None:
            return self._changes.changed()
        if self._pg_changes is not None:
            try:
                return await to_thread.run_sync(self._pg_changes.changed)
            except SQLAlchemyError as error:
                log.warning("long polls fall back to reading every 50 ms: %s", error)
                await to_thread.run_sync(self._pg_changes.close)
                self._pg_changes = None
                self._interval, self._min_read_gap = 0.05, 0.0
        return True

    async def close(self) -> None:
        if self._loop_task is not None:
            self._loop_task.cancel()
            await asyncio.gather(self._loop_task, return_exceptions=True)
        if self._changes is not None:
            self._changes.close()
        if self._pg_changes is not None:
            await to_thread.run_sync(self._pg_changes.close)
