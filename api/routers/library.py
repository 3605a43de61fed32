"""The signed-in user's (or guest's) library: gallery, feedback, sharing, deletion and ZIP
downloads; the public showcase; fresh service ids. Routes stay thin: core/library/gallery.py and
core/library/showcase.py hold the rules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse
from zipstream import ZipStream

from api.deps import CurrentPrincipal, LibraryDep, ShowcaseDep, StorageDep
from api.schemas.common import Envelope, ShowcasePage
from api.schemas.library import (
    Deleted,
    DeletedImage,
    Feedback,
    FeedbackBody,
    GalleryImage,
    GalleryPage,
    ServiceIdView,
    ShareBody,
    Shared,
    ZipBody,
)
from api.schemas.wire import Service
from api.validation import PageNumber, ServiceId, TaskId
from api.views import edited_view, output_view, showcase_page
from core.enums import GenerationKind, Rating
from core.keys import thumbnail_key
from core.models.base import new_id

router = APIRouter(prefix="/imageedit/service", tags=["library"])

PageNum = PageNumber
PageSize = Annotated[int, Query(ge=1, le=100)]


@router.get("/gallery", response_model=Envelope[GalleryPage])
def gallery(
    library: LibraryDep, storage: StorageDep,
    principal: CurrentPrincipal,
    serviceType: Service | None = GenerationKind.BODY_SWAP,
    pageNum: PageNum = 1,
    pageSize: PageSize = 90,
) -> Envelope[GalleryPage]:
    """The caller's generated images, one item per image, newest first."""
    page = library.gallery(principal, serviceType, pageNum, pageSize)
    items = [
        GalleryImage(
            taskId=item.task.id,
            serviceId=item.generation.id,
            service=GenerationKind(item.generation.service),
            createdAt=item.generation.created_at.isoformat(),
            inputThumbnailUrl=storage.presigned_get(thumbnail_key(item.task.input_key)),
            output=output_view(
                storage, item.task.output_key or "", item.task.output_thumbnail_key
            ),
            edited=edited_view(storage, item.task),
            shared=item.task.shared_at is not None,
            rating=Rating(item.rating) if item.rating else None,
            comment=item.comment,
        )
        for item in page.items
    ]
    return Envelope(
        data=GalleryPage(items=items, total=page.total, pageNum=pageNum, pageSize=pageSize)
    )


@router.post("/feedback", response_model=Envelope[Feedback])
def feedback(
    library: LibraryDep, principal: CurrentPrincipal, body: FeedbackBody
) -> Envelope[Feedback]:
    """Thumbs up or down on one image, with an optional comment; giving it again edits it."""
    row = library.give_feedback(principal, body.taskId, body.rating, body.comment)
    return Envelope(data=Feedback(taskId=row.task_id, rating=Rating(row.rating),
                                  comment=row.comment))


@router.post("/share", response_model=Envelope[Shared])
def share(library: LibraryDep, principal: CurrentPrincipal, body: ShareBody) -> Envelope[Shared]:
    """Agree (or no longer agree) to show this input and output in the public showcase."""
    task = library.share(principal, body.taskId, body.shared)
    return Envelope(data=Shared(taskId=task.id, shared=task.shared_at is not None))


@router.post("/download", response_class=StreamingResponse, responses={
    200: {"content": {"application/zip": {}}, "description": "A ZIP of the chosen images"}
})
def download_zip(
    library: LibraryDep, principal: CurrentPrincipal, body: ZipBody
) -> StreamingResponse:
    """The chosen images (originals, and retouched versions where there are) as one ZIP,
    streamed as it is read from storage; its length is known up front, so the browser can
    show progress."""
    entries = library.zip_entries(principal, body.taskIds)
    archive = ZipStream(sized=True)  # stored, not deflated: JPEG and PNG do not shrink
    for key, name, size in entries:
        archive.add(_lazy(library.stream, key), name, size=size)
    return StreamingResponse(
        iter(archive),
        media_type="application/zip",
        headers={
            "Content-Length": str(len(archive)),
            "Content-Disposition": 'attachment; filename="metamodel-images.zip"',
            "X-Content-Type-Options": "nosniff",
        },
    )


def _lazy(open_stream: object, key: str) -> Iterator[bytes]:
    """Open the object only when the archive reaches it (one connection at a time)."""
    assert callable(open_stream)
    yield from open_stream(key)


@router.get("/showCaseFromS3", response_model=Envelope[ShowcasePage])
def showcase(
    showcase: ShowcaseDep, storage: StorageDep,
    serviceType: Service | None = GenerationKind.BODY_SWAP,
    pageNum: PageNum = 1,
    pageSize: PageSize = 12,
) -> Envelope[ShowcasePage]:
    """Curated before/after pairs whose owners agreed to share them. Public."""
    page = showcase.public(serviceType, pageNum, pageSize)
    return Envelope(data=showcase_page(storage, page, pageNum, pageSize))


@router.get("/id", response_model=Envelope[ServiceIdView])
def service_id(_principal: CurrentPrincipal) -> Envelope[ServiceIdView]:
    """A fresh id for a client that wants to name its generation before uploading: send it as
    the submit's Idempotency-Key, and a retried submit can never start it twice."""
    return Envelope(data=ServiceIdView(serviceId=new_id()))


@router.delete("/{service_id}", response_model=Envelope[Deleted])
def delete_generation(
    library: LibraryDep, principal: CurrentPrincipal, service_id: ServiceId
) -> Envelope[Deleted]:
    """Delete a finished generation's images from storage (the credit ledger is kept)."""
    removed = library.delete(principal, service_id)
    return Envelope(data=Deleted(serviceId=service_id, removedObjects=removed))


@router.delete("/{service_id}/task/{task_id}", response_model=Envelope[DeletedImage])
def delete_image(
    library: LibraryDep, principal: CurrentPrincipal, service_id: ServiceId, task_id: TaskId
) -> Envelope[DeletedImage]:
    """Delete one image of a finished generation (the trash icon on an image): its siblings
    stay. Its last image takes the generation with it. Nothing is charged or refunded."""
    deleted = library.delete_image(principal, service_id, task_id)
    return Envelope(data=DeletedImage(
        serviceId=service_id, taskId=task_id, removedObjects=deleted.removed_objects,
        generationDeleted=deleted.generation_deleted,
    ))
