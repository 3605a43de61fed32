"""Generations ("services"): submit, read one, list, and the guest's email for the result."""

from __future__ import annotations

import logging
from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, Form, Header, Query, UploadFile

from api.deps import (
    CurrentPrincipal,
    DistributorDep,
    GenerationsDep,
    LibraryDep,
    SettingsDep,
    StorageDep,
    SubmissionsDep,
)
from api.schemas.common import Envelope, Ok, ServiceView
from api.schemas.services import GuestEmailBody, ServicePage, Submitted
from api.schemas.wire import Service
from api.validation import KeyText, PageNumber, ServiceId
from api.views import service_view
from core.auth.tokens import Principal
from core.enums import GenerationKind, GenerationStatus
from core.generations.submit import GenerationSubmission, NewFile, Submissions
from core.observability.logs import bind_log_context

log = logging.getLogger(__name__)
router = APIRouter(prefix="/imageedit/service", tags=["services"])

InputFiles = Annotated[
    list[UploadFile | KeyText],
    Form(description="Uploaded keys or file ids, or the image files themselves"),
]
IdempotencyKey = Annotated[str | None, Header(alias="Idempotency-Key", max_length=128)]
Fingerprint = Annotated[str | None, Header(alias="x-fingerprint-id", max_length=128)]


async def _inputs(values: list[UploadFile | str], limit: int) -> list[str | NewFile]:
    inputs: list[str | NewFile] = []
    for value in values:
        if isinstance(value, str):
            if value.strip():
                inputs.append(value.strip())
            continue
        data = await value.read(limit + 1)
        inputs.append(NewFile(value.filename or "image", value.content_type or "", data))
    return inputs


async def _submit(
    submissions: Submissions, principal: Principal, request: GenerationSubmission
) -> Envelope[Submitted]:
    # Submitting reads storage and the database synchronously: keep it off the event loop.
    done = await to_thread.run_sync(submissions.submit, principal, request)
    bind_log_context(service_id=done.generation.id)
    log.info(
        "generation submitted",
        extra={"service": request.service.value, "images": len(done.task_ids)},
    )
    return Envelope(
        data=Submitted(
            serviceId=done.generation.id,
            taskIds=done.task_ids,
            status=GenerationStatus(done.generation.status),
            credits=done.generation.credits,
        )
    )


@router.post(
    "/bodySwap", response_model=Envelope[Submitted], responses={402: {}, 422: {}}
)
async def body_swap(
    submissions: SubmissionsDep,
    settings: SettingsDep,
    principal: CurrentPrincipal,
    distributor: DistributorDep,
    modelId: Annotated[str, Form(max_length=64)],
    inputFiles: InputFiles,
    backgroundId: Annotated[str | None, Form(max_length=64)] = None,
    idempotency_key: IdempotencyKey = None,
    fingerprint: Fingerprint = None,
) -> Envelope[Submitted]:
    """Put the chosen digital model into each input image (optionally on a new background)."""
    request = GenerationSubmission(
        service=GenerationKind.BODY_SWAP,
        model_id=modelId or None,
        background_id=backgroundId or None,
        inputs=await _inputs(inputFiles, settings.max_upload_bytes),
        idempotency_key=idempotency_key,
        distributor_id=distributor,
        fingerprint=fingerprint,
    )
    return await _submit(submissions, principal, request)


@router.post(
    "/burstreplace", response_model=Envelope[Submitted], responses={402: {}, 422: {}}
)
async def burst_replace(
    submissions: SubmissionsDep,
    settings: SettingsDep,
    principal: CurrentPrincipal,
    distributor: DistributorDep,
    backgroundId: Annotated[str, Form(max_length=64)],
    inputFiles: InputFiles,
    idempotency_key: IdempotencyKey = None,
    fingerprint: Fingerprint = None,
) -> Envelope[Submitted]:
    """Put each input image's subject on the chosen background."""
    request = GenerationSubmission(
        service=GenerationKind.BURST_REPLACE,
        model_id=None,
        background_id=backgroundId or None,
        inputs=await _inputs(inputFiles, settings.max_upload_bytes),
        idempotency_key=idempotency_key,
        distributor_id=distributor,
        fingerprint=fingerprint,
    )
    return await _submit(submissions, principal, request)


@router.get("/all", response_model=Envelope[ServicePage])
def list_services(
    generations: GenerationsDep, library: LibraryDep, storage: StorageDep,
    principal: CurrentPrincipal,
    service: Service | None = None,
    status: GenerationStatus | None = None,
    pageNumber: PageNumber = 1,
    pageSize: Annotated[int, Query(ge=1, le=200)] = 90,
) -> Envelope[ServicePage]:
    """The caller's own generations, newest first."""
    page = generations.page(principal, service, status, pageNumber, pageSize)
    feedback = library.feedback_of(
        principal, [t.id for g in page.generations for t in page.tasks[g.id]]
    )
    items = [
        service_view(storage, g, page.tasks[g.id], feedback) for g in page.generations
    ]
    return Envelope(
        data=ServicePage(
            items=items, total=page.total, pageNumber=pageNumber, pageSize=pageSize
        )
    )


@router.post("/updateguestemail", response_model=Envelope[Ok])
def update_guest_email(
    generations: GenerationsDep, principal: CurrentPrincipal, body: GuestEmailBody
) -> Envelope[Ok]:
    """Email the guest when the generation finishes (at once if it already has)."""
    bind_log_context(service_id=body.serviceId)
    generations.mail_guest_when_done(principal, body.serviceId, body.email)
    return Envelope(data=Ok(ok=True))


@router.get("/{service_id}", response_model=Envelope[ServiceView])
def get_service(
    generations: GenerationsDep,
    library: LibraryDep,
    storage: StorageDep,
    principal: CurrentPrincipal,
    service_id: ServiceId,
) -> Envelope[ServiceView]:
    bind_log_context(service_id=service_id)
    generation, tasks = generations.get(principal, service_id)
    feedback = library.feedback_of(principal, [t.id for t in tasks])
    return Envelope(data=service_view(storage, generation, tasks, feedback))
