"""Bodies of the model, background and sample catalog (api/routers/catalog.py)."""

from __future__ import annotations

from pydantic import Field

from api.schemas.common import CatalogEntry, Schema
from core.enums import BodyType, Gender, SkinTone


class ModelPage(Schema):
    items: list[CatalogEntry]
    total: int
    pageNum: int
    pageSize: int


class SeedPage(Schema):
    items: list[CatalogEntry]
    total: int
    pagenum: int
    pagesize: int


class Sample(Schema):
    id: str = Field(alias="_id")
    # What the photo shows, for its label ("Striped long-sleeve top").
    name: str
    key: str
    url: str
    thumbnailUrl: str


class SampleList(Schema):
    items: list[Sample]


class CategoryList(Schema):
    items: list[str]


class ModelFilterValues(Schema):
    """The values of each model filter that at least one offered model has."""

    gender: list[Gender]
    skinTone: list[SkinTone]
    bodyType: list[BodyType]
