"""Ports for the embedded stack's servers (ops/stack.py), the tests' private stacks and the
benches: handed out free, below the kernel's ephemeral range, and waited for.
"""

from __future__ import annotations

import random
import socket
import subprocess
import threading
import time
from pathlib import Path

# Ports handed out for services that start later are taken below the kernel's ephemeral range
# (/proc/sys/net/ipv4/ip_local_port_range): the Temporal dev server binds several ports of its
# own from that range as it starts (its HTTP API and internal services), and one of them once
# landed on the port kept for the S3 server, which starts after it. Nothing that binds port 0
# can land below the range.
RESERVED_PORTS = (15000, 32767)
_handed_out: set[int] = set()
_ports_lock = threading.Lock()


def _ephemeral_floor() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def free_port() -> int:
    """A port nothing listens on now, below the ephemeral range, never handed out twice by
    this process (the caller binds it later)."""
    low, high = RESERVED_PORTS[0], min(RESERVED_PORTS[1], _ephemeral_floor() - 1)
    with _ports_lock:
        for _ in range(500):
            port = random.randint(low, high)
            if port in _handed_out:
                continue
            with socket.socket() as sock:
                try:
                    sock.bind(("127.0.0.1", port))
                except OSError:
                    continue
            _handed_out.add(port)
            return port
    with socket.socket() as sock:  # the whole range taken: let the kernel choose
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(host: str, port: int, timeout: float, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited with {proc.returncode}")
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"nothing listening on {host}:{port} after {timeout:.0f}s")
