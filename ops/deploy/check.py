"""`make deploy-check`: build the production images, run docker-compose.yml with podman, use it.

    .venv/bin/python ops/deploy/check.py [--skip-build] [--keep]

Builds our images (ops/deploy/build-images.sh) and the stand-ins for the third-party ones
(ops/deploy/standins), starts `docker-compose.yml` with `ops/deploy/compose.check.yml` under
podman-compose, waits for health, then drives it from outside through nginx (port 8080) as a
browser would:
1. a guest uploads 4 photos through presigned URLs (straight to storage) and runs a generation
   of 4 images (background replacement, the CPU engine); with one imaging container, images per
   minute measured on a burst of 5 such generations from 5 guests;
2. imaging scaled to 3 and the orchestration worker to 2: the same burst again, then 10
   generations at once while an imaging and a worker container are `podman kill`ed mid-way
   (their Temporal histories must show a render retried);
3. the api container killed between two submits and started again;
4. README "Several machines": compose's imaging containers stopped, ONE imaging node started
   by hand with `podman run` as the README tells an operator (the app image, an env file, the
   services' addresses, on the compose network as another machine would reach them), and a
   generation rendered by it alone (its identity in the Temporal history);
and checks that every generation completed with all its images, each charged exactly once, and
that the reconciliation (core/reconciliation.py, run in the app container by ops.ledger_audit)
is clean; also that Prometheus scrapes the API and both workers, and that spans reach the trace
store's stand-in through the collector's. Always ends with
`down` and its volumes removed. Prints the figures and writes them to out/deploy-check.json;
exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
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


# --- build ------------------------------------------------------------------------------------


def build(figures: Figures) -> None:
    script = REPO / "ops" / "deploy" / "build-images.sh"
    with figures.timed("build_bases_app_web_s"):
        result = run(["bash", str(script)], timeout=1800)
    print(result.stdout[-2000:], flush=True)
    # pip inside the build reaches PyPI here only with this machine's CA bundle (a build
    # secret, not kept in the image), as build-images.sh passes it.
    ca = Path(os.environ.get("CA_BUNDLE", "/etc/ssl/certs/ca-certificates.crt"))
    secret = ["--secret", f"id=ca,src={ca}"] if ca.is_file() else []
    with figures.timed("build_standins_s"):
        run(["podman", "build", "-q", "-t", STANDIN_IMAGE, *secret, "ops/deploy/standins"],
            timeout=1800)
    for image in (STANDIN_IMAGE, "localhost/metamodel-app:latest",
                  "localhost/metamodel-web:latest"):
        size = podman("image", "inspect", "--format", "{{.Size}}", image, check=False)
        if size.isdigit():
            figures.put(f"image_mb:{image.split('/')[-1]}", round(int(size) / 1e6))


# --- the stack --------------------------------------------------------------------------------


def healthcheck(container: str) -> bool:
    """podman runs compose healthchecks on systemd timers, which these machines do not have:
    run the container's own healthcheck command once, now."""
    return run(["podman", "healthcheck", "run", container], check=False, quiet=True,
               timeout=30).returncode == 0


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(1)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def api_ready() -> bool:
    response = httpx.get(f"{BASE_URL}/api/health", timeout=2)
    return response.status_code == 200 and response.json().get("temporal") == "up"


def up(compose: Compose, figures: Figures) -> None:
    """Start in dependency order, each step waiting for what the next needs. docker compose
    does this from depends_on's conditions; podman-compose 1.6 on podman 4.3 ignores
    service_healthy (it needs podman >= 4.6) and service_completed_successfully only waits for
    the exit, so the order is kept here."""
    taken = [port for port in HOST_PORTS if port_open(port)]
    if taken:
        raise CheckFailed(f"host ports {taken} are taken; compose publishes {HOST_PORTS}")
    start = time.monotonic()
    compose("up", "-d", "--no-deps", *INFRA)
    (postgres,) = compose.containers("postgres")
    wait_until("postgres healthy", lambda: healthcheck(postgres), 120, every=1)
    wait_until("temporal listening", lambda: port_open(7233), 120)
    wait_until("storage answering",
               lambda: httpx.get("http://localhost:9000/", timeout=2).status_code < 500, 60)
    figures.put("infra_ready_s", round(time.monotonic() - start, 1))

    migrate_start = time.monotonic()
    compose("up", "-d", "--no-deps", "migrate")
    (migrate,) = compose.containers("migrate", running=False)
    code = podman("wait", migrate)
    print(podman("logs", migrate, check=False)[-2000:], flush=True)
    if code != "0":
        raise CheckFailed(f"migrate exited {code}")
    figures.put("migrate_s", round(time.monotonic() - migrate_start, 1))

    compose("up", "-d", "--no-deps", *OURS)
    wait_until("API healthy through nginx, Temporal up", api_ready, 180)
    figures.put("time_to_healthy_s", round(time.monotonic() - start, 1))


# --- a guest, through nginx -------------------------------------------------------------------


class Guest:
    """A browser's guest session, through nginx."""

    def __init__(self) -> None:
        self.http = httpx.Client(base_url=BASE_URL, timeout=60)
        self.fingerprint = uuid.uuid4().hex
        response = self.http.post("/imageedit/users/guestlogin",
                                  headers={"x-fingerprint-id": self.fingerprint})
        response.raise_for_status()
        self.token: str = response.json()["data"]["token"]
        self.credits: int = response.json()["data"]["credits"]

    @property
    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}", "x-fingerprint-id": self.fingerprint}

    def upload(self, data: bytes, filename: str, preflight: bool = False) -> str:
        """Presigned URL from the API, then a PUT straight to storage, as the browser does
        (`preflight`: first the CORS preflight the browser sends, which must allow the web
        app's origin)."""
        response = self.http.get("/api/v1/request/presignedUrl", headers=self.headers, params={
            "filename": filename, "mimeType": "image/jpeg", "requestType": "burstreplace"})
        response.raise_for_status()
        target = response.json()["data"]
        if preflight:
            allowed = httpx.options(target["url"], headers={
                "Origin": BASE_URL, "Access-Control-Request-Method": "PUT",
                "Access-Control-Request-Headers": "content-type"})
            origin = allowed.headers.get("access-control-allow-origin")
            if allowed.status_code >= 300 or origin not in (BASE_URL, "*"):
                raise CheckFailed(f"storage refuses the browser's upload from {BASE_URL}: "
                                  f"{allowed.status_code}, allow-origin {origin!r}")
        put = httpx.put(target["url"], content=data,
                        headers={"Content-Type": "image/jpeg", "Origin": BASE_URL})
        put.raise_for_status()
        key: str = target["key"]
        return key

    def submit(self, keys: list[str]) -> dict[str, Any]:
        response = self.http.post(
            "/imageedit/service/burstreplace", headers=self.headers,
            data={"backgroundId": "white", "inputFiles": keys})
        if response.status_code != 200:
            raise CheckFailed(f"submit answered {response.status_code}: {response.text[:300]}")
        data: dict[str, Any] = response.json()["data"]
        return data

    def service(self, service_id: str) -> dict[str, Any]:
        response = self.http.get(f"/imageedit/service/{service_id}", headers=self.headers)
        response.raise_for_status()
        data: dict[str, Any] = response.json()["data"]
        return data


@dataclass
class Generation:
    guest: Guest
    service_id: str
    images: int
    submitted: float
    finished: float | None = None
    status: str = "queued"
    delivered: int = 0
    polls_failed: int = 0

    @property
    def seconds(self) -> float:
        return round((self.finished or time.monotonic()) - self.submitted, 1)


def photos() -> list[bytes]:
    paths = sorted((FIXTURES / "people").glob("*.jpg"))[:IMAGES_PER_GENERATION]
    if len(paths) < IMAGES_PER_GENERATION:
        raise CheckFailed(f"fixture photos not found in {FIXTURES / 'people'} (FIXTURES_DIR)")
    return [path.read_bytes() for path in paths]


def start_generation(pictures: list[bytes], preflight: bool = False) -> Generation:
    guest = Guest()
    if guest.credits < len(pictures):
        raise CheckFailed(f"a new guest got {guest.credits} credits")
    keys = [guest.upload(data, f"photo-{i}.jpg", preflight) for i, data in enumerate(pictures)]
    data = guest.submit(keys)
    if len(data["taskIds"]) != len(pictures):
        raise CheckFailed(f"{len(pictures)} photos made {len(data['taskIds'])} tasks")
    return Generation(guest, data["serviceId"], len(pictures), time.monotonic())


def follow(generations: list[Generation], timeout: float) -> None:
    """Poll each generation (through nginx) until it has finished; the API may be away for a
    while (killed on purpose), so a failed poll is retried."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        pending = [g for g in generations if g.finished is None]
        if not pending:
            return
        for g in pending:
            try:
                service = g.guest.service(g.service_id)
            except (httpx.HTTPError, OSError):
                g.polls_failed += 1
                continue
            if service["status"] in ("completed", "failed"):
                g.finished, g.status = time.monotonic(), service["status"]
                g.delivered = sum(1 for t in service["tasks"] if t["status"] == "completed")
        time.sleep(0.5)
    late = [g.service_id for g in generations if g.finished is None]
    raise CheckFailed(f"generations not finished after {timeout:.0f} s: {late}")


def content_credentials(generation: Generation, figures: Figures) -> None:
    """Every delivered file carries Content Credentials signed with the deployment's chain
    (the one made for this run): c2pa's own reader, trusting nothing, finds them valid with only
    the chain's trust flagged, and the same manifest the API summarises."""
    import c2pa

    reports = []
    for task in generation.guest.service(generation.service_id)["tasks"]:
        data = httpx.get(task["outputs"][0]["url"]).raise_for_status().content
        mime = "image/png" if data.startswith(b"\x89PNG") else "image/jpeg"
        reader = c2pa.Reader(mime, io.BytesIO(data))
        report = json.loads(reader.json())
        manifest = report["manifests"][report["active_manifest"]]
        codes = [item["code"] for item in report.get("validation_status") or []]
        issuer = manifest.get("signature_info", {}).get("issuer")
        summary = task.get("contentCredentials") or {}
        if (reader.get_validation_state() != "Valid" or codes != ["signingCredential.untrusted"]
                or issuer != "MetaModel deploy check"
                or summary.get("manifestLabel") != report["active_manifest"]):
            raise CheckFailed(f"output of task {task['taskId']} is not signed by the deployment's "
                              f"chain: {reader.get_validation_state()}, {codes}, {issuer!r}")
        reports.append({"state": reader.get_validation_state(), "codes": codes,
                        "action": summary.get("action"), "bytes": len(data)})
    figures.put("content_credentials", reports)


def require_complete(generations: list[Generation]) -> None:
    bad = [(g.service_id, g.status, g.delivered) for g in generations
           if g.status != "completed" or g.delivered != g.images]
    if bad:
        raise CheckFailed(f"generations not completed with all their images: {bad}")


def burst(pictures: list[bytes], count: int) -> tuple[list[Generation], float]:
    """`count` generations submitted at once; returns them and images per minute."""
    with ThreadPoolExecutor(max_workers=count) as pool:
        generations = list(pool.map(lambda _: start_generation(pictures), range(count)))
    first = min(g.submitted for g in generations)
    follow(generations, 900)
    require_complete(generations)
    elapsed = max(g.finished or 0 for g in generations) - first
    return generations, round(count * len(pictures) / elapsed * 60, 1)


# --- kills ------------------------------------------------------------------------------------


def kill_and_recover(compose: Compose, container: str, figures: Figures, name: str) -> None:
    """`podman kill` (SIGKILL, a crash); then whatever podman's restart policy does within
    5 s, else `podman start` as a supervisor (systemd unit, the orchestrator) would. (Podman
    counts `podman kill` as stopped by the user, as `docker kill`: `unless-stopped` restarts a
    container whose process dies by itself, not a killed one.)"""
    podman("kill", container)
    killed_at = time.monotonic()
    restarted_by_policy = False
    while time.monotonic() - killed_at < 5:
        state = podman("inspect", "--format", "{{.State.Status}}", container, check=False)
        if state == "running":
            restarted_by_policy = True
            break
        time.sleep(0.5)
    if not restarted_by_policy:
        podman("start", container)
    figures.put(f"{name}_restarted_by", "podman restart policy" if restarted_by_policy
                else "podman start (policy did not restart a killed container)")


def crash_and_wait_for_policy(container: str, figures: Figures) -> None:
    pid = podman("inspect", "--format", "{{.State.Pid}}", container)
    restarts = int(podman("inspect", "--format", "{{.RestartCount}}", container))
    os.kill(int(pid), 9)
    crashed_at = time.monotonic()
    wait_until(f"{container} restarted by its restart policy", lambda: int(podman(
        "inspect", "--format", "{{.RestartCount}}", container)) > restarts, 30)
    figures.put("api_crash_restarted_by_policy_s", round(time.monotonic() - crashed_at, 1))


def in_full_swing(generations: list[Generation]) -> bool:
    """Images of these generations are being rendered and many are still waiting: every
    imaging container holds renders now (each takes IMAGING_CONCURRENCY, 2, at a time)."""
    statuses = [t["status"] for g in generations
                for t in g.guest.service(g.service_id)["tasks"]]
    return "running" in statuses and statuses.count("queued") >= 12


def temporal(compose: Compose, *args: str) -> Any:
    """The Temporal CLI in the temporal container, its JSON answer."""
    (server,) = compose.containers("temporal")
    return json.loads(podman("exec", server, "temporal", *args, "--address", "localhost:7233",
                             "-o", "json"))


def history_figures(compose: Compose, generations: list[Generation]) -> dict[str, int]:
    """From the generations' Temporal histories (the workflow id is the generation's id): how
    many renders started again after a failed attempt (a killed imaging container's, once
    their heartbeat was missed), and how many workflow tasks timed out (those a killed
    orchestration worker held, taken up by the other)."""
    renders_retried = workflow_tasks_timed_out = 0
    for g in generations:
        events = temporal(compose, "workflow", "show", "-w", g.service_id)["events"]
        for event in events:
            started = event.get("activityTaskStartedEventAttributes")
            if started and int(started.get("attempt", 1)) > 1:
                renders_retried += 1
            if "workflowTaskTimedOutEventAttributes" in event:
                workflow_tasks_timed_out += 1
    return {"renders_retried": renders_retried,
            "workflow_tasks_timed_out": workflow_tasks_timed_out}


def audit(compose: Compose, generations: list[Generation]) -> dict[str, Any]:
    (api,) = compose.containers("api")
    out = podman("exec", api, "python", "-m", "ops.ledger_audit",
                 *[g.service_id for g in generations])
    report: dict[str, Any] = json.loads(out.splitlines()[-1])
    # One credit an image: each charged once, for all its images, nothing refunded.
    images = {g.service_id: g.images for g in generations}
    wrong = {
        gid: entry for gid, entry in report["generations"].items()
        if (entry["charges"], entry["charged_credits"], entry["refunds"]) != (1, images[gid], 0)
    }
    if wrong:
        raise CheckFailed(f"generations not charged exactly once: {wrong}")
    if not report["reconciliation"]["clean"]:
        raise CheckFailed(f"reconciliation found mismatches: {report['reconciliation']}")
    return report


def scenario(compose: Compose, figures: Figures) -> None:
    pictures = photos()
    everything: list[Generation] = []

    # 1. One guest, one generation of 4 images, one imaging container.
    web_app()
    first = start_generation(pictures, preflight=True)
    follow([first], 300)
    require_complete([first])
    everything.append(first)
    figures.put("generation_4_images_s", first.seconds)
    content_credentials(first, figures)
    one, rate = burst(pictures, 5)
    everything += one
    figures.put("images_per_minute_1_imaging", rate)
    figures.put("burst_1_imaging_generation_s", [g.seconds for g in one])
    observability(figures)

    # 2. Scaled out: 3 imaging containers, 2 orchestration workers.
    # podman-compose 1.6 takes one --scale per call (the last one wins).
    compose("up", "-d", "--no-deps", "--scale", "imaging=3", "imaging")
    compose("up", "-d", "--no-deps", "--scale", "worker=2", "worker")
    imaging, workers = compose.containers("imaging"), compose.containers("worker")
    if len(imaging) != 3 or len(workers) != 2:
        raise CheckFailed(f"scaled to {len(imaging)} imaging and {len(workers)} workers")
    time.sleep(5)  # the new workers connect and poll
    three, rate = burst(pictures, 5)
    everything += three
    figures.put("images_per_minute_3_imaging", rate)
    figures.put("burst_3_imaging_generation_s", [g.seconds for g in three])

    # 10 generations at once; an imaging and a worker container die mid-way.
    with ThreadPoolExecutor(max_workers=CONCURRENT_GENERATIONS) as pool:
        ten = list(pool.map(lambda _: start_generation(pictures),
                            range(CONCURRENT_GENERATIONS)))
    wait_until("the ten generations rendering", lambda: in_full_swing(ten), 120, every=0.2)
    kill_and_recover(compose, imaging[0], figures, "imaging")
    kill_and_recover(compose, workers[0], figures, "worker")
    follow(ten, 900)
    require_complete(ten)
    everything += ten
    figures.put("ten_at_once_generation_s", sorted(g.seconds for g in ten))
    history = history_figures(compose, ten)
    figures.put("ten_at_once_history", history)
    if not history["renders_retried"]:
        raise CheckFailed("no render was retried: the imaging container was killed idle")

    # 3. The API dies between two submits; the generation already running goes on.
    before = start_generation(pictures)
    (api,) = compose.containers("api")
    kill_and_recover(compose, api, figures, "api")
    wait_until("API back through nginx", api_ready, 120)
    after = Generation(first.guest, first.guest.submit(
        [first.guest.upload(pictures[0], "after.jpg")])["serviceId"], 1, time.monotonic())
    follow([before, after], 300)
    require_complete([before, after])
    everything += [before, after]
    # A crash rather than a kill: the API's process dies by itself (as by the OOM killer), and
    # compose's `restart: unless-stopped` must bring the container back without anyone.
    crash_and_wait_for_policy(api, figures)
    wait_until("API back through nginx after its crash", api_ready, 120)

    # 4. An imaging node on "another machine", started by hand as the README says.
    everything.append(hand_started_node(compose, pictures, figures))

    report = audit(compose, everything)
    figures.put("generations", len(everything))
    figures.put("images", sum(g.images for g in everything))
    figures.put("reconciliation", {k: report["reconciliation"][k] for k in
                                   ("clean", "accounts_checked", "generations_checked")})


def production_env_file(compose: Compose, directory: Path) -> Path:
    """The operator's prod.env: what README "Settings a deployment must give" lists, and
    ENVIRONMENT=production, which docker-compose.yml sets for its own services (without it a
    hand-started worker would run as development). The same secrets as the stack's."""
    settings = ["ENVIRONMENT=production", "ENGINE=cpu",
                "C2PA_CERT_CHAIN_FILE=/run/secrets/c2pa/chain.pem",
                "C2PA_PRIVATE_KEY_FILE=/run/secrets/c2pa/key.pem"] + [
        f"{name}={compose.env[name]}"
        for name in ("JWT_SECRET", "CODE_SECRET", "S3_SECRET_KEY", "PAYMENT_WEBHOOK_SECRET")
    ]
    path = directory / "prod.env"
    path.write_text("\n".join(settings) + "\n")
    path.chmod(0o600)
    return path


def renders_by(compose: Compose, generation: Generation, hostname: str) -> tuple[int, int]:
    """(renders the generation's history scheduled on the imaging queue, how many of them
    were started by the worker on `hostname`: temporalio's identity is pid@hostname)."""
    events = temporal(compose, "workflow", "show", "-w", generation.service_id)["events"]
    imaging = {
        str(event.get("eventId")) for event in events
        if event.get("activityTaskScheduledEventAttributes", {}).get("taskQueue", {})
        .get("name") == "imaging"
    }
    started = [event["activityTaskStartedEventAttributes"] for event in events
               if "activityTaskStartedEventAttributes" in event]
    ours = [s for s in started if str(s.get("scheduledEventId")) in imaging
            and str(s.get("identity", "")).endswith(f"@{hostname}")]
    return len(imaging), len(ours)


def hand_started_node(compose: Compose, pictures: list[bytes], figures: Figures) -> Generation:
    """README "Several machines", a CPU imaging node: compose's imaging containers stopped,
    one started with plain `podman run` as the README's `docker run` line (an env file, the
    three addresses by the names another machine would use: here the compose network's
    service names), and a generation that only it can render."""
    step_start = time.monotonic()
    imaging = compose.containers("imaging")
    podman("stop", "-t", "20", *imaging)
    figures.put("compose_imaging_stopped_s", round(time.monotonic() - step_start, 1))
    with tempfile.TemporaryDirectory() as directory:
        env_file = production_env_file(compose, Path(directory))
        start = time.monotonic()
        podman(
            "run", "-d", "--name", HAND_NODE, "--network", NETWORK,
            "--restart", "unless-stopped", "--stop-timeout", "130", "--env-file", str(env_file),
            "-v", f"{compose.c2pa_dir}:/run/secrets/c2pa:ro",
            "-e", "TEMPORAL_ADDRESS=temporal:7233",
            "-e", "DATABASE_URL=postgresql+psycopg://metamodel:metamodel@postgres:5432/metamodel",
            "-e", "S3_ENDPOINT=minio:9000",
            APP_IMAGE, "python", "-m", "ops.worker", "--queues", "imaging",
        )
    try:
        generation = start_generation(pictures)
        follow([generation], 120)
        require_complete([generation])
        figures.put("hand_started_node_generation_s", round(time.monotonic() - start, 1))
        hostname = podman("inspect", "--format", "{{.Config.Hostname}}", HAND_NODE)
        scheduled, by_node = renders_by(compose, generation, hostname)
        figures.put("hand_started_node_renders", f"{by_node} of {scheduled}")
        if scheduled < generation.images or by_node != scheduled:
            raise CheckFailed(f"the hand-started node rendered {by_node} of {scheduled} renders")
    except CheckFailed:
        print(podman("logs", "--tail", "30", HAND_NODE, check=False, quiet=True), flush=True)
        raise
    finally:
        podman("rm", "-f", "-t", "20", HAND_NODE, check=False)
        # compose's imaging back, as `up` left it.
        podman("start", *imaging, check=False)
    figures.put("hand_started_node_step_s", round(time.monotonic() - step_start, 1))
    return generation


def web_app() -> None:
    """nginx serves the built web app (a client-side route gets index.html) and its hashed
    assets gzip'd; the Temporal UI answers on its port."""
    page = httpx.get(f"{BASE_URL}/generate")
    if page.status_code != 200 or "<div id=\"root\"" not in page.text:
        raise CheckFailed(f"the web app's page: {page.status_code} {page.text[:200]!r}")
    script = page.text.split('src="/assets/', 1)[1].split('"', 1)[0]
    asset = httpx.get(f"{BASE_URL}/assets/{script}", headers={"Accept-Encoding": "gzip"})
    if asset.status_code != 200 or asset.headers.get("content-encoding") != "gzip":
        raise CheckFailed(f"asset {script}: {asset.status_code} {dict(asset.headers)}")
    if httpx.get("http://localhost:8233/").status_code != 200:
        raise CheckFailed("the Temporal UI does not answer on port 8233")


def observability(figures: Figures) -> None:
    """Prometheus scrapes the API and the workers; the app's spans reach the collector."""
    def targets_up() -> bool:
        active = httpx.get("http://localhost:9090/api/v1/targets", timeout=5).json()
        up_jobs = {t["labels"]["job"] for t in active["data"]["activeTargets"]
                   if t["health"] == "up"}
        return {"api", "orchestration-worker", "imaging-worker"} <= up_jobs
    wait_until("Prometheus scraping the API and both workers", targets_up, 60, every=2)
    spans = httpx.get("http://localhost:16686/", timeout=5).json()
    traces = spans["received"].get("/v1/traces", {}).get("requests", 0)
    if not traces:
        raise CheckFailed(f"no spans reached the trace store through the collector: {spans}")
    figures.put("otlp_trace_requests_at_trace_store", traces)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--skip-build", action="store_true", help="use the images already built")
    parser.add_argument("--keep", action="store_true", help="leave the stack running")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        # podman works here as root only (../shared/guide/platform-facts.md, "Containers").
        os.execvp("sudo", ["sudo", "-E", sys.executable, __file__, *sys.argv[1:]])
    figures = Figures()
    compose = Compose()
    ok = False
    try:
        compose.down()  # what an interrupted run left
        if not args.skip_build:
            build(figures)
        up(compose, figures)
        scenario(compose, figures)
        ok = True
    except (CheckFailed, subprocess.TimeoutExpired, httpx.HTTPError) as error:
        log(f"FAILED: {error}")
        for service in ("migrate", "api", "worker", "imaging", "web"):
            for container in compose.containers(service, running=False):
                log(f"--- last log lines of {container}")
                print(podman("logs", "--tail", "30", container, check=False, quiet=True),
                      flush=True)
    finally:
        if not args.keep:
            with figures.timed("down_s"):
                compose.down()
            shutil.rmtree(compose.c2pa_dir, ignore_errors=True)
        figures.put("total_s", round(time.monotonic() - figures.started, 1))
        figures.put("passed", ok)
        out = REPO / "out"
        out.mkdir(exist_ok=True)
        (out / "deploy-check.json").write_text(json.dumps(figures.values, indent=2) + "\n")
    log("PASSED" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
