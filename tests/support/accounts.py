"""Users made through the real sign-up, reading the mailed code from the outbox (the stacks in
these tests have no SMTP server, so mail is kept there)."""

from __future__ import annotations

import re

import httpx
from sqlalchemy import select

from core.db import SessionFactory
from core.models.messages import OutboxMessage

PASSWORD = "Test-pass-123"


def mailed_code(db: SessionFactory, email: str, kind: str = "signup-code") -> str:
    """The 6-digit code in the latest mail of `kind` to `email`."""
    with db() as session:
        subject = session.execute(
            select(OutboxMessage.subject)
            .where(OutboxMessage.to_address == email, OutboxMessage.kind == kind)
            .order_by(OutboxMessage.id.desc())
        ).scalars().first()
    code = re.search(r"\b(\d{6})\b", subject or "")
    assert code is not None, f"no {kind} mailed to {email}"
    return code.group(1)


def sign_up(
    api: httpx.Client,
    db: SessionFactory,
    email: str,
    headers: dict[str, str] | None = None,
    password: str = PASSWORD,
) -> str:
    """Sign up with the mailed code; the new session's access token."""
    headers = headers or {}
    sent = api.post("/api/v1/auth/generateSignupOTP", json={"email": email}, headers=headers)
    assert sent.status_code == 200, sent.text
    created = api.post("/api/v1/auth/signup", headers=headers, json={
        "email": email, "otp": mailed_code(db, email), "name": "Tester", "password": password})
    assert created.status_code == 200, created.text
    token: str = created.json()["data"]["token"]
    return token
