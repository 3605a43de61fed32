"""Visitors of a stack behind its trusted proxy, for the attack tests: a client bound to a
loopback address of its own (a real TCP peer), the proxy's X-Forwarded-For, a bearer token, and
a browser's device cookie on logins and password resets."""

from __future__ import annotations

import httpx

from core.auth.devices import DEVICE_COOKIE
from core.settings import Settings


def client(stack: Settings, local_address: str = "127.0.0.1") -> httpx.Client:
    """A visitor whose TCP connections come from `local_address`."""
    transport = httpx.HTTPTransport(local_address=local_address)
    return httpx.Client(base_url=stack.app_url, timeout=60, transport=transport)


def forwarded(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def login(api: httpx.Client, email: str, password: str, address: str,
          device: str | None = None, **headers: str) -> httpx.Response:
    """A login through the trusted proxy from `address`, with the browser's device cookie."""
    sent: dict[str, str | bytes] = {**forwarded(address), **headers}
    if device:
        # Passed by hand: the cookie is Secure and these requests are plain HTTP. Latin-1,
        # as a browser's raw bytes would reach the server.
        sent["Cookie"] = f"{DEVICE_COOKIE}={device}".encode("latin-1")
    return api.post("/api/v1/auth/login", headers=sent,
                    json={"email": email, "password": password})


def as_browser(address: str, device: str | None = None) -> dict[str, str | bytes]:
    """Headers of a browser behind the trusted proxy at `address`, with its device cookie."""
    sent: dict[str, str | bytes] = {**forwarded(address)}
    if device:
        sent["Cookie"] = f"{DEVICE_COOKIE}={device}".encode("latin-1")  # Secure: by hand
    return sent


def ask_reset(api: httpx.Client, email: str, address: str,
              device: str | None = None) -> httpx.Response:
    return api.post("/api/v1/auth/generateResetPasswordOTP", headers=as_browser(address, device),
                    json={"email": email})


def verify_reset(api: httpx.Client, email: str, otp: str, address: str,
                 device: str | None = None) -> httpx.Response:
    return api.post("/api/v1/auth/verifyResetPasswordOTP", headers=as_browser(address, device),
                    json={"email": email, "otp": otp})
