"""Putting a cut-out subject on a new background: placement, colour match, contact shadow."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

GROUND_LINE = 0.94  # full-body shots stand with their feet here (fraction of height)
FULL_BODY_HEIGHT = 0.84  # and are at most this tall
GARMENT_MARGIN = 0.12  # garments keep this margin on every side of a scene
WHITE_MARGIN = 0.06


@dataclass(frozen=True)
class Cutout:
    """A subject with its matte, on the photo's canvas."""

    rgb: np.ndarray  # uint8, edge colours already decontaminated
    alpha: np.ndarray  # float32 0..1
    kind: str  # person | garment
    feet_visible: bool  # a full-body person whose feet are in the frame


def bbox(alpha: np.ndarray, threshold: float = 0.5) -> tuple[int, int, int, int]:
    x, y, w, h = cv2.boundingRect((alpha > threshold).astype(np.uint8))
    return x, y, x + w, y + h


def cover(background: np.ndarray, width: int, height: int) -> np.ndarray:
    """The background scaled to cover the canvas and centre-cropped (no distortion).

    The crop is taken in the source first, so only the visible part is resampled.
    """
    bh, bw = background.shape[:2]
    scale = max(width / bw, height / bh)
    crop_w = min(bw, max(1, round(width / scale)))
    crop_h = min(bh, max(1, round(height / scale)))
    x0 = (bw - crop_w) // 2
    y0 = (bh - crop_h) // 2
    crop = background[y0 : y0 + crop_h, x0 : x0 + crop_w]
    return cv2.resize(
        crop,
        (width, height),
        interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR,
    )


def placement(cut: Cutout, width: int, height: int, margin: float) -> np.ndarray:
    """The 2x3 affine that puts the subject where a shop photo would have it."""
    x0, y0, x1, y1 = bbox(cut.alpha)
    h, w = cut.alpha.shape
    touches_frame = y1 >= h - 2 or y0 <= 1 or x0 <= 1 or x1 >= w - 2
    if cut.kind == "person" and touches_frame:
        # Cropped by the photographer (half-body, or the head cut by the frame's top): moving
        # or shrinking it would show the cut edge floating in the scene, so the framing stays.
        scale = min(width / w, height / h)
        return np.array(
            [[scale, 0, (width - w * scale) / 2], [0, scale, (height - h * scale) / 2]], np.float32
        )
    sw, sh = x1 - x0, y1 - y0
    if cut.kind == "person":
        scale = min(FULL_BODY_HEIGHT * height / sh, (1 - 2 * margin) * width / sw)
        tx = width / 2 - (x0 + sw / 2) * scale
        ty = GROUND_LINE * height - y1 * scale
    else:
        scale = min((1 - 2 * margin) * width / sw, (1 - 2 * margin) * height / sh, 1.6)
        tx = width / 2 - (x0 + sw / 2) * scale
        ty = height / 2 - (y0 + sh / 2) * scale
    return np.array([[scale, 0, tx], [0, scale, ty]], np.float32)


def warp(cut: Cutout, matrix: np.ndarray, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    identity = np.array([[1, 0, 0], [0, 1, 0]], np.float32)
    if cut.alpha.shape == (height, width) and np.allclose(matrix, identity, atol=1e-3):
        return cut.rgb, cut.alpha  # the framing stays (a cropped person): nothing to move
    rgb = cv2.warpAffine(
        cut.rgb, matrix, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    alpha = cv2.warpAffine(
        cut.alpha,
        matrix,
        (width, height),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    )
    return rgb, alpha


def harmonise(rgb: np.ndarray, alpha: np.ndarray, background: np.ndarray) -> np.ndarray:
    """Nudge the subject's white balance and brightness toward the new background's light.

    Deliberately gentle: shoppers must still see the garment's true colour.
    """
    inside = (alpha > 0.5).astype(np.uint8)
    if cv2.countNonZero(inside) < 100:
        return rgb
    subject_mean = np.array(cv2.mean(rgb, mask=inside)[:3]) + 1.0
    back_mean = np.array(cv2.mean(background)[:3]) + 1.0
    cast = back_mean / back_mean.mean()  # the background light's colour cast
    gain = 1.0 + 0.18 * (cast - 1.0)
    brightness = float(np.clip((back_mean.mean() / subject_mean.mean()) ** 0.15, 0.9, 1.1))
    # One lookup table per channel: exact, and far cheaper than float maths on every pixel.
    levels = np.arange(256, dtype=np.float32)
    tables = [np.clip(levels * g * brightness, 0, 255).astype(np.uint8) for g in gain]
    return cv2.merge(
        [cv2.LUT(channel, table) for channel, table in zip(cv2.split(rgb), tables, strict=True)]
    )


def contact_shadow(alpha: np.ndarray, cut: Cutout) -> np.ndarray:
    """How much to darken the background under the subject (0..1).

    Drawn and blurred at a quarter of the size: a shadow has no detail, and a wide blur at
    full size would cost more than the whole matte.
    """
    h, w = alpha.shape
    if not (alpha > 0.5).any():
        return np.zeros_like(alpha)
    q = 4
    small = cv2.resize(alpha, (max(1, w // q), max(1, h // q)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape
    x0, y0, x1, y1 = bbox(small)
    if cut.kind == "person" and cut.feet_visible:
        # An ellipse on the ground under the feet.
        shadow = np.zeros((sh, sw), np.float32)
        centre = ((x0 + x1) // 2, y1 - max(1, (y1 - y0) // 200))
        axes = (max(2, int((x1 - x0) * 0.42)), max(1, int((y1 - y0) * 0.018)))
        cv2.ellipse(shadow, centre, axes, 0, 0, 360, 1.0, -1)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, axes[1] * 1.2)) * 0.45
    else:
        # A soft drop shadow just below and behind the subject.
        offset = max(1, int(0.012 * sh))
        shadow = np.zeros_like(small)
        shadow[offset:] = small[:-offset]
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.012 * sh)) * 0.28
    return np.clip(cv2.resize(shadow, (w, h), interpolation=cv2.INTER_LINEAR), 0, 1)


def over(
    background: np.ndarray, rgb: np.ndarray, alpha: np.ndarray, shadow: np.ndarray | None = None
) -> np.ndarray:
    if shadow is not None:
        background = cv2.blendLinear(
            background,
            np.zeros_like(background),
            (1.0 - shadow).astype(np.float32),
            shadow.astype(np.float32),
        )
    alpha = alpha.astype(np.float32)
    return cv2.blendLinear(rgb, background, alpha, 1.0 - alpha)


def on_photo(cut: Cutout, background: np.ndarray) -> np.ndarray:
    height, width = cut.alpha.shape
    canvas = cover(background, width, height)
    matrix = placement(cut, width, height, GARMENT_MARGIN)
    rgb, alpha = warp(cut, matrix, width, height)
    rgb = harmonise(rgb, alpha, canvas)
    return over(canvas, rgb, alpha, contact_shadow(alpha, cut))


def on_white(cut: Cutout) -> np.ndarray:
    """Pure #FFFFFF, subject centred with a margin: what marketplaces ask for main images."""
    height, width = cut.alpha.shape
    x0, y0, x1, y1 = bbox(cut.alpha)
    scale = min(
        (1 - 2 * WHITE_MARGIN) * width / (x1 - x0), (1 - 2 * WHITE_MARGIN) * height / (y1 - y0), 1.6
    )
    tx = width / 2 - (x0 + x1) / 2 * scale
    ty = height / 2 - (y0 + y1) / 2 * scale
    if cut.kind == "person" and (y1 >= height - 2 or y0 <= 1):
        # A person cut by the frame's top or bottom keeps the size and height it had (the cut
        # stays on the frame's edge); it is only centred sideways.
        scale = 1.0
        tx = width / 2 - (x0 + x1) / 2
        ty = 0.0
    matrix = np.array([[scale, 0, tx], [0, scale, ty]], np.float32)
    rgb, alpha = warp(cut, matrix, width, height)
    white = np.full((height, width, 3), 255, np.uint8)
    return over(white, rgb, alpha)


def transparent(cut: Cutout) -> np.ndarray:
    """RGBA cut-out whose alpha is the matte, in the photo's own framing."""
    alpha8 = np.clip(cut.alpha * 255.0 + 0.5, 0, 255).astype(np.uint8)
    return np.dstack([cut.rgb, alpha8])
