"""Ports for the stack's services are kept out of the kernel's ephemeral range, where the
Temporal dev server binds ports of its own while it starts (it once took the S3 server's)."""

from __future__ import annotations

import socket

from ops.ports import _ephemeral_floor, free_port


def test_free_ports_lie_below_the_ephemeral_range_and_are_never_repeated() -> None:
    ports = [free_port() for _ in range(200)]
    assert len(set(ports)) == len(ports)
    assert all(15000 <= port < _ephemeral_floor() for port in ports)
    # What binding port 0 gets (as the dev server does for itself) is never one of them.
    for _ in range(50):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            assert sock.getsockname()[1] >= _ephemeral_floor()
