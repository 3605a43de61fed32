"""api/poll_cache.py on its own: keys, the database version, the time limit."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from api import poll_cache
from api.poll_cache import PollCache


def scope(
    query: bytes, token: bytes | None = b"Bearer t1", distributor: bytes | None = None
) -> dict[str, Any]:
    headers = [(b"host", b"x")]
    if token is not None:
        headers.append((b"authorization", token))
    if distributor is not None:
        headers.append((b"x-distributor-id", distributor))
    return {"type": "http", "query_string": query, "headers": headers}


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "app.db"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode=wal")
        conn.execute("CREATE TABLE t (x INTEGER)")
    return path


def test_keys_tell_callers_and_queries_apart() -> None:
    plain = PollCache.key(scope(b"taskIds=%5B%22a%22%5D"))
    assert plain is not None
    assert PollCache.key(scope(b"taskIds=%5B%22b%22%5D")) != plain
    assert PollCache.key(scope(b"taskIds=%5B%22a%22%5D", b"Bearer t2")) != plain
    assert PollCache.key(scope(b"taskIds=%5B%22a%22%5D", distributor=b"d2")) != plain
    # Long polls and anonymous requests are never cached.
    assert PollCache.key(scope(b"taskIds=%5B%22a%22%5D&since=queued%3A0&waitMs=900")) is None
    assert PollCache.key(scope(b"taskIds=%5B%22a%22%5D", token=None)) is None


def test_an_answer_lasts_until_another_connection_commits(database: Path) -> None:
    cache = PollCache(f"sqlite:///{database}", ttl=2.0)
    key = PollCache.key(scope(b"q"))
    assert key is not None and cache.enabled
    version = cache.version()
    assert version is not None
    cache.put(key, version, b"answer")
    assert cache.get(key) == b"answer"
    assert cache.get(key) == b"answer"
    with sqlite3.connect(database) as writer:
        writer.execute("INSERT INTO t VALUES (1)")
    assert cache.get(key) is None
    # Stored under a version read before a commit, an answer is never taken as current.
    old = cache.version()
    assert old is not None
    with sqlite3.connect(database) as writer:
        writer.execute("INSERT INTO t VALUES (2)")
    cache.put(key, old, b"read before the commit")
    assert cache.get(key) is None
    cache.close()


def test_an_answer_lasts_at_most_ttl(database: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    now = [1000.0]
    monkeypatch.setattr(poll_cache.time, "monotonic", lambda: now[0])
    cache = PollCache(f"sqlite:///{database}", ttl=2.0, size=2)
    version = cache.version()
    assert version is not None
    for name in (b"a", b"b", b"c"):
        cache.put((name, b"Bearer t", b""), version, name)
    # At most `size` entries: the oldest went first.
    assert cache.get((b"a", b"Bearer t", b"")) is None
    assert cache.get((b"c", b"Bearer t", b"")) == b"c"
    now[0] += 2.0
    assert cache.get((b"c", b"Bearer t", b"")) is None
    cache.close()


def test_nothing_is_cached_without_a_version(database: Path) -> None:
    # PostgreSQL that cannot be reached: no notifications can come, so no version.
    unreachable = PollCache("postgresql+psycopg://u@127.0.0.1:1/db", ttl=2.0)
    assert unreachable.version() is None
    unreachable.close()
    assert not PollCache("mysql+pymysql://u@127.0.0.1/db", ttl=2.0).enabled
    assert not PollCache(f"sqlite:///{database}", ttl=0).enabled
    assert PollCache(f"sqlite:///{database}", ttl=0).version() is None
