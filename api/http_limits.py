"""Bounds on what one HTTP request head may cost the API, where uvicorn sets none.

uvicorn's httptools protocol keeps every header a client sends and buffers an unfinished head
however long it grows: a 16 MB header and 20,000 headers both reached the app, and ten
unfinished 50 MB heads grew the API from 355 to 904 MB. `make run` serves uvicorn directly (in
compose, nginx has the same bounds in front), so the API's own protocol refuses:

- a head (request line and headers) over MAX_HEAD_BYTES, finished or not: 431, as soon as
  that many bytes have arrived without the head ending (memory per connection stays bounded);
- more than MAX_HEADERS header fields: 431;
- a head that has not ended API_HEAD_TIMEOUT_SECONDS (30) after its first byte, or after the
  connection opened (slowloris): the connection is closed.

A refusal is sent, then the connection is half-closed and whatever the client still sends is
read and dropped for up to LINGER_SECONDS (nginx's "lingering close"): closing at once with
unread data would reset the connection, and the client would likely never see the 431.

How many connections the API holds at once is bounded by uvicorn's own `--limit-concurrency`
(503 beyond it, ops/stack.py). Everything else is uvicorn's HttpToolsProtocol unchanged; this
class is named by import path in `--http` (uvicorn accepts one there).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from core.settings import get_settings

# nginx's default large_client_header_buffers is 4 × 8 KiB: the same budget for the whole head.
MAX_HEAD_BYTES = 32 * 1024
MAX_HEADERS = 100
LINGER_SECONDS = 5.0
TOO_LARGE = "The request's headers are too large: keep them under 32 KB in all."
TOO_MANY = f"The request has too many header fields: at most {MAX_HEADERS} are accepted."


def _refusal(message: str) -> bytes:
    body = json.dumps({"message": message}).encode()
    return (
        b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
        b"content-type: application/json\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\n"
        b"connection: close\r\n\r\n" + body
    )


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the head bounds above."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._awaiting_head = True  # no head has ended since the last request (or ever)
        self._head_bytes = 0  # bytes received while awaiting the head (an upper bound)
        self._header_count = 0
        self._head_size = 0  # the URL's and the header fields' bytes of this request
        self._problem: str | None = None
        self._refused = False
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_timeout = get_settings().api_head_timeout_seconds

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[arg-type]
        self._arm_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._awaiting_head:
            self._head_bytes += len(data)
            if self._head_timer is None:
                self._arm_head_timer()
        super().data_received(data)
        if not self._refused and self._awaiting_head and self._head_bytes > MAX_HEAD_BYTES:
            self._refuse(TOO_LARGE)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_count = 0
        self._head_size = 0
        self._problem = None

    def on_url(self, url: bytes) -> None:
        # A head that arrived whole in one read is measured here, not by data_received.
        self._head_size += len(url)
        if self._head_size > MAX_HEAD_BYTES:
            self._problem = TOO_LARGE
            return
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        self._head_size += len(name) + len(value) + 4  # ": " and CRLF
        if self._head_size > MAX_HEAD_BYTES:
            self._problem = TOO_LARGE
        elif self._header_count > MAX_HEADERS:
            self._problem = self._problem or TOO_MANY
        if self._problem is not None:
            return  # not kept: the request is refused once its head ends
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._awaiting_head = False
        self._head_bytes = 0
        self._cancel_head_timer()
        if self._problem is not None:
            self._refuse(self._problem)
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        super().on_message_complete()
        # What arrives next is the next request's head.
        self._awaiting_head = True

    def _refuse(self, message: str) -> None:
        """431, then a lingering close: what the client still sends is dropped unread."""
        self._refused = True
        self._cancel_head_timer()
        if self.transport.is_closing():
            return
        self.transport.write(_refusal(message))
        if self.transport.can_write_eof():
            # When the client ends its side first, the transport closes by itself (uvicorn's
            # eof_received asks for that).
            self.transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, self._close)
        else:
            self.transport.close()

    def _close(self) -> None:
        if not self.transport.is_closing():
            self.transport.close()

    def _arm_head_timer(self) -> None:
        self._cancel_head_timer()
        self._head_timer = self.loop.call_later(self._head_timeout, self._head_timed_out)

    def _cancel_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._awaiting_head and not self.transport.is_closing():
            self._refused = True
            self.transport.close()
