"""Webhook endpoints and their deliveries (issue 23): where an account wants its events, and each
event's delivery to one endpoint (the outbox the relay reads, and the log the user sees)."""

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
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from core.models.base import Base, new_id, utcnow


class WebhookEndpoint(Base):
    """A URL that receives an account's events, signed with its own secret (Standard Webhooks).
    The secret is kept as it is because every delivery is signed with it; it is shown to the
    user once, at creation."""

    __tablename__ = "webhook_endpoints"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    url: Mapped[str] = mapped_column(String(2048))
    description: Mapped[str] = mapped_column(String(200), default="")
    events: Mapped[list[str]] = mapped_column(JSON)
    secret: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # Since when every attempt has failed (cleared by a success); a whole retry window of it
    # disables the endpoint.
    failing_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    disabled_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    disabled_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # False: made with a test API key (issue 33). It receives only test-mode events, and live
    # endpoints only live ones (as Stripe does); a key sees only endpoints of its own mode.
    livemode: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class WebhookDelivery(Base):
    """One event for one endpoint: queued in the same transaction as the change it reports,
    started as a delivery workflow by the relay, and updated by each attempt."""

    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        UniqueConstraint("endpoint_id", "dedupe_key"),
        Index("ix_webhook_deliveries_undispatched", "status", "dispatched_at"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    endpoint_id: Mapped[str] = mapped_column(ForeignKey("webhook_endpoints.id"), index=True)
    event_type: Mapped[str] = mapped_column(String(40))
    # The event happens once: a retried step that queues it again finds it here.
    dedupe_key: Mapped[str] = mapped_column(String(120))
    payload: Mapped[str] = mapped_column(Text)  # the JSON body, exactly as signed and sent
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending|succeeded|failed
    # Set when the relay starts its workflow; cleared by "Resend" (then a new workflow starts).
    dispatched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    dispatches: Mapped[int] = mapped_column(Integer, default=0)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    first_attempt_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    last_attempt_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )
    last_status_code: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_duration_ms: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    delivered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
