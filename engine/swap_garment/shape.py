"""Step 1 of dressing a model: the garment's key points, read from its matte alone.

The shoulders, armpits, sleeves and hem of a flat lay or ghost mannequin (GarmentShape), and
the neck opening a product photo looks into (its inside back is cut away: on the model it is
behind the neck).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from core.engine import NoGarmentFound
from engine.arrays import BoolMask, Floats, Image8, Ints, Mask

SCAN_WIDTH = 256  # garment key points are read from the matte at this width


@dataclass(frozen=True)
class Sleeve:
    mask: BoolMask  # bool, garment photo's size
    pivot: Floats  # (2,) where it joins the body, garment pixels
    end: Floats  # (2,) its far end, garment pixels


@dataclass(frozen=True)
class GarmentShape:
    left_shoulder: Floats  # image-left, garment pixels
    right_shoulder: Floats
    chest_y: float  # a row through the chest (below the armpits)
    chest_width: float
    sleeves: tuple[Sleeve, Sleeve] | None  # image-left, image-right
    # Key points for the smooth fit (garment pixels, image-left first): where the side seams
    # start under the arms, the hem's corners, and the neckline's centre (the top edge there).
    armpits: Floats  # (2, 2)
    hem: Floats  # (2, 2)
    neck: Floats  # (2,)


def _centre_runs(mask: BoolMask, cx: int) -> tuple[Ints, Ints]:
    """Per row, the extent of the run of garment pixels through column cx (-1 where none)."""
    h, w = mask.shape
    left = np.full(h, -1, np.int32)
    right = np.full(h, -1, np.int32)
    for y in range(h):
        row = mask[y]
        if not row[cx]:
            continue
        gaps_left = np.nonzero(~row[:cx])[0]
        gaps_right = np.nonzero(~row[cx:])[0]
        left[y] = gaps_left[-1] + 1 if len(gaps_left) else 0
        right[y] = cx + gaps_right[0] - 1 if len(gaps_right) else w - 1
    return left, right


def garment_shape(alpha: Mask) -> GarmentShape:
    """Shoulders, chest and sleeves of a garment from its matte (garment photo's pixels)."""
    h, w = alpha.shape
    scale = SCAN_WIDTH / w
    small = cv2.resize(alpha, (SCAN_WIDTH, max(8, round(h * scale))), interpolation=cv2.INTER_AREA)
    mask = small > 0.5
    rows = np.nonzero(mask.any(axis=1))[0]
    if len(rows) < 10:
        raise NoGarmentFound("No garment could be separated from the background of the photo.")
    top, bottom = int(rows[0]), int(rows[-1])
    height = bottom - top + 1
    # The torso's centre line: the middle of the lower half, where sleeves rarely reach.
    lower = mask[top + height // 2 : bottom + 1]
    cols = np.nonzero(lower.any(axis=0))[0]
    cx = int((cols[0] + cols[-1]) // 2)
    left, right = _centre_runs(mask, cx)
    # Armpits: going up from the hem, the run through the centre suddenly widens where a
    # sleeve joins it (tees), or where a hanging sleeve meets the body (long sleeves).
    step = max(2, height // 40)
    jump = 0.07 * SCAN_WIDTH

    def armpit(side: Ints, outward: int) -> int | None:
        # Armpits sit in the upper part; lower down, a jump is a cuff touching the body.
        for y in range(top + int(0.7 * height), top + height // 10, -1):
            below = side[min(bottom, y + step)]
            if side[y] < 0 or below < 0:
                continue
            if (side[y] - below) * outward > jump:
                return y
        return None

    left_pit, right_pit = armpit(left, -1), armpit(right, 1)
    # Garments are symmetric: one armpit found gives the other's height.
    if left_pit is None and right_pit is not None:
        left_pit = right_pit if left[right_pit] >= 0 else None
    if right_pit is None and left_pit is not None:
        right_pit = left_pit if right[left_pit] >= 0 else None
    chest_row = top + int(0.35 * height)
    if left_pit is not None and right_pit is not None:
        chest_row = max(left_pit, right_pit) + step * 2
    chest_row = min(chest_row, bottom)
    chest_left, chest_right = int(left[chest_row]), int(right[chest_row])
    if chest_left < 0:
        xs = np.nonzero(mask[chest_row])[0]
        chest_left, chest_right = int(xs[0]), int(xs[-1])
    sleeves: tuple[Sleeve, Sleeve] | None = None
    if left_pit is not None and right_pit is not None and min(left_pit, right_pit) > top + 2:
        # The torso's sides just below the armpits; above them the torso is the columns between
        # those sides, below them the run through the centre, kept from jumping outward where a
        # hanging sleeve touches it. Whatever garment lies outside is sleeve.
        side_l = int(left[min(bottom, left_pit + step)])
        side_r = int(right[min(bottom, right_pit + step)])
        # A long sleeve hanging against the body can make one side's run reach out to the
        # cuff; garments are symmetric, so the narrower half stands for both.
        half_l, half_r = cx - side_l, side_r - cx
        if abs(half_l - half_r) > 0.15 * (half_l + half_r):
            half = min(half_l, half_r)
            side_l, side_r = cx - half, cx + half
        shoulder_l = np.array([side_l, np.nonzero(mask[:, side_l])[0][0]], np.float32)
        shoulder_r = np.array([side_r, np.nonzero(mask[:, side_r])[0][0]], np.float32)
        torso = np.zeros_like(mask)
        torso_l = np.full(mask.shape[0], -1.0, np.float32)
        torso_r = np.full(mask.shape[0], -1.0, np.float32)
        # A flared body widens by well under half a pixel per row (at SCAN_WIDTH); faster
        # is a sleeve touching it.
        last_l, last_r = float(side_l), float(side_r)
        for y in range(top, bottom + 1):
            if y > min(left_pit, right_pit) and left[y] >= 0:
                last_l = max(float(left[y]), last_l - 0.5)
                last_r = min(float(right[y]), last_r + 0.5)
            torso[y, int(round(last_l)) : int(round(last_r)) + 1] = True
            torso_l[y], torso_r[y] = last_l, last_r
        outside = mask & ~torso
        columns = np.arange(SCAN_WIDTH)[None, :]
        made = []
        for side, shoulder, pit, outward in (
            (side_l, shoulder_l, left_pit, -1),
            (side_r, shoulder_r, right_pit, 1),
        ):
            part = (outside & ((columns - side) * outward > 0)).astype(np.uint8)
            count, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=8)
            if count < 2:
                break
            biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
            ys, xs = np.nonzero(labels == biggest)
            if len(ys) < 20:
                break
            # Turning about the shoulder's top keeps the shoulder line closed; the underarm
            # swings in over the body, where the sleeve is drawn on top anyway.
            pivot = np.array([side, shoulder[1] + 0.15 * (pit - shoulder[1])], np.float32)
            distance = np.hypot(xs - pivot[0], ys - pivot[1])
            far = distance >= np.percentile(distance, 90)
            end = np.array([xs[far].mean(), ys[far].mean()], np.float32)
            small_part = (labels == biggest).astype(np.uint8)
            full = cv2.resize(small_part, (w, h), interpolation=cv2.INTER_LINEAR) > 0
            made.append(Sleeve(full & (alpha > 0.01), pivot / scale, end / scale))
        # Sleeves hang off shoulders at least half as wide as the chest; narrower "shoulders"
        # mean the jumps were something else (a halter's neck tie, ruffles).
        if len(made) == 2 and abs(side_r - side_l) >= 0.5 * (chest_right - chest_left + 1):
            sleeves = (made[0], made[1])
            pits = np.array([[side_l, left_pit], [side_r, right_pit]], np.float32)
            hem_row = max(top, bottom - max(1, height // 40))
            hem = np.array(
                [[torso_l[hem_row], hem_row], [torso_r[hem_row], hem_row]], np.float32
            )
    if sleeves is None:
        chest_row = top + int(0.35 * height)
        xs = np.nonzero(mask[chest_row])[0]
        chest_left, chest_right = int(xs[0]), int(xs[-1])
        # No separate sleeves: the top edge's outer points (straps, the edge of a bandeau, or
        # shoulders whose sleeves hang against the body).
        band = mask[top : top + max(2, height // 16)]
        xs = np.nonzero(band.any(axis=0))[0]
        shoulder_l = np.array([xs[0], top], np.float32)
        shoulder_r = np.array([xs[-1], top], np.float32)
        pits = np.array([[chest_left, chest_row], [chest_right, chest_row]], np.float32)
        hem_row = max(top, bottom - max(1, height // 40))
        xs = np.nonzero(mask[hem_row])[0]
        hem_l, hem_r = (left[hem_row], right[hem_row]) if left[hem_row] >= 0 else (xs[0], xs[-1])
        hem = np.array([[hem_l, hem_row], [hem_r, hem_row]], np.float32)
    column = np.nonzero(mask[:, cx])[0]
    neck = np.array([cx, column[0] if len(column) else top], np.float32)
    return GarmentShape(
        shoulder_l / scale,
        shoulder_r / scale,
        chest_row / scale,
        (chest_right - chest_left + 1) / scale,
        sleeves,
        pits / scale,
        hem / scale,
        neck / scale,
    )


# The inside back of a garment at the neckline: a product photo looks into the neck opening and
# shows the back's inner fabric (often in shadow, with the label) between the back neckline (the
# cut-out's top edge) and the front neckline. On the model that part is behind the neck, so it
# is made transparent. A crew neck's opening is read from the top edge between the shoulders:
# two corners (its highest points, the collar's ends) and the back neckline dipping between
# them. A real opening dips at least NECK_DIP_MIN of its width (a flat top edge is an
# off-shoulder or a bandeau: nothing to look into), no more than NECK_DIP_MAX (a deeper dip is
# the front neckline itself: a cami, a V), and spans NECK_WIDTH of the shoulder seam. The
# front neckline is taken as a half-ellipse through the corners, NECK_FRONT of the garment's
# chest width deep (the front drops about as far on a narrow opening as on a wide one: 0.11-0.18
# on the fixtures' crew necks, 0.25-0.5 of the opening's width).
NECK_DIP_MIN = 0.02
NECK_DIP_MAX = 0.3
NECK_WIDTH = (0.3, 0.9)
NECK_FRONT = 0.16
# Shoulders slope down from the collar: half an opening's width outward of each corner, the top
# edge is at least this share of the opening lower (an off-shoulder's edge runs flat).
NECK_SLOPE = 0.12
NECK_STEP = 0.15  # a jump in the top edge beside a corner: a stand collar's side


@dataclass(frozen=True)
class NeckOpening:
    left: Floats  # (2,) the collar's image-left corner, garment pixels
    right: Floats  # (2,)
    width: float  # garment pixels


def neck_opening(alpha: Mask, shape: GarmentShape) -> NeckOpening | None:
    """A crew neck's opening read from the cut-out's top edge (see the constants), or None."""
    h, w = alpha.shape
    scale = SCAN_WIDTH / w
    mask = scan_mask(alpha)
    has = mask.any(axis=0)
    top = np.where(has, mask.argmax(axis=0), mask.shape[0]).astype(np.float64)
    cx = int(round(shape.neck[0] * scale))
    sl = int(round(shape.left_shoulder[0] * scale))
    sr = int(round(shape.right_shoulder[0] * scale))
    if not sl + 2 < cx < sr - 2:
        return None
    # The collar's corners: the highest points of the top edge either side of the centre (the
    # inner end of a flat-topped collar, where the opening starts).
    left_part, right_part = top[sl:cx], top[cx + 1 : sr + 1]
    cl = sl + int(np.nonzero(left_part == left_part.min())[0][-1])
    cr = cx + 1 + int(np.nonzero(right_part == right_part.min())[0][0])
    width = float(cr - cl)
    corner_y = (top[cl] + top[cr]) / 2
    dip = (top[cx] - corner_y) / max(width, 1.0)
    seam = float(sr - sl)
    outer_l = top[max(0, int(cl - width / 2))]
    outer_r = top[min(len(top) - 1, int(cr + width / 2))]
    # A stand collar (mock neck, ruffle) rises from the shoulders in a step: it covers the neck.
    reach = max(2, int(width / 4))
    step = max(
        float(np.abs(np.diff(top[max(0, cl - reach) : cl + 1])).max(initial=0.0)),
        float(np.abs(np.diff(top[cr : cr + reach + 1])).max(initial=0.0)),
    )
    if not (
        NECK_DIP_MIN <= dip <= NECK_DIP_MAX
        and NECK_WIDTH[0] * seam <= width <= NECK_WIDTH[1] * seam
        and min(outer_l, outer_r) - corner_y >= NECK_SLOPE * width
        and step <= NECK_STEP * width
    ):
        return None
    return NeckOpening(
        np.array([cl, top[cl]], np.float32) / scale,
        np.array([cr, top[cr]], np.float32) / scale,
        width / scale,
    )


def inside_back(alpha: Mask, shape: GarmentShape) -> Image8 | None:
    """The inside back seen through the neck opening (uint8 0/1, garment's size), or None."""
    opening = neck_opening(alpha, shape)
    if opening is None:
        return None
    cut = np.zeros(alpha.shape, np.uint8)
    middle = (opening.left + opening.right) / 2
    centre = (int(round(middle[0])), int(round(middle[1])))
    depth = float(
        np.clip(NECK_FRONT * shape.chest_width, 0.25 * opening.width, 0.6 * opening.width)
    )
    axes = (max(1, int(round(opening.width / 2))), max(1, int(round(depth))))
    cv2.ellipse(cut, centre, axes, 0, 0, 180, 1, -1)
    return cut


def scan_mask(alpha: Mask) -> BoolMask:
    h, w = alpha.shape
    scale = SCAN_WIDTH / w
    small = cv2.resize(alpha, (SCAN_WIDTH, max(8, round(h * scale))), interpolation=cv2.INTER_AREA)
    return np.asarray(small > 0.5)
