"""Webhook signatures in Stripe's documented scheme, for every provider that uses it.

Header `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "{t}.{payload}">` with the
webhook secret as the key. A delivery is accepted when one v1 matches (compared in constant
time) and its timestamp is within the tolerance of now (5 minutes), so an old captured delivery
cannot be replayed later. Checked on the raw bytes, before anything is parsed.
"""

from __future__ import annotations

import hashlib
import hmac
import time

from core.errors import Refused

SIGNATURE_HEADER = "Stripe-Signature"
TOLERANCE_SECONDS = 300
SCHEME = "v1"


class InvalidSignature(Refused):
    def __init__(self, detail: str) -> None:
        super().__init__(f"The webhook signature is not valid: {detail}.")


def compute(payload: bytes, secret: str, timestamp: int) -> str:
    signed = str(timestamp).encode() + b"." + payload
    return hmac.new(secret.encode(), signed, hashlib.sha256).hexdigest()


def sign(payload: bytes, secret: str, timestamp: int | None = None) -> str:
    """The Stripe-Signature header value for `payload`."""
    moment = int(time.time()) if timestamp is None else timestamp
    return f"t={moment},{SCHEME}={compute(payload, secret, moment)}"


def verify(
    payload: bytes,
    header: str | None,
    secret: str,
    tolerance: int = TOLERANCE_SECONDS,
    now: float | None = None,
) -> int:
    """Check the header against the raw payload; returns its timestamp, else InvalidSignature."""
    if not header:
        raise InvalidSignature("the Stripe-Signature header is missing")
    timestamp: int | None = None
    candidates: list[str] = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t":
            try:
                timestamp = int(value)
            except ValueError:
                raise InvalidSignature("its timestamp is not a number") from None
        elif key == SCHEME:
            candidates.append(value)
    if timestamp is None:
        raise InvalidSignature("it has no timestamp")
    if not candidates:
        raise InvalidSignature(f"it has no {SCHEME} signature")
    expected = compute(payload, secret, timestamp)
    if not any(hmac.compare_digest(expected, candidate) for candidate in candidates):
        raise InvalidSignature("it does not match the payload")
    current = time.time() if now is None else now
    if abs(current - timestamp) > tolerance:
        raise InvalidSignature("its timestamp is outside the tolerance")
    return timestamp
