"""Structured logs, set up once per process: JSON lines (or a readable console format) with the
trace, the generation and the account each line belongs to.

Every process (the API, both workers, `make run`'s supervisor) calls `configure_logging` first.
The standard `logging` calls everywhere keep working: their records go through structlog's
ProcessorFormatter, so a line from our code, from Temporal's SDK or from uvicorn looks the same.
Each line carries `timestamp`, `level`, `process`, `logger` and `message`, and when known:

- `trace_id` / `span_id`: the current OpenTelemetry span (the one a request or activity runs in);
- `service_id` (the generation id) and `account_id`, bound with `bind_log_context` or for a
  block with `log_context` (the API binds them where it reads a principal or a generation, the
  workers for each activity from its input: activities/observe.py).

No personal data beyond the account id: keys that name one (email, password, token,
authorization, ...) are redacted, and e-mail addresses and bearer tokens inside any text are
replaced, exception text included (`redact`).
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator, Mapping, MutableMapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import TracebackType
from typing import Any, TextIO

import structlog
from opentelemetry import trace

from core.settings import Settings

# The fields bound for the current request or activity. A mutable dict inside the variable, so
# a binding made in a worker thread (FastAPI runs sync dependencies and routes in a thread pool,
# each with a copy of the context) is seen by the request's later lines too.
_fields: ContextVar[dict[str, str] | None] = ContextVar("log_fields", default=None)

SENSITIVE_KEY = re.compile(
    r"e-?mail|passw|secret|token|authori[sz]ation|cookie|api[-_]?key|signature", re.IGNORECASE
)
EMAIL = re.compile(r"[A-Za-z0-9._%+'-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
BEARER = re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]+")
JWT = re.compile(r"\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")
REDACTED = "[redacted]"
# Fields every line has, which redaction leaves alone.
_STRUCTURAL = frozenset({"timestamp", "level", "process", "logger"})


def bind_log_context(**fields: object) -> None:
    """Add fields (service_id, account_id, ...) to every later line of this request/activity;
    None values are skipped."""
    values = {key: str(value) for key, value in fields.items() if value is not None}
    current = _fields.get()
    if current is None:
        _fields.set(values)
    else:
        current.update(values)


@contextmanager
def log_context(**fields: object) -> Iterator[dict[str, str]]:
    """Fields for the lines logged inside the block (and the bindings made in it), on top of
    the enclosing ones; gone when the block ends."""
    values = dict(_fields.get() or {})
    values.update({key: str(value) for key, value in fields.items() if value is not None})
    token = _fields.set(values)
    try:
        yield values
    finally:
        _fields.reset(token)


def current_log_context() -> dict[str, str]:
    return dict(_fields.get() or {})


def scrub_text(text: str) -> str:
    """E-mail addresses and bearer tokens out of a piece of text."""
    if "@" in text:
        text = EMAIL.sub("[email]", text)
    if "earer" in text or "EARER" in text:
        text = BEARER.sub(f"Bearer {REDACTED}", text)
    if "eyJ" in text:
        text = JWT.sub(REDACTED, text)
    return text


def scrub(value: Any) -> Any:
    """A copy of `value` with sensitive keys redacted and personal data out of its texts."""
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, Mapping):
        return {
            key: REDACTED if isinstance(key, str) and SENSITIVE_KEY.search(key) else scrub(item)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [scrub(item) for item in value]
    return value


def redact(_logger: Any, _method: str, event: MutableMapping[str, Any]) -> MutableMapping[str, Any]:
    """structlog processor: no e-mail, password, token or authorization in a line."""
    for key in list(event):
        if key in _STRUCTURAL:
            continue
        value = event[key]
        if SENSITIVE_KEY.search(key):
            event[key] = REDACTED
        elif isinstance(value, str | Mapping | list | tuple):
            event[key] = scrub(value)
    return event


def add_context(
    _logger: Any, _method: str, event: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """structlog processor: the bound fields and the current span's trace and span ids."""
    for key, value in (_fields.get() or {}).items():
        event.setdefault(key, value)
    context = trace.get_current_span().get_span_context()
    if context.is_valid:
        event.setdefault("trace_id", format(context.trace_id, "032x"))
        event.setdefault("span_id", format(context.span_id, "016x"))
    return event


def _add_process(name: str) -> structlog.types.Processor:
    def add_process(
        _logger: Any, _method: str, event: MutableMapping[str, Any]
    ) -> MutableMapping[str, Any]:
        event.setdefault("process", name)
        return event

    return add_process


def resolved_format(settings: Settings, stream: TextIO) -> str:
    """LOG_FORMAT: "json" or "console"; "auto" is JSON in production and wherever the output is
    not a terminal (the data/logs files of `make run`, containers), console on a terminal."""
    if settings.log_format != "auto":
        return settings.log_format
    if settings.environment == "production":
        return "json"
    isatty = getattr(stream, "isatty", None)
    return "console" if callable(isatty) and isatty() else "json"


def build_formatter(process_name: str, fmt: str) -> structlog.stdlib.ProcessorFormatter:
    """The formatter of this process's log handler, for stdlib and structlog records alike."""
    renderer: structlog.types.Processor = (
        structlog.processors.JSONRenderer(sort_keys=False)
        if fmt == "json"
        else structlog.dev.ConsoleRenderer(colors=False, event_key="message")
    )
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=_shared_processors(process_name),
        processors=[
            structlog.stdlib.ProcessorFormatter.remove_processors_meta,
            structlog.processors.format_exc_info,
            # After format_exc_info: an exception's text may hold an address too.
            redact,
            structlog.processors.EventRenamer("message"),
            renderer,
        ],
    )


def _shared_processors(process_name: str) -> list[structlog.types.Processor]:
    return [
        structlog.processors.TimeStamper(fmt="iso", utc=True, key="timestamp"),
        structlog.stdlib.add_log_level,
        _add_process(process_name),
        structlog.stdlib.add_logger_name,
        structlog.stdlib.ExtraAdder(),
        add_context,
    ]


def _log_uncaught(
    kind: type[BaseException], error: BaseException, tb: TracebackType | None
) -> None:
    if issubclass(kind, KeyboardInterrupt):
        sys.__excepthook__(kind, error, tb)
        return
    logging.getLogger("uncaught").critical("the process crashed", exc_info=(kind, error, tb))


def configure_logging(
    settings: Settings,
    process_name: str,
    *,
    level: str | None = None,
    stream: TextIO | None = None,
) -> None:
    """Route every log record of this process through one handler on `stream` (stderr), in
    the format LOG_FORMAT says, at `level` (LOG_LEVEL by default). Safe to call again."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    handler.setFormatter(build_formatter(process_name, resolved_format(settings, stream)))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level or settings.log_level)
    # Uvicorn installs handlers of its own before it builds the app: its lines go ours instead.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        uvicorn_logger = logging.getLogger(name)
        uvicorn_logger.handlers.clear()
        uvicorn_logger.propagate = True
    # One line per outgoing HTTP request is noise at INFO.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)
    # Python's warnings as lines too (native libraries writing to the stream directly stay raw).
    logging.captureWarnings(True)
    # A crash's traceback as a line like the others (redacted too), not raw text.
    sys.excepthook = _log_uncaught
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *_shared_processors(process_name),
            structlog.stdlib.PositionalArgumentsFormatter(),
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
