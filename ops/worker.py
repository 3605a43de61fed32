"""The worker process: the composition root that builds the real engine, storage and database
and registers the workflow and activities.

A process polls one or both task queues: orchestration (workflow + quick activities) and imaging
(engine work, as many at once as `Settings.imaging_slots`). The embedded stack runs them as two
processes, `--queues orchestration` and `--queues imaging`, so the workflow machinery and the
engine's Python never compete for one interpreter lock; in production the imaging processes go
on the GPU/CPU-heavy nodes.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import pkgutil
import signal
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from temporalio.client import Client
from temporalio.runtime import Runtime
from temporalio.worker import Worker

import activities
import workflows
from activities.checkout_expiry import ExpireCheckouts
from activities.cleanup import CleanUpUploads
from activities.mail import RelayMail
from activities.observe import ActivityObserver
from activities.registry import CardCharger, Queue, Registration, WorkerDeps
from activities.sweeper import SweepStuck
from activities.webhooks import WebhookRetries
from core.billing.reconciliation import Reconcile
from core.db import make_database, make_session_factory
from core.engine import ImageEngine
from core.observability.logs import configure_logging
from core.observability.metrics import ActivityMetrics, record_engine_load, worker_runtime
from core.observability.setup import setup_observability, temporal_interceptors
from core.provenance.chain import CredentialsError, describe
from core.provenance.setup import Provenance, provenance_from_settings
from core.settings import Settings, get_settings
from core.storage import Storage
from ops.schedules import ensure_schedule
from ops.search_attributes import ensure_search_attributes
from workflows.checkout_expiry import CHECKOUT_EXPIRY_WORKFLOW
from workflows.cleanup import UPLOAD_CLEANUP_WORKFLOW
from workflows.mail_relay import MAIL_RELAY_WORKFLOW
from workflows.reconciliation import RECONCILIATION_WORKFLOW
from workflows.sweeper import SWEEPER_WORKFLOW
from workflows.webhooks import WEBHOOK_RELAY_WORKFLOW

if TYPE_CHECKING:
    from engine.diffusion.settings import DiffusionSettings

log = logging.getLogger("worker")


class EngineStartError(RuntimeError):
    """The engine cannot start with this configuration (missing or corrupt weights, or weights
    whose licence this deployment may not use)."""


def build_engine(settings: Settings) -> ImageEngine:
    from engine import build_engine as build
    from engine.diffusion.weights import WeightsError, check_licences

    try:
        if (settings.engine == "diffusion" and settings.diffusion_tryon == "catvton"
                and not settings.allow_non_commercial_weights):
            raise EngineStartError("DIFFUSION_TRYON=catvton runs CatVTON, licensed CC BY-NC-SA "
                                   "4.0 (non-commercial): set ALLOW_NON_COMMERCIAL_WEIGHTS=true "
                                   "for development or research, or use fashn")
        if settings.engine == "diffusion" and settings.engine_weights_dir:
            # The licences first: read from the manifest in milliseconds, before any model loads.
            production = settings.environment == "production"
            allowed = check_licences(settings.engine_weights_dir,
                                     settings.allow_non_commercial_weights, production,
                                     settings.diffusion_tryon)
            for row in allowed:
                log.warning("loading %s (%s, not licensed for commercial use): "
                            "ALLOW_NON_COMMERCIAL_WEIGHTS is set", row.path, row.licence)
        return build(
            settings.engine,
            remote_url=settings.engine_url or None,
            timeout_seconds=settings.engine_timeout_seconds,
            diffusion=diffusion_settings(settings) if settings.engine == "diffusion" else None,
        )
    except WeightsError as error:
        raise EngineStartError(str(error)) from error


def diffusion_settings(settings: Settings) -> DiffusionSettings:
    # Imported here: the engine package loads the CPU engine's models (the orchestration worker
    # never needs them).
    from engine.diffusion.frames import parse_size
    from engine.diffusion.settings import DiffusionSettings

    return DiffusionSettings(
        weights_dir=Path(settings.engine_weights_dir),
        size=parse_size(settings.diffusion_size),
        steps=settings.diffusion_steps,
        max_batch=settings.diffusion_max_batch,
        batch_window=settings.diffusion_batch_window_ms / 1000.0,
        device=settings.diffusion_device,
        dtype=settings.diffusion_dtype,
        seed=settings.diffusion_seed,
        compile=settings.diffusion_compile,
        gate=settings.diffusion_gate,
        tryon=settings.diffusion_tryon,
        tryon_steps=settings.diffusion_tryon_steps,
    )


def card_charger(settings: Settings) -> CardCharger | None:
    """What charges a subscription's period to its card on file: the local test provider's
    (its subscription workflows charge each period themselves); None for a provider that
    bills subscriptions on its own (Stripe: its invoice events reach the workflow)."""
    if settings.payment_provider == "local":
        from payments.local import charge_card_on_file

        return charge_card_on_file
    return None


def _modules(package: ModuleType) -> list[ModuleType]:
    return [
        importlib.import_module(f"{package.__name__}.{info.name}")
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name)
    ]


def registered_workflows() -> list[type]:
    """Every workflow class, as each module under workflows/ names them in `WORKFLOWS`."""
    return [cls for module in _modules(workflows) for cls in getattr(module, "WORKFLOWS", ())]


def registrations() -> list[Registration]:
    """Every activities module's `REGISTRATION` (activities/registry.py)."""
    found = [getattr(module, "REGISTRATION", None) for module in _modules(activities)]
    return [registration for registration in found if isinstance(registration, Registration)]


def build_workers(
    client: Client,
    settings: Settings,
    engine: ImageEngine | None,
    queues: tuple[str, ...] = ("orchestration", "imaging"),
    provenance: Provenance | None = None,
) -> list[Worker]:
    deps = WorkerDeps(
        sessions=make_session_factory(make_database(settings.resolved_database_url)),
        storage=Storage(settings),
        settings=settings,
        engine=engine,
        card_charger=card_charger(settings),
        provenance=provenance or (
            provenance_from_settings(settings) if engine is not None else None
        ),
    )
    if deps.provenance is not None:
        log.info("content credentials: %s",
                 describe(deps.provenance.credentials, settings.data_dir))

    def activities_of(queue: Queue) -> list[Callable[..., Any]]:
        return [fn for reg in registrations() if reg.queue == queue for fn in reg.build(deps)]

    # On SIGTERM (main below) a worker stops polling and lets what it holds finish first.
    drain = timedelta(seconds=settings.worker_drain_seconds)
    workers = []
    if Queue.ORCHESTRATION in queues:
        workers.append(
            Worker(
                client,
                task_queue=settings.task_queue,
                workflows=registered_workflows(),
                activities=activities_of(Queue.ORCHESTRATION),
                activity_executor=ThreadPoolExecutor(16, thread_name_prefix="steps"),
                interceptors=[ActivityObserver(), ActivityMetrics()],
                max_concurrent_activities=16,
                graceful_shutdown_timeout=drain,
            )
        )
    if Queue.IMAGING in queues:
        deps.require_engine()
        workers.append(
            Worker(
                client,
                task_queue=settings.imaging_task_queue,
                activities=activities_of(Queue.IMAGING),
                activity_executor=ThreadPoolExecutor(
                    settings.imaging_slots, thread_name_prefix="imaging"
                ),
                max_concurrent_activities=settings.imaging_slots,
                interceptors=[ActivityObserver(), ActivityMetrics()],
                graceful_shutdown_timeout=drain,
            )
        )
    return workers


def mail_relay_schedule_id(settings: Settings) -> str:
    # Named after the task queue, so deployments (and tests) sharing a namespace keep apart.
    return f"mail-relay-{settings.task_queue}"


def webhook_relay_schedule_id(settings: Settings) -> str:
    return f"webhook-relay-{settings.task_queue}"


def webhook_retries(settings: Settings) -> WebhookRetries:
    return WebhookRetries(
        timeout_seconds=settings.webhook_timeout_seconds,
        initial_seconds=settings.webhook_retry_initial_seconds,
        max_interval_seconds=settings.webhook_retry_max_interval_seconds,
        window_seconds=settings.webhook_retry_window_seconds,
    )


def upload_cleanup_schedule_id(settings: Settings) -> str:
    return f"upload-cleanup-{settings.task_queue}"


def sweeper_schedule_id(settings: Settings) -> str:
    return f"stuck-generations-{settings.task_queue}"


def checkout_expiry_schedule_id(settings: Settings) -> str:
    return f"checkout-expiry-{settings.task_queue}"


def reconciliation_schedule_id(settings: Settings) -> str:
    return f"reconciliation-{settings.task_queue}"


async def ensure_mail_and_cleanup_schedules(client: Client, settings: Settings) -> None:
    """The mail relay and the webhook relay (every few seconds), the upload clean-up (hourly)
    and the sweeper of generations recorded but never started (every minute)."""
    await ensure_schedule(
        client,
        mail_relay_schedule_id(settings),
        MAIL_RELAY_WORKFLOW,
        RelayMail(),
        every=timedelta(seconds=settings.mail_relay_interval_seconds),
        task_queue=settings.task_queue,
    )
    await ensure_schedule(
        client,
        webhook_relay_schedule_id(settings),
        WEBHOOK_RELAY_WORKFLOW,
        webhook_retries(settings),
        every=timedelta(seconds=settings.webhook_relay_interval_seconds),
        task_queue=settings.task_queue,
    )
    await ensure_schedule(
        client,
        upload_cleanup_schedule_id(settings),
        UPLOAD_CLEANUP_WORKFLOW,
        CleanUpUploads(retention_hours=settings.upload_retention_hours),
        every=timedelta(minutes=settings.upload_cleanup_interval_minutes),
        task_queue=settings.task_queue,
        run_timeout=timedelta(hours=1),
    )
    await ensure_schedule(
        client,
        sweeper_schedule_id(settings),
        SWEEPER_WORKFLOW,
        SweepStuck(older_than_seconds=60),
        every=timedelta(minutes=1),
        task_queue=settings.task_queue,
    )
    # Abandoned checkouts expire (workflows/checkout_expiry.py).
    await ensure_schedule(
        client,
        checkout_expiry_schedule_id(settings),
        CHECKOUT_EXPIRY_WORKFLOW,
        ExpireCheckouts(older_than_seconds=settings.checkout_expiry_seconds),
        every=timedelta(seconds=settings.checkout_expiry_interval_seconds),
        task_queue=settings.task_queue,
    )
    # Ledger vs balances vs holds vs delivered images (workflows/reconciliation.py).
    await ensure_schedule(
        client,
        reconciliation_schedule_id(settings),
        RECONCILIATION_WORKFLOW,
        Reconcile(),
        every=timedelta(hours=1),
        task_queue=settings.task_queue,
        run_timeout=timedelta(minutes=30),
    )


async def serve(settings: Settings, queues: tuple[str, ...]) -> None:
    # Named by role, so a trace shows which process did what (and each writes its own file).
    role = "metamodel-imaging" if queues == ("imaging",) else "metamodel-worker"
    setup_observability(role, settings)
    engine: ImageEngine | None = None
    provenance: Provenance | None = None
    if "imaging" in queues:
        # The signing chain first: it is checked in milliseconds, the engine loads for longer.
        try:
            provenance = provenance_from_settings(settings)
        except CredentialsError as error:
            raise EngineStartError(f"Content Credentials cannot be signed: {error}") from None
        engine = build_engine(settings)
        # Load the engine's models before taking work, so no user's first image waits for them.
        warm_up = getattr(engine, "warm_up", None)
        if callable(warm_up):
            await asyncio.to_thread(warm_up)
    runtime = metrics_runtime(settings, queues)
    load_report = getattr(engine, "load_report", None)
    if callable(load_report):
        # The model-load report (device, dtype, memory, times), in the log and the metrics.
        report = load_report()
        log.info("engine ready: %s", json.dumps(report, sort_keys=True))
        record_engine_load(runtime, report)
    client = await Client.connect(
        settings.temporal_address,
        namespace=settings.temporal_namespace,
        runtime=runtime,
        interceptors=temporal_interceptors(settings),
    )
    workers = build_workers(client, settings, engine, queues, provenance)
    if "orchestration" in queues:
        await ensure_search_attributes(client, settings.temporal_namespace)
        await ensure_mail_and_cleanup_schedules(client, settings)
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


def metrics_runtime(settings: Settings, queues: tuple[str, ...]) -> Runtime | None:
    """The Temporal runtime serving this process's metrics for Prometheus (the SDK's and ours,
    core/observability/metrics.py) on its queue's metrics port; None (the default runtime) when
    that is 0."""
    port = (
        settings.orchestration_metrics_port
        if "orchestration" in queues
        else settings.imaging_metrics_port
    )
    if not port:
        return None
    return worker_runtime(f"{settings.metrics_host}:{port}", ",".join(queues))


def process_name(queues: tuple[str, ...]) -> str:
    """The name on this process's log lines: orchestration-worker, imaging-worker or worker."""
    return f"{queues[0]}-worker" if len(queues) == 1 else "worker"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--queues",
        default="orchestration,imaging",
        help="comma-separated: orchestration, imaging",
    )
    args = parser.parse_args()
    settings = get_settings()
    queues = tuple(args.queues.split(","))
    configure_logging(settings, process_name(queues))
    try:
        asyncio.run(serve(settings, queues))
    except EngineStartError as error:
        # Unusable weights (named file by file) or settings: say so plainly and stop; a
        # supervisor restarting the worker would only fail the same way.
        log.critical("the imaging engine cannot start: %s", error)
        print(f"the imaging engine cannot start: {error}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
