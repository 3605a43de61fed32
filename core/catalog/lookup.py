"""Looking up catalog items (models and backgrounds): by id, and the pages the pickers show.

The pickers offer published items only; operators manage the rest (core/catalog/admin.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from core.engine import BUILTIN_BACKGROUNDS
from core.enums import BodyType, CatalogKind, CatalogVisibility, Gender, SkinTone
from core.models.catalog import CatalogItem


@dataclass(frozen=True)
class CatalogPage:
    items: list[CatalogItem]
    total: int


@dataclass(frozen=True)
class ModelFilters:
    """What the model picker filters on: each given value must match (None: any)."""

    gender: Gender | None = None
    skin_tone: SkinTone | None = None
    body_type: BodyType | None = None


@dataclass(frozen=True)
class ModelFilterValues:
    """The attribute values present among the offered models, each in its enum's order."""

    gender: list[Gender]
    skin_tone: list[SkinTone]
    body_type: list[BodyType]


def _find(
    session: Session, kind: CatalogKind, item_id: str, published_only: bool
) -> CatalogItem | None:
    query = select(CatalogItem).where(CatalogItem.id == item_id, CatalogItem.kind == kind)
    if published_only:
        query = query.where(CatalogItem.published.is_(True))
    return session.execute(query).scalar_one_or_none()


def find_model(
    session: Session, model_id: str, published_only: bool = False
) -> CatalogItem | None:
    """A digital model by id; with published_only, only one the pickers offer (a new
    generation may only use those; a running one keeps the model it was started with)."""
    return _find(session, CatalogKind.MODEL, model_id, published_only)


def find_background(
    session: Session, background_id: str, published_only: bool = False
) -> CatalogItem | None:
    return _find(session, CatalogKind.BACKGROUND, background_id, published_only)


def background_kind(item: CatalogItem) -> str:
    """"transparent" or "white" for the built-ins, "image" for photo backgrounds."""
    return item.id if item.builtin and item.id in BUILTIN_BACKGROUNDS else "image"


def offered_query(kind: CatalogKind) -> Select[CatalogItem]:
    """Published public items of a kind: what the pickers offer."""
    return select(CatalogItem).where(
        CatalogItem.kind == kind,
        CatalogItem.published.is_(True),
        CatalogItem.visibility == CatalogVisibility.PUBLIC,
    )


def offered_page(
    session: Session,
    kind: CatalogKind,
    page: int,
    page_size: int,
    category: str | None = None,
    filters: ModelFilters | None = None,
) -> CatalogPage:
    """Published public items of a kind in the operators' order, a page at a time; with
    `category`, only that category ("" or None: all); with `filters`, only the items whose
    attributes match every value given (only digital models have them)."""
    query = offered_query(kind)
    wanted = (category or "").strip().lower()  # stored lower case (catalog_admin.clean_category)
    if wanted:
        query = query.where(CatalogItem.category == wanted)
    if filters is not None:
        if filters.gender is not None:
            query = query.where(CatalogItem.gender == filters.gender)
        if filters.skin_tone is not None:
            query = query.where(CatalogItem.skin_tone == filters.skin_tone)
        if filters.body_type is not None:
            query = query.where(CatalogItem.body_type == filters.body_type)
    total = session.execute(select(func.count()).select_from(query.subquery())).scalar_one()
    rows = session.execute(
        query.order_by(CatalogItem.sort, CatalogItem.id)
        .offset((page - 1) * page_size)
        .limit(page_size)
    ).scalars()
    return CatalogPage(list(rows), int(total))


def offered_categories(session: Session, kind: CatalogKind) -> list[str]:
    """The categories of the published public items of a kind, for the pickers' filter."""
    query = (
        offered_query(kind)
        .with_only_columns(CatalogItem.category)
        .where(CatalogItem.category != "")
        .distinct()
        .order_by(CatalogItem.category)
    )
    return list(session.execute(query).scalars())


def offered_model_filters(session: Session) -> ModelFilterValues:
    """The gender, skin tone and body type values that at least one published public digital
    model has, so the picker offers only filters that find something."""
    rows = session.execute(
        offered_query(CatalogKind.MODEL).with_only_columns(
            CatalogItem.gender, CatalogItem.skin_tone, CatalogItem.body_type
        ).distinct()
    ).all()
    genders = {row[0] for row in rows}
    tones = {row[1] for row in rows}
    builds = {row[2] for row in rows}
    return ModelFilterValues(
        gender=[value for value in Gender if value in genders],
        skin_tone=[value for value in SkinTone if value in tones],
        body_type=[value for value in BodyType if value in builds],
    )
