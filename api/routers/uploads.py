"""Direct-to-storage uploads: presigned PUT URLs and thumbnails of what was uploaded."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query
from sqlalchemy import select

from api.deps import (
    CurrentPrincipal,
    ModelFitsDep,
    PhotoAnalyserDep,
    SessionsDep,
    SettingsDep,
    StorageDep,
)
from api.schemas.common import Envelope
from api.schemas.uploads import PhotoAnalysisView, PresignedUpload, Thumbnail, ThumbnailBody
from api.schemas.wire import Service
from core.auth.tokens import Principal
from core.db import SessionFactory
from core.enums import GenerationKind
from core.errors import NotFound
from core.keys import thumbnail_key
from core.models.generations import UploadedFile
from core.photos.images import check_image, check_size, thumbnail_from_bytes
from core.photos.uploads import record_upload

router = APIRouter(tags=["uploads"])

MimeType = Literal["image/jpeg", "image/png", "image/webp"]


@router.get("/api/v1/request/presignedUrl", response_model=Envelope[PresignedUpload])
def presigned_url(
    sessions: SessionsDep, settings: SettingsDep, storage: StorageDep,
    principal: CurrentPrincipal,
    filename: Annotated[str, Query(min_length=1, max_length=255)],
    mimeType: MimeType,
    requestType: Service = GenerationKind.BODY_SWAP,
    size: Annotated[
        int | None,
        Query(ge=0, le=2**53, description="The file's size in bytes; the URL then takes no other."),
    ] = None,
) -> Envelope[PresignedUpload]:
    """A URL the browser PUTs the file to, for ten minutes, with the same Content-Type (and,
    when `size` is given, exactly that many bytes): storage refuses anything else with 403."""
    if size is not None:
        # Too big or empty is answered now, before a byte is sent.
        check_size(size, settings.max_upload_bytes)
    file_id, key = record_upload(
        sessions, principal.account_id, filename, mimeType, requestType
    )
    url = storage.presigned_put(key, mimeType, size)
    return Envelope(data=PresignedUpload(url=url, key=key, _id=file_id))


@router.post("/api/v1/util/createThumbnail", response_model=Envelope[Thumbnail])
def create_thumbnail(
    sessions: SessionsDep,
    storage: StorageDep,
    settings: SettingsDep,
    photo_analyser: PhotoAnalyserDep,
    model_fits: ModelFitsDep,
    principal: CurrentPrincipal,
    body: ThumbnailBody,
) -> Envelope[Thumbnail]:
    """Check the uploaded image and make its thumbnail (EXIF orientation applied)."""
    upload = _own_upload(sessions, principal, body.key)
    stored = storage.read(body.key, settings.max_upload_bytes)
    if stored is None:
        raise NotFound("The file has not been uploaded yet.")
    info = check_image(
        stored.data,
        max_bytes=settings.max_upload_bytes,
        max_megapixels=settings.max_megapixels,
        total_size=stored.size,
    )
    thumb = thumbnail_key(body.key)
    storage.put_bytes(thumb, thumbnail_from_bytes(stored.data), "image/jpeg")
    with sessions.begin() as session:
        row = session.get(UploadedFile, upload.id)
        if row is not None:
            row.thumbnail_key = thumb
            row.width, row.height = info.width, info.height
            row.mime_type = info.mime_type  # what it is, whatever the uploader claimed
    # Analysed once per upload (the activity stores it): a repeat reads it back.
    analysis = upload.analysis or photo_analyser(upload.id, body.key)
    # The model picker and the submit need the digital models' skin tones next: measured once,
    # started here (by the first upload after a model was added) so they are there in time.
    model_fits.measure_unmeasured()
    return Envelope(
        data=Thumbnail(
            key=body.key,
            url=storage.presigned_get(body.key, content_type=info.mime_type),
            thumbnailKey=thumb,
            thumbnailUrl=storage.presigned_get(thumb),
            width=info.width,
            height=info.height,
            analysis=PhotoAnalysisView.model_validate(analysis) if analysis else None,
        )
    )


@router.get("/api/v1/util/photoAnalysis", response_model=Envelope[PhotoAnalysisView | None])
def photo_analysis(
    sessions: SessionsDep,
    principal: CurrentPrincipal,
    key: Annotated[str, Query(min_length=1, max_length=512)],
) -> Envelope[PhotoAnalysisView | None]:
    """The upload's analysis once it is there (null before): what the upload page asks when
    createThumbnail answered without it, without reading or thumbnailing the photo again."""
    analysis = _own_upload(sessions, principal, key).analysis
    return Envelope(data=PhotoAnalysisView.model_validate(analysis) if analysis else None)


def _own_upload(sessions: SessionFactory, principal: Principal, key: str) -> UploadedFile:
    with sessions() as session:
        upload = session.execute(
            select(UploadedFile).where(
                UploadedFile.key == key, UploadedFile.account_id == principal.account_id
            )
        ).scalar_one_or_none()
    if upload is None:
        raise NotFound("That upload was not found.")
    return upload
