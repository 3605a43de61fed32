"""`RemoteEngine`: the `ImageEngine` interface over HTTP, to a GPU inference service.

The protocol (submit, poll, fetch, cancel) is described in `engine/REMOTE_CONTRACT.md`;
`engine.server` implements it on top of any `ImageEngine`. Transient failures (service down,
timeouts, 5xx, lost jobs) become `EngineUnavailable`, which the workflow retries; the engine's
own rejections come back as the same typed errors with the service's message.
"""

from __future__ import annotations

import base64
import contextlib
import io
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
from PIL import Image

from core.engine import (
    NOTE_LIMIT,
    Background,
    EngineError,
    EngineUnavailable,
    ImageTooSmall,
    NoGarmentFound,
    NoPersonFound,
    NoSubjectFound,
    Placement,
    ProgressFn,
    add_note,
    no_progress,
)

T = TypeVar("T")

# Error code in the contract -> the typed error the client raises.
ERROR_TYPES: dict[str, type[EngineError]] = {
    "image_too_small": ImageTooSmall,
    "no_person": NoPersonFound,
    "no_garment": NoGarmentFound,
    "no_subject": NoSubjectFound,
    "rejected": EngineError,
    "invalid_request": EngineError,
    "unavailable": EngineUnavailable,
    "internal": EngineUnavailable,
}

TERMINAL = ("completed", "failed", "cancelled")

CONNECT_TIMEOUT = 5.0
SUBMIT_TIMEOUT = 60.0
POLL_TIMEOUT = 10.0
RESULT_TIMEOUT = 60.0
CANCEL_TIMEOUT = 5.0

MAX_ATTEMPTS = 5
BACKOFF_FIRST = 0.25
BACKOFF_MAX = 4.0


class _Transient(Exception):
    """One failed HTTP exchange that is worth retrying."""

    def __init__(self, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


def encode_png(image: Image.Image) -> str:
    """Base64 PNG (lossless, fast compression: the bytes only cross the network once)."""
    out = io.BytesIO()
    image.save(out, "PNG", compress_level=1)
    return base64.b64encode(out.getvalue()).decode("ascii")


def error_from_body(body: Any, fallback: str) -> EngineError:
    """The typed error for a contract error object (`{code, message, retryable}`)."""
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        body = body["error"]
    if not isinstance(body, dict):
        return EngineUnavailable(fallback)
    code = str(body.get("code") or "")
    message = str(body.get("message") or fallback)
    error_type = ERROR_TYPES.get(code)
    if error_type is None:
        error_type = EngineUnavailable if body.get("retryable", True) else EngineError
    return error_type(message)


def _json_or_none(response: httpx.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        return None


class RemoteEngine:
    """An `ImageEngine` that runs each operation as a job on a remote inference service."""

    def __init__(
        self, base_url: str, timeout_seconds: float = 300.0, poll_interval: float = 0.2
    ) -> None:
        if not base_url:
            raise ValueError("RemoteEngine needs the service's base URL")
        self.base_url = base_url.rstrip("/")
        self.timeout_seconds = timeout_seconds
        self.poll_interval = poll_interval
        # httpx.Client is safe to share between the worker's imaging threads.
        self._http = httpx.Client(
            base_url=self.base_url,
            timeout=httpx.Timeout(POLL_TIMEOUT, connect=CONNECT_TIMEOUT),
            limits=httpx.Limits(max_connections=32, max_keepalive_connections=8),
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> RemoteEngine:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # The two operations -----------------------------------------------------------------

    def body_swap(
        self,
        photo: Image.Image,
        model: Image.Image,
        background: Background | None,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        request = {
            "operation": "body_swap",
            "photo": encode_png(photo),
            "model": encode_png(model),
            "background": self._background(background),
            **self._placement(placement),
        }
        return self._run(request, progress)

    def replace_background(
        self,
        photo: Image.Image,
        background: Background,
        progress: ProgressFn = no_progress,
        placement: Placement | None = None,
    ) -> Image.Image:
        request = {
            "operation": "replace_background",
            "photo": encode_png(photo),
            "model": None,
            "background": self._background(background),
            **self._placement(placement),
        }
        return self._run(request, progress)

    # The job's life ---------------------------------------------------------------------

    @staticmethod
    def _placement(placement: Placement | None) -> dict[str, Any]:
        """The optional `placement` field: left out when there is none, so a service that
        predates it sees the request it always did."""
        if placement is None:
            return {}
        return {"placement": {"x": placement.x, "y": placement.y, "scale": placement.scale}}

    @staticmethod
    def _background(background: Background | None) -> dict[str, Any] | None:
        if background is None:
            return None
        if background.kind == "image":
            if background.image is None:
                raise EngineError("The background photo is missing.")
            return {"kind": "image", "image": encode_png(background.image)}
        return {"kind": background.kind, "image": None}

    def _run(self, request: dict[str, Any], progress: ProgressFn) -> Image.Image:
        deadline = time.monotonic() + self.timeout_seconds
        job_id = self._submit(request, deadline)
        try:
            self._wait(job_id, deadline, progress)
            image = self._fetch(job_id, deadline)
        except BaseException:
            # Timed out, failed, or the caller gave up (its ProgressFn raised): stop the job.
            self._cancel(job_id)
            raise
        self._cancel(job_id)  # releases the result on the service
        return image

    def _submit(self, request: dict[str, Any], deadline: float) -> str:
        key = uuid.uuid4().hex

        def attempt() -> str:
            response = self._http.post(
                "/v1/jobs",
                json=request,
                headers={"Idempotency-Key": key},
                timeout=httpx.Timeout(SUBMIT_TIMEOUT, connect=CONNECT_TIMEOUT),
            )
            self._raise_for(response, "submit")
            body = _json_or_none(response)
            if not isinstance(body, dict) or not isinstance(body.get("id"), str):
                raise _Transient("the inference service answered submit without a job id")
            job_id: str = body["id"]
            return job_id

        return self._retrying(attempt, deadline, "submit")

    def _wait(self, job_id: str, deadline: float, progress: ProgressFn) -> None:
        last: tuple[float, str] | None = None
        while True:
            status = self._retrying(lambda: self._poll(job_id), deadline, "poll")
            state = status.get("status")
            report = (float(status.get("progress") or 0.0), str(status.get("stage") or ""))
            if report != last and (report[1] or report[0] > 0):
                last = report
                progress(min(max(report[0], 0.0), 1.0), report[1])
            if state == "completed":
                # Notes the service's engine left for the customer: recorded as ours are.
                for text in status.get("notes") or []:
                    if isinstance(text, str) and text.strip():
                        add_note(text.strip()[:NOTE_LIMIT])
                return
            if state == "failed":
                raise error_from_body(status.get("error"), "The inference service failed.")
            if state == "cancelled":
                raise EngineUnavailable("The inference service cancelled the job.")
            if state not in ("queued", "running"):
                raise EngineUnavailable(f"The inference service reported status {state!r}.")
            if time.monotonic() + self.poll_interval >= deadline:
                raise EngineUnavailable(
                    f"The inference service did not finish within {self.timeout_seconds:g} s."
                )
            time.sleep(self.poll_interval)

    def _poll(self, job_id: str) -> dict[str, Any]:
        response = self._http.get(f"/v1/jobs/{job_id}")
        self._raise_for(response, "poll")
        body = _json_or_none(response)
        if not isinstance(body, dict):
            raise _Transient("the inference service answered poll with something unreadable")
        return body

    def _fetch(self, job_id: str, deadline: float) -> Image.Image:
        def attempt() -> Image.Image:
            response = self._http.get(
                f"/v1/jobs/{job_id}/result",
                timeout=httpx.Timeout(RESULT_TIMEOUT, connect=CONNECT_TIMEOUT),
            )
            self._raise_for(response, "fetch")
            try:
                image = Image.open(io.BytesIO(response.content))
                image.load()
            except Exception:
                raise _Transient("the inference service sent an unreadable result") from None
            keep_alpha = image.mode in ("RGBA", "LA", "PA") or (
                image.mode == "P" and "transparency" in image.info
            )
            return image.convert("RGBA" if keep_alpha else "RGB")

        return self._retrying(attempt, deadline, "fetch")

    def _cancel(self, job_id: str) -> None:
        """Best effort: one DELETE with a short timeout; the service forgets jobs anyway."""
        with contextlib.suppress(httpx.HTTPError):
            self._http.delete(
                f"/v1/jobs/{job_id}", timeout=httpx.Timeout(CANCEL_TIMEOUT, connect=CANCEL_TIMEOUT)
            )

    # HTTP plumbing ----------------------------------------------------------------------

    @staticmethod
    def _raise_for(response: httpx.Response, what: str) -> None:
        """Raise `_Transient` for what is worth retrying, a typed error for the rest."""
        code = response.status_code
        if code < 300:
            return
        body = _json_or_none(response)
        if code == 429 or code >= 500:
            raise _Transient(
                f"the inference service answered {what} with HTTP {code}", _retry_after(response)
            )
        if code == 404 and what != "submit":
            raise EngineUnavailable("The inference service lost the job (it may have restarted).")
        if code in (409, 410):
            raise EngineUnavailable(f"The inference service has no result (HTTP {code}).")
        error = error_from_body(body, f"The inference service rejected the request (HTTP {code}).")
        if error.retryable:
            raise _Transient(error.message, _retry_after(response))
        raise error

    def _retrying(self, attempt: Callable[[], T], deadline: float, what: str) -> T:
        delay = BACKOFF_FIRST
        failures = 0
        while True:
            try:
                return attempt()
            except _Transient as error:
                reason, wait = error.message, error.retry_after
            except httpx.TransportError as error:  # connect/read errors and timeouts
                reason, wait = f"{type(error).__name__}: {error}".rstrip(": "), None
            failures += 1
            pause = min(max(delay, wait or 0.0), BACKOFF_MAX)
            if failures >= MAX_ATTEMPTS or time.monotonic() + pause >= deadline:
                raise EngineUnavailable(
                    f"The inference service is unavailable ({what} failed {failures} times: "
                    f"{reason})."
                )
            time.sleep(pause)
            delay = min(delay * 2, BACKOFF_MAX)
