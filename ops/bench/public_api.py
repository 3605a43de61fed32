"""Issue 23's load figure: many API clients, each with its own key, submitting one-image
generations back to back through POST /api/v1/generations for a while, against the embedded
stack with the bench's no-op engine (the control plane, not the engine, is what is measured).

    python -m ops.bench.public_api [--clients 50] [--seconds 60] [--db sqlite|postgres]

Prints and writes (out/bench_public_api.json): requests/s, submit latency p50/p95/max, the
answers by status code (server errors must be 0), and how many of the generations completed,
failed or were still running once the run had drained. The keys' rate limit is raised for the
run (each client would otherwise be held to 60 requests a minute, which is the limit working,
not the stack's capacity).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx
from sqlalchemy import func, select

from core.auth.api_keys import MAX_KEYS
from core.db import make_session_factory
from core.models.generations import Generation
from core.models.messages import OutboxMessage
from ops.bench.stack import BenchStack, postgres_database
from ops.seed import fixtures_dir

REPO = Path(__file__).resolve().parents[2]


def _mailed_code(stack: BenchStack, email: str) -> str:
    sessions = make_session_factory(stack._db)
    with sessions() as session:
        subject = session.execute(
            select(OutboxMessage.subject).where(OutboxMessage.to_address == email)
            .order_by(OutboxMessage.id.desc())
        ).scalars().first()
    found = re.search(r"\b(\d{6})\b", subject or "")
    if found is None:
        raise RuntimeError(f"no sign-up code was mailed to {email}")
    return found.group(1)


def _user_session(stack: BenchStack, http: httpx.Client) -> dict[str, str]:
    """A user signed up through the API (the code read from the outbox)."""
    email = f"bench-{os.urandom(4).hex()}@example.com"
    http.post("/api/v1/auth/generateSignupOTP", json={"email": email}).raise_for_status()
    created = http.post("/api/v1/auth/signup", json={
        "email": email, "otp": _mailed_code(stack, email), "name": "Bench",
        "password": "Bench-pass-123"})
    created.raise_for_status()
    return {"Authorization": f"Bearer {created.json()['data']['token']}"}


def run(stack: BenchStack, clients: int, seconds: float) -> dict[str, object]:
    http = httpx.Client(base_url=stack.url, timeout=60)
    photo = sorted((fixtures_dir() / "people").glob("*.jpg"))[0]
    keys: list[str] = []
    bodies: list[dict[str, object]] = []
    session: dict[str, str] = {}
    upload_key = ""
    for index in range(clients):
        if index % MAX_KEYS == 0:  # an account holds at most MAX_KEYS keys: a new user
            session = _user_session(stack, http)
            upload_key = ""
        made = http.post("/api/v1/api-keys", json={"name": f"client {index}"}, headers=session)
        made.raise_for_status()
        keys.append(made.json()["data"]["secret"])
        if not upload_key:  # one photo per account, used by all its clients
            sent = http.post("/api/v1/uploads", headers={"Authorization": f"Bearer {keys[-1]}"},
                             files={"file": (photo.name, photo.read_bytes(), "image/jpeg")})
            sent.raise_for_status()
            upload_key = sent.json()["data"]["key"]
        bodies.append({"service": "burstreplace", "inputs": [upload_key],
                       "backgroundId": "white"})

    latencies: list[float] = []
    statuses: Counter[int] = Counter()
    errors: Counter[str] = Counter()
    ids: list[str] = []
    lock = threading.Lock()
    stop_at = time.perf_counter() + seconds

    def client(index: int) -> None:
        with httpx.Client(base_url=stack.url, timeout=60,
                          headers={"Authorization": f"Bearer {keys[index]}"}) as own:
            while time.perf_counter() < stop_at:
                started = time.perf_counter()
                try:
                    answer = own.post("/api/v1/generations", json=bodies[index])
                except httpx.HTTPError as error:
                    with lock:
                        errors[type(error).__name__] += 1
                    continue
                took = time.perf_counter() - started
                with lock:
                    statuses[answer.status_code] += 1
                    latencies.append(took)
                    if answer.status_code == 201:
                        ids.append(answer.json()["data"]["id"])

    began = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(client, range(clients)))
    elapsed = time.perf_counter() - began

    # Let the accepted generations finish (the no-op engine is quick), then count them.
    sessions = make_session_factory(stack._db)
    deadline = time.monotonic() + 120
    while True:
        with sessions() as db:
            states = dict(db.execute(
                select(Generation.status, func.count()).where(Generation.id.in_(ids))
                .group_by(Generation.status)).all())
        running = sum(v for k, v in states.items() if k not in ("completed", "failed"))
        if not running or time.monotonic() > deadline:
            break
        time.sleep(1)
    http.close()
    ordered = sorted(latencies)
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "requests": len(latencies),
        "requests_per_s": round(len(latencies) / elapsed, 1),
        "latency_p50_ms": round(statistics.median(ordered) * 1000, 1) if ordered else None,
        "latency_p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 1)
        if ordered else None,
        "latency_max_ms": round(ordered[-1] * 1000, 1) if ordered else None,
        "statuses": {str(code): count for code, count in sorted(statuses.items())},
        "server_errors": sum(c for code, c in statuses.items() if code >= 500),
        "connection_errors": dict(errors),
        "generations": {str(k): int(v) for k, v in states.items()},
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--out", type=Path, default=REPO / "out" / "bench_public_api.json")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench-api-") as tmp, ExitStack() as stack:
        url = stack.enter_context(postgres_database()) if args.db == "postgres" else None
        bench = stack.enter_context(BenchStack(
            Path(tmp), "noop", url, 0, signup_free_credits=1_000_000,
            api_key_requests_per_minute=100_000, api_max_connections=2048))
        bench.start()
        figures = {"db": args.db, **run(bench, args.clients, args.seconds)}
    print(json.dumps(figures, indent=2))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
