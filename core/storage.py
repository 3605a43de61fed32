"""Object storage over the S3 API (rclone serve s3 embedded, MinIO in production).

Images travel between components as object keys. The browser talks to storage directly through
presigned URLs, which are signed for the host the browser uses (s3_public_endpoint).
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import lru_cache

from minio import Minio
from minio.datatypes import Object
from minio.error import InvalidResponseError, S3Error

from core.presign import presign
from core.settings import Settings

# Long enough to upload 20 MB on a slow line, short enough that a leaked URL soon dies.
UPLOAD_URL_LIFETIME = timedelta(minutes=10)

_NOT_FOUND = {"NoSuchKey", "NoSuchObject", "NotFound", "ResourceNotFound"}


@dataclass(frozen=True)
class ObjectInfo:
    size: int
    content_type: str
    etag: str = ""


@dataclass(frozen=True)
class StoredBytes:
    """An object's bytes as read, with what identifies that version of it."""

    data: bytes
    # The whole object's size: more than len(data) when the read stopped at a limit.
    size: int
    etag: str


def _full_size(headers: Mapping[str, str], read: int) -> int:
    """The object's size from a (ranged) GET: Content-Range's total when it was cut."""
    total = str(headers.get("Content-Range") or "").rsplit("/", 1)[-1]
    return int(total) if total.isdigit() else read


class Storage:
    def __init__(self, settings: Settings) -> None:
        self.bucket = settings.s3_bucket
        self._client = Minio(
            settings.s3_endpoint,
            access_key=settings.s3_access_key,
            secret_key=settings.s3_secret_key,
            secure=settings.s3_secure,
            region=settings.s3_region,
        )
        self._public_endpoint = settings.resolved_public_s3_endpoint
        self._secure = settings.s3_secure
        self._region = settings.s3_region
        self._credentials = (settings.s3_access_key, settings.s3_secret_key)
        # Presigning is local computation; giving the region avoids a network round trip.
        self._signer = Minio(
            settings.resolved_public_s3_endpoint,
            access_key=settings.s3_access_key,
            secret_key=settings.s3_secret_key,
            secure=settings.s3_secure,
            region=settings.s3_region,
        )
        # The same key signed in the same hour is the same URL: a poll signs three per task,
        # many times over, so remember recent ones (signing costs ~0.1 ms each).
        self._signed_get = lru_cache(maxsize=16_384)(self._sign_get)

    def ensure_bucket(self) -> None:
        if not self._client.bucket_exists(self.bucket):
            self._client.make_bucket(self.bucket)

    def put_bytes(self, key: str, data: bytes, content_type: str) -> None:
        self._client.put_object(
            self.bucket, key, io.BytesIO(data), length=len(data), content_type=content_type
        )

    def get_bytes(self, key: str, max_bytes: int | None = None) -> bytes:
        """The object's bytes; with max_bytes, at most that many plus one (to detect oversize)."""
        length = max_bytes + 1 if max_bytes is not None else None
        response = self._client.get_object(self.bucket, key, length=length or 0)
        try:
            return response.read()
        finally:
            response.close()
            response.release_conn()

    def read(self, key: str, max_bytes: int) -> StoredBytes | None:
        """At most max_bytes + 1 bytes of the object (enough to tell it is too big), its full
        size and ETag, in one request; None when there is no such object."""
        try:
            response = self._client.get_object(self.bucket, key, length=max_bytes + 1)
        except (S3Error, InvalidResponseError):
            info = self._stat_raw(key)
            if info is None:
                return None
            if (info.size or 0) == 0:
                # A ranged GET of an empty object is "416 Range Not Satisfiable".
                return StoredBytes(b"", 0, (info.etag or "").strip('"'))
            raise
        try:
            data = response.read()
            etag = str(response.headers.get("ETag") or "").strip('"')
            return StoredBytes(data, _full_size(response.headers, len(data)), etag)
        finally:
            response.close()
            response.release_conn()

    def get_bytes_or_none(self, key: str, max_bytes: int | None = None) -> bytes | None:
        """As get_bytes, but None when there is no such object: one request when it exists.
        (Some S3 servers, rclone's among them, answer a missing object's GET with an empty
        error body, so the failure is confirmed with a stat rather than read from the error.)"""
        try:
            return self.get_bytes(key, max_bytes)
        except (S3Error, InvalidResponseError):
            if self.stat(key) is None:
                return None
            raise

    def stream(self, key: str, chunk_size: int = 256 * 1024) -> Iterator[bytes]:
        """The object's bytes in chunks, never the whole object in memory (ZIP downloads)."""
        response = self._client.get_object(self.bucket, key)
        try:
            yield from response.stream(chunk_size)
        finally:
            response.close()
            response.release_conn()

    def delete(self, key: str) -> None:
        """Remove the object; one that is already gone is not an error (clean-ups repeat)."""
        try:
            self._client.remove_object(self.bucket, key)
        except S3Error as error:
            if error.code not in _NOT_FOUND:
                raise

    def keys(self, prefix: str) -> list[str]:
        """Every object key under `prefix` (for tests and operators' checks; not on hot paths)."""
        return [
            obj.object_name
            for obj in self._client.list_objects(self.bucket, prefix=prefix, recursive=True)
            if obj.object_name
        ]

    def _stat_raw(self, key: str) -> Object | None:
        try:
            return self._client.stat_object(self.bucket, key)
        except S3Error as error:
            if error.code in _NOT_FOUND:
                return None
            raise

    def stat(self, key: str) -> ObjectInfo | None:
        info = self._stat_raw(key)
        if info is None:
            return None
        return ObjectInfo(
            size=info.size or 0,
            content_type=info.content_type or "",
            etag=(info.etag or "").strip('"'),
        )

    def presigned_put(
        self,
        key: str,
        content_type: str,
        size: int | None = None,
        expires: timedelta = UPLOAD_URL_LIFETIME,
    ) -> str:
        """A URL to PUT one object at `key`, for a few minutes, that the storage itself accepts
        only with this Content-Type and, when the size is given, exactly this Content-Length
        (both signed: rclone and MinIO answer anything else 403, see core/presign.py).

        Without a size the upload is unbounded here, so every reader bounds what it reads
        (Storage.read) and the generation pins the size and ETag it checked."""
        headers = {"Content-Type": content_type}
        if size is not None:
            headers["Content-Length"] = str(size)
        access_key, secret_key = self._credentials
        return presign(
            "PUT",
            endpoint=self._public_endpoint,
            secure=self._secure,
            bucket=self.bucket,
            key=key,
            region=self._region,
            access_key=access_key,
            secret_key=secret_key,
            now=datetime.now(UTC),
            expires=expires,
            headers=headers,
        )

    def presigned_get(self, key: str, content_type: str | None = None) -> str:
        """A download URL that stays the same for an hour, so browsers can cache images.

        The signing time is rounded down to the hour and the URL lives two hours, so it is
        valid for at least one hour from now.
        """
        now = datetime.now(UTC)
        signed_at = now.replace(minute=0, second=0, microsecond=0)
        return self._signed_get(key, content_type, signed_at)

    def _sign_get(self, key: str, content_type: str | None, signed_at: datetime) -> str:
        # For objects a browser uploaded, the type we verified, whatever the uploader sent
        # (S3's response-content-type override; rclone and MinIO both honour it).
        response_headers = {"response-content-type": content_type} if content_type else None
        return self._signer.presigned_get_object(
            self.bucket,
            key,
            expires=timedelta(hours=2),
            request_date=signed_at,
            response_headers=response_headers,  # type: ignore[arg-type]
        )
