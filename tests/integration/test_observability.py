"""Every API request leaves a server span with its route and status."""

from __future__ import annotations

from fastapi.testclient import TestClient
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from api.main import create_app
from core.settings import Settings


def test_requests_are_traced() -> None:
    exporter = InMemorySpanExporter()
    # The global provider can be set once per process; an earlier test's app may have set it.
    provider = trace.get_tracer_provider()
    if not isinstance(provider, TracerProvider):
        provider = TracerProvider()
        trace.set_tracer_provider(provider)
    provider.add_span_processor(SimpleSpanProcessor(exporter))

    app = create_app(Settings(_env_file=None, otel_exporter="none"))  # type: ignore[call-arg]
    client = TestClient(app)  # no lifespan: the cost route needs no services
    response = client.post("/api/v1/request/costPublic", json={
        "requestType": "burstreplace", "inputFiles": ["a", "b"], "backgroundId": "white"})
    assert response.json() == {"data": {"credits": 2}}

    servers = [s for s in exporter.get_finished_spans() if s.kind == trace.SpanKind.SERVER]
    assert [s.name for s in servers] == ["POST /api/v1/request/costPublic"]
    assert servers[0].attributes is not None
    assert servers[0].attributes["http.status_code"] == 200
