"""A server span per API request, named by its route template ("POST /imageedit/service/{id}").

OpenTelemetry's FastAPI instrumentation for the 1.27 family (the newest that accepts the
protobuf 4 that mediapipe needs) fails on current Starlette, so this small ASGI middleware
does the same job with the OpenTelemetry API. Context arriving in `traceparent` is continued,
and every traced response names its trace in a `traceresponse` header (W3C Trace Context level
2: `00-{trace id}-{span id}-{flags}`), so a client, a support ticket or a log line can quote it.
"""

from __future__ import annotations

from opentelemetry import propagate, trace
from opentelemetry.trace import SpanKind, Status, StatusCode
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.observability.tracing import traceresponse

SKIPPED_PREFIXES = ("/assets/", "/api/health")


class TracingMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.tracer = trace.get_tracer("metamodel.api")
        # The headers the propagator reads (traceparent, tracestate, baggage), looked up once:
        # the propagator builds this set anew on every call.
        self.fields = frozenset(propagate.get_global_textmap().fields)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path.startswith(SKIPPED_PREFIXES):
            await self.app(scope, receive, send)
            return
        fields = self.fields
        headers = {
            name: v.decode("latin-1")
            for k, v in scope["headers"]
            if (name := k.decode("latin-1")) in fields
        }
        method = scope["method"]
        status = {"code": 500}
        header: list[tuple[bytes, bytes]] = []

        async def send_with_status(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                if header:
                    message = {**message, "headers": [*message.get("headers", ()), *header]}
            await send(message)

        with self.tracer.start_as_current_span(
            f"{method} {path}", context=propagate.extract(headers), kind=SpanKind.SERVER
        ) as span:
            value = traceresponse(span)
            if value is not None:
                header.append((b"traceresponse", value.encode("latin-1")))
            span.set_attribute("http.method", method)
            span.set_attribute("http.target", path)
            try:
                await self.app(scope, receive, send_with_status)
            finally:
                route = scope.get("route")
                template = getattr(route, "path", None)
                if template:
                    span.update_name(f"{method} {template}")
                    span.set_attribute("http.route", template)
                span.set_attribute("http.status_code", status["code"])
                if status["code"] >= 500:
                    span.set_status(Status(StatusCode.ERROR))
