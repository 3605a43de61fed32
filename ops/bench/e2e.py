"""End to end with the CPU engine: single generations beside the engine alone (interleaved, so a
machine that speeds up or slows down affects both), the control plane's CPU in a burst of
generations and in one request of 20 images."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from core.engine import Background, ImageEngine
from core.photos.images import decode_rgb
from ops.bench.stack import BenchStack, control_plane_cpu
from ops.bench.support import Pair, Upload, p50

SERVICES = ("burstreplace", "bodySwap")


class EngineOnly:
    """The engine in the bench's own process on decoded images, models loaded: the yardstick.
    Input i is the i-th pair's photo, swapped to that pair's model (as end to end)."""

    def __init__(self, engine: ImageEngine, pairs: list[Pair], background: Path):
        self.engine = engine
        self.background = Background.photo(decode_rgb(background.read_bytes()))
        self.inputs = [decode_rgb(p.photo.read_bytes()) for p in pairs]
        self.models = [decode_rgb(p.model.read_bytes()) for p in pairs]
        for service in SERVICES:
            for i in range(len(pairs)):
                self.one(service, i)  # warm-up: models loaded and each pair seen before timing

    def one(self, service: str, i: int) -> float:
        photo = self.inputs[i % len(self.inputs)]
        start = time.perf_counter()
        if service == "bodySwap":
            self.engine.body_swap(photo, self.models[i % len(self.models)], self.background)
        else:
            self.engine.replace_background(photo, self.background)
        return time.perf_counter() - start


def singles(
    stack: BenchStack, yardstick: EngineOnly, uploads: list[Upload], count: int
) -> dict[str, dict[str, float]]:
    """p50 of engine-only and of end-to-end per service, alternating one and the other;
    `uploads[i]` is the yardstick's input i. Every upload (a photo and its model) is generated
    once untimed first: the worker's models loaded, each catalog model analysed; "pairs" says
    how many."""
    client = stack.guest()
    figures: dict[str, dict[str, float]] = {}
    for service in SERVICES:
        for upload in uploads:
            client.generate(service, [upload])
        engine_times, e2e_times = [], []
        for i in range(count):
            engine_times.append(yardstick.one(service, i))
            e2e_times.append(client.generate(service, [uploads[i % len(uploads)]]))
        figures[service] = {
            "pairs": len(uploads),
            "engine_p50_ms": p50(engine_times) * 1000,
            "e2e_p50_ms": p50(e2e_times) * 1000,
            "ratio": p50(e2e_times) / p50(engine_times),
        }
        print(
            f"  single {service}: engine-only p50 {figures[service]['engine_p50_ms']:.0f} ms, "
            f"end-to-end p50 {figures[service]['e2e_p50_ms']:.0f} ms",
            flush=True,
        )
    client.close()
    return figures


def burst(
    stack: BenchStack, uploads: list[Upload], count: int, service: str = "bodySwap"
) -> dict[str, float]:
    """`count` one-image generations at once (one guest, one connection each): generations/s,
    CPU seconds per generation by process, engine calls and doubled charges."""
    base = stack.guest()
    clients = [base.clone() for _ in range(count)]
    barrier = threading.Barrier(count)

    def one(i: int) -> float:
        barrier.wait()
        return clients[i].generate(service, [uploads[i % len(uploads)]])

    calls_before = stack.engine_stats()["calls"]
    before = stack.cpu()
    start = time.perf_counter()
    with ThreadPoolExecutor(count) as pool:
        latencies = list(pool.map(one, range(count)))
    elapsed = time.perf_counter() - start
    after = stack.cpu()
    calls = stack.engine_stats()["calls"] - calls_before
    for client in (base, *clients):
        client.close()
    spent = control_plane_cpu(before, after)
    result = {f"cpu_{k}": v / count for k, v in spent.items()}
    result.update(
        generations_per_s=count / elapsed,
        engine_calls=calls,
        generations=count,
        pairs=min(count, len(uploads)),
        p50_s=p50(latencies),
    )
    return result


def many_images(stack: BenchStack, uploads: list[Upload], images: int) -> dict[str, float]:
    """One request with `images` inputs (distinct uploads of one model in `uploads`):
    control-plane CPU per image."""
    client = stack.guest()
    chosen = uploads[:images]
    before = stack.cpu()
    start = time.perf_counter()
    client.follow(client.submit("bodySwap", chosen))
    elapsed = time.perf_counter() - start
    after = stack.cpu()
    client.close()
    spent = control_plane_cpu(before, after)
    result = {f"cpu_{k}": v / images for k, v in spent.items()}
    result["seconds"] = elapsed
    result["images"] = images
    return result
