"""What the generative try-on repaints, and what it is shown: built from our own body analysis.

Plain numpy/OpenCV on the analysis the CPU engine already makes (pose, matte, skin, face, hair,
the model's own clothes; engine/digital_model.py and engine/swap_garment/), so both engines
read a photo the same way. No torch here.

- :func:`tryon_mask` is the region of the digital model that the garment will cover: the
  garment's class decides the body parts (a top: torso and arms; a bottom: hips and legs; a dress
  or a whole outfit: both), joined with the model's own clothes of that kind (they must go) and
  kept within the model's outline, never over the face or the hair. Everything outside it is
  pasted back from the model photo unchanged.
- :func:`worn_garment` is what a person in a photo wears, for model swap (a): their matte less
  their skin, face and hair.
- :func:`garment_condition` is the garment alone on white, cropped to it: what the try-on model
  sees of the garment (CatVTON's condition image).
"""

from __future__ import annotations

import cv2
import numpy as np

from engine import models
from engine.arrays import BoolMask, Floats, Image8, Mask
from engine.digital_model import FACE_OVAL, LEFT_KNEE, RIGHT_KNEE, Person
from engine.swap_garment import BOTTOM, DRESS, OUTERWEAR, TOP, hair_mask, own_bottoms, own_top

# The whole outfit a person wears (model swap (a)): the torso's and the legs' regions together.
OUTFIT = "outfit"
UPPER_KINDS = (TOP, OUTERWEAR, DRESS, OUTFIT)
LOWER_KINDS = (BOTTOM, DRESS, OUTFIT)

# Sizes in shoulder widths (the pose's one body-relative unit).
TORSO_WIDEN = 0.18  # the torso polygon reaches this far beyond the shoulders and hips sideways
NECKLINE_RISE = 0.12  # and this far above the shoulder line (a collar sits there)
ARM_RADII = (0.24, 0.2)  # upper arm, forearm: sleeves are wider than the arm
LEG_RADII = (0.34, 0.26)  # thigh, shin: trousers and skirts are wider than the leg
OUTLINE_GROWTH = 0.08  # the mask may leave the model's matte by this much (a looser garment)
MIN_SHARE = 0.01  # a mask smaller than this share of the photo means the analysis failed
CONDITION_MARGIN = 0.06  # white margin around the garment in the condition image


def _unit(person: Person) -> float:
    p = person.pose.points
    return max(1.0, float(np.linalg.norm(p[models.LEFT_SHOULDER] - p[models.RIGHT_SHOULDER])))


def _capsule(mask: Image8, a: Floats, b: Floats, radius: float) -> None:
    cv2.line(mask, tuple(int(v) for v in a), tuple(int(v) for v in b), 1,
             max(1, int(2 * radius)))
    for end in (a, b):
        cv2.circle(mask, tuple(int(v) for v in end), max(1, int(radius)), 1, -1)


def _upper(mask: Image8, person: Person, unit: float) -> None:
    p = person.pose.points
    ls, rs = p[models.LEFT_SHOULDER], p[models.RIGHT_SHOULDER]
    lh, rh = p[models.LEFT_HIP], p[models.RIGHT_HIP]
    # The body's own left is the image's right for a person facing the camera: widen each side
    # outwards from the torso's centre line, whatever the orientation.
    centre = (ls + rs + lh + rh) / 4.0

    def out(point: Floats, up: float = 0.0) -> Floats:
        side = np.sign(point[0] - centre[0]) or 1.0
        return point + np.array([side * TORSO_WIDEN * unit, -up * unit], np.float32)

    polygon = np.array([out(ls, NECKLINE_RISE), out(rs, NECKLINE_RISE), out(rh), out(lh)],
                       np.int32)
    cv2.fillConvexPoly(mask, cv2.convexHull(polygon), 1)
    for shoulder, elbow, wrist in (
        (models.LEFT_SHOULDER, models.LEFT_ELBOW, models.LEFT_WRIST),
        (models.RIGHT_SHOULDER, models.RIGHT_ELBOW, models.RIGHT_WRIST),
    ):
        _capsule(mask, p[shoulder], p[elbow], ARM_RADII[0] * unit)
        _capsule(mask, p[elbow], p[wrist], ARM_RADII[1] * unit)


def _lower(mask: Image8, person: Person, unit: float) -> None:
    p, seen = person.pose.points, person.pose.visibility
    lh, rh = p[models.LEFT_HIP], p[models.RIGHT_HIP]
    # The hip band: from a little above the hips (the waistband) to the crotch.
    waist = (lh + rh) / 2.0 - np.array([0.0, 0.25 * unit], np.float32)
    span = np.array([0.55 * unit, 0.0], np.float32)
    crotch = (lh + rh) / 2.0 + np.array([0.0, 0.45 * unit], np.float32)
    band = np.array([waist - span, waist + span, crotch + span, crotch - span], np.int32)
    cv2.fillConvexPoly(mask, band, 1)
    h = mask.shape[0]
    for hip, knee, ankle in (
        (models.LEFT_HIP, LEFT_KNEE, models.LEFT_ANKLE),
        (models.RIGHT_HIP, RIGHT_KNEE, models.RIGHT_ANKLE),
    ):
        # A leg cut by the frame runs down to the frame's edge.
        knee_point = p[knee] if seen[knee] > 0.3 else np.array([p[hip][0], h], np.float32)
        _capsule(mask, p[hip], knee_point, LEG_RADII[0] * unit)
        if seen[knee] > 0.3:
            ankle_point = p[ankle] if seen[ankle] > 0.3 else np.array([p[knee][0], h], np.float32)
            _capsule(mask, p[knee], ankle_point, LEG_RADII[1] * unit)


def head(person: Person) -> BoolMask:
    """Face and hair: never repainted (the model's identity)."""
    h, w = person.rgb.shape[:2]
    region = hair_mask(person) > 0.5
    if person.face is not None:
        face = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(face, cv2.convexHull(person.face[FACE_OVAL].astype(np.int32)), 1)
        region |= face > 0
    else:
        # No face mesh: a disc around the nose, a head's size.
        disc = np.zeros((h, w), np.uint8)
        nose = person.pose.points[models.NOSE]
        cv2.circle(disc, (int(nose[0]), int(nose[1])), int(0.45 * _unit(person)), 1, -1)
        region |= disc > 0
    return region


def tryon_mask(person: Person, kind: str) -> BoolMask:
    """The region of `person` (the digital model) to repaint for a garment of class `kind`
    (swap_garment's TOP, BOTTOM, DRESS, OUTERWEAR, or OUTFIT), bool at the photo's size."""
    h, w = person.rgb.shape[:2]
    unit = _unit(person)
    regions = np.zeros((h, w), np.uint8)
    if kind in UPPER_KINDS:
        _upper(regions, person, unit)
    if kind in LOWER_KINDS:
        _lower(regions, person, unit)
    mask = regions > 0
    # The model's own clothes of that kind go wherever they are (a long coat below the hips).
    if kind in UPPER_KINDS:
        mask |= own_top(person)
    if kind in LOWER_KINDS:
        mask |= own_bottoms(person)
    grow = max(3, int(OUTLINE_GROWTH * unit)) | 1
    outline = cv2.dilate((person.subject.cutout.alpha > 0.5).astype(np.uint8),
                         cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow))) > 0
    mask &= outline
    mask &= ~head(person)
    return mask


def mask_share(mask: BoolMask) -> float:
    return float(np.count_nonzero(mask)) / max(1, mask.size)


def worn_garment(person: Person) -> Mask:
    """What the person in the photo wears (float32 0..1 at the photo's size): their matte, less
    skin (arms, neck, legs), face and hair."""
    alpha = person.subject.cutout.alpha.astype(np.float32)
    keep = (1.0 - np.clip(person.skin, 0.0, 1.0)) * (~head(person)).astype(np.float32)
    return np.asarray(alpha * keep, np.float32)


def garment_condition(rgb: Image8, alpha: Mask) -> Image8:
    """The garment alone on white, cropped to its box with a margin (uint8 RGB)."""
    solid = alpha > 0.5
    ys, xs = np.nonzero(solid)
    if len(ys) == 0:
        return np.full((8, 8, 3), 255, np.uint8)
    y0, y1, x0, x1 = int(ys.min()), int(ys.max()) + 1, int(xs.min()), int(xs.max()) + 1
    a = alpha[y0:y1, x0:x1, None].astype(np.float32)
    cut = rgb[y0:y1, x0:x1].astype(np.float32) * a + 255.0 * (1.0 - a)
    margin = int(CONDITION_MARGIN * max(y1 - y0, x1 - x0))
    out = cv2.copyMakeBorder(np.clip(cut + 0.5, 0, 255).astype(np.uint8), margin, margin, margin,
                             margin, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    return np.asarray(out, np.uint8)


__all__ = ["OUTFIT", "garment_condition", "head", "mask_share", "tryon_mask", "worn_garment"]
