"""The declarative base, the column helpers every table uses, and the time and id helpers."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from enum import StrEnum
from typing import TypeVar

from sqlalchemy import (
    Enum as SqlEnum,
)
from sqlalchemy.orm import DeclarativeBase

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
