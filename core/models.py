"""Table models. Request/response schemas live in api/schemas.py, not here."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
    true,
)
from sqlalchemy import (
    Enum as SqlEnum,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from core.engine import NOTE_LIMIT
from core.enums import (
    AccountKind,
    CatalogKind,
    CatalogVisibility,
    CodePurpose,
    ContactTopic,
    Currency,
    GenerationStatus,
    HoldStatus,
    LedgerKind,
    OrderStatus,
    PlanKind,
    RateInterval,
    Rating,
    Service,
    SessionKind,
    SubscriptionStatus,
    UserRole,
)

E = TypeVar("E", bound=StrEnum)


def enum_column(enum: type[E], length: int) -> SqlEnum:
    """A StrEnum column: stored as the member's value in a VARCHAR(length), exactly as the
    String column it replaced (no database enum type, no CHECK constraint, so adding a member
    needs no migration), and read back as the enum."""
    return SqlEnum(
        enum,
        native_enum=False,
        create_constraint=False,
        length=length,
        validate_strings=True,
        # The values ("guest"), not SQLAlchemy's default of the names ("GUEST").
        values_callable=lambda members: [member.value for member in members],
    )


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything we store is UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def new_id() -> str:
    return uuid.uuid4().hex


class Base(DeclarativeBase):
    pass


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


class UploadedFile(Base):
    """An object the browser uploaded through a presigned URL."""

    __tablename__ = "files"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    key: Mapped[str] = mapped_column(String(512), unique=True)
    filename: Mapped[str] = mapped_column(String(255))
    mime_type: Mapped[str] = mapped_column(String(64))
    request_type: Mapped[str] = mapped_column(String(32))
    thumbnail_key: Mapped[str | None] = mapped_column(String(512), nullable=True)
    width: Mapped[int | None] = mapped_column(Integer, nullable=True)
    height: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # What the photo shows and can become (core/photo_analysis.py), once the imaging queue
    # has analysed it; None before.
    analysis: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CatalogItem(Base):
    """Digital models, backgrounds and sample inputs offered to every user."""

    __tablename__ = "catalog_items"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[CatalogKind] = mapped_column(enum_column(CatalogKind, 16), index=True)
    name: Mapped[str] = mapped_column(String(128))
    category: Mapped[str] = mapped_column(String(64), default="")
    visibility: Mapped[CatalogVisibility] = mapped_column(
        enum_column(CatalogVisibility, 16), default=CatalogVisibility.PUBLIC
    )
    # Built-in backgrounds (transparent, white) are rendered by the engine, not read from a key.
    builtin: Mapped[bool] = mapped_column(Boolean, default=False)
    key: Mapped[str] = mapped_column(String(512))
    thumbnail_key: Mapped[str] = mapped_column(String(512))
    sort: Mapped[int] = mapped_column(Integer, default=0)
    # Only published items are offered in the pickers. Seeded items are published; an
    # operator's upload starts unpublished (core/catalog_admin.py).
    published: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CatalogTombstone(Base):
    """A catalog item an operator deleted: the seed (ops/seed.py) never adds it back."""

    __tablename__ = "catalog_tombstones"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[CatalogKind] = mapped_column(enum_column(CatalogKind, 16))
    deleted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Generation(Base):
    """One submit: a "service" in /imageedit, a "request" in /api/v1. Its id is the workflow id."""

    __tablename__ = "generations"
    __table_args__ = (UniqueConstraint("account_id", "idempotency_key"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    service: Mapped[Service] = mapped_column(enum_column(Service, 32))
    status: Mapped[GenerationStatus] = mapped_column(
        enum_column(GenerationStatus, 16), default=GenerationStatus.QUEUED
    )
    model_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    background_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    credits: Mapped[int] = mapped_column(Integer)
    distributor_id: Mapped[str] = mapped_column(String(64))
    fingerprint: Mapped[str | None] = mapped_column(String(128), nullable=True)
    guest_email: Mapped[str | None] = mapped_column(String(320), nullable=True)
    idempotency_key: Mapped[str | None] = mapped_column(String(128), nullable=True)
    # Digest of what was asked (service, choices, inputs): the same idempotency key with a
    # different request is refused instead of silently answered with the first generation.
    request_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # When its workflow was known to be started; a generation queued without one for long is
    # started (or failed) by the sweeper.
    workflow_started_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The trace of the request that submitted it (32 hex digits): `python -m ops.trace`.
    trace_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
    completed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Deleted by its owner: its images are gone from storage, the row stays for the ledger.
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Task(Base):
    """One input image of a generation and its output."""

    __tablename__ = "tasks"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    generation_id: Mapped[str] = mapped_column(ForeignKey("generations.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    input_key: Mapped[str] = mapped_column(String(512))
    # Size and ETag of the input as it was checked at submit: the imaging step refuses an
    # object that changed since (a presigned URL could otherwise swap in something else).
    input_size: Mapped[int | None] = mapped_column(Integer, nullable=True)
    input_etag: Mapped[str | None] = mapped_column(String(128), nullable=True)
    # The type the input was found to be (whatever the uploader claimed); served with it.
    input_mime: Mapped[str | None] = mapped_column(String(32), nullable=True)
    status: Mapped[GenerationStatus] = mapped_column(
        enum_column(GenerationStatus, 16), default=GenerationStatus.QUEUED
    )
    progress: Mapped[int] = mapped_column(Integer, default=0)
    stage: Mapped[str] = mapped_column(String(64), default="queued")
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    # The engine's note on a delivered image, for the customer (core.engine.add_note).
    note: Mapped[str | None] = mapped_column(String(NOTE_LIMIT), nullable=True)
    output_key: Mapped[str | None] = mapped_column(String(512), nullable=True)
    output_thumbnail_key: Mapped[str | None] = mapped_column(String(512), nullable=True)
    # The owner agreed to show this input/output pair in the public showcase ...
    shared_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # ... and an operator picked it (only shared pairs can be picked).
    showcased_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # A retouched version an operator attached to the output.
    edited_key: Mapped[str | None] = mapped_column(String(512), nullable=True)
    edited_thumbnail_key: Mapped[str | None] = mapped_column(String(512), nullable=True)
    edited_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # A re-render with the user's placement adjustment (core/rerender.py): the task whose
    # input it renders again, and the move (fractions of the frame) and scale the user chose.
    source_task_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    placement_x: Mapped[float | None] = mapped_column(Float, nullable=True)
    placement_y: Mapped[float | None] = mapped_column(Float, nullable=True)
    placement_scale: Mapped[float | None] = mapped_column(Float, nullable=True)
    # On a source task: how many re-renders were asked of it (bounded: they are free).
    rerenders: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )


class OutboxMessage(Base):
    """Mail waiting to be sent; without SMTP settings it is logged and kept here."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(32))
    to_address: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(String(255))
    body: Mapped[str] = mapped_column(Text)
    dedupe_key: Mapped[str] = mapped_column(String(160), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # Delivery attempts by the relay, the last failure, and when to try again.
    attempts: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    next_attempt_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )


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


class RateEvent(Base):
    """One attempt at a rate-limited action; counted over a sliding window. Kept in the
    database so the limit holds across API processes."""

    __tablename__ = "rate_events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    bucket: Mapped[str] = mapped_column(String(200), index=True)
    created_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, index=True
    )


class ImageFeedback(Base):
    """A user's thumbs up or down on one generated image, with an optional comment; one per
    image and account, editable."""

    __tablename__ = "image_feedback"
    __table_args__ = (UniqueConstraint("task_id", "account_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    task_id: Mapped[str] = mapped_column(ForeignKey("tasks.id"), index=True)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    rating: Mapped[Rating] = mapped_column(enum_column(Rating, 8))
    comment: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )


class ContactMessage(Base):
    """A message from the contact form; also mailed to support through the outbox."""

    __tablename__ = "contact_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(128))
    email: Mapped[str] = mapped_column(String(320))
    topic: Mapped[ContactTopic] = mapped_column(enum_column(ContactTopic, 32))
    message: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Plan(Base):
    """One plan of the pricing catalogue, in one currency and one catalogue version
    (`planVersion`; the seed writes the current one, ops/seed_plans.py). Orders copy what they
    sell, so a plan changed later never changes an order."""

    __tablename__ = "plans"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    version: Mapped[int] = mapped_column(Integer, index=True)
    # The same plan across currencies and versions, e.g. "pro".
    code: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(128))
    kind: Mapped[PlanKind] = mapped_column(enum_column(PlanKind, 16))
    currency: Mapped[Currency] = mapped_column(enum_column(Currency, 3))
    feature_list: Mapped[list[str]] = mapped_column(JSON, default=list)
    sort: Mapped[int] = mapped_column(Integer, default=0)
    active: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlanRate(Base):
    """A price of a plan (`rateInfo`): its id is the `rateCode`, the value is in minor units."""

    __tablename__ = "plan_rates"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    plan_id: Mapped[str] = mapped_column(ForeignKey("plans.id"), index=True)
    value: Mapped[int] = mapped_column(Integer)
    interval: Mapped[RateInterval] = mapped_column(enum_column(RateInterval, 16))
    credits: Mapped[int] = mapped_column(Integer)
    sort: Mapped[int] = mapped_column(Integer, default=0)


class Order(Base):
    """One checkout by a signed-in user: what was sold at what price (copied from the plan),
    the provider's checkout session, and where it stands. Paid means the credits are granted."""

    __tablename__ = "orders"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    plan_id: Mapped[str] = mapped_column(ForeignKey("plans.id"))
    rate_code: Mapped[str] = mapped_column(String(64))
    plan_name: Mapped[str] = mapped_column(String(128))
    kind: Mapped[PlanKind] = mapped_column(enum_column(PlanKind, 16))
    interval: Mapped[RateInterval] = mapped_column(enum_column(RateInterval, 16))
    amount: Mapped[int] = mapped_column(Integer)  # minor units
    currency: Mapped[Currency] = mapped_column(enum_column(Currency, 3))
    credits: Mapped[int] = mapped_column(Integer)
    status: Mapped[OrderStatus] = mapped_column(
        enum_column(OrderStatus, 16), default=OrderStatus.PENDING
    )
    provider: Mapped[str] = mapped_column(String(16))
    provider_session_id: Mapped[str | None] = mapped_column(
        String(128), unique=True, nullable=True
    )
    # The provider's payment (a payment intent), once it reported one.
    provider_payment_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    failure_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Where the web app goes after a success (a path of our own site).
    redirect_by: Mapped[str | None] = mapped_column(String(512), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
    paid_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # The card (a test card's token with the local provider, a provider's payment method id
    # otherwise) the checkout was paid with: a monthly plan's card on file.
    payment_method: Mapped[str | None] = mapped_column(String(128), nullable=True)
    # A subscription's payment: the checkout order is its period 1, each renewal (or upgrade)
    # is an order of its own (core.billing.subscription_steps.record_period_payment).
    subscription_id: Mapped[str | None] = mapped_column(String(32), index=True, nullable=True)
    subscription_period: Mapped[int | None] = mapped_column(Integer, nullable=True)


class Subscription(Base):
    """A monthly plan bought by a user: the row the API reads. Its life (periods, renewals,
    dunning, cancel) is owned by its Temporal workflow `subscription-{id}`, which writes the
    status and the period here (workflows/subscription.py). At most one live (active or
    past_due) subscription per user."""

    __tablename__ = "subscriptions"
    __table_args__ = (
        Index(
            "uq_subscriptions_live_user",
            "user_id",
            unique=True,
            sqlite_where=text("status != 'canceled'"),
            postgresql_where=text("status != 'canceled'"),
        ),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"), index=True)
    # The checkout order that started it (its period 1): one subscription per order.
    order_id: Mapped[str] = mapped_column(ForeignKey("orders.id"), unique=True)
    provider: Mapped[str] = mapped_column(String(16))
    # The provider's own subscription (Stripe's sub_...); None with the local provider.
    provider_subscription_id: Mapped[str | None] = mapped_column(
        String(128), unique=True, nullable=True
    )
    # The card on file the local provider charges each period.
    payment_method: Mapped[str | None] = mapped_column(String(128), nullable=True)
    plan_id: Mapped[str] = mapped_column(ForeignKey("plans.id"))
    rate_code: Mapped[str] = mapped_column(String(64))
    plan_name: Mapped[str] = mapped_column(String(128))
    currency: Mapped[Currency] = mapped_column(enum_column(Currency, 3))
    amount: Mapped[int] = mapped_column(Integer)  # minor units, per period
    credits: Mapped[int] = mapped_column(Integer)  # per period
    status: Mapped[SubscriptionStatus] = mapped_column(enum_column(SubscriptionStatus, 16))
    period: Mapped[int] = mapped_column(Integer, default=1)  # the current period's number
    current_period_start: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    current_period_end: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    cancel_at_period_end: Mapped[bool] = mapped_column(Boolean, default=False)
    # A downgrade waiting for the period end.
    pending_plan_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    pending_rate_code: Mapped[str | None] = mapped_column(String(64), nullable=True)
    failure_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
    )
    canceled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class InvoiceNumber(Base):
    """The running number of each invoice issued: assigned once per payment, the first time its
    invoice is asked for, one more than the last (a unique `number`, so two payments asking at
    once never share one: the loser takes the next)."""

    __tablename__ = "invoice_numbers"

    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    payment_id: Mapped[str] = mapped_column(String(64), unique=True)
    issued_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PaymentEvent(Base):
    """Every webhook event a provider sent, by its id: a replayed or duplicated event is seen
    here and changes nothing. `processed_at` is set once it was fully handled, so an event
    whose handling failed half-way is handled again when the provider retries it."""

    __tablename__ = "payment_events"
    __table_args__ = (UniqueConstraint("provider", "event_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    provider: Mapped[str] = mapped_column(String(16))
    event_id: Mapped[str] = mapped_column(String(128))
    type: Mapped[str] = mapped_column(String(64))
    order_id: Mapped[str | None] = mapped_column(String(32), index=True, nullable=True)
    payload: Mapped[str] = mapped_column(Text)
    # What the event claimed was paid (minor units, upper case), when it says.
    amount: Mapped[int | None] = mapped_column(Integer, nullable=True)
    currency: Mapped[str | None] = mapped_column(String(8), nullable=True)
    outcome: Mapped[str | None] = mapped_column(String(255), nullable=True)
    received_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    processed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PaymentCustomer(Base):
    """A user's customer at a payment provider (a Stripe customer), made at their first
    checkout and reused for every later one."""

    __tablename__ = "payment_customers"
    __table_args__ = (
        UniqueConstraint("provider", "user_id"),
        UniqueConstraint("provider", "customer_id"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    provider: Mapped[str] = mapped_column(String(16))
    user_id: Mapped[str] = mapped_column(ForeignKey("users.id"))
    customer_id: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EnterpriseInquiry(Base):
    """A demo / enterprise inquiry; also mailed to sales through the outbox."""

    __tablename__ = "enterprise_inquiries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[str | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    name: Mapped[str] = mapped_column(String(128))
    contact: Mapped[str] = mapped_column(String(20))
    email: Mapped[str] = mapped_column(String(320))
    organization: Mapped[str] = mapped_column(String(200))
    # Where the form was sent from (e.g. the pricing page or the sidebar's dialog).
    identifier: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
