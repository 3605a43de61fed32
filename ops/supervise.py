"""Keeps the embedded stack's children running: a child that exits is started again, with backoff.

`make run` (ops/run.py) runs `Supervisor(stack).run(stopping)` after `stack.start()`. A child that
exits (SIGKILL, out of memory, a crash, a worker that could not reach Temporal) is restarted
after 1 s, then 2, 4, ... up to 30 s while it keeps dying; once it has stayed up for a minute
the delay starts again at 1 s. The other children keep running, and each exit and restart is
said on the console. Stopping (Ctrl-C) is `stack.stop()`, which no restart can outrun.
"""

from __future__ import annotations

import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ops.stack import Stack


@dataclass
class _Child:
    proc: subprocess.Popen[bytes]
    started: float
    # Exits in a row, each within `stable_after` of its start: sets the next delay.
    failures: int = 0
    restarts: int = 0
    # When a restart is due (monotonic clock); None while the child runs.
    due: float | None = None


def describe_exit(returncode: int) -> str:
    """`exited with -9 (SIGKILL)`, `exited with 1`."""
    if returncode < 0:
        try:
            return f"exited with {returncode} ({signal.Signals(-returncode).name})"
        except ValueError:
            pass
    return f"exited with {returncode}"


class Supervisor:
    """Watches `stack.processes` and restarts whichever exits, with exponential backoff.

    `check()` does one pass (tests may call it directly); `run()` calls it until `stopping` is
    set. A process removed from `stack.processes` (stopped or killed through the Stack) is no
    longer watched.
    """

    def __init__(
        self,
        stack: Stack,
        *,
        initial_delay: float = 1.0,
        max_delay: float = 30.0,
        stable_after: float = 60.0,
        echo: Callable[[str], None] | None = None,
    ) -> None:
        self.stack = stack
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self.stable_after = stable_after
        self.echo = echo or (lambda line: print(line, flush=True))
        self._children: dict[str, _Child] = {}

    def delay(self, failures: int) -> float:
        """The wait before restart number `failures` of a run of quick exits (1, 2, 4 ... max)."""
        return float(min(self.max_delay, self.initial_delay * 2 ** max(0, failures - 1)))

    def restarts(self, name: str) -> int:
        child = self._children.get(name)
        return child.restarts if child else 0

    def check(self) -> None:
        now = time.monotonic()
        watched = dict(self.stack.processes)
        for name in list(self._children):
            if name not in watched:
                del self._children[name]
        for name, proc in watched.items():
            child = self._children.get(name)
            if child is None:
                child = self._children[name] = _Child(proc, now)
            elif child.proc is not proc:
                # Replaced through the Stack by someone else (a test, say): watch the new one.
                child.proc, child.started, child.due = proc, now, None
            if child.due is None:
                returncode = proc.poll()
                if returncode is None:
                    continue
                if now - child.started >= self.stable_after:
                    child.failures = 0
                child.failures += 1
                child.restarts += 1
                wait = self.delay(child.failures)
                child.due = now + wait
                self.echo(
                    f"{name} {describe_exit(returncode)}; restarting in {wait:g} s "
                    f"(restart {child.restarts})"
                )
            if now >= child.due:
                new = self.stack.respawn(
                    name, proc, note=f"restarted by the supervisor (restart {child.restarts})"
                )
                if new is None:
                    # Stopping, or the Stack changed it meanwhile: the next pass sees the truth.
                    continue
                child.proc, child.started, child.due = new, time.monotonic(), None
                self.echo(f"{name} restarted (pid {new.pid})")

    def run(self, stopping: threading.Event, interval: float = 0.2) -> None:
        """Supervise until `stopping` is set. The caller stops the stack afterwards."""
        self.check()
        while not stopping.wait(interval):
            self.check()
