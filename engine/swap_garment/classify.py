"""Step 0 of dressing a model: what kind of garment the cut-out is, from its shape alone.

Tops, dresses and outerwear are fitted from the shoulders, bottoms from the waist and hips;
anything else is refused with the reason (also the photo analysis's garment class).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from engine.arrays import Mask
from engine.swap_garment.shape import scan_mask

# Garment classes. Tops, dresses and outerwear are fitted from the shoulders; bottoms from the
# waist and hips; anything else is refused with a reason.
TOP, BOTTOM, DRESS, OUTERWEAR, UNKNOWN = "top", "bottom", "dress", "outerwear", "unknown"
# Trousers and shorts: in the lower part of the cut-out the centre column is empty (the gap
# between the legs) on at least this share of the rows, with garment on both sides. Legs run
# the whole zone (1.0 on trousers); an open jacket's front splits only its lowest part (~0.5).
LEG_SPLIT_ROWS = 0.85
LEG_SPLIT_ZONE = 0.3  # the lowest 30% of the garment's height
LEG_FILL = 0.4  # ... where the two legs together fill at least 40% of the width
# A skirt: a straight top edge (its waistband: the garment's width 2% down is at least this
# share of its width 10% down; a top's edge is a collar, straps or sloping shoulders, 0.1-0.7),
# and a hem at least SKIRT_FLARE times wider than the top (a tube top is straight too, but not
# flared; a pencil skirt reads as a top: a known limit of shape alone).
WAISTBAND_STRAIGHTNESS = 0.85
SKIRT_FLARE = 1.15
SKIRT_MONOTONE = 0.95  # no row narrower than 95% of the widest row above it
# A dress is long for its chest. Tops in the fixtures measure 0.7-2.6 chest widths tall (a
# long tee 2.5, a halter with its neck tie 2.6), so only a garment clearly longer is a dress.
# A mini dress reads as a top: both are fitted from the shoulders, so the output is the same.
DRESS_LENGTH = 2.8
# Outerwear: sleeves and an open front, a gap up from the hem's middle this high at least.
OPEN_FRONT = 0.15
# Most of the cut-out must be one piece: two shoes, a set of two garments are not one garment.
ONE_PIECE = 0.85


@dataclass(frozen=True)
class GarmentClass:
    kind: str  # TOP, BOTTOM, DRESS, OUTERWEAR or UNKNOWN
    aspect: float  # height / width of the cut-out's box
    leg_split: float  # share of the low rows with the centre empty between two legs
    waistband: float  # width 2% down / width 10% down; near 1 = a straight top edge
    flare: float  # hem width / top width
    length: float  # height / chest width
    reason: str = ""  # why it is UNKNOWN


def classify_garment(alpha: Mask) -> GarmentClass:
    """Top, bottom, dress or outerwear, from the cut-out's shape alone (see the constants)."""
    mask = scan_mask(alpha)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    if count < 2:
        return GarmentClass(UNKNOWN, 0, 0, 0, 0, 0, "no garment")
    areas = stats[1:, cv2.CC_STAT_AREA]
    main = 1 + int(np.argmax(areas))
    one_piece = float(areas.max()) / float(areas.sum())
    mask = labels == main
    rows = np.nonzero(mask.any(axis=1))[0]
    cols = np.nonzero(mask.any(axis=0))[0]
    top, bottom, left, right = int(rows[0]), int(rows[-1]), int(cols[0]), int(cols[-1])
    height, width = bottom - top + 1, right - left + 1
    box = mask[top : bottom + 1, left : right + 1]
    cx = width // 2
    widths = box.sum(axis=1).astype(np.float32)
    # Leg split: low rows whose middle few columns are empty but that have garment both sides.
    low = box[int((1 - LEG_SPLIT_ZONE) * height) :]
    middle = low[:, max(0, cx - 2) : cx + 3].any(axis=1)
    sides = low[:, :cx].any(axis=1) & low[:, cx:].any(axis=1)
    # Legs fill most of the width (two legs, a narrow gap); long sleeves hanging below a top's
    # hem also leave the middle empty, but as two narrow cuffs at the far sides.
    filled = low.sum(axis=1) >= LEG_FILL * width
    leg_split = float(np.mean(~middle & sides & filled)) if len(low) else 0.0
    # A waistband is a straight, full-width top edge: just below it the garment is already about
    # as wide as a little lower. A top's edge is collar, straps or sloping shoulders: narrow.
    waistband = float(widths[int(0.02 * height)]) / max(float(widths[int(0.1 * height)]), 1.0)
    top_width = float(np.median(widths[: max(2, height // 12)]))
    hem_width = float(np.median(widths[-max(2, height // 12) :]))
    flare = hem_width / max(top_width, 1.0)
    chest = float(np.median(widths[int(0.3 * height) : int(0.5 * height) + 1]))
    length = height / max(chest, 1.0)
    # Open front: going up from the hem's middle, rows with the middle empty.
    column = box[:, max(0, cx - 1) : cx + 2].any(axis=1)
    gap = 0
    for y in range(height - 1, -1, -1):
        if column[y]:
            break
        gap += 1

    def found(kind: str, reason: str = "") -> GarmentClass:
        return GarmentClass(kind, height / width, leg_split, waistband, flare, length, reason)

    if one_piece < ONE_PIECE:
        return found(UNKNOWN, "several pieces")
    if not 0.2 < height / width < 6.0:
        return found(UNKNOWN, "not a garment's shape")
    if leg_split >= LEG_SPLIT_ROWS:
        return found(BOTTOM)
    # A skirt only widens from the waistband down; a dress narrows at its waist, a halter below
    # its neck tie.
    upper = widths[int(0.02 * height) : int(0.85 * height)]
    widening = bool(len(upper)) and float(
        np.min(upper / np.maximum.accumulate(np.maximum(upper, 1.0)))
    ) >= SKIRT_MONOTONE
    if waistband >= WAISTBAND_STRAIGHTNESS and flare >= SKIRT_FLARE and widening:
        return found(BOTTOM)
    if length >= DRESS_LENGTH:
        return found(DRESS)
    if gap >= OPEN_FRONT * height and length > 1.0:
        return found(OUTERWEAR)
    return found(TOP)
