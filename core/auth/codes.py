"""One-time codes for sign-up and password reset: 6 digits, mailed, stored only as a keyed hash,
valid 10 minutes, at most 5 wrong attempts, used once.

Codes are kept per requester (issue 33 item 3). A code asked for from a browser the account is
known in (its device cookie, core/auth/devices.py) belongs to that browser: only it can spend
the code's wrong attempts, and a new code asked for elsewhere does not replace it. Codes asked
for from any other browser share one slot per email, as before. So a stranger who asks for
codes and burns them with wrong guesses only ever burns the strangers' slot, never the code
the owner's browser asked for. The owner's browser may also use a code from the shared slot
(the newest mail in the inbox may be one a stranger asked for): its wrong tries count on its
own code, never on the shared one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import ColumnElement, select, update
from sqlalchemy.orm import Session

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


def _requester(device: str | None) -> ColumnElement[bool]:
    return OneTimeCode.device.is_(None) if device is None else OneTimeCode.device == device


def _latest(session: Session, email: str, purpose: str, device: str | None) -> OneTimeCode | None:
    """The requester's newest unused code."""
    return session.execute(
        select(OneTimeCode)
        .where(
            OneTimeCode.email == email,
            OneTimeCode.purpose == purpose,
            OneTimeCode.used_at.is_(None),
            _requester(device),
        )
        .order_by(OneTimeCode.id.desc())
        .limit(1)
    ).scalar_one_or_none()


def issue(
    sessions: SessionFactory, secret: str, email: str, purpose: str, device: str | None = None
) -> IssuedCode:
    """A new code for (email, purpose) and the requester (`device`: a known browser's id, or
    None for any other); the requester's earlier unused codes stop working, others' do not."""
    now = utcnow()
    with sessions.begin() as session:
        latest = session.execute(
            select(OneTimeCode)
            .where(OneTimeCode.email == email, OneTimeCode.purpose == purpose,
                   _requester(device))
            .order_by(OneTimeCode.id.desc())
            .limit(1)
        ).scalar_one_or_none()
        if latest is not None and as_utc(latest.created_at) + RESEND_AFTER > now:
            wait = as_utc(latest.created_at) + RESEND_AFTER - now
            raise ResendTooSoon(max(1, int(wait.total_seconds())))
        session.execute(
            update(OneTimeCode)
            .where(
                OneTimeCode.email == email,
                OneTimeCode.purpose == purpose,
                OneTimeCode.used_at.is_(None),
                _requester(device),
            )
            .values(used_at=now)
        )
        code = f"{secrets.randbelow(1_000_000):06d}"
        row = OneTimeCode(
            email=email,
            purpose=purpose,
            code_hash=_digest(secret, email, purpose, code),
            expires_at=now + VALID_FOR,
            device=device,
        )
        session.add(row)
        session.flush()
        return IssuedCode(row.id, code)


def check(
    sessions: SessionFactory,
    secret: str,
    email: str,
    purpose: str,
    code: str,
    consume: bool,
    device: str | None = None,
) -> None:
    """Accept the code or raise CodeProblem. Every wrong try counts, on the requester's own
    code; `consume` uses it up (and every other open code of the email: the mailbox is proved)."""
    wrong = CodeProblem("The code is wrong or has expired. Please check it or ask for a new one.")
    burned = CodeProblem("Too many wrong codes. Please ask for a new code.")
    now = utcnow()
    digest = _digest(secret, email, purpose, code.strip())
    with sessions.begin() as session:
        own = _latest(session, email, purpose, device)
        # A known browser may also use the shared slot's code (see the module's note).
        shared = _latest(session, email, purpose, None) if device is not None else None
        live = [row for row in (own, shared) if row is not None and as_utc(row.expires_at) > now]
        if not live:
            raise wrong
        match = next((row for row in live if hmac.compare_digest(row.code_hash, digest)), None)
        # Every outcome is one conditional UPDATE: concurrent tries cannot all read "4 wrong so
        # far" and each add one; the database counts, and refuses once the count is reached.
        if match is None:
            counted = 1
            if own is not None and own in live:
                counted = session.execute(
                    update(OneTimeCode)
                    .where(OneTimeCode.id == own.id, OneTimeCode.attempts < MAX_ATTEMPTS)
                    .values(attempts=OneTimeCode.attempts + 1)
                ).rowcount  # type: ignore[attr-defined]
            # Committed as the block ends; the refusal is raised after it.
        else:
            still_valid = update(OneTimeCode).where(
                OneTimeCode.id == match.id, OneTimeCode.used_at.is_(None)
            )
            if match is own:
                # The strangers' wrong tries on the shared code do not bind a known browser.
                still_valid = still_valid.where(OneTimeCode.attempts < MAX_ATTEMPTS)
            if consume:
                accepted = session.execute(still_valid.values(used_at=now)).rowcount  # type: ignore[attr-defined]
                if accepted:
                    session.execute(
                        update(OneTimeCode)
                        .where(OneTimeCode.email == email, OneTimeCode.purpose == purpose,
                               OneTimeCode.used_at.is_(None))
                        .values(used_at=now)
                    )
            else:
                accepted = session.execute(
                    still_valid.values(attempts=OneTimeCode.attempts)
                ).rowcount  # type: ignore[attr-defined]
            if not accepted:
                raise burned
    if match is None:
        if not counted:
            raise burned
        raise wrong
