"""The public showcase and what operators do with outputs: curate shared pairs, attach
retouched versions, find a generation by its id or its owner's email.

Only pairs whose owner agreed (tasks.shared_at, see core/library/gallery.py) can be curated;
withdrawing consent or deleting the generation takes a pair off at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, func, select

from core import mail
from core.db import SessionFactory
from core.enums import GenerationKind, GenerationStatus
from core.errors import InvalidInput, NotFound
from core.generations.read import tasks_by_generation
from core.keys import extension_for, thumbnail_key
from core.models.accounts import User
from core.models.base import utcnow
from core.models.generations import Generation, GenerationImage
from core.photos.images import check_image, thumbnail_from_bytes
from core.provenance.manifest import EngineIdentity, Ingredient, ProvenanceFacts
from core.provenance.setup import Provenance
from core.provenance.signing import SigningError
from core.settings import Settings
from core.storage import Storage


@dataclass(frozen=True)
class Pair:
    task: GenerationImage
    generation: Generation


@dataclass(frozen=True)
class PairPage:
    pairs: list[Pair]
    total: int


@dataclass(frozen=True)
class FoundGeneration:
    generation: Generation
    tasks: list[GenerationImage]
    owner_email: str | None


def _shared_pairs(kind: GenerationKind | None) -> Select[GenerationImage, Generation]:
    query = (
        select(GenerationImage, Generation)
        .join(Generation, Generation.id == GenerationImage.generation_id)
        .where(
            GenerationImage.shared_at.is_not(None),
            GenerationImage.status == GenerationStatus.COMPLETED,
            Generation.deleted_at.is_(None),
            # A test-mode image (watermarked, free) is never public, even if it was shared
            # before sharing checked the mode (issue 33).
            Generation.livemode.is_(True),
        )
    )
    if kind is not None:
        query = query.where(Generation.service == kind)
    return query


# The formats Content Credentials are signed into here (c2pa-python embeds in more, but these
# are the ones the product delivers and its reader checks); a WebP retouch is stored unsigned.
SIGNED_FORMATS = ("image/jpeg", "image/png")


def retouch_facts(
    provenance: Provenance, generation: Generation, task: GenerationImage
) -> ProvenanceFacts:
    """What a retouched version's credentials say: an edit (by an operator's tools, not an
    engine of ours) of the delivered output, its parent ingredient by the output's signed hash
    (or by task id for an output signed before hashes were recorded). The operator's upload is
    what is signed, not an ingredient of it."""
    digest = (task.content_credentials or {}).get("content_sha256")
    output_format = "image/png" if (task.output_key or "").endswith(".png") else "image/jpeg"
    parent = Ingredient(
        "source", "The generated image it retouches",
        f"sha256:{digest}" if digest else f"task:{task.id}", "parentOf", output_format,
    )
    return ProvenanceFacts(
        generation_id=generation.id,
        task_id=task.id,
        service=GenerationKind(generation.service),
        engine=EngineIdentity("retouch", provenance.product_version, ""),
        product_version=provenance.product_version,
        test_mode=not generation.livemode,
        ingredients=(parent,),
        retouched=True,
    )


class Showcase:
    def __init__(
        self,
        sessions: SessionFactory,
        storage: Storage,
        settings: Settings,
        provenance: Provenance | None = None,
    ) -> None:
        self.sessions = sessions
        self.storage = storage
        self.settings = settings
        # Signs retouched versions (attach_edit); None: they are stored as uploaded.
        self.provenance = provenance

    def _page(
        self, query: Select[GenerationImage, Generation], page: int, page_size: int
    ) -> PairPage:
        with self.sessions() as session:
            total = session.execute(select(func.count()).select_from(query.subquery())).scalar_one()
            rows = session.execute(
                query.order_by(
                    GenerationImage.showcased_at.desc(),
                    GenerationImage.shared_at.desc(),
                    GenerationImage.id,
                )
                .offset((page - 1) * page_size)
                .limit(page_size)
            ).all()
        return PairPage([Pair(task, generation) for task, generation in rows], int(total))

    def public(self, kind: GenerationKind | None, page: int, page_size: int) -> PairPage:
        """Curated pairs, for everyone."""
        query = _shared_pairs(kind).where(GenerationImage.showcased_at.is_not(None))
        return self._page(query, page, page_size)

    def candidates(
        self, kind: GenerationKind | None, page: int, page_size: int
    ) -> PairPage:
        """Every shared pair, curated or not, for operators."""
        return self._page(_shared_pairs(kind), page, page_size)

    def curate(self, task_id: str, showcased: bool) -> Pair:
        with self.sessions.begin() as session:
            row = session.execute(_shared_pairs(None).where(GenerationImage.id == task_id)).first()
            if row is None:
                raise NotFound("That image is not shared by its owner, so it cannot be shown.")
            task, generation = row
            task.showcased_at = (task.showcased_at or utcnow()) if showcased else None
        return Pair(task, generation)

    def find(self, generation_id: str | None, email: str | None) -> list[FoundGeneration]:
        """Generations by id, or the latest 50 of a user, for support and operations."""
        if not generation_id and not email:
            raise InvalidInput("Give a service id or a user's email.")
        with self.sessions() as session:
            query = select(Generation, User.email).outerjoin(
                User, User.account_id == Generation.account_id
            )
            if generation_id:
                query = query.where(Generation.id == generation_id)
            if email:
                query = query.where(User.email == email.strip().lower())
            rows = session.execute(query.order_by(Generation.created_at.desc()).limit(50)).all()
            tasks = tasks_by_generation(session, [generation.id for generation, _ in rows])
            found = [
                FoundGeneration(generation, tasks[generation.id], owner)
                for generation, owner in rows
            ]
        return found

    def attach_edit(self, task_id: str, data: bytes) -> GenerationImage:
        """Store a retouched version beside the generated image, signed with Content
        Credentials when it is a JPEG or PNG (a copy its owner downloads, like the output); the
        owner (a user) is mailed."""
        settings = self.settings
        info = check_image(
            data,
            max_bytes=settings.max_upload_bytes,
            max_megapixels=settings.max_megapixels,
            name="The edited image",
        )
        with self.sessions() as session:
            task = session.get(GenerationImage, task_id)
            if task is None or task.status != GenerationStatus.COMPLETED or not task.output_key:
                raise NotFound("That image was not found.")
            generation = session.get(Generation, task.generation_id)
            if generation is None or generation.deleted_at is not None:
                raise NotFound("That image was not found.")
            owner = session.execute(
                select(User).where(User.account_id == generation.account_id)
            ).scalar_one_or_none()
        credentials: dict[str, Any] | None = None
        if self.provenance is not None and info.mime_type in SIGNED_FORMATS:
            # Signed as stored, never re-encoded after: the operator's bytes plus the manifest.
            try:
                signed = self.provenance.signer.sign(
                    data, info.mime_type, retouch_facts(self.provenance, generation, task)
                )
            except SigningError:
                raise InvalidInput(
                    "The edited image decodes, but its file cannot carry Content Credentials; "
                    "export it again as a plain JPEG or PNG."
                ) from None
            data, credentials = signed.data, signed.summary.to_json()
        stamp = utcnow().strftime("%Y%m%d%H%M%S")
        key = f"edits/{generation.id}/{task.id}-{stamp}.{extension_for(info.mime_type)}"
        thumb = thumbnail_key(key)
        self.storage.put_bytes(key, data, info.mime_type)
        self.storage.put_bytes(thumb, thumbnail_from_bytes(data), "image/jpeg")
        with self.sessions.begin() as session:
            row = session.get(GenerationImage, task_id)
            assert row is not None
            previous = [k for k in (row.edited_key, row.edited_thumbnail_key) if k]
            row.edited_key, row.edited_thumbnail_key, row.edited_at = key, thumb, utcnow()
            row.edited_credentials = credentials
        for old in previous:
            self.storage.delete(old)
        if owner is not None:
            mail.keep(
                self.sessions,
                mail.Mail(
                    to=owner.email,
                    subject="Your edited image is ready",
                    body="Hello,\n\nOur team retouched one of your images. See it beside the "
                    f"original here:\n{settings.app_url}/output-image?serviceId={generation.id}"
                    "\n",
                    kind="edited-image",
                    dedupe_key=f"edited:{task.id}:{key}",
                ),
            )
        return row
