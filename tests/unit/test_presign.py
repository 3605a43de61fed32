"""Presigned URLs that bind headers: the same signature as the minio SDK's, plus the headers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from minio import Minio

from core.presign import presign

NOW = datetime(2026, 11, 23, 6, 0, 0, tzinfo=UTC)
KEY = "uploads/a b/f/photo.jpg"


def url(endpoint: str, secure: bool, headers: dict[str, str] | None = None) -> str:
    return presign("PUT", endpoint=endpoint, secure=secure, bucket="metamodel", key=KEY,
                   region="us-east-1", access_key="key", secret_key="secret", now=NOW,
                   expires=timedelta(minutes=10), headers=headers)


def test_without_extra_headers_it_is_the_minio_sdks_url() -> None:
    sdk = Minio("127.0.0.1:9000", access_key="key", secret_key="secret", secure=False,
                region="us-east-1")
    expected = sdk.get_presigned_url("PUT", "metamodel", KEY, expires=timedelta(minutes=10),
                                     request_date=NOW)
    assert url("127.0.0.1:9000", secure=False) == expected


def test_signed_headers_are_named_and_change_the_signature() -> None:
    plain = httpx.URL(url("s3.example.com:443", secure=True))
    bound = httpx.URL(url("s3.example.com:443", secure=True,
                          headers={"Content-Type": "image/png", "Content-Length": "42"}))
    assert bound.params["X-Amz-SignedHeaders"] == "content-length;content-type;host"
    assert bound.params["X-Amz-Signature"] != plain.params["X-Amz-Signature"]
    # The default port is left out, as browsers leave it out of the Host header they send.
    assert (bound.scheme, bound.host, bound.port) == ("https", "s3.example.com", None)
