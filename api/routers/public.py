"""The public API for shops' programs (issue 23), versioned under /api/v1: uploads and
generations, called with an account API key (`Authorization: Bearer mm_live_...`, per-key rate
limit, RateLimit-* headers) or a signed-in session.

Nothing here is a second path: a generation goes through the same submit rules, credit hold,
workflow, engine and analysis as the web app's (core/generations/submit.py), and reads and
deletes are the library's.
"""

from __future__ import annotations

import base64
import binascii
from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, File, Form, Header, Path, Query, UploadFile
from sqlalchemy import func, select

from api.deps import (
    CurrentCaller,
    DistributorDep,
    LibraryDep,
    PublicCaller,
    PublicPrincipal,
    SessionsDep,
    SettingsDep,
    StorageDep,
    SubmissionsDep,
)
from api.schemas.common import Envelope
from api.schemas.public import (
    GenerationBody,
    GenerationCredits,
    GenerationList,
    ImageView,
    KeyCredits,
    PublicGeneration,
    UploadView,
)
from api.views import credentials_view, output_view
from core import credits as account_credits
from core.auth.ownership import owned_by, owns
from core.db import SessionFactory
from core.enums import GenerationStatus, LedgerKind
from core.errors import InvalidInput, NotFound
from core.generations.read import (
    NOT_FOUND,
    owned_generation,
    tasks_by_generation,
    tasks_of,
)
from core.generations.submit import GenerationSubmission
from core.keys import thumbnail_key
from core.models.accounts import LedgerEntry
from core.models.generations import Generation, GenerationImage
from core.photos.images import check_image, check_size, thumbnail_from_bytes
from core.photos.uploads import record_upload, sniffed_type
from core.storage import Storage

router = APIRouter(prefix="/api/v1", tags=["public api"])

IdempotencyKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=128)]
PAGE_LIMIT = 100


@router.post("/uploads", response_model=Envelope[UploadView], status_code=201,
             responses={401: {}, 413: {}, 422: {}, 429: {}})
async def upload(
    sessions: SessionsDep,
    storage: StorageDep,
    settings: SettingsDep,
    principal: PublicPrincipal,
    file: Annotated[UploadFile | None, File(description="The image (JPEG, PNG or WebP)")] = None,
    filename: Annotated[str | None, Form(max_length=255)] = None,
    mimeType: Annotated[str | None, Form(max_length=32)] = None,
    size: Annotated[int | None, Form(ge=1, le=2**53)] = None,
) -> Envelope[UploadView]:
    """Send the image itself (`file`), or ask for a URL to PUT it to (`filename`, `mimeType`
    and `size`, no `file`). The answer's `key` goes in a generation's `inputs`."""
    if file is not None:
        data = await file.read(settings.max_upload_bytes + 1)
        name = file.filename or "image"

        def store() -> UploadView:
            # Checked now (type, bytes, pixels, a complete image): a bad file is refused here,
            # not later in a generation.
            check_image(data, max_bytes=settings.max_upload_bytes,
                        max_megapixels=settings.max_megapixels)
            content_type = sniffed_type(data)
            file_id, key = record_upload(sessions, principal.account_id, name, content_type,
                                         "upload")
            storage.put_bytes(key, data, content_type)
            # Its thumbnail, as the web app's createThumbnail makes: My Images shows the input
            # beside every image, a refused one's too.
            storage.put_bytes(thumbnail_key(key), thumbnail_from_bytes(data), "image/jpeg")
            return UploadView(id=file_id, key=key)

        return Envelope(data=await to_thread.run_sync(store))
    if not (filename and mimeType and size):
        raise InvalidInput("Send the image as `file`, or `filename`, `mimeType` and `size` "
                           "for an upload URL.")
    if mimeType not in ("image/jpeg", "image/png", "image/webp"):
        raise InvalidInput("mimeType: one of image/jpeg, image/png or image/webp.")
    check_size(size, settings.max_upload_bytes)
    file_id, key = record_upload(sessions, principal.account_id, filename, mimeType, "upload")
    url = storage.presigned_put(key, mimeType, size)
    return Envelope(data=UploadView(id=file_id, key=key, uploadUrl=url))


def _charged_and_refunded(
    sessions: SessionFactory, ids: list[str]
) -> dict[str, GenerationCredits]:
    """Credits charged and refunded per generation, from the ledger itself."""
    totals = {gid: [0, 0] for gid in ids}
    if not ids:
        return {}
    with sessions() as session:
        rows = session.execute(
            select(LedgerEntry.reference, LedgerEntry.kind,
                   func.sum(LedgerEntry.delta_free + LedgerEntry.delta_paid))
            .where(LedgerEntry.reference.in_(ids),
                   LedgerEntry.kind.in_((LedgerKind.CHARGE, LedgerKind.REFUND)))
            .group_by(LedgerEntry.reference, LedgerEntry.kind)
        ).all()
    for reference, kind, amount in rows:
        slot = 0 if kind == LedgerKind.CHARGE else 1
        totals[str(reference)][slot] += abs(int(amount or 0))
    return {gid: GenerationCredits(charged=c, refunded=r) for gid, (c, r) in totals.items()}


def generation_view(storage: Storage, generation: Generation, tasks: list[GenerationImage],
                    credits: GenerationCredits) -> PublicGeneration:
    images = generation.deleted_at is None
    return PublicGeneration(
        id=generation.id,
        service=generation.service,
        status=GenerationStatus(generation.status),
        modelId=generation.model_id,
        backgroundId=generation.background_id,
        metadata=generation.request_metadata or {},
        livemode=generation.livemode,
        credits=credits,
        images=[
            ImageView(
                id=task.id, status=GenerationStatus(task.status), progress=task.progress,
                inputKey=task.input_key, error=task.error,
                outputs=[output_view(storage, task.output_key, task.output_thumbnail_key)]
                if images and task.status == GenerationStatus.COMPLETED and task.output_key
                else [],
                contentCredentials=credentials_view(task.content_credentials) if images else None,
            )
            for task in tasks
            if task.source_task_id is None  # re-renders are the web app's versions
        ],
        error=generation.error,
        createdAt=generation.created_at.isoformat(),
        completedAt=generation.completed_at.isoformat() if generation.completed_at else None,
        deleted=generation.deleted_at is not None,
    )


def _one(sessions: SessionFactory, storage: Storage, caller: PublicCaller,
         generation_id: str, deleted: bool = False) -> PublicGeneration:
    """The caller's generation of the caller's mode (404 for anyone else's, for the other mode's,
    and for a deleted one unless `deleted`: the answer to the DELETE itself)."""
    principal = caller.principal
    with sessions() as session:
        if deleted:
            generation = session.get(Generation, generation_id)
            if generation is None or not owns(principal, generation):
                raise NotFound(NOT_FOUND)
        else:
            generation = owned_generation(session, principal, generation_id)
        # An image its owner deleted on its own is gone, unless the whole generation is.
        tasks = tasks_of(session, generation_id, with_deleted=deleted)
    credits = _charged_and_refunded(sessions, [generation_id])[generation_id]
    return generation_view(storage, generation, tasks, credits)


@router.post("/generations", response_model=Envelope[PublicGeneration], status_code=201,
             responses={401: {}, 402: {}, 422: {}, 429: {}, 503: {}})
async def create_generation(
    sessions: SessionsDep,
    storage: StorageDep,
    submissions: SubmissionsDep,
    caller: CurrentCaller,
    distributor: DistributorDep,
    body: GenerationBody,
    idempotency_key: IdempotencyKey = None,
) -> Envelope[PublicGeneration]:
    """Start a generation of the uploaded images (`inputs`: keys from POST /api/v1/uploads).
    With the same `Idempotency-Key`, a repeated request returns the first generation and is
    charged once."""
    request = GenerationSubmission(
        service=body.service, model_id=body.modelId or None,
        background_id=body.backgroundId or None, inputs=list(body.inputs),
        idempotency_key=idempotency_key, distributor_id=distributor, fingerprint=None,
        metadata=body.metadata, livemode=caller.livemode, inputs_field="inputs",
    )

    def run() -> PublicGeneration:
        done = submissions.submit(caller.principal, request)
        return _one(sessions, storage, caller, done.generation.id)

    return Envelope(data=await to_thread.run_sync(run))


GenerationId = Annotated[str, Path(max_length=32)]


@router.get("/generations/{generation_id}", response_model=Envelope[PublicGeneration],
            responses={401: {}, 404: {}, 429: {}})
def get_generation(sessions: SessionsDep, storage: StorageDep, caller: CurrentCaller,
                   generation_id: GenerationId) -> Envelope[PublicGeneration]:
    """Status, each image's progress and outputs (signed links), credits charged and refunded,
    and the reasons of any failure. Another account's generation is 404."""
    return Envelope(data=_one(sessions, storage, caller, generation_id))


def _cursor(generation: Generation) -> str:
    return base64.urlsafe_b64encode(generation.id.encode()).decode().rstrip("=")


def _from_cursor(value: str) -> str:
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InvalidInput("starting_after: not a cursor this API gave.") from None


@router.get("/generations", response_model=Envelope[GenerationList],
            responses={401: {}, 422: {}, 429: {}})
def list_generations(
    sessions: SessionsDep,
    storage: StorageDep,
    caller: CurrentCaller,
    status: GenerationStatus | None = None,
    limit: Annotated[int, Query(ge=1, le=PAGE_LIMIT)] = 20,
    starting_after: Annotated[str | None, Query(max_length=128)] = None,
) -> Envelope[GenerationList]:
    """The account's generations, newest first, `limit` at a time; pass `nextCursor` as
    `starting_after` for the next page (stable while new generations arrive)."""
    principal = caller.principal
    query = select(Generation).where(owned_by(principal, Generation),
                                     Generation.deleted_at.is_(None))
    if status is not None:
        query = query.where(Generation.status == status)
    with sessions() as session:
        if starting_after:
            after = session.execute(
                select(Generation.created_at, Generation.id).where(
                    Generation.id == _from_cursor(starting_after),
                    owned_by(principal, Generation))
            ).one_or_none()
            if after is None:
                raise InvalidInput("starting_after: not a cursor this API gave.")
            query = query.where(
                (Generation.created_at < after.created_at)
                | ((Generation.created_at == after.created_at) & (Generation.id < after.id)))
        found = list(session.execute(
            query.order_by(Generation.created_at.desc(), Generation.id.desc()).limit(limit + 1)
        ).scalars())
        page = found[:limit]
        tasks = tasks_by_generation(session, [g.id for g in page], with_deleted=False)
    credits = _charged_and_refunded(sessions, [g.id for g in page])
    return Envelope(data=GenerationList(
        items=[generation_view(storage, g, tasks.get(g.id, []), credits[g.id]) for g in page],
        hasMore=len(found) > limit,
        nextCursor=_cursor(page[-1]) if len(found) > limit else None,
    ))


@router.delete("/generations/{generation_id}", response_model=Envelope[PublicGeneration],
               responses={401: {}, 404: {}, 422: {}, 429: {}})
def delete_generation(sessions: SessionsDep, storage: StorageDep, library: LibraryDep,
                      caller: CurrentCaller,
                      generation_id: GenerationId) -> Envelope[PublicGeneration]:
    """Delete a finished generation's images (and its uploads no other generation uses). The
    record stays, marked deleted, with its credits: the ledger never changes."""
    _one(sessions, storage, caller, generation_id)  # 404 for the other mode's
    library.delete(caller.principal, generation_id)
    return Envelope(data=_one(sessions, storage, caller, generation_id, deleted=True))


@router.get("/credits", response_model=Envelope[KeyCredits], responses={401: {}, 429: {}})
def credits_available(sessions: SessionsDep, principal: PublicPrincipal) -> Envelope[KeyCredits]:
    """The account's credits: `free`, `paid`, `held` (reserved by generations still running)
    and `total`, what can be spent now."""
    with sessions() as session:
        balance = account_credits.get_balance(session, principal.account_id)
    return Envelope(data=KeyCredits(free=balance.free, paid=balance.paid,
                                    total=balance.available, held=balance.held))
