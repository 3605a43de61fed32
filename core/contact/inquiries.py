"""Enterprise (demo) inquiries: checked with the spec's rules, kept, mailed to sales through
the outbox, rate limited per client address."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from core import mail, ratelimit
from core.auth.emails import EMAIL
from core.db import SessionFactory
from core.errors import InvalidInput
from core.models.messages import EnterpriseInquiry
from core.settings import Settings

# Per address in an hour: plenty for a company filling the form, little for a spammer.
INQUIRY_LIMIT = (5, timedelta(hours=1))
REQUIRED = "This field is required"
DIGITS_ONLY = "Only numbers are allowed"
MAX_LENGTHS = {"name": 128, "contact": 20, "email": 320, "organization": 200, "identifier": 128}


@dataclass(frozen=True)
class Inquiry:
    name: str
    contact: str
    email: str
    organization: str
    identifier: str


def checked(raw: Inquiry) -> Inquiry:
    """The inquiry trimmed, or InvalidInput naming every field that breaks a rule (the spec's
    messages: every field required; contact digits only)."""
    values = {field: getattr(raw, field).strip() for field in MAX_LENGTHS}
    problems: list[str] = []
    for field, value in values.items():
        if not value:
            problems.append(f"{field}: {REQUIRED}")
        elif len(value) > MAX_LENGTHS[field]:
            problems.append(f"{field}: At most {MAX_LENGTHS[field]} characters")
        elif field == "contact" and not (value.isascii() and value.isdigit()):
            problems.append(f"{field}: {DIGITS_ONLY}")
        elif field == "email" and not EMAIL.match(value):
            problems.append(f"{field}: Please enter correct email")
    if problems:
        raise InvalidInput("; ".join(problems))
    return Inquiry(**values)


def submit_inquiry(
    sessions: SessionFactory,
    settings: Settings,
    raw: Inquiry,
    *,
    address: str,
    account_id: str | None,
) -> int:
    """Keep the inquiry and queue it for sales; returns its id."""
    inquiry = checked(raw)
    count, window = INQUIRY_LIMIT
    ratelimit.hit(sessions, [f"inquiry:ip:{ratelimit.address_key(address)}"], count, window)
    with sessions.begin() as session:
        row = EnterpriseInquiry(
            account_id=account_id,
            name=inquiry.name,
            contact=inquiry.contact,
            email=inquiry.email.lower(),
            organization=inquiry.organization,
            identifier=inquiry.identifier,
        )
        session.add(row)
        session.flush()
        inquiry_id = row.id
    mail.keep(
        sessions,
        mail.Mail(
            to=settings.sales_email,
            subject=f"[enterprise] {inquiry.organization[:80]}: {inquiry.name[:60]}",
            body=(
                f"Name: {inquiry.name}\nEmail: {inquiry.email.lower()}\n"
                f"Contact: {inquiry.contact}\nOrganization: {inquiry.organization}\n"
                f"From: {inquiry.identifier}\nAccount: {account_id or 'not signed in'}\n"
            ),
            kind="inquiry",
            dedupe_key=f"inquiry:{inquiry_id}",
        ),
    )
    return inquiry_id
