"""One-time codes for sign-up and password reset: 6 digits, mailed, stored only as a keyed hash,
valid 10 minutes, at most 5 wrong attempts, used once."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import select, update

from core.db import SessionFactory
from core.errors import DomainError, Refused
from core.models.accounts import OneTimeCode
from core.models.base import as_utc, utcnow

VALID_FOR = timedelta(minutes=10)
MAX_ATTEMPTS = 5
RESEND_AFTER = timedelta(seconds=60)


class CodeProblem(Refused):
    """The code cannot be accepted; the message is for the user."""


class ResendTooSoon(DomainError):
    def __init__(self, seconds: int) -> None:
        super().__init__(f"A code was sent moments ago; you can ask again in {seconds} seconds.")
        self.seconds = seconds


def _digest(secret: str, email: str, purpose: str, code: str) -> str:
    message = f"{purpose}:{email}:{code}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class IssuedCode:
    id: int
    code: str


def issue(sessions: SessionFactory, secret: str, email: str, purpose: str) -> IssuedCode:
    """A new code for (email, purpose); earlier unused ones stop working."""
    now = utcnow()
    with sessions.begin() as session:
        latest = session.execute(
            select(OneTimeCode)
            .where(OneTimeCode.email == email, OneTimeCode.purpose == purpose)
            .order_by(OneTimeCode.id.desc())
            .limit(1)
        ).scalar_one_or_none()
        if latest is not None and as_utc(latest.created_at) + RESEND_AFTER > now:
            wait = as_utc(latest.created_at) + RESEND_AFTER - now
            raise ResendTooSoon(max(1, int(wait.total_seconds())))
        for old in session.execute(
            select(OneTimeCode).where(
                OneTimeCode.email == email,
                OneTimeCode.purpose == purpose,
                OneTimeCode.used_at.is_(None),
            )
        ).scalars():
            old.used_at = now
        code = f"{secrets.randbelow(1_000_000):06d}"
        row = OneTimeCode(
            email=email,
            purpose=purpose,
            code_hash=_digest(secret, email, purpose, code),
            expires_at=now + VALID_FOR,
        )
        session.add(row)
        session.flush()
        return IssuedCode(row.id, code)


def check(
    sessions: SessionFactory, secret: str, email: str, purpose: str, code: str, consume: bool
) -> None:
    """Accept the code or raise CodeProblem. Every wrong try counts; `consume` uses it up."""
    wrong = CodeProblem("The code is wrong or has expired. Please check it or ask for a new one.")
    now = utcnow()
    with sessions.begin() as session:
        row = session.execute(
            select(OneTimeCode)
            .where(
                OneTimeCode.email == email,
                OneTimeCode.purpose == purpose,
                OneTimeCode.used_at.is_(None),
            )
            .order_by(OneTimeCode.id.desc())
            .limit(1)
        ).scalar_one_or_none()
        if row is None or as_utc(row.expires_at) <= now:
            raise wrong
        matches = hmac.compare_digest(row.code_hash, _digest(secret, email, purpose, code.strip()))
        # Every outcome is one conditional UPDATE: concurrent tries cannot all read "4 wrong so
        # far" and each add one; the database counts, and refuses once the count is reached.
        if not matches:
            counted = session.execute(
                update(OneTimeCode)
                .where(OneTimeCode.id == row.id, OneTimeCode.attempts < MAX_ATTEMPTS)
                .values(attempts=OneTimeCode.attempts + 1)
            ).rowcount  # type: ignore[attr-defined]
            # Committed as the block ends; the refusal is raised after it.
        else:
            still_valid = update(OneTimeCode).where(
                OneTimeCode.id == row.id,
                OneTimeCode.attempts < MAX_ATTEMPTS,
                OneTimeCode.used_at.is_(None),
            )
            if consume:
                accepted = session.execute(still_valid.values(used_at=now)).rowcount  # type: ignore[attr-defined]
            else:
                accepted = session.execute(
                    still_valid.values(attempts=OneTimeCode.attempts)
                ).rowcount  # type: ignore[attr-defined]
            if not accepted:
                raise CodeProblem("Too many wrong codes. Please ask for a new code.")
    if not matches:
        if not counted:
            raise CodeProblem("Too many wrong codes. Please ask for a new code.")
        raise wrong
