"""Seed the demo catalog: digital models, backgrounds, sample inputs and the built-ins; then
the showcase's demo pairs, which our own engine makes from the fixture photos at seed time
(ops/seed_showcase.py; SEED_SHOWCASE=false leaves the showcase empty).

Images go through the same path as uploads (checked, then stored in the bucket with a
thumbnail). Photos come from ../shared/fixtures/images when it exists (FIXTURES_DIR); without
it a few generated studio backgrounds still make the background-replace flow work.
Names, categories, descriptions and a digital model's filter attributes are in
ops/seed_catalog.py. Running it again changes nothing that is already there, and never adds back
an item an operator deleted (its tombstone, core/catalog/admin.py); the one exception is an item
the first seeds made ("Model 3", "Scene 7", no description) and nobody renamed since: it gets its
name, category, description and attributes (an operator's rename is kept, item and all).
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw
from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db import SessionFactory, make_database, make_session_factory
from core.engine import ImageEngine
from core.enums import BodyType, CatalogKind, Gender, SkinTone
from core.keys import catalog_key, thumbnail_key
from core.models.catalog import CatalogItem, CatalogTombstone
from core.photos.images import check_image, checkerboard, encode_jpeg, thumbnail_from_bytes
from core.settings import Settings, get_settings
from core.storage import Storage
from ops.seed_catalog import (
    DESCRIPTIONS,
    MODEL_CATEGORY,
    OLD_BACKGROUND_CATEGORY,
    is_old_default,
    presentation,
    sample_label,
)
from ops.seed_plans import seed_plans
from ops.seed_showcase import seed_showcase

REPO = Path(__file__).resolve().parent.parent
SAMPLES_PER_FOLDER = 3


def fixtures_dir() -> Path:
    return Path(os.environ.get("FIXTURES_DIR", REPO.parent / "shared" / "fixtures" / "images"))


@dataclass(frozen=True)
class SeedItem:
    id: str
    kind: str
    name: str
    category: str
    data: bytes
    builtin: bool = False
    sort: int = 100
    description: str = ""
    gender: Gender | None = None
    skin_tone: SkinTone | None = None
    body_type: BodyType | None = None
    # A fixture photo's model or background: the first seeds numbered it ("Model 3") and put
    # it in `old_category`; every other item kept its name and category.
    numbered_before: bool = False
    old_category: str | None = None


def _studio_background(top: tuple[int, int, int], bottom: tuple[int, int, int]) -> bytes:
    """A soft vertical gradient with a slightly darker floor, like a paper sweep."""
    width, height = 1200, 1600
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    for y in range(height):
        t = y / (height - 1)
        colour = tuple(int(a + (b - a) * t) for a, b in zip(top, bottom, strict=True))
        draw.line([(0, y), (width, y)], fill=colour)
    return encode_jpeg(image, quality=90)


def _builtins() -> list[SeedItem]:
    board = checkerboard((600, 800), cell=40)
    white = Image.new("RGB", (600, 800), (255, 255, 255))
    return [
        SeedItem(
            "transparent",
            "background",
            "Transparent PNG",
            "built-in",
            encode_jpeg(board),
            builtin=True,
            sort=0,
            description=DESCRIPTIONS["transparent"],
        ),
        SeedItem(
            "white",
            "background",
            "Pure white",
            "built-in",
            encode_jpeg(white),
            builtin=True,
            sort=1,
            description=DESCRIPTIONS["white"],
        ),
    ]


def _generated_backgrounds() -> list[SeedItem]:
    palettes = {
        "studio-grey": ((228, 228, 226), (168, 168, 166)),
        "studio-warm": ((242, 230, 214), (196, 170, 140)),
        "studio-blue": ((214, 226, 240), (140, 160, 190)),
    }
    return [
        SeedItem(
            name,
            "background",
            name.replace("-", " ").title(),
            "studio",
            _studio_background(*colours),
            sort=10 + i,
            description=DESCRIPTIONS.get(name, ""),
        )
        for i, (name, colours) in enumerate(palettes.items())
    ]


def _photos(folder: Path, pattern: str = "*.jpg") -> Iterator[Path]:
    if folder.is_dir():
        yield from sorted(folder.glob(pattern))


def _photo_item(
    path: Path, kind: CatalogKind, number: int, sort: int, old_category: str
) -> SeedItem:
    """A fixture photo's model or background, as ops/seed_catalog.py presents it (a photo it
    does not know keeps a numbered name)."""
    shown = presentation(kind, path.stem)
    fallback = f"{'Model' if kind == CatalogKind.MODEL else 'Scene'} {number}"
    return SeedItem(
        path.stem,
        kind,
        shown.name if shown else fallback,
        shown.category if shown else old_category,
        path.read_bytes(),
        sort=sort,
        description=shown.description if shown else "",
        gender=shown.gender if shown else None,
        skin_tone=shown.skin_tone if shown else None,
        body_type=shown.body_type if shown else None,
        numbered_before=True,
        old_category=old_category,
    )


def seed_items(fixtures: Path) -> list[SeedItem]:
    items = _builtins() + _generated_backgrounds()
    for i, path in enumerate(_photos(fixtures / "catalog-models")):
        items.append(_photo_item(path, CatalogKind.MODEL, i + 1, i, MODEL_CATEGORY))
    backgrounds = list(_photos(fixtures / "backgrounds"))
    for i, path in enumerate(backgrounds):
        items.append(_photo_item(path, CatalogKind.BACKGROUND, i + 1, 20 + i,
                                 OLD_BACKGROUND_CATEGORY))
    # Real places (added after the first seeds, so never numbered in a database; after the
    # studio backgrounds in the picker). Only scene-NN: the folder's other photos (aerial views,
    # open water, rooms with hand-labelled ground) are the placement work's test scenes, several
    # with no ground to stand on, not backgrounds to offer.
    for i, path in enumerate(_photos(fixtures / "scenes", "scene-*.jpg")):
        items.append(_photo_item(path, CatalogKind.BACKGROUND, len(backgrounds) + i + 1,
                                 40 + i, OLD_BACKGROUND_CATEGORY))
    for folder in ("people", "garments"):
        for i, path in enumerate(list(_photos(fixtures / folder))[:SAMPLES_PER_FOLDER]):
            items.append(
                SeedItem(
                    f"sample-{folder}-{path.stem}",
                    "sample",
                    sample_label(path.stem, folder),
                    folder,
                    path.read_bytes(),
                    sort=i,
                    # The first seeds called every sample "Sample person" or "Sample garment".
                    numbered_before=True,
                )
            )
    return items


def _store(storage: Storage, item: SeedItem, settings: Settings) -> tuple[str, str]:
    info = check_image(
        item.data,
        max_bytes=settings.max_upload_bytes,
        max_megapixels=settings.max_megapixels,
        name=item.id,
    )
    extension = {"JPEG": "jpg", "PNG": "png", "WEBP": "webp"}[info.format]
    key = catalog_key(item.kind, item.id, extension)
    thumb = thumbnail_key(key)
    if storage.stat(key) is None:
        storage.put_bytes(key, item.data, info.mime_type)
    if storage.stat(thumb) is None:
        storage.put_bytes(thumb, thumbnail_from_bytes(item.data), "image/jpeg")
    return key, thumb


def seed(
    sessions: SessionFactory,
    storage: Storage,
    settings: Settings,
    fixtures: Path | None = None,
    engine: ImageEngine | None = None,
) -> int:
    """Store and record every catalog item that is missing, except those an operator
    deleted; then (SEED_SHOWCASE) the showcase's demo pairs, made by `engine` (default: the
    configured one). Returns how many catalog items and demo pairs were added."""
    storage.ensure_bucket()
    folder = fixtures or fixtures_dir()
    added = seed_plans(sessions)
    with sessions() as session:
        deleted = set(session.execute(select(CatalogTombstone.id)).scalars())
    for item in seed_items(folder):
        if item.id in deleted:
            continue
        key, thumb = _store(storage, item, settings)
        with sessions.begin() as session:
            added += _upsert(session, item, key, thumb)
    if settings.seed_showcase:
        added += seed_showcase(sessions, storage, settings, folder, engine)
    return added


def _as_first_seeded(row: CatalogItem, item: SeedItem) -> bool:
    """Whether a row is still as the first seeds (before descriptions) left it: no
    description, and their name, which for a photo was numbered ("Model 3")."""
    if row.description:
        return False
    if item.numbered_before:
        return is_old_default(CatalogKind(item.kind), row.name)
    return row.name == item.name


def _present(row: CatalogItem, item: SeedItem) -> None:
    """Give a row the seed made before presentations its name, description and attributes,
    and its category unless an operator changed that."""
    if row.category == (item.old_category or item.category):
        row.category = item.category
    row.name = item.name
    row.description = item.description
    row.gender, row.skin_tone, row.body_type = item.gender, item.skin_tone, item.body_type


def _upsert(session: Session, item: SeedItem, key: str, thumb: str) -> int:
    row = session.get(CatalogItem, item.id)
    if row is not None:
        row.key, row.thumbnail_key = key, thumb
        if _as_first_seeded(row, item):
            _present(row, item)
        return 0
    session.add(
        CatalogItem(
            id=item.id,
            kind=item.kind,
            name=item.name,
            category=item.category,
            description=item.description,
            gender=item.gender,
            skin_tone=item.skin_tone,
            body_type=item.body_type,
            builtin=item.builtin,
            key=key,
            thumbnail_key=thumb,
            sort=item.sort,
        )
    )
    return 1


def main() -> None:
    settings = get_settings()
    database = make_database(settings.resolved_database_url)
    started = time.monotonic()
    added = seed(make_session_factory(database), Storage(settings), settings)
    print(f"demo data: {added} item(s) added in {time.monotonic() - started:.1f} s", flush=True)
    database.dispose()


if __name__ == "__main__":
    main()
