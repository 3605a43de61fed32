"""`make run`'s console (issue 38 item 6): `python -m ops.run`, as `make run` starts it, on free
ports with the demo showcase made at start (the engine runs: mediapipe, absl and protobuf
write their warnings to stderr). The console shows the URLs and what started; the libraries'
warnings are in the log files, not on it; a start that fails says why on the console."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from core.settings import Settings
from ops.stack import REPO, Stack, private_settings
from tests.support.paths import FIXTURES, fixture_images

# What the engine's libraries print as they load and run (mediapipe's C++ log through absl,
# protobuf's deprecation warning): on no line of the console.
NOISE = ("W0000", "inference_feedback_manager", "absl::", "GetPrototype", "TensorFlow Lite")
READY = "Press Ctrl-C to stop."
# A safety net for a hung start, not a measure of speed: the showcase's three renders run on
# a busy CI machine.
START_LIMIT_S = 600


@dataclass
class Console:
    settings: Settings
    lines: list[str]
    returncode: int

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def logs(self) -> str:
        folder = self.settings.data_dir / "logs"
        return "\n".join(path.read_text(errors="replace") for path in folder.glob("*.log"))


def run_until_ready(data_dir: Path, **overrides: object) -> Console:
    """Start `python -m ops.run` with private settings, read its console (stdout and stderr
    together, as a terminal shows them) until it is ready or exits, then stop it with Ctrl-C's
    signal and read the rest."""
    for folder in ("people", "garments", "catalog-models", "backgrounds"):
        fixture_images(folder)
    settings = private_settings(data_dir, seed_showcase=True, **overrides)
    env = Stack(settings, extra_env={"FIXTURES_DIR": str(FIXTURES)}).env()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ops.run"], cwd=REPO, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )
    assert proc.stdout is not None
    lines: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            if line.strip() == READY:
                ready.set()
        ready.set()  # the console closed: the run ended

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        ready.wait(START_LIMIT_S)
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        try:
            proc.wait(120)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        reader.join(10)
    return Console(settings, lines, proc.returncode)


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    yield run_until_ready(tmp_path_factory.mktemp("quiet-start"))


def test_the_console_shows_the_urls_and_what_started(started: Console) -> None:
    settings = started.settings
    assert READY in started.lines, started.text
    assert started.lines[0] == "Starting Temporal, storage, database, workers and API ...", (
        started.text
    )
    assert f"  App:         {settings.app_url}" in started.lines, started.text
    assert f"  Temporal UI: http://127.0.0.1:{settings.temporal_ui_port}" in started.lines
    assert f"  API docs:    {settings.app_url}/docs" in started.lines
    assert f"  Logs:        {(settings.data_dir / 'logs').resolve()}" in started.lines
    assert started.lines[-1] == "Stopped.", started.text
    assert started.returncode == 0, started.text


def test_the_libraries_warnings_go_to_the_logs_not_the_console(started: Console) -> None:
    noisy = [line for line in started.lines if any(word in line for word in NOISE)]
    assert noisy == [], started.text
    # The warnings were printed (the engine ran for the showcase), into the log files: the
    # console's silence is routing, not libraries that happened to say nothing.
    logs = started.logs()
    assert any(word in logs for word in NOISE), logs[-2000:]
    seed_log = (started.settings.data_dir / "logs" / "seed.log").read_text()
    assert "demo data: " in seed_log, seed_log[-2000:]


def test_a_start_that_fails_says_why_on_the_console(tmp_path: Path) -> None:
    """The showcase's engine cannot be built (ENGINE=remote with no ENGINE_URL, which only
    production refuses up front): the seed's child fails, and the console says so with its
    reason and where the logs are, instead of a traceback or nothing."""
    failed = run_until_ready(tmp_path, engine="remote", engine_url="")
    assert failed.returncode == 1, failed.text
    assert READY not in failed.lines, failed.text
    assert any(line.startswith("Could not start: seeding the demo data exited with 1")
               for line in failed.lines), failed.text
    assert "ENGINE=remote needs ENGINE_URL" in failed.text
    assert f"Logs: {(tmp_path / 'logs').resolve()}" in failed.lines, failed.text
