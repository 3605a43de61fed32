"""The public API over HTTP, within the key's rate limit: every answer's RateLimit-Remaining
and RateLimit-Reset say when to pause before the next request, and a 429 is waited out
(Retry-After) and retried. Outputs are streamed to their file, never held whole in memory,
and refused past a size cap."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

DEFAULT_API = "http://127.0.0.1:8000"
# Requests kept in hand: below this many left, wait for the window to reset.
RESERVE = 1
RETRIES = 5
# An output is one image of at most 40 megapixels: a few MB as JPEG, at worst ~160 MB as an
# uncompressed RGBA PNG. A download past the cap is not one of ours (or a storage gone wrong):
# stopped there, its partial file removed.
DEFAULT_MAX_DOWNLOAD_MB = 256
CHUNK = 1024 * 1024


class ApiError(Exception):
    """An answer that is not a success: its status and the API's `message`."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    @property
    def auth(self) -> bool:
        return self.status in (401, 403)


def message_of(response: httpx.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return response.text.strip()[:300] or f"HTTP {response.status_code}"
    if isinstance(body, dict) and isinstance(body.get("message"), str):
        return str(body["message"])
    return str(body)[:300]


def _seconds(value: str | None) -> float | None:
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class TooLarge(ApiError):
    """A download past the cap (not retried: the same link sends the same bytes)."""

    def __init__(self, limit: int) -> None:
        super().__init__(0, f"the output is larger than the download limit of {_size(limit)} "
                            "(--max-download-mb); it was not saved")


def _size(count: int) -> str:
    return f"{count / 1024 / 1024:.3g} MB"


class Api:
    def __init__(self, base_url: str, key: str | None, timeout: float = 60,
                 sleep: Callable[[float], None] = time.sleep,
                 transport: httpx.BaseTransport | None = None,
                 max_download: int = DEFAULT_MAX_DOWNLOAD_MB * 1024 * 1024) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers,
                                 timeout=timeout, transport=transport)
        # Signed storage links: no key sent (it is the API's, not storage's), redirects kept.
        self.files = httpx.Client(timeout=120, follow_redirects=True)
        self.max_download = max_download
        self.sleep = sleep
        self._pause_until = 0.0

    def close(self) -> None:
        self.http.close()
        self.files.close()

    def __enter__(self) -> Api:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _note_limit(self, response: httpx.Response) -> None:
        remaining = _seconds(response.headers.get("RateLimit-Remaining"))
        reset = _seconds(response.headers.get("RateLimit-Reset"))
        if remaining is not None and reset is not None and remaining <= RESERVE:
            self._pause_until = max(self._pause_until, time.monotonic() + reset)

    def request(self, method: str, path: str, **kwargs: Any) -> dict[str, Any]:
        """The answer's JSON `data`; ApiError for a refusal, after waiting out 429s and
        retrying what failed on the way (connection errors, 502-504)."""
        for attempt in range(RETRIES + 1):
            wait = self._pause_until - time.monotonic()
            if wait > 0:
                self.sleep(wait)
            self._pause_until = 0.0
            try:
                response = self.http.request(method, path, **kwargs)
            except httpx.TransportError as error:
                if attempt == RETRIES:
                    raise ApiError(0, f"cannot reach the API: {error}") from error
                self.sleep(min(2.0**attempt, 30))
                continue
            self._note_limit(response)
            if response.status_code == 429 and attempt < RETRIES:
                retry = _seconds(response.headers.get("Retry-After"))
                self.sleep(retry if retry is not None else min(2.0**attempt, 30))
                continue
            if response.status_code in (502, 503, 504) and attempt < RETRIES:
                self.sleep(min(2.0**attempt, 30))
                continue
            if response.status_code >= 400:
                raise ApiError(response.status_code, message_of(response))
            body = response.json()
            data: dict[str, Any] = body.get("data", body) if isinstance(body, dict) else {}
            return data
        raise AssertionError("unreachable")

    def download(self, url: str, target: Path) -> int:
        """An output's signed link (storage, not the API: no key, no rate limit) streamed into
        `target` a chunk at a time, through a hidden partial file renamed when complete;
        returns the bytes written. Past `max_download` bytes (said by Content-Length, or
        counted) TooLarge, and no file is left behind; connection errors and 5xx are retried
        from the start."""
        partial = target.with_name(f".{target.name}.part")
        last: Exception | None = None
        try:
            for attempt in range(RETRIES):
                try:
                    written = self._stream(url, partial)
                except httpx.TransportError as error:
                    last = error
                except _ServerError as error:
                    last = error.error
                else:
                    partial.replace(target)
                    return written
                self.sleep(min(2.0**attempt, 30))
        finally:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
        raise ApiError(0, f"download failed: {last}")

    def _stream(self, url: str, partial: Path) -> int:
        with self.files.stream("GET", url) as response:
            if response.status_code >= 500:
                response.read()
                raise _ServerError(ApiError(response.status_code, message_of(response)))
            if response.status_code >= 400:
                raise ApiError(response.status_code,
                               f"download refused ({response.status_code})")
            declared = response.headers.get("Content-Length")
            if declared is not None and declared.isdigit() and int(declared) > self.max_download:
                raise TooLarge(self.max_download)
            written = 0
            with partial.open("wb") as out:
                for chunk in response.iter_bytes(CHUNK):
                    written += len(chunk)
                    if written > self.max_download:
                        raise TooLarge(self.max_download)
                    out.write(chunk)
            return written


class _ServerError(Exception):
    """A 5xx from storage: retried."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(error.message)
        self.error = error
