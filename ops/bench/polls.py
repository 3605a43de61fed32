"""pollTasks under load, against one API process: a thousand long polls at once (how soon a
task's change reaches its waiting client, and the API's memory), and plain polls per second
beside a bare FastAPI endpoint's, same run, same uvicorn settings, 64 connections.

The load comes from a minimal HTTP/1.1 client on asyncio streams (keep-alive, one request in
flight per connection): httpx would spend more CPU per request than the servers measured, and
the machine has two cores."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Sequence
from urllib.parse import quote

import jwt
from sqlalchemy import update

from core.db import make_session_factory
from core.enums import GenerationKind, GenerationStatus
from core.models.generations import Generation, GenerationImage
from core.settings import get_settings
from ops.bench.stack import BenchStack
from ops.bench.support import Client, p50, percentile, rss_mb
from ops.stack import REPO, free_port, uvicorn_options, wait_for_port


class Connection:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host: str, port: int) -> Connection:
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        return cls(reader, writer)

    async def get(self, request: bytes) -> tuple[int, bytes]:
        self.writer.write(request)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        body = await self.reader.readexactly(length) if length else b""
        return status, body

    def close(self) -> None:
        self.writer.close()


def request_bytes(host: str, port: int, path: str, token: str | None = None) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}:{port}"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def poll_path(task_ids: Sequence[str], since: str | None = None, wait_ms: int = 0) -> str:
    path = "/api/v1/task/pollTasks?taskIds=" + quote(json.dumps(list(task_ids)))
    if since is not None:
        path += f"&since={quote(since)}&waitMs={wait_ms}"
    return path


def make_tasks(
    stack: BenchStack, guests: int, per_guest: int, completed: bool
) -> list[tuple[str, str]]:
    """`guests` guests with `per_guest` tasks each, written straight to the database as the
    worker would have left them: (token, task id) pairs."""
    pairs: list[tuple[str, str]] = []
    sessions = make_session_factory(stack._db)
    for _ in range(guests):
        client = Client(stack.url)
        token = client.token
        client.close()
        claims = jwt.decode(token, options={"verify_signature": False})
        with sessions() as session:
            generation = Generation(
                account_id=claims["sub"],
                service=GenerationKind.BODY_SWAP,
                status="completed" if completed else "running",
                model_id="model-1",
                background_id="bg-1",
                credits=per_guest,
                distributor_id=claims["did"],
            )
            session.add(generation)
            session.flush()
            for position in range(per_guest):
                task = GenerationImage(
                    generation_id=generation.id,
                    position=position,
                    input_key=f"uploads/bench/{generation.id}-{position}.jpg",
                    status=GenerationStatus.COMPLETED if completed else GenerationStatus.QUEUED,
                    progress=100 if completed else 0,
                    stage="done" if completed else "queued",
                    output_key=f"outputs/bench/{generation.id}-{position}.jpg"
                    if completed
                    else None,
                )
                session.add(task)
                session.flush()
                pairs.append((token, task.id))
            session.commit()
    return pairs


async def _waiting(host: str, port: int) -> float:
    """The API's mm_long_polls_waiting gauge."""
    conn = await Connection.open(host, port)
    try:
        _, body = await conn.get(request_bytes(host, port, "/metrics"))
    finally:
        conn.close()
    for line in body.decode().splitlines():
        if line.startswith("mm_long_polls_waiting "):
            return float(line.split()[1])
    return 0.0


async def _long_polls(
    stack: BenchStack, pairs: list[tuple[str, str]], changes: int, rate: float
) -> dict[str, float]:
    host, port = stack.settings.app_host, stack.settings.app_port
    api_pid = stack.pid("api")
    changed_at: dict[str, float] = {}
    delays: list[float] = []
    errors = [0]
    stop = asyncio.Event()

    async def client(token: str, task_id: str) -> None:
        conn = await Connection.open(host, port)
        state = "queued:0"
        try:
            while not stop.is_set():
                status, body = await conn.get(
                    request_bytes(host, port, poll_path([task_id], state, 20000), token)
                )
                now = time.perf_counter()
                if status != 200:
                    errors[0] += 1
                    await asyncio.sleep(0.5)
                    continue
                task = json.loads(body)["data"][0]
                new_state = f"{task['status']}:{task['progress']}"
                if new_state != state and task_id in changed_at:
                    delays.append(now - changed_at.pop(task_id))
                state = new_state
        finally:
            conn.close()

    sessions = make_session_factory(stack._db)

    def change(task_id: str) -> float:
        with sessions() as session:
            session.execute(
                update(GenerationImage)
                .where(GenerationImage.id == task_id).values(progress=GenerationImage.progress + 1)
            )
            session.commit()
        return time.perf_counter()

    idle_rss = rss_mb(api_pid)
    runs = [asyncio.create_task(client(token, task_id)) for token, task_id in pairs]
    deadline = time.monotonic() + 60
    while await _waiting(host, port) < len(pairs) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    waiting = await _waiting(host, port)
    peak_rss = rss_mb(api_pid)
    for k in range(changes):
        task_id = pairs[(k * 7919) % len(pairs)][1]
        if task_id in changed_at:
            continue
        # The time the change is visible to others: when its commit returns.
        changed_at[task_id] = await asyncio.to_thread(change, task_id)
        peak_rss = max(peak_rss, rss_mb(api_pid))
        await asyncio.sleep(1 / rate)
    deadline = time.monotonic() + 10
    while changed_at and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    stop.set()
    for run in runs:
        run.cancel()
    await asyncio.gather(*runs, return_exceptions=True)
    return {
        "clients": len(pairs),
        "waiting_at_start": waiting,
        "changes": len(delays),
        "unanswered": len(changed_at),
        "errors": errors[0],
        "delay_p50_ms": p50(delays) * 1000,
        "delay_p95_ms": percentile(delays, 0.95) * 1000,
        "api_rss_mb": peak_rss,
        "api_rss_before_mb": idle_rss,
    }


def long_polls(stack: BenchStack, clients: int, changes: int, rate: float = 20) -> dict[str, float]:
    per_guest = 100
    pairs = make_tasks(stack, max(1, clients // per_guest), min(per_guest, clients), False)
    return asyncio.run(_long_polls(stack, pairs[:clients], changes, rate))


async def _rate(host: str, port: int, request: bytes, connections: int, seconds: float) -> float:
    """Requests per second with `connections` connections, one request in flight on each."""
    conns = [await Connection.open(host, port) for _ in range(connections)]
    count = [0]
    bad = [0]
    stop_at = time.perf_counter() + seconds

    async def loop(conn: Connection) -> None:
        while time.perf_counter() < stop_at:
            status, _ = await conn.get(request)
            if status == 200:
                count[0] += 1
            else:
                bad[0] += 1

    start = time.perf_counter()
    await asyncio.gather(*(loop(c) for c in conns))
    elapsed = time.perf_counter() - start
    for conn in conns:
        conn.close()
    if bad[0]:
        raise RuntimeError(f"{bad[0]} requests were refused")
    return count[0] / elapsed


def start_uvicorn(target: list[str], port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """uvicorn with the API's settings (ops/stack.py start_api)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            *target,
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            *uvicorn_options(get_settings()),
        ],  # fmt: skip
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_for_port("127.0.0.1", port, 60, proc)
    return proc


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def requests_per_second(
    stack: BenchStack, seconds: float, connections: int = 64, untraced: bool = True
) -> dict[str, float]:
    """Plain pollTasks (one completed task: three signed URLs) against the stack's API, and
    the bare endpoint in its own process, alternating bare, poll, bare, poll. With `untraced`
    also pollTasks on another API process of the same stack with the poll cache off, and on
    one with OTEL_EXPORTER=none."""
    token, task_id = make_tasks(stack, 1, 1, True)[0]
    host, port = stack.settings.app_host, stack.settings.app_port
    poll = request_bytes(host, port, poll_path([task_id]), token)
    bare_port = free_port()
    bare_proc = start_uvicorn(["ops.bench.bare:app"], bare_port, dict(os.environ))
    bare = request_bytes("127.0.0.1", bare_port, "/bare")
    figures: dict[str, float] = {}
    try:
        # Warm both (first requests import and compile lazily).
        asyncio.run(_rate("127.0.0.1", bare_port, bare, 4, 0.5))
        asyncio.run(_rate(host, port, poll, 4, 0.5))
        bare_rates, poll_rates = [], []
        for _ in range(2):
            bare_rates.append(
                asyncio.run(_rate("127.0.0.1", bare_port, bare, connections, seconds))
            )
            poll_rates.append(asyncio.run(_rate(host, port, poll, connections, seconds)))
        figures["bare_rps"] = sum(bare_rates) / len(bare_rates)
        figures["poll_rps"] = sum(poll_rates) / len(poll_rates)
        figures["ratio"] = figures["poll_rps"] / figures["bare_rps"]
    finally:
        stop(bare_proc)
    if untraced:
        # The same API beside it twice more: with every poll read (the poll cache off: what a
        # poll costs when its answer changed), and untraced.
        for name, extra in (
            ("poll_rps_uncached", {"POLL_CACHE_SECONDS": "0"}),
            ("poll_rps_otel_none", {"OTEL_EXPORTER": "none"}),
        ):
            other = free_port()
            env = {**stack.stack.env(), "APP_PORT": str(other), **extra}
            proc = start_uvicorn(["api.main:app_factory", "--factory"], other, env)
            try:
                request = request_bytes("127.0.0.1", other, poll_path([task_id]), token)
                asyncio.run(_rate("127.0.0.1", other, request, 4, 0.5))
                figures[name] = asyncio.run(
                    _rate("127.0.0.1", other, request, connections, seconds)
                )
            finally:
                stop(proc)
    figures["connections"] = connections
    return figures
