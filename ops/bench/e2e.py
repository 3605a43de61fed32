"""End to end with the CPU engine: single generations beside the engine alone (interleaved, so a
machine that speeds up or slows down affects both), the control plane's CPU in a burst of
generations and in one request of 20 images."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from core.engine import Background, ImageEngine
from core.images import decode_rgb
from ops.bench.stack import BenchStack, control_plane_cpu
from ops.bench.support import p50

SERVICES = ("burstreplace", "bodySwap")


class EngineOnly:
    """The engine in the bench's own process on decoded images, models loaded: the yardstick."""

    def __init__(self, engine: ImageEngine, photos: list[Path], model: Path, background: Path):
        self.engine = engine
        self.model = decode_rgb(model.read_bytes())
        self.background = Background.photo(decode_rgb(background.read_bytes()))
        self.inputs = [decode_rgb(p.read_bytes()) for p in photos]
        for service in SERVICES:
            self.one(service, 0)  # warm-up: models loaded before timing

    def one(self, service: str, i: int) -> float:
        photo = self.inputs[i % len(self.inputs)]
        start = time.perf_counter()
        if service == "bodySwap":
            self.engine.body_swap(photo, self.model, self.background)
        else:
            self.engine.replace_background(photo, self.background)
        return time.perf_counter() - start


def singles(
    stack: BenchStack, yardstick: EngineOnly, keys: list[str], count: int
) -> dict[str, dict[str, float]]:
    """p50 of engine-only and of end-to-end per service, alternating one and the other."""
    client = stack.guest()
    figures: dict[str, dict[str, float]] = {}
    for service in SERVICES:
        client.generate(service, [keys[0]])  # warm-up: the worker's models loaded
        engine_times, e2e_times = [], []
        for i in range(count):
            engine_times.append(yardstick.one(service, i))
            e2e_times.append(client.generate(service, [keys[i % len(keys)]]))
        figures[service] = {
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
    stack: BenchStack, keys: list[str], count: int, service: str = "bodySwap"
) -> dict[str, float]:
    """`count` one-image generations at once (one guest, one connection each): generations/s,
    CPU seconds per generation by process, engine calls and doubled charges."""
    base = stack.guest()
    clients = [base.clone() for _ in range(count)]
    barrier = threading.Barrier(count)

    def one(i: int) -> float:
        barrier.wait()
        return clients[i].generate(service, [keys[i % len(keys)]])

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
        p50_s=p50(latencies),
    )
    return result


def many_images(stack: BenchStack, keys: list[str], images: int) -> dict[str, float]:
    """One request with `images` inputs (distinct uploads in `keys`): control-plane CPU per
    image."""
    client = stack.guest()
    chosen = keys[:images]
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
