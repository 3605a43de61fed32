"""Submitting generations and reading them back. Routes stay thin; the rules live here."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import anyio.from_thread
from sqlalchemy import or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from temporalio.common import WorkflowIDConflictPolicy

from api.deps import AppServices
from api.errors import ApiError
from api.schemas import Output, ServiceView, TaskView
from api.security import Principal
from core import credits
from core.catalog import find_background, find_model
from core.contracts import GENERATION_WORKFLOW, GenerationOptions, StartGeneration
from core.costs import generation_cost
from core.images import ImageRejected, check_image
from core.keys import thumbnail_key, upload_key
from core.models import CatalogItem, Generation, Task, UploadedFile, new_id
from core.storage import Storage

log = logging.getLogger(__name__)

MAX_INPUTS = 20


@dataclass(frozen=True)
class NewFile:
    """A file sent inside the submit itself instead of uploaded first."""

    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class SubmitRequest:
    service: str
    model_id: str | None
    background_id: str | None
    inputs: list[str | NewFile]
    idempotency_key: str | None
    distributor_id: str
    fingerprint: str | None


def _resolve_reference(session: Session, principal: Principal, value: str) -> str | None:
    """The object key an input refers to: the caller's upload (by id or key) or a sample."""
    upload = session.execute(
        select(UploadedFile.key).where(
            UploadedFile.account_id == principal.account_id,
            or_(UploadedFile.id == value, UploadedFile.key == value),
        )
    ).scalar_one_or_none()
    if upload is not None:
        return upload
    sample = session.execute(
        select(CatalogItem.key).where(
            CatalogItem.kind == "sample", or_(CatalogItem.id == value, CatalogItem.key == value)
        )
    ).scalar_one_or_none()
    return sample


def _store_new_file(services: AppServices, principal: Principal, file: NewFile) -> str:
    file_id = new_id()
    key = upload_key(principal.account_id, file_id, file.filename)
    services.storage.put_bytes(key, file.data, file.content_type or "application/octet-stream")
    with services.sessions.begin() as session:
        session.add(
            UploadedFile(
                id=file_id,
                account_id=principal.account_id,
                key=key,
                filename=file.filename,
                mime_type=file.content_type,
                request_type="upload",
            )
        )
    return key


def _check_inputs(services: AppServices, keys: list[str]) -> None:
    """Reject unusable images now, with a clear message, before anything is started."""
    settings = services.settings
    for number, key in enumerate(keys, start=1):
        name = f"Image {number}" if len(keys) > 1 else "The image"
        data = services.storage.get_bytes_or_none(key, max_bytes=settings.max_upload_bytes)
        if data is None:
            raise ApiError(422, f"{name} has not been uploaded yet.")
        try:
            check_image(
                data,
                max_bytes=settings.max_upload_bytes,
                max_megapixels=settings.max_megapixels,
                name=name,
            )
        except ImageRejected as error:
            raise ApiError(422, error.message) from None


def _existing(session: Session, principal: Principal, idempotency_key: str) -> Generation | None:
    return session.execute(
        select(Generation).where(
            Generation.account_id == principal.account_id,
            Generation.idempotency_key == idempotency_key,
        )
    ).scalar_one_or_none()


def _task_ids(session: Session, generation_id: str) -> list[str]:
    return list(
        session.execute(
            select(Task.id).where(Task.generation_id == generation_id).order_by(Task.position)
        ).scalars()
    )


def submit(
    services: AppServices, principal: Principal, request: SubmitRequest
) -> tuple[Generation, list[str]]:
    """Validate, check the balance, record the generation and start its workflow.

    Nothing is charged here: the workflow charges once, keyed by the generation id. A repeated
    submit with the same idempotency key returns the first generation and starts nothing.
    """
    if request.idempotency_key:
        with services.sessions() as session:
            found = _existing(session, principal, request.idempotency_key)
            if found is not None:
                return found, _task_ids(session, found.id)

    if not request.inputs:
        raise ApiError(422, "inputFiles: add at least one image.")
    if len(request.inputs) > MAX_INPUTS:
        raise ApiError(422, f"inputFiles: at most {MAX_INPUTS} images per generation.")
    with services.sessions() as session:
        if request.service == "bodySwap":
            if not request.model_id:
                raise ApiError(422, "modelId: choose a model.")
            if find_model(session, request.model_id) is None:
                raise ApiError(422, "modelId: that model does not exist.")
        if request.service == "burstreplace" and not request.background_id:
            raise ApiError(422, "backgroundId: choose a background.")
        if request.background_id and find_background(session, request.background_id) is None:
            raise ApiError(422, "backgroundId: that background does not exist.")
        resolved: list[str | NewFile] = []
        for index, value in enumerate(request.inputs):
            if isinstance(value, NewFile):
                resolved.append(value)
                continue
            key = _resolve_reference(session, principal, value)
            if key is None:
                raise ApiError(422, f"inputFiles[{index}]: that is not one of your uploads.")
            resolved.append(key)
    keys = [
        _store_new_file(services, principal, value) if isinstance(value, NewFile) else value
        for value in resolved
    ]
    _check_inputs(services, keys)

    cost = generation_cost(request.service, len(keys))
    with services.sessions() as session:
        balance = credits.get_balance(session, principal.account_id)
    if balance.total < cost:
        raise ApiError(402, str(credits.InsufficientCredits(cost, balance.total)))

    generation = Generation(
        id=new_id(),
        account_id=principal.account_id,
        service=request.service,
        status="queued",
        model_id=request.model_id if request.service == "bodySwap" else None,
        background_id=request.background_id,
        credits=cost,
        distributor_id=request.distributor_id,
        fingerprint=request.fingerprint,
        idempotency_key=request.idempotency_key,
    )
    tasks = [
        Task(id=new_id(), generation_id=generation.id, position=i, input_key=key)
        for i, key in enumerate(keys)
    ]
    try:
        with services.sessions.begin() as session:
            session.add(generation)
            session.flush()
            session.add_all(tasks)
    except IntegrityError:
        # The same idempotency key raced us; the other request's generation is the answer.
        with services.sessions() as session:
            found = _existing(session, principal, request.idempotency_key or "")
            if found is None:
                raise
            return found, _task_ids(session, found.id)

    try:
        _start_workflow(services, generation.id)
    except Exception:
        log.exception("could not start generation %s", generation.id)
        with services.sessions.begin() as session:
            for task in session.execute(
                select(Task).where(Task.generation_id == generation.id)
            ).scalars():
                session.delete(task)
            row = session.get(Generation, generation.id)
            if row is not None:
                session.delete(row)
        raise ApiError(
            503, "The generation service is not reachable right now; nothing was charged."
        ) from None
    return generation, [task.id for task in tasks]


def _start_workflow(services: AppServices, generation_id: str) -> None:
    settings = services.settings
    start = StartGeneration(
        generation_id=generation_id,
        options=GenerationOptions(
            imaging_task_queue=settings.imaging_task_queue,
            imaging_timeout_seconds=settings.engine_timeout_seconds,
            heartbeat_timeout_seconds=settings.imaging_heartbeat_timeout_seconds,
        ),
    )

    async def start_it() -> None:
        await services.temporal.start_workflow(
            GENERATION_WORKFLOW,
            start,
            id=generation_id,
            task_queue=settings.task_queue,
            id_conflict_policy=WorkflowIDConflictPolicy.USE_EXISTING,
        )

    # Routes run in worker threads; the Temporal client lives on the app's event loop.
    anyio.from_thread.run(start_it)


def task_view(storage: Storage, task: Task) -> TaskView:
    outputs = []
    if task.status == "completed" and task.output_key:
        outputs.append(
            Output(
                key=task.output_key,
                url=storage.presigned_get(task.output_key),
                thumbnailUrl=storage.presigned_get(
                    task.output_thumbnail_key or thumbnail_key(task.output_key)
                ),
            )
        )
    return TaskView(
        taskId=task.id,
        status=task.status,  # type: ignore[arg-type]
        progress=task.progress,
        stage=task.stage,
        inputKey=task.input_key,
        inputThumbnailUrl=storage.presigned_get(thumbnail_key(task.input_key)),
        outputs=outputs,
        error=task.error,
    )


def service_view(storage: Storage, generation: Generation, tasks: list[Task]) -> ServiceView:
    return ServiceView(
        serviceId=generation.id,
        service=generation.service,  # type: ignore[arg-type]
        status=generation.status,
        credits=generation.credits,
        modelId=generation.model_id,
        backgroundId=generation.background_id,
        error=generation.error,
        createdAt=generation.created_at.isoformat(),
        completedAt=generation.completed_at.isoformat() if generation.completed_at else None,
        tasks=[task_view(storage, task) for task in tasks],
    )
