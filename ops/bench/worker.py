"""The benchmark's imaging worker: the real imaging worker (ops.worker) with an engine the bench
chooses, metered.

    python -m ops.bench.worker --engine noop|cpu --stats FILE

`noop` is a bench-only engine that returns its input: with it the stack's own cost (API,
Temporal, workers, storage, decode/encode) is all there is. It exists only here, in a process
the bench starts; it is no setting of the product.

Either engine is wrapped to count its calls and the CPU it spends, written to FILE a few times
a second, so the bench can take the engine out of the imaging worker's CPU (what is left is
control plane) and check that no image was rendered twice. Engine CPU is the calling thread's
CPU during each call plus all CPU of native threads Python did not start (OpenMP, TFLite
pools: only the engine starts those; the Temporal SDK's Rust threads are told apart by name).
"""

from __future__ import annotations

import argparse
import json
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from PIL import Image

from core.engine import Background, ImageEngine, Placement, ProgressFn, no_progress
from core.observability.logs import configure_logging
from core.settings import Settings, get_settings

# Thread names (comm) of threads that are not the engine's (tokio: the Temporal SDK core).
CONTROL_THREAD_PREFIXES = ("tokio", "temporal")


class NoOpEngine:
    """Returns its input: the engine costs nothing, so only the control plane is measured."""

    def body_swap(
        self,
        photo: Image.Image,
        model: Image.Image,
        background: Background | None,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        return photo

    def replace_background(
        self,
        photo: Image.Image,
        background: Background,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        return photo


class MeteredEngine:
    """Counts calls and CPU of the wrapped engine."""

    def __init__(self, inner: ImageEngine) -> None:
        self.inner = inner
        self._lock = threading.Lock()
        self.calls = 0
        self.call_cpu = 0.0

    def warm_up(self) -> None:
        warm_up = getattr(self.inner, "warm_up", None)
        if callable(warm_up):
            warm_up()

    def _metered(self, run: Callable[[], Image.Image]) -> Image.Image:
        start = time.thread_time()
        try:
            return run()
        finally:
            spent = time.thread_time() - start
            with self._lock:
                self.calls += 1
                self.call_cpu += spent

    def body_swap(
        self,
        photo: Image.Image,
        model: Image.Image,
        background: Background | None,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        inner = self.inner
        return self._metered(
            lambda: inner.body_swap(photo, model, background, progress, placement=placement)
        )

    def replace_background(
        self,
        photo: Image.Image,
        background: Background,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        inner = self.inner
        return self._metered(
            lambda: inner.replace_background(photo, background, progress, placement=placement)
        )


def native_engine_cpu() -> float:
    """CPU seconds of this process's threads that Python did not start and that are not the
    Temporal SDK's: the engine's native thread pools."""
    python_threads = {t.native_id for t in threading.enumerate()}
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for task in Path("/proc/self/task").iterdir():
        try:
            tid = int(task.name)
            if tid in python_threads or tid == os.getpid():
                continue
            comm = (task / "comm").read_text().strip()
            if comm.startswith(CONTROL_THREAD_PREFIXES):
                continue
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, ValueError):
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def write_stats(engine: MeteredEngine, path: Path) -> None:
    while True:
        with engine._lock:
            stats = {"calls": engine.calls, "call_cpu": engine.call_cpu}
        stats["native_cpu"] = native_engine_cpu()
        stats["engine_cpu"] = stats["call_cpu"] + stats["native_cpu"]
        stats["at"] = time.time()
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(stats))
        tmp.replace(path)
        time.sleep(0.2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engine", choices=("noop", "cpu"), required=True)
    parser.add_argument("--stats", type=Path, required=True)
    args = parser.parse_args()

    import ops.worker as worker

    inner: ImageEngine = (
        NoOpEngine() if args.engine == "noop" else worker.build_engine(get_settings())
    )
    metered = MeteredEngine(inner)

    def build_engine(settings: Settings) -> ImageEngine:
        return metered

    # The worker builds its engine through this function; the bench hands it its own.
    worker.build_engine = build_engine
    threading.Thread(target=write_stats, args=(metered, args.stats), daemon=True).start()
    settings = get_settings()
    configure_logging(settings, "imaging-worker")
    import asyncio

    asyncio.run(worker.serve(settings, ("imaging",)))


if __name__ == "__main__":
    main()
