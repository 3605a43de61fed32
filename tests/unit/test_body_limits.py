"""Request body caps (api/body_limits.py), and the compose nginx agreeing with them."""

from __future__ import annotations

import json
import re

from api.body_limits import MAX_BODY_BYTES, body_cap, declared_length
from core.settings import Settings
from tests.support.paths import REPO

UPLOAD = Settings.model_fields["max_upload_bytes"].default
MULTIPART = "multipart/form-data; boundary=x"


def test_json_and_forms_get_one_megabyte() -> None:
    for content_type in ("application/json", "", "application/x-www-form-urlencoded", "text/plain"):
        for path in ("/api/v1/generations", "/api/v1/uploads", "/imageedit/service/bodySwap"):
            assert body_cap(path, content_type, UPLOAD).limit == MAX_BODY_BYTES == 1024 * 1024


def test_multipart_gets_an_upload_and_a_generation_its_photos() -> None:
    one = body_cap("/api/v1/uploads", MULTIPART, UPLOAD)
    assert one.limit == UPLOAD + 1024 * 1024
    assert "one image of up to 20 MB" in one.message
    assert body_cap("/api/v1/uploads", "Multipart/Form-Data; boundary=x", UPLOAD).limit == one.limit
    many = body_cap("/imageedit/service/bodySwap", MULTIPART, UPLOAD)
    assert many.limit == 20 * UPLOAD + 1024 * 1024
    assert "at most 20 images of up to 20 MB each" in many.message


def test_the_provenance_check_takes_a_raw_image_of_upload_size_only() -> None:
    for content_type in ("image/jpeg", "image/png", "Image/PNG"):
        cap = body_cap("/api/v1/provenance", content_type, UPLOAD)
        assert cap.limit == UPLOAD and "at most 20 MB" in cap.message
    # A raw image anywhere else, or JSON to the check, keeps the 1 MiB cap.
    assert body_cap("/api/v1/uploads", "image/jpeg", UPLOAD).limit == MAX_BODY_BYTES
    assert body_cap("/api/v1/provenance", "application/json", UPLOAD).limit == MAX_BODY_BYTES
    assert body_cap("/api/v1/provenance", MULTIPART, UPLOAD).limit == UPLOAD + 1024 * 1024


def test_content_length_is_read_only_when_it_is_a_number() -> None:
    assert declared_length(b"104857600") == 104857600
    assert declared_length(b" 12 ") == 12
    assert declared_length(b"-1") is None and declared_length(b"1e9") is None


def test_the_compose_nginx_caps_bodies_as_the_api_does() -> None:
    site = (REPO / "ops/docker/nginx.conf").read_text()

    def megabytes(where: str) -> int:
        found = re.search(where + r"[^}]*?client_max_body_size (\d+)m;", site, re.S)
        assert found, where
        return int(found.group(1)) * 1024 * 1024

    assert megabytes("server {") == MAX_BODY_BYTES
    assert megabytes(r"location = /api/v1/uploads") == body_cap("/api/v1/uploads", MULTIPART,
                                                                  UPLOAD).limit
    assert megabytes(r"location /api/v1/admin/") == body_cap("/api/v1/admin/catalog", MULTIPART,
                                                             UPLOAD).limit
    # The Content Credentials check: a raw image or one multipart file (the larger of the two).
    assert megabytes(r"location = /api/v1/provenance") == max(
        body_cap("/api/v1/provenance", "image/jpeg", UPLOAD).limit,
        body_cap("/api/v1/provenance", MULTIPART, UPLOAD).limit)
    assert megabytes(r"location /imageedit/service/ ") == body_cap(
        "/imageedit/service/burstreplace", MULTIPART, UPLOAD).limit
    messages = [json.loads(m)["message"] for m in re.findall(r"'(\{\"message\".*?\})'", site)]
    assert messages == [
        body_cap("/api/v1/generations", "application/json", UPLOAD).message,
        body_cap("/imageedit/service/bodySwap", MULTIPART, UPLOAD).message,
        body_cap("/api/v1/uploads", MULTIPART, UPLOAD).message,
    ]
