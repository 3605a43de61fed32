"""A local webhook receiver for the tests: a real HTTP server on a free port that keeps every
request (headers and body) and answers from a script (e.g. 500, 500, 500, then 200). It can be
stopped and started again on the same port, to play a receiver that is down for a while."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from ops.stack import free_port


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    answered: int


class WebhookReceiver:
    def __init__(self, answers: list[int] | None = None, delay: float = 0.0) -> None:
        self.port = free_port()
        self.answers = list(answers or [])  # answered in order; then 200
        self.delay = delay
        self.received: list[Received] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/metamodel"

    def start(self) -> WebhookReceiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                time.sleep(receiver.delay)
                with receiver._lock:
                    code = receiver.answers.pop(0) if receiver.answers else 200
                    receiver.received.append(Received(
                        self.path, {k.lower(): v for k, v in self.headers.items()}, body, code))
                self.send_response(code)
                self.send_header("content-length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *_args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def of_type(self, event_type: str) -> list[Received]:
        import json

        with self._lock:
            return [r for r in self.received if json.loads(r.body)["type"] == event_type]

    def wait_for(self, count: int, timeout: float = 60.0, answered: int | None = None,
                 ) -> list[Received]:
        """At least `count` requests (answered with `answered`, when given)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                matching = [r for r in self.received if answered is None or r.answered == answered]
            if len(matching) >= count:
                return matching
            time.sleep(0.2)
        raise AssertionError(f"{len(matching)} of {count} webhook requests within {timeout} s: "
                             f"{[(r.answered, r.body[:80]) for r in self.received]}")
