"""The caller's address, for per-address rate limits: taken from X-Forwarded-For only when the
request came through a proxy we were told to trust (TRUSTED_PROXIES), never from the client.

Uvicorn is started with --no-proxy-headers, so `request.client` is always the TCP peer; a
forged X-Forwarded-For from anywhere else is ignored. Behind nginx (compose), nginx appends the
real peer to X-Forwarded-For and its own network is trusted, so each visitor gets their own
bucket instead of everyone sharing nginx's.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

from fastapi import Request

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=16)
def _networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in trusted if entry)


def _is_trusted(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def resolve(peer: str, forwarded_for: str | None, trusted: tuple[str, ...]) -> str:
    """The client's address: the peer, or, when the peer is a trusted proxy, the right-most
    address in X-Forwarded-For that is not itself a trusted proxy (the left part of the header
    is whatever the client wrote, so it is never believed). When every hop is a trusted
    address (a visitor inside a trusted network), the farthest one is the visitor."""
    networks = _networks(trusted)
    if not forwarded_for or not _is_trusted(peer, networks):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        try:
            address = str(ipaddress.ip_address(hop))
        except ValueError:
            return peer  # garbage where an address should be: fall back to the proxy
        if not _is_trusted(address, networks):
            return address
    return str(ipaddress.ip_address(hops[0])) if hops else peer


def client_address(request: Request, trusted: list[str]) -> str:
    peer = request.client.host if request.client else "unknown"
    return resolve(peer, request.headers.get("x-forwarded-for"), tuple(trusted))
