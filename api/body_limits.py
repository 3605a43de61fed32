"""How large a request body the API accepts, decided from the request's head alone.

Without a cap, a 100 MB JSON body was read and parsed before the 401 (no login needed): one
such request grew the API from 325 to 638 MB, four at once to 931 MB. The bounded protocol
(api/http_limits.py) asks `body_cap` once the head has ended, refuses a larger Content-Length
at once and counts the bytes of a chunked body, so no over-cap body reaches the app.

- JSON, forms and anything else not multipart: MAX_BODY_BYTES (1 MiB). Nothing the API takes
  that way comes near it; images never travel as JSON.
- multipart/form-data carries images: the upload limit (MAX_UPLOAD_BYTES, 20 MB by default)
  plus MULTIPART_MARGIN for the other fields and the part headers. A generation's submit
  (/imageedit/service/...) may carry its photos inline, up to MAX_INPUTS of them, so it gets
  that many uploads' worth.
- An image sent as the raw body (Content-Type image/...) to the one route that takes it that
  way, the Content Credentials check (POST /api/v1/provenance): the upload limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.generations.submit import MAX_INPUTS

MAX_BODY_BYTES = 1024 * 1024
MULTIPART_MARGIN = 1024 * 1024
# Routes whose multipart body may hold a whole generation's photos.
MANY_UPLOADS_PREFIX = "/imageedit/service/"
# The route that takes an image as the raw request body (api/routers/provenance.py).
RAW_IMAGE_PATHS = ("/api/v1/provenance",)


@dataclass(frozen=True)
class BodyCap:
    limit: int  # bytes
    message: str  # the 413's message, for a person


def _mb(size: int) -> str:
    return f"{size / (1024 * 1024):g} MB"


def body_cap(path: str, content_type: str, max_upload_bytes: int) -> BodyCap:
    """The most body bytes a request to `path` with this Content-Type may send."""
    kind = content_type.strip().lower()
    if kind.startswith("image/") and path.rstrip("/") in RAW_IMAGE_PATHS:
        return BodyCap(
            max_upload_bytes,
            f"The image is too large: at most {_mb(max_upload_bytes)} is accepted.",
        )
    if not kind.startswith("multipart/form-data"):
        return BodyCap(
            MAX_BODY_BYTES,
            f"The request body is too large: at most {_mb(MAX_BODY_BYTES)} is accepted. "
            "Images are uploaded as multipart form data (or straight to storage).",
        )
    if path.startswith(MANY_UPLOADS_PREFIX):
        limit = MAX_INPUTS * max_upload_bytes + MULTIPART_MARGIN
        return BodyCap(
            limit,
            f"The upload is too large: at most {MAX_INPUTS} images of up to "
            f"{_mb(max_upload_bytes)} each are accepted in one request.",
        )
    return BodyCap(
        max_upload_bytes + MULTIPART_MARGIN,
        f"The upload is too large: one image of up to {_mb(max_upload_bytes)} is accepted "
        "in one request.",
    )


def declared_length(value: bytes) -> int | None:
    """A Content-Length header's value, or None when it is not a plain number (httptools has
    already refused such heads; a body is then counted as it arrives)."""
    text = value.strip()
    return int(text) if text.isdigit() else None
