"""Plans and their rates, orders, subscriptions, invoice numbers, payment events and customers."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from core.enums import (
    Currency,
    OrderStatus,
    PlanKind,
    RateInterval,
    SubscriptionStatus,
)
from core.models.base import Base, enum_column, new_id, utcnow


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
    # The buyer's GSTIN when they gave one (at checkout or in their settings), as it was then.
    buyer_gstin: Mapped[str | None] = mapped_column(String(15), nullable=True)


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
