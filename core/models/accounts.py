"""Accounts and their credits (ledger, holds), users, sign-in sessions, codes and rate events."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    String,
)
from sqlalchemy.orm import Mapped, mapped_column

from core.enums import (
    AccountKind,
    ApiKeyMode,
    CodePurpose,
    HoldStatus,
    LedgerKind,
    SessionKind,
    UserRole,
)
from core.models.base import Base, enum_column, new_id, utcnow


class Account(Base):
    """Who owns credits and generations: a guest (by browser fingerprint) or, later, a user.

    The balance is kept beside the ledger and changed only together with a ledger entry, in the
    same transaction; `version` makes each change a compare-and-swap so concurrent charges
    cannot overspend on either SQLite or PostgreSQL.
    """

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    kind: Mapped[AccountKind] = mapped_column(
        enum_column(AccountKind, 16), default=AccountKind.GUEST
    )
    fingerprint: Mapped[str | None] = mapped_column(String(128), unique=True, nullable=True)
    distributor_id: Mapped[str] = mapped_column(String(64))
    free_credits: Mapped[int] = mapped_column(Integer, default=0)
    paid_credits: Mapped[int] = mapped_column(Integer, default=0)
    # Credits reserved by accepted generations not yet charged (pending CreditHolds): what a
    # new submit may spend is free + paid - held.
    held_credits: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class LedgerEntry(Base):
    """Append-only record of every credit movement; never updated or deleted."""

    __tablename__ = "credit_ledger"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    kind: Mapped[LedgerKind] = mapped_column(enum_column(LedgerKind, 16))
    delta_free: Mapped[int] = mapped_column(Integer)
    delta_paid: Mapped[int] = mapped_column(Integer)
    # What the movement is for, e.g. a generation id; refunds point at their charge's reference.
    reference: Mapped[str | None] = mapped_column(String(64), index=True, nullable=True)
    # Makes the movement idempotent: "charge:<generation>", "refund:<generation>:<task>", ...
    idempotency_key: Mapped[str] = mapped_column(String(160), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CreditHold(Base):
    """Credits reserved for one generation at submit, in the same transaction that records it.

    Two-phase, as payment ledgers do: the workflow's charge posts it (a ledger entry takes the
    credits and the hold is released), a generation that fails before its charge voids it.
    Holds are not movements: the ledger records only what was really taken or given.
    """

    __tablename__ = "credit_holds"

    # The generation's id: one hold per generation.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(Integer)
    status: Mapped[HoldStatus] = mapped_column(
        enum_column(HoldStatus, 16), default=HoldStatus.PENDING
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    settled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class User(Base):
    """A registered user. Their credits and generations live on `account_id`."""

    __tablename__ = "users"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    # Lower-cased, so "Ann@Example.com" and "ann@example.com" are one user.
    email: Mapped[str] = mapped_column(String(320), unique=True)
    name: Mapped[str] = mapped_column(String(128), default="")
    # Empty for users who only ever signed in with Google.
    password_hash: Mapped[str | None] = mapped_column(String(255), nullable=True)
    distributor_id: Mapped[str] = mapped_column(String(64))
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), unique=True)
    role: Mapped[UserRole] = mapped_column(
        enum_column(UserRole, 16), default=UserRole.USER, server_default=UserRole.USER.value
    )
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # An Indian buyer's GST registration (core/gst.py checks its form): copied onto
    # each order at checkout, so their invoices carry it.
    gstin: Mapped[str | None] = mapped_column(String(15), nullable=True)


class AuthSession(Base):
    """One server-side session, a user's or a guest browser's. Access tokens name it; logout,
    a password reset or the guest becoming a user revokes it for good."""

    __tablename__ = "auth_sessions"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    kind: Mapped[SessionKind] = mapped_column(
        enum_column(SessionKind, 16),
        default=SessionKind.USER,
        server_default=SessionKind.USER.value,
    )
    # Set for user sessions; guest sessions have only the account.
    user_id: Mapped[str | None] = mapped_column(ForeignKey("users.id"), index=True, nullable=True)
    account_id: Mapped[str | None] = mapped_column(
        ForeignKey("accounts.id"), index=True, nullable=True
    )
    # Hash of the long-lived refresh token that renews this session's access tokens.
    refresh_hash: Mapped[str] = mapped_column(String(128), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class OneTimeCode(Base):
    """A 6-digit code mailed for sign-up or password reset. Only its hash is kept."""

    __tablename__ = "one_time_codes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(320), index=True)
    purpose: Mapped[CodePurpose] = mapped_column(enum_column(CodePurpose, 16))
    code_hash: Mapped[str] = mapped_column(String(128))
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The known browser (device cookie id, core/auth/devices.py) that asked for the code; None
    # for any other browser. Codes and their wrong tries are kept apart per requester.
    device: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ApiKey(Base):
    """A secret a program sends as `Authorization: Bearer mm_live_...` on the public API. Only
    its sha256 is kept (the secret is shown once, at creation), with a visible prefix and its
    last four characters so a person can tell their keys apart."""

    __tablename__ = "api_keys"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    name: Mapped[str] = mapped_column(String(64))
    mode: Mapped[ApiKeyMode] = mapped_column(enum_column(ApiKeyMode, 8))
    prefix: Mapped[str] = mapped_column(String(24))
    last4: Mapped[str] = mapped_column(String(4))
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RateEvent(Base):
    """One attempt at a rate-limited action; counted over a sliding window. Kept in the
    database so the limit holds across API processes."""

    __tablename__ = "rate_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    bucket: Mapped[str] = mapped_column(String(200), index=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True
    )
