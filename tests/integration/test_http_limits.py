"""The API's own bounds on request heads and connections (api/http_limits.py), against the
running stack's uvicorn as `make run` starts it: attack finding 4, where a 16 MB header and
20,000 headers both got 200 and ten unfinished 50 MB heads grew the API from 355 to 904 MB.

Raw sockets, as an attacker's tool would send: no HTTP client refuses to send such heads.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from api.http_limits import MAX_HEADERS
from core.settings import Settings
from ops.stack import REPO, Stack, free_port, wait_for_port
from tests.support.stacks import running_stack

MAX_CONNECTIONS = 40
HEAD_TIMEOUT = 2.0


@pytest.fixture(scope="module")
def running(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_stack(tmp_path_factory.mktemp("limits"), api_max_connections=MAX_CONNECTIONS,
                       api_head_timeout_seconds=HEAD_TIMEOUT) as stack:
        yield stack


@pytest.fixture(scope="module")
def stack(running: Stack) -> Settings:
    return running.settings


def connect(stack: Settings) -> socket.socket:
    return socket.create_connection((stack.app_host, stack.app_port), timeout=30)


def head(*lines: str) -> bytes:
    return ("GET /api/health HTTP/1.1\r\nHost: x\r\n" + "".join(lines)).encode()


def answer(sock: socket.socket) -> tuple[int, dict[str, object] | None]:
    """The status and JSON body of the response on `sock` (read until the server closes)."""
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
        if b"\r\n\r\n" in data and b"content-length" not in data.lower():
            break
        head_part, _, body = data.partition(b"\r\n\r\n")
        length = [int(line.split(b":")[1]) for line in head_part.lower().split(b"\r\n")
                  if line.startswith(b"content-length:")]
        if length and len(body) >= length[0]:
            break
    status = int(data.split(b" ", 2)[1])
    body = data.partition(b"\r\n\r\n")[2]
    return status, json.loads(body) if body.startswith(b"{") else None


def send(stack: Settings, payload: bytes) -> tuple[int, dict[str, object] | None]:
    with connect(stack) as sock:
        sock.sendall(payload)
        return answer(sock)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def test_an_ordinary_request_with_many_headers_is_served(stack: Settings) -> None:
    fields = [f"X-Field-{n}: {'v' * 100}\r\n" for n in range(MAX_HEADERS - 2)]
    status, body = send(stack, head(*fields, "\r\n"))
    assert status == 200 and body is not None and body["status"] == "ok"


def test_a_16_mb_header_gets_431(stack: Settings) -> None:
    status, body = send(stack, head(f"X-Big: {'a' * 16 * 1024 * 1024}\r\n", "\r\n"))
    assert status == 431 and body is not None and "too large" in str(body["message"])


def test_a_40_kb_head_arriving_whole_gets_431(stack: Settings) -> None:
    status, body = send(stack, head(f"X-Big: {'a' * 40 * 1024}\r\n", "\r\n"))
    assert status == 431 and body is not None and "too large" in str(body["message"])


def test_too_many_header_fields_get_431(stack: Settings) -> None:
    few_but_many = [f"X-{n}: v\r\n" for n in range(MAX_HEADERS + 50)]
    status, body = send(stack, head(*few_but_many, "\r\n"))
    assert status == 431 and body is not None and "too many header fields" in str(body["message"])
    twenty_thousand = [f"X-{n}: v\r\n" for n in range(20_000)]
    assert send(stack, head(*twenty_thousand, "\r\n"))[0] == 431


def test_unfinished_50_mb_heads_leave_the_api_s_memory_flat(running: Stack) -> None:
    stack = running.settings
    pid = running.processes["api"].pid
    before = rss_mb(pid)

    def attack(_: int) -> int:
        with connect(stack) as sock:
            sock.sendall(head())
            chunk = b"X-Grow-" + b"a" * (1024 * 1024 - 7)
            try:
                for _ in range(50):  # 50 MB of one header that never ends
                    sock.sendall(chunk)
            except OSError:
                pass  # the server stopped reading: the attack is over for this connection
            return answer(sock)[0]

    with ThreadPoolExecutor(10) as pool:
        statuses = list(pool.map(attack, range(10)))
    after = rss_mb(pid)
    print(f"\nten unfinished 50 MB heads: API RSS {before:.0f} -> {after:.0f} MB")
    assert statuses == [431] * 10
    assert after - before < 30, (before, after)
    status, _ = send(stack, head("\r\n"))
    assert status == 200


def test_a_head_that_never_ends_is_dropped(stack: Settings) -> None:
    with connect(stack) as sock:
        sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        started = time.monotonic()
        assert sock.recv(1024) == b""  # closed by the server, no answer
        assert HEAD_TIMEOUT - 0.5 < time.monotonic() - started < HEAD_TIMEOUT + 5


def test_connections_beyond_the_cap_get_503(stack: Settings) -> None:
    idle = [connect(stack) for _ in range(MAX_CONNECTIONS)]
    try:
        time.sleep(0.2)
        assert send(stack, head("\r\n"))[0] == 503
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.2)
    assert send(stack, head("\r\n"))[0] == 200


# The compose nginx (ops/docker/nginx.conf) in front of the same API: the same bounds at the edge.


@pytest.fixture(scope="module")
def nginx(stack: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """Debian's nginx running our compose configuration, proxying to the stack's API."""
    folder = tmp_path_factory.mktemp("nginx")
    (folder / "html").mkdir()
    (folder / "html" / "index.html").write_text("<!doctype html><title>MetaModel</title>")
    port = free_port()
    site = (REPO / "ops/docker/nginx.conf").read_text()
    site = (site.replace("listen 80;", f"listen 127.0.0.1:{port};")
            .replace("root /usr/share/nginx/html;", f"root {folder / 'html'};")
            .replace("http://api:8000", f"http://{stack.app_host}:{stack.app_port}"))
    assert str(port) in site and str(stack.app_port) in site
    (folder / "site.conf").write_text(site)
    temp = " ".join(f"{kind}_temp_path {folder / kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (folder / "nginx.conf").write_text(
        f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};"
        + (" user root;" if os.getuid() == 0 else "")
        + f" events {{}} http {{ access_log off; {temp} include {folder / 'site.conf'}; }}")
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    proc = subprocess.Popen([binary, "-c", str(folder / "nginx.conf"), "-p", str(folder)],
                            stderr=subprocess.PIPE)
    try:
        wait_for_port("127.0.0.1", port, 20, proc)
        yield "127.0.0.1", port
    finally:
        proc.terminate()
        proc.wait(10)


def via(edge: tuple[str, int], payload: bytes) -> int:
    with socket.create_connection(edge, timeout=30) as sock:
        with contextlib.suppress(OSError):  # nginx stopped reading: its answer is on the way
            sock.sendall(payload)
        return answer(sock)[0]


def test_the_compose_nginx_has_the_same_bounds(nginx: tuple[str, int]) -> None:
    assert via(nginx, head("\r\n")) == 200  # proxied to the API
    assert via(nginx, head(f"X-Big: {'a' * 16 * 1024 * 1024}\r\n", "\r\n")) == 400
    assert via(nginx, head(*[f"X-{n}: v\r\n" for n in range(20_000)], "\r\n")) == 400
    # Under nginx's bounds but over the API's field count: the API's 431 comes through.
    assert via(nginx, head(*[f"X-{n}: v\r\n" for n in range(MAX_HEADERS + 50)], "\r\n")) == 431
