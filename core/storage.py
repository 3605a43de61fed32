"""Object storage over the S3 API (rclone serve s3 embedded, MinIO in production).

Images travel between components as object keys. The browser talks to storage directly through
presigned URLs, which are signed for the host the browser uses (s3_public_endpoint).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from minio import Minio
from minio.error import InvalidResponseError, S3Error

from core.settings import Settings

_NOT_FOUND = {"NoSuchKey", "NoSuchObject", "NotFound", "ResourceNotFound"}


@dataclass(frozen=True)
class ObjectInfo:
    size: int
    content_type: str


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
        # Presigning is local computation; giving the region avoids a network round trip.
        self._signer = Minio(
            settings.resolved_public_s3_endpoint,
            access_key=settings.s3_access_key,
            secret_key=settings.s3_secret_key,
            secure=settings.s3_secure,
            region=settings.s3_region,
        )

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

    def stat(self, key: str) -> ObjectInfo | None:
        try:
            info = self._client.stat_object(self.bucket, key)
        except S3Error as error:
            if error.code in _NOT_FOUND:
                return None
            raise
        return ObjectInfo(size=info.size or 0, content_type=info.content_type or "")

    def presigned_put(self, key: str, expires: timedelta = timedelta(hours=1)) -> str:
        return self._signer.presigned_put_object(self.bucket, key, expires=expires)

    def presigned_get(self, key: str) -> str:
        """A download URL that stays the same for an hour, so browsers can cache images.

        The signing time is rounded down to the hour and the URL lives two hours, so it is
        valid for at least one hour from now.
        """
        now = datetime.now(UTC)
        signed_at = now.replace(minute=0, second=0, microsecond=0)
        return self._signer.presigned_get_object(
            self.bucket, key, expires=timedelta(hours=2), request_date=signed_at
        )
