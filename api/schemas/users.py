"""Bodies of the account, its credits and their usage (api/routers/users.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import Credits, Schema
from api.validation import PasswordText


class UserUpdateBody(Schema):
    """What the user changes; a field left out stays as it is."""

    name: str | None = Field(default=None, min_length=1, max_length=128)
    gstin: str | None = Field(
        default=None, max_length=32,
        description="An Indian business's GST registration (15 characters, e.g. "
        "27AAPFU0939F1ZV), put on the invoices of later purchases; empty removes it.",
    )  # fmt: skip


class PasswordUpdateBody(Schema):
    currentPassword: str = Field(min_length=1, max_length=1024)
    newPassword: PasswordText


class CreditsAvailable(Schema):
    creditsAvailable: Credits


class CreditUsageDay(Schema):
    """One UTC day's credit movements: spent on images, refunded, granted free or paid."""

    date: str
    spent: int
    refunded: int
    grantedFree: int
    grantedPaid: int


class CreditLedgerEntry(Schema):
    """One movement of the ledger: deltas are signed (a charge is negative)."""

    id: int
    createdAt: str
    # grant (free credits), charge (images), refund, purchase (paid credits)
    kind: str
    deltaFree: int
    deltaPaid: int
    delta: int
    reference: str | None = None
    description: str


class CreditLedgerPage(Schema):
    """The ledger entries of the range, newest first, one page."""

    items: list[CreditLedgerEntry]
    total: int
    pageNum: int
    pageSize: int


class CreditUsage(Schema):
    fromDate: str
    toDate: str
    # Spent less refunded over the range.
    totalSpent: int
    days: list[CreditUsageDay]
    entries: CreditLedgerPage
