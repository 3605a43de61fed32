"""Opt-in per-module wall time of a pytest run: where the suite's minutes go.

Enabled by MM_MODULE_TIMES (a file path, or "1" for out/module-times.txt); tests/conftest.py
registers it. Each test's whole protocol (setup, call, teardown) is charged to its module, so a
module-scoped fixture (a stack booted for the module) counts in its first test's setup and its
last test's teardown, and a session-scoped one in the first module that asked for it. The report
lists the modules slowest first with their share of the run, and the setup/call/teardown split
that tells a stack boot (setup) from tests that wait (call).
"""

from __future__ import annotations

import os
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.paths import REPO

ENV = "MM_MODULE_TIMES"


@dataclass
class ModuleTime:
    wall: float = 0.0
    tests: int = 0
    setup: float = 0.0
    call: float = 0.0
    teardown: float = 0.0
    slowest_setup: float = 0.0


class ModuleTimer:
    def __init__(self, report: Path) -> None:
        self.report = report
        self.modules: dict[str, ModuleTime] = {}
        self.started = time.monotonic()

    def _module(self, nodeid: str) -> ModuleTime:
        return self.modules.setdefault(nodeid.split("::", 1)[0], ModuleTime())

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, None, None]:
        began = time.monotonic()
        yield
        entry = self._module(item.nodeid)
        entry.wall += time.monotonic() - began
        entry.tests += 1

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        entry = self._module(report.nodeid)
        setattr(entry, report.when, getattr(entry, report.when) + report.duration)
        if report.when == "setup":
            entry.slowest_setup = max(entry.slowest_setup, report.duration)

    def pytest_sessionfinish(self) -> None:
        total = time.monotonic() - self.started
        rows = sorted(self.modules.items(), key=lambda kv: kv[1].wall, reverse=True)
        lines = [
            f"total wall {total:.1f} s, {sum(m.tests for m in self.modules.values())} tests, "
            f"{len(self.modules)} modules",
            f"{'wall s':>8} {'share':>6} {'tests':>5} {'setup':>7} {'call':>7} {'teardn':>7} "
            f"{'max setup':>9}  module",
        ]
        for name, m in rows:
            lines.append(
                f"{m.wall:8.1f} {100 * m.wall / total:5.1f}% {m.tests:5d} {m.setup:7.1f} "
                f"{m.call:7.1f} {m.teardown:7.1f} {m.slowest_setup:9.1f}  {name}"
            )
        self.report.parent.mkdir(parents=True, exist_ok=True)
        self.report.write_text("\n".join(lines) + "\n")


def default_report(args: list[str]) -> Path:
    """out/module-times.txt for the whole suite; a run of one folder (make test's second run,
    tests/imaging) gets its own file, module-times-imaging.txt, so it does not overwrite the
    main run's report."""
    folders = {Path(arg.split("::", 1)[0]).name for arg in args if not arg.startswith("-")}
    if len(folders) == 1 and (name := folders.pop()) not in ("tests", ""):
        return REPO / "out" / f"module-times-{name.removesuffix('.py')}.txt"
    return REPO / "out" / "module-times.txt"


def register(config: pytest.Config) -> None:
    """Add the timer to this run when MM_MODULE_TIMES asks for it."""
    wanted = os.environ.get(ENV)
    if not wanted:
        return
    report = default_report(config.args) if wanted == "1" else Path(wanted)
    config.pluginmanager.register(ModuleTimer(report), "module-timer")
