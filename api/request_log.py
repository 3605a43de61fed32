"""One log line per API request, in a log context of its own.

The middleware opens a fresh log context (core/observability/logs.py) for each request, so what the
request's code binds (the account in api/deps.py, the generation in the services routes) lands on
every later line of that request and on its closing line: method, route template, status and
duration. It runs inside the tracing middleware, so each line carries the request's trace id. Health
checks and static assets are not logged.
"""

from __future__ import annotations

import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from core.observability.logs import log_context

log = logging.getLogger("api.requests")
SKIPPED_PREFIXES = ("/assets/", "/api/health")


class RequestLogMiddleware:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path.startswith(SKIPPED_PREFIXES):
            await self.app(scope, receive, send)
            return
        status = {"code": 500}

        async def send_with_status(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        started = time.monotonic()
        with log_context():
            try:
                await self.app(scope, receive, send_with_status)
            finally:
                route = getattr(scope.get("route"), "path", None) or path
                code = status["code"]
                log.log(
                    logging.WARNING if code >= 500 else logging.INFO,
                    "%s %s %d",
                    scope["method"],
                    route,
                    code,
                    extra={
                        "method": scope["method"],
                        "route": route,
                        "status": code,
                        "duration_ms": round((time.monotonic() - started) * 1000),
                    },
                )
