"""Presigned S3 URLs that bind request headers: SigV4 query signing with extra SignedHeaders.

The minio SDK presigns the Host header only, so a presigned PUT accepts any type and any size.
A header named in X-Amz-SignedHeaders must reach the server with exactly the signed value or
the signature does not match (403). Checked against rclone serve s3 1.75 (the embedded store):
a signed Content-Type refuses another type or none; a signed Content-Length refuses any other
length and a chunked body; POST policies (content-length-range) are answered
"UnsupportedAlgorithm". MinIO (production) rebuilds the canonical request the same way,
Content-Length from the request's real length (cmd/signature-v4-utils.go extractSignedHeaders),
and honours POST policies too; the signed PUT is used for both, so one code path serves both.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from datetime import datetime, timedelta
from urllib.parse import quote

ALGORITHM = "AWS4-HMAC-SHA256"


def _hmac(key: bytes, message: str) -> bytes:
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def _encode(value: str) -> str:
    """S3's URI encoding of a query name or value: only A-Z a-z 0-9 - _ . ~ stay as they are."""
    return quote(value, safe="-_.~")


def presign(
    method: str,
    *,
    endpoint: str,
    secure: bool,
    bucket: str,
    key: str,
    region: str,
    access_key: str,
    secret_key: str,
    now: datetime,
    expires: timedelta,
    headers: Mapping[str, str] | None = None,
) -> str:
    """A URL for `method` on bucket/key, valid for `expires` from `now` (UTC), that the server
    accepts only with every header in `headers` sent with exactly the given value."""
    # Browsers leave the default port out of the Host header they send (and sign against).
    default_port = ":443" if secure else ":80"
    endpoint = endpoint.removesuffix(default_port)
    amz_date = now.strftime("%Y%m%dT%H%M%SZ")
    scope = f"{now:%Y%m%d}/{region}/s3/aws4_request"
    signed = {"host": endpoint} | {k.lower(): v.strip() for k, v in (headers or {}).items()}
    names = sorted(signed)
    signed_headers = ";".join(names)
    path = quote(f"/{bucket}/{key}", safe="/-_.~")
    params = {
        "X-Amz-Algorithm": ALGORITHM,
        "X-Amz-Credential": f"{access_key}/{scope}",
        "X-Amz-Date": amz_date,
        "X-Amz-Expires": str(int(expires.total_seconds())),
        "X-Amz-SignedHeaders": signed_headers,
    }
    query = "&".join(f"{_encode(k)}={_encode(v)}" for k, v in sorted(params.items()))
    canonical_request = "\n".join(
        [
            method,
            path,
            query,
            "".join(f"{name}:{signed[name]}\n" for name in names),
            signed_headers,
            "UNSIGNED-PAYLOAD",
        ]
    )
    string_to_sign = "\n".join(
        [ALGORITHM, amz_date, scope, hashlib.sha256(canonical_request.encode()).hexdigest()]
    )
    key_bytes = ("AWS4" + secret_key).encode()
    for part in (f"{now:%Y%m%d}", region, "s3", "aws4_request"):
        key_bytes = _hmac(key_bytes, part)
    signature = hmac.new(key_bytes, string_to_sign.encode(), hashlib.sha256).hexdigest()
    scheme = "https" if secure else "http"
    return f"{scheme}://{endpoint}{path}?{query}&X-Amz-Signature={signature}"
