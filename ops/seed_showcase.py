"""Demo pairs for the public showcase, made by our own engine from the fixture photos at seed
time: two model swaps and one background replace.

They belong to the "demo" account (AccountKind.DEMO), which has no user and no browser
fingerprint, so nobody can log in to it. Each pair is a completed generation with one task,
shared (the owner's consent) and showcased (an operator's pick), its input and output stored in
the bucket like any other. Ids are derived from the pair's recipe, so seeding again finds them
and changes nothing (nor runs the engine); an operator who takes a demo pair off the showcase
keeps it off. Without the fixture photos there is nothing to make, and nothing is made.
"""

from __future__ import annotations

import logging
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from PIL import Image
from sqlalchemy.exc import IntegrityError

from core.db import SessionFactory
from core.engine import Background, EngineError, ImageEngine
from core.enums import AccountKind, GenerationKind, GenerationStatus
from core.errors import InvalidInput
from core.keys import output_key, thumbnail_key, upload_key
from core.models.accounts import Account
from core.models.base import utcnow
from core.models.catalog import CatalogItem
from core.models.generations import Generation, GenerationImage
from core.photos.images import check_image, decode_rgb, encode_output, thumbnail_jpeg
from core.settings import Settings
from core.storage import Storage

log = logging.getLogger(__name__)

DEMO_ACCOUNT_ID = "demo"
_IDS = uuid.UUID("6f1d3c8e-3b1e-4d35-9a53-5d0f2a7c1e42")


@dataclass(frozen=True)
class DemoPair:
    """What to make: the photo, and the catalog items (ids) the engine uses with it."""

    service: GenerationKind
    photo: Path
    model_id: str | None
    background_id: str | None

    @property
    def recipe(self) -> str:
        photo = f"{self.photo.parent.name}/{self.photo.name}"
        return f"{self.service}:{photo}:{self.model_id}:{self.background_id}"

    @property
    def generation_id(self) -> str:
        return uuid.uuid5(_IDS, f"generation:{self.recipe}").hex

    @property
    def task_id(self) -> str:
        return uuid.uuid5(_IDS, f"task:{self.recipe}").hex


def _jpgs(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.jpg")) if folder.is_dir() else []


def demo_pairs(fixtures: Path) -> list[DemoPair]:
    """Up to three pairs from the fixture photos: a person on a digital model and a scene, a
    garment on a digital model (in the model's own studio), a person on another scene. The
    model and scene ids are those ops/seed.py gives the same fixture photos in the catalog."""
    people = _jpgs(fixtures / "people")
    garments = _jpgs(fixtures / "garments")
    models = [path.stem for path in _jpgs(fixtures / "catalog-models")]
    scenes = [path.stem for path in _jpgs(fixtures / "backgrounds")]
    pairs = []
    if people and models and scenes:
        pairs.append(DemoPair(GenerationKind.BODY_SWAP, people[0], models[0], scenes[0]))
    if garments and models:
        # The pick that looks best of the first few (engine quality varies by garment and model).
        garment, model = garments[min(1, len(garments) - 1)], models[min(2, len(models) - 1)]
        pairs.append(DemoPair(GenerationKind.BODY_SWAP, garment, model, None))
    if people and scenes:
        pairs.append(DemoPair(GenerationKind.BURST_REPLACE, people[-1], None, scenes[-1]))
    return pairs


class ShowcaseSeeder:
    def __init__(
        self,
        sessions: SessionFactory,
        storage: Storage,
        settings: Settings,
        engine: ImageEngine | None = None,
    ) -> None:
        self.sessions = sessions
        self.storage = storage
        self.settings = settings
        self._engine = engine

    @property
    def engine(self) -> ImageEngine:
        """Built only when a pair is missing: a second seed never loads the engine's models."""
        if self._engine is None:
            from engine import build_engine

            # The seed runs in the API's environment, which has no torch: with the generative
            # engine configured, the demo pairs are made by the CPU engine.
            kind = "cpu" if self.settings.engine == "diffusion" else self.settings.engine
            self._engine = build_engine(
                kind,
                remote_url=self.settings.engine_url or None,
                timeout_seconds=self.settings.engine_timeout_seconds,
            )
        return self._engine

    def seed(self, fixtures: Path) -> int:
        """Make and record every demo pair that is missing. Returns how many were added."""
        started = time.monotonic()
        added = sum(self._seed_one(pair) for pair in demo_pairs(fixtures))
        if added:
            log.info("showcase: %d demo pair(s) made in %.1f s", added,
                     time.monotonic() - started)
        return added

    def _exists(self, pair: DemoPair) -> bool:
        with self.sessions() as session:
            return session.get(Generation, pair.generation_id) is not None

    def _catalog_item(self, item_id: str | None) -> CatalogItem | None:
        if not item_id:
            return None
        with self.sessions() as session:
            return session.get(CatalogItem, item_id)

    def _catalog_photo(self, item_id: str | None) -> Image.Image | None:
        item = self._catalog_item(item_id)
        return decode_rgb(self.storage.get_bytes(item.key)) if item is not None else None

    def _background(self, item_id: str | None) -> Background | None:
        """As the generation's activity resolves it: built-ins by name, others from storage."""
        item = self._catalog_item(item_id)
        if item is None:
            return None
        if item.builtin:
            return Background.builtin(item.id)
        return Background.photo(decode_rgb(self.storage.get_bytes(item.key)))

    def _render(self, pair: DemoPair, photo: Image.Image) -> Image.Image | None:
        background = self._background(pair.background_id)
        try:
            if pair.service == GenerationKind.BODY_SWAP:
                model = self._catalog_photo(pair.model_id)
                if model is None:
                    return None
                return self.engine.body_swap(photo, model, background)
            if background is None:
                return None
            return self.engine.replace_background(photo, background)
        except EngineError as error:
            log.warning("showcase: %s skipped: %s", pair.recipe, error.message)
            return None

    def _seed_one(self, pair: DemoPair) -> int:
        if self._exists(pair):
            return 0
        data = pair.photo.read_bytes()
        try:
            info = check_image(
                data,
                max_bytes=self.settings.max_upload_bytes,
                max_megapixels=self.settings.max_megapixels,
                name=pair.photo.name,
            )
        except InvalidInput as error:
            log.warning("showcase: %s skipped: %s", pair.recipe, error.message)
            return 0
        photo = decode_rgb(data)
        result = self._render(pair, photo)
        if result is None:
            return 0
        input_key = upload_key(
            DEMO_ACCOUNT_ID, pair.generation_id, pair.photo.name, info.mime_type
        )
        encoded, content_type, extension = encode_output(result)
        out_key = output_key(pair.generation_id, pair.task_id, extension)
        out_thumb = thumbnail_key(out_key)
        self.storage.put_bytes(input_key, data, info.mime_type)
        self.storage.put_bytes(thumbnail_key(input_key), thumbnail_jpeg(photo), "image/jpeg")
        self.storage.put_bytes(out_key, encoded, content_type)
        self.storage.put_bytes(out_thumb, thumbnail_jpeg(result), "image/jpeg")
        now = utcnow()
        try:
            with self.sessions.begin() as session:
                if session.get(Account, DEMO_ACCOUNT_ID) is None:
                    session.add(
                        Account(
                            id=DEMO_ACCOUNT_ID,
                            kind=AccountKind.DEMO,
                            fingerprint=None,
                            distributor_id=self.settings.default_distributor_id,
                        )
                    )
                    session.flush()
                session.add(
                    Generation(
                        id=pair.generation_id,
                        account_id=DEMO_ACCOUNT_ID,
                        service=pair.service,
                        status=GenerationStatus.COMPLETED,
                        model_id=pair.model_id,
                        background_id=pair.background_id,
                        credits=0,
                        distributor_id=self.settings.default_distributor_id,
                        completed_at=now,
                    )
                )
                session.flush()
                session.add(
                    GenerationImage(
                        id=pair.task_id,
                        generation_id=pair.generation_id,
                        position=0,
                        input_key=input_key,
                        input_size=len(data),
                        input_mime=info.mime_type,
                        status=GenerationStatus.COMPLETED,
                        progress=100,
                        stage="completed",
                        output_key=out_key,
                        output_thumbnail_key=out_thumb,
                        shared_at=now,
                        showcased_at=now,
                    )
                )
        except IntegrityError:
            return 0  # another seed recorded it first (same ids, same objects)
        return 1


def seed_showcase(
    sessions: SessionFactory,
    storage: Storage,
    settings: Settings,
    fixtures: Path,
    engine: ImageEngine | None = None,
) -> int:
    """The demo pairs that are missing, made and recorded. Returns how many were added."""
    return ShowcaseSeeder(sessions, storage, settings, engine).seed(fixtures)
