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
that the reconciliation (core/billing/reconciliation.py, run in the app container by
ops.ledger_audit) is clean; also that Prometheus scrapes the API and both workers, and that spans
reach the trace store's stand-in through the collector's. Always ends with
`down` and its volumes removed. Prints the figures and writes them to out/deploy-check.json;
exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from ops.deploy.faults import (
    audit,
    crash_and_wait_for_policy,
    history_figures,
    in_full_swing,
    kill_and_recover,
    temporal,
)
from ops.deploy.guests import (
    Generation,
    burst,
    content_credentials,
    follow,
    photos,
    require_complete,
    start_generation,
)
from ops.deploy.shell import (
    APP_IMAGE,
    BASE_URL,
    CONCURRENT_GENERATIONS,
    HAND_NODE,
    HOST_PORTS,
    INFRA,
    NETWORK,
    OURS,
    REPO,
    STANDIN_IMAGE,
    CheckFailed,
    Compose,
    Figures,
    log,
    podman,
    run,
    wait_until,
)

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
    events = temporal(compose, "workflow", "show", "-w", generation.generation_id)["events"]
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
