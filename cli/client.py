"""The public API over HTTP, within the key's rate limit: every answer's RateLimit-Remaining
and RateLimit-Reset say when to pause before the next request, and a 429 is waited out
(Retry-After) and retried."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import httpx

DEFAULT_API = "http://127.0.0.1:8000"
# Requests kept in hand: below this many left, wait for the window to reset.
RESERVE = 1
RETRIES = 5


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


class Api:
    def __init__(self, base_url: str, key: str | None, timeout: float = 60,
                 sleep: Callable[[float], None] = time.sleep,
                 transport: httpx.BaseTransport | None = None) -> None:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        self.http = httpx.Client(base_url=base_url.rstrip("/"), headers=headers,
                                 timeout=timeout, transport=transport)
        self.sleep = sleep
        self._pause_until = 0.0

    def close(self) -> None:
        self.http.close()

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

    def download(self, url: str) -> httpx.Response:
        """An output's signed link (storage, not the API: no key, no rate limit)."""
        last: Exception | None = None
        for attempt in range(RETRIES):
            try:
                response = httpx.get(url, timeout=120, follow_redirects=True)
            except httpx.TransportError as error:
                last = error
            else:
                if response.status_code < 500:
                    if response.status_code >= 400:
                        raise ApiError(response.status_code,
                                       f"download refused ({response.status_code})")
                    return response
                last = ApiError(response.status_code, message_of(response))
            self.sleep(min(2.0**attempt, 30))
        raise ApiError(0, f"download failed: {last}")
