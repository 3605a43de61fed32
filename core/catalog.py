"""Looking up catalog items (models and backgrounds) by id."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.engine import BUILTIN_BACKGROUNDS
from core.models import CatalogItem


def find_model(session: Session, model_id: str) -> CatalogItem | None:
    return session.execute(
        select(CatalogItem).where(CatalogItem.id == model_id, CatalogItem.kind == "model")
    ).scalar_one_or_none()


def find_background(session: Session, background_id: str) -> CatalogItem | None:
    return session.execute(
        select(CatalogItem).where(
            CatalogItem.id == background_id, CatalogItem.kind == "background"
        )
    ).scalar_one_or_none()


def background_kind(item: CatalogItem) -> str:
    """"transparent" or "white" for the built-ins, "image" for photo backgrounds."""
    return item.id if item.builtin and item.id in BUILTIN_BACKGROUNDS else "image"
