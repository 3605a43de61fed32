"""Where objects live in the bucket. One place, so every component agrees."""

from __future__ import annotations

import re

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_filename(name: str) -> str:
    cleaned = _UNSAFE.sub("-", name.rsplit("/", 1)[-1]).strip("-.")
    return (cleaned or "image")[:100]


# The file extensions each accepted image type may carry in a key.
_EXTENSIONS = {"image/jpeg": (".jpg", ".jpeg"), "image/png": (".png",), "image/webp": (".webp",)}


def upload_key(
    account_id: str, file_id: str, filename: str, content_type: str | None = None
) -> str:
    """Where an upload lives. With its declared type, the key ends in that type's extension
    ("page.html" declared image/jpeg becomes "page.html.jpg"): rclone keeps an object's
    Content-Type in memory only and, after a restart, serves it by the key's extension."""
    name = safe_filename(filename)
    extensions = _EXTENSIONS.get(content_type or "")
    if extensions and not name.lower().endswith(extensions):
        name = name[: 100 - len(extensions[0])] + extensions[0]
    return f"uploads/{account_id}/{file_id}/{name}"


def extension_for(content_type: str) -> str:
    """The usual file extension of an accepted image type, without the dot."""
    return _EXTENSIONS[content_type][0].lstrip(".")


def output_key(generation_id: str, task_id: str, extension: str) -> str:
    return f"outputs/{generation_id}/{task_id}.{extension}"


def thumbnail_key(key: str) -> str:
    return f"thumbs/{key}.jpg"


def catalog_key(kind: str, item_id: str, extension: str) -> str:
    return f"catalog/{kind}/{item_id}.{extension}"
