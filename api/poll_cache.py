"""Plain pollTasks answers, reused while nothing in the database has changed.

Integrations call pollTasks without `since` (plain polling) every second or so for every task
they wait for, and until a task moves on the answer is the same each time. Reading it again
costs a session, a query and a serialisation (about 1 ms of the API's CPU); this cache answers
a repeat in front of the app, in microseconds.

It is exact, not a guess: on SQLite, `PRAGMA data_version` (a read of the WAL index in shared
memory) changes whenever any other connection commits, the API's own pool and the workers
alike, so an answer is reused only while nothing at all was committed since it was read. An
entry also lives at most `ttl` seconds: the longest a session ended by another API process
may still be honoured (core/auth/recent.py), and far inside the hour its signed URLs stay
valid. PostgreSQL offers no exact check that cheap (its WAL position is a round trip, as dear
as the read), so there every poll is read.

A hit is counted by the metrics middleware (it sits inside it) but skips routing, tracing and
the request log: a repeat of an answer already traced and logged once. Anything else (a long
poll, another path, an answer not yet seen) goes the normal way, and the route stores what it
answered (api/routers/tasks.py), so the semantics live in the route alone.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import OrderedDict

from prometheus_client import Counter
from sqlalchemy.engine import make_url
from starlette.types import ASGIApp, Receive, Scope, Send

POLL_PATH = "/api/v1/task/pollTasks"
# The request headers that decide who is asking (api/deps.py get_principal).
_IDENTITY_HEADERS = (b"authorization", b"x-distributor-id")
_JSON_HEADERS = [(b"content-type", b"application/json")]

HITS = Counter("mm_poll_cache_hits", "Plain pollTasks answered from the poll cache")

# (query string, authorization, distributor header)
Key = tuple[bytes, bytes, bytes]


class _PollRoute:
    """What the metrics middleware reads of a route (its template): a hit is counted under
    the same route as the answers the app gives."""

    path = POLL_PATH


_POLL_ROUTE = _PollRoute()


class _SqliteVersion:
    """SQLite's data_version, read on a connection of its own that never writes."""

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


class PollCache:
    def __init__(self, database_url: str, ttl: float, size: int = 20_000) -> None:
        url = make_url(database_url)
        self._version: _SqliteVersion | None = None
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            self._version = _SqliteVersion(url.database)  # type: ignore[arg-type]
        self.ttl = ttl
        self.size = size
        self._entries: OrderedDict[Key, tuple[int, float, bytes]] = OrderedDict()

    @property
    def enabled(self) -> bool:
        return self._version is not None and self.ttl > 0

    def version(self) -> int | None:
        """The database's version now. Read it *before* reading an answer to store: a commit
        in between then makes the stored answer look old, never a stale one look current."""
        return self._version.read() if self.enabled and self._version else None

    @staticmethod
    def key(scope: Scope) -> Key | None:
        """The key of a plain poll (no `waitMs`: a long poll waits, never repeats at once)."""
        query: bytes = scope.get("query_string", b"")
        if b"waitMs=" in query or b"since=" in query:
            return None
        identity = dict.fromkeys(_IDENTITY_HEADERS, b"")
        for name, value in scope["headers"]:
            if name in identity:
                identity[name] = value
        if not identity[b"authorization"]:
            return None
        return query, identity[b"authorization"], identity[b"x-distributor-id"]

    def get(self, key: Key) -> bytes | None:
        entry = self._entries.get(key)
        if entry is None:
            return None
        version, until, body = entry
        if time.monotonic() >= until or version != self.version():
            self._entries.pop(key, None)
            return None
        return body

    def put(self, key: Key, version: int, body: bytes) -> None:
        self._entries[key] = (version, time.monotonic() + self.ttl, body)
        self._entries.move_to_end(key)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)

    def close(self) -> None:
        if self._version is not None:
            self._version.close()


class PollCacheMiddleware:
    def __init__(self, app: ASGIApp, cache: PollCache) -> None:
        self.app = app
        self.cache = cache

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.cache.enabled
            and scope["type"] == "http"
            and scope["path"] == POLL_PATH
            and scope["method"] == "GET"
        ):
            key = self.cache.key(scope)
            body = self.cache.get(key) if key else None
            if body is not None:
                HITS.inc()
                scope["route"] = _POLL_ROUTE
                headers = [*_JSON_HEADERS, (b"content-length", str(len(body)).encode())]
                await send({"type": "http.response.start", "status": 200, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
