"""Generations ("services"): submit, read one, list, and the guest's email for the result."""

from __future__ import annotations

from typing import Annotated, Literal

from anyio import to_thread
from fastapi import APIRouter, Form, Header, Query, UploadFile
from sqlalchemy import func, select

from api.deps import CurrentPrincipal, DistributorDep, ServicesDep
from api.errors import ApiError
from api.generations import NewFile, SubmitRequest, service_view, submit
from api.schemas import (
    Envelope,
    GuestEmailBody,
    Ok,
    ServicePage,
    ServiceType,
    ServiceView,
    Submitted,
)
from core import jobs
from core.models import Generation, Task

router = APIRouter(prefix="/imageedit/service", tags=["services"])

InputFiles = Annotated[
    list[UploadFile | str],
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


def _submitted(generation: Generation, task_ids: list[str]) -> Envelope[Submitted]:
    return Envelope(
        data=Submitted(
            serviceId=generation.id,
            taskIds=task_ids,
            status=generation.status,
            credits=generation.credits,
        )
    )


async def _submit(
    services: ServicesDep, principal: CurrentPrincipal, request: SubmitRequest
) -> Envelope[Submitted]:
    # Submitting reads storage and the database synchronously: keep it off the event loop.
    generation, task_ids = await to_thread.run_sync(submit, services, principal, request)
    return _submitted(generation, task_ids)


@router.post(
    "/bodySwap", response_model=Envelope[Submitted], responses={402: {}, 422: {}}
)
async def body_swap(
    services: ServicesDep,
    principal: CurrentPrincipal,
    distributor: DistributorDep,
    modelId: Annotated[str, Form(max_length=64)],
    inputFiles: InputFiles,
    backgroundId: Annotated[str | None, Form(max_length=64)] = None,
    idempotency_key: IdempotencyKey = None,
    fingerprint: Fingerprint = None,
) -> Envelope[Submitted]:
    """Put the chosen digital model into each input image (optionally on a new background)."""
    request = SubmitRequest(
        service="bodySwap",
        model_id=modelId or None,
        background_id=backgroundId or None,
        inputs=await _inputs(inputFiles, services.settings.max_upload_bytes),
        idempotency_key=idempotency_key,
        distributor_id=distributor,
        fingerprint=fingerprint,
    )
    return await _submit(services, principal, request)


@router.post(
    "/burstreplace", response_model=Envelope[Submitted], responses={402: {}, 422: {}}
)
async def burst_replace(
    services: ServicesDep,
    principal: CurrentPrincipal,
    distributor: DistributorDep,
    backgroundId: Annotated[str, Form(max_length=64)],
    inputFiles: InputFiles,
    idempotency_key: IdempotencyKey = None,
    fingerprint: Fingerprint = None,
) -> Envelope[Submitted]:
    """Put each input image's subject on the chosen background."""
    request = SubmitRequest(
        service="burstreplace",
        model_id=None,
        background_id=backgroundId or None,
        inputs=await _inputs(inputFiles, services.settings.max_upload_bytes),
        idempotency_key=idempotency_key,
        distributor_id=distributor,
        fingerprint=fingerprint,
    )
    return await _submit(services, principal, request)


@router.get("/all", response_model=Envelope[ServicePage])
def list_services(
    services: ServicesDep,
    principal: CurrentPrincipal,
    service: ServiceType | None = None,
    status: Literal["queued", "running", "completed", "failed"] | None = None,
    pageNumber: Annotated[int, Query(ge=1)] = 1,
    pageSize: Annotated[int, Query(ge=1, le=200)] = 90,
) -> Envelope[ServicePage]:
    """The caller's own generations, newest first."""
    query = select(Generation).where(Generation.account_id == principal.account_id)
    if service:
        query = query.where(Generation.service == service)
    if status:
        query = query.where(Generation.status == status)
    with services.sessions() as session:
        total = session.execute(select(func.count()).select_from(query.subquery())).scalar_one()
        generations = list(
            session.execute(
                query.order_by(Generation.created_at.desc())
                .offset((pageNumber - 1) * pageSize)
                .limit(pageSize)
            ).scalars()
        )
        tasks_by_generation: dict[str, list[Task]] = {g.id: [] for g in generations}
        if generations:
            for task in session.execute(
                select(Task)
                .where(Task.generation_id.in_(list(tasks_by_generation)))
                .order_by(Task.position)
            ).scalars():
                tasks_by_generation[task.generation_id].append(task)
    items = [service_view(services.storage, g, tasks_by_generation[g.id]) for g in generations]
    return Envelope(
        data=ServicePage(
            items=items, total=int(total), pageNumber=pageNumber, pageSize=pageSize
        )
    )


@router.post("/updateguestemail", response_model=Envelope[Ok])
def update_guest_email(
    services: ServicesDep, principal: CurrentPrincipal, body: GuestEmailBody
) -> Envelope[Ok]:
    """Email the guest when the generation finishes (at once if it already has)."""
    with services.sessions.begin() as session:
        generation = session.get(Generation, body.serviceId)
        if generation is None or generation.account_id != principal.account_id:
            raise ApiError(404, "That generation was not found.")
        generation.guest_email = body.email.strip()
        jobs.queue_completion_mail(session, generation, services.settings.app_url)
    return Envelope(data=Ok(ok=True))


@router.get("/{service_id}", response_model=Envelope[ServiceView])
def get_service(
    services: ServicesDep, principal: CurrentPrincipal, service_id: str
) -> Envelope[ServiceView]:
    with services.sessions() as session:
        generation = session.get(Generation, service_id)
        if generation is None or generation.account_id != principal.account_id:
            raise ApiError(404, "That generation was not found.")
        tasks = list(
            session.execute(
                select(Task).where(Task.generation_id == service_id).order_by(Task.position)
            ).scalars()
        )
    return Envelope(data=service_view(services.storage, generation, tasks))
