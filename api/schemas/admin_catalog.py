"""Bodies of the operators' catalog routes (api/routers/admin_catalog.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from api.schemas.common import CatalogEntry, Schema
from core.enums import BodyType, CatalogKind, CatalogVisibility, Gender, SkinTone


class AdminCatalogEntry(CatalogEntry):
    """A catalog item as operators see it: published or not, in the pickers' order."""

    type: CatalogKind
    visibility: CatalogVisibility
    published: bool
    sort: int


class AdminCatalogList(Schema):
    items: list[AdminCatalogEntry]


class CatalogUpdateBody(Schema):
    """Only the fields given change. `description` "" clears it; `gender`, `skinTone` and
    `bodyType` (digital models only: 422 for a background) are cleared by null."""

    name: str | None = Field(default=None, min_length=1, max_length=128)
    category: str | None = Field(default=None, max_length=64)
    visibility: CatalogVisibility | None = None
    published: bool | None = None
    description: str | None = Field(default=None, max_length=280)
    gender: Gender | None = None
    skinTone: SkinTone | None = None
    bodyType: BodyType | None = None


class CatalogMoveBody(Schema):
    direction: Literal["up", "down"]


class CatalogDeleted(Schema):
    id: str = Field(alias="_id")
    removedObjects: int
