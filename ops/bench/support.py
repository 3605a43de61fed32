"""What the benchmark's parts share: statistics, per-process CPU and memory from /proc, the
unit of work "P" and an HTTP client that behaves as the web app does."""

from __future__ import annotations

import io
import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import httpx
from PIL import Image

from core.engine import Background, EngineError, ImageEngine
from core.photos.images import decode_rgb

# People photos every service accepts (a whole face, facing the camera).
BENCH_PHOTOS = ("01008_00.jpg", "01861_00.jpg", "02849_00.jpg", "05997_00.jpg", "07966_00.jpg")
# Garments the quality gate passes on a catalog model (ops/bench/engine.py gives each bench photo
# the first model, in rotation, whose swap the gate delivers); a garment refused on every model
# would stop the bench.
BENCH_GARMENTS = ("00055_00.jpg", "00126_00.jpg", "049805_1.jpg", "00470_00.jpg")


@dataclass(frozen=True)
class Pair:
    """A bench photo and the catalog model (its id is the file's stem, as ops/seed names it)
    whose model swap with it the quality gate delivers."""

    photo: Path
    model: Path

    @property
    def model_id(self) -> str:
        return self.model.stem


@dataclass(frozen=True)
class Upload:
    """A bench photo in the stack's storage, with the catalog model id to swap it to."""

    key: str
    model_id: str


def first_accepted(
    engine: ImageEngine, photo: Image.Image, models: Sequence[Image.Image], start: int,
    background: Background,
) -> int:  # fmt: skip
    """The index of the first model, in rotation from `start`, whose swap with `photo` the
    quality gate delivers. A pair it refuses (a skin tone too far from the person's, say) is
    refused in production too, so timing it would time a refusal, and end to end it fails the
    generation (and stopped `make bench`)."""
    refusals = []
    for k in range(len(models)):
        index = (start + k) % len(models)
        try:
            engine.body_swap(photo, models[index], background)
        except EngineError as error:
            refusals.append(str(error))
            continue
        return index
    raise SystemExit("no catalog model gives a delivered swap for a bench photo: " + refusals[0])


def accepted_pairs(
    engine: ImageEngine, photos: list[Path], models: list[Path], background: Path
) -> list[Pair]:
    """Each photo with the first catalog model (model-1 first) the gate accepts it with: most
    photos share one model (a many-image request takes one model), and a photo no light model
    suits (a dark skin tone) gets one that does."""
    # Decoded as the imaging step decodes them.
    decoded = [decode_rgb(m.read_bytes()) for m in models]
    back = Background.photo(decode_rgb(background.read_bytes()))
    pairs = []
    for photo in photos:
        index = first_accepted(engine, decode_rgb(photo.read_bytes()), decoded, 0, back)
        pairs.append(Pair(photo, models[index]))
    return pairs


def p50(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (no interpolation: with few samples it is a real sample)."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are fields 14 and 15 of stat (1-based); [0] here is field 3.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (VmRSS), 0 when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pillow_unit(photo: Path, repeats: int = 30) -> float:
    """P: seconds for one Pillow decode + encode of a 768x1024 JPEG on one core (p50, one
    thread), timed in the same run as everything it divides."""
    data = photo.read_bytes()

    def once() -> None:
        Image.open(io.BytesIO(data)).convert("RGB").save(io.BytesIO(), "JPEG", quality=92)

    once()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        once()
        times.append(time.perf_counter() - start)
    return p50(times)


def raise_open_files_limit() -> None:
    """A thousand long polls need a thousand sockets here and in the API (a child inherits)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Client:
    """One guest of the app, on its own connection, doing what the web app does."""

    def __init__(self, base: str, headers: dict[str, str] | None = None) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=120)
        if headers is None:
            fingerprint = os.urandom(8).hex()
            response = self.http.post(
                "/imageedit/users/guestlogin", headers={"x-fingerprint-id": fingerprint}
            )
            response.raise_for_status()
            token = response.json()["data"]["token"]
            headers = {"Authorization": f"Bearer {token}"}
        self.headers = headers

    @property
    def token(self) -> str:
        return self.headers["Authorization"].removeprefix("Bearer ")

    def clone(self) -> Client:
        """The same guest on its own connection (one per thread in a burst)."""
        return Client(self.base, self.headers)

    def close(self) -> None:
        self.http.close()

    def upload(self, data: bytes) -> str:
        response = self.http.get(
            "/api/v1/request/presignedUrl",
            headers=self.headers,
            params={"filename": "bench.jpg", "mimeType": "image/jpeg"},
        )
        response.raise_for_status()
        target = response.json()["data"]
        httpx.put(
            target["url"], content=data, headers={"Content-Type": "image/jpeg"}
        ).raise_for_status()
        key: str = target["key"]
        return key

    def submit(self, service: str, uploads: list[Upload]) -> list[str]:
        """Submit one generation (model swap with the uploads' model, or background replace,
        on bg-1)."""
        form: dict[str, object] = {"backgroundId": "bg-1", "inputFiles": [u.key for u in uploads]}
        if service == "bodySwap":
            models = {u.model_id for u in uploads}
            assert len(models) == 1, f"one model per generation, not {sorted(models)}"
            form["modelId"] = models.pop()
        response = self.http.post(f"/imageedit/service/{service}", headers=self.headers, data=form)
        if response.status_code != 200:
            raise RuntimeError(f"{service}: {response.status_code} {response.text}")
        task_ids: list[str] = response.json()["data"]["taskIds"]
        return task_ids

    def follow(self, task_ids: list[str]) -> None:
        """Long-poll as the web app does (`since`) until every task is completed; raises on a
        failed task."""
        since = ",".join("queued:0" for _ in task_ids)
        while True:
            response = self.http.get(
                "/api/v1/task/pollTasks",
                headers=self.headers,
                params={"taskIds": json.dumps(task_ids), "since": since, "waitMs": 20000},
            )
            response.raise_for_status()
            tasks = response.json()["data"]
            failed = [t for t in tasks if t["status"] == "failed"]
            if failed:
                raise RuntimeError(failed[0]["error"])
            if all(t["status"] == "completed" for t in tasks):
                return
            since = ",".join(f"{t['status']}:{t['progress']}" for t in tasks)

    def generate(self, service: str, uploads: list[Upload]) -> float:
        """Seconds from submit until pollTasks says every task is completed."""
        start = time.perf_counter()
        self.follow(self.submit(service, uploads))
        return time.perf_counter() - start


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start
