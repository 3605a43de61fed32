"""The precompressed, immutable assets (api/static_assets.py): the Content-Encoding chosen,
and what a file a build is still writing is sent with."""

from __future__ import annotations

import asyncio
import gzip
from pathlib import Path

import httpx
from starlette.applications import Starlette
from starlette.routing import Mount

from api.static_assets import IMMUTABLE, HashedAssets, preferred_encoding


def test_the_encoding_follows_accept_encoding() -> None:
    both = ["br", "gzip"]
    assert preferred_encoding("gzip, deflate, br, zstd", both) == "br"  # Chromium's
    assert preferred_encoding("gzip", both) == "gzip"
    assert preferred_encoding("br", ["gzip"]) is None
    assert preferred_encoding("", both) is None
    assert preferred_encoding("identity", both) is None
    assert preferred_encoding("br;q=0, gzip", both) == "gzip"
    assert preferred_encoding("br;q=0.5, gzip;q=0.8", both) == "gzip"
    assert preferred_encoding("*", both) == "br"
    assert preferred_encoding("*;q=0, gzip", both) == "gzip"
    assert preferred_encoding("GZIP;Q=1", both) == "gzip"
    assert preferred_encoding("br;q=bad, gzip", both) == "gzip"


def serve(folder: Path, name: str, encodings: str) -> httpx.Response:
    """GET /assets/<name> from HashedAssets over `folder`, in process (httpx's ASGI transport)."""
    app = Starlette(routes=[Mount("/assets", HashedAssets(directory=folder))])

    async def get() -> httpx.Response:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://app") as client:
            return await client.get(f"/assets/{name}", headers={"Accept-Encoding": encodings})

    return asyncio.run(get())


def test_a_finished_asset_is_sent_compressed_and_immutable(tmp_path: Path) -> None:
    (tmp_path / "app-1a2b.js").write_bytes(b"export const a = 1;" * 100)
    (tmp_path / "app-1a2b.js.br").write_bytes(b"brotli bytes")
    (tmp_path / "app-1a2b.js.gz").write_bytes(gzip.compress(b"export const a = 1;" * 100))
    br = serve(tmp_path, "app-1a2b.js", "gzip, br")
    assert br.headers["content-encoding"] == "br" and br.content == b"brotli bytes"
    assert br.headers["cache-control"] == IMMUTABLE and br.headers["vary"] == "Accept-Encoding"
    assert br.headers["content-type"].startswith("text/javascript")
    plain = serve(tmp_path, "app-1a2b.js", "identity")
    assert "content-encoding" not in plain.headers and plain.content == b"export const a = 1;" * 100
    assert plain.headers["cache-control"] == IMMUTABLE


def test_a_file_being_written_is_not_kept(tmp_path: Path) -> None:
    # A build writing in place: the copy is still empty, then the file itself.
    (tmp_path / "app-1a2b.js").write_bytes(b"export const a = 1;")
    (tmp_path / "app-1a2b.js.br").write_bytes(b"")
    half = serve(tmp_path, "app-1a2b.js", "br")
    assert "content-encoding" not in half.headers and half.content == b"export const a = 1;"
    assert half.headers["cache-control"] == IMMUTABLE
    (tmp_path / "app-1a2b.js").write_bytes(b"")
    empty = serve(tmp_path, "app-1a2b.js", "br")
    assert empty.content == b"" and empty.headers["cache-control"] == "no-cache"
