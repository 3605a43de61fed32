"""Error reports to Sentry (SENTRY_DSN), set up once per process with its release and environment.

No personal data beyond the account id: the SDK's default of none (no IP addresses, cookies or
request bodies; see `setup_error_reports`), and every event and breadcrumb goes through
`scrub_event`, which redacts sensitive keys and e-mail addresses and bearer tokens in any text
(core/observability/logs.py's rules).
Activity failures are reported by the workers' interceptor (activities/observe.py) with the
workflow id, the activity type and the attempt as tags.
"""

from __future__ import annotations

import logging
import subprocess
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from core.observability.logs import scrub
from core.settings import Settings

log = logging.getLogger(__name__)
REPO = Path(__file__).resolve().parent.parent


@cache
def _git_commit() -> str | None:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    commit = done.stdout.strip()
    return commit if done.returncode == 0 and commit else None


def package_version() -> str:
    """The installed package's version (pyproject's, in a checkout without an install)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("metamodel")
    except PackageNotFoundError:
        pass
    try:
        with open(REPO / "pyproject.toml", "rb") as file:
            return str(tomllib.load(file)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def release_name(settings: Settings) -> str:
    """RELEASE, else `metamodel@<git commit>`, else `metamodel@<package version>`."""
    if settings.release:
        return settings.release
    commit = _git_commit()
    return f"metamodel@{commit[:12] if commit else package_version()}"


def scrub_event(event: Any, _hint: Any = None) -> Any:
    """Sentry's before_send / before_breadcrumb: the event without personal data."""
    return scrub(event)


def setup_error_reports(settings: Settings, process_name: str) -> bool:
    """Start reporting to Sentry when SENTRY_DSN is set; True when on."""
    if not settings.sentry_dsn:
        return False
    import sentry_sdk

    sentry_sdk.init(
        dsn=settings.sentry_dsn,
        release=release_name(settings),
        environment=settings.environment,
        # No personal data: sentry-sdk 2.75 deprecates `send_default_pii` (it warns) in favour
        # of `data_collection`; leaving both unset is its "send_default_pii=False" (no user
        # identity, IP address, cookies or bodies, with its event scrubber on).
        before_send=scrub_event,
        before_send_transaction=scrub_event,
        before_breadcrumb=scrub_event,
        # Traces are OpenTelemetry's (core/observability/tracing.py); Sentry reports errors only.
        traces_sample_rate=None,
    )
    sentry_sdk.set_tag("process", process_name)
    log.info("Sentry error reporting on", extra={"release": release_name(settings)})
    return True


def report_exception(error: BaseException, tags: dict[str, str], context: dict[str, Any]) -> None:
    """Send `error` to Sentry (when on) with `tags` to search by and `context` to read."""
    import sentry_sdk

    if not sentry_sdk.is_initialized():
        return
    from opentelemetry import trace

    span = trace.get_current_span().get_span_context()
    if span.is_valid:
        tags = {**tags, "trace_id": format(span.trace_id, "032x")}
    with sentry_sdk.new_scope() as scope:
        for key, value in tags.items():
            scope.set_tag(key, value)
        scope.set_context("activity", context)
        sentry_sdk.capture_exception(error)
