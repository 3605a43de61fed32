"""A minimal OTLP/HTTP receiver standing in for the OpenTelemetry Collector and Jaeger.

Neither is installable here from Debian or PyPI. It accepts what an OTLP/HTTP exporter POSTs
(/v1/traces, /v1/metrics, /v1/logs), answers 200 as a collector does, counts requests and bytes
per path, and, as the collector, forwards each body unchanged to --forward (Jaeger's stand-in),
so the compose topology app -> collector -> trace store is exercised. GET /stats answers the
counts as JSON (the deploy check reads them); there is no trace viewer.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

counts: dict[str, dict[str, int]] = {}
forwarded = {"ok": 0, "failed": 0}
lock = threading.Lock()
forward_to = ""


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with lock:
            entry = counts.setdefault(self.path, {"requests": 0, "bytes": 0})
            entry["requests"] += 1
            entry["bytes"] += len(body)
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()
        if forward_to:
            self._forward(body)

    def _forward(self, body: bytes) -> None:
        request = urllib.request.Request(
            forward_to.rstrip("/") + self.path, data=body, method="POST",
            headers={"Content-Type": self.headers.get("Content-Type", "application/x-protobuf")})
        try:
            urllib.request.urlopen(request, timeout=5).close()
            outcome = "ok"
        except OSError:
            outcome = "failed"
        with lock:
            forwarded[outcome] += 1

    def do_GET(self) -> None:  # noqa: N802
        with lock:
            payload = json.dumps({"received": counts, "forwarded": forwarded}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def main() -> None:
    global forward_to
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, action="append", required=True)
    parser.add_argument("--forward", default="")
    args = parser.parse_args()
    forward_to = args.forward
    # As PID 1 in its container, a signal without a handler is ignored: stop on SIGTERM too.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    servers = [ThreadingHTTPServer(("0.0.0.0", port), Handler) for port in args.port]
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"otlp sink on {args.port}, forwarding to {forward_to or 'nowhere'}", flush=True)
    servers[0].serve_forever()


if __name__ == "__main__":
    main()
