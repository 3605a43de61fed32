"""Bounds on what one HTTP request head and body may cost the API, where uvicorn sets none.

uvicorn's httptools protocol keeps every header a client sends and buffers an unfinished head
however long it grows: a 16 MB header and 20,000 headers both reached the app, and ten
unfinished 50 MB heads grew the API from 355 to 904 MB. `make run` serves uvicorn directly (in
compose, nginx has the same bounds in front), so the API's own protocol refuses:

- a head (request line and headers) over MAX_HEAD_BYTES, finished or not: 431, as soon as
  that many bytes have arrived without the head ending (memory per connection stays bounded);
- more than MAX_HEADERS header fields: 431;
- a head that has not ended API_HEAD_TIMEOUT_SECONDS (30) after its first byte, or after the
  connection opened (slowloris): the connection is closed;
- a body over its cap (api/body_limits.py: 1 MiB unless multipart): 413, at once when the
  Content-Length says so (the app never starts), else as soon as the counted bytes of a chunked
  body pass the cap (the app, which may have begun, then sees the client gone and its answer is
  dropped).

A refusal is sent, then the connection is half-closed and whatever the client still sends is
read and dropped for up to LINGER_SECONDS (nginx's "lingering close"): closing at once with
unread data would reset the connection, and the client would likely never see the 431 or 413.

How many connections the API holds at once is bounded by uvicorn's own `--limit-concurrency`
(503 beyond it, ops/stack.py). Everything else is uvicorn's HttpToolsProtocol unchanged; this
class is named by import path in `--http` (uvicorn accepts one there).
"""

from __future__ import annotations

import asyncio
import json
import urllib.parse
from typing import Any

import httptools
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.body_limits import BodyCap, body_cap, declared_length
from core.settings import get_settings

# nginx's default large_client_header_buffers is 4 × 8 KiB: the same budget for the whole head.
MAX_HEAD_BYTES = 32 * 1024
MAX_HEADERS = 100
LINGER_SECONDS = 5.0
TOO_LARGE = "The request's headers are too large: keep them under 32 KB in all."
TOO_MANY = f"The request has too many header fields: at most {MAX_HEADERS} are accepted."


HEAD_TOO_LARGE = b"431 Request Header Fields Too Large"
BODY_TOO_LARGE = b"413 Content Too Large"


def _refusal(status: bytes, message: str) -> bytes:
    body = json.dumps({"message": message}).encode()
    return (
        b"HTTP/1.1 " + status + b"\r\n"
        b"content-type: application/json\r\n"
        b"content-length: " + str(len(body)).encode() + b"\r\n"
        b"connection: close\r\n\r\n" + body
    )


class BoundedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with the head and body bounds above."""

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
        self._max_upload_bytes = get_settings().max_upload_bytes
        self._body_cap: BodyCap | None = None  # this request's, once its head has ended
        self._body_bytes = 0

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
        self._body_cap = self._cap_of_this_request()
        self._body_bytes = 0
        length = self._header(b"content-length")
        declared = declared_length(length) if length is not None else None
        if declared is not None and declared > self._body_cap.limit:
            self._refuse(self._body_cap.message, BODY_TOO_LARGE)
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if self._refused:
            return
        self._body_bytes += len(body)
        if self._body_cap is not None and self._body_bytes > self._body_cap.limit:
            self._refuse_started_request(self._body_cap.message)
            return
        super().on_body(body)

    def _header(self, name: bytes) -> bytes | None:
        return next((value for key, value in self.headers if key == name), None)

    def _cap_of_this_request(self) -> BodyCap:
        path = httptools.parse_url(self.url).path.decode("ascii", "replace")
        if "%" in path:  # as uvicorn routes it
            path = urllib.parse.unquote(path)
        content_type = (self._header(b"content-type") or b"").decode("latin-1")
        return body_cap(path, content_type, self._max_upload_bytes)

    def _refuse_started_request(self, message: str) -> None:
        """413 for a body found too large while the app may already be reading it: the app
        sees the client gone (its receive says so and what it sends is dropped), so the 413
        is the only answer on the wire. Once the app has begun answering, that answer cannot
        be replaced: the connection is just closed."""
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True
            cycle.message_event.set()
            if cycle.response_started:
                self._refused = True
                self.transport.close()
                return
        self._refuse(message, BODY_TOO_LARGE)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        super().on_message_complete()
        # What arrives next is the next request's head.
        self._awaiting_head = True

    def _refuse(self, message: str, status: bytes = HEAD_TOO_LARGE) -> None:
        """431 or 413, then a lingering close: what the client still sends is dropped unread."""
        self._refused = True
        self._cancel_head_timer()
        if self.transport.is_closing():
            return
        # The app may have paused reading (a body it had not read yet): the linger must read on.
        self.flow.resume_reading()
        self.transport.write(_refusal(status, message))
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
