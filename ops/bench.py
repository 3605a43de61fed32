"""`make bench`: engine-only versus end-to-end, on the same fixture images, in one run.

Prints figures and ratios (these machines are noisy, so compare side by side, interleaved):
- engine-only p50 per image (model swap with a photo background, models loaded, one thread),
  alternating with end-to-end generations: submit until pollTasks says completed, through API,
  Temporal, workers and storage, followed with long polls as the web app does;
- burst: 50 generations submitted at once, throughput end to end, between two engine-only
  bursts with the same number of threads as the worker's imaging concurrency;
- the CPU each process of the stack spent per image in the end-to-end burst.
Then the engine's own one-core figures (ops.engine_bench).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from core.engine import Background, ImageEngine
from core.images import decode_rgb
from core.settings import Settings
from ops.seed import fixtures_dir
from ops.stack import Stack, private_settings
from ops.worker import build_engine

SINGLES = int(os.environ.get("BENCH_SINGLES", "20"))
BURST = int(os.environ.get("BENCH_BURST", "50"))


def p50(values: list[float]) -> float:
    return statistics.median(values)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are fields 14 and 15 of stat (1-based); [0] here is field 3.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_by_process(stack: Stack) -> dict[str, float]:
    usage = {name: cpu_seconds(proc.pid) for name, proc in stack.processes.items()}
    usage["bench clients"] = cpu_seconds(os.getpid())
    return usage


class EngineOnly:
    """The engine in this process, on decoded images, models loaded: the yardstick."""

    def __init__(self, engine: ImageEngine, photos: list[Path], model: Path, background: Path):
        self.engine = engine
        self.model = decode_rgb(model.read_bytes())
        self.background = Background.photo(decode_rgb(background.read_bytes()))
        self.inputs = [decode_rgb(p.read_bytes()) for p in photos]
        self.one(0)  # warm-up: models loaded before timing

    def one(self, i: int) -> float:
        start = time.perf_counter()
        self.engine.body_swap(self.inputs[i % len(self.inputs)], self.model, self.background)
        return time.perf_counter() - start

    def burst(self, count: int, threads: int) -> float:
        """Images per second with `threads` at once."""
        start = time.perf_counter()
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(self.one, range(count)))
        return count / (time.perf_counter() - start)


class Client:
    def __init__(self, base: str, headers: dict[str, str] | None = None) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=120)
        if headers is None:
            fingerprint = os.urandom(8).hex()
            token = self.http.post(
                "/imageedit/users/guestlogin", headers={"x-fingerprint-id": fingerprint}
            ).json()["data"]["token"]
            headers = {"Authorization": f"Bearer {token}"}
        self.headers = headers

    def clone(self) -> Client:
        """The same guest on its own connection (one per thread in the burst)."""
        return Client(self.base, self.headers)

    def upload(self, data: bytes) -> str:
        target = self.http.get(
            "/api/v1/request/presignedUrl",
            headers=self.headers,
            params={"filename": "bench.jpg", "mimeType": "image/jpeg"},
        ).json()["data"]
        httpx.put(target["url"], content=data, headers={"Content-Type": "image/jpeg"})
        key: str = target["key"]
        return key

    def generate(self, key: str, model_id: str, background_id: str) -> float:
        """Submit one generation and follow it as the web app does (long polling with `since`);
        seconds from submit until pollTasks says completed."""
        start = time.perf_counter()
        response = self.http.post(
            "/imageedit/service/bodySwap",
            headers=self.headers,
            data={"modelId": model_id, "backgroundId": background_id, "inputFiles": [key]},
        )
        response.raise_for_status()
        task_ids = response.json()["data"]["taskIds"]
        since = ",".join("queued:0" for _ in task_ids)
        while True:
            tasks = self.http.get(
                "/api/v1/task/pollTasks",
                headers=self.headers,
                params={"taskIds": json.dumps(task_ids), "since": since, "waitMs": 20000},
            ).json()["data"]
            if tasks[0]["status"] == "completed":
                return time.perf_counter() - start
            if tasks[0]["status"] == "failed":
                raise RuntimeError(tasks[0]["error"])
            since = ",".join(f"{t['status']}:{t['progress']}" for t in tasks)


def side_by_side(
    yardstick: EngineOnly, settings: Settings, photos: list[Path], singles: int, burst: int
) -> tuple[list[float], list[float], float, float]:
    """Engine-only and end-to-end, interleaved so that a machine that speeds up or slows down
    during the run affects both: singles alternate one engine-only image and one generation;
    the end-to-end burst sits between two engine-only bursts, whose mean is the yardstick."""
    threads = settings.imaging_concurrency
    with tempfile.TemporaryDirectory() as tmp:
        bench = private_settings(
            Path(tmp),
            guest_free_credits=singles + burst + 10,
            imaging_concurrency=threads,
        )
        with Stack(bench, log_dir=Path(tmp) / "logs", temporal_ui=False) as stack:
            stack.start()
            client = Client(bench.app_url)
            keys = [client.upload(p.read_bytes()) for p in photos]
            client.generate(keys[0], "model-1", "bg-1")  # warm-up: worker's models loaded
            engine_times, e2e_times = [], []
            for i in range(singles):
                engine_times.append(yardstick.one(i))
                e2e_times.append(client.generate(keys[i % len(keys)], "model-1", "bg-1"))
            print(
                f"  singles p50: engine-only {p50(engine_times) * 1000:.0f} ms, "
                f"end-to-end {p50(e2e_times) * 1000:.0f} ms",
                flush=True,
            )

            barrier = threading.Barrier(burst)
            clients = [client.clone() for _ in range(burst)]

            def one(i: int) -> float:
                barrier.wait()
                return clients[i].generate(keys[i % len(keys)], "model-1", "bg-1")

            engine_before = yardstick.burst(burst, threads)
            before = cpu_by_process(stack)
            start = time.perf_counter()
            with ThreadPoolExecutor(burst) as pool:
                list(pool.map(one, range(burst)))
            e2e_rate = burst / (time.perf_counter() - start)
            after = cpu_by_process(stack)
            engine_after = yardstick.burst(burst, threads)
            print(
                f"  burst of {burst}: engine-only {engine_before:.2f} then {engine_after:.2f} "
                f"images/s, end-to-end between them {e2e_rate:.2f} images/s",
                flush=True,
            )
            print("  burst CPU per image, by process:")
            for name in after:
                spent = (after[name] - before.get(name, 0.0)) / burst
                print(f"    {name:14s} {spent * 1000:6.0f} ms")
            engine_rate = (engine_before + engine_after) / 2
            return engine_times, e2e_times, engine_rate, e2e_rate


def main() -> None:
    fixtures = fixtures_dir()
    photos = sorted((fixtures / "people").glob("*.jpg"))[:5]
    if not photos:
        sys.exit(f"no fixture photos in {fixtures}")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    threads = settings.imaging_concurrency
    print(
        f"bench: {len(photos)} photos, {SINGLES} singles, burst of {BURST}, "
        f"{threads} imaging threads, {os.cpu_count()} cores",
        flush=True,
    )

    yardstick = EngineOnly(
        build_engine(settings),
        photos,
        fixtures / "catalog-models" / "model-1.jpg",
        fixtures / "backgrounds" / "bg-1.jpg",
    )
    engine_times, e2e_times, engine_rate, e2e_rate = side_by_side(
        yardstick, settings, photos, SINGLES, BURST
    )

    ep50, fp50 = p50(engine_times), p50(e2e_times)
    print("\nmodel swap + photo background, 768x1024")
    print(f"  engine-only p50        {ep50 * 1000:8.0f} ms")
    print(
        f"  end-to-end p50         {fp50 * 1000:8.0f} ms   ratio {fp50 / ep50:.2f} (target <= 1.30)"
    )
    print(f"  engine-only throughput {engine_rate:8.2f} images/s ({threads} threads)")
    print(
        f"  end-to-end throughput  {e2e_rate:8.2f} images/s   ratio {e2e_rate / engine_rate:.2f}"
        " (target >= 0.80)"
    )

    print("\nengine only, one core:", flush=True)
    # Its own process pinned to one core, so threads cannot borrow the second core.
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    subprocess.run(
        ["taskset", "-c", "0", sys.executable, "-m", "ops.engine_bench"], env=env, check=True
    )


if __name__ == "__main__":
    main()
