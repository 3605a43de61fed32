"""Outgoing mail: one writer, one relay.

Every message is first kept in the outbox (`keep` here, `jobs.queue_completion_mail` for the
completion mail). Only the relay functions below send, over SMTP when SMTP_HOST is set, or to
the log otherwise (so `make run` works without a mail server). The mail relay workflow runs
`relay_due` every few seconds; the API calls `send_now` right after keeping a code, because the
person is waiting for it. Both claim a row before sending it, so it goes out once however many
senders run.

A failed send is recorded on its row (attempts, last_error) and tried again later, each wait
twice the one before, until `mail_max_attempts`; then the relay gives up and says so in the log.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage

from sqlalchemy import ColumnElement, or_, select, update
from sqlalchemy.exc import IntegrityError

from core.db import SessionFactory
from core.models.base import utcnow
from core.models.messages import OutboxMessage
from core.settings import Settings

log = logging.getLogger(__name__)

SMTP_TIMEOUT_SECONDS = 15
# How long a claimed row is left to its sender. Longer than a send can take (connect, TLS and
# data, each bounded by the timeout), so a slow send is never claimed again mid-way; if the
# sender dies, the row is due again after this.
CLAIM_LEASE = timedelta(seconds=4 * SMTP_TIMEOUT_SECONDS)
# Keeps a relay run short; what is left waits for the next run a few seconds later.
RELAY_BATCH = 100


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str
    kind: str
    dedupe_key: str


@dataclass(frozen=True)
class RelayReport:
    sent: int = 0
    failed: int = 0


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


def send_now(settings: Settings, sessions: SessionFactory, outbox_id: int) -> bool:
    """Send one kept message at once if no one else has it. True if it went out; a failure is
    recorded and left to the relay."""
    return _claim(settings, sessions, outbox_id) and _send_claimed(settings, sessions, outbox_id)


def relay_due(
    settings: Settings,
    sessions: SessionFactory,
    budget: timedelta | None = None,
    on_each: Callable[[], object] | None = None,
) -> RelayReport:
    """Send due messages (oldest first, at most RELAY_BATCH) that this relay can claim.

    With a budget, no new message is claimed once it is spent; `on_each` is called after each
    message (the activity's heartbeat)."""
    now = utcnow()
    stop_at = now + budget if budget is not None else None
    with sessions() as session:
        due = list(
            session.execute(
                select(OutboxMessage.id)
                .where(_is_due(settings, now))
                .order_by(OutboxMessage.id)
                .limit(RELAY_BATCH)
            ).scalars()
        )
    sent = failed = 0
    for outbox_id in due:
        if stop_at is not None and utcnow() >= stop_at:
            break
        # Another relay (or the API) may have taken it since the select: the claim decides.
        if not _claim(settings, sessions, outbox_id):
            continue
        if _send_claimed(settings, sessions, outbox_id):
            sent += 1
        else:
            failed += 1
        if on_each is not None:
            on_each()
    return RelayReport(sent=sent, failed=failed)


def retry_delay(settings: Settings, attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed send: doubling from the base, capped."""
    seconds = settings.mail_retry_base_seconds * 2 ** max(0, attempts - 1)
    return timedelta(seconds=min(seconds, settings.mail_retry_max_seconds))


def _is_due(settings: Settings, now: datetime) -> ColumnElement[bool]:
    return (
        OutboxMessage.sent_at.is_(None)
        & (OutboxMessage.attempts < settings.mail_max_attempts)
        # Stale news is not sent at all: a code long expired, or the completion mails kept
        # (and never sent) before there was a relay, which would otherwise all go out at once.
        & (OutboxMessage.created_at >= now - timedelta(hours=settings.mail_max_age_hours))
        & or_(OutboxMessage.next_attempt_at.is_(None), OutboxMessage.next_attempt_at <= now)
    )


def _claim(settings: Settings, sessions: SessionFactory, outbox_id: int) -> bool:
    """Take the row for one attempt: a single conditional update, so of two senders at once
    exactly one matches (PostgreSQL re-checks the condition on the row the other one wrote;
    SQLite runs one writer at a time). The attempt is counted now, so a sender that dies
    mid-send still uses one up."""
    now = utcnow()
    with sessions.begin() as session:
        claimed = session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == outbox_id, _is_due(settings, now))
            .values(attempts=OutboxMessage.attempts + 1, next_attempt_at=now + CLAIM_LEASE)
            .execution_options(synchronize_session=False)
        )
        return bool(claimed.rowcount == 1)  # type: ignore[attr-defined]


def _send_claimed(settings: Settings, sessions: SessionFactory, outbox_id: int) -> bool:
    with sessions() as session:
        row = session.get(OutboxMessage, outbox_id)
        if row is None:
            return False
        to, subject, body, attempts = row.to_address, row.subject, row.body, row.attempts
    try:
        _transmit(settings, to, subject, body)
    # Whatever went wrong (refused connection, timeout, a 4xx/5xx answer, a bad address) is one
    # failed attempt, recorded on the row, never a row left claimed.
    except Exception as error:
        _record_failure(settings, sessions, outbox_id, attempts, to, error)
        return False
    with sessions.begin() as session:
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == outbox_id)
            .values(sent_at=utcnow(), next_attempt_at=None)
            .execution_options(synchronize_session=False)
        )
    return True


def _transmit(settings: Settings, to: str, subject: str, body: str) -> None:
    if not settings.smtp_host:
        log.warning("mail (no SMTP configured) to %s: %s\n%s", to, subject, body)
        return
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = to
    message["Subject"] = subject
    message.set_content(body)
    with smtplib.SMTP(
        settings.smtp_host, settings.smtp_port, timeout=SMTP_TIMEOUT_SECONDS
    ) as smtp:
        if settings.smtp_starttls:
            smtp.starttls()
        if settings.smtp_username:
            smtp.login(settings.smtp_username, settings.smtp_password)
        smtp.send_message(message)


def _record_failure(
    settings: Settings,
    sessions: SessionFactory,
    outbox_id: int,
    attempts: int,
    to: str,
    error: Exception,
) -> None:
    reason = f"{type(error).__name__}: {error}"[:2000]
    give_up = attempts >= settings.mail_max_attempts
    with sessions.begin() as session:
        session.execute(
            update(OutboxMessage)
            .where(OutboxMessage.id == outbox_id)
            .values(
                last_error=reason,
                next_attempt_at=None if give_up else utcnow() + retry_delay(settings, attempts),
            )
            .execution_options(synchronize_session=False)
        )
    if give_up:
        log.error(
            "gave up on mail %s to %s after %d attempts: %s", outbox_id, to, attempts, reason
        )
    else:
        log.warning(
            "could not send mail %s to %s (attempt %d): %s", outbox_id, to, attempts, reason
        )
