"""Traces (OpenTelemetry): one trace per generation, from the browser's request to the ledger.

The tracer provider is always set up and Temporal's tracing interceptor is always on, so the
trace context always travels (API request → workflow start → workflow → activities → database
and storage calls); the sampler and the exporter (OTEL_EXPORTER) decide only what is written:

- `file`: OTLP JSON lines under DATA_DIR/traces (core/observability/trace_file.py), read by
  `python -m ops.trace`; the embedded default.
- `otlp`: to a collector at OTEL_EXPORTER_OTLP_ENDPOINT; `console`: to stdout; `none`: nowhere.

Database calls are traced by OpenTelemetry's SQLAlchemy instrumentation and storage calls (the
MinIO client speaks through urllib3) by its urllib3 instrumentation. A database or storage call
outside any traced operation (a background poll) starts no trace of its own.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from opentelemetry import context, trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter
from opentelemetry.sdk.trace.sampling import ALWAYS_OFF, ParentBased, Sampler, TraceIdRatioBased
from sqlalchemy import Engine

from core.settings import Settings

TRACES_DIR = "traces"
# The provider of database and storage spans, once set up (see setup_tracing).
_clients: TracerProvider | None = None
P = ParamSpec("P")
R = TypeVar("R")
_configured = False


def sampler(ratio: float) -> Sampler:
    """Operations starting a trace are sampled at `ratio`; everything else follows its parent."""
    return ParentBased(root=TraceIdRatioBased(ratio))


def _exporter(service_name: str, settings: Settings) -> SpanExporter | None:
    kind = settings.otel_exporter
    if kind == "file":
        from core.observability.trace_file import RotatingFileSpanExporter

        return RotatingFileSpanExporter(
            settings.data_dir / TRACES_DIR / f"{service_name}.jsonl",
            max_bytes=settings.otel_file_max_bytes,
            backups=settings.otel_file_backups,
        )
    if kind == "console":
        return ConsoleSpanExporter()
    if kind == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        return OTLPSpanExporter()
    return None


def setup_tracing(service_name: str, settings: Settings) -> None:
    """The process's tracer provider (once per process) and the database/storage
    instrumentation. Call before the process builds its database engine."""
    global _configured
    if _configured:
        return
    _configured = True
    provider = TracerProvider(
        resource=Resource.create({"service.name": service_name, "process.pid": os.getpid()}),
        sampler=sampler(settings.otel_sample_ratio),
    )
    # Database and storage calls: recorded inside a trace only, never as traces of their own
    # (the API's and the workers' background polls would fill the files with lone queries).
    clients = TracerProvider(
        resource=provider.resource,
        sampler=ParentBased(root=ALWAYS_OFF),
        shutdown_on_exit=False,
    )
    exporter = _exporter(service_name, settings)
    if exporter is not None:
        processor = BatchSpanProcessor(exporter, schedule_delay_millis=1000)
        provider.add_span_processor(processor)
        clients.add_span_processor(processor)
    trace.set_tracer_provider(provider)
    _instrument_clients(clients)


def _instrument_clients(provider: TracerProvider) -> None:
    global _clients
    from opentelemetry.instrumentation.urllib3 import URLLib3Instrumentor

    _clients = provider
    # Storage: the MinIO client's requests.
    URLLib3Instrumentor().instrument(tracer_provider=provider)


def trace_database(database: Engine) -> None:
    """SQL statements on `database` as spans (OpenTelemetry's SQLAlchemy instrumentation, per
    engine: its global switch also patches the asyncio engine, which needs greenlet). Nothing
    in a process without tracing set up."""
    if _clients is None:
        return
    from opentelemetry.instrumentation.sqlalchemy import (  # type: ignore[attr-defined]
        __version__ as version,
    )
    from opentelemetry.instrumentation.sqlalchemy.engine import EngineTracer
    from opentelemetry.metrics import get_meter

    tracer = trace.get_tracer("opentelemetry.instrumentation.sqlalchemy", version, _clients)
    usage = get_meter("opentelemetry.instrumentation.sqlalchemy", version).create_up_down_counter(
        name="db.client.connections.usage", unit="connections"
    )
    EngineTracer(tracer, database, usage)  # type: ignore[no-untyped-call]


def temporal_interceptors() -> list[Any]:
    """Temporal's tracing interceptor, for every client and worker: it carries the trace from
    the API's workflow start into the workflow and its activities."""
    from temporalio.contrib.opentelemetry import TracingInterceptor

    return [TracingInterceptor()]


def current_trace_id() -> str | None:
    """The trace id of the current span (32 hex digits), or None outside any trace."""
    context = trace.get_current_span().get_span_context()
    return format(context.trace_id, "032x") if context.is_valid else None


def tag_current_span(key: str, value: str) -> None:
    """An attribute on the current span (a no-op outside a trace or when not sampled)."""
    trace.get_current_span().set_attribute(key, value)


def traceresponse(span: trace.Span) -> str | None:
    """The W3C `traceresponse` header value for `span`: 00-{trace id}-{span id}-{flags}."""
    context = span.get_span_context()
    if not context.is_valid:
        return None
    return f"00-{context.trace_id:032x}-{context.span_id:016x}-{int(context.trace_flags):02x}"


class StageSpans:
    """Child spans for the stages a long step reports one after another (the engine's
    "finding the subject", "placing on the background", …): each report of a new stage ends
    the previous stage's span and starts the next, under the span current at creation (the
    activity's), whichever thread reports. "done" and `close()` end the last one."""

    def __init__(self, prefix: str) -> None:
        self._prefix = prefix
        self._tracer = trace.get_tracer("metamodel.stages")
        self._parent = context.get_current()
        self._span: trace.Span | None = None
        self._stage: str | None = None
        self._lock = threading.Lock()

    def report(self, stage: str) -> None:
        with self._lock:
            if stage == self._stage:
                return
            self._stage = stage
            if self._span is not None:
                self._span.end()
                self._span = None
            if stage != "done":
                self._span = self._tracer.start_span(
                    f"{self._prefix}: {stage}", context=self._parent
                )

    def close(self) -> None:
        self.report("done")


def in_current_context(fn: Callable[P, R]) -> Callable[P, R]:
    """`fn`, to run in another thread (a pool's) as part of the current trace."""
    captured = context.get_current()

    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        token = context.attach(captured)
        try:
            return fn(*args, **kwargs)
        finally:
            context.detach(token)

    return run
