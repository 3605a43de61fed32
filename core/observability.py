"""Traces (OpenTelemetry) and errors (Sentry), set up once per process from settings.

Traces go to the console or to an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT); Temporal's
tracing interceptor carries the trace from the API's start_workflow into the workflow and its
activities, so one request can be followed end to end.
"""

from __future__ import annotations

import logging
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SpanExporter

from core.settings import Settings

log = logging.getLogger(__name__)
_configured = False


def _exporter(kind: str) -> SpanExporter | None:
    if kind == "console":
        return ConsoleSpanExporter()
    if kind == "otlp":
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        return OTLPSpanExporter()
    return None


def setup_observability(service_name: str, settings: Settings) -> None:
    global _configured
    if _configured:
        return
    _configured = True
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    exporter = _exporter(settings.otel_exporter)
    if exporter is not None:
        provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    if settings.sentry_dsn:
        import sentry_sdk

        sentry_sdk.init(dsn=settings.sentry_dsn, traces_sample_rate=1.0)
        log.info("Sentry error reporting on")


def temporal_interceptors(settings: Settings) -> list[Any]:
    """Temporal's tracing interceptor, only when traces go somewhere: it makes spans for every
    workflow task and activity, which a worker under load pays for in CPU."""
    if settings.otel_exporter == "none":
        return []
    from temporalio.contrib.opentelemetry import TracingInterceptor

    return [TracingInterceptor()]
