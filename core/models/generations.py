"""Uploads, generations and their tasks, and the feedback on an output."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from core.engine import NOTE_LIMIT
from core.enums import (
    GenerationKind,
    GenerationStatus,
    Rating,
)
from core.models.base import Base, enum_column, new_id, utcnow


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
    # What the photo shows and can become (core/photos/analysis.py), once the imaging queue
    # has analysed it; None before.
    analysis: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Generation(Base):
    """One submit: a "service" in /imageedit, a "request" in /api/v1. Its id is the workflow id."""

    __tablename__ = "generations"
    __table_args__ = (UniqueConstraint("account_id", "idempotency_key"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_id)
    account_id: Mapped[str] = mapped_column(ForeignKey("accounts.id"), index=True)
    service: Mapped[GenerationKind] = mapped_column(enum_column(GenerationKind, 32))
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
    # The caller's own labels from the public API (at most 20 string pairs, e.g. a SKU), given
    # back as they were. ("metadata" is taken on declarative classes, hence the name.)
    request_metadata: Mapped[dict[str, str] | None] = mapped_column(
        "metadata", JSON, nullable=True
    )
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
    # False: made with a test API key (issue 23): free, watermarked, and kept out of My Images,
    # the web app's lists and the usage (it has no ledger entries).
    livemode: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


class GenerationImage(Base):
    """One input image of a generation and its output. Stored as a row of `tasks` (its id is a
    `task_id` in other tables, workflow inputs and the wire): code names a row `task`."""

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
    # The Content Credentials signed into the retouched version (a c2pa.edited of the output;
    # core/library/showcase.py): null without one, or for a WebP retouch, which is stored unsigned.
    edited_credentials: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # A re-render with the user's placement adjustment (core/library/rerender.py): the task whose
    # input it renders again, and the move (fractions of the frame) and scale the user chose.
    source_task_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    placement_x: Mapped[float | None] = mapped_column(Float, nullable=True)
    placement_y: Mapped[float | None] = mapped_column(Float, nullable=True)
    placement_scale: Mapped[float | None] = mapped_column(Float, nullable=True)
    # The Content Credentials signed into the output (core/provenance: CredentialsSummary's
    # JSON, with the signed file's sha256): what the viewer and the API show. Null for outputs
    # stored before credentials were signed.
    content_credentials: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # On a source task: how many re-renders were asked of it (bounded: they are free).
    rerenders: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Deleted by its owner, alone (the trash icon on one image): its objects are gone from
    # storage and the owner's views leave it out; the row stays for the generation's accounting.
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow
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
