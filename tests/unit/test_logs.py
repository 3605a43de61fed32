"""Log lines (core/observability/logs.py): the JSON format and its fields, the console format,
and redaction."""

from __future__ import annotations

import io
import json
import logging
import sys
import threading
from collections.abc import Iterator
from contextvars import copy_context

import pytest
import structlog
from opentelemetry.sdk.trace import TracerProvider

from core.observability.error_reports import scrub_event
from core.observability.logs import (
    bind_log_context,
    configure_logging,
    current_log_context,
    log_context,
    resolved_format,
)
from core.settings import Settings
from tests.support.provenance import c2pa_files

EMAIL = "alice.smith+shop@example.co.uk"


def settings_with(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[arg-type,call-arg]


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level, excepthook = list(root.handlers), root.level, sys.excepthook
    yield
    sys.excepthook = excepthook
    logging.captureWarnings(False)
    for handler in list(root.handlers):
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)
    structlog.reset_defaults()


def json_lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_json_lines_carry_process_trace_service_and_account(restore_logging: None) -> None:
    out = io.StringIO()
    configure_logging(settings_with(log_format="json"), "test-process", stream=out)
    tracer = TracerProvider().get_tracer("test")
    with (
        tracer.start_as_current_span("work") as span,
        log_context(service_id="gen-1", account_id="acc-1"),
    ):
        logging.getLogger("some.module").info("rendered %d of %d", 1, 2)
        structlog.get_logger("native").info("native line", stage="matting")
    logging.getLogger("some.module").warning("outside")

    first, native, outside = json_lines(out)
    context = span.get_span_context()
    assert first["message"] == "rendered 1 of 2"
    assert first["level"] == "info"
    assert first["logger"] == "some.module"
    assert first["process"] == "test-process"
    assert str(first["timestamp"]).endswith("Z")
    assert first["trace_id"] == format(context.trace_id, "032x")
    assert first["span_id"] == format(context.span_id, "016x")
    assert first["service_id"] == "gen-1"
    assert first["account_id"] == "acc-1"
    assert native["message"] == "native line"
    assert native["stage"] == "matting"
    assert native["trace_id"] == first["trace_id"]
    assert native["service_id"] == "gen-1"
    # Outside the span and the context: no stale ids.
    assert outside["level"] == "warning"
    assert "trace_id" not in outside and "service_id" not in outside


def test_extra_fields_and_exceptions_are_in_the_line(restore_logging: None) -> None:
    out = io.StringIO()
    configure_logging(settings_with(log_format="json"), "p", stream=out)
    try:
        raise ValueError("engine stage failed")
    except ValueError:
        logging.getLogger("x").exception("boom", extra={"duration_ms": 12})
    (line,) = json_lines(out)
    assert line["duration_ms"] == 12
    assert line["level"] == "error"
    assert "ValueError: engine stage failed" in str(line["exception"])


def test_personal_data_never_reaches_a_line(restore_logging: None) -> None:
    out = io.StringIO()
    configure_logging(settings_with(log_format="json"), "p", stream=out)
    log = logging.getLogger("mail")
    log.info("mail queued to %s", EMAIL)
    log.info(
        "login",
        extra={
            "email": EMAIL,
            "password": "hunter2-secret",
            "token": "opaque-token-value",
            "authorization": "Bearer abc.def.ghi",
            "headers": {"Authorization": "Bearer xyz", "accept": "image/png"},
            "account_id": "acc-7",
        },
    )
    log.warning("sent Authorization: Bearer s3cr3t-v4lue to the provider")
    try:
        raise RuntimeError(f"no such user {EMAIL}")
    except RuntimeError:
        log.exception("lookup failed")
    structlog.get_logger("native").info("signup", user_email=EMAIL)

    text = out.getvalue()
    for secret in (EMAIL, "hunter2", "opaque-token-value", "abc.def.ghi", "xyz", "s3cr3t"):
        assert secret not in text
    queued, login, _sent, failed, signup = json_lines(out)
    assert queued["message"] == "mail queued to [email]"
    assert login["email"] == "[redacted]"
    assert login["password"] == "[redacted]"
    assert login["headers"] == {"Authorization": "[redacted]", "accept": "image/png"}
    # The account id is the one identifier a line may carry.
    assert login["account_id"] == "acc-7"
    assert "no such user [email]" in str(failed["exception"])
    assert signup["user_email"] == "[redacted]"


def test_console_format_is_readable(restore_logging: None) -> None:
    out = io.StringIO()
    configure_logging(settings_with(log_format="console"), "supervisor", stream=out)
    with log_context(service_id="gen-9"):
        logging.getLogger("ops").warning("imaging exited with %d", 1)
    line = out.getvalue().strip()
    assert not line.startswith("{")
    assert "imaging exited with 1" in line
    assert "service_id=gen-9" in line
    assert "warn" in line


def test_auto_format_is_json_unless_a_terminal_in_development() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    development = settings_with()
    assert resolved_format(development, io.StringIO()) == "json"
    assert resolved_format(development, Tty()) == "console"
    production = settings_with(
        environment="production",
        jwt_secret="j" * 40,
        code_secret="c" * 40,
        s3_secret_key="s" * 40,
        payment_webhook_secret="w" * 40,
        **c2pa_files(),
    )
    assert resolved_format(production, Tty()) == "json"


def test_uvicorn_lines_go_through_our_handler(restore_logging: None) -> None:
    uvicorn_logger = logging.getLogger("uvicorn.error")
    uvicorn_logger.addHandler(logging.StreamHandler(io.StringIO()))
    uvicorn_logger.propagate = False
    out = io.StringIO()
    configure_logging(settings_with(log_format="json"), "api", stream=out)
    uvicorn_logger.warning("server started")
    (line,) = json_lines(out)
    assert line["logger"] == "uvicorn.error" and line["process"] == "api"


def test_a_binding_made_in_a_worker_thread_reaches_the_request_scope() -> None:
    """FastAPI runs sync dependencies in a thread with a copy of the context: the account bound
    there must still be on the request's closing line."""
    with log_context() as fields:
        thread = threading.Thread(
            target=copy_context().run, args=(bind_log_context,), kwargs={"account_id": "acc-3"}
        )
        thread.start()
        thread.join()
        assert fields["account_id"] == "acc-3"
        assert current_log_context()["account_id"] == "acc-3"
    assert "account_id" not in current_log_context()


def test_sentry_events_are_scrubbed() -> None:
    event = {
        "message": f"could not reach {EMAIL}",
        "tags": {"account_id": "acc-1", "workflow_id": "generation-1"},
        "request": {"headers": {"Authorization": "Bearer abc", "Cookie": "sid=1"}},
        "exception": {"values": [{"value": f"bad address {EMAIL}", "type": "ValueError"}]},
        "extra": {"email": EMAIL},
    }
    scrubbed = scrub_event(event)
    assert EMAIL not in json.dumps(scrubbed)
    assert scrubbed["tags"] == {"account_id": "acc-1", "workflow_id": "generation-1"}
    assert scrubbed["request"]["headers"] == {"Authorization": "[redacted]", "Cookie": "[redacted]"}
    assert scrubbed["exception"]["values"][0]["value"] == "bad address [email]"
    assert scrubbed["extra"]["email"] == "[redacted]"


def test_a_crash_is_a_json_line(restore_logging: None) -> None:
    out = io.StringIO()
    configure_logging(settings_with(log_format="json"), "worker", stream=out)
    try:
        raise OSError(f"cannot open {EMAIL}")
    except OSError as error:
        sys.excepthook(OSError, error, error.__traceback__)
    (line,) = json_lines(out)
    assert line["level"] == "critical" and line["message"] == "the process crashed"
    assert "OSError: cannot open [email]" in str(line["exception"])
