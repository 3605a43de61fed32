"""Browsers that have signed in to an account before: OWASP's "device cookie".

A successful sign-in (password, Google, sign-up, or a password reset by mailed code) gives the
browser a cookie naming a random device id, signed together with the account's email. A login
that brings a valid one for the email it names is the owner's known browser: its attempts are
counted against that device alone, never against the per-email ceiling that guesses from
unknown browsers fill. So an attacker spreading guesses over many addresses can slow guessing
down (the ceiling still stops them) but cannot lock the owner out of a browser they have used;
a new browser gets back in by resetting the password, which proves the mailbox and gives the
browser its cookie.

The cookie is not a session: it grants nothing by itself, survives logout, and a stolen one only
buys its holder the same ten tries per window as the owner's browser has.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

DEVICE_COOKIE = "mm_device"
DEVICE_COOKIE_SECONDS = 365 * 24 * 3600
_PURPOSE = b"login-device-cookie:"


def _signature(secret: str, device_id: str, email: str) -> str:
    message = f"{device_id}:{email}".encode()
    return hmac.new(_PURPOSE + secret.encode(), message, hashlib.sha256).hexdigest()[:32]


def issue_device_cookie(secret: str, email: str) -> str:
    """A new device cookie for a browser that has just proved it knows the account."""
    device_id = secrets.token_urlsafe(16)
    return f"{device_id}.{_signature(secret, device_id, email)}"


def known_device(secret: str, cookie: str | None, email: str) -> str | None:
    """The device id when `cookie` is a device cookie this server signed for `email`, else
    None (absent, malformed, forged, or signed for another email)."""
    if not cookie or len(cookie) > 128 or not cookie.isascii():
        return None  # compare_digest takes ASCII text only
    device_id, _, signature = cookie.partition(".")
    if not device_id or not signature:
        return None
    if not hmac.compare_digest(signature, _signature(secret, device_id, email)):
        return None
    return device_id
