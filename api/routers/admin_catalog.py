"""Operators' catalog of digital models and backgrounds, under /api/v1/admin/catalog, every
endpoint behind CurrentAdmin (403 otherwise). The rules are in core/catalog/admin.py."""

from __future__ import annotations

from typing import Annotated, Literal

from anyio import to_thread
from fastapi import APIRouter, Form, Path, UploadFile

from api.deps import CatalogAdminDep, CurrentAdmin, SettingsDep, StorageDep
from api.schemas.admin_catalog import (
    AdminCatalogEntry,
    AdminCatalogList,
    CatalogDeleted,
    CatalogMoveBody,
    CatalogUpdateBody,
)
from api.schemas.common import Envelope
from core.catalog.admin import KEEP, CatalogChanges, ManagedKind, ModelAttributes
from core.enums import BodyType, CatalogKind, CatalogVisibility, Gender, SkinTone
from core.errors import InvalidInput
from core.models.catalog import CatalogItem
from core.storage import Storage

router = APIRouter(prefix="/api/v1/admin/catalog", tags=["admin"])

ItemId = Annotated[str, Path(min_length=1, max_length=64)]
KindName = Literal["model", "background"]


def admin_entry(storage: Storage, item: CatalogItem) -> AdminCatalogEntry:
    return AdminCatalogEntry(
        _id=item.id,
        name=item.name,
        type=CatalogKind(item.kind),
        category=item.category,
        builtin=item.builtin,
        url=storage.presigned_get(item.key),
        thumbnailUrl=storage.presigned_get(item.thumbnail_key),
        description=item.description,
        gender=item.gender,
        skinTone=item.skin_tone,
        bodyType=item.body_type,
        visibility=CatalogVisibility(item.visibility),
        published=item.published,
        sort=item.sort,
    )


def _kind(kind: KindName) -> ManagedKind:
    return CatalogKind.MODEL if kind == "model" else CatalogKind.BACKGROUND


def _list(storage: Storage, items: list[CatalogItem]) -> Envelope[AdminCatalogList]:
    return Envelope(data=AdminCatalogList(items=[admin_entry(storage, item) for item in items]))


@router.get("", response_model=Envelope[AdminCatalogList])
def list_items(
    catalog_admin: CatalogAdminDep,
    storage: StorageDep,
    _admin: CurrentAdmin,
    kind: KindName = "model",
) -> Envelope[AdminCatalogList]:
    """Every digital model (or background), published or not, in the pickers' order."""
    return _list(storage, catalog_admin.items(_kind(kind)))


@router.post("", response_model=Envelope[AdminCatalogEntry])
async def upload(
    catalog_admin: CatalogAdminDep, settings: SettingsDep, storage: StorageDep,
    _admin: CurrentAdmin,
    file: UploadFile,
    kind: Annotated[KindName, Form()],
    name: Annotated[str, Form(max_length=128)],
    category: Annotated[str, Form(max_length=64)] = "",
    description: Annotated[str, Form(max_length=280)] = "",
    gender: Annotated[Gender | None, Form()] = None,
    skinTone: Annotated[SkinTone | None, Form()] = None,
    bodyType: Annotated[BodyType | None, Form()] = None,
) -> Envelope[AdminCatalogEntry]:
    """Add a photo, unpublished. JPEG, PNG or WebP, at least 768 px on the short side; a
    digital model's photo must show exactly one person (422 with the reason otherwise).
    `gender`, `skinTone` and `bodyType` (empty: not said) are for digital models only: a
    background given one is refused (422)."""
    limit = settings.max_upload_bytes
    data = await file.read(limit + 1)
    if not data:
        raise InvalidInput("file: choose a photo to upload.")
    attributes = ModelAttributes(gender=gender, skin_tone=skinTone, body_type=bodyType)
    item = await to_thread.run_sync(
        catalog_admin.upload, _kind(kind), data, name, category, description, attributes
    )
    return Envelope(data=admin_entry(storage, item))


@router.patch("/{itemId}", response_model=Envelope[AdminCatalogEntry])
def update(
    catalog_admin: CatalogAdminDep,
    storage: StorageDep,
    _admin: CurrentAdmin,
    itemId: ItemId,
    body: CatalogUpdateBody,
) -> Envelope[AdminCatalogEntry]:
    """Rename, describe, recategorise, show or hide, publish or unpublish, and set or clear
    (null) a digital model's gender, skinTone and bodyType: only the fields given change. A
    background given any of those three is refused (422)."""
    given = body.model_fields_set  # null given clears an attribute; absent keeps it
    changes = CatalogChanges(
        name=body.name,
        category=body.category,
        visibility=body.visibility,
        published=body.published,
        description=body.description,
        gender=body.gender if "gender" in given else KEEP,
        skin_tone=body.skinTone if "skinTone" in given else KEEP,
        body_type=body.bodyType if "bodyType" in given else KEEP,
    )
    item = catalog_admin.update(itemId, changes)
    return Envelope(data=admin_entry(storage, item))


@router.post("/{itemId}/move", response_model=Envelope[AdminCatalogList])
def move(
    catalog_admin: CatalogAdminDep,
    storage: StorageDep,
    _admin: CurrentAdmin,
    itemId: ItemId,
    body: CatalogMoveBody,
) -> Envelope[AdminCatalogList]:
    """Move an item one place up or down; answers the kind's whole list in its new order."""
    return _list(storage, catalog_admin.move(itemId, body.direction))


@router.delete("/{itemId}", response_model=Envelope[CatalogDeleted])
def delete(
    catalog_admin: CatalogAdminDep, _admin: CurrentAdmin, itemId: ItemId
) -> Envelope[CatalogDeleted]:
    """Delete an item and its photo and thumbnail (not the built-in backgrounds)."""
    removed = catalog_admin.delete(itemId)
    return Envelope(data=CatalogDeleted(_id=itemId, removedObjects=removed))
