"""The `metamodel` tool's HTTP client keeps within the key's rate limit: it pauses before the
window runs out (RateLimit-Remaining / RateLimit-Reset) and waits out a 429's Retry-After. It
streams a download to its file and stops it at the size cap (a local server sending 2 GB)."""

from __future__ import annotations

import threading
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from cli.client import Api, ApiError, TooLarge


def client(answers: list[httpx.Response], slept: list[float]) -> Api:
    sent = iter(answers)
    return Api("http://api.test", "mm_live_x", sleep=slept.append,
               transport=httpx.MockTransport(lambda request: next(sent)))


def test_it_pauses_before_the_window_runs_out_and_waits_out_a_429() -> None:
    slept: list[float] = []
    api = client([
        httpx.Response(200, json={"data": {"n": 1}},
                       headers={"RateLimit-Remaining": "5", "RateLimit-Reset": "30"}),
        httpx.Response(200, json={"data": {"n": 2}},
                       headers={"RateLimit-Remaining": "1", "RateLimit-Reset": "7"}),
        httpx.Response(429, json={"message": "slow down"}, headers={"Retry-After": "3"}),
        httpx.Response(200, json={"data": {"n": 3}}),
    ], slept)
    assert api.request("GET", "/a") == {"n": 1} and slept == []
    assert api.request("GET", "/b") == {"n": 2} and slept == []
    assert api.request("GET", "/c") == {"n": 3}
    # Paused for the window's reset before asking, then for the 429's Retry-After.
    assert len(slept) == 2 and 6 < slept[0] <= 7 and slept[1] == 3


def test_a_refusal_carries_the_api_message() -> None:
    api = client([httpx.Response(401, json={"message": "This API key is not valid."})], [])
    with pytest.raises(ApiError) as refused:
        api.request("GET", "/api/v1/credits")
    assert refused.value.auth and refused.value.message == "This API key is not valid."


class HugeBody(ThreadingHTTPServer):
    """A local HTTP server whose one file is `size` bytes of zeros, sent in 1 MB writes, with
    or without a Content-Length (chunked), as a storage gone wrong could send an output."""

    def __init__(self, size: int, declare: bool) -> None:
        self.size, self.declare, self.sent = size, declare, 0
        super().__init__(("127.0.0.1", 0), _Sender)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/output.png"


class _Sender(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: HugeBody

    def do_GET(self) -> None:  # noqa: N802 (the http.server hook's name)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        if self.server.declare:
            self.send_header("Content-Length", str(self.server.size))
        else:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        block = bytes(1024 * 1024)
        try:
            while self.server.sent < self.server.size:
                part = block[: self.server.size - self.server.sent]
                if self.server.declare:
                    self.wfile.write(part)
                else:
                    self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                self.server.sent += len(part)
            if not self.server.declare:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client stopped reading: what the cap is for

    def log_message(self, *_: object) -> None:
        pass


@contextmanager
def huge_body(size: int, declare: bool) -> Iterator[HugeBody]:
    server = HugeBody(size, declare)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("declare", [False, True], ids=["chunked", "content-length"])
def test_a_download_is_streamed_to_its_file_and_stopped_at_the_cap(
    tmp_path: Path, declare: bool
) -> None:
    cap = 64 * 1024 * 1024
    api = Api("http://api.test", "mm_live_x", sleep=lambda _: None, max_download=cap)
    target = tmp_path / "look-01.png"
    # 2 GB on offer: read whole (as before), it would take 2 GB of memory.
    with huge_body(2 * 1024**3, declare) as server:
        tracemalloc.start()
        try:
            with pytest.raises(TooLarge) as refused:
                api.download(server.url, target)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        sent = server.sent
    assert "larger than the download limit of 64 MB" in refused.value.message
    # Nothing left behind: neither the file nor its partial one.
    assert list(tmp_path.iterdir()) == []
    # Streamed: memory stays at a few chunks, never the body (nor the cap).
    assert peak < 16 * 1024 * 1024, peak
    # Stopped at the cap: a declared size is refused before any byte, a counted one just past
    # the cap (plus what the socket buffers held), not after the whole 2 GB.
    assert sent < cap + 32 * 1024 * 1024, sent
    if declare:
        assert not target.with_name(".look-01.png.part").exists()
    api.close()


def test_a_download_under_the_cap_is_written_whole(tmp_path: Path) -> None:
    api = Api("http://api.test", "mm_live_x", sleep=lambda _: None, max_download=8 * 1024 * 1024)
    target = tmp_path / "look-02.png"
    with huge_body(5 * 1024 * 1024 + 7, declare=False) as server:
        assert api.download(server.url, target) == 5 * 1024 * 1024 + 7
    assert target.stat().st_size == 5 * 1024 * 1024 + 7
    assert [p.name for p in tmp_path.iterdir()] == ["look-02.png"]
    api.close()
