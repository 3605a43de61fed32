"""The catalog: digital models, backgrounds and sample inputs."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from sqlalchemy import select

from api.deps import SessionsDep, StorageDep
from api.schemas.catalog import (
    CategoryList,
    ModelFilterValues,
    ModelPage,
    Sample,
    SampleList,
    SeedPage,
)
from api.schemas.common import CatalogEntry, Envelope
from api.validation import PageNumber
from core.catalog.lookup import (
    ModelFilters,
    offered_categories,
    offered_model_filters,
    offered_page,
)
from core.db import SessionFactory
from core.enums import BodyType, CatalogKind, Gender, SkinTone
from core.models.catalog import CatalogItem
from core.storage import Storage

router = APIRouter(tags=["catalog"])


def catalog_entry(storage: Storage, item: CatalogItem) -> CatalogEntry:
    return CatalogEntry(
        _id=item.id,
        name=item.name,
        type=item.kind,
        category=item.category,
        builtin=item.builtin,
        url=storage.presigned_get(item.key),
        thumbnailUrl=storage.presigned_get(item.thumbnail_key),
        description=item.description,
        gender=item.gender,
        skinTone=item.skin_tone,
        bodyType=item.body_type,
    )


def _page(
    sessions: SessionFactory,
    storage: Storage,
    kind: CatalogKind,
    page: int,
    size: int,
    category: str | None = None,
    filters: ModelFilters | None = None,
) -> tuple[list[CatalogEntry], int]:
    with sessions() as session:
        found = offered_page(session, kind, page, size, category, filters)
    return [catalog_entry(storage, item) for item in found.items], found.total


@router.get("/api/v1/model", response_model=Envelope[ModelPage])
def list_models(
    sessions: SessionsDep,
    storage: StorageDep,
    pageNum: PageNumber = 1,
    pageSize: Annotated[int, Query(ge=1, le=100)] = 12,
    visibility: Literal["public"] = "public",
    currentProduct: Literal["bodySwap"] = "bodySwap",
    category: Annotated[str | None, Query(max_length=64)] = None,
    gender: Gender | None = None,
    skinTone: SkinTone | None = None,
    bodyType: BodyType | None = None,
) -> Envelope[ModelPage]:
    """Published digital models, a page at a time. `category` filters (empty: all); so do
    `gender`, `skinTone` and `bodyType`, each one of its listed values (422 otherwise). Given
    together, a model must match all of them; `total` counts the matches."""
    filters = ModelFilters(gender=gender, skin_tone=skinTone, body_type=bodyType)
    items, total = _page(
        sessions, storage, CatalogKind.MODEL, pageNum, pageSize, category, filters
    )
    return Envelope(data=ModelPage(items=items, total=total, pageNum=pageNum, pageSize=pageSize))


@router.get("/api/v1/model/categories", response_model=Envelope[CategoryList])
def model_categories(sessions: SessionsDep) -> Envelope[CategoryList]:
    """The categories of the published digital models, for the picker's filter."""
    with sessions() as session:
        items = offered_categories(session, CatalogKind.MODEL)
    return Envelope(data=CategoryList(items=items))


@router.get("/api/v1/model/filters", response_model=Envelope[ModelFilterValues])
def model_filters(sessions: SessionsDep) -> Envelope[ModelFilterValues]:
    """The values of the model picker's filters (`gender`, `skinTone`, `bodyType` on
    /api/v1/model) that at least one published digital model has, each list in a fixed order
    (skin tones lightest first): the picker offers only these, so every choice on its own finds
    a model. A value no offered model has is left out; a list may be empty. Categories have
    their own route, /api/v1/model/categories."""
    with sessions() as session:
        found = offered_model_filters(session)
    return Envelope(
        data=ModelFilterValues(
            gender=found.gender, skinTone=found.skin_tone, bodyType=found.body_type
        )
    )


@router.get("/imageedit/seed", response_model=Envelope[SeedPage])
def seed(
    sessions: SessionsDep,
    storage: StorageDep,
    type: Literal["background", "model"] = "background",
    pagenum: PageNumber = 1,
    pagesize: Annotated[int, Query(ge=1, le=100)] = 18,
) -> Envelope[SeedPage]:
    """Published backgrounds (built-ins first) or models, a page at a time, each with its
    name, category and description."""
    items, total = _page(sessions, storage, CatalogKind(type), pagenum, pagesize)
    return Envelope(data=SeedPage(items=items, total=total, pagenum=pagenum, pagesize=pagesize))


@router.get("/api/v1/sample", response_model=Envelope[SampleList])
def samples(
    sessions: SessionsDep,
    storage: StorageDep,
    sampleType: Literal["bodySwapInputFile"] = "bodySwapInputFile",
) -> Envelope[SampleList]:
    """Sample input photos a visitor can try without uploading."""
    with sessions() as session:
        rows = session.execute(
            select(CatalogItem)
            .where(CatalogItem.kind == "sample")
            .order_by(CatalogItem.sort, CatalogItem.id)
        ).scalars()
        items = [
            Sample(
                _id=item.id,
                name=item.name,
                key=item.key,
                url=storage.presigned_get(item.key),
                thumbnailUrl=storage.presigned_get(item.thumbnail_key),
            )
            for item in rows
        ]
    return Envelope(data=SampleList(items=items))
