"""The API's Prometheus metrics, served at GET /metrics (text format).

- mm_http_requests_total{method, route, status}: requests by route *template*
  ("/api/v1/tasks/{id}", never the raw path, so ids cannot blow up the series count);
  "unmatched" for a path no route took.
- mm_http_request_duration_seconds{method, route}: latency (histogram). /pollTasks with
  `waitMs` includes the time a long poll waited, by design.
- mm_http_requests_in_flight: requests being served right now.
- mm_long_polls_waiting: long polls (api/routers/tasks.py) waiting for a task to move on.
- mm_payment_mismatches_total: paid checkout events whose amount or currency did not match
  their order; the order stays pending and the reconciliation lists it (alert on any increase).
- mm_poll_cache_hits_total: plain polls answered from the poll cache (defined with it, in
  api/poll_cache.py; they are in the request counts above too).

The numbers are per process (prometheus_client's default registry): run several API processes
(uvicorn --workers, or replicas) and each is its own scrape target; sum them in PromQL. The
embedded stack and each compose container run one process. Python process metrics
(process_cpu_seconds_total, process_resident_memory_bytes...) come along.
"""

from __future__ import annotations

import time

from fastapi import FastAPI
from fastapi.responses import Response
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUESTS = Counter(
    "mm_http_requests",
    "API requests by method, route template and status",
    ["method", "route", "status"],
)
LATENCY = Histogram(
    "mm_http_request_duration_seconds",
    "API request latency by method and route template",
    ["method", "route"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
IN_FLIGHT = Gauge("mm_http_requests_in_flight", "API requests being served")
LONG_POLLS_WAITING = Gauge(
    "mm_long_polls_waiting", "Long polls of /pollTasks waiting for a task to change"
)
PAYMENT_MISMATCHES = Counter(
    "mm_payment_mismatches",
    "Paid checkout events whose amount or currency did not match their order (kept pending)",
)

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def route_template(scope: Scope) -> str:
    """The path template of the route that served this request (set by the router)."""
    route = scope.get("route")
    template = getattr(route, "path", None)
    if isinstance(template, str):
        return template
    if scope.get("path", "").startswith("/assets/"):
        return "/assets"
    return "unmatched"


class MetricsMiddleware:
    """Counts and times every HTTP request by route template and status."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method = scope["method"] if scope["method"] in _METHODS else "OTHER"
        status = [500]

        async def send_with_status(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        started = time.perf_counter()
        IN_FLIGHT.inc()
        try:
            await self.app(scope, receive, send_with_status)
        finally:
            IN_FLIGHT.dec()
            route = route_template(scope)
            LATENCY.labels(method, route).observe(time.perf_counter() - started)
            REQUESTS.labels(method, route, str(status[0])).inc()


def install_metrics(app: FastAPI) -> None:
    """The middleware (outermost of those added so far) and GET /metrics."""
    app.add_middleware(MetricsMiddleware)

    @app.get("/metrics", include_in_schema=False)
    async def metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
