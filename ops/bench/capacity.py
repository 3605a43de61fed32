"""Control-plane capacity: generations per second the stack sustains when the engine costs
nothing (the bench's no-op engine), and the same with more worker processes (scale out)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

from ops.bench.stack import BenchStack, control_plane_cpu
from ops.bench.support import Upload, p50, percentile


def single_p50(stack: BenchStack, uploads: list[Upload], count: int) -> float:
    """p50 seconds of one generation at a time, submit to completed."""
    client = stack.guest()
    client.generate("bodySwap", [uploads[0]])  # warm-up
    times = [client.generate("bodySwap", [uploads[i % len(uploads)]]) for i in range(count)]
    client.close()
    return p50(times)


def sustained(
    stack: BenchStack, uploads: list[Upload], seconds: float, concurrency: int
) -> dict[str, float]:
    """`concurrency` clients each submitting one-image generations back to back for `seconds`:
    completed generations per second, failures, latency p50/p95 and CPU per generation."""
    base = stack.guest()
    clients = [base.clone() for _ in range(concurrency)]
    latencies: list[float] = []
    failures: list[str] = []
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def loop(i: int) -> None:
        n = 0
        while time.perf_counter() < stop_at:
            try:
                took = clients[i].generate("bodySwap", [uploads[(i + n) % len(uploads)]])
            except Exception as error:  # noqa: BLE001 (counted: the figure is zero failures)
                with lock:
                    failures.append(repr(error))
                continue
            finally:
                n += 1
            with lock:
                latencies.append(took)

    calls_before = stack.engine_stats()["calls"]
    charges_before = stack.doubled_charges()
    before = stack.cpu()
    start = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(loop, range(concurrency)))
    elapsed = time.perf_counter() - start
    after = stack.cpu()
    calls = stack.engine_stats()["calls"] - calls_before
    for client in (base, *clients):
        client.close()
    done = len(latencies)
    spent = control_plane_cpu(before, after)
    return {
        "generations_per_s": done / elapsed,
        "generations": done,
        "failures": len(failures),
        "first_failure": failures[0] if failures else "",  # type: ignore[dict-item]
        "p50_s": p50(latencies),
        "p95_s": percentile(latencies, 0.95),
        "engine_calls": calls,
        # Completed generations whose image was rendered more than once (0 unless a real
        # failure was retried), and generations charged twice.
        "rendered_twice": max(0.0, calls - done - len(failures)),
        "doubled_charges": stack.doubled_charges() - charges_before,
        "cpu_control_plane_per_generation_s": spent["control plane"] / max(done, 1),
        "seconds": elapsed,
        "concurrency": concurrency,
    }
