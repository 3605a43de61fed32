"""`python -m ops.trace SERVICE_ID`: the trace of one generation as a tree, from the span files.

Reads the OTLP JSON lines the processes write with OTEL_EXPORTER=file (DATA_DIR/traces/*.jsonl,
rotated files included), finds the generation's trace id (its database row keeps it; failing
that, the spans that name the generation), and prints every span of that trace under its
parent, with its duration and the process that recorded it:

    trace 4bf92f3577b34da6a3ce929d0e0e4736 (23 spans, 2.41 s)
    POST /imageedit/service/{id}  84.2 ms  [metamodel-api]
      StartWorkflow:GenerationWorkflow  6.1 ms  [metamodel-api]
        RunWorkflow:GenerationWorkflow  0.4 ms  [metamodel-worker]
        ...

`--trace TRACE_ID` prints a trace by its id (from a `traceresponse` header or a log line).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from core.observability.tracing import TRACES_DIR
from core.settings import Settings, get_settings

# Attributes that tie a span to a generation: ours, and the workflow id Temporal's tracing
# interceptor records (the workflow id is the generation id).
GENERATION_KEYS = ("generation.id", "temporalWorkflowID")


@dataclass
class Span:
    trace_id: str
    span_id: str
    parent_id: str | None
    name: str
    start_ns: int
    end_ns: int
    service: str
    attributes: dict[str, Any]
    error: bool = False
    children: list[Span] = field(default_factory=list)

    @property
    def duration_ms(self) -> float:
        return max(self.end_ns - self.start_ns, 0) / 1e6


def _plain(value: dict[str, Any]) -> Any:
    """An OTLP JSON AnyValue as a Python value."""
    for key in ("stringValue", "boolValue", "doubleValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        return int(value["intValue"])
    if "arrayValue" in value:
        return [_plain(v) for v in value["arrayValue"].get("values", [])]
    return None


def _attributes(items: Iterable[dict[str, Any]]) -> dict[str, Any]:
    return {item["key"]: _plain(item.get("value", {})) for item in items}


def parse_line(line: str) -> Iterator[Span]:
    """The spans of one OTLP JSON line (an ExportTraceServiceRequest)."""
    document = json.loads(line)
    for resource_spans in document.get("resourceSpans", []):
        resource = _attributes(resource_spans.get("resource", {}).get("attributes", []))
        service = str(resource.get("service.name", "?"))
        for scope_spans in resource_spans.get("scopeSpans", []):
            for raw in scope_spans.get("spans", []):
                yield Span(
                    trace_id=raw["traceId"],
                    span_id=raw["spanId"],
                    parent_id=raw.get("parentSpanId") or None,
                    name=raw.get("name", ""),
                    start_ns=int(raw.get("startTimeUnixNano", 0)),
                    end_ns=int(raw.get("endTimeUnixNano", 0)),
                    service=service,
                    attributes=_attributes(raw.get("attributes", [])),
                    error=raw.get("status", {}).get("code") == 2,
                )


def read_spans(directory: Path) -> Iterator[Span]:
    """Every span in the directory's span files (lines that do not parse are skipped: a
    process may be writing the last one right now)."""
    for path in sorted(directory.glob("*.jsonl")):
        with path.open(encoding="utf-8") as handle:
            for line in handle:
                try:
                    yield from parse_line(line)
                except (ValueError, KeyError, TypeError):
                    continue


def trace_ids_naming(spans: Iterable[Span], generation_id: str) -> list[str]:
    """The trace ids of spans whose attributes name the generation, earliest first."""
    first: dict[str, int] = {}
    for span in spans:
        if any(span.attributes.get(key) == generation_id for key in GENERATION_KEYS):
            first[span.trace_id] = min(first.get(span.trace_id, span.start_ns), span.start_ns)
    return sorted(first, key=first.__getitem__)


def build_tree(spans: Iterable[Span]) -> list[Span]:
    """The spans as trees: the roots (spans whose parent is not among them, such as the one
    under a browser's span), each with its children, all in start order."""
    by_id = {span.span_id: span for span in spans}
    roots = []
    for span in by_id.values():
        parent = by_id.get(span.parent_id) if span.parent_id else None
        if parent is None or parent is span:
            roots.append(span)
        else:
            parent.children.append(span)
    for span in by_id.values():
        span.children.sort(key=lambda s: s.start_ns)
    return sorted(roots, key=lambda s: s.start_ns)


def label(span: Span) -> str:
    """A span's name, with what a database or storage call did (its statement, its path
    without the query string, where presigned signatures live)."""
    statement = span.attributes.get("db.statement")
    if isinstance(statement, str):
        text = " ".join(statement.split())
        return f"SQL {text[:80]}{'…' if len(text) > 80 else ''}"
    url = span.attributes.get("http.url")
    if isinstance(url, str) and "http.route" not in span.attributes:
        return f"{span.name} {urlsplit(url).path}"
    return span.name


def render(trace_id: str, spans: list[Span]) -> str:
    if not spans:
        return f"trace {trace_id}: no spans found\n"
    start = min(s.start_ns for s in spans)
    end = max(s.end_ns for s in spans)
    lines = [f"trace {trace_id} ({len(spans)} spans, {(end - start) / 1e9:.2f} s)"]

    def walk(span: Span, depth: int) -> None:
        mark = "  ERROR" if span.error else ""
        lines.append(
            f"{'  ' * depth}{label(span)}  {span.duration_ms:.1f} ms  [{span.service}]{mark}"
        )
        for child in span.children:
            walk(child, depth + 1)

    for root in build_tree(spans):
        walk(root, 0)
    return "\n".join(lines) + "\n"


def stored_trace_id(settings: Settings, generation_id: str) -> str | None:
    """The trace id kept on the generation's row, if the database is reachable and has it."""
    try:
        from core.db import make_database, make_session_factory
        from core.models.generations import Generation

        database = make_database(settings.resolved_database_url)
        try:
            with make_session_factory(database)() as session:
                row = session.get(Generation, generation_id)
                return row.trace_id if row is not None else None
        finally:
            database.dispose()
    except Exception:  # noqa: BLE001 (no database here: the span files still answer)
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ops.trace", description=__doc__.split("\n")[0])
    # Named service_id in the CLI's usage, as it always was (the wire's name for a generation).
    parser.add_argument("generation_id", nargs="?", metavar="service_id",
                        help="the generation's service id")
    parser.add_argument("--trace", help="a trace id instead of a service id")
    parser.add_argument("--dir", type=Path, help="the span files' folder (default DATA_DIR/traces)")
    args = parser.parse_args(argv)
    if not args.generation_id and not args.trace:
        parser.error("give a SERVICE_ID or --trace TRACE_ID")
    settings = get_settings()
    directory = args.dir or settings.data_dir / TRACES_DIR
    spans = list(read_spans(directory))
    if args.trace:
        trace_ids = [args.trace.lower()]
    else:
        stored = stored_trace_id(settings, args.generation_id)
        trace_ids = [stored] if stored else trace_ids_naming(spans, args.generation_id)
    if not trace_ids:
        print(f"no trace found for {args.generation_id} in {directory}", file=sys.stderr)
        return 1
    for trace_id in trace_ids:
        sys.stdout.write(render(trace_id, [s for s in spans if s.trace_id == trace_id]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
