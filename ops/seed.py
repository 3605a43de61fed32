"""Seed the demo catalog: digital models, backgrounds, sample inputs and the built-ins; then
the showcase's demo pairs, which our own engine makes from the fixture photos at seed time
(ops/seed_showcase.py; SEED_SHOWCASE=false leaves the showcase empty).

Images go through the same path as uploads (checked, then stored in the bucket with a
thumbnail). Photos come from ../shared/fixtures/images when it exists (FIXTURES_DIR); without
it a few generated studio backgrounds still make the background-replace flow work.
Running it again changes nothing that is already there, and never adds back an item an
operator deleted (its tombstone, core/catalog_admin.py).
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

from core.db import SessionFactory, make_engine, make_session_factory
from core.engine import ImageEngine
from core.images import check_image, checkerboard, encode_jpeg, thumbnail_from_bytes
from core.keys import catalog_key, thumbnail_key
from core.models.catalog import CatalogItem, CatalogTombstone
from core.settings import Settings, get_settings
from core.storage import Storage
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
        ),
        SeedItem(
            "white",
            "background",
            "Pure white",
            "built-in",
            encode_jpeg(white),
            builtin=True,
            sort=1,
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
        )
        for i, (name, colours) in enumerate(palettes.items())
    ]


def _photos(folder: Path, pattern: str = "*.jpg") -> Iterator[Path]:
    if folder.is_dir():
        yield from sorted(folder.glob(pattern))


def seed_items(fixtures: Path) -> list[SeedItem]:
    items = _builtins() + _generated_backgrounds()
    for i, path in enumerate(_photos(fixtures / "catalog-models")):
        items.append(
            SeedItem(path.stem, "model", f"Model {i + 1}", "studio", path.read_bytes(), sort=i)
        )
    for i, path in enumerate(_photos(fixtures / "backgrounds")):
        items.append(
            SeedItem(
                path.stem, "background", f"Scene {i + 1}", "scene", path.read_bytes(), sort=20 + i
            )
        )
    for folder in ("people", "garments"):
        for i, path in enumerate(list(_photos(fixtures / folder))[:SAMPLES_PER_FOLDER]):
            items.append(
                SeedItem(
                    f"sample-{folder}-{path.stem}",
                    "sample",
                    f"Sample {folder[:-1] if folder != 'people' else 'person'}",
                    folder,
                    path.read_bytes(),
                    sort=i,
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


def _upsert(session: Session, item: SeedItem, key: str, thumb: str) -> int:
    row = session.get(CatalogItem, item.id)
    if row is not None:
        row.key, row.thumbnail_key = key, thumb
        return 0
    session.add(
        CatalogItem(
            id=item.id,
            kind=item.kind,
            name=item.name,
            category=item.category,
            builtin=item.builtin,
            key=key,
            thumbnail_key=thumb,
            sort=item.sort,
        )
    )
    return 1


def main() -> None:
    settings = get_settings()
    engine = make_engine(settings.resolved_database_url)
    started = time.monotonic()
    added = seed(make_session_factory(engine), Storage(settings), settings)
    print(f"demo data: {added} item(s) added in {time.monotonic() - started:.1f} s", flush=True)
    engine.dispose()


if __name__ == "__main__":
    main()
