"""Direct-to-storage uploads: presigned PUT URLs and thumbnails of what was uploaded."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from sqlalchemy import select

from api.deps import CurrentPrincipal, ServicesDep
from api.errors import ApiError
from api.schemas import Envelope, PresignedUpload, ServiceType, Thumbnail, ThumbnailBody
from core.images import ImageRejected, check_image, thumbnail_from_bytes
from core.keys import thumbnail_key, upload_key
from core.models import UploadedFile, new_id

router = APIRouter(tags=["uploads"])

MimeType = Literal["image/jpeg", "image/png", "image/webp"]


@router.get("/api/v1/request/presignedUrl", response_model=Envelope[PresignedUpload])
def presigned_url(
    services: ServicesDep,
    principal: CurrentPrincipal,
    filename: Annotated[str, Query(min_length=1, max_length=255)],
    mimeType: MimeType,
    requestType: ServiceType = "bodySwap",
) -> Envelope[PresignedUpload]:
    """A URL the browser PUTs the file to, with the same Content-Type."""
    file_id = new_id()
    key = upload_key(principal.account_id, file_id, filename)
    with services.sessions.begin() as session:
        session.add(
            UploadedFile(
                id=file_id,
                account_id=principal.account_id,
                key=key,
                filename=filename,
                mime_type=mimeType,
                request_type=requestType,
            )
        )
    url = services.storage.presigned_put(key)
    return Envelope(data=PresignedUpload(url=url, key=key, _id=file_id))


@router.post("/api/v1/util/createThumbnail", response_model=Envelope[Thumbnail])
def create_thumbnail(
    services: ServicesDep, principal: CurrentPrincipal, body: ThumbnailBody
) -> Envelope[Thumbnail]:
    """Check the uploaded image and make its thumbnail (EXIF orientation applied)."""
    with services.sessions() as session:
        upload = session.execute(
            select(UploadedFile).where(
                UploadedFile.key == body.key, UploadedFile.account_id == principal.account_id
            )
        ).scalar_one_or_none()
    if upload is None:
        raise ApiError(404, "That upload was not found.")
    settings = services.settings
    if services.storage.stat(body.key) is None:
        raise ApiError(404, "The file has not been uploaded yet.")
    data = services.storage.get_bytes(body.key, max_bytes=settings.max_upload_bytes)
    try:
        info = check_image(
            data, max_bytes=settings.max_upload_bytes, max_megapixels=settings.max_megapixels
        )
    except ImageRejected as error:
        raise ApiError(422, error.message) from None
    thumb = thumbnail_key(body.key)
    services.storage.put_bytes(thumb, thumbnail_from_bytes(data), "image/jpeg")
    with services.sessions.begin() as session:
        row = session.get(UploadedFile, upload.id)
        if row is not None:
            row.thumbnail_key = thumb
            row.width, row.height = info.width, info.height
    return Envelope(
        data=Thumbnail(
            key=body.key,
            url=services.storage.presigned_get(body.key),
            thumbnailKey=thumb,
            thumbnailUrl=services.storage.presigned_get(thumb),
            width=info.width,
            height=info.height,
        )
    )
