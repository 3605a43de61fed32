"""The contact form: kept, mailed to support through the outbox, rate limited."""

from __future__ import annotations

from datetime import timedelta

from core import mail, ratelimit
from core.auth.emails import normalise_email
from core.db import SessionFactory
from core.enums import ContactTopic
from core.models.messages import ContactMessage
from core.settings import Settings

# Per address, and per email, in an hour: plenty for a person, little for a spammer.
CONTACT_LIMIT = (5, timedelta(hours=1))


def send_message(
    sessions: SessionFactory,
    settings: Settings,
    *,
    name: str,
    raw_email: str,
    topic: ContactTopic,
    message: str,
    address: str,
    account_id: str | None,
) -> int:
    """Keep the message and queue it for support; returns its id."""
    email = normalise_email(raw_email)
    count, window = CONTACT_LIMIT
    ratelimit.hit(sessions, [f"contact:ip:{address}", f"contact:email:{email}"], count, window)
    with sessions.begin() as session:
        row = ContactMessage(
            account_id=account_id,
            name=name.strip(),
            email=email,
            topic=topic,
            message=message.strip(),
        )
        session.add(row)
        session.flush()
        message_id = row.id
    mail.keep(
        sessions,
        mail.Mail(
            to=settings.support_email,
            subject=f"[{topic}] {name.strip()[:80]}",
            body=f"From: {name.strip()} <{email}>\nTopic: {topic}\n"
            f"Account: {account_id or 'not signed in'}\n\n{message.strip()}\n",
            kind="contact",
            dedupe_key=f"contact:{message_id}",
        ),
    )
    return message_id
