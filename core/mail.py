"""Outgoing mail: every message is kept in the outbox; it goes out over SMTP when configured,
otherwise it is written to the log (so `make run` works without a mail server)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.message import EmailMessage

import aiosmtplib
from anyio import to_thread
from sqlalchemy import update
from sqlalchemy.exc import IntegrityError

from core.db import SessionFactory
from core.models import OutboxMessage, utcnow
from core.settings import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str
    kind: str
    dedupe_key: str


def keep(sessions: SessionFactory, mail: Mail) -> int | None:
    """Put the mail in the outbox once per dedupe key; returns its id (None if already there)."""
    try:
        with sessions.begin() as session:
            row = OutboxMessage(
                kind=mail.kind,
                to_address=mail.to,
                subject=mail.subject,
                body=mail.body,
                dedupe_key=mail.dedupe_key,
            )
            session.add(row)
            session.flush()
            return row.id
    except IntegrityError:
        return None


async def deliver(settings: Settings, sessions: SessionFactory, mail: Mail, outbox_id: int) -> bool:
    """Send over SMTP when configured; mark the outbox row sent. Returns True if sent."""
    if not settings.smtp_host:
        log.warning("mail (no SMTP configured) to %s: %s\n%s", mail.to, mail.subject, mail.body)
        return False
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = mail.to
    message["Subject"] = mail.subject
    message.set_content(mail.body)
    try:
        await aiosmtplib.send(
            message,
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_username or None,
            password=settings.smtp_password or None,
            start_tls=settings.smtp_starttls,
            timeout=15,
        )
    except (aiosmtplib.SMTPException, OSError):
        log.exception("could not send mail to %s; it stays in the outbox", mail.to)
        return False
    await to_thread.run_sync(_mark_sent, sessions, outbox_id)
    return True


def _mark_sent(sessions: SessionFactory, outbox_id: int) -> None:
    with sessions.begin() as session:
        session.execute(
            update(OutboxMessage).where(OutboxMessage.id == outbox_id).values(sent_at=utcnow())
        )
