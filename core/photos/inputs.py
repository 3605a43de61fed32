"""The one check every input image goes through: at upload (createThumbnail), at submit, in
the workflow's verify step and, last, in the imaging step right before decoding.

What was checked at submit is pinned by its size and ETag: a presigned upload URL stays valid
for a few minutes, so the object could be replaced after it was checked; every later step
refuses an object that is not the one that was checked.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.photos.images import ImageInfo, ImageRejected, check_image
from core.settings import Settings
from core.storage import Storage

CHANGED = "{name} was changed after it was checked; please upload it again."


@dataclass(frozen=True)
class CheckedInput:
    key: str
    data: bytes
    info: ImageInfo
    size: int
    etag: str


def image_name(number: int, count: int) -> str:
    """How messages name an input: "The image" alone, "Image 2" among several."""
    return f"Image {number}" if count > 1 else "The image"


def check_pinned_version(
    storage: Storage, key: str, name: str, missing: str, size: int, etag: str
) -> None:
    """The object at `key` is still the version checked at submit (same size and ETag: S3's
    ETag of a single PUT is the MD5 of its bytes), from its metadata alone: the bytes were read
    and checked then, and the imaging step checks them again before it decodes anything.
    ImageRejected with `missing` when it is gone, with CHANGED when it is another version."""
    info = storage.stat(key)
    if info is None:
        raise ImageRejected(missing)
    if info.size != size or info.etag != etag:
        raise ImageRejected(CHANGED.format(name=name))


def check_stored_image(
    storage: Storage,
    settings: Settings,
    key: str,
    name: str,
    missing: str,
    *,
    expected_size: int | None = None,
    expected_etag: str | None = None,
    decode: bool = True,
) -> CheckedInput:
    """Read the object at `key` (never more than the size limit plus one byte) and check it
    from its header before any pixel is decoded.

    Raises ImageRejected with `missing` when there is no such object, when it is not the
    version pinned by expected_size/expected_etag, or with the reason it cannot be used.
    decode=False skips the trial decode, for a caller that decodes the image right after."""
    stored = storage.read(key, settings.max_upload_bytes)
    if stored is None:
        raise ImageRejected(missing)
    if (expected_size is not None and stored.size != expected_size) or (
        expected_etag and stored.etag != expected_etag
    ):
        raise ImageRejected(CHANGED.format(name=name))
    info = check_image(
        stored.data,
        max_bytes=settings.max_upload_bytes,
        max_megapixels=settings.max_megapixels,
        name=name,
        total_size=stored.size,
        decode=decode,
    )
    return CheckedInput(key, stored.data, info, stored.size, stored.etag)
