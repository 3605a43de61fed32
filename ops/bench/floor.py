"""What Temporal alone costs here: the floor under the end-to-end and CPU figures of issue 11.

A durable generation needs at least a workflow and one activity in another process (the
engine never runs in the orchestration worker). This measures exactly that and nothing of
ours: a workflow whose only step is an activity that returns at once, on a queue served by a
second process, against the bench stack's own Temporal server. No database, no storage, no
API, no tracing, no interceptors.

    python -m ops.bench.floor serve --queue Q --address HOST:PORT --namespace NS --role R

Singles: start until the client has the result, one at a time, p50. Burst: `count` at once,
the CPU the Temporal server and the two floor workers spent per workflow. And the singles
again with both workers inside the bench's own process, on its client's connection.

What it found (2026-11-24): with the dev server's defaults each task waited 35-50 ms between
being scheduled and being started once more than a few had gone by (start-to-result about
150 ms instead of about 15 ms, workers in-process or not): its one history shard reads the
transfer queue at most 20 times a second (history.transferProcessorMaxPollRPS). ops/stack.py
now starts it with 1000.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time
import uuid
from datetime import timedelta

from temporalio import activity, workflow
from temporalio.client import Client
from temporalio.worker import Worker

from ops.bench.stack import BenchStack
from ops.bench.support import cpu_seconds, p50

FLOOR_WORKFLOW = "BenchFloor"


@activity.defn(name="bench_floor_step")
async def floor_step(value: str) -> str:
    return value


@workflow.defn(name=FLOOR_WORKFLOW, sandboxed=False)
class FloorWorkflow:
    @workflow.run
    async def run(self, activity_queue: str) -> str:
        return await workflow.execute_activity(
            floor_step,
            "done",
            task_queue=activity_queue,
            start_to_close_timeout=timedelta(seconds=30),
        )


async def _serve(address: str, namespace: str, queue: str, role: str) -> None:
    client = await Client.connect(address, namespace=namespace)
    if role == "workflow":
        worker = Worker(client, task_queue=queue, workflows=[FloorWorkflow])
    else:
        worker = Worker(client, task_queue=queue, activities=[floor_step])
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    run = asyncio.create_task(worker.run())
    print("worker ready", flush=True)
    await stop.wait()
    await worker.shutdown()
    await asyncio.gather(run, return_exceptions=True)


async def _run_one(client: Client, queue: str) -> float:
    start = time.perf_counter()
    await client.execute_workflow(
        FLOOR_WORKFLOW,
        f"{queue}-activity",
        id=f"floor-{uuid.uuid4().hex}",
        task_queue=f"{queue}-workflow",
    )
    return time.perf_counter() - start


async def _measure(
    address: str, namespace: str, queue: str, singles: int, burst: int, cpu: dict[str, int]
) -> dict[str, float]:
    """Against the two worker processes: singles, then a burst with CPU per workflow."""
    client = await Client.connect(address, namespace=namespace)
    for _ in range(3):  # warm-up: pollers connected, caches filled
        await _run_one(client, queue)
    latencies = [await _run_one(client, queue) for _ in range(singles)]
    before = {name: cpu_seconds(pid) for name, pid in cpu.items()}
    await asyncio.gather(*(_run_one(client, queue) for _ in range(burst)))
    spent = {name: (cpu_seconds(pid) - before[name]) / burst for name, pid in cpu.items()}
    return {
        "single_p50_ms": p50(latencies) * 1000,
        **{f"cpu_{name}": seconds for name, seconds in spent.items()},
    }


async def _measure_in_process(address: str, namespace: str, singles: int) -> float:
    """The same workflow with both workers in this process, on this client's connection:
    singles' p50 in ms."""
    client = await Client.connect(address, namespace=namespace)
    queue = f"bench-floor-{uuid.uuid4().hex[:8]}"
    workflows = Worker(client, task_queue=f"{queue}-workflow", workflows=[FloorWorkflow])
    activities = Worker(client, task_queue=f"{queue}-activity", activities=[floor_step])
    async with workflows, activities:
        for _ in range(3):
            await _run_one(client, queue)
        latencies = [await _run_one(client, queue) for _ in range(singles)]
    return p50(latencies) * 1000


def floor(stack: BenchStack, singles: int, burst: int) -> dict[str, float]:
    """The floor's figures (CPU in seconds per workflow), with two floor workers started as
    processes of the stack and stopped after."""
    settings = stack.settings
    queue = f"bench-floor-{uuid.uuid4().hex[:8]}"
    names = []
    for role in ("workflow", "activity"):
        name = f"floor-{role}"
        stack.stack.spawn(
            name,
            [
                sys.executable, "-m", "ops.bench.floor", "serve",
                "--address", settings.temporal_address,
                "--namespace", settings.temporal_namespace,
                "--queue", f"{queue}-{role}", "--role", role,
            ],  # fmt: skip
        )
        names.append(name)
    try:
        stack.wait_logged(names, "worker ready")
        cpu = {
            "temporal": stack.pid("temporal"),
            "workflow_worker": stack.pid("floor-workflow"),
            "activity_worker": stack.pid("floor-activity"),
        }
        result = asyncio.run(
            _measure(
                settings.temporal_address, settings.temporal_namespace, queue, singles, burst, cpu
            )
        )
    finally:
        for name in names:
            stack.stack.stop_process(name)
    result["in_process_single_p50_ms"] = asyncio.run(
        _measure_in_process(settings.temporal_address, settings.temporal_namespace, singles)
    )
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["serve"])
    parser.add_argument("--address", required=True)
    parser.add_argument("--namespace", required=True)
    parser.add_argument("--queue", required=True)
    parser.add_argument("--role", choices=["workflow", "activity"], required=True)
    args = parser.parse_args()
    asyncio.run(_serve(args.address, args.namespace, args.queue, args.role))


if __name__ == "__main__":
    main()
