"""Step 5 of dressing a model: the self-check of the dressed model (engine/quality.py decides).

How the garment sits on the body, the holes and seam gaps through it, the model's own clothing
still showing, skin painted in a neckline and sleeves hanging beside the arms.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import cv2
import numpy as np

from engine import models, quality
from engine.analysis import Subject
from engine.arrays import BoolMask, Image8
from engine.digital_model import LEFT_KNEE, RIGHT_KNEE, Person
from engine.quality import QualityReport
from engine.swap_garment.body import body_axes, expected_region, shoulder_frame
from engine.swap_garment.classify import BOTTOM, DRESS
from engine.swap_garment.place import Dressing, seam_gap_share


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
    left, right, y, _ = shoulder_frame(model)
    _, _, torso = body_axes(model)
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
    left, right, _, width = shoulder_frame(model)
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
