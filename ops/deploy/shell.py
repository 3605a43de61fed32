"""The deploy check's plumbing (ops/deploy/check.py): its settings, how it fails, its figures,
and the commands it runs (podman, podman-compose).
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[2]
PROJECT = "metamodel-check"
COMPOSE_FILES = ["docker-compose.yml", "ops/deploy/compose.check.yml"]
STANDIN_IMAGE = "localhost/metamodel-standins:latest"
BASE_URL = "http://localhost:8080"
FIXTURES = Path(
    os.environ.get("FIXTURES_DIR", REPO.parent / "shared" / "fixtures" / "images")
)
INFRA = ["postgres", "minio", "temporal", "temporal-ui", "otel-collector", "jaeger"]
OURS = ["api", "worker", "imaging", "web", "prometheus"]
# What docker-compose.yml publishes on the host.
HOST_PORTS = (8080, 9000, 9001, 7233, 8233, 9090, 16686)
IMAGES_PER_GENERATION = 4
CONCURRENT_GENERATIONS = 10
APP_IMAGE = "localhost/metamodel-app:latest"
NETWORK = f"{PROJECT}_default"
# The imaging node started by hand as README "Several machines" says, outside compose.
HAND_NODE = f"{PROJECT}-hand-imaging-node"


class CheckFailed(Exception):
    pass


def log(message: str) -> None:
    print(f"[deploy-check {time.strftime('%H:%M:%S')}] {message}", flush=True)


@dataclass
class Figures:
    """What the check measured; written to out/deploy-check.json."""

    values: dict[str, Any] = field(default_factory=dict)
    started: float = field(default_factory=time.monotonic)

    def put(self, name: str, value: Any) -> None:
        self.values[name] = value
        log(f"figure {name} = {value}")

    @contextmanager
    def timed(self, name: str) -> Iterator[None]:
        start = time.monotonic()
        yield
        self.put(name, round(time.monotonic() - start, 1))


# --- processes --------------------------------------------------------------------------------


def run(args: list[str], env: dict[str, str] | None = None, check: bool = True,
        timeout: float = 900, quiet: bool = False) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=REPO, env=env, text=True, capture_output=True,
                            timeout=timeout)
    if not quiet and result.returncode != 0:
        log(f"{' '.join(args[:6])}... exited {result.returncode}:\n"
            f"{result.stdout[-3000:]}{result.stderr[-3000:]}")
    if check and result.returncode != 0:
        raise CheckFailed(f"{args[0]} {args[1] if len(args) > 1 else ''} failed")
    return result


def podman(*args: str, check: bool = True, quiet: bool = False) -> str:
    return run(["podman", *args], check=check, quiet=quiet).stdout.strip()


class Compose:
    """podman-compose with our files, project name and the generated secrets."""

    def __init__(self) -> None:
        self.env = dict(os.environ)
        # Secrets from the environment, as production: random for each run.
        self.env.update({
            "S3_SECRET_KEY": secrets.token_urlsafe(24),
            "JWT_SECRET": secrets.token_urlsafe(48),
            "CODE_SECRET": secrets.token_urlsafe(48),
            "PAYMENT_WEBHOOK_SECRET": "whsec_" + secrets.token_urlsafe(32),
        })
        # The Content Credentials chain production refuses to start without: a private CA made
        # for this run as README "Content Credentials" says (python -m ops.c2pa_chain make); the
        # key readable by the containers' user (uid 10001) through the read-only mount.
        self.c2pa_dir = Path(tempfile.mkdtemp(prefix="metamodel-check-c2pa-"))
        self.c2pa_dir.chmod(0o755)
        run([sys.executable, "-m", "ops.c2pa_chain", "make", str(self.c2pa_dir),
             "--organisation", "MetaModel deploy check", "--key-mode", "644"])
        self.env["C2PA_DIR"] = str(self.c2pa_dir)
        executable = Path(sys.executable).parent / "podman-compose"
        self.command = [str(executable) if executable.exists()
                        else shutil.which("podman-compose") or "podman-compose"]
        for path in COMPOSE_FILES:
            self.command += ["-f", path]
        self.command += ["-p", PROJECT]

    def __call__(self, *args: str, check: bool = True, timeout: float = 900) -> str:
        return run([*self.command, *args], env=self.env, check=check, timeout=timeout).stdout

    def containers(self, service: str, running: bool = True) -> list[str]:
        out = podman(
            "ps", *([] if running else ["-a"]),
            "--filter", f"label=io.podman.compose.project={PROJECT}",
            "--filter", f"label=com.docker.compose.service={service}",
            "--format", "{{.Names}}",
        )
        return sorted(out.split())

    def project_containers(self, service: str = "") -> list[str]:
        labels = ["--filter", f"label=io.podman.compose.project={PROJECT}"]
        if service:
            labels += ["--filter", f"label=com.docker.compose.service={service}"]
        return podman("ps", "-aq", *labels, check=False, quiet=True).split()

    def down(self) -> None:
        """Containers, network, pod and volumes gone, also after a failed or interrupted run.
        podman-compose's `down` stops one container after another, and only the first replica
        of a scaled service: stop them all first, ours before what they depend on (a worker
        whose Temporal is gone waits out its whole stop timeout), each group in parallel."""
        podman("rm", "-f", "-t", "20", HAND_NODE, check=False, quiet=True)
        ours = [c for service in ["migrate", *OURS] for c in self.project_containers(service)]
        for group in (ours, self.project_containers()):
            if group:
                podman("stop", "-t", "20", *group, check=False, quiet=True)
        self("down", "-v", "-t", "20", check=False, timeout=600)
        left = self.project_containers()
        if left:
            podman("rm", "-f", *left, check=False, quiet=True)
        volumes = podman("volume", "ls", "-q", "--filter",
                         f"label=io.podman.compose.project={PROJECT}",
                         check=False, quiet=True).split()
        if volumes:
            podman("volume", "rm", "-f", *volumes, check=False, quiet=True)
        podman("pod", "rm", "-f", f"pod_{PROJECT}", check=False, quiet=True)
        podman("network", "rm", "-f", f"{PROJECT}_default", check=False, quiet=True)


def wait_until(what: str, test: Callable[[], bool], timeout: float, every: float = 0.5) -> float:
    """Seconds it took for `test` to hold; CheckFailed after `timeout`."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        try:
            if test():
                return time.monotonic() - start
        except (httpx.HTTPError, OSError, ValueError, KeyError):
            pass
        time.sleep(every)
    raise CheckFailed(f"{what}: not within {timeout:.0f} s")
