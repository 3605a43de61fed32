"""Email addresses as account keys: trimmed, lower-cased, and plausibly shaped."""

from __future__ import annotations

import re

from core.errors import InvalidInput

EMAIL = re.compile(r"^[^\s@]+@[^\s@]+\.[^\s@]+$")
BAD_EMAIL = "Please enter correct email"


def normalise_email(raw: str) -> str:
    """The account key for an address ("Ann@Example.com " and "ann@example.com" are one user);
    InvalidInput with the spec's message when it is not an email address."""
    email = raw.strip().lower()
    if not EMAIL.match(email) or "\x00" in email:
        raise InvalidInput(BAD_EMAIL)
    return email


def is_email(raw: str) -> bool:
    return bool(EMAIL.match(raw.strip())) and "\x00" not in raw
