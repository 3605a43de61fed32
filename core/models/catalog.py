"""The catalog of digital models, backgrounds and samples, and what was deleted from it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Integer,
    String,
    true,
)
from sqlalchemy.orm import Mapped, mapped_column

from core.enums import (
    BodyType,
    CatalogKind,
    CatalogVisibility,
    Gender,
    SkinTone,
)
from core.models.base import Base, enum_column, utcnow


class CatalogItem(Base):
    """Digital models, backgrounds and sample inputs offered to every user."""

    __tablename__ = "catalog_items"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[CatalogKind] = mapped_column(enum_column(CatalogKind, 16), index=True)
    name: Mapped[str] = mapped_column(String(128))
    category: Mapped[str] = mapped_column(String(64), default="")
    # One short line the pickers show under the name (a model's build, skin, hair, height).
    description: Mapped[str] = mapped_column(String(280), default="", server_default="")
    # What the model picker filters on; digital models only (None for backgrounds, samples).
    gender: Mapped[Gender | None] = mapped_column(enum_column(Gender, 16), nullable=True)
    skin_tone: Mapped[SkinTone | None] = mapped_column(enum_column(SkinTone, 16), nullable=True)
    body_type: Mapped[BodyType | None] = mapped_column(enum_column(BodyType, 16), nullable=True)
    # A digital model's measured skin tone, [L, a, b] in CIE Lab (core/photos/tone_match.py),
    # measured once on the imaging queue (activities/catalog.py); None until then, and for other
    # kinds.
    tone: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    visibility: Mapped[CatalogVisibility] = mapped_column(
        enum_column(CatalogVisibility, 16), default=CatalogVisibility.PUBLIC
    )
    # Built-in backgrounds (transparent, white) are rendered by the engine, not read from a key.
    builtin: Mapped[bool] = mapped_column(Boolean, default=False)
    key: Mapped[str] = mapped_column(String(512))
    thumbnail_key: Mapped[str] = mapped_column(String(512))
    sort: Mapped[int] = mapped_column(Integer, default=0)
    # Only published items are offered in the pickers. Seeded items are published; an
    # operator's upload starts unpublished (core/catalog/admin.py).
    published: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CatalogTombstone(Base):
    """A catalog item an operator deleted: the seed (ops/seed.py) never adds it back."""

    __tablename__ = "catalog_tombstones"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[CatalogKind] = mapped_column(enum_column(CatalogKind, 16))
    deleted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
