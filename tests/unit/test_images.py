"""Image checks before decoding: formats, limits, the engine's minimum, Pillow's bomb guard."""

from __future__ import annotations

import io
import struct
import zlib
from typing import TypedDict

import pytest
from PIL import Image

from core.keys import upload_key
from core.photos.images import (
    MAX_MEGAPIXELS_LIMIT,
    ImageRejected,
    check_image,
    check_size,
    encode_jpeg,
)


class Limits(TypedDict):
    max_bytes: int
    max_megapixels: float


LIMITS: Limits = {"max_bytes": 20 * 1024 * 1024, "max_megapixels": 40.0}


def png_header_only(width: int, height: int) -> bytes:
    """A tiny PNG that claims width x height: what an attacker uploads as a memory bomb."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    rows = zlib.compress(b"\x00" * (width + 1) * 4)  # a few rows; the rest would be inflated
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows)
            + chunk(b"IEND", b""))


def jpeg(width: int, height: int) -> bytes:
    return encode_jpeg(Image.new("RGB", (width, height), (120, 90, 60)))


def test_a_20000_pixel_square_png_is_refused_from_its_header() -> None:
    bomb = png_header_only(20000, 20000)
    assert len(bomb) < 100_000
    with pytest.raises(ImageRejected, match="far too many pixels; the limit is 40 megapixels"):
        check_image(bomb, **LIMITS)
    # Past our limit but under Pillow's guard: our header check names the size.
    with pytest.raises(ImageRejected, match=r"8000x6000 \(48\.0 megapixels\)"):
        check_image(png_header_only(8000, 6000), **LIMITS)


def test_pillows_bomb_guard_is_on_just_above_our_limit() -> None:
    assert Image.MAX_IMAGE_PIXELS is not None
    assert MAX_MEGAPIXELS_LIMIT * 1e6 <= Image.MAX_IMAGE_PIXELS <= MAX_MEGAPIXELS_LIMIT * 1.1e6
    # Whatever code decodes an image in this process, a bomb is refused before its pixels.
    with pytest.raises(Image.DecompressionBombError):
        Image.open(io.BytesIO(png_header_only(20000, 20000))).load()


def test_gif_is_refused() -> None:
    out = io.BytesIO()
    Image.new("P", (300, 300)).save(out, "GIF")
    with pytest.raises(ImageRejected, match="GIF image; use JPEG, PNG or WebP"):
        check_image(out.getvalue(), **LIMITS)


def test_images_below_the_engines_minimum_are_refused() -> None:
    with pytest.raises(ImageRejected, match="1x1; it needs at least 256 pixels"):
        check_image(jpeg(1, 1), **LIMITS)
    assert check_image(jpeg(256, 300), **LIMITS).width == 256


def test_empty_and_oversized_files_say_what_they_are() -> None:
    with pytest.raises(ImageRejected, match="is empty"):
        check_image(b"", **LIMITS)
    # A bounded read keeps limit + 1 bytes; the message names the object's real size.
    with pytest.raises(ImageRejected, match=r"is 30\.0 MB; the limit is 1\.0 MB"):
        check_image(b"x" * (1024 * 1024 + 1), max_bytes=1024 * 1024, max_megapixels=40,
                    total_size=30 * 1024 * 1024)
    with pytest.raises(ImageRejected, match=r"is 2\.5 MB; the limit is 2\.0 MB"):
        check_image(b"x" * (2 * 1024 * 1024 + 1), max_bytes=2 * 1024 * 1024,
                    max_megapixels=40, total_size=int(2.5 * 1024 * 1024))


def test_truncated_jpeg_is_refused() -> None:
    whole = jpeg(600, 800)
    with pytest.raises(ImageRejected, match="damaged or incomplete"):
        check_image(whole[: len(whole) // 2], **LIMITS)


def test_a_declared_size_is_checked_against_the_real_limit() -> None:
    with pytest.raises(ImageRejected, match=r"is 3\.0 MB; the limit is 2\.0 MB"):
        check_size(3 * 1024 * 1024, 2 * 1024 * 1024)
    with pytest.raises(ImageRejected, match="is empty"):
        check_size(0, 2 * 1024 * 1024)
    check_size(2 * 1024 * 1024, 2 * 1024 * 1024)


def test_without_decoding_only_the_header_is_read() -> None:
    """For the imaging step, which decodes right after: the header checks still apply."""
    whole = jpeg(600, 800)
    assert check_image(whole[: len(whole) // 2], **LIMITS, decode=False).height == 800
    with pytest.raises(ImageRejected, match="far too many pixels"):
        check_image(png_header_only(20000, 20000), **LIMITS, decode=False)


def test_upload_keys_end_in_the_declared_types_extension() -> None:
    assert upload_key("a", "f", "page.html", "image/jpeg") == "uploads/a/f/page.html.jpg"
    assert upload_key("a", "f", "Photo.JPEG", "image/jpeg") == "uploads/a/f/Photo.JPEG"
    assert upload_key("a", "f", "x.png", "image/webp") == "uploads/a/f/x.png.webp"
    assert upload_key("a", "f", "x" * 300, "image/png").endswith("x.png")
    assert len(upload_key("a", "f", "x" * 300, "image/png").rsplit("/", 1)[1]) == 100
    assert upload_key("a", "f", "page.html") == "uploads/a/f/page.html"
