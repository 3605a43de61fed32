"""`make run` survives its children dying, and the API lives without Temporal.

Real processes throughout: the supervisor restarts real children of a real Stack (SIGKILLed,
or exiting by themselves), and the API is started with no Temporal server at all.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from ops.stack import Stack, private_settings
from ops.supervise import Supervisor
from tests.support.api_client import Guest
from tests.support.paths import FIXTURES, fixture_images

UNAVAILABLE = "The generation service is not reachable right now; nothing was charged."


def _until(condition: Callable[[], object], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    pytest.fail(f"{what}: not within {timeout:.0f} s")


def _alive_with(marker: str) -> list[int]:
    """PIDs of live (not zombie) processes whose command line contains `marker`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


class Supervising:
    """The supervisor in a thread, as `make run` runs it in its main loop; stopped on exit."""

    def __init__(self, stack: Stack, **options: float) -> None:
        self.lines: list[str] = []
        self.supervisor = Supervisor(stack, echo=self.lines.append, **options)
        self.stopping = threading.Event()
        self.thread = threading.Thread(
            target=self.supervisor.run, args=(self.stopping, 0.05), daemon=True
        )

    def __enter__(self) -> Supervising:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stopping.set()
        self.thread.join(10)


def test_backoff_doubles_to_the_cap_resets_when_stable_and_stop_leaves_nothing(
    tmp_path: Path,
) -> None:
    marker = f"supervision-{uuid.uuid4().hex}"
    stack = Stack(private_settings(tmp_path), log_dir=tmp_path / "logs")
    with stack:
        # Dies at once, every time: the delay doubles up to the cap.
        stack.spawn("flaky", [sys.executable, "-c", f"import sys; sys.exit(3)  # {marker}"])
        # Lives longer than `stable_after` each time: the delay never grows.
        stack.spawn("steady", [sys.executable, "-c", f"import time; time.sleep(0.4)  # {marker}"])
        with Supervising(stack, initial_delay=0.1, max_delay=0.4, stable_after=0.3) as running:
            _until(lambda: running.supervisor.restarts("flaky") >= 5
                   and running.supervisor.restarts("steady") >= 2, 20, "five and two restarts")
            # Stop while the supervisor still runs and restarts: nothing may outlive the stack.
            last = stack.processes["flaky"]
            stack.stop()
            time.sleep(0.6)
            lines = list(running.lines)
        assert stack.processes == {} and stack.respawn("flaky", last) is None
    assert _alive_with(marker) == []

    flaky = [line for line in lines if line.startswith("flaky exited")]
    assert flaky[:5] == [
        f"flaky exited with 3; restarting in {delay} s (restart {n})"
        for n, delay in enumerate(["0.1", "0.2", "0.4", "0.4", "0.4"], start=1)
    ]
    steady = [line for line in lines if line.startswith("steady exited")]
    assert steady[:2] == [
        "steady exited with 0; restarting in 0.1 s (restart 1)",
        "steady exited with 0; restarting in 0.1 s (restart 2)",
    ]
    assert any(re.fullmatch(r"flaky restarted \(pid \d+\)", line) for line in lines)
    log = (tmp_path / "logs" / "flaky.log").read_text()
    assert "--- restarted by the supervisor (restart 1) ---" in log


@pytest.fixture
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    settings = private_settings(tmp_path_factory.mktemp("supervised"))
    with Stack(settings, log_dir=settings.data_dir / "logs", temporal_ui=False,
               extra_env={"FIXTURES_DIR": str(FIXTURES)}) as running:
        running.start()
        yield running


def test_sigkilled_worker_imaging_and_api_come_back_and_the_rest_keeps_running(
    stack: Stack,
) -> None:
    person = fixture_images("people")[0].read_bytes()
    before = {name: proc.pid for name, proc in stack.processes.items()}
    assert set(before) == {"temporal", "storage", "worker", "imaging", "api"}
    health = f"{stack.settings.app_url}/api/health"

    def api_up() -> bool:
        try:
            response = httpx.get(health, timeout=1)
        except httpx.HTTPError:
            return False
        return response.status_code == 200 and response.json()["temporal"] == "up"

    with Supervising(stack, initial_delay=0.5) as running:
        for name in ("worker", "imaging", "api"):
            os.kill(before[name], signal.SIGKILL)
        _until(lambda: all(running.supervisor.restarts(n) == 1
                           for n in ("worker", "imaging", "api")), 15, "three restarts")
        _until(api_up, 30, "the restarted API answering")
        after = {name: proc.pid for name, proc in stack.processes.items()}
        assert after["temporal"] == before["temporal"] and after["storage"] == before["storage"]
        for name in ("worker", "imaging", "api"):
            assert after[name] != before[name]
            assert f"{name} exited with -9 (SIGKILL); restarting in 0.5 s (restart 1)" in (
                running.lines
            )

        # The restarted workers do the work: a generation goes through end to end.
        guest = Guest(stack.settings.app_url)
        submitted = guest.submit("bodySwap", [guest.upload(person)],
                                 modelId="model-2", backgroundId="bg-2")
        assert submitted.status_code == 200, submitted.text
        (task,) = guest.wait(submitted.json()["data"]["taskIds"], timeout=60)
        assert task["status"] == "completed", task
        # Nothing else died meanwhile.
        assert {name: proc.pid for name, proc in stack.processes.items()} == after
        assert all(proc.poll() is None for proc in stack.processes.values())


def test_api_starts_without_temporal_refuses_submits_then_accepts_once_it_is_back(
    tmp_path: Path,
) -> None:
    person = fixture_images("people")[0].read_bytes()
    settings = private_settings(tmp_path)
    health = f"{settings.app_url}/api/health"
    with Stack(settings, log_dir=tmp_path / "logs", temporal_ui=False) as stack:
        stack.start_storage()
        stack.prepare_data()
        started = time.monotonic()
        stack.start_api()  # no Temporal anywhere: it must still come up
        assert time.monotonic() - started < 20
        assert httpx.get(health).json() == {"status": "ok", "temporal": "down"}

        guest = Guest(settings.app_url)
        key = guest.upload(person)
        refused = guest.submit("bodySwap", [key], modelId="model-2", backgroundId="bg-2")
        assert refused.status_code == 503, refused.text
        assert refused.headers["content-type"].startswith("application/json")
        assert refused.json() == {"message": UNAVAILABLE}
        assert guest.credits() == guest.start_credits
        assert guest.generation_count() == 0

        stack.start_temporal()
        _until(lambda: httpx.get(health).json()["temporal"] == "up", 20, "the API seeing Temporal")
        accepted = guest.submit("bodySwap", [key], modelId="model-2", backgroundId="bg-2")
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["data"]["status"] == "queued"
        assert guest.generation_count() == 1
        assert stack.processes["api"].poll() is None
