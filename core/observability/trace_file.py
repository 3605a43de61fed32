"""A span exporter that appends OTLP JSON lines to a file, rotated by size (OTEL_EXPORTER=file).

Each line is one span as an OTLP/JSON `ExportTraceServiceRequest` (one resource, one scope, one
span), the format of the OpenTelemetry Collector's file exporter: readable with `jq`, by
`python -m ops.trace`, and by a collector's `otlpjsonfile` receiver that forwards to Jaeger.

Each process writes its own file (`<service>.jsonl`); when it passes `max_bytes` it becomes
`<service>.1.jsonl` (the older ones shift up, the oldest beyond `backups` is deleted).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SpanExporter, SpanExportResult
from opentelemetry.trace import SpanKind, StatusCode

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
DEFAULT_BACKUPS = 5

# OTLP's enum values (opentelemetry/proto/trace/v1/trace.proto).
_KINDS = {
    SpanKind.INTERNAL: 1,
    SpanKind.SERVER: 2,
    SpanKind.CLIENT: 3,
    SpanKind.PRODUCER: 4,
    SpanKind.CONSUMER: 5,
}
_STATUS = {StatusCode.UNSET: 0, StatusCode.OK: 1, StatusCode.ERROR: 2}


def _value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, Sequence):
        return {"arrayValue": {"values": [_value(v) for v in value]}}
    return {"stringValue": str(value)}


def _attributes(attributes: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    return [{"key": k, "value": _value(v)} for k, v in (attributes or {}).items()]


def span_to_otlp_json(span: ReadableSpan) -> dict[str, Any]:
    """One span as an OTLP/JSON document (ids in hex, times as nanosecond strings)."""
    context = span.get_span_context()  # type: ignore[no-untyped-call]
    assert context is not None
    body: dict[str, Any] = {
        "traceId": format(context.trace_id, "032x"),
        "spanId": format(context.span_id, "016x"),
        "name": span.name,
        "kind": _KINDS.get(span.kind, 0),
        "startTimeUnixNano": str(span.start_time or 0),
        "endTimeUnixNano": str(span.end_time or 0),
        "attributes": _attributes(span.attributes),
        "status": {"code": _STATUS.get(span.status.status_code, 0)},
    }
    if span.parent is not None:
        body["parentSpanId"] = format(span.parent.span_id, "016x")
    if span.status.description:
        body["status"]["message"] = span.status.description
    if span.events:
        body["events"] = [
            {
                "timeUnixNano": str(event.timestamp),
                "name": event.name,
                "attributes": _attributes(event.attributes),
            }
            for event in span.events
        ]
    scope = span.instrumentation_scope
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": _attributes(span.resource.attributes)},
                "scopeSpans": [
                    {
                        "scope": {"name": scope.name if scope else ""},
                        "spans": [body],
                    }
                ],
            }
        ]
    }


class RotatingFileSpanExporter(SpanExporter):
    def __init__(
        self, path: Path, max_bytes: int = DEFAULT_MAX_BYTES, backups: int = DEFAULT_BACKUPS
    ) -> None:
        self.path = path
        self.max_bytes = max_bytes
        self.backups = backups
        self._lock = threading.Lock()

    def _backup(self, n: int) -> Path:
        return self.path.with_name(f"{self.path.stem}.{n}{self.path.suffix}")

    def _rotate(self) -> None:
        self._backup(self.backups).unlink(missing_ok=True)
        for n in range(self.backups - 1, 0, -1):
            if self._backup(n).exists():
                self._backup(n).rename(self._backup(n + 1))
        if self.backups > 0:
            self.path.rename(self._backup(1))
        else:
            self.path.unlink(missing_ok=True)

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        lines = "".join(
            json.dumps(span_to_otlp_json(span), separators=(",", ":")) + "\n" for span in spans
        ).encode()
        try:
            with self._lock:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                try:
                    size = self.path.stat().st_size
                except FileNotFoundError:
                    size = 0
                if size and size + len(lines) > self.max_bytes:
                    self._rotate()
                # One append per batch: lines from processes sharing a file never interleave.
                fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
                try:
                    os.write(fd, lines)
                finally:
                    os.close(fd)
        except OSError:
            return SpanExportResult.FAILURE
        return SpanExportResult.SUCCESS

    def shutdown(self) -> None:
        return None

    def force_flush(self, timeout_millis: int = 30000) -> bool:
        return True
