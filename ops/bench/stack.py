"""A private stack for the benchmark: the real processes (ops/stack.py) with the bench's own
imaging workers (ops/bench/worker.py), any number of workers of each kind, SQLite or a fresh
PostgreSQL database for the app."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, func, select, text

from core.db import make_database, make_session_factory
from core.enums import LedgerKind
from core.models.accounts import LedgerEntry
from core.settings import Settings
from ops.bench.support import Client, cpu_seconds
from ops.stack import Stack, private_settings

POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
# The processes whose CPU is the control plane (plus the imaging workers minus their engine).
CONTROL_ROLES = ("api", "temporal", "worker", "storage")


@contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database on the test server, dropped afterwards."""
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    name = f"bench_{os.urandom(4).hex()}"
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield POSTGRES_URL.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


class BenchStack:
    def __init__(
        self,
        data_dir: Path,
        engine: str,
        database_url: str | None,
        credits: int,
        **overrides: object,
    ) -> None:
        values: dict[str, object] = {"guest_free_credits": credits, **overrides}
        if database_url:
            values["database_url"] = database_url
        self.settings: Settings = private_settings(data_dir, **values)
        self.engine = engine
        self.stack = Stack(self.settings, log_dir=data_dir / "logs", temporal_ui=False)
        self.stats_dir = data_dir / "engine-stats"
        self.stats_dir.mkdir(parents=True, exist_ok=True)
        self._db = make_database(self.settings.resolved_database_url)
        self._guest_headers: dict[str, str] | None = None

    @property
    def url(self) -> str:
        return self.settings.app_url

    def guest(self) -> Client:
        """A connection of the bench's one guest (whose uploads the generations use)."""
        if self._guest_headers is None:
            self._guest_headers = Client(self.url).headers
        return Client(self.url, self._guest_headers)

    def start(self) -> BenchStack:
        s = self.stack
        s.data_dir.mkdir(parents=True, exist_ok=True)
        try:
            s.start_temporal()
            s.start_storage()
            s.prepare_data()
            s.start_worker("worker")
            self.add_imaging()
            s.start_api()
            self.wait_imaging_ready(1)
        except BaseException:
            self.stop()
            raise
        return self

    def imaging_names(self) -> list[str]:
        return [n for n in self.stack.processes if n.startswith("imaging")]

    def worker_names(self) -> list[str]:
        return [n for n in self.stack.processes if n.startswith("worker")]

    def add_imaging(self) -> None:
        name = f"imaging{len(self.imaging_names()) or ''}"
        stats = self.stats_dir / f"{name}.json"
        self.stack.spawn(
            name,
            [
                sys.executable,
                "-m",
                "ops.bench.worker",
                "--engine",
                self.engine,
                "--stats",
                str(stats),
            ],
        )

    def add_worker(self) -> None:
        self.stack.start_worker(f"worker{len(self.worker_names()) + 1}")

    def wait_imaging_ready(self, count: int, timeout: float = 120) -> None:
        """Until `count` imaging workers have warmed up and polled (their logs say ready)."""
        self.wait_logged(self.imaging_names(), "worker ready", count, timeout)

    def wait_logged(
        self, names: list[str], text: str, count: int | None = None, timeout: float = 120
    ) -> None:
        """Until `count` (default: all) of the processes `names` have logged `text`."""
        needed = len(names) if count is None else count
        deadline = time.monotonic() + timeout
        log_dir = self.stack.log_dir
        assert log_dir is not None
        while time.monotonic() < deadline:
            ready = 0
            for name in names:
                log = log_dir / f"{name}.log"
                if log.exists() and text in log.read_text(errors="replace"):
                    ready += 1
            if ready >= needed:
                return
            for name, proc in self.stack.processes.items():
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode}")
            time.sleep(0.2)
        raise TimeoutError(f"{', '.join(names)} did not log {text!r}")

    def engine_stats(self) -> dict[str, float]:
        """Engine calls and CPU summed over the imaging workers (fresh: waits for a write)."""
        time.sleep(0.5)
        total = {"calls": 0.0, "engine_cpu": 0.0}
        for path in self.stats_dir.glob("*.json"):
            stats = json.loads(path.read_text())
            total["calls"] += stats["calls"]
            total["engine_cpu"] += stats["engine_cpu"]
        return total

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far of every process, workers and imaging workers summed by role,
        and the engine's share of the imaging workers."""
        usage: dict[str, float] = {}
        for name, proc in self.stack.processes.items():
            role = name.rstrip("0123456789")
            usage[role] = usage.get(role, 0.0) + cpu_seconds(proc.pid)
        usage["engine"] = self.engine_stats()["engine_cpu"]
        return usage

    def pid(self, name: str) -> int:
        return self.stack.processes[name].pid

    def doubled_charges(self) -> int:
        """Generations charged more than once (the ledger's charges by reference)."""
        with make_session_factory(self._db)() as session:
            counts = session.execute(
                select(LedgerEntry.reference, func.count())
                .where(LedgerEntry.kind == LedgerKind.CHARGE)
                .group_by(LedgerEntry.reference)
                .having(func.count() > 1)
            ).all()
        return len(counts)

    def stop(self) -> None:
        self.stack.stop()
        self._db.dispose()

    def __enter__(self) -> BenchStack:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def control_plane_cpu(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """CPU seconds by process between two readings of BenchStack.cpu(); "imaging" is the
    imaging workers' CPU outside the engine, "control plane" the sum of all but the engine."""
    spent = {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after}
    spent["imaging"] = spent.get("imaging", 0.0) - spent.get("engine", 0.0)
    spent["control plane"] = sum(spent.get(k, 0.0) for k in (*CONTROL_ROLES, "imaging"))
    return spent
