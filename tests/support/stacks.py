"""The running stack for a test module, and a database session factory beside it."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import AbstractContextManager, ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest

from core.db import SessionFactory, make_database, make_session_factory
from core.settings import Settings
from ops.stack import Stack, private_settings
from tests.support.paths import FIXTURES

T = TypeVar("T")


@contextmanager
def running_stack(data_dir: Path, **overrides: Any) -> Iterator[Stack]:
    """The whole embedded stack (Temporal, S3, database, both workers, API) on free ports
    under `data_dir`, with the fixture photos for the catalog; stopped on exit."""
    settings = private_settings(data_dir, **overrides)
    with Stack(settings, log_dir=settings.data_dir / "logs", temporal_ui=False,
               extra_env={"FIXTURES_DIR": str(FIXTURES)}) as stack:
        stack.start()
        try:
            yield stack
        finally:
            # Its tests are over and nothing waits on its work: killed at once, not drained.
            # A graceful stop (the workers' drain, then Temporal's) took 2.5 s a stack, and a
            # run starts about 40. Stack.stop and the drain have tests of their own
            # (tests/integration/test_supervision.py, test_crash_recovery.py).
            for name in reversed(list(stack.processes)):
                stack.kill_process(name)


def database_setting(request: pytest.FixtureRequest, fixture: str) -> dict[str, Any]:
    """The database_url override for a stack parametrised on "sqlite" / "postgres": nothing
    for SQLite (the stack's own file), a fresh PostgreSQL database from `fixture` else."""
    if request.param == "postgres":
        return {"database_url": request.getfixturevalue(fixture)}
    return {}


class DatabaseStacks:
    """One stack on SQLite and one on PostgreSQL, each started when a module first asks for its
    database and kept for the run: the modules that check one rule on both databases with the
    default settings (bad input, holds, poll cache, stuck generations, the fuzzers) share them,
    each test with guests and accounts of its own. Google's user-info endpoint is a local one
    that knows no token (tests/support/local_services.py)."""

    def __init__(self, root: Path, google_userinfo_url: str,
                 postgres: Callable[[], AbstractContextManager[str]]) -> None:
        self.root = root
        self.google_userinfo_url = google_userinfo_url
        self.postgres = postgres  # a fresh PostgreSQL database's URL, dropped on exit
        self.started: dict[str, Stack] = {}
        self.exits = ExitStack()

    def on(self, request: pytest.FixtureRequest) -> Stack:
        """The stack on request.param's database ("sqlite" or "postgres")."""
        return self.stack(request.param)

    def stack(self, database: str) -> Stack:
        """The stack on `database` ("sqlite" or "postgres"), started on first use."""
        if database not in self.started:
            overrides = {"google_userinfo_url": self.google_userinfo_url}
            if database == "postgres":
                # Entered before the stack, so dropped after it stops.
                overrides["database_url"] = self.exits.enter_context(self.postgres())
            self.started[database] = self.exits.enter_context(
                running_stack(self.root / database, **overrides))
        return self.started[database]

    @contextmanager
    def side_by_side(self, run: Callable[[Settings], T]) -> Iterator[dict[str, Future[T]]]:
        """`run` against both databases' stacks at once, each in a process of its own; the
        futures by the stack's app URL. For the fuzzers (test_schema_fuzz, test_hostile_input):
        a run and its API take turns, about one core between them, so side by side on two cores
        both take about one run's time. A database that is not there (PostgreSQL on a
        developer's machine) has no run; its test skips as it did."""
        stacks = []
        for database in ("sqlite", "postgres"):
            try:
                stacks.append(self.stack(database).settings)
            except pytest.skip.Exception:
                continue
        # Spawned, not forked: this process runs threads (the stacks' log readers, Hypothesis).
        pool = ProcessPoolExecutor(len(stacks), mp_context=multiprocessing.get_context("spawn"))
        try:
            yield {stack.app_url: pool.submit(run, stack) for stack in stacks}
        finally:
            # Not waited for: the runs' processes took 7 s to exit, with nothing left to do.
            pool.shutdown(wait=False, cancel_futures=True)

    def stop(self) -> None:
        self.exits.close()


@contextmanager
def sessions_for(database_url: str) -> Iterator[SessionFactory]:
    """Sessions on a database the test reads or prepares directly (e.g. the stack's)."""
    database = make_database(database_url)
    try:
        yield make_session_factory(database)
    finally:
        database.dispose()
