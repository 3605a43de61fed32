"""What operators do with the catalog of digital models and backgrounds: upload a photo (vetted
first), rename, describe, categorise, show or hide, publish, reorder, delete. A digital model
also carries the picker's filter attributes (gender, skin tone, body type); a background has
none.

An upload starts unpublished, so an operator can look at it before users can pick it. A digital
model's photo must show exactly one person, as the engine's analysis sees it: the photo is
stored first, then counted by an activity on the imaging queue (workflows/catalog_check.py),
where the engine's models are loaded, so neither this module nor the API loads them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from typing import Literal

import anyio
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.contracts.catalog_check import CATALOG_CHECK_WORKFLOW, CountPeopleInput
from core.db import SessionFactory
from core.enums import BodyType, CatalogKind, CatalogVisibility, Gender, SkinTone
from core.errors import InvalidInput, NotFound, Refused, Unavailable
from core.keys import catalog_key, extension_for, thumbnail_key
from core.models.base import new_id
from core.models.catalog import CatalogItem, CatalogTombstone
from core.photos.images import check_image, thumbnail_from_bytes
from core.settings import Settings
from core.storage import Storage
from core.workflow_starter import WorkflowStarter

# A digital model or background is shown large and fed to the engine: smaller photos look poor.
MIN_CATALOG_SIDE = 768
MAX_NAME = 128
MAX_CATEGORY = 64
MAX_DESCRIPTION = 280
MODEL_ATTRIBUTES_ONLY = (
    "gender, skinTone and bodyType describe digital models only; a background has none."
)
ITEM_NOT_FOUND = "That catalog item was not found."
# The operator waits for the people count: an imaging worker busy for longer answers "later".
PEOPLE_CHECK_SECONDS = 60

log = logging.getLogger(__name__)

# How many people the stored photo at a key shows (0 when none is clearly visible).
PeopleCounter = Callable[[str], int]
PEOPLE_CHECK_UNAVAILABLE = "Photos cannot be checked for people right now; try again later."
PEOPLE_CHECK_ID_PREFIX = "catalog-check-"
ManagedKind = Literal[CatalogKind.MODEL, CatalogKind.BACKGROUND]
MANAGED_KINDS = (CatalogKind.MODEL, CatalogKind.BACKGROUND)

_SPACES = re.compile(r"\s+")


class Keep(Enum):
    """Leave an attribute as it is (None clears it)."""

    KEEP = "keep"


KEEP = Keep.KEEP


@dataclass(frozen=True)
class ModelAttributes:
    """A digital model's filter attributes (None: not said)."""

    gender: Gender | None = None
    skin_tone: SkinTone | None = None
    body_type: BodyType | None = None

    def any(self) -> bool:
        return any(v is not None for v in (self.gender, self.skin_tone, self.body_type))


@dataclass(frozen=True)
class CatalogChanges:
    """What an operator changes on an item; None leaves a field as it is, except for the
    model attributes, which KEEP leaves and None clears. An empty description clears it."""

    name: str | None = None
    category: str | None = None
    visibility: CatalogVisibility | None = None
    published: bool | None = None
    description: str | None = None
    gender: Gender | None | Keep = KEEP
    skin_tone: SkinTone | None | Keep = KEEP
    body_type: BodyType | None | Keep = KEEP

    def sets_attributes(self) -> bool:
        """Whether it gives an attribute a value (clearing one is fine on any item)."""
        return any(
            v is not KEEP and v is not None for v in (self.gender, self.skin_tone, self.body_type)
        )


def clean_name(raw: str) -> str:
    """A display name: spaces collapsed, not blank, at most MAX_NAME characters."""
    name = _SPACES.sub(" ", raw).strip()
    if not name:
        raise InvalidInput("name: give the item a name.")
    if len(name) > MAX_NAME:
        raise InvalidInput(f"name: at most {MAX_NAME} characters.")
    return name


def clean_category(raw: str) -> str:
    """A category as the pickers filter on it: lower case, spaces collapsed; may be empty."""
    category = _SPACES.sub(" ", raw).strip().lower()
    if len(category) > MAX_CATEGORY:
        raise InvalidInput(f"category: at most {MAX_CATEGORY} characters.")
    return category


def clean_description(raw: str) -> str:
    """One short line: spaces (new lines too) collapsed, at most MAX_DESCRIPTION characters;
    may be empty."""
    description = _SPACES.sub(" ", raw).strip()
    if len(description) > MAX_DESCRIPTION:
        raise InvalidInput(f"description: at most {MAX_DESCRIPTION} characters.")
    return description


def check_attributes_allowed(kind: CatalogKind, gives_attributes: bool) -> None:
    """Only a digital model has a gender, skin tone and body type."""
    if gives_attributes and kind != CatalogKind.MODEL:
        raise InvalidInput(MODEL_ATTRIBUTES_ONLY)


def check_people(count: int) -> None:
    """A digital model's photo shows exactly one person."""
    if count == 0:
        raise InvalidInput(
            "No person found in this photo. A digital model photo must show one person, "
            "clearly visible from the shoulders to the hips."
        )
    if count > 1:
        raise InvalidInput(
            f"More than one person found in this photo ({count}). A digital model photo "
            "must show exactly one person."
        )


def check_short_side(width: int, height: int) -> None:
    if min(width, height) < MIN_CATALOG_SIDE:
        raise InvalidInput(
            f"The photo must be at least {MIN_CATALOG_SIDE} px on its short side "
            f"(this one is {width}x{height})."
        )


def reordered(ids: list[str], item_id: str, direction: Literal["up", "down"]) -> list[str]:
    """The ids with `item_id` moved one place up (earlier) or down; unchanged at either end."""
    index = ids.index(item_id)
    other = index - 1 if direction == "up" else index + 1
    if not 0 <= other < len(ids):
        return list(ids)
    moved = list(ids)
    moved[index], moved[other] = moved[other], moved[index]
    return moved


class CatalogAdmin:
    def __init__(
        self,
        sessions: SessionFactory,
        storage: Storage,
        settings: Settings,
        count_people: PeopleCounter,
    ) -> None:
        self.sessions = sessions
        self.storage = storage
        self.settings = settings
        self.count_people = count_people

    @staticmethod
    def _ordered(session: Session, kind: CatalogKind) -> list[CatalogItem]:
        return list(
            session.execute(
                select(CatalogItem)
                .where(CatalogItem.kind == kind)
                .order_by(CatalogItem.sort, CatalogItem.id)
            ).scalars()
        )

    def items(self, kind: ManagedKind) -> list[CatalogItem]:
        """Every item of a kind, published or not, in the order the pickers show them."""
        with self.sessions() as session:
            return self._ordered(session, kind)

    def upload(
        self,
        kind: ManagedKind,
        data: bytes,
        name: str,
        category: str,
        description: str = "",
        attributes: ModelAttributes | None = None,
    ) -> CatalogItem:
        """Vet a photo, store it with a thumbnail, and record it unpublished, last in order."""
        clean = clean_name(name)
        group = clean_category(category)
        about = clean_description(description)
        traits = attributes or ModelAttributes()
        check_attributes_allowed(kind, traits.any())
        info = check_image(
            data,
            max_bytes=self.settings.max_upload_bytes,
            max_megapixels=self.settings.max_megapixels,
            name="The photo",
            min_side=1,
        )
        check_short_side(info.width, info.height)
        item_id = f"{kind}-{new_id()[:16]}"
        key = catalog_key(kind, item_id, extension_for(info.mime_type))
        thumb = thumbnail_key(key)
        self.storage.put_bytes(key, data, info.mime_type)
        self.storage.put_bytes(thumb, thumbnail_from_bytes(data), "image/jpeg")
        try:
            if kind == CatalogKind.MODEL:
                check_people(self.count_people(key))
            with self.sessions.begin() as session:
                last = session.execute(
                    select(func.max(CatalogItem.sort)).where(CatalogItem.kind == kind)
                ).scalar_one()
                item = CatalogItem(
                    id=item_id,
                    kind=kind,
                    name=clean,
                    category=group,
                    description=about,
                    gender=traits.gender,
                    skin_tone=traits.skin_tone,
                    body_type=traits.body_type,
                    visibility=CatalogVisibility.PUBLIC,
                    builtin=False,
                    key=key,
                    thumbnail_key=thumb,
                    sort=(last or 0) + 1,
                    published=False,
                )
                session.add(item)
        except Exception:
            for stored in (key, thumb):
                self.storage.delete(stored)
            raise
        return item

    def update(self, item_id: str, changes: CatalogChanges) -> CatalogItem:
        with self.sessions.begin() as session:
            item = self._managed(session, item_id)
            check_attributes_allowed(CatalogKind(item.kind), changes.sets_attributes())
            if changes.name is not None:
                item.name = clean_name(changes.name)
            if changes.category is not None:
                item.category = clean_category(changes.category)
            if changes.visibility is not None:
                item.visibility = changes.visibility
            if changes.published is not None:
                item.published = changes.published
            if changes.description is not None:
                item.description = clean_description(changes.description)
            if not isinstance(changes.gender, Keep):
                item.gender = changes.gender
            if not isinstance(changes.skin_tone, Keep):
                item.skin_tone = changes.skin_tone
            if not isinstance(changes.body_type, Keep):
                item.body_type = changes.body_type
        return item

    def move(self, item_id: str, direction: Literal["up", "down"]) -> list[CatalogItem]:
        """Swap the item with its neighbour; the whole kind is renumbered 0, 1, 2, ... so that
        equal sort values left by older data cannot make a move a no-op."""
        with self.sessions.begin() as session:
            item = self._managed(session, item_id)
            ordered = self._ordered(session, CatalogKind(item.kind))
            by_id = {row.id: row for row in ordered}
            ids = reordered([row.id for row in ordered], item_id, direction)
            for position, row_id in enumerate(ids):
                by_id[row_id].sort = position
            result = [by_id[row_id] for row_id in ids]
        return result

    def delete(self, item_id: str) -> int:
        """Remove an uploaded or seeded item and its objects; the built-in backgrounds stay.
        Generations already made keep their images; one still waiting for this model or
        background fails and is refunded. A tombstone keeps the seed from adding a deleted
        seeded item back. Returns how many objects were removed."""
        with self.sessions.begin() as session:
            item = self._managed(session, item_id)
            if item.builtin:
                raise Refused("The built-in backgrounds cannot be deleted; unpublish it instead.")
            keys = [item.key, item.thumbnail_key]
            session.merge(CatalogTombstone(id=item.id, kind=item.kind))
            session.delete(item)
        for key in keys:
            self.storage.delete(key)
        return len(keys)

    @staticmethod
    def _managed(session: Session, item_id: str) -> CatalogItem:
        item = session.get(CatalogItem, item_id)
        if item is None or item.kind not in MANAGED_KINDS:
            raise NotFound(ITEM_NOT_FOUND)
        return item


def people_counter(temporal: WorkflowStarter, settings: Settings) -> PeopleCounter:
    """Counts people through the CatalogPhotoCheck workflow and waits for its answer. Called
    from a worker thread (the upload runs in one); Unavailable when Temporal or the imaging
    workers cannot answer now."""

    def count(key: str) -> int:
        async def run() -> int:
            handle = await temporal.start_workflow(
                CATALOG_CHECK_WORKFLOW,
                CountPeopleInput(key, settings.max_upload_bytes, settings.imaging_task_queue),
                id=f"{PEOPLE_CHECK_ID_PREFIX}{new_id()}",
                task_queue=settings.task_queue,
                execution_timeout=timedelta(seconds=PEOPLE_CHECK_SECONDS),
            )
            people: int = await handle.result()
            return people

        try:
            return anyio.from_thread.run(run)
        except Exception:
            log.exception("could not count the people in %s", key)
            raise Unavailable(PEOPLE_CHECK_UNAVAILABLE) from None

    return count
