"""Recording an upload: one way, whether the browser PUTs it through a presigned URL or sends
it inside the submit itself."""

from __future__ import annotations

import io

from PIL import Image, UnidentifiedImageError

from core.db import SessionFactory
from core.keys import upload_key
from core.models.base import new_id
from core.models.generations import UploadedFile
from core.photos.images import ACCEPTED_FORMATS


def record_upload(
    sessions: SessionFactory,
    account_id: str,
    filename: str,
    content_type: str,
    request_type: str,
) -> tuple[str, str]:
    """A new upload row and its key (ending in the type's extension); returns (id, key)."""
    file_id = new_id()
    key = upload_key(account_id, file_id, filename, content_type)
    with sessions.begin() as session:
        session.add(
            UploadedFile(
                id=file_id,
                account_id=account_id,
                key=key,
                filename=filename,
                mime_type=content_type[:64],
                request_type=request_type,
            )
        )
    return file_id, key


def sniffed_type(data: bytes) -> str:
    """The accepted image type the bytes' header says, whatever the sender claimed; anything
    else is stored as opaque bytes (and refused by the checks that follow)."""
    try:
        fmt = Image.open(io.BytesIO(data)).format or ""
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError):
        return "application/octet-stream"
    return ACCEPTED_FORMATS.get(fmt, "application/octet-stream")
