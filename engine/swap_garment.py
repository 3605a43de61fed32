"""Model swap, case (b): the photo is a garment alone (flat lay or ghost mannequin).

The digital model is dressed in it:
0. the garment is classified from its cut-out (top, bottom, dress, outerwear); a bottom is put on
   the waist and hips (never on the torso), anything unrecognised is refused with a reason;
1. key points from the garment's matte: shoulders, armpits, sleeves, hem;
2. the torso part is placed on the model's torso (shoulder line from the pose landmarks), the
   sleeves are cut off at the armpits and turned about the shoulders to lie along the model's
   arms (a flat lay spreads them sideways; the catalog models' arms hang down);
3. the garment is shaded with the model photo's own lighting (folds and fall-off of the top the
   model wears, which is light-coloured in the catalog);
4. the model's arms stay in front of the torso part, hands and hair in front of everything; the
   model's own top is turned to skin where the new garment does not reach, and around a dress
   or a new bottom so are the model's own bottoms below its hem (legs) or, beside it, they
   become backdrop (the new garment is the body's outline there);
5. the result is scored (engine/quality.py): a garment that does not sit where it should fails
   with a reason and the task is refunded.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from core.engine import NoGarmentFound, ProgressFn
from engine import matting, models, quality
from engine.analysis import Subject
from engine.arrays import BoolMask, Float32, Float64, Floats, Image8, Ints, Mask
from engine.digital_model import FACE_OVAL, LEFT_KNEE, RIGHT_KNEE, Person
from engine.quality import QualityReport

SCAN_WIDTH = 256  # garment key points are read from the matte at this width
# Where the garment's shoulder seams land, as a multiple of the distance between the pose's
# shoulder joints (seams sit just outside the joints), and how much a flat lay narrows when it
# wraps around a body (front view).
SEAM_WIDTH = 1.12
WRAP = 0.92
# Garments without sleeves (camis, bandeaus) are fitted by their chest to the model's chest.
CHEST_WIDTH = 1.05


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
    mask = _scan_mask(alpha)
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


def _scan_mask(alpha: Mask) -> BoolMask:
    h, w = alpha.shape
    scale = SCAN_WIDTH / w
    small = cv2.resize(alpha, (SCAN_WIDTH, max(8, round(h * scale))), interpolation=cv2.INTER_AREA)
    return np.asarray(small > 0.5)


def classify_garment(alpha: Mask) -> GarmentClass:
    """Top, bottom, dress or outerwear, from the cut-out's shape alone (see the constants)."""
    mask = _scan_mask(alpha)
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


def _rotation_about(point: Floats, angle: float) -> Float64:
    """3x3 rotation by `angle` radians about `point`."""
    c, s = np.cos(angle), np.sin(angle)
    x, y = float(point[0]), float(point[1])
    return np.array([[c, -s, x - c * x + s * y], [s, c, y - s * x - c * y], [0, 0, 1]], np.float64)


def _angle(vector: Floats) -> float:
    return float(np.arctan2(vector[1], vector[0]))


def torso_transform(shape: GarmentShape, model: Person) -> Floats:
    """3x3 affine from garment pixels to model pixels for the garment's body."""
    points = model.pose.points
    # The model's right shoulder is on the image's left.
    joint_l, joint_r = points[models.RIGHT_SHOULDER], points[models.LEFT_SHOULDER]
    hip_l, hip_r = points[models.RIGHT_HIP], points[models.LEFT_HIP]
    joints = float(np.linalg.norm(joint_r - joint_l))
    across = (joint_r - joint_l) / max(joints, 1.0)
    # "Down" follows the body's axis (shoulders' middle to hips' middle), not the image's.
    axis = (hip_l + hip_r) / 2 - (joint_l + joint_r) / 2
    down = axis / max(float(np.linalg.norm(axis)), 1.0)
    seam = float(np.linalg.norm(shape.right_shoulder - shape.left_shoulder))
    if shape.sleeves is not None or seam >= 0.6 * shape.chest_width:
        scale = SEAM_WIDTH * joints / max(seam, 1.0)
        anchor_g = (shape.left_shoulder + shape.right_shoulder) / 2
        # Seams sit slightly above the joints.
        anchor_m = (joint_l + joint_r) / 2 - down * joints * 0.12
    else:
        scale = CHEST_WIDTH * joints / max(shape.chest_width * WRAP, 1.0)
        anchor_g = np.array(
            [(shape.left_shoulder[0] + shape.right_shoulder[0]) / 2, shape.chest_y], np.float32
        )
        torso = float(np.linalg.norm(axis))
        anchor_m = (joint_l + joint_r) / 2 + down * torso * 0.3
    # Columns: garment x and y axes in model pixels. x narrows by WRAP (the flat lay wraps
    # around the body); y keeps the garment's length at the same scale.
    x_axis = across * scale * WRAP
    y_axis = down * scale
    linear = np.stack([x_axis, y_axis], axis=1).astype(np.float64)
    offset = anchor_m - linear @ anchor_g
    return np.array(
        [
            [linear[0, 0], linear[0, 1], offset[0]],
            [linear[1, 0], linear[1, 1], offset[1]],
            [0, 0, 1],
        ],
        np.float64,
    )


# The smooth fit (thin-plate spline, OpenCV's): garment key points to body landmarks. Each
# shoulder seam sits just outside and above its own joint (so a tilted or uneven pair of
# shoulders is followed, not averaged), each armpit follows its own shoulder, and the hem
# narrows toward the hips where a flat lay is wider than the body (the fabric falls, it does not
# stand out as a box). The spline is regularised a little: bends stay gentle.
SEAM_OUT = 0.5 * (SEAM_WIDTH * WRAP - 1.0)  # outward of each joint, in shoulder widths
SEAM_UP = 0.12  # above the joints, in shoulder widths (as the affine fit)
HIP_FRONT = 1.7  # a body's front width at the hips, in hip-joint distances
HEM_EASE = 1.15  # a hem hangs this much wider than the body under it
HEM_MIN = 0.8  # ... and is narrowed to no less than this share of its flat width
TPS_SMOOTH = 0.02  # regularisation, in the spline's units (a shoulder width is 1)
GRID_STEP = 8  # the warp's map is solved every GRID_STEP pixels and interpolated


@dataclass(frozen=True)
class Fit:
    """A smooth garment-to-model map: key points in both spaces, and the spline both ways."""

    garment_points: Floats  # (n, 2) garment pixels
    model_points: Floats  # (n, 2) model pixels
    forward: cv2.ShapeTransformer  # garment pixels to model pixels
    backward: cv2.ShapeTransformer  # model pixels to garment pixels
    unit: float  # pixels per spline unit (the model's shoulder width)

    def apply(self, points: Floats, inverse: bool = False) -> Float64:
        """Map (n, 2) points garment to model (or model to garment with inverse)."""
        spline = self.backward if inverse else self.forward
        origin = self.model_points if inverse else self.garment_points
        # Both splines work in shoulder-width units around the key points' centre.
        centre = origin.mean(axis=0)
        target = self.garment_points if inverse else self.model_points
        target_centre = target.mean(axis=0)
        scaled = ((points - centre) / self.unit).astype(np.float32).reshape(1, -1, 2)
        _, mapped = spline.applyTransformation(scaled)
        return np.asarray(mapped.reshape(-1, 2) * self.unit + target_centre, np.float64)


def _spline(a: Floats, b: Floats, unit: float) -> cv2.ShapeTransformer:
    spline = cv2.createThinPlateSplineShapeTransformer(TPS_SMOOTH)
    pa = ((a - a.mean(axis=0)) / unit).astype(np.float32).reshape(1, -1, 2)
    pb = ((b - b.mean(axis=0)) / unit).astype(np.float32).reshape(1, -1, 2)
    matches = [cv2.DMatch(i, i, 0) for i in range(len(a))]
    spline.estimateTransformation(pa, pb, matches)
    return spline


def _apply(matrix: Floats, points: Floats) -> Float64:
    return np.asarray(points @ matrix[:2, :2].T + matrix[:2, 2], np.float64)


# The base of the neck on the model: going down from the chin, the first row where the person's
# matte is wider than this share of the shoulder joints' distance (the neck is ~0.3-0.35; below
# its base the trapezius slopes out). A crew neck's collar corners sit there.
NECK_BASE_WIDTH = 0.55


def neck_base(model: Person) -> float | None:
    """The row of the base of the neck (model pixels), or None without a face."""
    if model.face is None:
        return None
    p = model.pose.points
    h, w = model.rgb.shape[:2]
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    chin = float(model.face[152, 1])
    shoulders = float(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].mean())
    cx = float(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 0].mean())
    x0, x1 = int(max(0, cx - width)), int(min(w, cx + width))
    for y in range(int(max(0, chin)), int(min(h, shoulders))):
        if float(np.count_nonzero(model.subject.cutout.alpha[y, x0:x1] > 0.5)) > (
            NECK_BASE_WIDTH * width
        ):
            return float(y)
    return None


def torso_fit(shape: GarmentShape, model: Person, collar: NeckOpening | None = None) -> Fit:
    """The smooth fit of the garment's body: its key points (shoulders, armpits, hem corners,
    neckline centre) on the model's landmarks (shoulders, hips), starting from the affine fit."""
    p = model.pose.points
    affine = torso_transform(shape, model)
    across, down, _ = _body_axes(model)
    joint_l, joint_r = p[models.RIGHT_SHOULDER], p[models.LEFT_SHOULDER]
    width = float(np.linalg.norm(joint_r - joint_l))
    garment = np.array(
        [shape.left_shoulder, shape.right_shoulder, *shape.armpits, *shape.hem, shape.neck],
        np.float64,
    )
    placed = _apply(affine, garment)
    target = placed.copy()
    seam = float(np.linalg.norm(shape.right_shoulder - shape.left_shoulder))
    if shape.sleeves is not None or seam >= 0.6 * shape.chest_width:
        # Shoulder seams on the shoulders, each on its own joint.
        target[0] = joint_l - across * SEAM_OUT * width - down * SEAM_UP * width
        target[1] = joint_r + across * SEAM_OUT * width - down * SEAM_UP * width
        # Armpits move with their shoulder.
        target[2] += target[0] - placed[0]
        target[3] += target[1] - placed[1]
    # The hem toward the hips' width, about the body's axis.
    hips = p[[models.RIGHT_HIP, models.LEFT_HIP]]
    body_half = 0.5 * HIP_FRONT * float(np.linalg.norm(hips[1] - hips[0]))
    hem_mid = (placed[4] + placed[5]) / 2
    flat_half = 0.5 * float(np.linalg.norm(placed[5] - placed[4]))
    half = float(np.clip(HEM_EASE * body_half, HEM_MIN * flat_half, flat_half))
    target[4] = hem_mid - across * half
    target[5] = hem_mid + across * half
    base = neck_base(model) if collar is not None else None
    if collar is not None and base is not None:
        # A crew neck's collar corners at the sides of the neck's base (the shoulders slope up
        # to it), where the affine fit left them across.
        corners = _apply(affine, np.array([collar.left, collar.right], np.float64))
        lifted = corners + down * (base - corners[:, 1:].mean()) / max(float(down[1]), 0.5)
        garment = np.concatenate([garment, [collar.left, collar.right]])
        target = np.concatenate([target, lifted])
    # Points that fall together (a crop top's armpits on its hem) would pin one spot twice.
    keep = [0]
    for i in range(1, len(garment)):
        if min(float(np.linalg.norm(garment[i] - garment[j])) for j in keep) > 2.0:
            keep.append(i)
    garment, target = garment[keep], target[keep]
    unit = max(width, 8.0)
    return Fit(garment, target, _spline(garment, target, unit), _spline(target, garment, unit),
               unit)


def sleeve_transform(sleeve: Sleeve, torso: Floats, model: Person, left: bool) -> Floats:
    """The torso's transform, then a turn about the shoulder so the sleeve follows the arm."""
    points = model.pose.points
    # Image-left sleeve on the model's right arm.
    shoulder, elbow, wrist = (
        (models.RIGHT_SHOULDER, models.RIGHT_ELBOW, models.RIGHT_WRIST)
        if left
        else (models.LEFT_SHOULDER, models.LEFT_ELBOW, models.LEFT_WRIST)
    )
    pivot = (torso @ np.append(sleeve.pivot, 1.0))[:2]
    end = (torso @ np.append(sleeve.end, 1.0))[:2]
    upper_arm = float(np.linalg.norm(points[elbow] - points[shoulder]))
    # Long sleeves aim at the wrist, short ones along the upper arm.
    target = points[wrist] if np.linalg.norm(end - pivot) > 1.2 * upper_arm else points[elbow]
    turn = _angle(target - points[shoulder]) - _angle(end - pivot)
    turn = (turn + np.pi) % (2 * np.pi) - np.pi
    return _rotation_about(pivot, turn) @ torso


def _warp(image: NDArray[Any], matrix: Floats, size: tuple[int, int], linear: bool) -> NDArray[Any]:
    return np.asarray(cv2.warpAffine(
        image,
        matrix[:2].astype(np.float32),
        size,
        flags=cv2.INTER_LINEAR if linear else cv2.INTER_NEAREST,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=0,
    ))


def _capsule(shape: tuple[int, int], a: Floats, b: Floats, radius: float) -> Image8:
    mask = np.zeros(shape, np.uint8)
    cv2.line(mask, tuple(int(v) for v in a), tuple(int(v) for v in b), 1, max(1, int(2 * radius)))
    return mask


def arm_masks(model: Person) -> tuple[Mask, Mask]:
    """The model's bare arms and hands (float32 0/1): skin along the pose's arm bones."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    arms = np.zeros((h, w), np.uint8)
    hands = np.zeros((h, w), np.uint8)
    for s, e, wr in (
        (models.LEFT_SHOULDER, models.LEFT_ELBOW, models.LEFT_WRIST),
        (models.RIGHT_SHOULDER, models.RIGHT_ELBOW, models.RIGHT_WRIST),
    ):
        arms |= _capsule((h, w), p[s], p[e], 0.2 * width)
        arms |= _capsule((h, w), p[e], p[wr], 0.17 * width)
        cv2.circle(hands, tuple(int(v) for v in p[wr]), int(0.22 * width), 1, -1)
    skin = model.skin > 0.5
    return (arms.astype(bool) & skin).astype(np.float32), (hands.astype(bool) & skin).astype(
        np.float32
    )


def hair_mask(model: Person) -> Mask:
    """The model's hair that can fall in front of a garment: dark, not skin, near the head."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    shoulder_y = float(min(p[models.LEFT_SHOULDER, 1], p[models.RIGHT_SHOULDER, 1]))
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    zone = np.zeros((h, w), bool)
    zone[: int(max(0, shoulder_y + 0.45 * width))] = True
    grey = cv2.cvtColor(model.rgb, cv2.COLOR_RGB2GRAY)
    hair = zone & (grey < 90) & (model.subject.cutout.alpha > 0.5) & (model.skin < 0.5)
    # Hair grows from the head: only dark parts that reach the head (above the shoulders' line,
    # near the nose's column). A shadow
    # between a dark-skinned arm and the torso (model-4) is dark and not skin too, and drawn in
    # front of the garment it ran down the sleeve seams as brown streaks.
    count, labels = cv2.connectedComponents(hair.astype(np.uint8))
    if count > 1:
        top = int(max(0, shoulder_y - 0.1 * width))
        nose = float(p[models.NOSE, 0])
        x0, x1 = int(max(0, nose - 0.4 * width)), int(min(w, nose + 0.4 * width))
        rooted = np.unique(labels[:top, x0:x1][hair[:top, x0:x1]])
        hair = np.isin(labels, rooted[rooted > 0])
    return hair.astype(np.float32)


def shading(model: Person, where: Mask) -> Float32:
    """The model photo's light on its torso, as a multiplier around 1 (float32).

    Measured on the model's own top (bright, plain fabric in the catalog): its lightness over its
    local average gives folds and fall-off, which are then laid onto the new garment. Other
    regions (skin, jeans) would add their colour, not light, so they stay at 1.
    """
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    top = float(min(p[models.LEFT_SHOULDER, 1], p[models.RIGHT_SHOULDER, 1]))
    hips = float(max(p[models.LEFT_HIP, 1], p[models.RIGHT_HIP, 1]))
    region = np.zeros((h, w), np.float32)
    region[int(max(0, top)) : int(max(0, top + 0.75 * (hips - top)))] = 1.0
    region *= (model.subject.cutout.alpha > 0.9) * (model.skin < 0.5) * (where > 0.5)
    grey = cv2.cvtColor(model.rgb, cv2.COLOR_RGB2GRAY).astype(np.float32)
    if region.sum() < 500:
        return np.ones((h, w), np.float32)
    # Only the brightest plain cloth: a light top reflects the light, not its own pattern.
    cloth = region * (grey > np.percentile(grey[region > 0], 40))
    # Smooth ratios at a quarter of the size: the light varies slowly, and small texture
    # (a rib knit) must not be printed onto the new garment.
    sw, sh = max(8, w // 4), max(8, h // 4)
    g = cv2.resize(grey * cloth, (sw, sh), interpolation=cv2.INTER_AREA)
    c = cv2.resize(cloth, (sw, sh), interpolation=cv2.INTER_AREA)
    local = cv2.GaussianBlur(g, (0, 0), 1.2) / (cv2.GaussianBlur(c, (0, 0), 1.2) + 1e-3)
    level = float(np.percentile(grey[cloth > 0], 80))
    ratio = np.where(c > 0.5, local / max(level, 1.0), 1.0).astype(np.float32)
    # Where no cloth was measured (under the arms, past the hem) the light fades to neutral.
    weight = cv2.GaussianBlur((c > 0.5).astype(np.float32), (0, 0), 2.0)
    ratio = 1.0 + (cv2.GaussianBlur(ratio, (0, 0), 1.0) - 1.0) * weight
    ratio = np.clip(ratio, 0.7, 1.1) ** 0.8
    return np.asarray(cv2.resize(ratio, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


# Bottoms: the waistband sits this share of the shoulder-to-hip distance above the pose's hip
# joints (mid-rise; the joints are at the top of the thighs), and a flat lay's waist is this
# much wider than the body's front at that height (the waistband wraps half-way around).
WAIST_ABOVE_HIPS = 0.3
WAIST_EASE = 1.05
HIP_VISIBILITY = 0.5


def _source_box(alpha: Mask) -> tuple[int, int, int, int] | None:
    """The layer's box in the garment photo (x0, y0, x1, y1), 2 px wider each side so edge
    interpolation reads real neighbours; None for an empty layer."""
    x, y, bw, bh = cv2.boundingRect((alpha > 0.002).astype(np.uint8))
    if bw == 0 or bh == 0:
        return None
    sh, sw = alpha.shape
    return max(0, x - 2), max(0, y - 2), min(sw, x + bw + 2), min(sh, y + bh + 2)


def _warp_layer(
    rgb: Image8, alpha: Mask, matrix: Floats, size: tuple[int, int]
) -> tuple[Float32, Float32]:
    """Warp colour and matte together, premultiplied: the colour at a soft edge is the garment's,
    never a mix with the product photo's backdrop (which would draw a light outline).

    Only the layer's own box is read and written (a sleeve is a small part of the frame), which
    keeps the float warps cheap."""
    w, h = size
    colour = np.zeros((h, w, 3), np.float32)
    matte = np.zeros((h, w), np.float32)
    source = _source_box(alpha)
    if source is None:
        return colour, matte
    sx0, sy0, sx1, sy1 = source
    corners = np.array([[sx0, sy0], [sx1, sy0], [sx0, sy1], [sx1, sy1]], np.float64)
    placed = corners @ matrix[:2, :2].T + matrix[:2, 2]
    x0, y0 = (max(0, int(np.floor(v)) - 2) for v in placed.min(axis=0))
    x1 = min(w, int(np.ceil(placed[:, 0].max())) + 2)
    y1 = min(h, int(np.ceil(placed[:, 1].max())) + 2)
    if x1 <= x0 or y1 <= y0:
        return colour, matte
    # Source crop to destination box: shift in, apply, shift out.
    local = (
        np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
        @ matrix
        @ np.array([[1, 0, sx0], [0, 1, sy0], [0, 0, 1]], np.float64)
    )
    crop_alpha = alpha[sy0:sy1, sx0:sx1]
    premultiplied = rgb[sy0:sy1, sx0:sx1].astype(np.float32) * crop_alpha[..., None]
    box = (x1 - x0, y1 - y0)
    warped = _warp(premultiplied, local, box, True)
    warped_alpha = _warp(crop_alpha, local, box, True)
    colour[y0:y1, x0:x1] = np.clip(warped / np.maximum(warped_alpha, 1e-3)[..., None], 0, 255)
    matte[y0:y1, x0:x1] = warped_alpha
    return colour, matte


def _warp_layer_fit(
    rgb: Image8, alpha: Mask, fit: Fit, size: tuple[int, int]
) -> tuple[Float32, Float32]:
    """`_warp_layer` through a smooth fit: the backward map (model pixel to garment pixel) is
    solved on a coarse grid over the layer's box and interpolated, then colour and matte are
    remapped together, premultiplied."""
    w, h = size
    colour = np.zeros((h, w, 3), np.float32)
    matte = np.zeros((h, w), np.float32)
    layer_box = _source_box(alpha)
    if layer_box is None:
        return colour, matte
    sx0, sy0, sx1, sy1 = layer_box
    # The box the layer lands in: its source box's outline, mapped.
    t = np.linspace(0.0, 1.0, 9)
    outline = np.concatenate(
        [
            np.stack([sx0 + t * (sx1 - sx0), np.full_like(t, sy0)], axis=1),
            np.stack([sx0 + t * (sx1 - sx0), np.full_like(t, sy1)], axis=1),
            np.stack([np.full_like(t, sx0), sy0 + t * (sy1 - sy0)], axis=1),
            np.stack([np.full_like(t, sx1), sy0 + t * (sy1 - sy0)], axis=1),
        ]
    )
    placed = fit.apply(outline)
    x0, y0 = (max(0, int(np.floor(v)) - 4) for v in placed.min(axis=0))
    x1 = min(w, int(np.ceil(placed[:, 0].max())) + 4)
    y1 = min(h, int(np.ceil(placed[:, 1].max())) + 4)
    if x1 <= x0 or y1 <= y0:
        return colour, matte
    bw, bh = x1 - x0, y1 - y0
    gw, gh = max(2, -(-bw // GRID_STEP) + 1), max(2, -(-bh // GRID_STEP) + 1)
    # Grid nodes where cv2.resize's linear interpolation puts them (pixel centres scaled), so
    # the interpolated map is exact at the nodes.
    gx = x0 + (np.arange(gw) + 0.5) * bw / gw - 0.5
    gy = y0 + (np.arange(gh) + 0.5) * bh / gh - 0.5
    nodes = np.stack(np.meshgrid(gx, gy), axis=-1).reshape(-1, 2)
    source = fit.apply(nodes, inverse=True).reshape(gh, gw, 2).astype(np.float32)
    map_x = cv2.resize(source[..., 0] - sx0, (bw, bh), interpolation=cv2.INTER_LINEAR)
    map_y = cv2.resize(source[..., 1] - sy0, (bw, bh), interpolation=cv2.INTER_LINEAR)
    crop_alpha = np.ascontiguousarray(alpha[sy0:sy1, sx0:sx1])
    premultiplied = rgb[sy0:sy1, sx0:sx1].astype(np.float32) * crop_alpha[..., None]

    def remap(image: NDArray[Any]) -> NDArray[Any]:
        return np.asarray(cv2.remap(
            image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0
        ))

    warped, warped_alpha = remap(premultiplied), remap(crop_alpha)
    colour[y0:y1, x0:x1] = np.clip(warped / np.maximum(warped_alpha, 1e-3)[..., None], 0, 255)
    matte[y0:y1, x0:x1] = warped_alpha
    return colour, matte


def _body_axes(model: Person) -> tuple[Floats, Floats, float]:
    """Across (image left to right) and down unit vectors of the body, and the torso's length."""
    p = model.pose.points
    joint_l, joint_r = p[models.RIGHT_SHOULDER], p[models.LEFT_SHOULDER]
    hip_l, hip_r = p[models.RIGHT_HIP], p[models.LEFT_HIP]
    across = (joint_r - joint_l) / max(float(np.linalg.norm(joint_r - joint_l)), 1.0)
    axis = (hip_l + hip_r) / 2 - (joint_l + joint_r) / 2
    length = float(np.linalg.norm(axis))
    return across, axis / max(length, 1.0), length


def bottom_transform(alpha: Mask, model: Person) -> Floats:
    """3x3 affine from garment pixels to model pixels for trousers, shorts or a skirt: the
    waistband on the model's waist (from the hip landmarks), as wide as the body there.

    NoGarmentFound when the model's hips are not visible: a bottom is never put elsewhere."""
    p, seen = model.pose.points, model.pose.visibility
    h, w = model.rgb.shape[:2]
    hips = p[[models.LEFT_HIP, models.RIGHT_HIP]]
    if seen[[models.LEFT_HIP, models.RIGHT_HIP]].min() < HIP_VISIBILITY or hips[:, 1].max() >= h:
        raise NoGarmentFound(
            "This looks like trousers, shorts or a skirt, and the chosen model's hips are not "
            "visible; choose a model shown at least down to the thighs."
        )
    across, down, torso = _body_axes(model)
    waist_m = hips.mean(axis=0) - down * WAIST_ABOVE_HIPS * torso
    # The body's width at the waist, from the model's matte (a run through the waist's centre).
    row = int(np.clip(waist_m[1], 0, h - 1))
    inside = model.subject.cutout.alpha[row] > 0.5
    cx = int(np.clip(waist_m[0], 0, w - 1))
    body = float(np.linalg.norm(hips[0] - hips[1])) * 1.6  # if the matte says nothing useful
    if inside[cx]:
        gaps_l = np.nonzero(~inside[:cx])[0]
        gaps_r = np.nonzero(~inside[cx:])[0]
        left = gaps_l[-1] + 1 if len(gaps_l) else 0
        right = cx + gaps_r[0] if len(gaps_r) else w
        body = float(right - left)
    # The garment's waistband: its top rows.
    mask = alpha > 0.5
    rows = np.nonzero(mask.any(axis=1))[0]
    top = int(rows[0])
    band = mask[top : top + max(2, (int(rows[-1]) - top) // 20)]
    cols = np.nonzero(band.any(axis=0))[0]
    waist_g = np.array([(cols[0] + cols[-1]) / 2, top], np.float32)
    scale = WAIST_EASE * body / max(float(cols[-1] - cols[0] + 1), 1.0)
    linear = np.stack([across * scale, down * scale], axis=1).astype(np.float64)
    offset = waist_m - linear @ waist_g
    return np.array(
        [[linear[0, 0], linear[0, 1], offset[0]], [linear[1, 0], linear[1, 1], offset[1]],
         [0, 0, 1]],
        np.float64,
    )


@dataclass(frozen=True)
class Dressing:
    """A garment placed on the model: the layers drawn in order, and what they cover."""

    kind: GarmentClass
    layers: list[tuple[Float32, Float32]]  # (float32 rgb, float32 alpha), model's size
    coverage: Mask  # float32 0..1, all layers together


def place_garment(garment: Subject, model: Person) -> Dressing:
    """Classify the garment and place it: tops, dresses and outerwear from the shoulders (the
    sleeves along the arms), bottoms from the waist; NoGarmentFound (refunded) for anything
    else, with the reason."""
    alpha = garment.cutout.alpha
    kind = classify_garment(alpha)
    if kind.kind == UNKNOWN:
        raise NoGarmentFound(
            "We could not tell what kind of garment this is (a top, trousers or a skirt, a dress "
            f"or a jacket: {kind.reason}); use a photo of one garment alone, laid flat or on a "
            "ghost mannequin."
        )
    h, w = model.rgb.shape[:2]
    layers: list[tuple[Float32, Float32]] = []
    if kind.kind == BOTTOM:
        matrix = bottom_transform(alpha, model)
        layers.append(_warp_layer(garment.cutout.rgb, alpha, matrix, (w, h)))
        return Dressing(kind, layers, layers[0][1])
    shape = garment_shape(alpha)
    torso_m = torso_transform(shape, model)
    collar = neck_opening(alpha, shape)
    fit = torso_fit(shape, model, collar)
    body_alpha = alpha.copy()
    back = inside_back(alpha, shape)
    if back is not None:
        # Feathered a little: the new neckline edge is as soft as the garment's own edges.
        body_alpha *= 1.0 - cv2.GaussianBlur(back.astype(np.float32), (0, 0), 1.5)
    if shape.sleeves is not None:
        for sleeve in shape.sleeves:
            # Grown a little so the sleeve's soft outer edge goes with it; left behind, it
            # would draw a faint outline where the sleeve lay in the flat lay.
            grown = cv2.dilate(sleeve.mask.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
            body_alpha[grown] = 0.0
    layers.append(_warp_layer_fit(garment.cutout.rgb, body_alpha, fit, (w, h)))
    if shape.sleeves is not None:
        for sleeve, left in zip(shape.sleeves, (True, False), strict=True):
            matrix = sleeve_transform(sleeve, torso_m, model, left)
            # The sleeve stays on its seam where the smooth fit moved the shoulder.
            pivot = np.asarray(sleeve.pivot, np.float64)[None]
            shift = fit.apply(pivot)[0] - _apply(torso_m, pivot)[0]
            matrix = np.array([[1, 0, shift[0]], [0, 1, shift[1]], [0, 0, 1]]) @ matrix
            grown = cv2.dilate(sleeve.mask.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
            sleeve_alpha = np.where(grown, alpha, 0.0).astype(np.float32)
            layers.append(_warp_layer(garment.cutout.rgb, sleeve_alpha, matrix, (w, h)))
        close_seams(layers, model)
    return Dressing(kind, layers, np.maximum.reduce([a for _, a in layers]))


# Gaps between the body and a sleeve up to this wide (in shoulder widths) are closed: the two
# are warped apart, and where the smooth fit and the sleeve's turn disagree a slit opened along
# the shoulder seam, showing the model's skin or old top through it (00055, 00126, 03244 and
# 049805 on every model measured 2-10 px wide at 768 px).
SEAM_CLOSE = 0.08


def seam_gaps(
    layers: list[tuple[Float32, Float32]], model: Person, size: float
) -> tuple[tuple[slice, slice], BoolMask]:
    """The gaps, up to `size` shoulder widths wide, between the body layer (first) and the
    sleeve layers: (the window they were looked for in, a bool mask of that window)."""
    p = model.pose.points
    shoulders = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    reach = max(3, int(size * shoulders) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))
    body_alpha = layers[0][1]
    sleeves = np.maximum.reduce([a for _, a in layers[1:]])
    union = np.maximum(body_alpha, sleeves)
    box = _source_box(union)
    if box is None:
        return (slice(0, 0), slice(0, 0)), np.zeros((0, 0), bool)
    pad = 2 * reach
    h, w = union.shape
    window = (slice(max(0, box[1] - pad), min(h, box[3] + pad)),
              slice(max(0, box[0] - pad), min(w, box[2] + pad)))
    solid = (union[window] > 0.5).astype(np.uint8)
    closed = cv2.morphologyEx(solid, cv2.MORPH_CLOSE, kernel)
    near_body = cv2.dilate((body_alpha[window] > 0.5).astype(np.uint8), kernel)
    near_sleeve = cv2.dilate((sleeves[window] > 0.5).astype(np.uint8), kernel)
    return window, (closed > 0) & (solid == 0) & (near_body > 0) & (near_sleeve > 0)


def seam_gap_share(dressing: Dressing, model: Person) -> float | None:
    """The gaps between body and sleeves still open after close_seams (up to the quality
    gate's SEAM_CHECK wide, on the model), over the garment's area; None without sleeves."""
    if len(dressing.layers) < 2 or dressing.kind.kind == BOTTOM:
        return None
    window, gap = seam_gaps(dressing.layers, model, quality.SEAM_CHECK)
    placed = int(np.count_nonzero(dressing.coverage > 0.5))
    person = model.subject.cutout.alpha[window] > 0.5
    return int(np.count_nonzero(gap & person)) / max(placed, 1)


def close_seams(layers: list[tuple[Float32, Float32]], model: Person) -> None:
    """Fill the slits between the body layer (first) and the sleeve layers, in place: the body
    layer takes, in each gap, the garment's colour carried in from around it (inpainting)."""
    window, gap = seam_gaps(layers, model, SEAM_CLOSE)
    if not gap.any():
        return
    body_rgb, body_alpha = layers[0]
    shape = gap.shape
    # The garment's colour as drawn (layers in order, straight colour), carried into the gap.
    colour: NDArray[Any] = np.zeros((*shape, 3), np.float32)  # numpy's stubs mistype the sum
    cover = np.zeros(shape, np.float32)
    for rgb, alpha in layers:
        a = alpha[window][..., None]
        colour = colour * (1.0 - a) + rgb[window] * a
        cover = cover * (1.0 - a[..., 0]) + a[..., 0]
    straight = np.clip(colour / np.maximum(cover, 1e-3)[..., None], 0, 255).astype(np.uint8)
    filled = cv2.inpaint(straight, gap.astype(np.uint8), 3, cv2.INPAINT_TELEA)
    body_rgb[window][gap] = filled[gap].astype(np.float32)
    body_alpha[window][gap] = 1.0


def expected_region(model: Person, kind: str) -> BoolMask:
    """Where the garment must be (bool): the chest band for a top, dress or outerwear; the band
    just below the waist for a bottom, in both cases inside the model's matte and between the
    body's sides (shoulders or hips)."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    across, down, torso = _body_axes(model)
    if kind == BOTTOM:
        centre = p[[models.LEFT_HIP, models.RIGHT_HIP]].mean(axis=0)
        half = 0.5 * float(np.linalg.norm(p[models.LEFT_HIP] - p[models.RIGHT_HIP]))
        start, end = -0.1 * torso, 0.1 * torso
    else:
        centre = p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER]].mean(axis=0)
        half = 0.35 * float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
        start, end = 0.2 * torso, 0.4 * torso
    corners = np.array(
        [centre + down * start - across * half, centre + down * start + across * half,
         centre + down * end + across * half, centre + down * end - across * half],
        np.int32,
    )
    region = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(region, corners, 1)
    return (region > 0) & (model.subject.cutout.alpha > 0.5)


@dataclass(frozen=True)
class WornOn:
    """What dress_model found on the model (bool, model's size), reused by its self-check."""

    hands: BoolMask
    hair: BoolMask
    top: BoolMask  # the own top, bottoms excluded
    bottoms: BoolMask
    painted: BoolMask  # where skin was painted over the own clothing
    arms: BoolMask  # the model's bare arms (skin along the arm bones, hands apart)
    arms_shown: BoolMask  # ... where the output shows them (in front of or beside the cloth)


def dressing_report(
    garment: Subject, model: Person, dressing: Dressing, out: Image8, worn: WornOn
) -> QualityReport:
    """The dressed model's self-check: the garment's matte, how it sits on the body, the holes
    through it and the model's own clothing still showing."""
    alpha = garment.cutout.alpha
    placed = dressing.coverage > 0.5
    person = model.subject.cutout.alpha > 0.5
    body = cv2.dilate(person.astype(np.uint8), np.ones((15, 15), np.uint8))
    matte = quality.cutout_report(garment.cutout.rgb, alpha, garment.backdrop, "dress_model")
    return dataclasses.replace(
        matte,
        garment_kind=dressing.kind.kind,
        garment_fit=quality.coverage_of(expected_region(model, dressing.kind.kind), placed),
        garment_on_body=quality.coverage_of(placed, body > 0),
        garment_holes=quality.holes_in(placed, person),
        seam_gaps=seam_gap_share(dressing, model),
        old_clothing=old_clothing(model, dressing, out, worn),
        painted_skin=painted_skin(model, dressing, worn),
        arm_through=arm_through(model, dressing, worn),
    )


def _shoulder_frame(model: Person) -> tuple[float, float, float, float]:
    """(left x, right x, the shoulders' y, the shoulder width) from the pose."""
    p = model.pose.points
    xs = sorted(float(v) for v in p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 0])
    y = float(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].mean())
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    return xs[0], xs[1], y, width


# The neckline and shoulders: between the shoulder joints, from this share of the torso's length
# above their line down to this share below it.
NECKLINE_UP = 0.15
NECKLINE_DOWN = 0.4


def painted_skin(model: Person, dressing: Dressing, worn: WornOn) -> float | None:
    """The share of the neckline and shoulders (between the shoulder joints, from just above
    their line to the top of the chest, inside the person) that shows skin painted where the
    model's own top was: a garment placed too low or too narrow leaves a flat, texture-less
    block of made-up skin there. None for a bottom (the top stays on)."""
    if dressing.kind.kind == BOTTOM:
        return None
    h, w = worn.painted.shape
    left, right, y, _ = _shoulder_frame(model)
    _, _, torso = _body_axes(model)
    region = np.zeros((h, w), bool)
    region[int(np.clip(y - NECKLINE_UP * torso, 0, h)) : int(np.clip(y + NECKLINE_DOWN * torso,
           0, h)), int(np.clip(left, 0, w)) : int(np.clip(right + 1, 0, w))] = True
    region &= model.subject.cutout.alpha > 0.5
    total = int(np.count_nonzero(region))
    if total == 0:
        return None
    shown = worn.painted & (dressing.coverage <= 0.5) & region
    return int(np.count_nonzero(shown)) / total


# An arm seen through the garment: its visible skin with the garment beside it on the side away
# from the body, within this share of the shoulder width.
ARM_REACH = 0.35


def arm_through(model: Person, dressing: Dressing, worn: WornOn) -> float | None:
    """The share of the model's arms that shows between the garment's body and its own cloth
    further out (a sleeve or a flared side that hangs beside the arm instead of around it):
    visible arm skin with the garment within ARM_REACH shoulder widths outward in its row.
    None for a bottom or where no arm is seen."""
    if dressing.kind.kind == BOTTOM:
        return None
    total = int(np.count_nonzero(worn.arms))
    if total < 200:
        return None
    left, right, _, width = _shoulder_frame(model)
    centre = 0.5 * (left + right)
    reach = max(1, int(ARM_REACH * width))
    cloth = ((dressing.coverage > 0.5) & ~worn.arms_shown).astype(np.uint8)
    h, w = cloth.shape
    # Garment somewhere in the `reach` pixels to the right (for the image-right arm) or to the
    # left (image-left): a running count along each row.
    run = np.cumsum(np.pad(cloth, ((0, 0), (1, 0))), axis=1)
    cols = np.arange(w)
    to_right = run[:, np.minimum(cols + 1 + reach, w)] - run[:, cols + 1]
    to_left = run[:, cols] - run[:, np.maximum(cols - reach, 0)]
    outward = np.where(cols[None, :] >= centre, to_right, to_left) > 0
    return int(np.count_nonzero(worn.arms_shown & outward)) / total


def old_clothing(model: Person, dressing: Dressing, out: Image8, worn: WornOn) -> float:
    """The share of the body the garment replaces clothing on where the model's own clothing
    still shows: not the new garment, not skin, hands or hair, and the colour the model photo
    had there. That body is the torso (shoulders to hips) for a top, a dress or outerwear, and
    hips to knees for a bottom, inside the person. What is worn on stays out of it: own bottoms
    under a top, the own top over new bottoms. Measured on the output against the model photo,
    not on the masks the dressing used: a top the own-top search missed would show here."""
    h, w = out.shape[:2]
    p = model.pose.points
    if dressing.kind.kind == BOTTOM:
        corners = p[[models.LEFT_HIP, models.RIGHT_HIP, RIGHT_KNEE, LEFT_KNEE]]
    else:
        corners = p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER, models.RIGHT_HIP,
                     models.LEFT_HIP]]
    quad = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(quad, corners.astype(np.int32), 1)
    body = (quad > 0) & (model.subject.cutout.alpha > 0.5)
    total = int(np.count_nonzero(body))
    if total == 0:
        return 0.0
    region = body & (dressing.coverage <= 0.5) & (model.skin < 0.5) & ~worn.hands & ~worn.hair
    if dressing.kind.kind == BOTTOM:
        region &= ~worn.top
    elif dressing.kind.kind != DRESS:
        region &= ~worn.bottoms
    shift = quality.colour_shift(model.rgb, out, region)
    return int(np.count_nonzero(shift <= quality.CHANGE_DE)) / total


# The model's own top (what the new garment replaces): not skin, inside the person, in the upper
# body, and close in colour to the cloth on the chest (lightness counts little: folds shade it);
# the parts connected to the chest. Jeans and skirts differ in colour and stay.
OWN_TOP_DE = 22.0
# Lightness weighs this much (squared) in that distance: a white top's side in shadow is grey,
# 60-120 levels darker but of the same (lack of) colour.
OWN_TOP_LIGHTNESS = 0.03
OWN_TOP_SKIN = 0.3  # below this skin weight a pixel may be cloth


def own_top(model: Person) -> BoolMask:
    """The model's own top (bool, model's size), found from the chest's cloth colour."""
    h, w = model.rgb.shape[:2]
    p = model.pose.points
    across, down, torso = _body_axes(model)
    shoulder_y = float(p[[models.LEFT_SHOULDER, models.RIGHT_SHOULDER], 1].min())
    hip_y = float(p[[models.LEFT_HIP, models.RIGHT_HIP], 1].max())
    y0, y1 = int(max(0, shoulder_y - 0.35 * torso)), int(min(h, hip_y + 0.15 * torso))
    cloth = (model.subject.cutout.alpha > 0.5) & (model.skin < OWN_TOP_SKIN)
    chest = expected_region(model, TOP) & cloth
    if y1 - y0 < 8 or int(np.count_nonzero(chest)) < 200:
        return np.zeros((h, w), bool)
    lab = cv2.cvtColor(model.rgb[y0:y1], cv2.COLOR_RGB2LAB).astype(np.float32)
    reference = np.median(lab[chest[y0:y1]], axis=0)
    diff = lab - reference
    distance = np.sqrt(
        OWN_TOP_LIGHTNESS * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2
    )
    near = (distance < OWN_TOP_DE) & cloth[y0:y1]
    near &= hair_mask(model)[y0:y1] < 0.5
    count, labels = cv2.connectedComponents(near.astype(np.uint8))
    seeds = np.unique(labels[chest[y0:y1] & near])
    seeds = seeds[seeds > 0]
    top = np.isin(labels, seeds).astype(np.uint8)
    # Its edge (a strap's rim in the light, cloth mixed with backdrop): the cloth just beside it.
    top = cv2.dilate(top, np.ones((5, 5), np.uint8)) & cloth[y0:y1].astype(np.uint8)
    out = np.zeros((h, w), bool)
    out[y0:y1] = top > 0
    return out


def bare_skin(
    model: Person, where: BoolMask, base: Float32 | None = None, detail: float = 1.5
) -> Float32:
    """The model photo with skin where `where` (bool) is, float32 RGB.

    The colour is spread in from the model's own skin around it (a normalised blur at a quarter
    of the size, wide enough to reach across a chest: the neck's and arms' tones meet smoothly,
    no flat patch), under the light the covered cloth had (its lightness over its local
    average: folds and fall-off carry over, the cloth's own brightness does not). Worked out in
    the box around `where` (grown by a shoulder width, where the skin it spreads from is).
    `base` (float32 RGB) is painted on instead of the photo; `detail` is the blur (pixels) of
    the light taken over: wider for jeans, whose creases are the cloth's, not the body's."""
    out = model.rgb.astype(np.float32) if base is None else base.copy()
    skin_all = (model.skin > 0.9) & ~where
    if not where.any() or int(np.count_nonzero(skin_all)) < 200:
        return out
    h, w = where.shape
    p = model.pose.points
    width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
    x, y, bw, bh = cv2.boundingRect(where.astype(np.uint8))
    grow = int(width)
    x0, y0 = max(0, x - grow), max(0, y - grow)
    x1, y1 = min(w, x + bw + grow), min(h, y + bh + grow)
    box = (slice(y0, y1), slice(x0, x1))
    rgb, inside, skin = out[box], where[box], skin_all[box]
    if int(np.count_nonzero(skin)) < 200:
        return out
    ch, cw = inside.shape
    sw, sh = max(8, cw // 4), max(8, ch // 4)
    def shrink(image: Floats) -> NDArray[Any]:
        return np.asarray(cv2.resize(image, (sw, sh), interpolation=cv2.INTER_AREA))

    known = shrink(skin.astype(np.float32))
    sigma = max(2.0, 0.2 * width / 4)
    weight = cv2.GaussianBlur(known, (0, 0), sigma)
    spread = cv2.GaussianBlur(shrink(rgb * skin[..., None]), (0, 0), sigma) / np.maximum(
        weight, 1e-4
    )[..., None]
    median = np.median(model.rgb[skin_all].astype(np.float32), axis=0)
    # Far from any skin the blur says little: the median skin colour there.
    trust = np.clip(weight / 0.05, 0.0, 1.0)[..., None]
    spread = spread * trust + median[None, None, :] * (1.0 - trust)
    grey = cv2.cvtColor(model.rgb[box], cv2.COLOR_RGB2GRAY).astype(np.float32)
    cloth = shrink(inside.astype(np.float32))
    small_grey = shrink(grey)
    local = cv2.GaussianBlur(small_grey * cloth, (0, 0), 0.3 * width / 4) / (
        cv2.GaussianBlur(cloth, (0, 0), 0.3 * width / 4) + 1e-3
    )
    def grow_up(image: NDArray[Any]) -> NDArray[Any]:
        return np.asarray(cv2.resize(image, (cw, ch), interpolation=cv2.INTER_LINEAR))

    # Full size only where the cloth is (its own box, a few pixels wider for the soft edge).
    inner = (slice(max(0, y - y0 - 4), y - y0 + bh + 4), slice(max(0, x - x0 - 4), x - x0 + bw + 4))
    light = np.clip(
        cv2.GaussianBlur(grey[inner], (0, 0), detail) / np.maximum(grow_up(local)[inner], 1.0),
        0.75 if detail <= 1.5 else 0.9,
        1.1 if detail <= 1.5 else 1.05,
    )
    fill = grow_up(spread)[inner] * (light**0.8)[..., None]
    edge = inside[inner]
    soft = cv2.GaussianBlur(edge.astype(np.float32), (0, 0), 1.0)
    # Grown by a pixel so the soft edge of the old cloth (a mix of cloth and skin) goes too.
    soft = np.maximum(soft, cv2.dilate(edge.astype(np.uint8), np.ones((3, 3), np.uint8)))
    target = rgb[inner]
    rgb[inner] = target + (fill - target) * soft[..., None]
    out[box] = rgb
    return out


# The model's own bottoms (jeans, a skirt): cloth inside the person from the waist down, not
# skin, not the own top, close in colour to the cloth between the hip joints (lightness counts
# little: jeans fade and fold), in one piece with it. Above the ankles only: shoes stay.
OWN_BOTTOM_DE = 25.0
OWN_BOTTOM_LIGHTNESS = 0.03
# The band read for the bottoms' colour: between the hip joints, from the hip line down this
# share of the torso's length (the crotch of jeans, the front of a skirt; tops end above it).
OWN_BOTTOM_SEED = 0.2
# The waistband can ride this share of the torso above the hip joints (a high rise).
OWN_BOTTOM_RISE = 0.5


def own_bottoms(model: Person) -> BoolMask:
    """The model's own bottoms (bool, model's size), found from the cloth colour at the top of
    the thighs. Found without the own top: pale jeans are near a white top's colour, and the
    top's search (down to below the hips) takes their waistband; the bottoms win there."""
    h, w = model.rgb.shape[:2]
    p, seen = model.pose.points, model.pose.visibility
    none = np.zeros((h, w), bool)
    hips = p[[models.LEFT_HIP, models.RIGHT_HIP]]
    if seen[[models.LEFT_HIP, models.RIGHT_HIP]].min() < HIP_VISIBILITY or hips[:, 1].max() >= h:
        return none
    _, _, torso = _body_axes(model)
    hip_y = float(hips[:, 1].mean())
    y0 = int(np.clip(hip_y - OWN_BOTTOM_RISE * torso, 0, h))
    y1 = h
    ankles = [models.LEFT_ANKLE, models.RIGHT_ANKLE]
    if seen[ankles].max() >= 0.5 and p[ankles, 1].min() < h:
        # Shoes start about at the ankle joints: the bottoms are read down to a little above.
        y1 = int(np.clip(p[ankles, 1].min() - 0.05 * torso, y0, h))
    if y1 - y0 < 8:
        return none
    cloth = (model.subject.cutout.alpha > 0.5) & (model.skin < OWN_TOP_SKIN)
    seed = np.zeros((h, w), bool)
    x_lo, x_hi = sorted(float(v) for v in hips[:, 0])
    seed[
        int(max(y0, hip_y)) : int(min(y1, hip_y + OWN_BOTTOM_SEED * torso)),
        int(max(0, x_lo)) : int(min(w, x_hi + 1)),
    ] = True
    seed &= cloth
    if int(np.count_nonzero(seed)) < 200:
        return none
    lab = cv2.cvtColor(model.rgb[y0:y1], cv2.COLOR_RGB2LAB).astype(np.float32)

    def distance(reference: Floats) -> Floats:
        diff = lab - reference
        weighted = OWN_BOTTOM_LIGHTNESS * diff[..., 0] ** 2 + diff[..., 1] ** 2 + diff[..., 2] ** 2
        return np.asarray(np.sqrt(weighted))

    to_bottoms = distance(np.median(lab[seed[y0:y1]], axis=0))
    near = (to_bottoms < OWN_BOTTOM_DE) & cloth[y0:y1]
    chest = expected_region(model, TOP) & cloth
    if int(np.count_nonzero(chest)) >= 200:
        # Pale jeans against a white top: above the hip line (where a top can reach) a pixel
        # nearer the chest's cloth is the top's. Lower down, faded jeans are still jeans.
        chest_lab = cv2.cvtColor(model.rgb[chest][None], cv2.COLOR_RGB2LAB)[0]
        nearer_top = to_bottoms >= distance(np.median(chest_lab.astype(np.float32), axis=0))
        nearer_top[int(max(0, hip_y - y0)) :] = False
        near &= ~nearer_top
    _, labels = cv2.connectedComponents(near.astype(np.uint8))
    seeds = np.unique(labels[seed[y0:y1] & near])
    seeds = seeds[seeds > 0]
    found = np.isin(labels, seeds).astype(np.uint8)
    # Its rim (cloth mixed with backdrop or skin): the cloth just beside it.
    found = cv2.dilate(found, np.ones((5, 5), np.uint8)) & cloth[y0:y1].astype(np.uint8)
    out = none.copy()
    out[y0:y1] = found > 0
    return out


# A column's lowest garment pixel is the hem if it is within this share of the garment's height
# of the lowest row (a slanted or curved hem); higher up it is a crotch or a side slit.
HEM_SPREAD = 0.12
# Legs under a skirt: their width just below the old hem, grown by this share of the shoulders'
# width (thighs widen upward).
LEG_GROW = 0.06
LEG_DETAIL = 6.0  # the blur (pixels) of the old bottoms' light laid onto the legs


def uncovered_bottoms(
    model: Person, bottoms: BoolMask, coverage: Mask
) -> tuple[BoolMask, BoolMask]:
    """Where the model's own bottoms would still show around a dress or a new bottom, split in
    two (bool masks): (skin, gone). Above the new garment (a high waist over a low skirt) and
    below its hem (jeans below a short dress), the body is there: belly and legs, painted as
    skin. Beside it and between trouser legs, the new garment is the body's outline: what stuck
    out of it is backdrop. Under a skirt the legs are where they come out below it."""
    h, w = coverage.shape
    placed = coverage > 0.5
    left = bottoms & ~placed
    rows = np.nonzero(placed.any(axis=1))[0]
    none = np.zeros_like(left)
    if not left.any() or len(rows) == 0:
        return left, none
    top, bottom = int(rows[0]), int(rows[-1])
    y = np.arange(h)[:, None]
    # Per column, the lowest garment pixel; a hem only near the garment's lowest row.
    lowest = np.where(placed.any(axis=0), h - 1 - np.argmax(placed[::-1], axis=0), -1)
    hem = np.where(lowest >= bottom - HEM_SPREAD * (bottom - top), lowest, h)
    below = left & (y > hem[None, :])
    # Rows past the garment's ends in columns it does not reach: a hem's corner, a waist's side.
    below |= left & (y > bottom)
    above = left & (y < top)
    legs = below
    old_rows = np.nonzero(bottoms.any(axis=1))[0]
    old_end = int(old_rows[-1])
    if old_end < h - 8:
        # The old bottoms end in the frame (a skirt, shorts): the legs come out below them.
        # (The person's matte there, not the skin mask: legs in the skirt's shadow are dark.)
        band = (model.subject.cutout.alpha[old_end + 1 : min(h, old_end + 12)] > 0.5).all(axis=0)
        if band.any():
            p = model.pose.points
            width = float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER]))
            grow = max(1, int(LEG_GROW * width))
            columns = cv2.dilate(band.astype(np.uint8)[None], np.ones((1, 2 * grow + 1), np.uint8))
            legs = below & (columns[0] > 0)[None, :]
    return above | legs, left & ~(above | legs)


def dress_model(
    garment: Subject, model: Person, progress: ProgressFn
) -> tuple[Image8, Mask]:
    """Case (b): the model wearing the garment, and the person's new matte (garment included)."""
    alpha = garment.cutout.alpha
    if float((alpha > 0.5).mean()) < 0.02:
        raise NoGarmentFound("No garment could be separated from the background of the photo.")
    progress(0.4, "fitting the garment")
    dressing = place_garment(garment, model)
    h, w = model.rgb.shape[:2]
    progress(0.55, "shading")
    coverage = dressing.coverage
    light = shading(model, coverage)
    arms, hands = arm_masks(model)
    arm_skin = (arms >= 0.5) & (hands < 0.5)
    hair = hair_mask(model)
    found_hands, found_hair = hands >= 0.5, hair >= 0.5  # before the face joins the hair
    if model.face is not None:
        # The face is always in front (a halter's neck tie must not cross it).
        head = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(head, cv2.convexHull(model.face[FACE_OVAL].astype(np.int32)), 1)
        hair = np.maximum(hair, head.astype(np.float32))
    def soft(m: Mask) -> Mask:  # a one-line helper
        return np.asarray(cv2.GaussianBlur(m, (0, 0), 1.5), np.float32)

    arms, hands, hair = soft(arms), soft(hands), soft(hair)
    sleeveless = dressing.kind.kind == BOTTOM or len(dressing.layers) == 1
    person = model.subject.cutout.alpha
    bottoms = own_bottoms(model)
    top = own_top(model) & ~bottoms
    bare = np.zeros((h, w), bool)
    if dressing.kind.kind != BOTTOM:
        # The model's own top is taken off first: wherever the new garment does not reach
        # (straps above a strapless top, a tank below a crop top), skin shows, not old cloth.
        bare = top & (hands < 0.5) & (hair < 0.5)
    gone = np.zeros((h, w), bool)
    legs = np.zeros((h, w), bool)
    if dressing.kind.kind in (DRESS, BOTTOM):
        # So are the own bottoms around a dress or a new bottom (a skirt beside a dress, jeans
        # below a short hem). Tops and outerwear are worn over them: those stay.
        legs, gone = uncovered_bottoms(model, bottoms, coverage)
        legs &= hands < 0.5
        gone &= (hands < 0.5) & (arms < 0.5)
    out = bare_skin(model, bare)
    if legs.any():
        # Legs under jeans: only the broad light (the body's roundness) carries over.
        out = bare_skin(model, legs, out, detail=LEG_DETAIL)
        bare |= legs
    if gone.any():
        # Backdrop where the old bottoms stuck out (grown by a pixel or two: their soft rim
        # goes too, but not over skin or the new garment), and out of the person's matte.
        rim = cv2.dilate(gone.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        rim &= (model.skin < 0.5) & (coverage < 0.5) & (hands < 0.5) & (arms < 0.5) & ~bare
        region = (gone | rim).astype(np.float32)
        weight = np.maximum(cv2.GaussianBlur(region, (0, 0), 1.0) * region, gone)
        backdrop = matting.estimate_background(model.rgb, person)
        out += (backdrop - out) * weight[..., None]
        person = person * (1.0 - weight)
    for i, (rgb, layer_alpha) in enumerate(dressing.layers):
        visible = layer_alpha * (1.0 - hands) * (1.0 - hair)
        if i == 0 and sleeveless:
            # Bare arms hang in front of a sleeveless garment's body and beside a bottom. (With
            # sleeves the arms are inside them; the sleeve layers are drawn over the body.)
            visible *= 1.0 - arms
        lit = rgb * light[..., None]
        out += (lit - out) * visible[..., None]
    result = np.clip(out + 0.5, 0, 255).astype(np.uint8)
    progress(0.75, "checking the result")
    # Arms are drawn in front of a sleeveless garment's body; with sleeves they show where no
    # cloth is.
    shown = arm_skin if sleeveless else arm_skin & (coverage <= 0.5)
    worn = WornOn(found_hands, found_hair, top, bottoms, bare, arm_skin, shown)
    quality.enforce(dressing_report(garment, model, dressing, result, worn))
    person = np.maximum(person, coverage)
    return result, person.astype(np.float32)
