"""Sheer fabric: the backdrop showing through a hem or a sleeve, given back its transparency in
the matte (engine/matting.py makes the matte; engine/analysis.py calls this).
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.arrays import BoolMask, Floats, Image8, Mask
from engine.matting import COLOUR_LINE_MIN, Backdrop, backdrop_rgb

# Sheer fabric ---------------------------------------------------------------------------
# A sheer hem or sleeve shows the backdrop through it: its colour lies on the line from the
# backdrop's colour B toward the fabric's own colour F (seen where the fabric is opaque,
# deeper inside), at the fabric's opacity. The mattes above call it solid. Looked for within
# SHEER_BAND (of the subject's short side) of the subject's outline, in regions that touch
# the outline and cover at least SHEER_MIN_SHARE of the subject; the mix must be between
# SHEER_LOW and SHEER_HIGH (more opaque than that is left solid: a lighter print or a lit
# fold looks like that too).
SHEER_BAND = 0.08
SHEER_MIN_SHARE = 0.01
SHEER_LOW, SHEER_HIGH = 0.15, 0.8


def _skin(rgb: Floats) -> BoolMask:
    """Skin-coloured pixels (n, 3) or (h, w, 3) float RGB: a skin-tone box in YCrCb."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    y = 0.299 * r + 0.587 * g + 0.114 * b
    cr = (r - y) * 0.713 + 128
    cb = (b - y) * 0.564 + 128
    return np.asarray((y > 50) & (cr >= 135) & (cr <= 180) & (cb >= 75) & (cb <= 130))


def _mix(pixels: Floats, fabric: Floats, floor: Floats) -> tuple[
        Floats, Floats, Floats]:
    """Where colours lie on the line from `floor` (backdrop) to `fabric`: the share t of the
    way, the distance off the line and the line's length (all (n,) or (h, w))."""
    line = fabric - floor
    length2 = (line * line).sum(axis=-1)
    offset = pixels - floor
    t = (offset * line).sum(axis=-1) / np.maximum(length2, 1.0)
    off_line = np.sqrt(np.maximum((offset * offset).sum(axis=-1) - t * t * length2, 0.0))
    return t, off_line, np.sqrt(length2)


def _off_span(pixels: Floats, fabric: Floats) -> Floats:
    """Distance of colours from the shades k*fabric of the fabric's colour."""
    norm2 = np.maximum((fabric * fabric).sum(axis=-1), 1.0)
    k = (pixels * fabric).sum(axis=-1) / norm2
    return np.asarray(np.sqrt(np.maximum((pixels * pixels).sum(axis=-1) - k * k * norm2, 0.0)))


def sheer_alpha(
    rgb: Image8, alpha: Mask, back: Backdrop, person: bool
) -> Mask:
    """Alpha lowered to the fabric's opacity where sheer fabric shows the backdrop through.

    On a person never on skin (skin under a sheer sleeve is the subject, and skin's colour
    often lies toward a warm backdrop; a garment shot has no skin, and a pink or wine sheer
    hem has skin's colours), never where fabric and backdrop are alike (white on white: the
    mix cannot be told from the fabric's own shading there), and only in sizeable regions
    at the outline, not in a stray shaded fold.
    """
    h, w = alpha.shape
    # Sheer regions are found at a quarter of the size (they are large: SHEER_MIN_SHARE of
    # the subject), and only their alpha is worked out at full size.
    size = (max(1, w // 4), max(1, h // 4))
    small = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA).astype(np.float32)
    small_alpha = cv2.resize(alpha, size, interpolation=cv2.INTER_AREA)
    subject = (small_alpha > 0.5).astype(np.uint8)
    area = int(subject.sum())
    if area == 0:
        return alpha
    opaque = small_alpha >= 0.98
    inward = cv2.distanceTransform(subject, cv2.DIST_L2, 3)
    band = SHEER_BAND * min(size)
    # The fabric's own colour: opaque pixels deeper inside, averaged around each pixel. It
    # varies slowly, so it is worked out at a quarter of this size again (a blur this wide
    # at half the photo's size cost 30 ms).
    deep = (opaque & (inward > band)).astype(np.float32)
    coarse = (max(1, size[0] // 4), max(1, size[1] // 4))
    deep_coarse = cv2.resize(deep, coarse, interpolation=cv2.INTER_AREA)
    colour_coarse = cv2.resize(small * deep[..., None], coarse, interpolation=cv2.INTER_AREA)
    share = cv2.resize(cv2.GaussianBlur(deep_coarse, (0, 0), band / 4), size,
                       interpolation=cv2.INTER_LINEAR)
    fabric = cv2.resize(cv2.GaussianBlur(colour_coarse, (0, 0), band / 4), size,
                        interpolation=cv2.INTER_LINEAR) / np.maximum(share, 1e-4)[..., None]
    near = opaque & (inward <= band) & (share > 0.05)
    ys, xs = np.nonzero(near)
    if len(ys) == 0:
        return alpha
    floor_small = backdrop_rgb(back, size[0], size[1])
    pixels = small[ys, xs]
    t, off_line, length = _mix(pixels, fabric[ys, xs], floor_small[ys, xs])
    # Shading moves a colour toward black (k*F); when the backdrop is itself near such a
    # shade of the fabric (a white or grey top on a grey sweep) a shaded fold lies on the same
    # line as a sheer mix and cannot be told from it, so only pixels that sit clearly off the
    # shading line and on the mixing line count.
    shade_off = _off_span(pixels, fabric[ys, xs])
    sheer = (
        (length >= COLOUR_LINE_MIN)
        & (shade_off >= 2.0 * off_line + 8.0)
        & (_off_span(floor_small[ys, xs], fabric[ys, xs]) >= 0.3 * length)
        & (t >= SHEER_LOW) & (t <= SHEER_HIGH)
        & (off_line <= 0.2 * length + 10.0)
    )
    if person:
        sheer &= ~_skin(pixels) & ~_skin(fabric[ys, xs])
    marked = np.zeros(size[::-1], np.uint8)
    marked[ys[sheer], xs[sheer]] = 1
    found = np.asarray(cv2.morphologyEx(marked, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)))
    count, labels, stats, _centres = cv2.connectedComponentsWithStats(found, connectivity=8)
    if count <= 1:
        return alpha
    outline = cv2.dilate(1 - subject, np.ones((3, 3), np.uint8)) > 0
    at_outline = np.zeros(count, bool)
    at_outline[np.unique(labels[outline & (found > 0)])] = True
    keep = at_outline & (stats[:, cv2.CC_STAT_AREA] >= SHEER_MIN_SHARE * area)
    keep[0] = False
    if not keep.any():
        return alpha
    # Grown by a pixel of the reduced size: its edge pixels (next to the outline and to the
    # opaque fabric) are partly both at that size; at full size each pixel decides for itself.
    grown = cv2.dilate(keep[labels].astype(np.uint8), np.ones((3, 3), np.uint8))
    region = cv2.resize(grown, (w, h), interpolation=cv2.INTER_NEAREST)
    fy, fx = np.nonzero(region)
    big_fabric = cv2.resize(fabric, (w, h), interpolation=cv2.INTER_LINEAR)[fy, fx]
    floor = backdrop_rgb(back, w, h)[fy, fx]
    mix, _off, _len = _mix(rgb[fy, fx].astype(np.float32), big_fabric, floor)
    out = alpha.copy()
    # Only ever lowered, and never to nothing: the fabric is there. A pixel mixed nearly all
    # the way to the fabric is the opaque fabric beside the sheer part (or its shading).
    lowered = np.minimum(out[fy, fx], np.clip(mix, SHEER_LOW, 1.0))
    out[fy, fx] = np.where(mix <= SHEER_HIGH + 0.1, lowered, out[fy, fx])
    return out
