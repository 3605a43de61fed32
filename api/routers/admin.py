"""Operators' endpoints, under /api/v1/admin, every one behind CurrentAdmin (403 otherwise)."""

from __future__ import annotations

from typing import Annotated

from anyio import to_thread
from fastapi import APIRouter, Path, Query, UploadFile

from api.deps import CurrentAdmin, SettingsDep, ShowcaseDep, StorageDep
from api.routers.library import PageNum, PageSize
from api.schemas.admin import AdminGeneration, AdminGenerationList, CurateBody
from api.schemas.common import Envelope, ShowcasePage, ShowcasePair, TaskView
from api.schemas.wire import Service
from api.views import pair_view, service_view, showcase_page, task_view
from core.errors import InvalidInput

router = APIRouter(prefix="/api/v1/admin", tags=["admin"])

TaskId = Annotated[str, Path(min_length=1, max_length=64)]


@router.get("/showcase", response_model=Envelope[ShowcasePage])
def showcase_candidates(
    showcase: ShowcaseDep, storage: StorageDep,
    _admin: CurrentAdmin,
    serviceType: Service | None = None,
    pageNum: PageNum = 1,
    pageSize: PageSize = 24,
) -> Envelope[ShowcasePage]:
    """Every pair its owner shared; `showcased` says which ones the public showcase shows."""
    page = showcase.candidates(serviceType, pageNum, pageSize)
    return Envelope(data=showcase_page(storage, page, pageNum, pageSize))


@router.put("/showcase/{taskId}", response_model=Envelope[ShowcasePair])
def curate(
    showcase: ShowcaseDep,
    storage: StorageDep,
    _admin: CurrentAdmin,
    taskId: TaskId,
    body: CurateBody,
) -> Envelope[ShowcasePair]:
    """Show a shared pair in the public showcase, or take it off."""
    pair = showcase.curate(taskId, body.showcased)
    return Envelope(data=pair_view(storage, pair))


@router.get("/generations", response_model=Envelope[AdminGenerationList])
def find_generations(
    settings: SettingsDep, showcase: ShowcaseDep, storage: StorageDep,
    _admin: CurrentAdmin,
    serviceId: Annotated[str | None, Query(max_length=64)] = None,
    email: Annotated[str | None, Query(max_length=320)] = None,
) -> Envelope[AdminGenerationList]:
    """A generation by its id, or a user's latest 50, each with its workflow in the Temporal
    UI (the workflow id is the generation id). One its owner deleted is listed with the time
    of the deletion and without images."""
    ui = settings.resolved_temporal_ui_url.rstrip("/")
    namespace = settings.temporal_namespace
    items = [
        AdminGeneration(
            generation=service_view(storage, found.generation, found.tasks),
            ownerEmail=found.owner_email,
            temporalUrl=f"{ui}/namespaces/{namespace}/workflows/{found.generation.id}",
            traceId=found.generation.trace_id,
            deletedAt=deleted.isoformat() if (deleted := found.generation.deleted_at) else None,
        )
        for found in showcase.find(serviceId, email)
    ]
    return Envelope(data=AdminGenerationList(items=items))


@router.post("/edits/{taskId}", response_model=Envelope[TaskView])
async def attach_edit(
    settings: SettingsDep,
    showcase: ShowcaseDep,
    storage: StorageDep,
    _admin: CurrentAdmin,
    taskId: TaskId,
    file: UploadFile,
) -> Envelope[TaskView]:
    """Attach a retouched version to a generated image; its owner sees "Edited" and gets a
    mail."""
    limit = settings.max_upload_bytes
    data = await file.read(limit + 1)
    if not data:
        raise InvalidInput("file: the edited image is empty.")
    task = await to_thread.run_sync(showcase.attach_edit, taskId, data)
    return Envelope(data=task_view(storage, task))
