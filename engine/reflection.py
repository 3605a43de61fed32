"""Floor reflections on a glossy studio floor, taken out of a subject's matte (engine/matting.py
makes the matte; engine/analysis.py calls this for a person standing in a studio).
"""

from __future__ import annotations

import cv2
import numpy as np

from engine.arrays import Float32, Image8, Mask
from engine.matting import FOREGROUND_SURE, Backdrop, backdrop_rgb

# Floor reflections ----------------------------------------------------------------------
# On a glossy studio floor the feet and legs show again below the contact line, upside down
# and faded toward the floor's colour. A reflection pixel is a mix of the floor B and the
# subject's colour M at its mirror point: I = r*M + (1-r)*B with r well below 1 (glossy
# floors reflect a third to a half); the shoe itself is r ~ 1. Pixels mixed less than
# REFLECTION_KEEP are taken for floor; between that and REFLECTION_SURE they fade out.
REFLECTION_SURE = 0.7
REFLECTION_KEEP = 0.85
# The mirrored colour must stand out from the floor this much (RGB) to judge the mix at all.
REFLECTION_MIN_CONTRAST = 30.0
# The mirror line is looked for from this far above the landmarks' contact row to this far
# below it (of the photo's height: foot landmarks can sit well above the soles of a foot
# stepping toward the camera), comparing bands this high (at least REFLECTION_MIN_BAND).
AXIS_ABOVE, AXIS_BELOW = 0.03, 0.08
REFLECTION_BAND, REFLECTION_MIN_BAND = 0.04, 0.02
# A reflection is there only when the band below the line correlates this well with the
# band above it flipped (a faded copy correlates fully; on the fixture photos without a
# glossy floor the best lines score 0.57-0.67).
REFLECTION_MIN_NCC = 0.8


def mirror_axis(grey: Float32, x0: int, x1: int, guess: int) -> tuple[int, float]:
    """The row about which columns x0:x1 of the photo (grey float32) are best mirrored near
    `guess`, and how well (normalised cross-correlation of the bands either side)."""
    h = grey.shape[0]
    band = round(REFLECTION_BAND * h)
    least = round(REFLECTION_MIN_BAND * h)
    best, best_row = -1.0, guess
    for row in range(max(least, guess - round(AXIS_ABOVE * h)),
                     min(h - 1 - least, guess + round(AXIS_BELOW * h)) + 1):
        depth = min(band, h - 1 - row, row)
        above = grey[row - depth : row, x0:x1][::-1]
        below = grey[row + 1 : row + 1 + depth, x0:x1]
        above = above - above.mean()
        below = below - below.mean()
        norm = float(np.sqrt((above * above).sum() * (below * below).sum()))
        score = float((above * below).sum()) / norm if norm > 1e-3 else 0.0
        if score > best:
            best, best_row = score, row
    return best_row, best


def floor_reflection(
    rgb: Image8, alpha: Mask, back: Backdrop, contact: int
) -> Mask:
    """Alpha with the subject's mirrored, faded copy below the feet removed.

    `contact` is the feet's lowest row from the pose landmarks, a guess: each foot's own
    mirror line is searched near it (see mirror_axis) and only a clear mirror image counts,
    so a photo without a glossy floor is left as it is. Below the line each pixel is
    compared with the subject's colour at its mirror point; a pixel lying on the line from
    the floor's colour to that colour, short of it, is reflection.
    """
    h, w = alpha.shape
    reach = round(REFLECTION_MIN_BAND * h)
    if contact <= reach or contact >= h - 1 - reach:
        return alpha
    grey = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    top = max(0, contact - round(0.05 * h))
    feet = (alpha[top : contact + 1] > 0.5).astype(np.uint8)
    count, _labels, stats, _centres = cv2.connectedComponentsWithStats(feet, connectivity=8)
    out = alpha.copy()
    floor_rgb: Float32 | None = None
    for i in range(1, count):
        if stats[i, cv2.CC_STAT_AREA] < 100:
            continue
        x0 = max(0, int(stats[i, cv2.CC_STAT_LEFT]) - 10)
        x1 = min(w, int(stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH]) + 10)
        axis, score = mirror_axis(grey, x0, x1, contact)
        if score < REFLECTION_MIN_NCC:
            continue
        if floor_rgb is None:
            floor_rgb = backdrop_rgb(back, w, h)
        _remove_mirrored(rgb, out, floor_rgb, axis, x0, x1)
    return out


def _remove_mirrored(
    rgb: Image8, alpha: Mask, floor_rgb: Float32, axis: int, x0: int, x1: int
) -> None:
    """Lower `alpha` (in place) in columns x0:x1 below `axis` where a pixel is a faded copy
    of the subject's colour at its mirror point, then drop what is left there unjoined to the
    subject above the axis."""
    h = alpha.shape[0]
    depth = min(h - 1 - axis, axis)
    below = alpha[axis + 1 : axis + 1 + depth, x0:x1]
    ys, xs = np.nonzero(below > 0.02)
    if len(ys) == 0:
        return
    # The subject's own colour above the line, from its sure pixels only (smoothed a little
    # so a line a pixel or two off still finds the same part of the shoe or leg).
    above = rgb[axis - depth : axis, x0:x1].astype(np.float32)
    sure = (alpha[axis - depth : axis, x0:x1] > FOREGROUND_SURE).astype(np.float32)
    sigma = max(1.5, h / 400)
    weight = cv2.GaussianBlur(sure, (0, 0), sigma)
    colour = cv2.GaussianBlur(above * sure[..., None], (0, 0), sigma)
    mirror_rows = depth - 1 - ys  # row in `above` of the mirror of row axis + 1 + ys
    share = weight[mirror_rows, xs]
    mirrored = colour[mirror_rows, xs] / np.maximum(share, 1e-4)[:, None]
    floor = floor_rgb[axis + 1 + ys, x0 + xs]
    line = mirrored - floor
    length2 = (line * line).sum(axis=1)
    offset = rgb[axis + 1 + ys, x0 + xs].astype(np.float32) - floor
    mix = (offset * line).sum(axis=1) / np.maximum(length2, 1.0)
    off_line = np.sqrt(np.maximum((offset * offset).sum(axis=1) - mix * mix * length2, 0.0))
    judged = (
        (share > 0.3)
        & (length2 >= REFLECTION_MIN_CONTRAST**2)
        # On the line (a reflection is the same colour, faded), give or take the floor's
        # own sheen and JPEG noise.
        & (off_line <= 0.25 * np.sqrt(length2) + 12.0)
    )
    # Floor weight: 1 when clearly faded, 0 when as strong as the subject itself.
    faded = np.clip((REFLECTION_KEEP - mix) / (REFLECTION_KEEP - REFLECTION_SURE), 0.0, 1.0)
    below[ys, xs] = np.where(judged, below[ys, xs] * (1.0 - faded), below[ys, xs])
    # What is left below the line and no longer joined to the subject above it (specks of
    # the reflection's strongest parts) is dropped too, with its soft rim.
    start = axis - 1
    region = (alpha[start:, x0:x1] > 0.5).astype(np.uint8)
    count, labels = cv2.connectedComponents(region, connectivity=8)
    if count <= 1:
        return
    keep = np.zeros(count, bool)
    keep[np.unique(labels[:2][region[:2] > 0])] = True
    keep[0] = True
    loose = cv2.dilate((~keep[labels]).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    loose &= (labels == 0) | ~keep[labels]
    loose[:2] = False
    alpha[start:, x0:x1][loose] = 0.0
