"""POST /api/v1/provenance: does an image carry MetaModel's Content Credentials (issue 37)?

Public, like the showcase: anyone who found one of our images (a shop's customer, a marketplace,
a journalist) may ask which generation made it and whether its pixels changed since. The image
comes as the raw request body (Content-Type image/jpeg or image/png) or as the multipart field
`file`; it is read, judged by c2pa's reader against our own chain's roots, and forgotten (never
stored). Each address may ask CHECK_LIMIT times per window: a check costs a full read and hash
of up to the upload limit.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Request
from starlette.datastructures import FormData, UploadFile

from api.deps import AddressDep, ProvenanceDep, SessionsDep, SettingsDep
from api.errors import ApiError
from api.schemas.common import Envelope, ErrorBody
from api.schemas.provenance import ProvenanceCheckView
from api.views import summary_view
from core import ratelimit
from core.provenance.verify import ProvenanceCheck, UnsupportedImage, Verdict, sniff_mime

router = APIRouter(prefix="/api/v1", tags=["provenance"])

CHECK_LIMIT = (60, timedelta(minutes=1))
NOT_AN_IMAGE = "Send a JPEG or PNG image: the formats MetaModel delivers."
_BINARY = {"schema": {"type": "string", "format": "binary"}}
# The body is read by hand (raw or multipart), so the document says what it takes.
REQUEST_BODY: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "description": "The image: as the raw body, or as the multipart field `file`.",
        "content": {
            "image/jpeg": _BINARY,
            "image/png": _BINARY,
            "multipart/form-data": {"schema": {
                "type": "object",
                "properties": {"file": {"type": "string", "format": "binary"}},
                "required": ["file"],
            }},
        },
    }
}


@router.post(
    "/provenance",
    response_model=Envelope[ProvenanceCheckView],
    responses={
        400: {"model": ErrorBody, "description": "An empty image, or a form without `file`"},
        413: {"model": ErrorBody, "description": "Larger than the upload limit"},
        415: {"model": ErrorBody, "description": "Not a JPEG or PNG image"},
        429: {"model": ErrorBody, "description": "Too many checks from this address"},
    },
    openapi_extra=REQUEST_BODY,
    summary="Check an image's Content Credentials",
)
async def check_provenance(
    request: Request,
    settings: SettingsDep,
    sessions: SessionsDep,
    provenance: ProvenanceDep,
    address: AddressDep,
) -> Envelope[ProvenanceCheckView]:
    """Check an image's Content Credentials (C2PA): whether this MetaModel service signed it,
    which generation and task made it, whether it is a test-mode image, and whether the file
    changed since it was signed (`verdict` altered). No login is needed; at most 60 checks a
    minute per address (429 beyond). The same check works offline with the C2PA tools
    (`c2patool image.jpg`, or https://contentcredentials.org/verify), which report our
    development chain as untrusted but the manifest as valid."""
    limit = settings.max_upload_bytes
    data = await _image_of(request, limit)
    if not data:
        raise ApiError(400, "The image is empty: send the JPEG or PNG file itself.")
    if len(data) > limit:
        raise ApiError(413, f"The image is too large: at most {limit / (1024 * 1024):g} MB "
                            "is accepted.")
    try:
        sniff_mime(data)
    except UnsupportedImage:
        raise ApiError(415, NOT_AN_IMAGE) from None
    count, window = CHECK_LIMIT
    await to_thread.run_sync(
        ratelimit.hit, sessions, [f"provenance:ip:{ratelimit.address_key(address)}"], count,
        window,
    )
    check = await to_thread.run_sync(provenance.reader.check, data)
    return Envelope(data=check_view(check))


async def _image_of(request: Request, limit: int) -> bytes:
    """The image's bytes (at most `limit` + 1 of them): the multipart field `file`, or the
    raw body sent as image/jpeg or image/png."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == "multipart/form-data":
        form: FormData = await request.form()
        upload = form.get("file")
        if not isinstance(upload, UploadFile):
            raise ApiError(400, "Send the image as the multipart field `file`.")
        return await upload.read(limit + 1)
    if content_type not in ("image/jpeg", "image/png"):
        raise ApiError(415, NOT_AN_IMAGE + " Send it as the request body with Content-Type "
                            "image/jpeg or image/png, or as the multipart field `file`.")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > limit:
            break
    return bytes(data)


def check_view(check: ProvenanceCheck) -> ProvenanceCheckView:
    ours = check.verdict in (Verdict.VERIFIED, Verdict.ALTERED) and check.summary is not None
    summary = check.summary if ours else None
    return ProvenanceCheckView(
        verdict=check.verdict,
        message=check.message,
        hasCredentials=check.verdict != Verdict.NONE,
        ours=ours,
        pixelsChanged=check.verdict == Verdict.ALTERED,
        generationId=summary.generation_id if summary else None,
        taskId=summary.task_id if summary else None,
        testMode=summary.test_mode if summary else None,
        credentials=summary_view(summary) if summary else None,
        validationCodes=check.validation_codes,
    )
