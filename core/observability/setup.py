"""Traces (OpenTelemetry) and errors (Sentry), set up once per process from settings.

Traces are set up by core/observability/tracing.py (exporters, sampling, database and storage
instrumentation); Temporal's tracing interceptor carries the trace from the API's start_workflow
into the workflow and its activities, so one request can be followed end to end.
"""

from __future__ import annotations

import logging
from typing import Any

from core.observability import error_reports, tracing
from core.settings import Settings

log = logging.getLogger(__name__)
_configured = False


def setup_observability(service_name: str, settings: Settings) -> None:
    global _configured
    if _configured:
        return
    _configured = True
    tracing.setup_tracing(service_name, settings)
    # Sentry (SENTRY_DSN), with release, environment and no personal data (error_reports.py).
    error_reports.setup_error_reports(settings, service_name)


def temporal_interceptors(settings: Settings) -> list[Any]:
    """Temporal's tracing interceptor, always on (whatever OTEL_EXPORTER says): the trace
    context must reach the workflow and its activities even when no span is exported."""
    return tracing.temporal_interceptors()
