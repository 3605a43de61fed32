"""A user's library of generated images: the gallery, feedback, deletion, ZIP downloads,
and sharing to the public showcase (credit usage is core/billing/usage.py).

Rules only; routers in api/routers/library.py shape the answers. Ownership is checked on every
call: someone else's image answers NotFound, exactly like one that does not exist.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from core.auth.ownership import owned_by, owns
from core.auth.tokens import Principal
from core.db import SessionFactory
from core.enums import TERMINAL_STATUSES, GenerationKind, GenerationStatus, Rating
from core.errors import InvalidInput, NotFound
from core.generations.read import tasks_of
from core.keys import thumbnail_key
from core.models.base import utcnow
from core.models.generations import Generation, GenerationImage, ImageFeedback
from core.storage import Storage

IMAGE_NOT_FOUND = "That image was not found."
MAX_ZIP_IMAGES = 200


@dataclass(frozen=True)
class GalleryItem:
    task: GenerationImage
    generation: Generation
    rating: str | None
    comment: str


@dataclass(frozen=True)
class GalleryPage:
    items: list[GalleryItem]
    total: int


def _visible_outputs(principal: Principal) -> Select[GenerationImage, Generation]:
    """Completed images of the caller's generations (of its mode: the web app's are live, a
    test key's images are not part of My Images) that were not deleted."""
    return (
        select(GenerationImage, Generation)
        .join(Generation, Generation.id == GenerationImage.generation_id)
        .where(
            owned_by(principal, Generation),
            Generation.deleted_at.is_(None),
            GenerationImage.deleted_at.is_(None),
            GenerationImage.status == GenerationStatus.COMPLETED,
            GenerationImage.output_key.is_not(None),
        )
    )


def owned_task(
    session: Session, principal: Principal, task_id: str
) -> tuple[GenerationImage, Generation] | None:
    """The caller's image (of a generation not deleted, in the caller's mode) with its
    generation; None for anything else, someone else's and the other mode's included (callers
    never say which)."""
    row = session.execute(
        select(GenerationImage, Generation)
        .join(Generation, Generation.id == GenerationImage.generation_id)
        .where(
            GenerationImage.id == task_id,
            GenerationImage.deleted_at.is_(None),
            owned_by(principal, Generation),
            Generation.deleted_at.is_(None),
        )
    ).first()
    return (row[0], row[1]) if row is not None else None


def owned_output(
    session: Session, principal: Principal, task_id: str
) -> tuple[GenerationImage, Generation]:
    """The caller's completed image, or NotFound (also for someone else's)."""
    row = owned_task(session, principal, task_id)
    if row is None or row[0].status != GenerationStatus.COMPLETED or not row[0].output_key:
        raise NotFound(IMAGE_NOT_FOUND)
    return row[0], row[1]


def task_objects(task: GenerationImage) -> list[str]:
    """The objects one image made: its output, the output's thumbnails, a retouched version."""
    keys = [
        key
        for key in (
            task.output_key,
            task.output_thumbnail_key,
            task.edited_key,
            task.edited_thumbnail_key,
        )
        if key
    ]
    if task.output_key:
        keys.append(thumbnail_key(task.output_key))
    return keys


def generation_objects(generation: Generation, tasks: list[GenerationImage]) -> list[str]:
    """Every object a generation made: outputs, their thumbnails, retouched versions, and the
    inputs' thumbnails. The inputs themselves are the user's uploads (see delete)."""
    keys: list[str] = []
    for task in tasks:
        keys.append(thumbnail_key(task.input_key))
        keys.extend(task_objects(task))
    return list(dict.fromkeys(keys))


def _released_inputs(
    session: Session, principal: Principal, leaving: list[GenerationImage]
) -> list[str]:
    """The inputs of the `leaving` images (and their thumbnails) that no other image of the
    account still shows: a re-render shares its original's input, and an upload may be used by
    several generations. Only the account's own uploads are deleted; a thumbnail that another
    image still shows is kept (deleting it left that image with a broken input)."""
    leaving_ids = [task.id for task in leaving]
    keys: list[str] = []
    for input_key in dict.fromkeys(task.input_key for task in leaving):
        still_used = session.execute(
            select(func.count())
            .select_from(GenerationImage)
            .join(Generation, Generation.id == GenerationImage.generation_id)
            .where(
                GenerationImage.input_key == input_key,
                GenerationImage.id.not_in(leaving_ids),
                GenerationImage.deleted_at.is_(None),
                Generation.deleted_at.is_(None),
            )
        ).scalar_one()
        if still_used:
            continue
        keys.append(thumbnail_key(input_key))
        if input_key.startswith(f"uploads/{principal.account_id}/"):
            keys.append(input_key)
    return keys


@dataclass(frozen=True)
class ImageDeleted:
    removed_objects: int
    # The generation's last image was deleted: the generation went with it.
    generation_deleted: bool


class Library:
    def __init__(self, sessions: SessionFactory, storage: Storage) -> None:
        self.sessions = sessions
        self.storage = storage

    def gallery(
        self, principal: Principal, kind: GenerationKind | None, page: int, page_size: int
    ) -> GalleryPage:
        """The caller's images, one item per image, newest first."""
        query = _visible_outputs(principal)
        if kind is not None:
            query = query.where(Generation.service == kind)
        with self.sessions() as session:
            total = session.execute(
                select(func.count()).select_from(query.subquery())
            ).scalar_one()
            rows = session.execute(
                query.order_by(Generation.created_at.desc(), GenerationImage.position)
                .offset((page - 1) * page_size)
                .limit(page_size)
            ).all()
            ratings = self._feedback(session, principal, [task.id for task, _ in rows])
        items = [
            GalleryItem(task, generation, *ratings.get(task.id, (None, "")))
            for task, generation in rows
        ]
        return GalleryPage(items, int(total))

    def feedback_of(
        self, principal: Principal, task_ids: list[str]
    ) -> dict[str, tuple[str, str]]:
        """The caller's (rating, comment) on each of these images that has one."""
        with self.sessions() as session:
            return self._feedback(session, principal, task_ids)

    def _feedback(
        self, session: Session, principal: Principal, task_ids: list[str]
    ) -> dict[str, tuple[str, str]]:
        if not task_ids:
            return {}
        return {
            row.task_id: (row.rating, row.comment)
            for row in session.execute(
                select(ImageFeedback).where(
                    ImageFeedback.account_id == principal.account_id,
                    ImageFeedback.task_id.in_(task_ids),
                )
            ).scalars()
        }

    def give_feedback(
        self, principal: Principal, task_id: str, rating: Rating, comment: str
    ) -> ImageFeedback:
        """One verdict per image and account; giving it again changes it."""
        with self.sessions.begin() as session:
            owned_output(session, principal, task_id)
            row = session.execute(
                select(ImageFeedback).where(
                    ImageFeedback.task_id == task_id,
                    ImageFeedback.account_id == principal.account_id,
                )
            ).scalar_one_or_none()
            if row is None:
                row = ImageFeedback(task_id=task_id, account_id=principal.account_id)
                session.add(row)
            row.rating = rating
            row.comment = comment.strip()
        return row

    def share(self, principal: Principal, task_id: str, shared: bool) -> GenerationImage:
        """The owner's consent to show this input/output pair in the public showcase.
        Withdrawing it also takes the pair off the showcase at once."""
        with self.sessions.begin() as session:
            task, _ = owned_output(session, principal, task_id)
            if shared:
                task.shared_at = task.shared_at or utcnow()
            else:
                task.shared_at = None
                task.showcased_at = None
        return task

    def delete(self, principal: Principal, generation_id: str) -> int:
        """Delete a generation's images from storage; the generation stays recorded (deleted)
        so that the credit ledger, which is never touched, still points at something.

        The uploads it used are deleted too unless another of the account's generations still
        uses them. Returns how many objects were removed."""
        with self.sessions.begin() as session:
            generation = session.get(Generation, generation_id)
            if (
                generation is None
                or not owns(principal, generation)
                or generation.deleted_at is not None
            ):
                raise NotFound("That generation was not found.")
            if generation.status not in (GenerationStatus.COMPLETED, GenerationStatus.FAILED):
                raise InvalidInput("This generation is still running; delete it when it ends.")
            # Images deleted on their own are gone already.
            tasks = tasks_of(session, generation_id, with_deleted=False)
            if any(task.status not in TERMINAL_STATUSES for task in tasks):
                # A re-render with a new placement, still being made: its output would land
                # after the delete and outlive it.
                raise InvalidInput(
                    "An image of this generation is still being made; delete it when it is done."
                )
            keys = [key for task in tasks for key in task_objects(task)]
            keys += _released_inputs(session, principal, tasks)
            for task in tasks:
                task.shared_at = None
                task.showcased_at = None
            generation.deleted_at = utcnow()
        for key in keys:
            self.storage.delete(key)
        return len(keys)

    def delete_image(
        self, principal: Principal, generation_id: str, task_id: str
    ) -> ImageDeleted:
        """Delete one image of a finished generation, and nothing else: its siblings stay, and
        so does its input while another image shows it. The task row stays (marked deleted) for
        the generation's accounting; nothing is charged or refunded. Deleting the last image
        deletes the generation too."""
        with self.sessions.begin() as session:
            owned = owned_task(session, principal, task_id)
            if owned is None or owned[1].id != generation_id:
                raise NotFound(IMAGE_NOT_FOUND)
            task, generation = owned
            if generation.status not in (GenerationStatus.COMPLETED, GenerationStatus.FAILED):
                raise InvalidInput(
                    "This generation is still running; delete its images when it ends."
                )
            if task.status not in TERMINAL_STATUSES:
                # A re-render with a new placement: its output would land after the delete.
                raise InvalidInput("This image is still being made; delete it when it is done.")
            keys = task_objects(task) + _released_inputs(session, principal, [task])
            task.deleted_at = utcnow()
            task.shared_at = None
            task.showcased_at = None
            others = session.execute(
                select(func.count())
                .select_from(GenerationImage)
                .where(
                    GenerationImage.generation_id == generation.id,
                    GenerationImage.id != task.id,
                    GenerationImage.deleted_at.is_(None),
                )
            ).scalar_one()
            if not others:
                generation.deleted_at = utcnow()
        for key in keys:
            self.storage.delete(key)
        return ImageDeleted(removed_objects=len(keys), generation_deleted=not others)

    def zip_entries(
        self, principal: Principal, task_ids: list[str]
    ) -> list[tuple[str, str, int]]:
        """(object key, name in the archive, size) for each of the caller's images, originals
        and retouched versions; NotFound if any id is not the caller's image."""
        unique = list(dict.fromkeys(task_ids))
        if not unique or len(unique) > MAX_ZIP_IMAGES:
            raise InvalidInput(f"taskIds: choose between 1 and {MAX_ZIP_IMAGES} images.")
        entries: list[tuple[str, str, int]] = []
        with self.sessions() as session:
            for number, task_id in enumerate(unique, start=1):
                task, generation = owned_output(session, principal, task_id)
                stem = f"{number:03d}-{generation.service}-{task.id[:8]}"
                for key, suffix in ((task.output_key, ""), (task.edited_key, "-edited")):
                    if not key:
                        continue
                    info = self.storage.stat(key)
                    if info is None:
                        continue  # deleted meanwhile: leave it out rather than fail the archive
                    extension = key.rsplit(".", 1)[-1]
                    entries.append((key, f"{stem}{suffix}.{extension}", info.size))
        if not entries:
            raise NotFound(IMAGE_NOT_FOUND)
        return entries

    def stream(self, key: str) -> Iterator[bytes]:
        return self.storage.stream(key)
