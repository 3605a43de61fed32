"""SQLite's `PRAGMA data_version`: how this API process learns that another connection (its own
pool, a worker) committed, without reading any table. Used by the long-poll watcher
(api/task_watch.py) and the poll cache (api/poll_cache.py)."""

from __future__ import annotations

import sqlite3
import threading


class SqliteDataVersion:
    """The data_version, read on a connection of its own that never writes (a connection's own
    commits do not move it). A read of the WAL index in shared memory: microseconds."""

    def __init__(self, path: str) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = None
        self._lock = threading.Lock()

    def read(self) -> int:
        with self._lock:
            if self._conn is None:  # at first use: the app may be built before the database
                # Autocommit, so the pragma is never read inside a stale transaction.
                self._conn = sqlite3.connect(
                    self._path, isolation_level=None, check_same_thread=False
                )
            return int(self._conn.execute("PRAGMA data_version").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
