"""Where objects live in the bucket. One place, so every component agrees."""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_filename(name: str) -> str:
    cleaned = _UNSAFE.sub("-", name.rsplit("/", 1)[-1]).strip("-.")
    return (cleaned or "image")[:100]


def upload_key(account_id: str, file_id: str, filename: str) -> str:
    return f"uploads/{account_id}/{file_id}/{safe_filename(filename)}"


def output_key(generation_id: str, task_id: str, extension: str) -> str:
    return f"outputs/{generation_id}/{task_id}.{extension}"


def thumbnail_key(key: str) -> str:
    return f"thumbs/{key}.jpg"


def catalog_key(kind: str, item_id: str, extension: str) -> str:
    return f"catalog/{kind}/{item_id}.{extension}"
