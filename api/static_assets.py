"""The web app's hashed assets (web/dist/assets), served precompressed and cached for good.

`npm run build` writes each asset beside a brotli (.br) and a gzip (.gz) copy (web/vite.config.ts,
precompress). A file's name carries the hash of its content, so a name never comes back with
other bytes: browsers and proxies may keep it a year without asking again (`immutable`), while
index.html, which names the current ones, is revalidated on every visit (api/main.py). Under
`make run` the first visit's JavaScript went over the wire uncompressed and was fetched again
on every visit; nginx does the same in compose (ops/docker/nginx.conf, gzip_static).
"""

from __future__ import annotations

import mimetypes
import os
from pathlib import Path
from stat import S_ISREG

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, PathLike, StaticFiles
from starlette.types import Scope

IMMUTABLE = "public, max-age=31536000, immutable"
# Best first: brotli is about 15-20% smaller than gzip on JavaScript.
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def accepted_encodings(accept_encoding: str) -> dict[str, float]:
    """Accept-Encoding's codings with their q-values (a coding with q=0 is refused)."""
    accepted: dict[str, float] = {}
    for item in accept_encoding.split(","):
        name, _, params = item.partition(";")
        name = name.strip().lower()
        if not name:
            continue
        quality = 1.0
        for param in params.split(";"):
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        accepted[name] = quality
    return accepted


def preferred_encoding(accept_encoding: str, available: list[str]) -> str | None:
    """The coding to send, of those `available` (best first): the client's highest q-value,
    the earlier one on a tie; None when the client accepts none of them (identity)."""
    accepted = accepted_encodings(accept_encoding)
    wildcard = accepted.get("*", 0.0)
    best: tuple[float, str] | None = None
    for coding in available:
        quality = accepted.get(coding, wildcard)
        if quality > 0 and (best is None or quality > best[0]):
            best = (quality, coding)
    return best[1] if best else None


class HashedAssets(StaticFiles):
    """StaticFiles for content-hashed files: a precompressed copy when the client takes one,
    `Vary: Accept-Encoding` and a year's immutable caching."""

    def file_response(
        self,
        full_path: PathLike,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        request_headers = Headers(scope=scope)
        path = Path(full_path)
        copies = {coding: found for coding, suffix in ENCODINGS
                  if (found := _written(path.with_name(path.name + suffix)))}
        coding = preferred_encoding(request_headers.get("accept-encoding", ""), list(copies))
        if coding is None:
            response = FileResponse(path, status_code=status_code, stat_result=stat_result)
            size = stat_result.st_size
        else:
            copy, copy_stat = copies[coding]
            media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
            # Stated now, as StaticFiles does: the ETag (of the copy) is needed for a 304 below.
            response = FileResponse(copy, status_code=status_code, media_type=media_type,
                                    stat_result=copy_stat)
            response.headers["content-encoding"] = coding
            size = copy_stat.st_size
        # An empty file is one a build is writing right now (`npm run build` in place under
        # `make run`): kept for a year, the page would stay broken; revalidated, it heals.
        response.headers["cache-control"] = IMMUTABLE if size else "no-cache"
        if copies:
            response.headers["vary"] = "Accept-Encoding"
        if self.is_not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response


def _written(copy: Path) -> tuple[Path, os.stat_result] | None:
    """A precompressed copy and its stat, unless it is missing or still empty (being written)."""
    try:
        stat_result = copy.stat()
    except OSError:
        return None
    return (copy, stat_result) if stat_result.st_size and S_ISREG(stat_result.st_mode) else None
