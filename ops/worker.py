"""The worker process: the composition root that builds the real engine, storage and database
and registers the workflow and activities.

A process polls one or both task queues: orchestration (workflow + quick activities) and imaging
(engine work, as many at once as `imaging_concurrency`). The embedded stack runs them as two
processes, `--queues orchestration` and `--queues imaging`, so the workflow machinery and the
engine's Python never compete for one interpreter lock; in production the imaging processes go
on the GPU/CPU-heavy nodes.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
from concurrent.futures import ThreadPoolExecutor

from temporalio.client import Client
from temporalio.worker import Worker

from activities.generation import GenerationActivities
from activities.imaging import ImagingActivities
from core.db import make_engine, make_session_factory
from core.engine import ImageEngine
from core.observability import setup_observability, temporal_interceptors
from core.settings import Settings, get_settings
from core.storage import Storage
from workflows.generation import GenerationWorkflow

log = logging.getLogger("worker")


def build_engine(settings: Settings) -> ImageEngine:
    from engine import build_engine as build

    return build(
        settings.engine,
        remote_url=settings.engine_url or None,
        timeout_seconds=settings.engine_timeout_seconds,
    )


def build_workers(
    client: Client,
    settings: Settings,
    engine: ImageEngine | None,
    queues: tuple[str, ...] = ("orchestration", "imaging"),
) -> list[Worker]:
    sessions = make_session_factory(make_engine(settings.resolved_database_url))
    storage = Storage(settings)
    workers = []
    if "orchestration" in queues:
        steps = GenerationActivities(sessions, storage, settings)
        workers.append(
            Worker(
                client,
                task_queue=settings.task_queue,
                workflows=[GenerationWorkflow],
                activities=[
                    steps.verify_uploads,
                    steps.charge_credits,
                    steps.fail_task,
                    steps.notify,
                ],
                activity_executor=ThreadPoolExecutor(16, thread_name_prefix="steps"),
                max_concurrent_activities=16,
            )
        )
    if "imaging" in queues:
        if engine is None:
            raise ValueError("the imaging queue needs an engine")
        imaging = ImagingActivities(
            sessions,
            storage,
            engine,
            heartbeat_interval=max(0.5, settings.imaging_heartbeat_timeout_seconds / 4),
        )
        workers.append(
            Worker(
                client,
                task_queue=settings.imaging_task_queue,
                activities=[imaging.run_imaging],
                activity_executor=ThreadPoolExecutor(
                    settings.imaging_concurrency, thread_name_prefix="imaging"
                ),
                max_concurrent_activities=settings.imaging_concurrency,
            )
        )
    return workers


async def serve(settings: Settings, queues: tuple[str, ...]) -> None:
    setup_observability("metamodel-worker", settings)
    engine: ImageEngine | None = None
    if "imaging" in queues:
        engine = build_engine(settings)
        # Load the engine's models before taking work, so no user's first image waits for them.
        warm_up = getattr(engine, "warm_up", None)
        if callable(warm_up):
            await asyncio.to_thread(warm_up)
    client = await Client.connect(
        settings.temporal_address,
        namespace=settings.temporal_namespace,
        interceptors=temporal_interceptors(settings),
    )
    workers = build_workers(client, settings, engine, queues)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runs = [asyncio.create_task(w.run()) for w in workers]
    log.info("worker polling %s", ", ".join(w.task_queue for w in workers))
    print("worker ready", flush=True)
    await stop.wait()
    log.info("worker stopping")
    await asyncio.gather(*(w.shutdown() for w in workers))
    await asyncio.gather(*runs, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--queues",
        default="orchestration,imaging",
        help="comma-separated: orchestration, imaging",
    )
    args = parser.parse_args()
    settings = get_settings()
    logging.basicConfig(level=settings.log_level, format="%(asctime)s %(name)s %(message)s")
    asyncio.run(serve(settings, tuple(args.queues.split(","))))


if __name__ == "__main__":
    main()
