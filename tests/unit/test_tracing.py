"""The span file exporter (OTLP JSON lines, rotated by size) and `ops.trace`'s tree."""

from __future__ import annotations

import json
from pathlib import Path

from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.trace import SpanKind, Status, StatusCode

from core.observability.trace_file import RotatingFileSpanExporter
from ops import trace as trace_cli


def _provider(exporter: RotatingFileSpanExporter) -> TracerProvider:
    provider = TracerProvider(resource=Resource.create({"service.name": "metamodel-test"}))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return provider


def test_spans_are_otlp_json_lines(tmp_path: Path) -> None:
    exporter = RotatingFileSpanExporter(tmp_path / "metamodel-test.jsonl")
    tracer = _provider(exporter).get_tracer("t")
    with tracer.start_as_current_span("parent", kind=SpanKind.SERVER) as parent:
        parent.set_attribute("generation.id", "g1")
        with tracer.start_as_current_span("child") as child:
            child.set_attribute("count", 3)
            child.set_status(Status(StatusCode.ERROR, "boom"))
    lines = (tmp_path / "metamodel-test.jsonl").read_text().splitlines()
    assert len(lines) == 2
    child_doc, parent_doc = (json.loads(line) for line in lines)
    resource = child_doc["resourceSpans"][0]["resource"]["attributes"]
    assert {"key": "service.name", "value": {"stringValue": "metamodel-test"}} in resource
    child_span = child_doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    parent_span = parent_doc["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
    assert child_span["traceId"] == parent_span["traceId"] and len(child_span["traceId"]) == 32
    assert child_span["parentSpanId"] == parent_span["spanId"]
    assert "parentSpanId" not in parent_span
    assert child_span["status"] == {"code": 2, "message": "boom"}
    assert {"key": "count", "value": {"intValue": "3"}} in child_span["attributes"]
    assert parent_span["kind"] == 2
    assert int(child_span["endTimeUnixNano"]) >= int(child_span["startTimeUnixNano"]) > 0


def test_files_rotate_by_size_and_keep_a_few(tmp_path: Path) -> None:
    path = tmp_path / "metamodel-test.jsonl"
    exporter = RotatingFileSpanExporter(path, max_bytes=2_000, backups=2)
    tracer = _provider(exporter).get_tracer("t")
    for i in range(60):
        with tracer.start_as_current_span(f"span-{i}"):
            pass
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["metamodel-test.1.jsonl", "metamodel-test.2.jsonl", "metamodel-test.jsonl"]
    assert all(p.stat().st_size <= 2_000 for p in tmp_path.iterdir())
    # The newest span is in the current file; the oldest are gone.
    assert "span-59" in path.read_text()
    names = {s.name for s in trace_cli.read_spans(tmp_path)}
    assert "span-59" in names and "span-0" not in names


def test_trace_tree_from_span_files(tmp_path: Path, capsys: object) -> None:
    exporter = RotatingFileSpanExporter(tmp_path / "metamodel-test.jsonl")
    tracer = _provider(exporter).get_tracer("t")
    with tracer.start_as_current_span("POST /imageedit/service/{id}") as api:
        api.set_attribute("generation.id", "g42")
        with tracer.start_as_current_span("StartWorkflow:GenerationWorkflow"):
            with tracer.start_as_current_span("RunActivity:verify_uploads"):
                pass
            with tracer.start_as_current_span("RunActivity:charge_credits"):
                pass
    with tracer.start_as_current_span("unrelated"):
        pass
    # A torn last line (a process writing right now) is skipped.
    with (tmp_path / "metamodel-test.jsonl").open("a") as handle:
        handle.write('{"resourceSpans": [')

    spans = list(trace_cli.read_spans(tmp_path))
    [trace_id] = trace_cli.trace_ids_naming(spans, "g42")
    mine = [s for s in spans if s.trace_id == trace_id]
    [root] = trace_cli.build_tree(mine)
    assert root.name == "POST /imageedit/service/{id}"
    [start] = root.children
    assert [c.name for c in start.children] == [
        "RunActivity:verify_uploads",
        "RunActivity:charge_credits",
    ]

    assert trace_cli.main(["--dir", str(tmp_path), "--trace", trace_id]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    lines = out.splitlines()
    assert lines[0].startswith(f"trace {trace_id} (4 spans")
    assert lines[1].startswith("POST /imageedit/service/{id}  ")
    assert lines[1].endswith("[metamodel-test]")
    assert lines[3].startswith("    RunActivity:verify_uploads  ") and " ms  " in lines[3]
    assert "unrelated" not in out


def test_database_and_storage_calls_are_labelled_by_what_they_did() -> None:
    def span(name: str, **attributes: object) -> trace_cli.Span:
        return trace_cli.Span("t", "s", None, name, 0, 1_000_000, "svc", dict(attributes))

    sql = span("SELECT app.db", **{"db.statement": "SELECT tasks.id\n  FROM tasks WHERE x = ?"})
    assert trace_cli.label(sql) == "SQL SELECT tasks.id FROM tasks WHERE x = ?"
    put = span("PUT", **{"http.url": "http://s3:9000/bucket/outputs/a.jpg?X-Amz-Signature=s"})
    assert trace_cli.label(put) == "PUT /bucket/outputs/a.jpg"
    assert trace_cli.label(span("RunActivity:notify")) == "RunActivity:notify"
