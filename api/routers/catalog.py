"""The catalog: digital models, backgrounds and sample inputs."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from sqlalchemy import func, select

from api.deps import ServicesDep
from api.schemas import CatalogEntry, Envelope, ModelPage, Sample, SampleList, SeedPage
from api.validation import PageNumber
from core.models import CatalogItem
from core.storage import Storage

router = APIRouter(tags=["catalog"])


def _entry(storage: Storage, item: CatalogItem) -> CatalogEntry:
    return CatalogEntry(
        _id=item.id,
        name=item.name,
        type=item.kind,
        category=item.category,
        builtin=item.builtin,
        url=storage.presigned_get(item.key),
        thumbnailUrl=storage.presigned_get(item.thumbnail_key),
    )


def _page(
    services: ServicesDep,
    kind: str,
    page: int,
    size: int,
    category: str | None = None,
    visibility: str | None = None,
) -> tuple[list[CatalogEntry], int]:
    query = select(CatalogItem).where(CatalogItem.kind == kind)
    if category:
        query = query.where(CatalogItem.category == category)
    if visibility:
        query = query.where(CatalogItem.visibility == visibility)
    with services.sessions() as session:
        total = session.execute(select(func.count()).select_from(query.subquery())).scalar_one()
        rows = session.execute(
            query.order_by(CatalogItem.sort, CatalogItem.id).offset((page - 1) * size).limit(size)
        ).scalars()
        return [_entry(services.storage, item) for item in rows], int(total)


@router.get("/api/v1/model", response_model=Envelope[ModelPage])
def list_models(
    services: ServicesDep,
    pageNum: PageNumber = 1,
    pageSize: Annotated[int, Query(ge=1, le=100)] = 12,
    visibility: Literal["public"] = "public",
    currentProduct: Literal["bodySwap"] = "bodySwap",
    category: Annotated[str | None, Query(max_length=64)] = None,
) -> Envelope[ModelPage]:
    """Digital models, a page at a time."""
    items, total = _page(services, "model", pageNum, pageSize, category, visibility)
    return Envelope(data=ModelPage(items=items, total=total, pageNum=pageNum, pageSize=pageSize))


@router.get("/imageedit/seed", response_model=Envelope[SeedPage])
def seed(
    services: ServicesDep,
    type: Literal["background", "model"] = "background",
    pagenum: PageNumber = 1,
    pagesize: Annotated[int, Query(ge=1, le=100)] = 18,
) -> Envelope[SeedPage]:
    """Backgrounds (built-ins first) or models, a page at a time."""
    items, total = _page(services, type, pagenum, pagesize)
    return Envelope(data=SeedPage(items=items, total=total, pagenum=pagenum, pagesize=pagesize))


@router.get("/api/v1/sample", response_model=Envelope[SampleList])
def samples(
    services: ServicesDep, sampleType: Literal["bodySwapInputFile"] = "bodySwapInputFile"
) -> Envelope[SampleList]:
    """Sample input photos a visitor can try without uploading."""
    with services.sessions() as session:
        rows = session.execute(
            select(CatalogItem)
            .where(CatalogItem.kind == "sample")
            .order_by(CatalogItem.sort, CatalogItem.id)
        ).scalars()
        items = [
            Sample(
                _id=item.id,
                key=item.key,
                url=services.storage.presigned_get(item.key),
                thumbnailUrl=services.storage.presigned_get(item.thumbnail_key),
            )
            for item in rows
        ]
    return Envelope(data=SampleList(items=items))
