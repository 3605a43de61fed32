"""Light from the scene on a placed subject: its colour and brightness matched to the light
where it stands (harmonise), the scene's light wrapped round its edges (light_wrap), and the
shadows it puts on the ground (contact_shadow, with a cast shadow away from the light)."""

from __future__ import annotations

from typing import Protocol

import cv2
import numpy as np

from engine.arrays import Float32, Floats, Image8, Mask


class Subject(Protocol):
    """What the shadows need to know of a cut-out (compose.Cutout is one)."""

    @property
    def kind(self) -> str: ...  # person | garment

    @property
    def feet_visible(self) -> bool: ...  # a full-body person whose feet are in the frame


def bbox(alpha: Floats, threshold: float = 0.5) -> tuple[int, int, int, int]:
    x, y, w, h = cv2.boundingRect((alpha > threshold).astype(np.uint8))
    return x, y, x + w, y + h


# Harmonisation, in OpenCV's 8-bit Lab (L 0..255, a and b offset by 128).
LIGHT_MATCH = 0.5  # share of the brightness difference to the scene taken over
DARKEN_LIMIT = 75.0  # a night scene darkens the subject by at most this (L units of 255)
BRIGHTEN_LIMIT = 15.0  # studio subjects are already well lit: brightening washes garments out
CAST_SHIFT = 0.3  # share of the scene light's colour cast taken over by coloured pixels
CAST_LIMIT = (4.0, 7.0)  # and at most this much in a* (green-magenta) and b* (blue-yellow)
NEUTRAL_CHROMA = (6.0, 20.0)  # below the first no cast at all (whites stay white), full above


def _lab_stats(lab: Image8) -> tuple[Float32, float]:
    pixels = lab.reshape(-1, 3).astype(np.float32)
    return pixels.mean(axis=0), float(pixels[:, 0].std())


def scene_light(background: Image8, box: tuple[int, int, int, int]) -> tuple[Floats, float]:
    """Mean Lab and the spread of L of the light where the subject stands: the background
    around the subject's box (three quarters) and the whole frame (a quarter)."""
    h, w = background.shape[:2]
    x0, y0, x1, y1 = box
    pad_x, pad_y = (x1 - x0) // 3, (y1 - y0) // 4
    local = background[
        max(0, y0 - pad_y) : min(h, y1 + pad_y), max(0, x0 - pad_x) : min(w, x1 + pad_x)
    ]
    stats = []
    for region in (local, background):
        rh, rw = region.shape[:2]
        step = max(1, max(rh, rw) // 64)
        lab = cv2.cvtColor(np.ascontiguousarray(region[::step, ::step]), cv2.COLOR_RGB2Lab)
        stats.append(_lab_stats(np.asarray(lab, np.uint8)))
    mean = 0.75 * stats[0][0] + 0.25 * stats[1][0]
    return mean, 0.75 * stats[0][1] + 0.25 * stats[1][1]


def harmonise(rgb: Image8, alpha: Mask, background: Image8) -> Image8:
    """Move the subject's brightness and contrast part of the way toward the scene's light where
    it stands, and give its coloured pixels a bounded share of the light's colour cast.

    Neutral pixels (whites, greys, blacks) get no cast at all: a white top stays white on a
    warm or a neon scene, since shoppers must see the garment's true colour; a night scene
    still darkens it. Every change is a lookup table (one on L, one on the pair a*, b*), so
    it costs two colour conversions of the subject's box.
    """
    inside = alpha > 0.5
    if np.count_nonzero(inside) < 100:
        return rgb
    box = bbox(alpha, 0.01)
    x0, y0, x1, y1 = box
    lab = cv2.cvtColor(rgb[y0:y1, x0:x1], cv2.COLOR_RGB2Lab)
    sample = inside[y0:y1:3, x0:x1:3]
    subject_mean, subject_spread = _lab_stats(lab[::3, ::3][sample])
    light_mean, light_spread = scene_light(background, box)

    shift = float(np.clip(LIGHT_MATCH * (light_mean[0] - subject_mean[0]),
                          -DARKEN_LIMIT, BRIGHTEN_LIMIT))
    gain = float(np.clip(((light_spread + 8.0) / (subject_spread + 8.0)) ** 0.3, 0.85, 1.1))
    levels = np.arange(256, dtype=np.float32)
    l_table = np.clip((levels - subject_mean[0]) * gain + subject_mean[0] + shift + 0.5, 0, 255)

    cast = np.clip(CAST_SHIFT * (light_mean[1:] - 128.0), [-CAST_LIMIT[0], -CAST_LIMIT[1]],
                   list(CAST_LIMIT))
    a_grid, b_grid = np.meshgrid(levels, levels, indexing="ij")  # index: a * 256 + b
    chroma = np.hypot(a_grid - 128.0, b_grid - 128.0)
    low, high = NEUTRAL_CHROMA
    weight = np.clip((chroma - low) / (high - low), 0.0, 1.0)
    a_table = np.clip(a_grid + weight * cast[0] + 0.5, 0, 255).astype(np.uint8).ravel()
    b_table = np.clip(b_grid + weight * cast[1] + 0.5, 0, 255).astype(np.uint8).ravel()

    pair = lab[..., 1].astype(np.intp) * 256 + lab[..., 2]
    lab = np.dstack([cv2.LUT(lab[..., 0], l_table.astype(np.uint8)), a_table[pair], b_table[pair]])
    out = rgb.copy()
    out[y0:y1, x0:x1] = cv2.cvtColor(lab, cv2.COLOR_Lab2RGB)
    return out


WRAP_STRENGTH = 0.45  # at the very edge, this share of the colour is the scene's light
WRAP_REACH = 0.006  # how far the wrap reaches into the subject (fraction of the height)


def light_wrap(rgb: Image8, alpha: Mask, background: Image8) -> Image8:
    """Blend the blurred scene into the subject's outer band, as light bending round an edge
    does, so the edge takes the scene's colour instead of the old backdrop's.

    The light is the background's blur where the subject does not hide it (the part of the
    scene behind the subject does not shine round it). Computed at a quarter of the size:
    the light has no detail.
    """
    h, w = alpha.shape
    if not (alpha > 0.5).any():
        return rgb
    q = 4
    size = (max(1, w // q), max(1, h // q))
    small_alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    small_back = cv2.resize(background, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    sigma = max(1.0, WRAP_REACH * h / q)
    outside = 1.0 - small_alpha
    spread = cv2.GaussianBlur(outside, (0, 0), sigma)
    light = np.asarray(cv2.GaussianBlur(small_back * outside[..., None], (0, 0), sigma))
    light = light / np.maximum(spread, 1e-3)[..., None]
    weight = np.clip(spread * (2.0 * WRAP_STRENGTH), 0.0, WRAP_STRENGTH) * (small_alpha > 0.01)
    x0, y0, x1, y1 = bbox(alpha, 0.01)
    full_light = cv2.resize(np.clip(light, 0, 255).astype(np.uint8), (w, h),
                            interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    full_weight = cv2.resize(weight.astype(np.float32), (w, h),
                             interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    out = rgb.copy()
    out[y0:y1, x0:x1] = cv2.blendLinear(full_light, np.ascontiguousarray(rgb[y0:y1, x0:x1]),
                                        full_weight, 1.0 - full_weight)
    return out


# The cast shadow of a standing person under light from one side: the light's side is read from
# the scene above its floor (the brighter of its left and right thirds). Below this contrast,
# (right - left) / (right + left), the light counts as frontal or diffuse: no cast shadow.
LIGHT_SIDE_MIN = 0.08
CAST_SHADOW = 0.32  # darkening where the cast shadow is densest (at the feet)
CAST_FLATTEN = 0.12  # the shadow lies on the floor: its length in the image, per body height
CAST_LEAN = 0.9  # ... and leans away from the light this much per body height, at full contrast


def light_side(background: Image8) -> float:
    """Where the scene's light comes from, horizontally: -1 (left) .. +1 (right), 0 when the
    left and right thirds above the floor (the top 70%) are about as bright."""
    h, w = background.shape[:2]
    small = cv2.resize(background[: max(1, int(0.7 * h))], (48, 48), interpolation=cv2.INTER_AREA)
    lightness = cv2.cvtColor(small, cv2.COLOR_RGB2Lab)[..., 0].astype(np.float32)
    left, right = float(lightness[:, :16].mean()), float(lightness[:, 32:].mean())
    contrast = (right - left) / max(1.0, right + left)
    return 0.0 if abs(contrast) < LIGHT_SIDE_MIN else float(np.clip(contrast * 3.0, -1.0, 1.0))


def cast_shadow(small: Mask, side: float) -> Mask:
    """The silhouette `small` (alpha at the shadow's working size) laid on the floor from its
    feet, away from the light at `side` (light_side): flattened and leaning to the dark side,
    densest at the feet and fading toward the head's end, blurred wider as it goes."""
    sh, sw = small.shape
    x0, y0, x1, y1 = bbox(small)
    height = max(1, y1 - y0)
    feet = float(y1)
    # A point `up` above the feet goes to `up * CAST_FLATTEN` behind them (up the image) and
    # `up * lean` sideways: x' = x + lean * (feet - y), y' = feet - CAST_FLATTEN * (feet - y).
    lean = -np.sign(side) * CAST_LEAN * abs(side)
    matrix = np.array([[1.0, -lean, lean * feet],
                       [0.0, CAST_FLATTEN, feet * (1.0 - CAST_FLATTEN)]], np.float32)
    laid = cv2.warpAffine(small, matrix, (sw, sh), flags=cv2.INTER_LINEAR)
    # Fading with the distance from the feet (in laid-down rows), then softened.
    rows = np.arange(sh, dtype=np.float32)[:, None]
    reach = max(1.0, CAST_FLATTEN * height)
    fade = np.clip(1.0 - (feet - rows) / reach * 0.7, 0.0, 1.0)
    laid = laid * fade * CAST_SHADOW
    return np.asarray(cv2.GaussianBlur(laid, (0, 0), max(1.0, 0.015 * height)), np.float32)


SHADOW_CORE = 0.6  # darkening right under the feet
SHADOW_SOFT = 0.3  # and of the wider, softer pool around them
DARK_FLOOR = 70.0  # mean L (of 255) below which a floor gets a stronger shadow


def contact_shadow(
    alpha: Mask, cut: Subject, background: Image8 | None = None
) -> Mask:
    """How much to darken the background under the subject (0..1).

    Drawn and blurred at a quarter of the size: a shadow has no detail, and a wide blur at
    full size would cost more than the whole matte. On a dark floor the same share of
    darkening is hard to see, so it is stronger there. A standing person in a scene lit from
    one side also casts a shadow along the floor, away from the light (cast_shadow).
    """
    h, w = alpha.shape
    if not (alpha > 0.5).any():
        return np.zeros_like(alpha)
    q = 4
    size = (max(1, w // q), max(1, h // q))
    small = np.asarray(cv2.resize(alpha, size, interpolation=cv2.INTER_AREA), np.float32)
    sh, sw = small.shape
    x0, y0, x1, y1 = bbox(small)
    if cut.kind == "person" and cut.feet_visible and y1 < sh - 1:  # feet in view
        # Under the feet: a tight, dark contact core in a wider soft pool.
        boost = 1.0
        if background is not None:
            fy0, fy1 = min(h - 1, y1 * q), min(h, y1 * q + max(4, (y1 - y0) * q // 20))
            floor = background[fy0:fy1, x0 * q : max(x0 * q + 1, x1 * q)]
            if floor.size:
                floor_lab = cv2.cvtColor(np.ascontiguousarray(floor[::2, ::2]), cv2.COLOR_RGB2Lab)
                light = float(floor_lab[..., 0].mean())
                boost = 1.3 if light < DARK_FLOOR else 1.0
        shadow = np.zeros((sh, sw), np.float32)
        feet_y = y1 - max(1, (y1 - y0) // 200)
        centre = ((x0 + x1) // 2, feet_y)
        core = (max(2, int((x1 - x0) * 0.34)), max(1, int((y1 - y0) * 0.012)))
        pool = (max(3, int((x1 - x0) * 0.55)), max(2, int((y1 - y0) * 0.03)))
        cv2.ellipse(shadow, centre, pool, 0, 0, 360, SHADOW_SOFT * boost, -1)
        soft = np.asarray(cv2.GaussianBlur(shadow, (0, 0), max(1.0, pool[1] * 1.2)))
        tight = np.zeros((sh, sw), np.float32)
        cv2.ellipse(tight, centre, core, 0, 0, 360, SHADOW_CORE * boost, -1)
        tight = np.asarray(cv2.GaussianBlur(tight, (0, 0), max(1.0, core[1] * 1.0)))
        shadow = np.maximum(soft, tight)
        side = light_side(background) if background is not None else 0.0
        if side:
            shadow = np.maximum(shadow, cast_shadow(small, side) * boost)
        shadow = np.minimum(shadow, 0.85).astype(np.float32)
    else:
        # A soft drop shadow just below and behind the subject.
        offset = max(1, int(0.012 * sh))
        shadow = np.zeros_like(small)
        shadow[offset:] = small[:-offset]
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, 0.012 * sh)) * 0.28
    return np.clip(cv2.resize(shadow, (w, h), interpolation=cv2.INTER_LINEAR), 0, 1)
