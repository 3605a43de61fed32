"""The embedded stack: Temporal dev server, S3 server, database, worker and API, on one machine.

`make run` uses it with the default ports; the tests and the benchmark use it with free ports
and a temporary data folder. Every component is the real server, started small: the Temporal
CLI's dev server (SQLite file, WAL), `rclone serve s3` over a folder, SQLite (or whatever
DATABASE_URL names), and our own worker and API as separate processes.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import httpx
from alembic import command
from alembic.config import Config

from core.db import make_database, make_session_factory
from core.settings import Settings
from core.storage import Storage
from core.workflow_search import cli_search_attributes

# Moved to ops/ports.py; named here too, where the tests and the benches have long found them.
from ops.ports import free_port as free_port
from ops.ports import wait_for_port as wait_for_port

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


IMAGING_PYTHON = REPO / ".venv-imaging" / "bin" / "python"

# The children that serve the others (stopped after them).
SERVERS = frozenset({"temporal", "storage", "prometheus"})


def imaging_python(settings: Settings) -> Path:
    """The interpreter of the imaging worker: this one, or for the generative engine the imaging
    environment's (built by `make imaging`; torch never enters this one)."""
    if settings.engine != "diffusion":
        return Path(sys.executable)
    if not IMAGING_PYTHON.exists():
        raise RuntimeError(f"ENGINE=diffusion runs in the imaging environment, and "
                           f"{IMAGING_PYTHON} is missing: run make imaging")
    return IMAGING_PYTHON


def migrate(database_url: str) -> None:
    config = Config(str(REPO / "alembic.ini"))
    config.set_main_option("sqlalchemy.url", database_url)
    command.upgrade(config, "head")


def raise_open_files_limit(connections: int) -> None:
    """Let the children (the API first) hold their connections: a soft limit of 1024 open
    files, common, would refuse connections below API_MAX_CONNECTIONS instead of answering 503.
    Raised up to the hard limit, which only an administrator can lift."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 1024  # the API's own files, sockets to the database and storage
    if soft != resource.RLIM_INFINITY and soft < wanted:
        limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


def uvicorn_options(settings: Settings) -> list[str]:
    """How uvicorn serves the API, wherever it runs here (the stack, the benches)."""
    return [
        "--log-level", "warning", "--no-access-log",
        # Uvicorn would believe X-Forwarded-For from 127.0.0.1, i.e. from anyone on this
        # machine; api/client_address.py decides with TRUSTED_PROXIES instead.
        "--no-proxy-headers",
        # Bounded request heads (431) and slow heads (closed): api/http_limits.py.
        "--http", "api.http_limits:BoundedHttpToolsProtocol",
        "--limit-concurrency", str(settings.api_max_connections),
    ]  # fmt: skip


@dataclass
class Stack:
    """Starts and stops the processes of the embedded stack."""

    settings: Settings
    # Where child processes write their output; None means this terminal.
    log_dir: Path | None = None
    temporal_ui: bool = True
    extra_env: dict[str, str] = field(default_factory=dict)
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    # How each child was started, so a supervisor can start it again (see ops/supervise.py).
    _commands: dict[str, tuple[list[str], bool]] = field(default_factory=dict)
    _logs: dict[str, IO[bytes]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _stopping: bool = False

    @property
    def data_dir(self) -> Path:
        return self.settings.data_dir.resolve()

    def env(self) -> dict[str, str]:
        """Settings for the child processes, as the environment variables Settings reads."""
        env = dict(os.environ)
        # Every setting, so a child process sees exactly this stack's configuration.
        for name, value in self.settings.model_dump().items():
            if value is not None:
                # Lists (api_keys, trusted proxies) travel as JSON, which Settings parses back.
                env[name.upper()] = (
                    json.dumps(value) if isinstance(value, list | dict) else str(value)
                )
        env.update(
            {
                "DATA_DIR": str(self.data_dir),
                "DATABASE_URL": self.settings.resolved_database_url,
                "S3_PUBLIC_ENDPOINT": self.settings.resolved_public_s3_endpoint,
                "JWT_SECRET": self.settings.resolved_jwt_secret(),
                "CODE_SECRET": self.settings.resolved_code_secret(),
                "PYTHONUNBUFFERED": "1",
            }
        )
        env.update(self.extra_env)
        return env

    def spawn(self, name: str, args: list[str], quiet: bool = False) -> subprocess.Popen[bytes]:
        """Start a child process called `name` (its output goes to `<log_dir>/<name>.log`)."""
        with self._lock:
            self._stopping = False
            return self._spawn_locked(name, args, quiet)

    def respawn(
        self, name: str, dead: subprocess.Popen[bytes], note: str = ""
    ) -> subprocess.Popen[bytes] | None:
        """Start the child `name` again, with the command it was started with, in place of the
        `dead` process.

        None when the stack is stopping, or `dead` is no longer this stack's `name` (stopped,
        killed or replaced meanwhile): a supervisor racing with `stop()` or a test must not
        leave a second process behind.
        """
        with self._lock:
            if self._stopping or self.processes.get(name) is not dead or dead.poll() is None:
                return None
            handle = self._logs.get(name)
            if handle is not None and note:
                handle.write(f"\n--- {note} ---\n".encode())
                handle.flush()
            args, quiet = self._commands[name]
            return self._spawn_locked(name, args, quiet)

    def _spawn_locked(self, name: str, args: list[str], quiet: bool) -> subprocess.Popen[bytes]:
        out: IO[bytes] | int | None = None
        if self.log_dir is not None:
            handle = self._logs.get(name)
            if handle is None:
                self.log_dir.mkdir(parents=True, exist_ok=True)
                handle = open(self.log_dir / f"{name}.log", "ab")  # noqa: SIM115 (closed in stop)
                self._logs[name] = handle
            out = handle
        elif quiet:
            out = subprocess.DEVNULL
        # A new session: Ctrl-C reaches only us, and we stop the children in order.
        proc = subprocess.Popen(
            args,
            cwd=REPO,
            env=self.env(),
            stdout=out,
            stderr=subprocess.STDOUT if out is not None else None,
            start_new_session=True,
        )
        self.processes[name] = proc
        self._commands[name] = (args, quiet)
        return proc

    def start_temporal(self) -> None:
        host, port = self.settings.temporal_address.rsplit(":", 1)
        args = [
            str(BIN / "temporal"), "server", "start-dev",
            "--db-filename", str(self.data_dir / "temporal.db"),
            "--ip", host, "--port", port,
            "--sqlite-pragma", "journal_mode=wal",
            "--sqlite-pragma", "synchronous=normal",
            # The dev server has one history shard, and its transfer queue (which hands every
            # workflow and activity task to matching) is read at most 20 times a second by
            # default: past a burst of a few tasks, each waited about 50 ms for its turn, and
            # a one-activity workflow took 150 ms instead of 15 (ops/bench/floor.py).
            "--dynamic-config-value", "history.transferProcessorMaxPollRPS=1000",
            "--log-level", "warn",
        ]  # fmt: skip
        # Our search attributes (core/workflow_search.py), so the UI can filter on them.
        for name, kind in cli_search_attributes():
            args += ["--search-attribute", f"{name}={kind}"]
        if self.settings.temporal_metrics_port:
            # The dev server's own metrics (ops/prometheus.yml scrapes them).
            args += ["--metrics-port", str(self.settings.temporal_metrics_port)]
        if self.temporal_ui:
            args += ["--ui-port", str(self.settings.temporal_ui_port)]
        else:
            args += ["--headless"]
        proc = self.spawn("temporal", args, quiet=True)
        wait_for_port(host, int(port), 60, proc)

    def start_storage(self) -> None:
        s = self.settings
        host, port = s.s3_endpoint.rsplit(":", 1)
        objects = self.data_dir / "objects"
        objects.mkdir(parents=True, exist_ok=True)
        proc = self.spawn(
            "storage",
            [
                str(BIN / "rclone"), "serve", "s3", str(objects),
                "--addr", s.s3_endpoint,
                "--auth-key", f"{s.s3_access_key},{s.s3_secret_key}",
                # The browser uploads straight to storage from the app's origin.
                "--allow-origin", s.app_url,
                # Uploads are served with the type we verified (response-content-type); a
                # browser must never guess another (MinIO sends this header by itself).
                "--response-header", "X-Content-Type-Options: nosniff",
                "--config", "/dev/null",
                "--log-level", "ERROR",
            ],  # fmt: skip
            quiet=True,
        )
        wait_for_port(host, int(port), 30, proc)

    def prepare_data(self, seed_catalog: bool = True) -> None:
        """Migrations, bucket and demo catalog: idempotent, so a restart keeps the data."""
        migrate(self.settings.resolved_database_url)
        storage = Storage(self.settings)
        storage.ensure_bucket()
        if not seed_catalog:
            return
        if self.log_dir is not None and self.settings.seed_showcase:
            # The showcase's demo pairs run the engine, whose libraries (mediapipe, absl,
            # protobuf) write warnings straight to stderr: in a child whose output is a log
            # file, so that the console of `make run` keeps only what a person needs.
            self.seed_in_child(self.log_dir / "seed.log")
            return
        from ops.seed import seed

        database = make_database(self.settings.resolved_database_url)
        seed(make_session_factory(database), storage, self.settings)
        database.dispose()

    def seed_in_child(self, log: Path) -> None:
        """`python -m ops.seed` with this stack's settings, its output appended to `log`; a
        failure raises with the end of that output, which names what went wrong."""
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as handle:
            start = handle.tell()
            code = subprocess.run(
                [sys.executable, "-m", "ops.seed"], cwd=REPO, env=self.env(),
                stdout=handle, stderr=subprocess.STDOUT, check=False,
            ).returncode
        if code != 0:
            with open(log, "rb") as handle:
                handle.seek(start)
                tail = handle.read().decode(errors="replace").strip().splitlines()[-15:]
            raise RuntimeError(
                f"seeding the demo data exited with {code} ({log}):\n" + "\n".join(tail)
            )

    def start_worker(self, name: str = "worker") -> subprocess.Popen[bytes]:
        """The orchestration worker: workflows and their quick database/storage steps."""
        return self.spawn(name, [sys.executable, "-m", "ops.worker", "--queues", "orchestration"])

    def start_imaging(self, name: str = "imaging") -> subprocess.Popen[bytes]:
        """The imaging worker: the engine, in its own process (its own interpreter lock), and
        for ENGINE=diffusion in its own environment (torch and diffusers)."""
        python = imaging_python(self.settings)
        return self.spawn(name, [str(python), "-m", "ops.worker", "--queues", "imaging"])

    def start_prometheus(self) -> bool:
        """Prometheus (Debian's `prometheus` package), scraping this stack as ops/prometheus.yml
        says, with this stack's ports and its data under data_dir/prometheus. False (and
        nothing started) when the binary is not installed."""
        binary = shutil.which("prometheus")
        if binary is None:
            return False
        s = self.settings
        folder = self.data_dir / "prometheus"
        folder.mkdir(parents=True, exist_ok=True)
        config = folder / "prometheus.yml"
        config.write_text(prometheus_config(s))
        proc = self.spawn(
            "prometheus",
            [
                binary, f"--config.file={config}",
                f"--storage.tsdb.path={folder / 'tsdb'}",
                f"--web.listen-address=127.0.0.1:{s.prometheus_port}",
            ],  # fmt: skip
        )
        wait_for_port("127.0.0.1", s.prometheus_port, 30, proc)
        return True

    def start_api(self) -> None:
        """Start the API and wait until it answers (and, when this stack runs Temporal, until
        the API is connected to it)."""
        s = self.settings
        proc = self.spawn(
            "api",
            [
                sys.executable, "-m", "uvicorn", "api.main:app_factory", "--factory",
                "--host", s.app_host, "--port", str(s.app_port), *uvicorn_options(s),
            ],  # fmt: skip
        )
        self.wait_api_healthy(proc, need_temporal="temporal" in self.processes)

    def wait_api_healthy(
        self, proc: subprocess.Popen[bytes], need_temporal: bool = False, timeout: float = 60
    ) -> None:
        s = self.settings
        deadline = time.monotonic() + timeout
        url = f"http://{s.app_host}:{s.app_port}/api/health"
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"the API exited with {proc.returncode}")
            try:
                response = httpx.get(url, timeout=1)
                if response.status_code == 200 and (
                    not need_temporal or response.json().get("temporal") != "down"
                ):
                    return
            except (httpx.HTTPError, ValueError):
                pass
            time.sleep(0.1)
        raise TimeoutError(f"the API did not become healthy within {timeout:.0f} s")

    def start(self, seed_catalog: bool = True) -> Stack:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        raise_open_files_limit(self.settings.api_max_connections)
        try:
            self.start_temporal()
            self.start_storage()
            self.prepare_data(seed_catalog)
            self.start_worker()
            self.start_imaging()
            self.start_api()
        except BaseException:
            self.stop()
            raise
        return self

    def stop_process(self, name: str, timeout: float = 15) -> None:
        self.stop_processes([name], timeout)

    def stop_processes(self, names: list[str], timeout: float = 15) -> None:
        """SIGTERM to all of `names` at once, then wait for each (SIGKILL past `timeout`): each
        drains on its own, so together they take as long as the slowest, not the sum."""
        with self._lock:
            procs = [self.processes.pop(name, None) for name in names]
        running = [proc for proc in procs if proc is not None and proc.poll() is None]
        for proc in running:
            proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for proc in running:
            try:
                proc.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def kill_process(self, name: str) -> None:
        """SIGKILL, no goodbye: for crash tests."""
        with self._lock:
            proc = self.processes.pop(name)
        proc.kill()
        proc.wait()

    def stop(self) -> None:
        with self._lock:
            # No respawn after this point (see `respawn`).
            self._stopping = True
        # Ours (the API, the workers) first, together, each finishing its work with Temporal,
        # storage and the database still there; then the servers.
        names = list(reversed(self.processes))
        self.stop_processes([name for name in names if name not in SERVERS])
        self.stop_processes([name for name in names if name in SERVERS])
        with self._lock:
            for handle in self._logs.values():
                handle.close()
            self._logs.clear()

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop()


def prometheus_config(settings: Settings) -> str:
    """ops/prometheus.yml with the targets moved to these settings' ports."""
    text = (REPO / "ops" / "prometheus.yml").read_text()
    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    for name in ("orchestration_metrics_port", "imaging_metrics_port", "temporal_metrics_port"):
        old, new = getattr(defaults, name), getattr(settings, name)
        text = text.replace(f"'127.0.0.1:{old}'", f"'127.0.0.1:{new}'")
    return text.replace(
        f"'127.0.0.1:{defaults.app_port}'", f"'{settings.app_host}:{settings.app_port}'"
    )


def private_settings(data_dir: Path, **overrides: object) -> Settings:
    """Settings for a private stack on free ports under `data_dir` (tests, benchmarks)."""
    values: dict[str, object] = {
        "data_dir": data_dir,
        "app_port": free_port(),
        "temporal_address": f"127.0.0.1:{free_port()}",
        "temporal_ui_port": free_port(),
        "s3_endpoint": f"127.0.0.1:{free_port()}",
        "jwt_secret": "test-secret-" + os.urandom(24).hex(),
        # Tests and benchmarks start many guests from 127.0.0.1; the limits have tests of their
        # own (tests/integration/test_account_attacks.py), which set them back.
        "guests_per_address_per_day": 100_000,
        "free_guests_per_address_per_day": 100_000,
        # Every module's accounts are signed up from 127.0.0.1 too (a shared stack's many).
        "signup_codes_per_address_per_hour": 100_000,
        # A showcase empty until a test fills it, and no engine run while the stack starts
        # (tests/integration/test_showcase_seed.py turns it on).
        "seed_showcase": False,
        # No fixed metrics ports (tests/integration/test_metrics.py sets free ones).
        "orchestration_metrics_port": 0,
        "imaging_metrics_port": 0,
        "temporal_metrics_port": 0,
    }
    values.update(overrides)
    return Settings(_env_file=None, **values)  # type: ignore[arg-type,call-arg]
