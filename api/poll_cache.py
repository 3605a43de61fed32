"""Plain pollTasks answers, reused while nothing in the database has changed.

Integrations call pollTasks without `since` (plain polling) every second or so for every task
they wait for, and until a task moves on the answer is the same each time. Reading it again
costs a session, a query and a serialisation (about 1 ms of the API's CPU); this cache answers
a repeat in front of the app, in microseconds.

An answer is reused only while the database's version is the one read just before the answer
was (so a commit in between makes it look old, never a stale one look current):
- SQLite: `PRAGMA data_version` (a read of the WAL index in shared memory) changes whenever any
  other connection commits, the API's own pool and the workers alike. Exact.
- PostgreSQL: a counter, moved by every commit of this process's sessions and by the
  notifications that triggers on tasks and generations send at commit (channel mm_changes,
  migration 0013), read by a listening connection of its own. A worker's commit is seen when
  its notification arrives (well under a millisecond here), as if the poll had come that much
  earlier; while the listener is down nothing is cached.
An entry also lives at most `ttl` seconds: the longest a session ended by another API process
may still be honoured (core/auth/recent.py), and far inside the hour its signed URLs stay
valid.

A hit is counted by the metrics middleware (it sits inside it) but skips routing, tracing and
the request log: a repeat of an answer already traced and logged once. Anything else (a long
poll, another path, an answer not yet seen) goes the normal way, and the route stores what it
answered (api/routers/tasks.py), so the semantics live in the route alone.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict

import psycopg
from prometheus_client import Counter
from sqlalchemy.engine import make_url
from starlette.types import ASGIApp, Receive, Scope, Send

from api.sqlite_version import SqliteDataVersion

POLL_PATH = "/api/v1/task/pollTasks"
# The request headers that decide who is asking (api/deps.py get_principal).
_IDENTITY_HEADERS = (b"authorization", b"x-distributor-id")
_JSON_HEADERS = [(b"content-type", b"application/json")]

log = logging.getLogger(__name__)

HITS = Counter("mm_poll_cache_hits", "Plain pollTasks answered from the poll cache")

# (query string, authorization, distributor header)
Key = tuple[bytes, bytes, bytes]


class _PollRoute:
    """What the metrics middleware reads of a route (its template): a hit is counted under
    the same route as the answers the app gives."""

    path = POLL_PATH


_POLL_ROUTE = _PollRoute()


class _PostgresVersion:
    """A counter moved by PostgreSQL's notifications on mm_changes and by `bump` (this
    process's own commits); None while the listening connection is not up."""

    CHANNEL = "mm_changes"

    def __init__(self, database_url: str) -> None:
        # psycopg takes the URL without SQLAlchemy's "+driver".
        url = make_url(database_url).set(drivername="postgresql")
        self._conninfo = url.render_as_string(hide_password=False)
        self._count = 0
        self._up = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def read(self) -> int | None:
        if self._thread is None:  # at first use: the app may be built before the database
            self._thread = threading.Thread(
                target=self._listen, name="poll-cache-listen", daemon=True
            )
            self._thread.start()
        return self._count if self._up else None

    def bump(self) -> None:
        with self._lock:
            self._count += 1

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as conn:
                    conn.execute(f"LISTEN {self.CHANNEL}")
                    # Whatever was committed while nobody listened: every entry is old now.
                    self.bump()
                    self._up = True
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=1.0):
                            self.bump()
            except psycopg.Error as error:
                log.warning("poll cache: not listening to PostgreSQL (%s); retrying", error)
            finally:
                self._up = False
            self._stop.wait(1.0)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=3)


class PollCache:
    def __init__(self, database_url: str, ttl: float, size: int = 20_000) -> None:
        url = make_url(database_url)
        self._version: SqliteDataVersion | _PostgresVersion | None = None
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            self._version = SqliteDataVersion(url.database)
        elif url.get_backend_name() == "postgresql":
            self._version = _PostgresVersion(database_url)
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

    def committed(self) -> None:
        """This process committed (a session's after_commit): on PostgreSQL its own writes,
        a deletion say, must not wait for their notification to come back."""
        if isinstance(self._version, _PostgresVersion):
            self._version.bump()

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
