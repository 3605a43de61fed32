"""Between a photo of any size and the models' fixed working size, and back (numpy, no torch).

The diffusion models work at one size (768x1024 for the real checkpoints, set by
DIFFUSION_SIZE); a photo is fitted inside it whole (letterboxed, never cropped), and the result is
taken back out of the same box at the photo's own size. Only the repainted region is then copied
into the photo (:func:`paste_inside`), so every pixel outside it is the photo's own, exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.arrays import BoolMask, Image8, Mask

PAD = 255  # the letterbox's fill: white, like a studio backdrop (CatVTON pads with white)


@dataclass(frozen=True)
class Box:
    """Where a photo sits inside the working frame: offset and size in working pixels."""

    x: int
    y: int
    width: int
    height: int


def parse_size(text: str) -> tuple[int, int]:
    """"768x1024" → (768, 1024): width and height."""
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise ValueError(f"a size is WIDTHxHEIGHT, such as 768x1024, not {text!r}") from None
    if width <= 0 or height <= 0:
        raise ValueError(f"a size must be positive, not {text!r}")
    return width, height


def fit_box(shape: tuple[int, ...], size: tuple[int, int]) -> Box:
    """The largest box of the photo's aspect that fits in `size`, centred."""
    h, w = shape[:2]
    width, height = size
    scale = min(width / w, height / h)
    bw, bh = max(1, round(w * scale)), max(1, round(h * scale))
    return Box((width - bw) // 2, (height - bh) // 2, bw, bh)


def letterbox(image: Image8, size: tuple[int, int], fill: int = PAD) -> tuple[Image8, Box]:
    """`image` (RGB or one channel) fitted whole inside `size`, padded with `fill`."""
    box = fit_box(image.shape, size)
    width, height = size
    shrink = box.width < image.shape[1]
    resized = cv2.resize(image, (box.width, box.height),
                         interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
    frame = np.full((height, width, *image.shape[2:]), fill, image.dtype)
    frame[box.y : box.y + box.height, box.x : box.x + box.width] = resized
    return frame, box


def unletterbox(frame: Image8, box: Box, shape: tuple[int, ...]) -> Image8:
    """The photo's part of a working frame, at the photo's own size."""
    h, w = shape[:2]
    inner = frame[box.y : box.y + box.height, box.x : box.x + box.width]
    return np.asarray(cv2.resize(inner, (w, h), interpolation=cv2.INTER_CUBIC), np.uint8)


def inner_feather(mask: BoolMask, radius: float) -> Mask:
    """A blend weight that is 1 deep inside `mask`, falls off towards its edge, and is exactly 0
    everywhere outside it (so pasting with it never touches a pixel outside the mask)."""
    if radius <= 0:
        return mask.astype(np.float32)
    soft = cv2.GaussianBlur(mask.astype(np.float32), (0, 0), radius)
    return np.asarray(np.clip(2.0 * soft - 1.0, 0.0, 1.0) * mask, np.float32)


def paste_inside(base: Image8, generated: Image8, weight: Mask) -> Image8:
    """`generated` over `base` with `weight` (0..1); pixels where the weight is 0 are `base`'s
    own bytes, not a float round trip of them."""
    w = weight[..., None].astype(np.float32)
    mixed = base.astype(np.float32) * (1.0 - w) + generated.astype(np.float32) * w
    blended = np.clip(mixed + 0.5, 0, 255).astype(np.uint8)
    return np.where(weight[..., None] > 0, blended, base)


def restore_detail(generated: Image8, original: Image8, scale: float) -> Image8:
    """The fine detail of `original` that a pass at a smaller working size loses (texture, print,
    hair strands), added back onto `generated`: the relit image keeps the light, the photo keeps
    its sharpness. `scale` is photo pixels per working pixel; at 1 or below nothing is lost."""
    if scale <= 1.0:
        return generated
    sigma = 0.6 * scale
    source = original.astype(np.float32)
    detail = source - cv2.GaussianBlur(source, (0, 0), sigma)
    return np.clip(generated.astype(np.float32) + detail + 0.5, 0, 255).astype(np.uint8)


__all__ = ["Box", "fit_box", "inner_feather", "letterbox", "parse_size", "paste_inside",
           "restore_detail", "unletterbox"]
