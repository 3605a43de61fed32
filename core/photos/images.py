"""Checking, decoding and encoding images, shared by the API (early rejection) and the workflow."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont, ImageOps, PngImagePlugin, UnidentifiedImageError

from core.errors import InvalidInput

ACCEPTED_FORMATS = {"JPEG": "image/jpeg", "PNG": "image/png", "WEBP": "image/webp"}
THUMBNAIL_LONG_SIDE = 384

# The engine's smallest usable input (engine/analysis.py MIN_SIDE): smaller images are refused
# at upload and submit, before anything is charged.
MIN_SIDE = 256
# Our own megapixel limit (settings.max_megapixels, at most MAX_MEGAPIXELS_LIMIT) is checked
# from the header before decoding. Pillow's own bomb guard stays on just above it, for every
# decode in the process: a decode past this warns, past twice this Pillow refuses outright.
MAX_MEGAPIXELS_LIMIT = 48.0
Image.MAX_IMAGE_PIXELS = int(MAX_MEGAPIXELS_LIMIT * 1_000_000 * 1.05)


class ImageRejected(InvalidInput):
    """The file cannot be used as an input image. The message is shown to the user."""


@dataclass(frozen=True)
class ImageInfo:
    width: int
    height: int
    format: str
    mime_type: str


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MB"


def check_size(size: int, max_bytes: int, name: str = "The image") -> None:
    """Refuse an empty or oversized file, naming its real size and the configured limit."""
    if size > max_bytes:
        raise ImageRejected(f"{name} is {_mb(size)}; the limit is {_mb(max_bytes)}.")
    if size <= 0:
        raise ImageRejected(f"{name} is empty.")


def check_image(
    data: bytes,
    *,
    max_bytes: int,
    max_megapixels: float,
    name: str = "The image",
    total_size: int | None = None,
    min_side: int = MIN_SIDE,
    decode: bool = True,
) -> ImageInfo:
    """Reject anything that is not a complete JPEG, PNG or WebP within the limits.

    The size limits are checked from the header before the pixels are decoded, so a huge image
    costs nothing; then (unless `decode` is False, for a caller that decodes it next anyway)
    the whole image is decoded, which catches truncated files. `data` may be cut at
    max_bytes + 1 (a bounded read); `total_size` is then the object's real size.
    """
    check_size(max(total_size or 0, len(data)), max_bytes, name)
    try:
        image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError:
        # Pillow's guard read the header and refused at once: far past our own limit.
        raise ImageRejected(
            f"{name} has far too many pixels; the limit is {max_megapixels:g} megapixels."
        ) from None
    except (UnidentifiedImageError, OSError):
        raise ImageRejected(f"{name} is not a JPEG, PNG or WebP image.") from None
    fmt = image.format or ""
    if fmt not in ACCEPTED_FORMATS:
        raise ImageRejected(f"{name} is a {fmt or 'unknown'} image; use JPEG, PNG or WebP.")
    width, height = image.size
    megapixels = width * height / 1_000_000
    if megapixels > max_megapixels:
        raise ImageRejected(
            f"{name} is {width}x{height} ({megapixels:.1f} megapixels); "
            f"the limit is {max_megapixels:g} megapixels."
        )
    if min(width, height) < min_side:
        raise ImageRejected(
            f"{name} is {width}x{height}; it needs at least {min_side} pixels on its short side."
        )
    if not decode:
        return ImageInfo(width, height, fmt, ACCEPTED_FORMATS[fmt])
    if fmt == "JPEG":
        # Decoding at 1/8 scale still reads every byte (so truncation is caught), much faster.
        image.draft("RGB", (max(1, width // 8), max(1, height // 8)))
    try:
        image.load()
    except (OSError, SyntaxError, ValueError, Image.DecompressionBombError):
        raise ImageRejected(
            f"{name} is damaged or incomplete (it may have been cut off during upload)."
        ) from None
    return ImageInfo(width, height, fmt, ACCEPTED_FORMATS[fmt])


def decode_rgb(data: bytes) -> Image.Image:
    """Decode, apply the EXIF orientation, and flatten to RGB (transparency onto white)."""
    image: Image.Image = ImageOps.exif_transpose(Image.open(io.BytesIO(data)))
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (255, 255, 255))
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB")


def encode_jpeg(image: Image.Image, quality: int = 92, xmp: bytes | None = None) -> bytes:
    out = io.BytesIO()
    # No `optimize`: its extra Huffman pass costs more time than the bytes it saves are worth.
    extra = {"xmp": xmp} if xmp else {}
    image.convert("RGB").save(out, "JPEG", quality=quality, **extra)
    return out.getvalue()


def encode_output(image: Image.Image, xmp: bytes | None = None) -> tuple[bytes, str, str]:
    """Bytes, content type and file extension for an engine result (PNG when it has alpha),
    with `xmp` (an XMP packet) in the file's metadata when given."""
    if image.mode == "RGBA":
        out = io.BytesIO()
        info = None
        if xmp:
            info = PngImagePlugin.PngInfo()
            info.add_itxt("XML:com.adobe.xmp", xmp.decode())
        image.save(out, "PNG", optimize=False, compress_level=6, pnginfo=info)
        return out.getvalue(), "image/png", "png"
    return encode_jpeg(image, xmp=xmp), "image/jpeg", "jpg"


def thumbnail_from_bytes(data: bytes, long_side: int = THUMBNAIL_LONG_SIDE) -> bytes:
    """A thumbnail straight from encoded bytes; JPEGs are decoded at reduced scale (fast)."""
    encoded = Image.open(io.BytesIO(data))
    if encoded.format == "JPEG":
        encoded.draft("RGB", (long_side, long_side))
    image: Image.Image = ImageOps.exif_transpose(encoded)
    keep_alpha = image.mode in ("RGBA", "LA", "PA")
    return thumbnail_jpeg(image.convert("RGBA" if keep_alpha else "RGB"), long_side)


def thumbnail_jpeg(image: Image.Image, long_side: int = THUMBNAIL_LONG_SIDE) -> bytes:
    """A small JPEG preview; transparent images get a light checkerboard behind them."""
    width, height = image.size
    scale = min(1.0, long_side / max(width, height))
    # reducing_gap=1.0: a box reduction by the whole factor first, then bicubic over what is
    # left. The wide bicubic kernel over the full image took 10 ms of the 12; the preview
    # differs by under one grey level on average.
    thumb = image.resize(
        (max(1, round(width * scale)), max(1, round(height * scale))),
        Image.Resampling.BICUBIC,
        reducing_gap=1.0,
    )
    if thumb.mode == "RGBA":
        board = checkerboard(thumb.size)
        board.paste(thumb, mask=thumb.getchannel("A"))
        thumb = board
    return encode_jpeg(thumb, quality=85)


def checkerboard(size: tuple[int, int], cell: int = 12) -> Image.Image:
    """The usual light-grey checkerboard that shows transparency."""
    board = Image.new("RGB", size, (255, 255, 255))
    grey = Image.new("RGB", (cell, cell), (228, 228, 228))
    for y in range(0, size[1], cell):
        for x in range((y // cell) % 2 * cell, size[0], cell * 2):
            board.paste(grey, (x, y))
    return board


TEST_MARK = "TEST"


def test_watermark(image: Image.Image) -> Image.Image:
    """A test-mode output (issue 23): "TEST" across the whole image, diagonal and repeated, half
    transparent, so it is plainly not for publishing but the result can still be judged."""
    base = image.convert("RGBA")
    width, height = base.size
    size = max(16, min(width, height) // 6)
    font = ImageFont.load_default(size=size)
    tile = Image.new("RGBA", (size * 4, size * 2), (0, 0, 0, 0))
    draw = ImageDraw.Draw(tile)
    draw.text((size // 4, size // 2), TEST_MARK, font=font, fill=(255, 255, 255, 150),
              stroke_width=max(1, size // 16), stroke_fill=(0, 0, 0, 150))
    tile = tile.rotate(30, expand=True)
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    for y in range(-tile.height // 2, height, tile.height * 3 // 4):
        for x in range(-tile.width // 2, width, tile.width):
            layer.paste(tile, (x, y), tile)
    marked = Image.alpha_composite(base, layer)
    return marked if image.mode == "RGBA" else marked.convert("RGB")
